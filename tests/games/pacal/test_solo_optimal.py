"""The exact Pacal solo optimum (`benchmarks/pacal_solo_optimal.py`) against plain search.

The benchmark solves positions reduced to gaps (empty fields and values to come
between neighbouring visible values). These tests check the reduction against a
search over the real cards: on late positions of real engine deals, with the
engine's own building rule, and on whole small pyramids with the rule as the rules
page states it.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from pyramids.core import load
from pyramids.games.pacal.pyramid import legal_fields
from tests.scripts import load_script

optimal = load_script("benchmarks/pacal_solo_optimal.py", "pacal_solo_optimal")
ROOT = Path(__file__).resolve().parents[3]


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


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
@pytest.mark.parametrize("most, cards_a_field", [(4, 5), (5, 3)])
def test_the_c_version_finds_the_same_chances_and_positions(
    tmp_path: Path, most: int, cards_a_field: int,
) -> None:
    """`benchmarks/pacal_solo_optimal.c`, which reaches 7 fields, is the Python solver step
    for step: the same chance to the last bit and the same positions, size by size."""
    program = tmp_path / "pacal_solo_optimal"
    subprocess.run(["cc", "-O2", "-o", str(program),
                    str(ROOT / "benchmarks" / "pacal_solo_optimal.c")], check=True)
    printed = subprocess.run([str(program), str(most), str(cards_a_field), "16"], check=True,
                             capture_output=True, text=True).stdout
    exact = {int(f): float(v) for _, f, v in
             (line.split() for line in printed.splitlines() if line.startswith("exact "))}
    rows = [line.split("|") for line in printed.splitlines() if line.startswith("| ")]
    positions = {int(row[1]): int(row[5]) for row in rows[1:]}
    solver = optimal.Solver()
    for fields in range(1, most + 1):
        assert exact[fields] == solver.start(fields, cards_a_field * fields)
        assert positions[fields] == len(solver.chances)


def test_the_c_version_stops_in_words_when_its_table_is_full(tmp_path: Path) -> None:
    if shutil.which("cc") is None:
        pytest.skip("no C compiler")
    program = tmp_path / "pacal_solo_optimal"
    subprocess.run(["cc", "-O2", "-o", str(program),
                    str(ROOT / "benchmarks" / "pacal_solo_optimal.c")], check=True)
    full = subprocess.run([str(program), "4", "5", "10"], capture_output=True, text=True)
    assert full.returncode == 3 and "is full: give a larger log2 size" in full.stderr
    wrong = subprocess.run([str(program), "9"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "usage: pacal_solo_optimal FIELDS(1-8)" in wrong.stderr


@pytest.mark.parametrize(("argv", "words"), [
    (["--fields", "7"], "--fields 7 is out of reach in Python: the positions grow about "
                        "twentyfold a field"),
    (["--fields", "7"], "about 165 million at 7"),
    (["--fields", "7"], "allowed: 1 to 6. The C version reaches 7 fields"),
    (["--fields", "7"], "cc -O2 -o pacal_solo_optimal benchmarks/pacal_solo_optimal.c"),
    (["--fields", "8"], "--fields 8 is out of reach in Python"),
    (["--fields", "0"], "--fields must be 1 to 6, not 0"),
])
def test_an_infeasible_size_is_refused_saying_why_and_what_is_allowed(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--fields 7` was taken and ran out of memory after hours (about 165 million
    positions); it is refused at once, before any solving, naming the C version."""
    with pytest.raises(SystemExit) as refused:
        optimal.main(argv)
    assert refused.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert words in err, err
    assert optimal.fields_refusal(6) is None
