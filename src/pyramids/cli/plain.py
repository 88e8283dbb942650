"""`pyramids play --plain`: a game at line prompts.

Each person's turn shows that seat's view (never another seat's), the legal moves
numbered, and reads a move: an action string or a move's number. A mistyped or
illegal move gets a message and a new prompt and changes nothing. `quit` or the
end of input stops; with `--save` the game is saved after every move and on
stopping, and `pyramids play --resume FILE` goes on from there.
"""

from __future__ import annotations

from collections.abc import Callable

from pyramids.cli.render import render_view
from pyramids.core import IllegalActionError, PyramidsError, State
from pyramids.sim.session import Session

QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "?", "h"})

HELP = """Type a move as listed (for example its text) or its number from the list.
Commands: moves (list the legal moves), view (show the position), save,
rules (the rules page), help, quit."""


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
HOTSEAT_BLANK_LINES = 60


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
        f"{len(texts)} '{kind}' moves, for example {', '.join(repr(t) for t in texts[:3])}"
        for kind, texts in by_kind.items()
        if kind not in small_kinds
    ]
    lines = []
    if shown:
        lines.append(
            format_moves([text for _, text in shown], numbers=[number for number, _ in shown])
        )
    lines.extend(summaries)
    lines.append("(type 'moves' to list every legal move with its number)")
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
                f"there is no move number {number}; the moves are numbered 1 to {len(legal)}"
            ) from None
        raise IllegalActionError(
            f"{parse_error} (type 'moves' to list the legal moves, 'help' for commands)"
        ) from None


def result_lines(state: State, seats: list[str]) -> list[str]:
    returns = state.returns()
    lines = ["Game over."]
    for seat, value in enumerate(returns):
        lines.append(f"  seat {seat} ({seats[seat]}): {value:+g}")
    if len(returns) == 1:
        lines.append("  You won!" if returns[0] > 0 else "  Not this time.")
    else:
        best = max(returns)
        top = [seat for seat, value in enumerate(returns) if value == best]
        if len(top) == 1:
            lines.append(f"  Winner: seat {top[0]} ({seats[top[0]]})")
        else:
            lines.append("  A draw.")
    return lines


def play_plain(
    session: Session,
    read_line: Callable[[], str | None],
    write: Callable[[str], None],
    rules_page: Callable[[], str] | None = None,
) -> bool:
    """Play until the end or until the person stops; True when the game ended."""
    state = session.state
    shown_for: tuple[int, int] | None = None
    last_human: int | None = None
    while not state.is_terminal():
        seat = state.current_player
        if not session.is_human_turn():
            action = session.agent_action()
            write(f"seat {seat} ({session.seats[seat]}) plays: {state.action_to_string(action)}")
            state.apply_action(action)
            session.save()
            continue
        position = (len(state.history()), seat)
        if shown_for != position and seat != last_human and len(session.human_seats) > 1:
            # Hotseat: scroll the last person's hand away before the next one looks.
            write("\n" * HOTSEAT_BLANK_LINES + f"Seat {seat}: take the keyboard and press Enter> ")
            if read_line() is None:
                write("")
                _stop(session, write)
                return False
        last_human = seat
        if shown_for != position:
            shown_for = position
            _show_turn(session, seat, write)
        write(f"seat {seat}, your move> ")
        line = read_line()
        if line is None:
            write("")
            _stop(session, write)
            return False
        text = line.strip()
        word = text.lower()
        if not text:
            continue
        if word in QUIT_WORDS:
            _stop(session, write)
            return False
        if word in HELP_WORDS:
            write(HELP)
            continue
        if word == "moves":
            write(format_moves(state.legal_action_strings()))
            continue
        if word == "view":
            shown_for = None
            continue
        if word == "rules":
            write(_rules(rules_page))
            continue
        if word == "save":
            saved = session.save()
            write(f"Saved to {saved}." if saved else "No file to save to: start with --save FILE.")
            continue
        try:
            state.apply_action(parse_move(state, text))
        except IllegalActionError as error:
            write(f"Not a legal move: {error}")
            continue
        session.save()
    write(render_view(session.game.name, state.view(None)))
    for line_text in result_lines(state, session.seats):
        write(line_text)
    saved = session.save()
    if saved:
        write(f"The game is saved to {saved}; watch it with: pyramids replay {saved}")
    return True


def _show_turn(session: Session, seat: int, write: Callable[[str], None]) -> None:
    state = session.state
    write("")
    write(f"=== {session.game.name}, move {len(state.history()) + 1}: seat {seat} to play ===")
    write(render_view(session.game.name, state.view(seat)))
    write("Legal moves:")
    write(summarize_moves(state.legal_action_strings()))


def _stop(session: Session, write: Callable[[str], None]) -> None:
    saved = session.save()
    if saved:
        write(f"Stopped. The game is saved to {saved}; go on with: pyramids play --resume {saved}")
    else:
        write("Stopped. The game was not saved (start with --save FILE to keep it).")



def _rules(rules_page: Callable[[], str] | None) -> str:
    if rules_page is None:
        return "This game has no rules page."
    try:
        return rules_page()
    except PyramidsError as error:
        return str(error)
