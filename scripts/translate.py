"""Fill translations into a catalogue from a Python file holding a dict `KO` (or `--name`).

    python scripts/translate.py ko /tmp/new_translations.py

A translator's helper: it sets the translation of each listed message id that
the catalogue has (a tuple for plural forms) and reports ids it does not have.
Run `python scripts/update_catalogue.py` first so that new messages are there.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

sys.path.insert(0, str(Path(__file__).resolve().parent))
from update_catalogue import po_path  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("lang")
    parser.add_argument("source", type=Path)
    parser.add_argument("--name", default="KO", help="the dict's name in the source file")
    args = parser.parse_args()
    table = runpy.run_path(str(args.source))[args.name]
    path = po_path(args.lang)
    with path.open("rb") as stream:
        catalog = read_po(stream, locale=args.lang)
    unknown = []
    wrong_shape = []
    for message_id, text in table.items():
        message = catalog.get(message_id)
        if message is None:
            unknown.append(message_id)
            continue
        plural = isinstance(message.id, tuple)
        if plural != isinstance(text, (tuple, list)) or not plural and not isinstance(text, str):
            wrong_shape.append((message_id, "a tuple of forms" if plural else "one string"))
            continue
        message.string = tuple(text) if plural else text
    if wrong_shape:
        # Nothing is written: a half-filled catalogue is worse than none.
        for message_id, wanted in wrong_shape:
            print(f"{message_id!r} needs {wanted}; the catalogue is unchanged", file=sys.stderr)
        return 2
    # Write beside the catalogue and swap it in, so a failed write never truncates it.
    partial = path.with_suffix(".po.partial")
    with partial.open("wb") as stream:
        write_po(stream, catalog, width=100, sort_output=True, include_lineno=False)
    partial.replace(path)
    for message_id in unknown:
        print(f"not in the catalogue: {message_id!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
