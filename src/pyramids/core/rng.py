"""A small seedable random generator whose whole state is one integer.

Engines keep their chance source inside the state, so that `to_json` can save
it exactly and a seed plus the list of actions replays a game. Python's
`random.Random` carries a 625-word state; SplitMix64 carries one word and is
good enough for shuffling cards and tiles.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_to_int(seed: int | str | None) -> int:
    """Turn a user's seed (an int, a string, or None for 0) into a 64-bit state."""
    if seed is None:
        return 0
    if isinstance(seed, bool):
        raise TypeError("a seed is an integer or a string, not a bool")
    if isinstance(seed, int):
        return seed & _MASK
    if isinstance(seed, str):
        value = 1469598103934665603
        for byte in seed.encode("utf-8"):
            value = ((value ^ byte) * 1099511628211) & _MASK
        return value
    raise TypeError(f"a seed is an integer or a string, not {type(seed).__name__}")


class Rng:
    """SplitMix64. The interface mirrors the parts of `random.Random` we use."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str | None = 0) -> None:
        self.state = seed_to_int(seed)

    @classmethod
    def from_state(cls, state: object) -> Rng:
        """The generator resumed from a saved `state` (an integer 0..2**64-1).

        A seed is hashed or masked; a saved state must be taken as it is, so
        anything else (a bool, a float, a string, an out-of-range number) is a
        malformed save and raises ValueError."""
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= _MASK:
            raise ValueError(f"{state!r} is not a generator state (an integer 0..2**64-1)")
        rng = cls.__new__(cls)
        rng.state = state
        return rng

    def copy(self) -> Rng:
        """An independent generator at the same point (search bots clone often)."""
        twin = Rng.__new__(Rng)
        twin.state = self.state
        return twin

    def next_u64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError(f"randrange needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def randint(self, a: int, b: int) -> int:
        return a + self.randrange(b - a + 1)

    def random(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def spawn(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.next_u64())

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
