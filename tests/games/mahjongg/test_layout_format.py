"""The project's `.pyr` layout format: parsing, dumping, validating, and the
free-tile rule worked by hand on small layouts written in it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.core.errors import LayoutError
from pyramids.games.mahjongg.layout_format import (
    CAPSTONE,
    ERROR,
    FACE_DOWN,
    VAULT,
    WARNING,
    build_layout,
    dump_layout,
    parse_layout,
    read_layout_file,
    read_layout_text,
    validate_layout,
)


def pyr(*lines: str, header: tuple[str, ...] = ("name: test",)) -> str:
    return "\n".join(("pyramids-layout 1", *header, *lines)) + "\n"


def problems_of(text: str) -> list[tuple[str, str, int | None, int | None]]:
    _, problems = read_layout_text(text)
    return [(p.severity, str(p.message), p.line, p.column) for p in problems]


def free_positions(text: str, removed: tuple[tuple[int, int, int], ...] = ()) -> set:
    layout = parse_layout(text)
    geometry = layout.geometry
    present = geometry.all_mask
    for position in removed:
        present &= ~(1 << layout.positions.index(position))
    return {layout.positions[tile] for tile in geometry.free_tiles(present)}


# --- parsing ----------------------------------------------------------------


def test_tiles_markers_and_reading_order() -> None:
    text = pyr(
        "title: Small",
        "description: Two layers.",
        "mark: face-down 2 0 0",
        "",
        "layer 0",
        "# a comment inside a layer",
        "o.V.",
        "....",
        "o.o.",
        "layer 1",
        ".C",
        "",
        "..",
        ".o",
    )
    layout = parse_layout(text)
    assert layout.name == "test"
    assert layout.title == "Small" and layout.description == "Two layers."
    assert layout.positions == (
        (0, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0), (1, 0, 1), (1, 2, 1)
    )
    assert layout.capstones == {4}
    assert layout.vaults == {1} and layout.face_down == {1}
    assert (layout.size, layout.layers, layout.width, layout.height) == (6, 2, 4, 4)


def test_name_comes_from_the_file_when_the_header_has_none(tmp_path) -> None:
    path = tmp_path / "My Layout.pyr"
    path.write_text(pyr("layer 0", "o.o.", header=()))
    assert read_layout_file(path).name == "my-layout"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello\nlayer 0\no.o.\n", "line 1: a layout file starts with 'pyramids-layout 1'"),
        ("pyramids-layout 7\nlayer 0\no.o.\n", "line 1: layout format version '7'"),
        (pyr("layer 0", "o.x."), "line 4, column 3: unknown character 'x' in layer 0"),
        (pyr("colour: red", "layer 0", "o.o."), "line 3: expected a header line"),
        (pyr("layer 0", "o.o.", "layer 2", "o"), "line 5: expected 'layer 1'"),
        (pyr("layer 1", "o.o."), "line 3: expected 'layer 0'"),
        (pyr("mark: gold 0 0 0", "layer 0", "o.o."), "line 3: a mark line is"),
        (pyr("mark: vault a b c", "layer 0", "o.o."), "line 3: a mark line is"),
        (pyr("name: Bad Name", "layer 0", "o.o.", header=()), "line 2: a layout name is"),
        (pyr("name: again", "layer 0", "o.o."), "line 3: header key 'name' given twice"),
        (pyr(), "no 'layer 0' section"),
        ("", "empty layout file"),
    ],
)
def test_syntax_errors_name_their_line(text: str, expected: str) -> None:
    with pytest.raises(LayoutError) as caught:
        parse_layout(text)
    assert expected in str(caught.value)


def test_missing_file_is_a_layout_error(tmp_path) -> None:
    with pytest.raises(LayoutError, match="cannot read layout file"):
        read_layout_file(tmp_path / "none.pyr")


# --- validation -------------------------------------------------------------


def test_sound_layout_has_no_problems() -> None:
    text = pyr("layer 0", "o.o.", "....", "V.o.", "layer 1", ".C..", "....", "...o")
    assert problems_of(text) == []


def test_overlapping_tiles_are_named_with_their_place() -> None:
    text = pyr("layer 0", "oo")
    [(severity, message, line, column)] = problems_of(text)
    assert severity == ERROR and (line, column) == (4, 1)
    assert "overlaps the tile at x=1 y=0 on layer 0" in message
    with pytest.raises(LayoutError, match=r"line 4, column 1, tile at x=0 y=0 layer 0: overl"):
        parse_layout(text)


def test_floating_tile() -> None:
    # The layer-1 tile at x=4 only touches the base tile at x=2 edge to edge.
    text = pyr("layer 0", "o.o.", "layer 1", "....o.", ".o....")
    assert problems_of(text) == [(ERROR, "floats: no tile of layer 0 lies under it", 6, 5)]


def test_odd_count() -> None:
    with pytest.raises(LayoutError, match="3 tiles: a layout needs an even number"):
        parse_layout(pyr("layer 0", "o.o.o."))


def test_mark_on_no_tile() -> None:
    text = pyr("mark: vault 1 0 0", "layer 0", "o.o.")
    assert problems_of(text) == [
        (ERROR, "'mark: vault' names no tile (no tile's top-left cell is there)", 3, None)
    ]
    with pytest.raises(LayoutError, match=r"line 3, tile at x=1 y=0 layer 0: 'mark: vault'"):
        parse_layout(text)


def test_vault_off_the_base_and_covered_capstone() -> None:
    text = pyr("layer 0", "C.o.", "layer 1", "V.o.")
    assert problems_of(text) == [
        (ERROR, "a vault must be on the base layer (layer 0)", 6, 1),
        (ERROR, "a tile lies on this capstone (a capstone is a peak)", 4, 1),
    ]


def test_warnings_do_not_stop_parsing() -> None:
    # Face-down with nothing on it; two vaults side by side.
    text = pyr("layer 0", "D.V.V.o.")
    assert problems_of(text) == [
        (WARNING, "vault touches the vault at x=4 y=0: only one of them can ever be unlocked",
         4, 3),
        (WARNING, "face-down tile with nothing on it: it starts face up", 4, 1),
    ]
    assert parse_layout(text).size == 4


def test_problems_count_in_the_error_message() -> None:
    with pytest.raises(LayoutError, match=r"\(and 2 more\)"):
        parse_layout(pyr("layer 0", "oo", "layer 1", "...o"))


def test_validate_layout_on_a_layout_built_in_code() -> None:
    layout = build_layout("x", {(0, 0, 0): (), (0, 0, 2): (), (5, 5, 0): (CAPSTONE,)})
    messages = [(p.severity, str(p.message), p.position) for p in validate_layout(layout)]
    assert (ERROR, "floats: no tile of layer 1 lies under it", (0, 0, 2)) in messages
    assert any("even number" in message for _, message, _ in messages)


# --- round trip -------------------------------------------------------------


def test_dump_then_parse_is_the_same_layout() -> None:
    layout = build_layout(
        "trip",
        {
            (0, 0, 0): (VAULT, FACE_DOWN),
            (2, 1, 0): (),
            (1, 0, 1): (FACE_DOWN,),
            (4, 4, 0): (),
            (4, 4, 1): (),
            (4, 4, 2): (CAPSTONE,),
        },
        title="Round trip",
        description="Several markers on one tile.",
    )
    text = dump_layout(layout)
    assert "mark: vault 0 0 0" in text and "mark: face-down 0 0 0" in text
    assert parse_layout(text, default_name="other") == layout


positions = st.tuples(st.integers(0, 12), st.integers(0, 8), st.integers(0, 3))
marker_sets = st.sets(st.sampled_from((CAPSTONE, VAULT, FACE_DOWN)), max_size=3)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(positions, marker_sets, min_size=1, max_size=25))
def test_round_trip_of_any_layout(tiles: dict) -> None:
    layout = build_layout("any", tiles, title="T", description="D")
    parsed, _ = read_layout_text(dump_layout(layout))
    assert parsed == layout


# --- the free-tile rule, worked by hand ---------------------------------------


def test_half_offset_tile_on_two_tiles_blocks_both() -> None:
    # Layer 1's tile sits across the two base tiles (half a tile off each).
    text = pyr("layer 0", "o.o.o.", "layer 1", ".o....")
    assert free_positions(text) == {(1, 0, 1), (4, 0, 0)}
    assert free_positions(text, removed=((1, 0, 1),)) == {(0, 0, 0), (4, 0, 0)}


def test_side_neighbour_half_a_row_off_still_blocks() -> None:
    # B (x=2, y=1) touches A's right side and C's left side, each half a row off.
    # D (x=2, y=4) is a full row below A's row band: it touches nothing.
    text = pyr("layer 0", "o...o.", "..o...", "......", "......", "..o...", "......")
    assert free_positions(text) == {(0, 0, 0), (4, 0, 0), (2, 4, 0)}
    assert free_positions(text, removed=((0, 0, 0),)) == {(2, 1, 0), (4, 0, 0), (2, 4, 0)}


def test_bridge_over_an_empty_gap() -> None:
    # Two base tiles with a one-tile gap; layer 1 leans one tile on each, half
    # over the gap; layer 2 bridges them, right over the empty base cells.
    # (A lone tile at x=8 makes the count even.)
    text = pyr("layer 0", "o...o...o.", "layer 1", ".o.o..", "layer 2", "..o...")
    assert free_positions(text) == {(2, 0, 2), (8, 0, 0)}
    layout = parse_layout(text)
    bridge = layout.positions.index((2, 0, 2))
    assert sorted(layout.positions[t] for t in layout.geometry.below[bridge]) == [
        (1, 0, 1),
        (3, 0, 1),
    ]
    # Without the bridge each layer-1 tile has an open outer side; the base
    # tiles stay covered.
    assert free_positions(text, removed=((2, 0, 2),)) == {(1, 0, 1), (3, 0, 1), (8, 0, 0)}
    assert free_positions(text, removed=((2, 0, 2), (1, 0, 1))) == {
        (0, 0, 0), (3, 0, 1), (8, 0, 0)
    }


def test_tile_under_a_quarter_overlapping_tile_is_covered() -> None:
    # The layer-1 tile at (3, 1) overlaps base tile B at (2, 0) by one cell only,
    # and misses A at (0, 0) and C at (6, 0) (three cells off each).
    text = pyr("layer 0", "o.o...o.", "....", "layer 1", "....", "...o", "....")
    assert free_positions(text) == {(0, 0, 0), (3, 1, 1), (6, 0, 0)}
    assert free_positions(text, removed=((3, 1, 1),)) == {(0, 0, 0), (2, 0, 0), (6, 0, 0)}


def test_open_left_blocked_right_is_free_and_middle_of_a_row_is_not() -> None:
    text = pyr("layer 0", "o.o.o.", "layer 1", "....o.")
    # The right end is covered from above; the left end has its left side open.
    assert free_positions(text) == {(0, 0, 0), (4, 0, 1)}
    # Uncovered, the right end is free too; the middle never is while both ends stay.
    assert free_positions(text, removed=((4, 0, 1),)) == {(0, 0, 0), (4, 0, 0)}
    assert free_positions(text, removed=((4, 0, 1), (0, 0, 0))) == {(2, 0, 0), (4, 0, 0)}


def test_exposed_needs_all_four_sides_open() -> None:
    # The vault at (2, 2) has tiles at its back (y-2) and front (y+2) sides.
    text = pyr("layer 0", "..o...", "......", "o.V...", "......", "..o...", "......")
    layout = parse_layout(text)
    geometry = layout.geometry
    vault = next(iter(layout.vaults))
    present = geometry.all_mask
    assert geometry.is_free(vault, present) and not geometry.is_exposed(vault, present)
    for neighbour in ((2, 0, 0), (0, 2, 0)):
        present &= ~(1 << layout.positions.index(neighbour))
    assert not geometry.is_exposed(vault, present)
    present &= ~(1 << layout.positions.index((2, 4, 0)))
    assert geometry.is_exposed(vault, present)


def test_the_example_in_the_docs_parses_as_described() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs/layout-format.md").read_text()
    block = doc.split("```\n# Comments start")[1].split("```")[0]
    layout, problems = read_layout_text("# Comments start" + block)
    assert problems == []
    assert layout.name == "little-step"
    assert layout.positions == (
        (0, 0, 0), (2, 0, 0), (0, 2, 0), (2, 2, 0), (1, 0, 1), (3, 2, 1)
    )
    assert layout.vaults == {1} and layout.capstones == {4} and layout.face_down == {3}


# --- words for players --------------------------------------------------------


def test_problems_and_errors_carry_catalogue_words() -> None:
    # The interfaces translate `Words`; str() of a problem or an error stays English.
    _, problems = read_layout_text(pyr("mark: vault 5 0 0", "layer 0", "oo"))
    overlap, mark = problems[1], problems[0]
    assert overlap.message.msgid.startswith("overlaps the tile at x={x} y={y} on layer {layer}")
    assert overlap.message.values == {"x": 1, "y": 0, "layer": 0}
    assert overlap.place() == "line 5, column 1, tile at x=0 y=0 layer 0"
    assert str(overlap) == str(overlap.words()) == (
        "error: line 5, column 1, tile at x=0 y=0 layer 0: overlaps the tile at x=1 y=0 on "
        "layer 0 (two tiles of one layer share a cell)"
    )
    assert overlap.words().msgid == "error: {problem}"
    assert mark.place() == "line 3, tile at x=5 y=0 layer 0"
    with pytest.raises(LayoutError) as caught:
        parse_layout(pyr("layer 0", "o?"))
    words = caught.value.words
    assert words.msgid == "{place}: {problem}"
    assert str(words.values["place"]) == "line 4, column 2"
    assert str(caught.value) == (
        "line 4, column 2: unknown character '?' in layer 0 (allowed: '.', 'o', 'C', 'V', 'D')"
    )
    with pytest.raises(LayoutError) as caught:
        parse_layout(pyr("layer 0", "oo", "layer 1", "...o"), source="my.pyr")
    words = caught.value.words
    assert words.msgid == "{source}: {problem}" and words.values["source"] == "my.pyr"
    assert str(caught.value).startswith("my.pyr: line 4, column 1, tile at x=0 y=0 layer 0: ")
    assert str(caught.value).endswith(" (and 2 more)")


def test_a_count_of_one_is_singular() -> None:
    [(severity, message, _, _)] = problems_of(pyr("layer 0", "o."))
    assert (severity, message) == (ERROR, "1 tile: a layout needs an even number of tiles")
