"""The Mahjongg tile drawing: distinct marked faces, labels that never run together."""

from __future__ import annotations

import pytest

from pyramids.core import load
from pyramids.games.mahjongg.blueprints import layout_names
from pyramids.games.mahjongg.tiles import FACES
from pyramids.play.text.mahjongg_tiles import (
    FACE_DOWN,
    HATCH,
    LABEL_WIDTH,
    SCALES,
    Marks,
    face_label,
    paint,
)


def test_every_face_has_a_distinct_glyph_with_its_mark() -> None:
    labels = {face.name: face_label({"face": face.name, "group": face.group}) for face in FACES}
    assert len(set(labels.values())) == len(FACES)
    assert all(len(label) == LABEL_WIDTH for label in labels.values())
    # The source's colour-blind marks: ring, lines, square, rays.
    assert labels["Scarab 7"] == "(7)"
    assert labels["Papyrus 7"] == "|7|"
    assert labels["Glyph 7"] == "[7]"
    assert all(labels[name].startswith("*") for name in ("Ra", "Horus", "Anubis", "Isis"))
    assert face_label({"face": None, "group": None}) == FACE_DOWN


def layout_view(name: str) -> dict:
    options = {"layout": name}
    if name == "twin-pyramids-of-dahshur":
        options.update(mode="coop", players=2)
    return load("mahjongg", **options).new_initial_state(5).view(0)


def check_labels(tiles: list[dict], scale, marks: Marks | None = None) -> None:
    canvas = paint(tiles, scale, marks)
    by_id = {tile["id"]: tile for tile in tiles}
    seen: dict[tuple[int, int], int] = {}
    for tile_id, cells in canvas.labels.items():
        for cell in cells:
            assert cell not in seen, f"labels of tiles {seen.get(cell)} and {tile_id} overlap"
            seen[cell] = tile_id
            assert canvas.owner[cell] == tile_id
        text = "".join(canvas.chars[y][x] for x, y in cells)
        assert text[1:] == face_label(by_id[tile_id])
    for tile in tiles:
        if tile["free"]:
            assert tile["id"] in canvas.labels, f"free tile {tile['id']} shows no face"
    # A partly covered label leaves no fragment: every glyph on screen is a whole label.
    label_cells = set(seen)
    glyphs = {face_label(tile)[1] for tile in tiles}
    for y in range(canvas.height):
        for x in range(canvas.width):
            if (x, y) not in label_cells and canvas.chars[y][x] in "()|[]*~=$":
                raise AssertionError(f"a stray face character at {(x, y)}: {glyphs}")
    assert HATCH not in "".join(canvas.chars[y][x] for x, y in label_cells)


@pytest.mark.parametrize("name", layout_names())
def test_no_two_labels_overlap_on_a_shipped_layout(name: str) -> None:
    view = layout_view(name)
    for scale in SCALES:
        check_labels(view["tiles"], scale)


@pytest.mark.parametrize("name", ["turtle", "great-zenith"])
def test_labels_stay_whole_as_the_board_empties(name: str) -> None:
    options = {"layout": name}
    state = load("mahjongg", **options).new_initial_state(11)
    steps = 0
    while not state.is_terminal() and steps < 40:
        matches = [a for a in state.legal_action_strings() if a.startswith("match ")]
        if not matches:
            break
        state.apply_string(matches[-1])
        steps += 1
        if steps % 8 == 0:
            view = state.view(0)
            free = [tile["id"] for tile in view["tiles"] if tile["free"]]
            marks = Marks(selected=frozenset(free[:1]), hint=frozenset(free[1:3]),
                          cursor=free[0] if free else None)
            check_labels(view["tiles"], SCALES[0], marks)
    assert steps >= 8


def test_higher_layers_sit_left_of_lower_ones_and_carry_their_height() -> None:
    tiles = [
        {"id": 0, "x": 0, "y": 0, "z": 0, "face": "Scarab 1", "group": "suit", "free": False},
        {"id": 1, "x": 0, "y": 0, "z": 1, "face": "Ra", "group": "deity", "free": True},
    ]
    canvas = paint(tiles, SCALES[0])
    assert canvas.origin[1][0] == canvas.origin[0][0] - 1
    assert 1 in canvas.labels and 0 not in canvas.labels
    lower_line = canvas.row_text(1)
    assert "×2" in lower_line
    # The block below shows its side to the right of the one on top.
    assert canvas.owner[(canvas.width - 1, 0)] == 0


def test_tile_letters_are_a_to_z_then_two_letters_each_its_own() -> None:
    from pyramids.play.text.mahjongg import tile_label

    assert [tile_label(n) for n in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]
    assert len({tile_label(n) for n in range(1000)}) == 1000


@pytest.mark.parametrize("name", layout_names())
def test_the_line_prompt_board_shows_every_free_tiles_letters_within_80_columns(
        name: str) -> None:
    """What a person types to match (`match a b`) is printed on each free tile, never
    covered by a higher one, on every shipped layout as play goes on; the board fits
    an 80-column terminal."""
    import random
    import re

    from pyramids.play.text.mahjongg import board_lines, move_labels, tile_label

    state = load("mahjongg", layout=name).new_initial_state(1)
    chooser = random.Random(name)
    for _move in range(8):
        view = state.view(0)
        lines = board_lines(view["tiles"], 80)
        assert max(len(line) for line in lines) <= 80
        board = "\n".join(lines)
        # Lower-case letters standing alone (not inside a face like *Ra), before the
        # tile's side, its height marker or a space.
        words = set(re.findall(r"(?<![A-Za-z])([a-z]+)(?=[▐× ]|$)", board, re.MULTILINE))
        free = [tile for tile in view["tiles"] if tile["free"]]
        assert free and all(tile_label(tile["id"]) in words for tile in free)
        assert move_labels(view)[str(free[0]["id"])] == tile_label(free[0]["id"])
        pairs = [move for move in state.legal_action_strings() if move.startswith("match")]
        if not pairs:
            break
        state.apply_string(chooser.choice(pairs))
