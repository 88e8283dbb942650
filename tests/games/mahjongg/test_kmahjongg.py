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
    # A tile on layer 0 at (3, 2) and one on layer 4 at (30, 14), in the bottom-right
    # corner (a tile covers 2 x 2 cells).
    cells[2 * 32 + 3] = "1"
    cells[4 * 512 + 14 * 32 + 30] = "1"
    board = "".join(cells)
    # Board text may be split anywhere; it is joined before reading.
    lines = [board[i : i + 37] for i in range(0, len(board), 37)]
    text = "kmahjongg-layout-v1.0\n# an old file\n" + "\n".join(lines) + "\n"
    layout = parse_kmahjongg(text, name="old")
    assert layout.positions == ((3, 2, 0), (30, 14, 4))
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


def test_kmahjongg_accepts_floating_tiles_and_validate_reports_them() -> None:
    # Layer 1's tile at x=4 rests on nothing (KMahjongg loads it; so does the importer).
    layout = parse_kmahjongg(
        v11(6, 3, 2, "1.1...", "......", "......", "....1.", "1.....", "......")
    )
    assert layout.size == 4
    problems = validate_layout(layout)
    messages = {str(p.message).split(":")[0] for p in problems if p.severity == ERROR}
    assert messages == {"floats"}


OVERLAP_ALLOWED = (
    "a tile covers 2 x 2 cells and two tiles of one layer may not share a cell, so the '1's "
    "of one layer must be at least 2 cells apart across or down (a half-tile offset, such as "
    "2 across and 1 down, is allowed)"
)


def test_two_tiles_sharing_a_cell_are_refused_with_file_line_column_layer_and_the_other(
    tmp_path: Path,
) -> None:
    # Layer 1 (lines 9-11): the '1' at x=1 y=0 covers x 1..2, y 0..1; the '1' at x=2 y=1
    # covers x 2..3, y 1..2: they share the cell x=2 y=1.
    path = tmp_path / "bad.layout"
    path.write_text(v11(6, 3, 2, "1212..", "4343..", "......",
                        ".12...", ".412..", "..43.."))
    with pytest.raises(LayoutError) as caught:
        read_kmahjongg_file(path)
    assert str(caught.value) == (
        f"{path}: line 9, column 2, tile at x=1 y=0 layer 1: this tile overlaps the tile at "
        f"x=2 y=1 (line 10, column 3): {OVERLAP_ALLOWED}"
    )
    # The game's loader refuses it the same way.
    with pytest.raises(LayoutError, match="line 9, column 2, tile at x=1 y=0 layer 1"):
        load_layout(str(path))


@pytest.mark.parametrize(
    ("rows", "first", "other", "more"),
    [
        # Side by side one cell apart (dx=1, dy=0).
        (("11..", "...."), (0, 0), (1, 0), 0),
        # One under the other (dx=0, dy=1).
        (("1...", "1...", "...."), (0, 0), (0, 1), 0),
        # Diagonal (dx=-1, dy=1): the later '1' is left of the earlier one.
        ((".1..", "1...", "...."), (1, 0), (0, 1), 0),
        # Three overlaps among four tiles: the first in reading order is named, the other
        # two counted.
        (("11.1.", "..1..", "....."), (0, 0), (1, 0), 2),
    ],
)
def test_every_way_of_sharing_a_cell_is_an_overlap(
    rows: tuple[str, ...], first: tuple[int, int], other: tuple[int, int], more: int
) -> None:
    width, height = len(rows[0]), len(rows)
    with pytest.raises(LayoutError) as caught:
        parse_kmahjongg(v11(width, height, 1, *rows))
    text = str(caught.value)
    assert text.startswith(
        f"line {6 + first[1]}, column {first[0] + 1}, tile at x={first[0]} y={first[1]} "
        f"layer 0: this tile overlaps the tile at x={other[0]} y={other[1]} "
        f"(line {6 + other[1]}, column {other[0] + 1})"
    )
    assert text.endswith(f"(and {more} more)") == bool(more)


@pytest.mark.parametrize(
    "rows",
    [
        # Side by side (dx=2), one under the other (dy=2), and half a tile off: 2 across
        # and 1 down, 1 across and 2 down, -1 across and 2 down. No shared cell.
        ("1.1.", "....", "....", "...."),
        ("1...", "....", "1...", "...."),
        ("1...", "..1.", "....", "...."),
        ("1...", "....", ".1..", "...."),
        (".1..", "....", "1...", "...."),
    ],
)
def test_half_tile_offsets_share_no_cell_and_load(rows: tuple[str, ...]) -> None:
    layout = parse_kmahjongg(v11(4, 4, 1, *rows))
    assert layout.size == 2


def test_tiles_on_different_layers_at_one_place_are_not_an_overlap() -> None:
    # One tile straight on another (layer 1 on layer 0) is a stack, not an overlap.
    layout = parse_kmahjongg(v11(4, 2, 2, "1.1.", "....", "1.1.", "...."))
    assert layout.size == 4


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


def test_a_tile_past_the_declared_width_is_refused_with_its_file_line_column_and_layer(
    tmp_path: Path,
) -> None:
    # w6: a tile covers x..x+1, so a '1' in column 6 (x=5) would make the board 7 wide.
    path = tmp_path / "wide.layout"
    path.write_text(v11(6, 2, 1, "1212.1", "4343.4"))
    with pytest.raises(LayoutError) as caught:
        read_kmahjongg_file(path)
    assert str(caught.value) == (
        f"{path}: line 6, column 6, tile at x=5 y=0 layer 0: this tile lies past the edge of "
        "the board: the board is declared 6 cells wide and 2 high (w6, h2), and a tile covers "
        "2 x 2 cells, so its '1' must be at x 0 to 4 and y 0 to 0"
    )
    # The same through the game's loader (a path given as the layout option).
    with pytest.raises(LayoutError, match="line 6, column 6, tile at x=5 y=0 layer 0"):
        load_layout(str(path))


def test_a_tile_past_the_declared_height_names_its_layer_and_the_other_tiles_out() -> None:
    # Layer 1's last row (line 12) holds two '1's: the first is named, the other counted.
    text = v11(4, 3, 2, "1212", "4343", "....", "# layer 1", "....", "....", "1.1.")
    with pytest.raises(LayoutError) as caught:
        parse_kmahjongg(text, source="tall.layout")
    assert str(caught.value) == (
        "tall.layout: line 12, column 1, tile at x=0 y=2 layer 1: this tile lies past the edge "
        "of the board: the board is declared 4 cells wide and 3 high (w4, h3), and a tile "
        "covers 2 x 2 cells, so its '1' must be at x 0 to 2 and y 0 to 1 (and 1 more)"
    )


def test_a_board_text_split_anywhere_still_names_the_line_and_column_of_the_tile() -> None:
    # The rows are joined before reading: the '1' at x=3 y=0 is the 4th character of
    # line 6, and the one past the edge (x=5 y=0) the 2nd character of line 7.
    text = v11(6, 3, 1, "...1", "21....", "........")
    with pytest.raises(LayoutError) as caught:
        parse_kmahjongg(text)
    assert str(caught.value).startswith(
        "line 7, column 2, tile at x=5 y=0 layer 0: this tile lies past the edge"
    )


def test_a_v10_tile_past_the_fixed_32_by_16_board() -> None:
    cells = ["."] * (32 * 16 * 5)
    cells[0] = "1"
    cells[31] = "1"  # x=31 on a 32-cell row: the tile would cover x=32
    text = "kmahjongg-layout-v1.0\n" + "".join(cells) + "\n"
    with pytest.raises(LayoutError) as caught:
        parse_kmahjongg(text)
    assert str(caught.value) == (
        "line 2, column 32, tile at x=31 y=0 layer 0: this tile lies past the edge of the "
        "board: a kmahjongg-layout-v1.0 board is 32 cells wide and 16 high, and a tile covers "
        "2 x 2 cells, so its '1' must be at x 0 to 30 and y 0 to 14"
    )


def test_a_board_too_small_for_any_tile() -> None:
    with pytest.raises(LayoutError) as caught:
        parse_kmahjongg(v11(1, 4, 1, "1", ".", "1", "."))
    assert str(caught.value) == (
        "line 6, column 1, tile at x=0 y=0 layer 0: this tile lies past the edge of the board: "
        "the board is declared 1 cells wide and 4 high (w1, h4), and a tile covers 2 x 2 "
        "cells, so no tile fits; give w and h of 2 or more (and 1 more)"
    )


SHARED = Path("/work/shared/data/layouts/kmahjongg")
REAL_FILES = sorted({TURTLE, *DATA.glob("*.layout"), *SHARED.glob("*.layout")})


@pytest.mark.parametrize("path", REAL_FILES, ids=str)
def test_real_kmahjongg_files_fit_their_declared_size_and_have_no_overlap(path: Path) -> None:
    layout = read_kmahjongg_file(path)
    assert layout.width <= 32 and layout.height <= 16
    # Half-tile offsets (the Turtle's end tiles) are in them; none counts as an overlap.
    assert layout.geometry.overlapping_pairs_on_layer() == []
    assert [p for p in validate_layout(layout) if p.severity == ERROR] == []
