"""The fixed action set of Temple of Inscriptions and its action strings.

Action strings (case and extra spaces do not matter):
- `swap K S`: give a hand card of kind K (`L1`..`L9` or `J`) and take the card in
  swap-zone slot S (slots numbered from 1);
- `swap pass`: keep your hand in phase 2;
- `summon`, `pass`: summon the construction of the current level, or pass;
- `set C J`: set C construction cards of the current level and J jewel pairs.

Numbering, for `swap_size` slots: `swap K S` is `kind * swap_size + (S - 1)`,
then `swap pass`, `summon`, `pass`, then one number per `set C J` in
`SET_CHOICES` order.
"""

from __future__ import annotations

from typing import NamedTuple

from pyramids.core.errors import N_, IllegalActionError
from pyramids.games.temple.cards import KIND_NAMES, NUM_KINDS, parse_kind
from pyramids.games.temple.construction import SET_CHOICES

SWAP, SWAP_PASS, SUMMON, PASS, SET = "swap", "swap pass", "summon", "pass", "set"


class Decoded(NamedTuple):
    """An action number spelt out: `what` is one of SWAP, SWAP_PASS, SUMMON, PASS, SET.

    For SWAP, `a` is the kind given and `b` the slot taken (from 0); for SET, `a`
    is the level cards and `b` the jewel pairs.
    """

    what: str
    a: int = 0
    b: int = 0


class ActionCodec:
    """Numbers <-> meanings <-> strings for a game with `swap_size` swap-zone slots."""

    def __init__(self, swap_size: int) -> None:
        self.swap_size = swap_size
        self.swap_pass = NUM_KINDS * swap_size
        self.summon = self.swap_pass + 1
        self.pass_ = self.swap_pass + 2
        self.set_base = self.swap_pass + 3
        self.size = self.set_base + len(SET_CHOICES)
        self._set_index = {choice: i for i, choice in enumerate(SET_CHOICES)}
        self._decoded = [self._decode(action) for action in range(self.size)]

    def swap(self, kind: int, slot: int) -> int:
        return kind * self.swap_size + slot

    def set(self, cards: int, pairs: int) -> int:
        return self.set_base + self._set_index[(cards, pairs)]

    def _decode(self, action: int) -> Decoded:
        if action < self.swap_pass:
            return Decoded(SWAP, action // self.swap_size, action % self.swap_size)
        if action == self.swap_pass:
            return Decoded(SWAP_PASS)
        if action == self.summon:
            return Decoded(SUMMON)
        if action == self.pass_:
            return Decoded(PASS)
        cards, pairs = SET_CHOICES[action - self.set_base]
        return Decoded(SET, cards, pairs)

    def decode(self, action: int) -> Decoded | None:
        """The meaning of `action`, or None when it is no action of this game."""
        if isinstance(action, int) and 0 <= action < self.size:
            return self._decoded[action]
        return None

    def to_string(self, action: int) -> str:
        decoded = self.decode(action)
        if decoded is None:
            # Only a program passes numbers, so this one speaks to its author.
            raise IllegalActionError(
                f"temple: {action!r} is not an action number; allowed: 0..{self.size - 1}"
            )
        if decoded.what == SWAP:
            return f"swap {KIND_NAMES[decoded.a]} {decoded.b + 1}"
        if decoded.what == SET:
            return f"set {decoded.a} {decoded.b}"
        return decoded.what

    def parse(self, text: str) -> int:
        """The action number of an action string; anything else raises IllegalActionError."""
        words = text.lower().split() if isinstance(text, str) else []
        action = self._parse_words(words)
        if action is None:
            raise IllegalActionError(
                N_("unknown move '{text}'; allowed: 'swap K S' (K one of {kinds}, S a slot "
                   "1..{slots}), 'swap pass', 'summon', 'pass', 'set C J' (C level cards and "
                   "J jewel pairs, C + J <= 3)"),
                text=text, kinds=", ".join(KIND_NAMES), slots=self.swap_size)
        return action

    def _parse_words(self, words: list[str]) -> int | None:
        if words == ["summon"]:
            return self.summon
        if words == ["pass"]:
            return self.pass_
        if words == ["swap", "pass"]:
            return self.swap_pass
        if len(words) == 3 and words[0] == "swap":
            kind = parse_kind(words[1])
            slot = _small_int(words[2])
            if kind is None or slot is None or not 1 <= slot <= self.swap_size:
                return None
            return self.swap(kind, slot - 1)
        if len(words) == 3 and words[0] == "set":
            cards, pairs = _small_int(words[1]), _small_int(words[2])
            if cards is None or pairs is None or (cards, pairs) not in self._set_index:
                return None
            return self.set(cards, pairs)
        return None


def _small_int(word: str) -> int | None:
    return int(word) if word.isascii() and word.isdigit() and len(word) <= 3 else None
