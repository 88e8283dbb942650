"""Mahjongg tiles as character cells: faces as short glyphs, blocks stacked by layer.

Pure drawing (no Textual), so the widget in `mahjongg.py` and the tests share it.

- **Faces**: each face is three characters whose first or framing characters are
  the source's colour-blind marks: Scarab `(7)` (ring), Papyrus `|7|` (vertical
  lines), Glyph `[7]` (square border), deities `*Ra` (sun rays); seasons `~Ha`,
  elements `=Su`, royal treasures `$Ph`. A face-down tile is `▒▒▒`.
- **Blocks**: a tile is `2 * cols` cells wide and `2 * rows` high (one half-tile
  step is `cols` columns, `rows` lines). Each layer up is drawn one column further
  left over the one below, so the right edge (`▐`, the block's side) of the lower
  layer shows: the pyramid is seen from above and a little to the right.
- **Free or blocked without colour**: a blocked tile's lower line is hatched `░`
  and its face dim; a free tile's is clear and its face bold.
- **Height**: tiles above the base carry `×N`, the elevation their pairs score.
- **Marks** (first column of the face line): `●` selected, `?` the hint, `◆` a
  Ra Sight pair, `↑` lifted by Anubis Shift; `^` a capstone, `v` a burial vault
  (last column before the side). The keyboard cursor is drawn reversed with `▸`
  (on the tile's first blank cell in sight when its own is covered), a face-down
  tile under it in a colour of its own.

A label is drawn only when all its cells are on top: a tile partly under a
higher one shows its block but no half label, so labels never run together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rich.style import Style
from rich.text import Text

from pyramids.play.i18n import _

LABEL_WIDTH = 3
FACE_DOWN = "▒" * LABEL_WIDTH
SIDE = "▐"
HATCH = "░"

SUIT_FRAMES = {"Scarab": "({})", "Papyrus": "|{}|", "Glyph": "[{}]"}
GROUP_MARKS = {"deity": "*", "season": "~", "element": "=", "royal": "$"}
SPECIAL_LABELS = {"Golden Pharaoh": "$Ph", "Sacred Scepter": "$Sc", "Nile Inundation": "~Ni"}

LAYER_COLOURS = ("#5a4630", "#7a5c34", "#98733c", "#b48a44", "#c9a052", "#dcb868", "#e8cf8a")
SIDE_COLOURS = ("#2e2418", "#3d2e1a", "#4c391e", "#5a4522", "#645029", "#6e5c34", "#746745")
SELECTED_COLOUR = "#2e8b57"
MARKED_COLOUR = "#2f5f9e"
SHIFTED_COLOUR = "#7b3fa0"
CURSOR_COLOUR = "#b5452b"

MARK_SELECTED = "●"
MARK_HINT = "?"
MARK_SIGHT = "◆"
MARK_SHIFTED = "↑"
MARK_CURSOR = "▸"
MARK_CAPSTONE = "^"
MARK_VAULT = "v"



def legend() -> str:
    """What the marks on the tiles mean, in the language of the run."""
    return _(
        "(n) Scarab · |n| Papyrus · [n] Glyph · *Ra *Ho *An *Is deities · ~ season · "
        "= element · $ royal · ▒▒▒ face down\n"
        "bold, clear lower line = free · dim, hatched ░ = blocked · ×N = pairs here score N× · "
        "^ capstone · v vault · ● selected · ? hint · ◆ Ra Sight · ▸ cursor"
    )


def face_label(tile: Mapping[str, Any]) -> str:
    """The three-character glyph of a tile's face (`▒▒▒` face down)."""
    face = tile.get("face")
    if face is None:
        return FACE_DOWN
    face = str(face)
    if face in SPECIAL_LABELS:
        return SPECIAL_LABELS[face]
    suit, _, value = face.rpartition(" ")
    if suit in SUIT_FRAMES and value.isdigit():
        return SUIT_FRAMES[suit].format(value)
    mark = GROUP_MARKS.get(str(tile.get("group")), "")
    letters = "".join(char for char in face if char.isalpha())
    label = (mark + letters[: LABEL_WIDTH - len(mark)]) if letters else str(tile.get("short"))
    return label[:LABEL_WIDTH].ljust(LABEL_WIDTH)


@dataclass(frozen=True)
class Scale:
    """Cells per half-tile step: `cols` across, `rows` down."""

    cols: int = 3
    rows: int = 1

    @property
    def tile_width(self) -> int:
        return 2 * self.cols

    @property
    def tile_height(self) -> int:
        return 2 * self.rows


#: From small to large; the board takes the largest that fits its space.
SCALES = (Scale(3, 1), Scale(4, 1), Scale(3, 2), Scale(4, 2), Scale(5, 2))


#: The narrowest scale, for line prompts on an 80-column terminal: a tile is four
#: columns, its face three, without the marks column (no selection at line prompts).
NARROW = Scale(2, 1)


@dataclass
class Marks:
    """What the board highlights: selection, cursor, hint and Ra Sight; `labels`: the
    letters a person types for a tile at line prompts, drawn at the end of its lower
    line where that part of it is on top."""

    selected: frozenset[int] = frozenset()
    hint: frozenset[int] = frozenset()
    sight: frozenset[int] = frozenset()
    cursor: int | None = None
    labels: Mapping[int, str] = field(default_factory=dict)


@dataclass
class Canvas:
    """The painted board: characters and styles per cell, the tile on top of each cell."""

    width: int
    height: int
    chars: list[list[str]]
    styles: list[list[Style]]
    owner: dict[tuple[int, int], int] = field(default_factory=dict)
    #: The cells of each label actually drawn (a tile partly covered has none).
    labels: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    #: The top-left cell of each tile's block.
    origin: dict[int, tuple[int, int]] = field(default_factory=dict)

    def text(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        for number in range(self.height):
            row_chars, row_styles = self.chars[number], self.styles[number]
            start = 0
            for column in range(1, self.width + 1):
                if column == self.width or row_styles[column] != row_styles[start]:
                    text.append("".join(row_chars[start:column]), row_styles[start])
                    start = column
            if number < self.height - 1:
                text.append("\n")
        return text

    def row_segments(self, row: int) -> list[tuple[str, Style]]:
        """One line as runs of equal style (what the widget turns into a strip)."""
        chars, styles = self.chars[row], self.styles[row]
        runs: list[tuple[str, Style]] = []
        start = 0
        for column in range(1, self.width + 1):
            if column == self.width or styles[column] != styles[start]:
                runs.append(("".join(chars[start:column]), styles[start]))
                start = column
        return runs

    def row_text(self, row: int) -> str:
        return "".join(self.chars[row])

    def visible_cell(self, tile_id: int) -> tuple[int, int] | None:
        """A cell of the tile that is on top, preferring its label: where a click picks it."""
        if tile_id in self.labels:
            return self.labels[tile_id][1]
        cells = sorted(
            (cell for cell, owner in self.owner.items() if owner == tile_id),
            key=lambda cell: (cell[1], cell[0]),
        )
        return cells[0] if cells else None


def layer_shift(scale: Scale) -> int:
    """Columns each layer down is drawn to the right of the one above (the side view).
    None at the narrowest scale: a shift of a quarter tile would cover the letters of a
    free tile beside a higher stack."""
    return 0 if scale.cols <= NARROW.cols else 1


def board_size(tiles: Iterable[Mapping[str, Any]], scale: Scale) -> tuple[int, int]:
    """Columns and lines the board needs at `scale`."""
    tiles = list(tiles)
    if not tiles:
        return 1, 1
    top = max(tile["z"] for tile in tiles)
    width = (max(tile["x"] for tile in tiles) + 2) * scale.cols + top * layer_shift(scale)
    height = (max(tile["y"] for tile in tiles) + 2) * scale.rows
    return width, height


def choose_scale(
    tiles: Iterable[Mapping[str, Any]], width: int, height: int
) -> Scale:
    """The largest scale at which the board fits `width` × `height`, else the smallest."""
    tiles = list(tiles)
    fitting = [
        scale
        for scale in SCALES
        if board_size(tiles, scale)[0] <= width and board_size(tiles, scale)[1] <= height
    ]
    return fitting[-1] if fitting else SCALES[0]


def paint(
    tiles: Iterable[Mapping[str, Any]],
    scale: Scale = SCALES[0],
    marks: Marks | None = None,
    extent: tuple[int, int] | None = None,
) -> Canvas:
    """Paint the tiles from the lowest layer up; see the module docstring for the looks.

    `extent` fixes the canvas size (columns, lines) so the board keeps its place as
    tiles go; by default it is the size the tiles need.
    """
    marks = marks or Marks()
    tiles = sorted(tiles, key=lambda t: (t["z"], t["y"], t["x"]))
    width, height = extent or board_size(tiles, scale)
    top_layer = max((tile["z"] for tile in tiles), default=0)
    blank = Style()
    canvas = Canvas(
        width, height, [[" "] * width for _ in range(height)],
        [[blank] * width for _ in range(height)],
    )
    label_row = scale.rows - 1
    label_cells: dict[int, list[tuple[int, int]]] = {}
    height_cells: dict[int, list[tuple[int, int]]] = {}
    tag_cells: dict[int, list[tuple[int, int]]] = {}
    for tile in tiles:
        left = tile["x"] * scale.cols + (top_layer - tile["z"]) * layer_shift(scale)
        top = tile["y"] * scale.rows
        canvas.origin[tile["id"]] = (left, top)
        rows = _tile_rows(tile, scale, marks)
        styles = _tile_styles(tile, scale, marks)
        for dy, (line, line_styles) in enumerate(zip(rows, styles, strict=True)):
            y = top + dy
            if not 0 <= y < height:
                continue
            for dx, char in enumerate(line):
                x = left + dx
                if 0 <= x < width:
                    canvas.chars[y][x] = char
                    canvas.styles[y][x] = line_styles[dx]
                    canvas.owner[(x, y)] = tile["id"]
        label_cells[tile["id"]] = [
            (left + dx, top + label_row) for dx in range(LABEL_WIDTH + 1)
        ]
        # The lower line: the cursor's cell, the tile's letters, its height marker.
        tag = marks.labels.get(tile["id"], "")
        tag_cells[tile["id"]] = [(left + 1 + dx, top + scale.rows) for dx in range(len(tag))]
        height_cells[tile["id"]] = [
            (left + 1 + len(tag) + dx, top + scale.rows)
            for dx in range(len(_height_marker(tile, scale, marks)))
        ]
    for tile in tiles:
        cells = label_cells[tile["id"]]
        if _on_top(canvas, tile, cells):
            canvas.labels[tile["id"]] = cells
        else:
            _blank(canvas, tile, cells)
        if not _on_top(canvas, tile, height_cells[tile["id"]]):
            _blank(canvas, tile, height_cells[tile["id"]])
        if not _on_top(canvas, tile, tag_cells[tile["id"]]):
            _blank(canvas, tile, tag_cells[tile["id"]])  # no half a label
    if marks.cursor is not None:
        _keep_cursor_mark(canvas, marks.cursor)
    return canvas


def _keep_cursor_mark(canvas: Canvas, tile_id: int) -> None:
    """The cursor's `▸` where the tile shows: its own cell may lie under a higher tile
    (a face-down tile always has one on it), and a Tile Reveal's target then read as
    any other `▒▒▒`. It moves to the tile's first cell in sight that shows nothing (a
    blank, a hatch or a face-down tile's `▒`), never over a face or a mark."""
    cells = sorted((cell for cell, owner in canvas.owner.items() if owner == tile_id),
                   key=lambda cell: (cell[1], cell[0]))
    if any(canvas.chars[y][x] == MARK_CURSOR for x, y in cells):
        return
    for x, y in cells:
        if canvas.chars[y][x] in (" ", HATCH, FACE_DOWN[0]):
            canvas.chars[y][x] = MARK_CURSOR
            return


def _on_top(canvas: Canvas, tile: Mapping[str, Any], cells: list[tuple[int, int]]) -> bool:
    return all(canvas.owner.get(cell) == tile["id"] for cell in cells)


def _blank(canvas: Canvas, tile: Mapping[str, Any], cells: list[tuple[int, int]]) -> None:
    """A label partly under a higher tile is not shown in part: its visible cells go plain."""
    fill = " " if _is_free(tile) else HATCH
    for x, y in cells:
        if canvas.owner.get((x, y)) == tile["id"]:
            canvas.chars[y][x] = fill


def _is_free(tile: Mapping[str, Any]) -> bool:
    return bool(tile.get("free")) or bool(tile.get("shifted"))


def _height_marker(tile: Mapping[str, Any], scale: Scale = SCALES[0],
                   marks: Marks | None = None) -> str:
    tag = "" if marks is None else marks.labels.get(tile["id"], "")
    if tag and 1 + len(tag) + 2 > scale.tile_width - 1:
        return ""  # no room for both: the letters are what a person types
    return f"×{tile['z'] + 1}" if tile["z"] > 0 else ""


def _mark(tile: Mapping[str, Any], marks: Marks) -> str:
    tile_id = tile["id"]
    if tile_id in marks.selected:
        return MARK_SELECTED
    if tile.get("shifted"):
        return MARK_SHIFTED
    if tile_id in marks.hint:
        return MARK_HINT
    if tile_id in marks.sight:
        return MARK_SIGHT
    return " "


def _tile_rows(tile: Mapping[str, Any], scale: Scale, marks: Marks) -> list[str]:
    inner = scale.tile_width - 1  # the last column is the block's side
    free = _is_free(tile)
    fill = " " if free else HATCH
    special = (MARK_CAPSTONE if tile.get("capstone") else "") + (
        MARK_VAULT if tile.get("vault") else ""
    )
    if scale.cols <= NARROW.cols:
        face_line = face_label(tile)  # no room for a mark
    else:
        face_line = _mark(tile, marks) + face_label(tile)
        face_line = face_line + " " * (inner - len(face_line) - len(special)) + special
    height = _height_marker(tile, scale, marks)
    cursor = MARK_CURSOR if marks.cursor == tile["id"] else fill
    # Letters at the left: a higher tile to the right is drawn over a lower one's right.
    tag = marks.labels.get(tile["id"], "")
    lower_line = (cursor + tag + height).ljust(inner, fill)[:inner]
    rows = []
    for row in range(scale.tile_height):
        if row == scale.rows - 1:
            line = face_line[:inner]
        elif row == scale.rows:
            line = lower_line
        else:
            line = fill * inner
        rows.append(line + SIDE)
    return rows


def _tile_styles(tile: Mapping[str, Any], scale: Scale, marks: Marks) -> list[list[Style]]:
    layer = min(tile["z"], len(LAYER_COLOURS) - 1)
    background = LAYER_COLOURS[layer]
    tile_id = tile["id"]
    if tile_id in marks.selected:
        background = SELECTED_COLOUR
    elif tile.get("shifted"):
        background = SHIFTED_COLOUR
    elif tile_id in marks.hint or tile_id in marks.sight:
        background = MARKED_COLOUR
    elif marks.cursor == tile_id and tile.get("face") is None:
        # Reversed, `▒▒▒` looks the same: the cursor's face-down tile has a colour.
        background = CURSOR_COLOUR
    return _block_styles(background, layer, _is_free(tile), marks.cursor == tile_id, scale)


@cache
def _block_styles(
    background: str, layer: int, free: bool, cursor: bool, scale: Scale
) -> list[list[Style]]:
    """The styles of a block's cells (shared by every tile that looks the same)."""
    body = Style(
        bgcolor=background, color="white" if free else "grey70", bold=free, dim=not free,
        reverse=cursor,
    )
    side = Style(bgcolor=background, color=SIDE_COLOURS[layer])
    bottom = body + Style(underline=True)
    inner = scale.tile_width - 1
    lines = []
    for row in range(scale.tile_height):
        style = bottom if row == scale.tile_height - 1 else body
        lines.append([style] * inner + [side])
    return lines
