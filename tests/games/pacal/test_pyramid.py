"""The building rule and legal fields, with the rules page's worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramids.games.pacal import pyramid as pyr

from .helpers import fields


def pyramid(spec: dict[int, list[int]]) -> tuple[list[int], list[int]]:
    return pyr.pyramid_from_lists(fields(spec))


WORKED = {1: [40], 4: [30], 8: [10]}


@pytest.mark.parametrize(
    ("card", "legal"),
    [
        (45, [1]),
        (35, [1, 2, 3, 4]),
        (20, [4, 5, 6, 7, 8]),
        (5, [8, 9, 10]),
    ],
)
def test_worked_example_table(card: int, legal: list[int]) -> None:
    visible, covered = pyramid(WORKED)
    assert [i + 1 for i in pyr.legal_fields(visible, covered, card)] == legal
    assert pyr.can_place(visible, covered, card)


def test_closed_f4_leaves_35_only_f1_f2_f3() -> None:
    visible, covered = pyramid({1: [40], 4: [31, 30], 8: [10]})
    assert [i + 1 for i in pyr.legal_fields(visible, covered, 35)] == [1, 2, 3]
    assert "F4 is closed" in str(pyr.why_not(visible, covered, 3, 35))


def test_f2_never_fillable_between_40_and_39() -> None:
    visible, covered = pyramid({1: [40], 3: [39]})
    for card in range(1, 51):
        if card in (40, 39):
            continue
        assert 1 not in pyr.legal_fields(visible, covered, card), card
    # Covering F1 (or F3) opens F2 again.
    pyr.place(visible, covered, 0, 45)
    assert 1 in pyr.legal_fields(visible, covered, 42)


def test_a_card_with_no_field() -> None:
    visible, covered = pyramid({1: [40, 48]})
    assert pyr.legal_fields(visible, covered, 49) == []
    assert not pyr.can_place(visible, covered, 49)
    assert pyr.legal_fields(visible, covered, 47) == list(range(1, 10))


def test_empty_pyramid_takes_any_card_anywhere() -> None:
    visible, covered = pyr.new_pyramid()
    for card in (1, 25, 50):
        assert pyr.legal_fields(visible, covered, card) == list(range(10))


def test_why_not_messages_name_the_bound() -> None:
    visible, covered = pyramid(WORKED)
    def why(index: int, card: int) -> str | None:
        words = pyr.why_not(visible, covered, index, card)
        return None if words is None else str(words)

    assert why(7, 35) == "card 35 cannot go on F8: it needs a value below 30"
    assert why(4, 35) == "card 35 cannot go on F5: it needs a value between 10 and 30"
    assert why(9, 35) == "card 35 cannot go on F10: it needs a value below 10"
    assert why(0, 5) == "card 5 cannot go on F1: it needs a value above 30"
    assert pyr.why_not(visible, covered, 4, 20) is None


def test_spread_occupied_and_rule() -> None:
    visible, _ = pyramid(WORKED)
    assert pyr.spread(visible) == 30
    assert pyr.occupied(visible) == 3
    assert pyr.obeys_building_rule(visible)
    assert not pyr.obeys_building_rule([10, 20] + [0] * 8)
    with pytest.raises(ValueError, match="building rule"):
        pyr.pyramid_from_lists(fields({1: [10], 2: [20]}))
    with pytest.raises(ValueError, match="at most 2"):
        pyr.pyramid_from_lists(fields({1: [10, 20, 30]}))


def test_layout_mirrors_rows_when_ascending() -> None:
    down, up = pyr.layout("descending"), pyr.layout("ascending")
    assert down[9] == [3, 3] and up[9] == [3, 0]  # the lowest card's corner
    assert down[0] == up[0] == [0, 0]
    assert sorted(map(tuple, down)) == sorted(map(tuple, up))


def _reference_legal(visible: list[int], covered: list[int], card: int) -> list[int]:
    """The rule exactly as the rules page states it, field by field."""
    legal = []
    for index in range(10):
        if covered[index]:
            continue
        before = [v for v in visible[:index] if v]
        after = [v for v in visible[index + 1 :] if v]
        if (not before or card < min(before)) and (not after or card > max(after)):
            legal.append(index)
    return legal


@given(
    st.lists(st.tuples(st.integers(1, 50), st.integers(0, 9)), max_size=25),
    st.integers(1, 50),
)
def test_legal_fields_match_the_rule_as_stated(moves: list[tuple[int, int]], card: int) -> None:
    visible, covered = pyr.new_pyramid()
    used: set[int] = set()
    for value, index in moves:
        if value in used or value == card:
            continue
        if index in pyr.legal_fields(visible, covered, value):
            pyr.place(visible, covered, index, value)
            used.add(value)
        assert pyr.obeys_building_rule(visible)
    legal = pyr.legal_fields(visible, covered, card)
    assert legal == _reference_legal(visible, covered, card)
    assert pyr.can_place(visible, covered, card) == bool(legal)
    for index in range(10):
        assert (pyr.why_not(visible, covered, index, card) is None) == (index in legal)
