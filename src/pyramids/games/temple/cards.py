"""The cards of Temple of Inscriptions: construction levels 1..9 and jewels.

Cards of one kind are alike, so the engine counts kinds instead of tracking card
identities. Kind index `k` in 0..8 is a construction card of level `k + 1`
(written `L1`..`L9`); kind index 9 is a jewel (written `J`). A hand or a pile of
face-up cards is a list of ten counts indexed by kind.
"""

from __future__ import annotations

from pyramids.core.errors import N_, Words

LEVELS = 9
JEWEL = LEVELS  # the kind index of a jewel card
NUM_KINDS = LEVELS + 1
KIND_NAMES: tuple[str, ...] = tuple(f"L{level}" for level in range(1, LEVELS + 1)) + ("J",)
_KIND_BY_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}


def kind_name(kind: int) -> str:
    return KIND_NAMES[kind]


def kind_words(kind: int) -> Words:
    """A card kind as players read it ("level 3 card", "jewel card"), for messages."""
    if kind == JEWEL:
        return Words(N_("jewel card"))
    return Words(N_("level {level} card"), level=kind + 1)


def parse_kind(text: str) -> int | None:
    """The kind index of `L1`..`L9` or `J` (any case), or None for other text."""
    return _KIND_BY_NAME.get(text.strip().upper())


def level_kind(level: int) -> int:
    """The kind index of the construction cards of `level` (1..9)."""
    return level - 1


def is_built_kind(kind: int, built: int) -> bool:
    """Whether `kind` is a construction card of a level already built (levels 1..built)."""
    return kind < built


def new_deck(cards_per_level: int, jewels: int) -> list[int]:
    """Every card of the game as a list of kinds, in a fixed order (shuffle it)."""
    deck = [kind for kind in range(LEVELS) for _ in range(cards_per_level)]
    deck.extend([JEWEL] * jewels)
    return deck


def empty_counts() -> list[int]:
    return [0] * NUM_KINDS


def counts_of(cards: list[int]) -> list[int]:
    counts = empty_counts()
    for kind in cards:
        counts[kind] += 1
    return counts


def counts_to_dict(counts: list[int]) -> dict[str, int]:
    """Kind counts as {"L3": 2, "J": 1}, leaving out kinds with none."""
    return {KIND_NAMES[kind]: n for kind, n in enumerate(counts) if n}


def counts_from_dict(data: dict[str, int]) -> list[int]:
    """The inverse of `counts_to_dict`; an unknown kind or a negative count raises ValueError."""
    counts = empty_counts()
    for name, n in data.items():
        kind = parse_kind(name)
        if kind is None:
            raise ValueError(f"unknown card kind {name!r}; allowed: {', '.join(KIND_NAMES)}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"count of {name} must be a non-negative integer, not {n!r}")
        counts[kind] += n
    return counts
