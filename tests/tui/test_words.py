"""Every word the terminal app shows comes from the message catalogue.

The check reads the source of `pyramids.tui` (no app is started): a string
literal with words in it, handed to something that puts text on screen (a
widget, a message line, the log, a status, a title), must be inside `_()` or
`ngettext()`; and no module keeps words in a plain module constant (`TEXT_*`,
`KEYS_HELP`), since those are made at import, before `--lang` is known.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

import pyramids.tui  # noqa: E402
from pyramids.play.i18n import _  # noqa: E402
from pyramids.tui.app import help_sections  # noqa: E402

TUI = Path(pyramids.tui.__file__).parent
# Calls whose string arguments players read (keyword arguments too, but for these).
SHOWN = {
    "Static", "Label", "Button", "Markdown", "TabPane", "Option", "Input", "ChoiceScreen",
    "notify", "set_message", "log_line", "write", "update", "update_static", "_set_status",
    "_update", "Text",
}
NOT_SHOWN = {"id", "classes", "name", "variant", "selector", "markup", "overflow", "justify",
             "style"}
MARKED = {"_", "gettext", "ngettext"}
WORD = re.compile(r"[A-Za-z]{2,}")
CONSTANT = re.compile(r"^(TEXT_\w+|KEYS_HELP|\w+_KEYS|LEGEND)$")


def call_name(node: ast.Call) -> str:
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def literal_words(node: ast.AST) -> str:
    """The words of a literal string or of an f-string's literal parts ('' if none).

    A CSS selector (`#summary`, `.taught`) is not words.
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value.startswith(("#", ".")):
            return ""
        return " ".join(WORD.findall(node.value))
    if isinstance(node, ast.JoinedStr):
        return " ".join(literal_words(part) for part in node.values).strip()
    if isinstance(node, ast.BinOp):  # "..." + "..."
        return (literal_words(node.left) + " " + literal_words(node.right)).strip()
    if isinstance(node, ast.IfExp):
        return (literal_words(node.body) + " " + literal_words(node.orelse)).strip()
    return ""


def unmarked_words(source: str, filename: str = "<source>") -> list[str]:
    """`file:line: words` for each literal shown to players outside the catalogue."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node) in SHOWN:
            arguments = list(node.args) + [
                keyword.value for keyword in node.keywords if keyword.arg not in NOT_SHOWN
            ]
            for argument in arguments:
                words = " ".join(literal_words(argument).split())
                if words:
                    found.append((argument.lineno, words))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (isinstance(target, ast.Name) and CONSTANT.match(target.id)
                        and node.value is not None and literal_words(node.value)):
                    found.append((node.lineno, f"constant {target.id}"))
    return [f"{filename}:{line}: {words}" for line, words in sorted(found)]


def test_every_word_on_screen_goes_through_the_catalogue() -> None:
    problems = []
    for path in sorted(TUI.glob("*.py")):
        problems += unmarked_words(path.read_text(encoding="utf-8"), path.name)
    assert problems == [], "wrap these in _() (pyramids.play.i18n):\n" + "\n".join(problems)


def test_the_check_finds_unmarked_words() -> None:
    source = '''
TEXT_GREETING = "Hello there"
def compose(self, count):
    yield Static("Your hand", id="hand")
    yield Button(f"Set {count} cards", name="set")
    self.set_message("It is " + "not your turn.")
    yield Static(_("Your hand"), id="ok")
    yield Static(f"{count} ×{count}", classes="no-words")
    self.log_line(ngettext("{count} token", "{count} tokens", count))
'''
    found = unmarked_words(source)
    assert [line.split(": ", 1)[1] for line in found] == [
        "constant TEXT_GREETING", "Your hand", "Set cards", "It is not your turn",
    ]


def test_help_sections_follow_the_learn_page_headings() -> None:
    page = "# Pacal\n\nintro\n\n## About\n\nabout text\n\n## Rules\n\n### Sub\n\nrule"
    assert help_sections(page) == [
        ("Pacal", "intro"), ("About", "about text"), ("Rules", "### Sub\n\nrule"),
    ]
    assert help_sections("# Only a title\n\nsome text") == [("Only a title", "some text")]
    assert help_sections("") == []
    assert _("Keys", lang="ko") == "키"


def test_a_running_capstone_doubling_reads_in_words_for_one_pair_and_for_several() -> None:
    """The seat's line counts the doubled pairs left: "the next pair doubled" for the
    last one (it read "the next 1 pair doubled"), "the next 3 pairs doubled" before."""
    from pyramids.core import load
    from pyramids.play.i18n import set_language
    from pyramids.tui.mahjongg import MahjonggBoard

    game = load("mahjongg", players=2)
    board = MahjonggBoard("mahjongg", dict(game.options))
    board.view = dict(game.new_initial_state(seed=1).view(0), doubling=[1, 3])
    lines = board._summary().splitlines()
    assert lines[1].endswith("streak 0 · the next pair doubled")
    assert lines[2].endswith("streak 0 · the next 3 pairs doubled")
    set_language("ko")
    try:
        lines = board._summary().splitlines()
    finally:
        set_language("en")
    assert lines[1].endswith("다음 짝 1개 두 배") and lines[2].endswith("다음 짝 3개 두 배")
