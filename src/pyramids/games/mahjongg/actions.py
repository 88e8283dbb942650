"""The fixed, finite action set of one layout, and the action strings.

Actions, for a layout of `n` tiles (ids 0..n-1):
- `match A B` (A < B; `match B A` is read as the same action): one id per pair of
  tiles, `n·(n−1)/2` in all, first;
- `shift A`: Anubis Shift on tile A, `n` ids;
- `pass`, `sight`, `reshuffle`, `undo`, `hint`, `finish`: one id each;
- time attack with the real clock only: `clock S` for S in 0..time_limit_seconds;
- with the Tile Reveal favor only: `reveal A`, `n` ids, last (so that the numbers
  of every other action are those of games saved before the favor existed).
"""

from __future__ import annotations

from pyramids.core.errors import N_, IllegalActionError, Words

PASS = "pass"
SIGHT = "sight"
RESHUFFLE = "reshuffle"
UNDO = "undo"
HINT = "hint"
FINISH = "finish"
SIMPLE = (PASS, SIGHT, RESHUFFLE, UNDO, HINT, FINISH)


class ActionSpace:
    """Numbers <-> meanings for one layout size (and clock limit in time attack,
    and whether the Tile Reveal favor exists)."""

    def __init__(self, tiles: int, clock_limit: int | None, reveal: bool = False) -> None:
        self.tiles = tiles
        self.num_pairs = tiles * (tiles - 1) // 2
        self.pairs: tuple[tuple[int, int], ...] = tuple(
            (a, b) for a in range(tiles) for b in range(a + 1, tiles)
        )
        self.shift_base = self.num_pairs
        self.simple_base = self.num_pairs + tiles
        self.simple = {name: self.simple_base + i for i, name in enumerate(SIMPLE)}
        self.clock_base = self.simple_base + len(SIMPLE)
        self.clock_limit = clock_limit
        self.reveal_base = self.clock_base + (clock_limit + 1 if clock_limit is not None else 0)
        self.reveal = reveal
        self.size = self.reveal_base + (tiles if reveal else 0)

    def match(self, a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        return a * (2 * self.tiles - a - 1) // 2 + (b - a - 1)

    def shift(self, tile: int) -> int:
        return self.shift_base + tile

    def clock(self, seconds: int) -> int:
        return self.clock_base + seconds

    def reveal_tile(self, tile: int) -> int:
        return self.reveal_base + tile

    def kind(self, action: int) -> str:
        """'match', 'shift', 'clock', 'reveal', one of SIMPLE, or '' when out of range."""
        if action < 0 or action >= self.size:
            return ""
        if action < self.num_pairs:
            return "match"
        if action < self.simple_base:
            return "shift"
        if action < self.clock_base:
            return SIMPLE[action - self.simple_base]
        if action < self.reveal_base:
            return "clock"
        return "reveal"

    def to_string(self, action: int) -> str:
        kind = self.kind(action)
        if kind == "match":
            a, b = self.pairs[action]
            return f"match {a} {b}"
        if kind == "shift":
            return f"shift {action - self.shift_base}"
        if kind == "clock":
            return f"clock {action - self.clock_base}"
        if kind == "reveal":
            return f"reveal {action - self.reveal_base}"
        if kind:
            return kind
        raise ValueError(f"no action {action}; actions are 0..{self.size - 1}")

    def parse(self, text: str) -> int:
        words = text.strip().lower().split() if isinstance(text, str) else []
        if len(words) == 1 and words[0] in self.simple:
            return self.simple[words[0]]
        if words and words[0] == "match" and len(words) == 3:
            a, b = self._tile(words[1], text), self._tile(words[2], text)
            if a == b:
                raise IllegalActionError(
                    N_("'{text}' names the same tile twice; a match takes two different tiles"),
                    text=text)
            return self.match(a, b)
        if words and words[0] == "shift" and len(words) == 2:
            return self.shift(self._tile(words[1], text))
        if words and words[0] == "reveal" and len(words) == 2 and self.reveal:
            return self.reveal_tile(self._tile(words[1], text))
        if words and words[0] == "clock" and len(words) == 2 and self.clock_limit is not None:
            seconds = _int(words[1])
            if seconds is None or not 0 <= seconds <= self.clock_limit:
                raise IllegalActionError(
                    N_("'{text}': the clock takes whole seconds 0..{last}"),
                    text=text, last=self.clock_limit)
            return self.clock(seconds)
        raise IllegalActionError(self._unknown(text))

    def _unknown(self, text: str) -> Words:
        """What a move may be: the tile moves by the numbers shown on the board."""
        moves = ["'match A B'", "'shift A'"] + (["'reveal A'"] if self.reveal else [])
        rest = ", ".join(repr(s) for s in SIMPLE)
        if self.clock_limit is not None:
            rest += f", 'clock S' (S 0..{self.clock_limit})"
        return Words(N_("unknown move '{text}'; allowed: {tile_moves} (A and B the numbers of "
                        "tiles, 0..{last}), {others}"),
                     text=text, tile_moves=", ".join(moves), last=self.tiles - 1, others=rest)

    def _tile(self, word: str, text: str) -> int:
        tile = _int(word)
        if tile is None or not 0 <= tile < self.tiles:
            raise IllegalActionError(
                N_("'{text}': '{word}' is not the number of a tile; tiles are numbered "
                   "0..{last}"), text=text, word=word, last=self.tiles - 1)
        return tile


def _int(word: str) -> int | None:
    return int(word) if word.isascii() and word.isdigit() else None
