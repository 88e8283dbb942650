"""Moves as people type them: parsing a typed move, listing the legal ones.

Shared by the line-prompt player and the terminal app.
"""

from __future__ import annotations

from pyramids.core import IllegalActionError, State
from pyramids.core.errors import N_
from pyramids.play.i18n import _, ngettext


def format_moves(
    strings: list[str], width: int = 100, numbers: list[int] | None = None
) -> str:
    """The legal moves with their numbers (from 1 unless given), packed into lines."""
    numbers = numbers or list(range(1, len(strings) + 1))
    items = [f"{number}) {text}" for number, text in zip(numbers, strings, strict=True)]
    column = max((len(item) for item in items), default=0) + 3
    per_line = max(1, width // column)
    lines = []
    for start in range(0, len(items), per_line):
        lines.append("".join(item.ljust(column) for item in items[start : start + per_line]))
    return "\n".join(line.rstrip() for line in lines)


LONG_LIST = 40


def summarize_moves(strings: list[str]) -> str:
    """The legal moves; in a long list, a kind of move with many entries is summarized."""
    if len(strings) <= LONG_LIST:
        return format_moves(strings)
    by_kind: dict[str, list[str]] = {}
    for text in strings:
        by_kind.setdefault(text.split(" ")[0], []).append(text)
    small_kinds = {kind for kind, texts in by_kind.items() if len(texts) <= LONG_LIST // 2}
    # Numbers stay those of the full list, which is what a typed number means.
    shown = [
        (number, text)
        for number, text in enumerate(strings, start=1)
        if text.split(" ")[0] in small_kinds
    ]
    summaries = [
        ngettext("{count} '{kind}' move, for example {examples}",
                 "{count} '{kind}' moves, for example {examples}", len(texts),
                 kind=kind, examples=", ".join(repr(t) for t in texts[:3]))
        for kind, texts in by_kind.items()
        if kind not in small_kinds
    ]
    lines = []
    if shown:
        lines.append(
            format_moves([text for _number, text in shown],
                         numbers=[number for number, _text in shown])
        )
    lines.extend(summaries)
    lines.append(_("(type 'moves' to list every legal move with its number)"))
    return "\n".join(lines)


def parse_move(state: State, text: str) -> int:
    """The action `text` names: an action string, else the number of a listed move.

    Raises `IllegalActionError` saying what is allowed. An action string wins over
    a number, so a game whose action strings are numbers still reads them.
    """
    legal = state.legal_actions()
    try:
        return state.string_to_action(text)
    except IllegalActionError as parse_error:
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            raise IllegalActionError(
                N_("there is no move number {number}; the moves are numbered 1 to {last}"),
                number=number, last=len(legal)
            ) from None
        # Words, not text: the interface shows them in its player's language.
        raise IllegalActionError(
            N_("{problem} (type 'moves' to list the legal moves, 'help' for commands)"),
            problem=parse_error
        ) from None
