"""The best possible Pacal solo completion chance, exactly, on pyramids of 1 to 6 fields.

    python benchmarks/pacal_solo_optimal.py --fields 6

Pacal solo (the rules page's solo mode) builds a pyramid of 10 fields from draws of
50 cards. Issue #19 asks for an `expert` that completes 72% of deals; every policy
tried lands near 62% (docs/agents.md, `lookahead`). Whether 72% is possible at all
is a question about the best possible policy, which this script answers exactly for
smaller pyramids with the same five cards a field (F fields from cards 1..5F; the
face-down base cards change nothing, since every unseen value is as likely to come
next and no deal needs more than 2F of the pile's cards).

Why it is exact and small enough: only the order of values matters, never the
values themselves. A position is the list of occupied fields in reading order, each
open (one card) or closed (covered), and around them the gaps: between two
neighbouring occupied fields (or a field and an edge) the number of empty fields and
the number of values still to come that lie between their visible values. The next
draw is uniform over the values to come; a value in a gap may go on one of that
gap's empty fields (splitting the gap by its rank) or cover a bounding field that is
still open. Values between two closed fields with no empty field between can never
be placed: they are pooled as "dead" (drawing one loses). Mirror images are one
position. The chance of completing from each position is the average over the next
draw of the best placement's chance: an expectimax over these positions, memoised.
`tests/games/pacal/test_solo_optimal.py` checks it against a plain search over the
real cards, with the engine's own building rule, on late positions of real deals.

It prints, for each size, the best chance, the loss against the size below, the
positions solved, and the seconds taken. The positions grow about twentyfold a
field, so 6 fields (about 8 million positions, several GiB of memory and minutes of
CPU) is as far as this goes in Python, and more is refused in words.
`benchmarks/pacal_solo_optimal.c` is the same solver in C (the same positions, the
same chances to the last bit), which reaches 7 fields (about 165 million positions,
6 GiB); 10 is far out of reach of both.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Sequence

#: A position: (dead, gaps), gaps = (e0, g0, s1, e1, g1, ..., sk, ek, gk): `e` empty
#: fields and `g` values to come in each gap, `s` 1 for an open field, 2 for a closed one.
Position = tuple[int, tuple[int, ...]]
OPEN, CLOSED = 1, 2


def canonical(dead: int, gaps: Sequence[int]) -> Position:
    """`gaps` with every dead stretch pooled into `dead`, the smaller of it and its
    mirror image."""
    seq = list(gaps)
    changed = True
    while changed:
        changed = False
        if len(seq) > 2 and seq[0] == 0 and seq[2] == CLOSED:
            dead += seq[1]
            seq = seq[3:]
            changed = True
            continue
        if len(seq) > 2 and seq[-2] == 0 and seq[-3] == CLOSED:
            dead += seq[-1]
            seq = seq[:-3]
            changed = True
            continue
        for i in range(2, len(seq) - 3, 3):
            if seq[i] == CLOSED and seq[i + 1] == 0 and seq[i + 3] == CLOSED:
                dead += seq[i + 2]
                del seq[i + 1:i + 4]
                changed = True
                break
    forward = tuple(seq)
    fields = (len(forward) - 2) // 3
    mirror: list[int] = []
    for i in range(fields, -1, -1):
        mirror += [forward[3 * i], forward[3 * i + 1]]
        if i:
            mirror.append(forward[3 * i - 1])
    return dead, min(forward, tuple(mirror))


def placements(dead: int, gaps: tuple[int, ...], gap: int, rank: int) -> list[Position]:
    """The positions after the value of `rank` (0 = highest) among the values to come in
    `gap` is placed, one for each legal field."""
    fields = (len(gaps) - 2) // 3
    empty, values = gaps[3 * gap], gaps[3 * gap + 1]
    above = gaps[3 * gap - 1] if gap > 0 else 0
    below = gaps[3 * gap + 2] if gap < fields else 0
    seq = list(gaps)
    after = []
    for left in range(empty):
        after.append(canonical(dead, seq[:3 * gap]
                               + [left, rank, OPEN, empty - 1 - left, values - 1 - rank]
                               + seq[3 * gap + 2:]))
    if above == OPEN:  # cover the field above: the values over the new card join the gap above
        covered = seq[:]
        covered[3 * gap - 2] += rank
        covered[3 * gap - 1] = CLOSED
        covered[3 * gap + 1] = values - 1 - rank
        after.append(canonical(dead, covered))
    if below == OPEN:
        covered = seq[:]
        covered[3 * gap + 1] = rank
        covered[3 * gap + 2] = CLOSED
        covered[3 * gap + 4] += values - 1 - rank
        after.append(canonical(dead, covered))
    return after


class Solver:
    """Best completion chances, memoised across calls."""

    def __init__(self) -> None:
        self.chances: dict[Position, float] = {}

    def chance(self, dead: int, gaps: tuple[int, ...]) -> float:
        key = (dead, gaps)
        known = self.chances.get(key)
        if known is not None:
            return known
        fields = (len(gaps) - 2) // 3
        if not any(gaps[3 * i] for i in range(fields + 1)):
            result = 1.0
        else:
            to_come = dead + sum(gaps[3 * i + 1] for i in range(fields + 1))
            total = 0.0
            for gap in range(fields + 1):
                for rank in range(gaps[3 * gap + 1]):
                    after = placements(dead, gaps, gap, rank)
                    total += max((self.chance(*position) for position in after), default=0.0)
            result = total / to_come
        self.chances[key] = result
        return result

    def start(self, fields: int, cards: int) -> float:
        """The best chance of filling `fields` empty fields from cards 1..`cards`."""
        return self.chance(*canonical(0, (fields, cards)))


def position_of(visible: Sequence[int], covered: Sequence[int], to_come: Iterable[int],
                highest: int) -> Position:
    """The position of a real pyramid (fields in reading order, visible values strictly
    decreasing, 0 for empty; `covered` non-zero where a field is closed) with the
    values `to_come` (drawn from 1..`highest`) still unseen."""
    unseen = sorted(to_come)
    gaps: list[int] = []
    empty, bound = 0, highest + 1
    for value, under in zip(visible, covered, strict=True):
        if not value:
            empty += 1
            continue
        gaps += [empty, sum(1 for u in unseen if value < u < bound), CLOSED if under else OPEN]
        empty, bound = 0, value
    gaps += [empty, sum(1 for u in unseen if u < bound)]
    return canonical(0, gaps)


#: The most fields solved in Python (about 8 million positions); the C version reaches 7.
MOST_FIELDS = 6
C_VERSION = ("cc -O2 -o pacal_solo_optimal benchmarks/pacal_solo_optimal.c && "
             "./pacal_solo_optimal 7 5 28")


def fields_refusal(fields: int) -> str | None:
    """Why `--fields fields` is refused (what is wrong and what is allowed), or None."""
    if fields < 1:
        return f"--fields must be 1 to {MOST_FIELDS}, not {fields}"
    if fields <= MOST_FIELDS:
        return None
    return (f"--fields {fields} is out of reach in Python: the positions grow about "
            f"twentyfold a field, from about 8 million at {MOST_FIELDS} (several GiB of "
            f"memory, minutes of CPU) to about 165 million at 7 and billions beyond; "
            f"allowed: 1 to {MOST_FIELDS}. The C version reaches 7 fields in minutes and "
            f"6 GiB: {C_VERSION}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--fields", type=int, default=5,
                        help=f"solve pyramids of 1 to this many fields, at most {MOST_FIELDS} "
                             "(default 5; 6 takes minutes and several GiB)")
    parser.add_argument("--cards-a-field", type=int, default=5,
                        help="cards in the deck for each field (default 5, as 50 for 10)")
    args = parser.parse_args(argv)
    refusal = fields_refusal(args.fields)
    if refusal is not None:
        parser.error(refusal)
    if args.cards_a_field < 2:
        parser.error(f"--cards-a-field must be at least 2, not {args.cards_a_field}")
    sys.setrecursionlimit(100_000)
    solver = Solver()
    print("| fields | cards | best completion chance | loss against one field fewer "
          "| positions | seconds |")
    print("|---|---|---|---|---|---|")
    previous = None
    for fields in range(1, args.fields + 1):
        started = time.process_time()
        best = solver.start(fields, args.cards_a_field * fields)
        loss = "-" if previous is None else f"{100 * (previous - best):.2f} points"
        print(f"| {fields} | {args.cards_a_field * fields} | {100 * best:.3f}% | {loss} "
              f"| {len(solver.chances):,} | {time.process_time() - started:.1f} |", flush=True)
        previous = best
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
