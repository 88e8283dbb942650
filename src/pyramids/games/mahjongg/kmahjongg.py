"""Import KMahjongg `.layout` files (format versions 1.0 and 1.1).

What KMahjongg's reader accepts, and so what this importer accepts:
- line 1 is `kmahjongg-layout-v1.1` or `kmahjongg-layout-v1.0`;
- lines starting with `#` are comments;
- v1.1 only: lines `w<N>`, `h<N>`, `d<N>` give the width and height in
  half-tile cells and the number of layers; v1.0 is always 32 x 16 x 5;
- every other line is board text; joined, it is exactly w*h*d characters in
  the order layer, row, column;
- a `1` cell is a tile's top-left corner, at that cell's `(x, y, z)`; every
  other character is an empty cell (the `2`, `3`, `4` drawing the rest of a
  tile are decoration); the number of tiles is even.

What this importer refuses besides, each error naming the file, the line and
column of the tile's `1`, its layer, and what is allowed:
- a tile that lies past the declared size. A tile covers 2 x 2 cells, so a `1`
  in the last column or the last row of a layer would reach outside the
  `w` x `h` board (the board would silently grow);
- two tiles of one layer that share a cell (the rules page: "two tiles on one
  layer never share a cell"): their `1`s are at most one cell apart across and
  down. Half-tile offsets (2 across and 1 down, as the Turtle's end tiles) share
  no cell and are read as they are.

Imported layouts carry the rules page's markers: the tiles of the highest layer
become capstones, with no vaults and no face-down tiles. KMahjongg does not
check that tiles rest on something, so neither does the importer:
`layout_format.validate_layout` reports a floating tile as a warning for the
caller to show.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from pathlib import Path

from pyramids.core.errors import N_, LayoutError, PluralWords, Words
from pyramids.games.mahjongg.geometry import Position
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.layout_format import build_layout, from_source, located, unreadable

HEADER_V10 = "kmahjongg-layout-v1.0"
HEADER_V11 = "kmahjongg-layout-v1.1"
V10_SIZE = (32, 16, 5)
TILE_CELL = "1"


def is_kmahjongg_text(text: str) -> bool:
    """Whether a text starts like a KMahjongg layout (to choose the reader)."""
    return text.lstrip("\ufeff").startswith("kmahjongg-layout-v")


def parse_kmahjongg(text: str, name: str = "kmahjongg", source: str = "") -> Layout:
    """The layout of a KMahjongg `.layout` text; `LayoutError` if KMahjongg would refuse it."""

    def refuse(problem: Words, line: int | None = None) -> LayoutError:
        return LayoutError(from_source(located(problem, line), source))

    lines = text.lstrip("\ufeff").splitlines()
    header = lines[0].rstrip("\r") if lines else ""
    if header not in (HEADER_V10, HEADER_V11):
        raise refuse(Words(
            N_("not a KMahjongg layout: it must be {v11} or {v10}, got {text}"),
            v11=repr(HEADER_V11), v10=repr(HEADER_V10), text=repr(header[:40]),
        ), 1)
    width, height, depth = V10_SIZE
    given: dict[str, int] = {}
    board: list[str] = []
    # Where each board line starts in the joined text, and its line number.
    starts: list[int] = []
    numbers: list[int] = []
    joined = 0
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\r")
        if line.startswith("#"):
            continue
        if header == HEADER_V11 and line[:1] in ("w", "h", "d"):
            digits = line[1:].strip()
            if not digits.isdigit() or int(digits) <= 0:
                raise refuse(Words(
                    N_("{key} needs a positive whole number (e.g. '{example}'), got {text}"),
                    key=repr(line[:1]), example=f"{line[:1]}16", text=repr(line[:40]),
                ), number)
            given[line[:1]] = int(digits)
            continue
        starts.append(joined)
        numbers.append(number)
        joined += len(line)
        board.append(line)
    width = given.get("w", width)
    height = given.get("h", height)
    depth = given.get("d", depth)
    cells = "".join(board)
    expected = width * height * depth
    if len(cells) != expected:
        raise refuse(PluralWords(
            "the board text has {count} character but a {width} x {height} x {depth} board "
            "needs exactly {expected} (width x height x layers)",
            "the board text has {count} characters but a {width} x {height} x {depth} board "
            "needs exactly {expected} (width x height x layers)",
            len(cells), width=width, height=height, depth=depth, expected=expected,
        ))
    positions: list[Position] = []
    tile_offsets: list[int] = []
    layer_size = width * height
    for offset, char in enumerate(cells):
        if char == TILE_CELL:
            z, rest = divmod(offset, layer_size)
            y, x = divmod(rest, width)
            positions.append((x, y, z))
            tile_offsets.append(offset)
    def line_and_column(offset: int) -> tuple[int, int]:
        """The file line and 1-based column of the board character at `offset`."""
        row = bisect_right(starts, offset) - 1
        return numbers[row], offset - starts[row] + 1

    def refuse_first(found: list[tuple[int, Position, Words]]) -> LayoutError:
        offset, position, why = found[0]
        problem = located(why, *line_and_column(offset), position)
        if len(found) > 1:
            problem = Words(N_("{problem} (and {count} more)"), problem=problem,
                            count=len(found) - 1)
        return LayoutError(from_source(problem, source))

    tiles = list(zip(tile_offsets, positions, strict=True))
    past_the_edge = _past_the_edge(width, height, header)
    outside = [(offset, position, past_the_edge) for offset, position in tiles
               if position[0] + 2 > width or position[1] + 2 > height]
    if outside:
        raise refuse_first(outside)
    overlapping = [
        (offset, position, _overlap(other, *line_and_column(other_offset)))
        for (offset, position), (other_offset, other) in _overlapping_pairs(tiles)
    ]
    if overlapping:
        raise refuse_first(overlapping)
    if not positions:
        raise refuse(Words(N_("the board has no tiles (no '1' cells)")))
    if len(positions) % 2:
        raise refuse(PluralWords(
            "the board has {count} tile ('1' cell); a layout needs an even number",
            "the board has {count} tiles ('1' cells); a layout needs an even number",
            len(positions),
        ))
    layout = build_layout(name, {position: () for position in positions}, source=source)
    return replace(layout, capstones=layout.highest_tiles())


def _past_the_edge(width: int, height: int, header: str) -> Words:
    """Why a tile whose '1' is at this place does not fit on a `width` x `height` board."""
    size = (Words(N_("a kmahjongg-layout-v1.0 board is {width} cells wide and {height} high"),
                  width=width, height=height) if header == HEADER_V10 else
            Words(N_("the board is declared {width} cells wide and {height} high "
                     "(w{width}, h{height})"), width=width, height=height))
    if width < 2 or height < 2:
        return Words(N_("this tile lies past the edge of the board: {size}, and a tile covers "
                        "2 x 2 cells, so no tile fits; give w and h of 2 or more"), size=size)
    return Words(N_("this tile lies past the edge of the board: {size}, and a tile covers "
                    "2 x 2 cells, so its '1' must be at x 0 to {last_x} and y 0 to {last_y}"),
                 size=size, last_x=width - 2, last_y=height - 2)


def _overlapping_pairs(
    tiles: list[tuple[int, Position]],
) -> list[tuple[tuple[int, Position], tuple[int, Position]]]:
    """Each pair of tiles (offset, position) of one layer that share a cell, the earlier
    first; `tiles` are in reading order (layer, row, column), as the board text is.

    A tile covers its `1` cell and the three to its right and below, so two tiles of one
    layer share a cell exactly when their `1`s are at most one cell apart across and at
    most one down (`|dx| <= 1` and `|dy| <= 1`, the rules page's overlap): a tile half a
    tile off its neighbour (`dx = 2, dy = 1`) shares none.
    """
    pairs = []
    for i, (offset, (x, y, z)) in enumerate(tiles):
        for other_offset, (ox, oy, oz) in tiles[i + 1:]:
            if oz != z or oy - y > 1:
                break
            if abs(ox - x) <= 1:
                pairs.append(((offset, (x, y, z)), (other_offset, (ox, oy, oz))))
    return pairs


def _overlap(other: Position, line: int, column: int) -> Words:
    """Why a tile that shares a cell with the tile at `other` (whose '1' is at this line
    and column) is refused."""
    return Words(
        N_("this tile overlaps the tile at x={x} y={y} (line {line}, column {column}): a tile "
           "covers 2 x 2 cells and two tiles of one layer may not share a cell, so the '1's "
           "of one layer must be at least 2 cells apart across or down (a half-tile offset, "
           "such as 2 across and 1 down, is allowed)"),
        x=other[0], y=other[1], line=line, column=column,
    )


def read_kmahjongg_file(path: str | Path, text: str | None = None) -> Layout:
    """Read a `.layout` file, taking its title and description from the `.desktop` beside it.

    `text`: the file's text as already read (the file itself is not read again)."""
    path = Path(path)
    if text is None:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            raise unreadable(path, error) from None
    layout = parse_kmahjongg(text, name=path.stem.lower(), source=str(path))
    title, description = _desktop_entry(path.with_suffix(".desktop"))
    return replace(layout, title=title or path.stem, description=description)


def _desktop_entry(path: Path) -> tuple[str, str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "", ""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() in ("Name", "Description"):
            values.setdefault(key.strip(), value.strip())
    return values.get("Name", ""), values.get("Description", "")
