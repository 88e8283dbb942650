"""The project's own layout format (`.pyr`): parse, dump and validate.

The format is described for people in `docs/layout-format.md`. In short::

    pyramids-layout 1
    name: giza-step-ramp
    title: Giza Step Ramp
    description: Beginner. Wide base, shallow peaks, one capstone.
    mark: face-down 4 2 0

    layer 0
    o.o.o.
    ......
    layer 1
    .C....

Each layer is a grid on the half-tile grid (one character per cell, rows are
`y`, columns are `x`). A tile is written in its top-left cell, so a tile at
`(x, y, z)` covers `x..x+1`, `y..y+1`; its other three cells are `.`. The letter
says what the tile is: `o` plain, `C` capstone, `V` burial vault, `D` face-down.
`mark:` lines add a marker to the tile whose top-left cell is at `x y z` (for a
tile that carries more than one marker). Lines starting with `#` are comments.

Checks (`validate_layout`), each naming the tile and, for a parsed file, its
line and column:
- errors: two tiles of one layer share a cell; a tile above the base rests on
  nothing (no tile of the layer below overlaps it); an odd number of tiles; no
  tiles; a `mark:` line on no tile; a vault off the base layer (vaults are base
  tiles); a tile lying on a capstone (a capstone is a peak);
- warnings: a face-down tile with nothing on it (it would start face up); two
  vaults touching (only one of them could ever be unlocked).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pyramids.core.errors import LayoutError
from pyramids.games.mahjongg.geometry import Geometry, Position, overlaps
from pyramids.games.mahjongg.layout import Layout, reading_order

MAGIC = "pyramids-layout"
VERSION = 1
EMPTY = "."
PLAIN = "o"
CAPSTONE = "capstone"
VAULT = "vault"
FACE_DOWN = "face-down"
MARKERS = (CAPSTONE, VAULT, FACE_DOWN)
TILE_LETTERS: Mapping[str, tuple[str, ...]] = {
    PLAIN: (),
    "C": (CAPSTONE,),
    "V": (VAULT,),
    "D": (FACE_DOWN,),
}
LETTER_OF_MARKER = {markers[0]: letter for letter, markers in TILE_LETTERS.items() if markers}
LEGEND = (
    "# One character per half-tile cell; a tile is written in its top-left cell:",
    "# o plain, C capstone, V vault, D face-down, . empty (docs/layout-format.md).",
)
HEADER_KEYS = ("name", "title", "description", "mark")
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a layout, with where it is."""

    severity: str  # ERROR or WARNING
    message: str
    position: Position | None = None
    line: int | None = None  # 1-based, in the file the layout came from
    column: int | None = None  # 1-based

    def place(self) -> str:
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
            if self.column is not None:
                parts.append(f"column {self.column}")
        if self.position is not None:
            x, y, z = self.position
            parts.append(f"tile at x={x} y={y} layer {z}")
        return ", ".join(parts)

    def __str__(self) -> str:
        place = self.place()
        return f"{self.severity}: {place}: {self.message}" if place else (
            f"{self.severity}: {self.message}"
        )


def _error(message: str, line: int | None = None, column: int | None = None) -> LayoutError:
    place = f"line {line}" + (f", column {column}" if column is not None else "")
    return LayoutError(f"{place}: {message}" if line is not None else message)


# --- parsing ----------------------------------------------------------------


@dataclass
class _Parsed:
    name: str = ""
    title: str = ""
    description: str = ""
    tiles: dict[Position, tuple[str, ...]] | None = None
    origins: dict[Position, tuple[int, int]] | None = None  # (line, column)
    marks: list[tuple[str, Position, int]] | None = None  # (marker, position, line)


def _parse(text: str) -> _Parsed:
    parsed = _Parsed(tiles={}, origins={}, marks=[])
    assert parsed.tiles is not None and parsed.origins is not None and parsed.marks is not None
    seen_magic = False
    layer: int | None = None
    row = 0
    seen_keys: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if not seen_magic:
            words = line.split()
            if len(words) != 2 or words[0] != MAGIC:
                raise _error(
                    f"a layout file starts with '{MAGIC} {VERSION}', not {line[:40]!r}", number
                )
            if words[1] != str(VERSION):
                raise _error(
                    f"layout format version {words[1]!r} is not supported (only {VERSION})",
                    number,
                )
            seen_magic = True
            continue
        layer_match = re.fullmatch(r"layer\s+(\S+)", line.strip())
        if layer_match:
            expected = 0 if layer is None else layer + 1
            if layer_match.group(1) != str(expected):
                raise _error(
                    f"expected 'layer {expected}' (layers are numbered 0, 1, 2, ... in order), "
                    f"got {line.strip()!r}",
                    number,
                )
            layer, row = expected, 0
            continue
        if layer is None:
            key, sep, value = line.partition(":")
            key = key.strip().lower()
            if not sep or key not in HEADER_KEYS:
                raise _error(
                    f"expected a header line 'KEY: VALUE' with KEY one of "
                    f"{', '.join(HEADER_KEYS)}, or 'layer 0', got {line.strip()[:40]!r}",
                    number,
                )
            value = value.strip()
            if key == "mark":
                parsed.marks.append(_parse_mark(value, number))
                continue
            if key in seen_keys:
                raise _error(f"header key {key!r} given twice", number)
            seen_keys.add(key)
            if key == "name" and not NAME_PATTERN.match(value):
                raise _error(
                    f"a layout name is lower-case letters, digits, '-' and '_', not {value!r}",
                    number,
                )
            setattr(parsed, key, value)
            continue
        for column, char in enumerate(line):
            if char == EMPTY:
                continue
            markers = TILE_LETTERS.get(char)
            if markers is None:
                allowed = ", ".join(f"'{c}'" for c in (EMPTY, *TILE_LETTERS))
                raise _error(
                    f"unknown character {char!r} in layer {layer} (allowed: {allowed})",
                    number,
                    column + 1,
                )
            position = (column, row, layer)
            parsed.tiles[position] = markers
            parsed.origins[position] = (number, column + 1)
        row += 1
    if not seen_magic:
        raise LayoutError(f"empty layout file: it must start with '{MAGIC} {VERSION}'")
    if layer is None:
        raise LayoutError("the layout has no 'layer 0' section, so no tiles")
    return parsed


def _parse_mark(value: str, number: int) -> tuple[str, Position, int]:
    words = value.split()
    usage = f"a mark line is 'mark: MARKER X Y LAYER' with MARKER one of {', '.join(MARKERS)}"
    if len(words) != 4 or words[0] not in MARKERS:
        raise _error(f"{usage}, got {value!r}", number)
    try:
        x, y, z = (int(word) for word in words[1:])
    except ValueError:
        raise _error(f"{usage} and whole numbers, got {value!r}", number) from None
    return words[0], (x, y, z), number


def read_layout_text(
    text: str, default_name: str = "layout", source: str = ""
) -> tuple[Layout, list[Problem]]:
    """Parse a `.pyr` text; return the layout and every problem found (not raised).

    A syntax error (a bad header, an unknown character) is raised as
    `LayoutError` with its line; geometric problems are returned so that a
    validator can list them all.
    """
    parsed = _parse(text)
    assert parsed.tiles is not None and parsed.origins is not None and parsed.marks is not None
    problems: list[Problem] = []
    markers = {position: set(found) for position, found in parsed.tiles.items()}
    for marker, position, number in parsed.marks:
        if position in markers:
            markers[position].add(marker)
        else:
            problems.append(
                Problem(
                    ERROR,
                    f"'mark: {marker}' names no tile (no tile's top-left cell is there)",
                    position,
                    number,
                )
            )
    layout = build_layout(
        parsed.name or default_name,
        markers,
        title=parsed.title,
        description=parsed.description,
        source=source,
    )
    for problem in validate_layout(layout):
        if problem.position is not None and problem.position in parsed.origins:
            line, column = parsed.origins[problem.position]
            problem = Problem(problem.severity, problem.message, problem.position, line, column)
        problems.append(problem)
    return layout, problems


def parse_layout(text: str, default_name: str = "layout", source: str = "") -> Layout:
    """Parse a `.pyr` text into a sound layout; any error raises `LayoutError`."""
    layout, problems = read_layout_text(text, default_name, source)
    errors = [problem for problem in problems if problem.severity == ERROR]
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        where = f"{source}: " if source else ""
        first = errors[0]
        place = first.place()
        raise LayoutError(f"{where}{place + ': ' if place else ''}{first.message}{more}")
    return layout


def build_layout(
    name: str,
    tiles: Mapping[Position, Iterable[str]],
    title: str = "",
    description: str = "",
    source: str = "",
) -> Layout:
    """A `Layout` from positions and their markers, tiles numbered in reading order."""
    positions = sorted(tiles, key=reading_order)
    index = {position: number for number, position in enumerate(positions)}

    def having(marker: str) -> frozenset[int]:
        return frozenset(index[p] for p, found in tiles.items() if marker in set(found))

    return Layout(
        name=name,
        positions=tuple(positions),
        capstones=having(CAPSTONE),
        vaults=having(VAULT),
        face_down=having(FACE_DOWN),
        title=title,
        description=description,
        source=source,
    )


def read_layout_file_text(path: str | Path) -> str:
    """A layout file's text; an unreadable or non-UTF-8 file raises `LayoutError`."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise LayoutError(f"cannot read layout file {str(path)!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise LayoutError(f"layout file {str(path)!r} is not UTF-8 text") from None


def read_layout_file(path: str | Path) -> Layout:
    """Read and check a `.pyr` file (strict: any error raises `LayoutError`)."""
    text = read_layout_file_text(path)
    return parse_layout(text, default_name=name_from_path(path), source=str(path))


def name_from_path(path: str | Path) -> str:
    stem = re.sub(r"[^a-z0-9_-]+", "-", Path(path).stem.lower()).strip("-")
    return stem or "layout"


# --- dumping ----------------------------------------------------------------


def dump_layout(layout: Layout) -> str:
    """The `.pyr` text of a layout; `parse_layout(dump_layout(l)) == l` for a sound one."""
    lines = [f"{MAGIC} {VERSION}", *LEGEND, f"name: {layout.name}"]
    if layout.title:
        lines.append(f"title: {_one_line(layout.title)}")
    if layout.description:
        lines.append(f"description: {_one_line(layout.description)}")
    letters: dict[Position, str] = {}
    for tile, position in enumerate(layout.positions):
        markers = tile_markers(layout, tile)
        if len(markers) == 1:
            letters[position] = LETTER_OF_MARKER[markers[0]]
        else:
            letters[position] = PLAIN
            x, y, z = position
            lines.extend(f"mark: {marker} {x} {y} {z}" for marker in markers)
    width = layout.width
    height = layout.height
    for z in range(layout.layers):
        lines.append("")
        lines.append(f"layer {z}")
        for y in range(height):
            row = "".join(letters.get((x, y, z), EMPTY) for x in range(width))
            lines.append(row)
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def tile_markers(layout: Layout, tile: int) -> tuple[str, ...]:
    """The markers of one tile, in the order capstone, vault, face-down."""
    found = []
    if tile in layout.capstones:
        found.append(CAPSTONE)
    if tile in layout.vaults:
        found.append(VAULT)
    if tile in layout.face_down:
        found.append(FACE_DOWN)
    return tuple(found)


# --- validation -------------------------------------------------------------


def validate_layout(layout: Layout) -> list[Problem]:
    """Every geometric problem of a layout (errors first, then warnings)."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    positions = layout.positions
    if not positions:
        return [Problem(ERROR, "the layout has no tiles")]
    if len(set(positions)) != len(positions):
        seen: set[Position] = set()
        for position in positions:
            if position in seen:
                errors.append(Problem(ERROR, "two tiles at the same place", position))
            seen.add(position)
    if any(min(p) < 0 for p in positions):
        for position in positions:
            if min(position) < 0:
                errors.append(Problem(ERROR, "negative coordinate", position))
    by_layer: dict[int, list[Position]] = {}
    for position in positions:
        by_layer.setdefault(position[2], []).append(position)
    for z, layer in sorted(by_layer.items()):
        layer.sort(key=reading_order)
        for i, a in enumerate(layer):
            for b in layer[i + 1 :]:
                if b[1] - a[1] > 1:
                    break
                if a != b and overlaps(a, b):
                    errors.append(
                        Problem(
                            ERROR,
                            f"overlaps the tile at x={b[0]} y={b[1]} on layer {z} "
                            "(two tiles of one layer share a cell)",
                            a,
                        )
                    )
        if z > 0:
            below = by_layer.get(z - 1, [])
            for position in layer:
                if not any(overlaps(position, other) for other in below):
                    errors.append(
                        Problem(
                            ERROR,
                            f"floats: no tile of layer {z - 1} lies under it",
                            position,
                        )
                    )
    if len(positions) % 2:
        errors.append(
            Problem(ERROR, f"{len(positions)} tiles: a layout needs an even number of tiles")
        )
    geometry: Geometry = layout.geometry
    for tile in sorted(layout.vaults):
        if positions[tile][2] != 0:
            errors.append(
                Problem(ERROR, "a vault must be on the base layer (layer 0)", positions[tile])
            )
        for other in geometry.left[tile] + geometry.right[tile] + geometry.back[tile] + (
            geometry.front[tile]
        ):
            if other in layout.vaults and other > tile:
                warnings.append(
                    Problem(
                        WARNING,
                        f"vault touches the vault at x={positions[other][0]} "
                        f"y={positions[other][1]}: only one of them can ever be unlocked",
                        positions[tile],
                    )
                )
    for tile in sorted(layout.capstones):
        if geometry.above[tile]:
            errors.append(
                Problem(ERROR, "a tile lies on this capstone (a capstone is a peak)",
                        positions[tile])
            )
    for tile in sorted(layout.face_down):
        if not geometry.above[tile]:
            warnings.append(
                Problem(
                    WARNING,
                    "face-down tile with nothing on it: it starts face up",
                    positions[tile],
                )
            )
    return errors + warnings


def free_at_start(layout: Layout) -> int:
    """How many tiles are free on the full board."""
    geometry = layout.geometry
    return len(geometry.free_tiles(geometry.all_mask))
