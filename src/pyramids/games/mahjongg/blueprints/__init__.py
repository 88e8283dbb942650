"""The shipped blueprints and loading a layout by name or path.

Blueprints are data files in this folder: the project's own `.pyr` format
(`layout_format`) for the rules page's blueprints, and KMahjongg's Turtle as
`turtle.layout` (GPL-2.0-or-later, see `turtle.NOTICE.txt`), read by the
KMahjongg importer. A file's name, without its extension, is the layout's name.

| name | layers | tiles | markers |
|---|---|---|---|
| giza-step-ramp | 3 | 72 | 1 capstone, 2 vaults |
| sphinx-guard | 4 | 108 | 2 capstones (dual peaks), 1 vault in the corridor |
| pharaohs-tomb | 5 | 144 | 2 capstones, 2 vaults in the central chamber |
| great-zenith | 6 | 144 | 1 capstone, 4 vaults, 17 face-down |
| twin-pyramids-of-dahshur | 4 | 144 | 2 capstones, 4 vaults (co-op) |
| turtle | 5 | 144 | KMahjongg import: top tile the capstone |
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path

from pyramids.core.errors import N_, LayoutError
from pyramids.games.mahjongg.kmahjongg import (
    is_kmahjongg_text,
    parse_kmahjongg,
    read_kmahjongg_file,
)
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.layout_format import (
    MAGIC,
    layout_file_text,
    name_from_path,
    parse_layout,
    read_layout_file_text,
)

EXTENSIONS = (".pyr", ".layout")
# KMahjongg files carry no title; these replace the `.desktop` entry it has upstream.
TITLES = {
    "turtle": (
        "Turtle",
        "KMahjongg's classic layout (GPL-2.0-or-later, see turtle.NOTICE.txt)",
    )
}


def _files() -> dict[str, str]:
    folder = resources.files(__name__)
    found = {}
    for entry in folder.iterdir():
        name = entry.name
        for extension in EXTENSIONS:
            if name.endswith(extension):
                found[name[: -len(extension)]] = name
    return found


def layout_names() -> list[str]:
    """The names of the shipped layouts, sorted."""
    return sorted(_files())


def load_layout(name_or_path: str | Path, content: bytes | None = None) -> Layout:
    """A shipped layout by name, or a `.pyr` / KMahjongg `.layout` file by path.

    `content`: the file's bytes as read before (a run reads its layout file once, at
    its start), used instead of the file as it is now; a shipped name ignores it.
    An unknown name raises `LayoutError` listing the shipped names.
    """
    text_name = str(name_or_path)
    files = _files()
    if isinstance(name_or_path, str) and text_name in files:
        return _shipped(text_name)
    path = Path(name_or_path)
    if content is not None:
        return layout_from_file_text(path, layout_file_text(path, content))
    if path.is_file():
        return read_any_layout_file(path)
    if path.is_dir():  # a folder of layouts, say, where one of its files was meant
        raise LayoutError(N_("'{path}' is a folder, not a layout file: give the path of a "
                             ".pyr or KMahjongg .layout file in it, or a shipped layout's "
                             "name"), path=text_name)
    looks_like_path = path.suffix in EXTENSIONS or "/" in text_name or "\\" in text_name
    if looks_like_path:
        raise LayoutError(N_("no layout file at '{path}'"), path=text_name)
    close = difflib.get_close_matches(text_name.lower(), sorted(files), n=3, cutoff=0.5)
    if close:
        raise LayoutError(
            N_("unknown layout '{name}'; did you mean {names}? {count} layouts are shipped "
               "(`pyramids layout list` lists them), or give the path of a .pyr or KMahjongg "
               ".layout file"), name=text_name, names=", ".join(close), count=len(files))
    raise LayoutError(
        N_("unknown layout '{name}': {count} layouts are shipped (`pyramids layout list` "
           "lists them), for example {names}; or give the path of a .pyr or KMahjongg .layout "
           "file"), name=text_name, count=len(files), names=", ".join(sorted(files)[:3]))


@cache
def _shipped(name: str) -> Layout:
    filename = _files()[name]
    text = resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")
    layout = parse_text(text, name, source=f"blueprint {name}")
    if name in TITLES:
        title, description = TITLES[name]
        layout = replace(layout, title=title, description=description)
    return layout


def parse_text(text: str, name: str, source: str = "") -> Layout:
    """A layout from the text of either format, told apart by its first line."""
    if is_kmahjongg_text(text):
        return parse_kmahjongg(text, name=name, source=source)
    return parse_layout(text, default_name=name, source=source)


def read_any_layout_file(path: str | Path) -> Layout:
    """Read a `.pyr` or KMahjongg `.layout` file (told apart by content, not extension).

    A file that is neither is refused by the reader its name suggests: a `.layout`
    file by KMahjongg's (its error names the KMahjongg headers it expected), any
    other by the `.pyr` reader."""
    return layout_from_file_text(path, read_layout_file_text(path))


def layout_from_file_text(path: str | Path, text: str) -> Layout:
    """The layout of a file's text (read from `path`), in the format its text shows."""
    path = Path(path)
    if reads_as_kmahjongg(path, text):
        return read_kmahjongg_file(path, text)
    return parse_layout(text, default_name=name_from_path(path), source=str(path))


def reads_as_kmahjongg(path: str | Path, text: str) -> bool:
    """Whether the KMahjongg reader reads (or refuses) this file: it starts like a
    KMahjongg layout, or its name ends in `.layout` and it does not start like a `.pyr`
    file (garbage in `mine.layout` is told what a KMahjongg file starts with)."""
    return is_kmahjongg_text(text) or (
        Path(path).suffix.lower() == ".layout" and not text.lstrip("\ufeff").startswith(MAGIC))
