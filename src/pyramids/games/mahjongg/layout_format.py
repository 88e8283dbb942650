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

Messages are `Words` (`pyramids.core.errors`): a `LayoutError` and each
`Problem` carry a catalogue message and its values, which the interfaces show
in the player's language; `str()` of either is the English text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pyramids.core.errors import N_, LayoutError, PluralWords, Words
from pyramids.core.files import os_reason
from pyramids.games.mahjongg.geometry import Geometry, Position, overlaps
from pyramids.games.mahjongg.layout import Layout, reading_order
from pyramids.games.mahjongg.tiles import FULL_SET_SIZE

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
# A problem's line as a validator lists it, by severity (catalogue messages).
SEVERITY_LINES = {ERROR: N_("error: {problem}"), WARNING: N_("warning: {problem}")}
# Where a problem is: (a line given, a column given, a tile given) -> message.
PLACES = {
    (True, False, False): N_("line {line}"),
    (True, True, False): N_("line {line}, column {column}"),
    (False, False, True): N_("tile at x={x} y={y} layer {layer}"),
    (True, False, True): N_("line {line}, tile at x={x} y={y} layer {layer}"),
    (True, True, True): N_("line {line}, column {column}, tile at x={x} y={y} layer {layer}"),
}


def place_words(
    line: int | None = None, column: int | None = None, position: Position | None = None
) -> Words | None:
    """Where something is in a layout file ("line 4, column 1, tile at ..."); None: nowhere.

    A column counts only with its line.
    """
    has_column = line is not None and column is not None
    key = (line is not None, has_column, position is not None)
    if key not in PLACES:
        return None
    values: dict[str, int] = {}
    if line is not None:
        values["line"] = line
    if has_column:
        assert column is not None
        values["column"] = column
    if position is not None:
        values["x"], values["y"], values["layer"] = position
    return Words(PLACES[key], **values)


def located(
    problem: Words,
    line: int | None = None,
    column: int | None = None,
    position: Position | None = None,
) -> Words:
    """`problem` after its place ("line 3: ..."), or alone when it has none."""
    place = place_words(line, column, position)
    return problem if place is None else Words(
        N_("{place}: {problem}"), place=place, problem=problem
    )


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a layout, with where it is.

    `message` is what is wrong, in words a player's language can show; `words()`
    is the whole line a validator lists, and `str(problem)` its English text.
    """

    severity: str  # ERROR or WARNING
    message: Words
    position: Position | None = None
    line: int | None = None  # 1-based, in the file the layout came from
    column: int | None = None  # 1-based

    def place(self) -> str:
        """Where the problem is, in English ("" if nowhere)."""
        place = place_words(self.line, self.column, self.position)
        return "" if place is None else str(place)

    def located(self) -> Words:
        """The message after its place, without the severity."""
        return located(self.message, self.line, self.column, self.position)

    def words(self) -> Words:
        """The line a validator lists: "error: line 4, column 1, tile at ...: overlaps ..."."""
        return Words(SEVERITY_LINES[self.severity], problem=self.located())

    def __str__(self) -> str:
        return str(self.words())


def _error(problem: Words, line: int | None = None, column: int | None = None) -> LayoutError:
    return LayoutError(located(problem, line, column))


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
                raise _error(Words(
                    N_("a layout file starts with '{magic}', not {text}"),
                    magic=f"{MAGIC} {VERSION}", text=repr(line[:40]),
                ), number)
            if words[1] != str(VERSION):
                raise _error(Words(
                    N_("layout format version {version} is not supported (only {supported})"),
                    version=repr(words[1]), supported=VERSION,
                ), number)
            seen_magic = True
            continue
        layer_match = re.fullmatch(r"layer\s+(\S+)", line.strip())
        if layer_match:
            expected = 0 if layer is None else layer + 1
            if layer_match.group(1) != str(expected):
                raise _error(Words(
                    N_("expected 'layer {layer}' (layers are numbered 0, 1, 2, ... in order), "
                       "got {text}"),
                    layer=expected, text=repr(line.strip()),
                ), number)
            layer, row = expected, 0
            continue
        if layer is None:
            key, sep, value = line.partition(":")
            key = key.strip().lower()
            if not sep or key not in HEADER_KEYS:
                raise _error(Words(
                    N_("expected a header line 'KEY: VALUE' with KEY one of {keys}, "
                       "or 'layer 0', got {text}"),
                    keys=", ".join(HEADER_KEYS), text=repr(line.strip()[:40]),
                ), number)
            value = value.strip()
            if key == "mark":
                parsed.marks.append(_parse_mark(value, number))
                continue
            if key in seen_keys:
                raise _error(
                    Words(N_("header key {key} given twice"), key=repr(key)), number
                )
            seen_keys.add(key)
            if key == "name" and not NAME_PATTERN.match(value):
                raise _error(bad_name(value), number)
            setattr(parsed, key, value)
            continue
        for column, char in enumerate(line):
            if char == EMPTY:
                continue
            markers = TILE_LETTERS.get(char)
            if markers is None:
                allowed = ", ".join(f"'{c}'" for c in (EMPTY, *TILE_LETTERS))
                raise _error(Words(
                    N_("unknown character {character} in layer {layer} (allowed: {allowed})"),
                    character=repr(char), layer=layer, allowed=allowed,
                ), number, column + 1)
            position = (column, row, layer)
            parsed.tiles[position] = markers
            parsed.origins[position] = (number, column + 1)
        row += 1
    if not seen_magic:
        raise LayoutError(N_("empty layout file: it must start with '{magic}'"),
                          magic=f"{MAGIC} {VERSION}")
    if layer is None:
        raise LayoutError(N_("the layout has no 'layer 0' section, so no tiles"))
    return parsed


def _parse_mark(value: str, number: int) -> tuple[str, Position, int]:
    words = value.split()
    values = {"markers": ", ".join(MARKERS), "text": repr(value)}
    if len(words) != 4 or words[0] not in MARKERS:
        raise _error(Words(
            N_("a mark line is 'mark: MARKER X Y LAYER' with MARKER one of {markers}, "
               "got {text}"), **values,
        ), number)
    try:
        x, y, z = (int(word) for word in words[1:])
    except ValueError:
        raise _error(Words(
            N_("a mark line is 'mark: MARKER X Y LAYER' with MARKER one of {markers} "
               "and whole numbers, got {text}"), **values,
        ), number) from None
    return words[0], (x, y, z), number


def read_layout_text(
    text: str, default_name: str = "layout", source: str = ""
) -> tuple[Layout, list[Problem]]:
    """Parse a `.pyr` text; return the layout and every problem found (not raised).

    A syntax error (a bad header, an unknown character) is raised as
    `LayoutError` with its line; geometric problems are returned so that a
    validator can list them all.
    """
    try:
        parsed = _parse(text)
    except LayoutError as error:
        if not source:
            raise
        # Name the file, as the KMahjongg reader and the geometric errors do.
        raise LayoutError(from_source(error.words, source)) from None
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
                    Words(N_("'mark: {marker}' names no tile (no tile's top-left cell is there)"),
                          marker=marker),
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
        problem = errors[0].located()
        if len(errors) > 1:
            problem = Words(N_("{problem} (and {count} more)"), problem=problem,
                            count=len(errors) - 1)
        raise LayoutError(from_source(problem, source))
    return layout


def from_source(problem: Words, source: str = "") -> Words:
    """`problem` after the file (or blueprint) it is in, when there is one."""
    return Words(N_("{source}: {problem}"), source=source, problem=problem) if source else problem


def bad_name(name: str) -> Words:
    """Why `name` cannot name a layout."""
    return Words(N_("a layout name is lower-case letters, digits, '-' and '_', not {name}"),
                 name=repr(name))


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
        content = Path(path).read_bytes()
    except OSError as error:
        raise unreadable(path, error) from None
    return layout_file_text(path, content)


def layout_file_text(path: str | Path, content: bytes) -> str:
    """The text of a layout file's content (read from `path`); not UTF-8: `LayoutError`."""
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise LayoutError(N_("layout file {path} is not UTF-8 text"),
                          path=repr(str(path))) from None


def unreadable(path: str | Path, error: OSError) -> LayoutError:
    """The error for a layout file that cannot be read."""
    return LayoutError(N_("cannot read layout file {path}: {problem}"),
                       path=repr(str(path)), problem=os_reason(error))


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
        return [Problem(ERROR, Words(N_("the layout has no tiles")))]
    if len(set(positions)) != len(positions):
        seen: set[Position] = set()
        for position in positions:
            if position in seen:
                errors.append(Problem(ERROR, Words(N_("two tiles at the same place")), position))
            seen.add(position)
    if any(min(p) < 0 for p in positions):
        for position in positions:
            if min(position) < 0:
                errors.append(Problem(ERROR, Words(N_("negative coordinate")), position))
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
                            Words(N_("overlaps the tile at x={x} y={y} on layer {layer} "
                                     "(two tiles of one layer share a cell)"),
                                  x=b[0], y=b[1], layer=z),
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
                            Words(N_("floats: no tile of layer {layer} lies under it"),
                                  layer=z - 1),
                            position,
                        )
                    )
    if len(positions) % 2:
        errors.append(Problem(ERROR, PluralWords(
            "{count} tile: a layout needs an even number of tiles",
            "{count} tiles: a layout needs an even number of tiles",
            len(positions),
        )))
    if len(positions) > FULL_SET_SIZE:
        warnings.append(Problem(WARNING, PluralWords(
            "{count} tile: more than the 144 of a tile set, so the set repeats and some faces "
            "have more than their usual copies",
            "{count} tiles: more than the 144 of a tile set, so the set repeats and some faces "
            "have more than their usual copies",
            len(positions),
        )))
    geometry: Geometry = layout.geometry
    for tile in sorted(layout.vaults):
        if positions[tile][2] != 0:
            errors.append(
                Problem(ERROR, Words(N_("a vault must be on the base layer (layer 0)")),
                        positions[tile])
            )
        for other in geometry.left[tile] + geometry.right[tile] + geometry.back[tile] + (
            geometry.front[tile]
        ):
            if other in layout.vaults and other > tile:
                warnings.append(
                    Problem(
                        WARNING,
                        Words(N_("vault touches the vault at x={x} y={y}: only one of them "
                                 "can ever be unlocked"),
                              x=positions[other][0], y=positions[other][1]),
                        positions[tile],
                    )
                )
    for tile in sorted(layout.capstones):
        if geometry.above[tile]:
            errors.append(
                Problem(ERROR, Words(N_("a tile lies on this capstone (a capstone is a peak)")),
                        positions[tile])
            )
    for tile in sorted(layout.face_down):
        if not geometry.above[tile]:
            warnings.append(
                Problem(
                    WARNING,
                    Words(N_("face-down tile with nothing on it: it starts face up")),
                    positions[tile],
                )
            )
    return errors + warnings


def free_at_start(layout: Layout) -> int:
    """How many tiles are free on the full board."""
    geometry = layout.geometry
    return len(geometry.free_tiles(geometry.all_mask))
