"""The Layout Book (50 monuments) and the measured difficulty of every shipped layout."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pyramids.core.errors import LayoutError
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import layout_names, load_layout
from pyramids.games.mahjongg.blueprints.difficulty import (
    CALIBRATION,
    LEVELS,
    derive,
    estimated_minutes,
    read_data,
    tier_of,
    wilson,
)
from pyramids.games.mahjongg.deal import deal_solvable_with_order, is_clearing_order
from pyramids.games.mahjongg.layout_format import parse_layout, validate_layout
from pyramids.play.i18n import gettext
from tests.scripts import load_script

OLDER = {"giza-step-ramp", "sphinx-guard", "pharaohs-tomb", "great-zenith",
         "twin-pyramids-of-dahshur", "turtle"}


BOOK = load_script("scripts/layout_book.py", "layout_book")
BOOK_NAMES = [entry.name for entry in BOOK.BOOK]


def test_the_book_has_50_monuments_with_their_own_names() -> None:
    assert len(BOOK_NAMES) == len(set(BOOK_NAMES)) == 50
    assert not set(BOOK_NAMES) & OLDER
    assert set(layout_names()) == set(BOOK_NAMES) | OLDER
    assert {"step-pyramid-of-saqqara", "great-zenith-tomb-of-giza"} <= set(BOOK_NAMES)


@pytest.mark.parametrize("name", BOOK_NAMES)
def test_a_monument_is_sound_and_fits_the_tile_set(name: str) -> None:
    layout = load_layout(name)
    assert validate_layout(layout) == []  # no errors and no warnings
    assert layout.size % 2 == 0 and layout.size <= 144
    assert layout.title and layout.description
    assert layout.capstones or layout.vaults, "each monument has a structural feature"
    assert all(layout.positions[v][2] == 0 for v in layout.vaults)
    for tile in layout.face_down:  # face-down tiles are placed under others
        assert layout.geometry.above[tile]


@pytest.mark.parametrize("name", sorted(OLDER | set(BOOK_NAMES)))
def test_every_shipped_layout_deals_solvably(name: str) -> None:
    layout = load_layout(name)
    for seed in (3, 4):
        deal = deal_solvable_with_order(layout, Rng(seed))
        assert is_clearing_order(layout.geometry, deal.faces, deal.order)
        assert deal.vaults_unlockable
        assert deal == deal_solvable_with_order(layout, Rng(seed))  # the seed replays it


def test_the_files_are_what_the_script_writes() -> None:
    stale = [path.name for path, text in BOOK.outputs().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run python scripts/layout_book.py: {stale[:5]}"


def test_a_design_that_breaks_the_tile_set_is_refused() -> None:
    too_big = BOOK.Plan()
    too_big.rect(0, 0, 12, 13, 0)  # 156 tiles: more than the 144 of the set
    layout = BOOK.build_layout("too-big", too_big.tiles)
    assert any("the tile set has 144" in problem for problem in BOOK.problems_of(layout))
    odd = "pyramids-layout 1\nlayer 0\no.o.o.\n"
    with pytest.raises(LayoutError, match="3 tiles: a layout needs an even number of tiles"):
        parse_layout(odd)


@pytest.mark.parametrize("name", sorted(OLDER | set(BOOK_NAMES)))
def test_titles_and_descriptions_read_in_korean(name: str) -> None:
    layout = load_layout(name)
    for text in (layout.title, layout.description):
        korean = gettext(text, lang="ko")
        assert korean != text and any("\uac00" <= char <= "\ud7a3" for char in korean)


# --- measured difficulty -------------------------------------------------------

DATA = read_data()


def test_every_shipped_layout_has_its_figures_and_no_other_does() -> None:
    assert sorted(DATA["layouts"]) == layout_names()
    assert "command" in DATA["sample"]


@pytest.mark.parametrize("name", layout_names())
def test_stored_figures_match_the_layout_and_the_model(name: str) -> None:
    record = DATA["layouts"][name]
    layout = load_layout(name)
    assert (record["tiles"], record["layers"]) == (layout.size, layout.layers)
    assert record["face_down"] == len(layout.face_down)
    deals = record["random_deals"]
    assert deals["solvable"] + deals["unsolvable"] + deals["undecided"] == deals["deals"]
    assert deals["deals"] == record["settings"]["deals"] > 0
    for level in LEVELS:
        bot = record["bots"][level]
        assert 0 <= bot["clears"] <= bot["games"] > 0
    stored = {key: record[key] for key in derive(record)}
    assert stored == derive(record), "run benchmarks/layout_difficulty.py --derive"


@pytest.mark.parametrize("name", sorted(CALIBRATION))
def test_the_model_puts_the_named_blueprints_inside_the_sources_ranges(name: str) -> None:
    low, high = CALIBRATION[name]
    assert low <= estimated_minutes(DATA["layouts"][name]) <= high


def test_wilson_intervals_worked_by_hand() -> None:
    # 5 of 10: centre 0.5, half-width 1.96 sqrt(0.025 + 0.0096) / 1.384 = 0.2634.
    low, high = wilson(5, 10)
    assert math.isclose(low, 0.2366, abs_tol=1e-4) and math.isclose(high, 0.7634, abs_tol=1e-4)
    # 0 of 10: from 0 to z^2 / (n + z^2) = 3.8415 / 13.8415.
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert wilson(0, 0) == (0.0, 1.0)


def test_tiers_follow_the_sources_time_bounds() -> None:
    assert [tier_of(m) for m in (9.9, 14.9, 15.0, 24.9, 25.0, 39.9, 40.0, 90.0)] == [
        "beginner", "beginner", "intermediate", "intermediate", "advanced", "advanced",
        "expert", "expert"]


def test_more_failures_by_the_medium_bot_mean_a_longer_estimate() -> None:
    record = DATA["layouts"]["pharaohs-tomb"]
    worse = {**record, "bots": {**record["bots"], "medium": {"games": 10, "clears": 0}}}
    better = {**record, "bots": {**record["bots"], "medium": {"games": 10, "clears": 10}}}
    assert estimated_minutes(better) <= estimated_minutes(record) <= estimated_minutes(worse)


def test_measuring_one_level_again_keeps_every_other_figure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`layout_difficulty.py --level L` (after L's setting changed) replaces only L's
    clears in the stored records, and refuses a layout it has no record of."""
    import json
    import shutil

    from pyramids.games.mahjongg.blueprints.difficulty import DATA_FILE

    bench = load_script("benchmarks/layout_difficulty.py", "layout_difficulty")
    path = tmp_path / "difficulty.json"
    shutil.copy(DATA_FILE, path)
    data = read_data(path)
    before = json.loads(json.dumps(data["layouts"]))
    settings = {"games": 2, "expert_games": 2, "first_game_seed": 1000, "actions_per_tile": 3}
    name = "obelisks-of-karnak"
    assert bench.measure_levels_again(path, data, [name], settings, ("easy",), 1) == 0
    after = read_data(path)["layouts"]
    assert {n: r for n, r in after.items() if n != name} == \
        {n: r for n, r in before.items() if n != name}
    record, old = after[name], before[name]
    assert record["bots"]["easy"]["games"] == 2 and record["settings"]["games"] == 2
    for level in ("medium", "hard", "expert"):
        assert record["bots"][level] == old["bots"][level]
    assert record["random_deals"] == old["random_deals"]
    assert record["estimated_minutes"] == old["estimated_minutes"]  # medium unchanged
    del data["layouts"][name]
    assert bench.measure_levels_again(path, data, [name], settings, ("easy",), 1) == 2
    assert "not measured yet: obelisks-of-karnak" in capsys.readouterr().err
