"""The KMahjongg `.layout` importer (v1.0 and v1.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramids.core.errors import LayoutError
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.kmahjongg import (
    is_kmahjongg_text,
    parse_kmahjongg,
    read_kmahjongg_file,
)
from pyramids.games.mahjongg.layout_format import ERROR, free_at_start, validate_layout

DATA = Path(__file__).parent / "data" / "kmahjongg"
TURTLE = Path(__file__).parents[3] / "src/pyramids/games/mahjongg/blueprints/turtle.layout"


def v11(width: int, height: int, depth: int, *board: str) -> str:
    return "\n".join(
        ["kmahjongg-layout-v1.1", "# size", f"w{width}", f"h{height}", f"d{depth}", *board]
    ) + "\n"


def test_turtle_has_144_tiles_on_5_layers_with_35_free() -> None:
    layout = read_kmahjongg_file(TURTLE)
    assert (layout.size, layout.layers) == (144, 5)
    assert free_at_start(layout) == 35
    per_layer = [sum(1 for p in layout.positions if p[2] == z) for z in range(5)]
    assert per_layer == [87, 36, 16, 4, 1]
    # The one tile of the top layer is the capstone; no vaults, no face-down tiles.
    assert layout.capstones == {143} and layout.positions[143][2] == 4
    assert layout.vaults == frozenset() and layout.face_down == frozenset()
    assert validate_layout(layout) == []


def test_turtle_half_offsets_come_from_odd_positions() -> None:
    layout = read_kmahjongg_file(TURTLE)
    # The Turtle's end tiles sit half a row off the rows they touch.
    assert (1, 7, 0) in layout.positions and (27, 7, 0) in layout.positions
    assert (29, 7, 0) in layout.positions
    # The top tile sits half a tile off in both directions, on four tiles.
    top = layout.positions.index((14, 7, 4))
    assert sorted(layout.positions[t] for t in layout.geometry.below[top]) == [
        (13, 6, 3), (13, 8, 3), (15, 6, 3), (15, 8, 3)
    ]


def test_castle_has_156_tiles_on_4_layers_and_its_desktop_title() -> None:
    layout = read_kmahjongg_file(DATA / "castle.layout")
    assert (layout.size, layout.layers) == (156, 4)
    assert layout.name == "castle"
    assert layout.title == "Castle"
    assert layout.description == "Vista-styled castle layout"
    top = {i for i, p in enumerate(layout.positions) if p[2] == 3}
    assert layout.capstones == top and len(top) == 14


def test_v10_is_32_by_16_by_5_without_size_lines() -> None:
    cells = ["."] * (32 * 16 * 5)
    # A tile on layer 0 at (3, 2) and one on layer 4 at (30, 15).
    cells[2 * 32 + 3] = "1"
    cells[4 * 512 + 15 * 32 + 30] = "1"
    board = "".join(cells)
    # Board text may be split anywhere; it is joined before reading.
    lines = [board[i : i + 37] for i in range(0, len(board), 37)]
    text = "kmahjongg-layout-v1.0\n# an old file\n" + "\n".join(lines) + "\n"
    layout = parse_kmahjongg(text, name="old")
    assert layout.positions == ((3, 2, 0), (30, 15, 4))
    assert layout.capstones == {1}


def test_v10_has_no_size_lines() -> None:
    # In v1.0 a line 'w4' is board text, so the length is wrong.
    text = "kmahjongg-layout-v1.0\nw4\n" + "." * (32 * 16 * 5) + "\n"
    with pytest.raises(LayoutError, match="has 2562 characters but a 32 x 16 x 5 board"):
        parse_kmahjongg(text)


def test_v11_sizes_comments_and_crlf() -> None:
    text = v11(4, 2, 2, "1212", "4343", "# layer 1", "1212", "4343").replace("\n", "\r\n")
    layout = parse_kmahjongg(text)
    assert layout.positions == ((0, 0, 0), (2, 0, 0), (0, 0, 1), (2, 0, 1))
    assert layout.capstones == {2, 3}


def test_only_1_cells_count_and_other_characters_are_empty() -> None:
    layout = parse_kmahjongg(v11(6, 2, 1, "1x1z..", "abcdef"))
    assert layout.positions == ((0, 0, 0), (2, 0, 0))


def test_kmahjongg_accepts_floating_and_overlapping_tiles() -> None:
    # Layer 1's tile at x=4 rests on nothing; two base tiles share a cell.
    layout = parse_kmahjongg(v11(6, 2, 2, "11....", "......", "....1.", "1....."))
    assert layout.size == 4
    problems = validate_layout(layout)
    messages = {str(p.message).split(":")[0] for p in problems if p.severity == ERROR}
    assert "floats" in messages
    assert any("overlaps" in m for m in messages)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("kmahjongg-layout-v2.0\n", "line 1: not a KMahjongg layout"),
        ("", "line 1: not a KMahjongg layout"),
        ("# comment first\nkmahjongg-layout-v1.1\n", "line 1: not a KMahjongg layout"),
        (v11(4, 2, 1, "1212", "434"), "7 characters but a 4 x 2 x 1 board needs exactly 8"),
        (v11(4, 2, 1, "1212", "43435"), "9 characters"),
        (v11(4, 2, 1, "12..", "43.."), "the board has 1 tile ('1' cell); a layout needs an even"),
        (v11(4, 2, 1, "....", "...."), "the board has no tiles"),
        ("kmahjongg-layout-v1.1\nwide\nh2\nd1\n", "line 2: 'w' needs a positive whole number"),
        ("kmahjongg-layout-v1.1\nw0\n", "line 2: 'w' needs a positive whole number"),
    ],
)
def test_malformed_files_give_clear_errors(text: str, expected: str) -> None:
    with pytest.raises(LayoutError) as caught:
        parse_kmahjongg(text)
    assert expected in str(caught.value)


def test_odd_count_after_parsing_three_tiles() -> None:
    with pytest.raises(LayoutError, match="3 tiles"):
        parse_kmahjongg(v11(4, 2, 2, "1212", "4343", "..12", "..43"))


def test_sniffing_and_loading_by_path(tmp_path: Path) -> None:
    path = tmp_path / "tiny.txt"
    path.write_text(v11(4, 2, 1, "1212", "4343"))
    assert is_kmahjongg_text(path.read_text())
    assert not is_kmahjongg_text("pyramids-layout 1\n")
    layout = load_layout(str(path))
    assert layout.name == "tiny" and layout.positions == ((0, 0, 0), (2, 0, 0))
    assert layout.capstones == {0, 1}


def test_missing_file() -> None:
    with pytest.raises(LayoutError, match="cannot read layout file"):
        read_kmahjongg_file(DATA / "none.layout")
