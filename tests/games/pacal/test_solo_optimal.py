"""The exact Pacal solo optimum (`benchmarks/pacal_solo_optimal.py`) against plain search.

The benchmark solves positions reduced to gaps (empty fields and values to come
between neighbouring visible values). These tests check the reduction against a
search over the real cards: on late positions of real engine deals, with the
engine's own building rule, and on whole small pyramids with the rule as the rules
page states it.
"""

from __future__ import annotations

from functools import cache

import pytest

from pyramids.core import load
from pyramids.games.pacal.pyramid import legal_fields
from tests.scripts import load_script

optimal = load_script("benchmarks/pacal_solo_optimal.py", "pacal_solo_optimal")


def rule_allows(visible: tuple[int, ...], covered: tuple[int, ...], field: int, card: int) -> bool:
    """The rules page's building rule on a pyramid of any size: visible values strictly
    decreasing in reading order; a closed field takes nothing more."""
    if covered[field]:
        return False
    before = [v for v in visible[:field] if v]
    after = [v for v in visible[field + 1:] if v]
    return (not before or before[-1] > card) and (not after or after[0] < card)


@cache
def best_chance(visible: tuple[int, ...], covered: tuple[int, ...], to_come: frozenset[int],
                engine_rule: bool) -> float:
    """Expectimax over the real cards: each value to come equally likely next."""
    if all(visible):
        return 1.0
    total = 0.0
    for card in to_come:
        if engine_rule:
            fields = legal_fields(visible, covered, card)
        else:
            fields = [f for f in range(len(visible)) if rule_allows(visible, covered, f, card)]
        best = 0.0
        for field in fields:
            new_visible, new_covered = list(visible), list(covered)
            if new_visible[field]:
                new_covered[field] = new_visible[field]
            new_visible[field] = card
            best = max(best, best_chance(tuple(new_visible), tuple(new_covered),
                                         to_come - {card}, engine_rule))
        total += best
    return total / len(to_come)


@pytest.mark.parametrize("fields, cards", [(2, 6), (2, 10), (3, 9), (3, 12), (4, 8)])
def test_whole_small_pyramids_match_search_over_the_cards(fields: int, cards: int) -> None:
    searched = best_chance((0,) * fields, (0,) * fields, frozenset(range(1, cards + 1)), False)
    assert optimal.Solver().start(fields, cards) == pytest.approx(searched, abs=1e-12)


def test_two_fields_from_ten_cards_lose_one_deal_in_36() -> None:
    # Searched over the cards: 35/36. One field is never lost (the first card always fits).
    assert best_chance((0, 0), (0, 0), frozenset(range(1, 11)), False) == pytest.approx(35 / 36)
    assert optimal.Solver().start(1, 5) == 1.0
    assert optimal.Solver().start(2, 10) == pytest.approx(35 / 36, abs=1e-15)


def late_positions(wanted: int) -> list[tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]]:
    """Real solo positions (a card drawn, not yet placed: so before the draw) with at most
    three more draws possible: empty plus open fields at most 3, none full."""
    found = []
    seed = 0
    while len(found) < wanted:
        seed += 1
        state = load("pacal-solo").new_initial_state(seed=seed)
        order = 0
        while not state.is_terminal():
            view = state.view(0)
            fields = view["pyramid"]
            visible = tuple(cards[-1] if cards else 0 for cards in fields)
            covered = tuple(cards[0] if len(cards) > 1 else 0 for cards in fields)
            open_fields = sum(1 for cards in fields if len(cards) == 1)
            empty = visible.count(0)
            if empty > 0 and empty + open_fields <= 3:
                seen = {card for cards in fields for card in cards}
                found.append((visible, covered, frozenset(set(range(1, 51)) - seen)))
                break
            legal = state.legal_actions()
            order += 1
            state.apply_action(legal[(seed * 7 + order) % len(legal)])
    return found


def test_late_real_positions_match_search_with_the_engines_rule() -> None:
    positions = late_positions(8)
    solver = optimal.Solver()
    chances = []
    for visible, covered, to_come in positions:
        searched = best_chance(visible, covered, to_come, True)
        reduced = solver.chance(*optimal.position_of(visible, covered, to_come, 50))
        assert reduced == pytest.approx(searched, abs=1e-12), (visible, covered)
        chances.append(searched)
    # The sample is not trivial: some positions are neither won nor lost for sure.
    assert any(0.0 < chance < 1.0 for chance in chances)


def test_mirror_images_are_one_position() -> None:
    # Fields: (1 empty, 4 to come) open (0 empty, 2 to come) closed (2 empty, 7 to come)
    # and its mirror image.
    forward = optimal.canonical(0, (1, 4, 1, 0, 2, 2, 2, 7))
    mirror = optimal.canonical(0, (2, 7, 2, 0, 2, 1, 1, 4))
    assert forward == mirror


def test_values_between_two_closed_neighbours_are_dead() -> None:
    # closed, no empty field, 3 values, closed: those 3 can never be placed.
    dead, gaps = optimal.canonical(0, (1, 2, 2, 0, 3, 2, 1, 5))
    assert dead == 3
    assert gaps == optimal.canonical(0, (1, 2, 2, 1, 5))[1]


def test_the_command_refuses_sizes_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        optimal.main(["--fields", "11"])
    assert "--fields 11 is out of reach in Python" in capsys.readouterr().err
    assert optimal.main(["--fields", "3"]) == 0
    out = capsys.readouterr().out
    assert "| 3 | 15 | 93.362% | 3.86 points |" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["--fields", "7"], "--fields 7 is out of reach in Python: the positions grow about "
                        "twentyfold a field"),
    (["--fields", "7"], "about 150 million at 7"),
    (["--fields", "7"], "allowed: 1 to 6 (--force tries 7 anyway)"),
    (["--fields", "8"], "allowed: 1 to 6 (even --force goes no further than 7)"),
    (["--fields", "8", "--force"], "--fields 8 is out of reach in Python"),
    (["--fields", "0"], "--fields must be 1 to 6, not 0"),
])
def test_an_infeasible_size_is_refused_saying_why_and_what_is_allowed(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--fields 7` was taken and ran out of memory after hours (about 150 million
    positions); it is refused at once, before any solving, unless --force is given."""
    with pytest.raises(SystemExit) as refused:
        optimal.main(argv)
    assert refused.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert words in err, err


def test_force_allows_seven_fields_and_no_more() -> None:
    assert optimal.fields_refusal(6) is None
    assert optimal.fields_refusal(7, force=True) is None  # tried: not solved here (hours)
    assert optimal.fields_refusal(7) is not None
    assert optimal.fields_refusal(8, force=True) is not None

