"""The shipped blueprints: the rules page's table, soundness, solvable deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramids.core.errors import LayoutError
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import layout_names, load_layout
from pyramids.games.mahjongg.deal import deal_solvable_with_order
from pyramids.games.mahjongg.layout_format import dump_layout, parse_layout, validate_layout
from tests.games.mahjongg.replay import replay_clearing

BLUEPRINTS = Path(__file__).parents[3] / "src/pyramids/games/mahjongg/blueprints"

# name: (layers, tiles, capstones) from the rules page's table (capstones: "1
# capstone", "2 capstones"; dual peaks and twin pyramids carry one each).
TABLE = {
    "giza-step-ramp": (3, 72, 1),
    "sphinx-guard": (4, 108, 2),
    "pharaohs-tomb": (5, 144, 2),
    "great-zenith": (6, 144, 1),
    "twin-pyramids-of-dahshur": (4, 144, 2),
    "turtle": (5, 144, 1),
}


def test_layout_names() -> None:
    # The rules page's blueprints and the Turtle; the Layout Book's 50 monuments
    # are checked in test_layout_book.py.
    names = layout_names()
    assert names == sorted(names) and set(TABLE) <= set(names)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_blueprint_matches_the_table_and_is_sound(name: str) -> None:
    layout = load_layout(name)
    layers, tiles, capstones = TABLE[name]
    assert (layout.layers, layout.size, len(layout.capstones)) == (layers, tiles, capstones)
    assert validate_layout(layout) == []  # no errors and no warnings
    assert layout.name == name and layout.title
    # Capstones are peaks on the top layer.
    assert all(layout.positions[c][2] == layers - 1 for c in layout.capstones)
    if name == "turtle":
        assert not layout.vaults and not layout.face_down
    else:
        assert layout.vaults, "co-op needs vaults: every blueprint has at least one"
        assert all(layout.positions[v][2] == 0 for v in layout.vaults)


@pytest.mark.parametrize("name", sorted(set(TABLE) - {"turtle"}))
def test_blueprint_file_round_trips(name: str) -> None:
    layout = load_layout(name)
    text = (BLUEPRINTS / f"{name}.pyr").read_text()
    assert dump_layout(layout) == text
    assert parse_layout(text) == layout


def test_only_great_zenith_has_face_down_tiles_and_they_start_covered() -> None:
    for name in TABLE:
        layout = load_layout(name)
        assert bool(layout.face_down) == (name == "great-zenith")
    zenith = load_layout("great-zenith")
    assert len(zenith.face_down) >= 12
    assert all(zenith.geometry.above[t] for t in zenith.face_down)


def test_pharaohs_tomb_vaults_lie_in_a_chamber_at_the_base_centre() -> None:
    layout = load_layout("pharaohs-tomb")
    geometry = layout.geometry
    base = [p for p in layout.positions if p[2] == 0 and p[1] <= 10]  # without the causeway
    xs = [p[0] for p in base]
    ys = [p[1] for p in base]
    assert len(layout.vaults) == 2
    for vault in layout.vaults:
        x, y, _ = layout.positions[vault]
        assert min(xs) + 4 <= x <= max(xs) - 4 and min(ys) + 2 <= y <= max(ys) - 2
        # A hollow chamber: no side neighbours, and deep under the monument.
        assert geometry.sides_mask[vault] == 0
        assert geometry.above[vault]


def test_sphinx_guard_has_two_peaks_and_a_one_tile_corridor() -> None:
    layout = load_layout("sphinx-guard")
    peaks = sorted(layout.positions[c] for c in layout.capstones)
    assert len(peaks) == 2 and peaks[1][0] - peaks[0][0] >= 16
    # Between the two pyramids the base is one row of tiles, with the vault in it.
    between = [p for p in layout.positions if peaks[0][0] + 6 <= p[0] <= peaks[1][0] - 6]
    assert between and {p[1] for p in between} == {peaks[0][1]}
    assert {p[2] for p in between} == {0}
    assert any(layout.positions[v] in between for v in layout.vaults)


def test_twin_pyramids_are_two_separate_monuments() -> None:
    layout = load_layout("twin-pyramids-of-dahshur")
    geometry = layout.geometry
    # Connected parts of the touch/overlap graph.
    parts = 0
    seen: set[int] = set()
    for start in range(layout.size):
        if start in seen:
            continue
        parts += 1
        stack = [start]
        seen.add(start)
        while stack:
            tile = stack.pop()
            linked = (
                geometry.above[tile] + geometry.below[tile] + geometry.left[tile]
                + geometry.right[tile] + geometry.back[tile] + geometry.front[tile]
            )
            for other in linked:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    assert parts == 2
    assert len(layout.vaults) >= 2


@pytest.mark.parametrize("name", sorted(TABLE))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_blueprint_deals_solvable_with_every_vault_unlockable(name: str, seed: int) -> None:
    layout = load_layout(name)
    deal = deal_solvable_with_order(layout, Rng(seed))
    assert replay_clearing(layout, deal.faces, deal.order) == set(layout.vaults)


def test_load_by_path_and_errors(tmp_path: Path) -> None:
    copy = tmp_path / "mine.pyr"
    copy.write_text((BLUEPRINTS / "giza-step-ramp.pyr").read_text())
    assert load_layout(str(copy)) == load_layout("giza-step-ramp")
    assert load_layout(copy).source == str(copy)
    with pytest.raises(LayoutError) as caught:
        load_layout("cheops")
    message = str(caught.value)
    assert "unknown layout 'cheops'" in message
    # Not all 56 names on one line: how many, where to list them, a few examples.
    assert f"{len(layout_names())} layouts are shipped (`pyramids layout list`" in message
    assert len(message) < 300
    with pytest.raises(LayoutError) as caught:
        load_layout("Turtel")
    assert "unknown layout 'Turtel'; did you mean turtle" in str(caught.value)
    with pytest.raises(LayoutError, match="no layout file at"):
        load_layout(str(tmp_path / "missing.pyr"))
    broken = tmp_path / "broken.pyr"
    broken.write_text("pyramids-layout 1\nlayer 0\no.o.o.\n")
    with pytest.raises(LayoutError, match="3 tiles"):
        load_layout(str(broken))


def test_turtle_ships_with_its_licence_note() -> None:
    notice = (BLUEPRINTS / "turtle.NOTICE.txt").read_text()
    assert "GPL-2.0-or-later" in notice and "KMahjongg" in notice
    assert "GNU GENERAL PUBLIC LICENSE" in (BLUEPRINTS / "turtle.GPL-2.0-or-later.txt").read_text()
