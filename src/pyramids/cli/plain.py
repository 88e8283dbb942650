"""`pyramids play --plain`: a game at line prompts.

Each person's turn shows that seat's view (never another seat's), the legal moves
numbered, and reads a move: an action string or a move's number. A mistyped or
illegal move gets a message and a new prompt and changes nothing. `quit` or the
end of input stops; with `--save` the game is saved after every move and on
stopping, and `pyramids play --resume FILE` goes on from there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import typer

from pyramids.core import IllegalActionError, PyramidsError, game_manifest
from pyramids.play.i18n import _, words_text
from pyramids.play.moves import format_moves, parse_move, summarize_moves
from pyramids.play.render import render_view
from pyramids.play.results import result_lines, seat_label
from pyramids.play.session import Session

QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "?", "h"})


def help_text() -> str:
    return _("Type a move as listed (for example its text) or its number from the list.\n"
             "Commands: moves (list the legal moves), view (show the position), save,\n"
             "rules (the rules page), help, quit.")

HOTSEAT_BLANK_LINES = 60


def read_stdin_line() -> str | None:
    """A line a person typed; None at the end of input."""
    line = sys.stdin.readline()
    return line if line else None


def echo(text: str) -> None:
    # A prompt ends with "> " and keeps the cursor on its line.
    typer.echo(text, nl=not text.endswith("> "))


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
            write(_("{seat} plays: {move}", seat=seat_label(seat, session.seats),
                    move=state.action_to_string(action)))
            state.apply_action(action)
            session.save()
            continue
        position = (len(state.history()), seat)
        if shown_for != position and seat != last_human and len(session.human_seats) > 1:
            # Hotseat: scroll the last person's hand away before the next one looks.
            handover = _("Seat {number}: take the keyboard and press Enter", number=seat + 1)
            handover += "> "
            write("\n" * HOTSEAT_BLANK_LINES + handover)
            if read_line() is None:
                write("")
                _stop(session, write)
                return False
        last_human = seat
        if shown_for != position:
            shown_for = position
            _show_turn(session, seat, write)
        write(_("seat {number}, your move", number=seat + 1) + "> ")
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
            write(help_text())
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
            write(_("Saved to {path}.", path=saved) if saved
                  else _("No file to save to: start with --save FILE."))
            continue
        try:
            state.apply_action(parse_move(state, text))
        except IllegalActionError as error:
            write(_("Not a legal move: {problem}", problem=words_text(error)))
            continue
        session.save()
    write(render_view(session.game.name, state.view(None)))
    for line_text in result_lines(state, session.seats):
        write(line_text)
    saved = session.save()
    if saved:
        write(_("The game is saved to {path}; watch it with: pyramids replay {path}", path=saved))
    return True


def _show_turn(session: Session, seat: int, write: Callable[[str], None]) -> None:
    state = session.state
    title = _(game_manifest(session.game.name).display_title)
    write("")
    write("=== " + _("{game}, move {move}: seat {number} to play", game=title,
                     move=len(state.history()) + 1, number=seat + 1) + " ===")
    write(render_view(session.game.name, state.view(seat)))
    write(_("Legal moves:"))
    write(summarize_moves(state.legal_action_strings()))


def _stop(session: Session, write: Callable[[str], None]) -> None:
    saved = session.save()
    if saved:
        write(_("Stopped. The game is saved to {path}; go on with: pyramids play --resume {path}",
                path=saved))
    else:
        write(_("Stopped. The game was not saved (start with --save FILE to keep it)."))


def _rules(rules_page: Callable[[], str] | None) -> str:
    if rules_page is None:
        return _("This game has no rules page.")
    try:
        return rules_page()
    except PyramidsError as error:
        return words_text(error)
