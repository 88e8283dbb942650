"""`pyramids layout info | show | validate | convert`: look at and check board layouts.

A layout is a shipped name (`pyramids layout info turtle`) or the path of a
`.pyr` file (the project's format, docs/layout-format.md) or a KMahjongg
`.layout` file. Every bad input ends in one line on stderr and exit code 2.
What the commands print is in the player's language (`--lang`); the `--json`
figures and the `.pyr` text that `convert` writes are data, not translated.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import typer

from pyramids.cli.common import USAGE_ERROR, user_errors, wrap_cells
from pyramids.core.errors import N_, LayoutError
from pyramids.core.files import os_reason, write_text_atomically
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import layout_names, load_layout, reads_as_kmahjongg
from pyramids.games.mahjongg.blueprints.difficulty import LEVELS, measured_layouts
from pyramids.games.mahjongg.deal import find_clearing_order
from pyramids.games.mahjongg.geometry import mask_of
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.layout_format import (
    ERROR,
    NAME_PATTERN,
    WARNING,
    Problem,
    bad_name,
    dump_layout,
    free_at_start,
    name_from_path,
    read_layout_file_text,
    read_layout_text,
    tile_markers,
    validate_layout,
)
from pyramids.play.i18n import _, ngettext, words_text

LAYOUT_HELP = "A shipped layout name or the path of a .pyr or KMahjongg .layout file."

layout_app = typer.Typer(
    help="Inspect, draw, check and convert Mahjongg board layouts.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(layout_app, name="layout")


def layout_summary(layout: Layout) -> dict[str, Any]:
    """The figures `layout info` prints."""
    per_layer = [0] * layout.layers
    for _x, _y, z in layout.positions:
        per_layer[z] += 1
    return {
        "name": layout.name,
        "title": layout.title,
        "description": layout.description,
        "tiles": layout.size,
        "layers": layout.layers,
        "width": layout.width,
        "height": layout.height,
        "tiles_per_layer": per_layer,
        "free_at_start": free_at_start(layout),
        "capstones": len(layout.capstones),
        "vaults": len(layout.vaults),
        "face_down": len(layout.face_down),
    }


def layout_entries() -> list[dict[str, Any]]:
    """Every shipped layout with its tier and measured figures (None when unmeasured)."""
    measured = measured_layouts()
    entries = []
    for name in layout_names():
        layout = load_layout(name)
        record = measured.get(name)
        entries.append({
            "name": name,
            "title": layout.title,
            "description": layout.description,
            "tiles": layout.size,
            "layers": layout.layers,
            "capstones": len(layout.capstones),
            "vaults": len(layout.vaults),
            "face_down": len(layout.face_down),
            "tier": record["tier"] if record else None,
            "figures": record,
        })
    return entries


def tier_word(tier: str) -> str:
    """A tier's name in the player's language."""
    words = {"beginner": _("beginner"), "intermediate": _("intermediate"),
             "advanced": _("advanced"), "expert": _("expert")}
    return words.get(tier, tier)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f}%"


@layout_app.command("list")
def list_layouts(
    as_json: bool = typer.Option(False, "--json", help="Every layout and its figures as JSON."),
) -> None:
    """List the shipped layouts with their tier and measured difficulty.

    Tier and figures come from the difficulty data measured by
    benchmarks/layout_difficulty.py (docs/layouts.md explains them): the
    estimated solve time for a person, the share of random deals that cannot
    be cleared, and how often each bot level clears a deal.
    """
    with user_errors():
        entries = layout_entries()
    if as_json:
        typer.echo(json.dumps(entries, indent=2, ensure_ascii=False))
        return
    from rich.console import Console

    # Not inside the f-strings: the extractor only sees calls outside string literals.
    heads = [_("layout"), _("tiles"), _("layers"), _("tier"), _("minutes"), _("unsolvable")]
    clears_head, title_head = _("bots clear (easy/medium/hard/expert)"), _("title")
    rows = []
    for entry in entries:
        figures = entry["figures"]
        cells = [entry["name"], str(entry["tiles"]), str(entry["layers"])]
        if figures is None:
            cells += [_("not measured"), "", ""]
            clears = ""
        else:
            cells += [tier_word(figures["tier"]), f"{figures['estimated_minutes']:.0f}",
                      _percent(figures["unsolvable_share"])]
            clears = "/".join(_percent(figures[f"clear_rate_{level}"]) for level in LEVELS)
        rows.append((cells, clears, _(entry["title"]) if entry["title"] else ""))
    widths = [max(cell_len(text) for text in column)
              for column in zip(heads, *(cells for cells, _clears, _title in rows), strict=True)]
    clears_width = max(cell_len(clears_head), *(cell_len(clears) for _c, clears, _t in rows))
    figures_width = sum(widths) + 2 * (len(widths) - 1)
    if figures_width + 2 + clears_width + 2 + cell_len(title_head) <= Console().width:
        # Wide enough: one line a layout, the title last.
        typer.echo(f"{table_line(heads, widths)}  {pad(clears_head, clears_width)}  {title_head}")
        for cells, clears, title in rows:
            typer.echo(f"{table_line(cells, widths)}  {pad(clears, clears_width)}  {title}"
                       .rstrip())
        return
    # Narrower (an 80-column terminal): the title and the bots' clear rates on a
    # second line under each layout's figures.
    typer.echo(table_line(heads, widths))
    typer.echo(second_line(title_head, clears_head, figures_width))
    for cells, clears, title in rows:
        typer.echo(table_line(cells, widths))
        typer.echo(second_line(title, clears, figures_width))


def cell_len(text: str) -> int:
    """Terminal cells `text` takes (a Korean syllable takes two)."""
    from rich.cells import cell_len as cells

    return cells(text)


def pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - cell_len(text))
    return gap + text if right else text + gap


def table_line(cells: list[str], widths: list[int]) -> str:
    """The name and tier left-aligned, the numbers right-aligned, two spaces apart."""
    left = (0, 3)
    return "  ".join(pad(cell, width, right=index not in left)
                     for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
                     ).rstrip()


def second_line(title: str, clears: str, width: int) -> str:
    """`  title` with `clears` right-aligned under the figures (its own line if both
    do not fit)."""
    first = "  " + title
    if cell_len(first) + 2 + cell_len(clears) > width:
        return f"{first}\n{pad(clears, width, right=True)}".rstrip()
    return (first + pad(clears, width - cell_len(first), right=True)).rstrip()


# `layout info`'s lines, by figure (catalogue messages).
INFO_LINES = {
    "name": N_("name: {value}"),
    "title": N_("title: {value}"),
    "description": N_("description: {value}"),
    "tiles": N_("tiles: {value}"),
    "layers": N_("layers: {value}"),
    "width": N_("width: {value}"),
    "height": N_("height: {value}"),
    "tiles_per_layer": N_("tiles per layer: {value}"),
    "free_at_start": N_("free at start: {value}"),
    "capstones": N_("capstones: {value}"),
    "vaults": N_("vaults: {value}"),
    "face_down": N_("face down: {value}"),
}


def tiles_text(count: int) -> str:
    return ngettext("{count} tile", "{count} tiles", count)


def layers_text(count: int) -> str:
    return ngettext("{count} layer", "{count} layers", count)


@layout_app.command("info")
def info(
    layout_name: str = typer.Argument(..., metavar="FILE_OR_NAME", help=LAYOUT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Print a layout's figures: tiles, layers, size, free tiles at start, markers."""
    with user_errors():
        summary = layout_summary(load_layout(layout_name))
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    from rich.console import Console

    width = Console().width
    for key, value in summary.items():
        if key == "tiles_per_layer":
            value = " ".join(str(count) for count in value)
        elif key in ("title", "description") and value:
            value = _(value)  # a shipped layout's words are in the catalogue
        if value != "":
            typer.echo(wrap_cells(_(INFO_LINES[key], value=value), width))



MARKER_STYLE = {
    (): "black on wheat1",
    ("capstone",): "bold black on gold1",
    ("vault",): "bold white on blue",
    ("face-down",): "white on grey35",
}
MARKER_LETTER = {(): "o", ("capstone",): "C", ("vault",): "V", ("face-down",): "D"}


def draw_layer(layout: Layout, z: int) -> list[list[tuple[str, str]]]:
    """One layer as rows of (text, style) runs: each cell 2 characters, a tile a box.

    A tile covers 2 x 2 cells, so it is drawn 4 characters wide and 2 lines high,
    its marker letter in its top-left corner; a half offset shows as a shift of 2
    characters or 1 line.
    """
    width, height = layout.width, layout.height
    grid: list[list[tuple[str, str]]] = [[("  ", "")] * width for _row in range(height)]
    for tile, (x, y, tz) in enumerate(layout.positions):
        if tz != z:
            continue
        markers = tile_markers(layout, tile)
        style = MARKER_STYLE.get(markers, "bold black on orange1")
        letter = MARKER_LETTER.get(markers, "*")
        grid[y][x] = ("\u250c" + letter, style)
        grid[y][x + 1] = ("\u2500\u2510", style)
        if y + 1 < height:
            grid[y + 1][x] = ("\u2514\u2500", style)
            grid[y + 1][x + 1] = ("\u2500\u2518", style)
    return grid


@layout_app.command("show")
def show(
    layout_name: str = typer.Argument(..., metavar="FILE_OR_NAME", help=LAYOUT_HELP),
    plain: bool = typer.Option(False, "--plain", help="No colours (for pipes and logs)."),
    side_by_side: bool = typer.Option(
        False, "--side-by-side", "-s", help="Layers side by side, as many as fit the width."
    ),
) -> None:
    """Draw a layout layer by layer; o plain, C capstone, V vault, D face-down."""
    from rich.columns import Columns
    from rich.console import Console
    from rich.text import Text

    with user_errors():
        layout = load_layout(layout_name)
    console = Console(no_color=plain, highlight=False, soft_wrap=not side_by_side)
    title = _(layout.title) if layout.title else layout.name
    console.print(_(
        "{title}: {tiles}, {layers}, {width} x {height} half-tile cells", title=title,
        tiles=tiles_text(layout.size), layers=layers_text(layout.layers),
        width=layout.width, height=layout.height,
    ))
    blocks = []
    for z in range(layout.layers):
        count = sum(1 for _x, _y, tz in layout.positions if tz == z)
        heading = ngettext("layer {layer} ({count} tile)", "layer {layer} ({count} tiles)",
                           count, layer=z)
        block = Text(heading + "\n")
        for row in draw_layer(layout, z):
            line = Text()
            for text, style in row:
                line.append(text, style=None if plain else (style or None))
            if not side_by_side:
                line.rstrip()
            block.append_text(line)
            block.append("\n")
        block.rstrip()
        blocks.append(block)
    if side_by_side:
        console.print(Columns(blocks, padding=(1, 3)))
    else:
        for block in blocks:
            console.print(block)
    console.print(_("o plain  C capstone  V vault  D face-down  * several markers"))


@layout_app.command("validate")
def validate(
    layout_name: str = typer.Argument(..., metavar="FILE", help=LAYOUT_HELP),
) -> None:
    """Check a layout; list each problem with its place; exit 2 on an error.

    In a .pyr file overlapping or floating tiles, an odd count, a mark on no tile
    and misplaced markers are errors. A KMahjongg file is refused when two tiles
    of one layer share a cell or a tile lies past its declared size; a floating
    tile in it is a warning, as KMahjongg loads it.
    """
    with user_errors():
        layout, problems = _read_with_problems(layout_name)
    for problem in problems:
        typer.echo(words_text(problem.words()))
    errors = sum(1 for problem in problems if problem.severity == ERROR)
    warnings = ngettext("{count} warning", "{count} warnings", len(problems) - errors)
    if errors:
        typer.echo(_("{layout}: {errors}, {warnings}", layout=layout_name, warnings=warnings,
                     errors=ngettext("{count} error", "{count} errors", errors)), err=True)
        raise typer.Exit(USAGE_ERROR)
    vaults = mask_of(layout.vaults)
    geometry = layout.geometry
    if find_clearing_order(geometry, geometry.all_mask, Rng(0), vaults) is not None:
        clearable = (_("a complete clearing exists that unlocks every vault") if vaults
                     else _("a complete clearing exists"))
    elif find_clearing_order(geometry, geometry.all_mask, Rng(0)) is not None:
        clearable = _("warning: a complete clearing exists, but none found that unlocks "
                      "every vault")
    else:
        clearable = _("warning: no complete clearing found, so deal=solvable will fail")
    typer.echo(_("ok: {layout}: {tiles}, {layers}, {warnings}; {clearable}", layout=layout.name,
                 tiles=tiles_text(layout.size), layers=layers_text(layout.layers),
                 warnings=warnings, clearable=clearable))


def _read_with_problems(name_or_path: str) -> tuple[Layout, list[Problem]]:
    path = Path(name_or_path)
    if not path.is_file():
        layout = load_layout(name_or_path)
        return layout, validate_layout(layout)
    text = read_layout_file_text(path)
    if reads_as_kmahjongg(path, text):
        layout = load_layout(str(path))
        warnings = [
            Problem(WARNING, p.message, p.position, p.line, p.column)
            for p in validate_layout(layout)
        ]
        return layout, warnings
    return read_layout_text(text, default_name=name_from_path(path), source=str(path))


@layout_app.command("convert")
def convert(
    source: str = typer.Argument(..., metavar="FILE", help=LAYOUT_HELP),
    output: str = typer.Option(
        "-", "--output", "-o", help="The .pyr file to write ('-' for standard output)."
    ),
    name: str | None = typer.Option(None, "--name", help="The layout's name in the new file."),
    force: bool = typer.Option(False, "--force", help="Replace the --output file if it exists."),
) -> None:
    """Write a layout (e.g. a KMahjongg .layout) in the project's .pyr format."""
    with user_errors():
        layout = load_layout(source)
        if name is not None:
            if not NAME_PATTERN.match(name):
                raise LayoutError(bad_name(name))
            layout = replace(layout, name=name)
        elif not NAME_PATTERN.match(layout.name):
            layout = replace(layout, name="layout")
        text = dump_layout(layout)
        if output == "-":
            sys.stdout.write(text)
            return
        target = Path(output)
        if target.is_dir():  # --force replaces a file, never a folder: no use offering it
            raise _unwritable(target, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
        if target.exists() and not force:
            raise LayoutError(N_("{path} exists; give --force to replace it"), path=output)
        _write_atomically(target, text)
    for problem in validate_layout(layout):
        typer.echo(_("note: {problem}", problem=words_text(problem.words())), err=True)
    typer.echo(_("wrote {path}: {tiles}, {layers}", path=output,
                 tiles=tiles_text(layout.size), layers=layers_text(layout.layers)))


def _write_atomically(target: Path, text: str) -> None:
    try:
        write_text_atomically(target, text)
    except OSError as error:
        raise _unwritable(target, error) from None


def _unwritable(target: Path, error: OSError) -> LayoutError:
    return LayoutError(N_("cannot write {path}: {problem}"), path=repr(str(target)),
                       problem=os_reason(error))
