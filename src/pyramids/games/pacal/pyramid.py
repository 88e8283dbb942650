"""A Pacal pyramid: ten fields, the building rule, and where a card may go.

Fields are F1..F10 in reading order: F1 the apex, F2-F3 row 2, F4-F6 row 3,
F7-F10 the base. Internally a field is its index 0..9.

A field is empty, open (one face-up card) or closed (a second card covers the
first; it never changes again). The building rule: the visible values of the
occupied fields strictly decrease in reading order. A card `v` may go on field
`i` (empty, or open and covered by `v`) iff `lo < v < hi`, where `hi` is the
smallest visible value of an occupied field before `i` and `lo` the largest
after it (no bound where there is none).

Because the rule holds before every placement, the occupied fields' values
decrease, so for a card `v` the legal fields are: the last occupied field whose
value is above `v` (covering it, if open), every empty field after it up to the
first occupied field whose value is below `v`, and that field (covering, if
open). `legal_fields` walks the ten fields once to find them.

A pyramid is held as two lists of ten ints, for speed: `visible[i]` is the
face-up value on field `i` (0 when empty) and `covered[i]` the value under it
(0 unless the field is closed).

`direction` (descending or ascending) changes only where a field is drawn:
`layout` gives each field's row and column (column 0 is the leftmost).
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.core.errors import N_, Words

FIELD_COUNT = 10
LOWEST_CARD = 1
HIGHEST_CARD = 50
ROW_STARTS = (0, 1, 3, 6)
DIRECTIONS = ("descending", "ascending")


def new_pyramid() -> tuple[list[int], list[int]]:
    """An empty pyramid: (visible, covered)."""
    return [0] * FIELD_COUNT, [0] * FIELD_COUNT


def field_name(index: int) -> str:
    return f"F{index + 1}"


def enclosing_fields(visible: Sequence[int], card: int) -> tuple[int, int]:
    """(above, below): the last occupied field whose value is above `card` (-1 if
    none) and the first occupied field whose value is not (FIELD_COUNT if none).
    `card` may go only on these two, if open, or on the empty fields between."""
    above = -1
    for index in range(FIELD_COUNT):
        value = visible[index]
        if value:
            if value > card:
                above = index
            else:
                return above, index
    return above, FIELD_COUNT


def legal_fields(
    visible: Sequence[int], covered: Sequence[int], card: int, offset: int = 0
) -> list[int]:
    """The field indices where `card` may be placed, ascending, each plus `offset`
    (so that an engine gets its action numbers without a second pass)."""
    above, below = enclosing_fields(visible, card)
    fields = [above + offset] if above >= 0 and not covered[above] else []
    fields.extend(range(above + 1 + offset, below + offset))
    if below < FIELD_COUNT and not covered[below]:
        fields.append(below + offset)
    return fields


def fits(visible: Sequence[int], covered: Sequence[int], index: int, card: int) -> bool:
    """Whether `card` may be placed on field `index`."""
    if covered[index]:
        return False
    for before in range(index - 1, -1, -1):
        value = visible[before]
        if value:
            if value < card:
                return False
            break
    for after in range(index + 1, FIELD_COUNT):
        value = visible[after]
        if value:
            return value < card
    return True


def can_place(visible: Sequence[int], covered: Sequence[int], card: int) -> bool:
    """Whether `card` has any legal field."""
    above, below = enclosing_fields(visible, card)
    if below - above > 1:  # an empty field lies between them
        return True
    return (above >= 0 and not covered[above]) or (below < FIELD_COUNT and not covered[below])


def bounds(visible: Sequence[int], index: int) -> tuple[int | None, int | None]:
    """(lo, hi): the values a card on field `index` must lie strictly between (None: no bound)."""
    hi = next((visible[j] for j in range(index - 1, -1, -1) if visible[j]), None)
    lo = next((visible[j] for j in range(index + 1, FIELD_COUNT) if visible[j]), None)
    return lo, hi


def why_not(visible: Sequence[int], covered: Sequence[int], index: int, card: int) -> Words | None:
    """Why `card` may not go on field `index` (player words), or None when it may."""
    name = field_name(index)
    if covered[index]:
        return Words(
            N_("{field} is closed: {top} already covers {under} and a field takes at most "
               "two cards"), field=name, top=visible[index], under=covered[index])
    lo, hi = bounds(visible, index)
    if (hi is None or card < hi) and (lo is None or card > lo):
        return None
    if lo is not None and hi is not None:
        need = Words(N_("a value between {low} and {high}"), low=lo, high=hi)
    elif hi is not None:
        need = Words(N_("a value below {high}"), high=hi)
    else:
        need = Words(N_("a value above {low}"), low=lo)
    return Words(N_("card {card} cannot go on {field}: it needs {need}"),
                 card=card, field=name, need=need)


def place(visible: list[int], covered: list[int], index: int, card: int) -> None:
    """Put `card` on field `index` (legality is the caller's check)."""
    if visible[index]:
        covered[index] = visible[index]
    visible[index] = card


def is_complete(visible: Sequence[int]) -> bool:
    return all(visible)


def occupied(visible: Sequence[int]) -> int:
    return sum(1 for value in visible if value)


def spread(visible: Sequence[int]) -> int:
    """Highest minus lowest visible value (0 for an empty pyramid)."""
    values = [value for value in visible if value]
    return max(values) - min(values) if values else 0


def obeys_building_rule(visible: Sequence[int]) -> bool:
    values = [value for value in visible if value]
    return all(a > b for a, b in zip(values, values[1:], strict=False))


def fields_as_lists(visible: Sequence[int], covered: Sequence[int]) -> list[list[int]]:
    """Each field as the list of its cards, oldest first."""
    out: list[list[int]] = []
    for top, under in zip(visible, covered, strict=True):
        if under:
            out.append([under, top])
        elif top:
            out.append([top])
        else:
            out.append([])
    return out


def pyramid_from_lists(fields: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """(visible, covered) for fields given as card lists; ValueError when malformed."""
    if len(fields) != FIELD_COUNT:
        raise ValueError(f"a pyramid has {FIELD_COUNT} fields, got {len(fields)}")
    visible, covered = new_pyramid()
    for index, cards in enumerate(fields):
        if len(cards) > 2:
            raise ValueError(f"{field_name(index)} holds {len(cards)} cards; at most 2 fit")
        for card in cards:
            if not (isinstance(card, int) and LOWEST_CARD <= card <= HIGHEST_CARD):
                raise ValueError(f"{field_name(index)}: {card!r} is not a card 1..50")
        if len(cards) == 2:
            covered[index], visible[index] = cards[0], cards[1]
        elif cards:
            visible[index] = cards[0]
    if not obeys_building_rule(visible):
        raise ValueError(f"pyramid {list(fields)!r} breaks the building rule")
    return visible, covered


def layout(direction: str) -> list[list[int]]:
    """[row, column] of F1..F10 as drawn; `ascending` mirrors each row."""
    positions = []
    for row in range(len(ROW_STARTS)):
        for offset in range(row + 1):
            column = offset if direction == "descending" else row - offset
            positions.append([row, column])
    return positions
