"""Extract every marked message and update the English and Korean catalogues.

    python scripts/update_catalogue.py          # write the .po files
    python scripts/update_catalogue.py --check  # exit 1 if a message is new or untranslated

Python code marks messages with `_("...")`, `gettext(...)` and
`ngettext(singular, plural, n)`, and the engines (which cannot translate) with
`N_("...")` and `PluralWords(singular, plural, n)` in the errors they raise;
the browser pages with `t("...")` and `tn(singular, plural, n)`. The English
catalogue repeats each English message id; the Korean one keeps its
translations, and a new message is added with an empty translation for a person
to write (the check fails until one does).
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "pyramids"
LOCALE = SOURCE / "play" / "locale"
LANGUAGES = ("en", "ko")
# Each kind of file with the functions that mark messages in it.
EXTRACTORS = [
    # `say`/`say_n` (pyramids.play.movelog) keep a message to put into words later.
    # N_ and PluralWords (pyramids.core.errors): an engine's words, translated by interfaces.
    ([("**.py", "python")], {"_": None, "gettext": None, "ngettext": (1, 2),
                             "say": None, "say_n": (1, 2), "N_": None, "PluralWords": (1, 2)}),
    ([("**/static/**.js", "javascript")], {"t": None, "tn": (1, 2)}),
]


# Game packages cannot import the catalogue (they sit below it); their words for
# players are found where they are declared: an Option's doc, a manifest's title
# and summary. Interfaces translate them where they show them.
MANIFEST_WORDS = ("title", "summary")


def _declared_words(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        values: list[ast.expr] = []
        if node.func.id == "Option":
            if len(node.args) > 3:
                values.append(node.args[3])
            values += [k.value for k in node.keywords if k.arg == "doc"]
        elif node.func.id == "GameManifest":
            values += [k.value for k in node.keywords if k.arg in MANIFEST_WORDS]
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.append((value.value, value.lineno))
    return found


# Board layouts are data too: a `.pyr` file's `title:` and `description:` lines,
# and the titles a blueprints package gives its KMahjongg imports (`TITLES`).
LAYOUT_HEADER = re.compile(r"^(title|description):\s*(.+?)\s*$")


def _layout_words(path: Path) -> list[tuple[str, int]]:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("layer "):
            break
        match = LAYOUT_HEADER.match(line)
        if match:
            found.append((match.group(2), number))
    return found


def _layout_titles(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                and any(isinstance(t, ast.Name) and t.id == "TITLES" for t in node.targets)):
            continue
        for value in node.value.values:
            for part in value.elts if isinstance(value, ast.Tuple) else [value]:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.append((part.value, part.lineno))
    return found


# The HTML pages mark their words with data-i18n="..." (and -title, -placeholder).
HTML_MESSAGE = re.compile(r'data-i18n(|-title|-placeholder|-aria-label)="([^"]+)"')
# Tutorials are data: these fields of theirs are messages.
TUTORIAL_FIELDS = ("say", "hint")


def _command_help() -> list[str]:
    """The command line's help: each command's docstring and each option's `help`,
    read from the app as Typer builds it (`pyramids.cli.usage.readable_help` shows
    them translated)."""
    import typer

    from pyramids.cli.main import app
    from pyramids.cli.usage import DEFAULT_MARK, HELP_FRAME, HELP_OPTION, USAGE_PREFIX, help_texts

    return [*help_texts(typer.main.get_command(app)), HELP_OPTION, *HELP_FRAME.values(),
            DEFAULT_MARK, USAGE_PREFIX]


def extract() -> Catalog:
    catalog = Catalog(project="pyramids", domain="pyramids")
    for methods, keywords in EXTRACTORS:
        for filename, lineno, message, comments, context in extract_from_dir(
            SOURCE, methods, keywords=keywords, comment_tags=("Translators:",)
        ):
            catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                        context=context)
    for message in _command_help():
        catalog.add(message, None, [("cli/main.py", 0)])
    for path in sorted(SOURCE.glob("games/**/*.py")):
        for message, line in _declared_words(path):
            catalog.add(message, None, [(str(path.relative_to(SOURCE)), line)])
    for path in sorted(SOURCE.glob("games/*/blueprints/*.pyr")):
        for message, line in _layout_words(path):
            catalog.add(message, None, [(str(path.relative_to(SOURCE)), line)])
    for path in sorted(SOURCE.glob("games/*/blueprints/__init__.py")):
        for message, line in _layout_titles(path):
            catalog.add(message, None, [(str(path.relative_to(SOURCE)), line)])
    for path in sorted(SOURCE.glob("web/static/*.html")):
        text = path.read_text(encoding="utf-8")
        for match in HTML_MESSAGE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            catalog.add(html.unescape(match.group(2)), None,
                        [(str(path.relative_to(SOURCE)), line)])
    for path in sorted(SOURCE.glob("games/*/learn/*.tutorial.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        where = [(str(path.relative_to(SOURCE)), 0)]
        catalog.add(data["title"], None, where)
        for step in data["steps"]:
            for key in TUTORIAL_FIELDS:
                if step.get(key):
                    catalog.add(step[key], None, where)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "pyramids.po"


def merged(template: Catalog, lang: str) -> Catalog:
    path = po_path(lang)
    old = None
    if path.exists():
        with path.open("rb") as stream:
            old = read_po(stream, locale=lang)
    catalog = Catalog(locale=lang, project="pyramids", domain="pyramids")
    for message in template:
        if not message.id:
            continue
        kept = old.get(message.id) if old is not None else None
        if lang == "en":
            string = message.id
        elif kept is not None and kept.string:
            string = kept.string
        else:
            string = ("", "") if isinstance(message.id, tuple) else ""
        catalog.add(message.id, string, message.locations, auto_comments=message.auto_comments)
    return catalog


def missing(catalog: Catalog) -> list[str]:
    gaps = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            gaps.append(message.id[0] if isinstance(message.id, tuple) else message.id)
    return gaps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--check", action="store_true", help="change nothing; report gaps")
    args = parser.parse_args()
    template = extract()
    problems = 0
    for lang in LANGUAGES:
        catalog = merged(template, lang)
        gaps = missing(catalog)
        if args.check:
            for gap in gaps:
                print(f"{lang}: no translation for {gap!r}")
            problems += len(gaps)
            continue
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as stream:
            write_po(stream, catalog, width=100, omit_header=False, sort_output=True,
                     include_lineno=False)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {len(gaps)} untranslated")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
