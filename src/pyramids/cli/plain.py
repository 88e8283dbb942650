"""`pyramids play --plain`: a game at line prompts.

Each person's turn shows that seat's view (never another seat's), the legal moves
numbered, and reads a move: an action string or a move's number. A mistyped or
illegal move gets a message and a new prompt and changes nothing. `quit` or the
end of input stops (`quit` on a game with moves not saved is asked about first,
then taken when typed again); with `--save` the game is saved after every move and
on stopping, and `pyramids play --resume FILE` goes on from there.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from pyramids.cli.common import wrap_cells
from pyramids.core import (
    IllegalActionError,
    PyramidsError,
    State,
    companion_of,
    game_manifest,
)
from pyramids.core.api import ILLEGAL_MOVE
from pyramids.core.errors import N_
from pyramids.core.files import os_reason
from pyramids.play.i18n import _, words_text
from pyramids.play.movelog import describe_for, describer
from pyramids.play.moves import (
    clock_move,
    format_moves,
    gives_up,
    is_clock_move,
    labelled,
    listed_moves,
    number_ranges,
    parse_move,
    playable_moves,
    summarized_moves,
    unlabelled,
    unlisted_count_lines,
)
from pyramids.play.render import render_view, terminal_width
from pyramids.play.results import result_lines
from pyramids.play.session import Session, free_save_path, replay_command, resume_command

QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "?", "h"})


def help_text() -> str:
    return _("Type a move as listed (for example its text) or its number from the list.\n"
             "Commands: moves (list the legal moves), view (show the position),\n"
             "save (to its own file, named for you; save FILE: to FILE; the game is then\n"
             "saved after every move), rules (the rules page), help, quit.")

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
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Play until the end or until the person stops; True when the game ended.

    Every move, a bot's or a person's, is told in words as the move log tells it, to
    the one person at the table (a spectator's words at a hotseat table, so that
    nobody's hand shows). A timed game is timed here, since engines never read the
    clock: before each of the person's moves the whole seconds gone by are told to
    the game with a `clock` move, which the person can neither see nor choose.
    """
    shown = write
    write = lambda text: shown(fitted(text))  # noqa: E731  (every line fits the terminal)
    state = session.state
    humans = session.human_seats
    audience = humans[0] if len(humans) == 1 else None
    names = session.log_names()  # the log names bots by their level, as the browser's
    clock_zero = clock() - float(state.view(None).get("elapsed") or 0)
    shown_for: tuple[int, int] | None = None
    last_human: int | None = None
    confirmed: int | None = None  # a game-ending move typed once, to be typed again
    numbered: set[int] = set()  # the move numbers shown for this position: those a number plays
    quit_asked = False  # `quit` typed once on a game not saved: typed again, it stops
    played_at_start = len(state.history())  # a deal's own first moves (a draw) lose nothing

    def play(action: int) -> None:
        seat = state.current_player
        label = state.action_to_string(action)
        before = state.view(audience)
        state.apply_action(action)
        if not is_clock_move(label):
            numbered.clear()  # the numbers shown were the last position's
            for line in describe_for(describer(session.game.name), label, seat, audience,
                                     before, state.view(audience)):
                write(line.text(names=names))
        save_quietly(session, write)

    def time_is_up() -> bool:
        """Tell a timed game the seconds gone by; True when that ended it."""
        told = clock_move(state, clock() - clock_zero) if session.is_human_turn() else None
        if told is None:
            return False
        play(state.string_to_action(told))
        if state.is_terminal():
            write(_("Time is up."))
            return True
        return False

    while not state.is_terminal():
        seat = state.current_player
        if not session.is_human_turn():
            play(session.agent_action())
            continue
        position = (len(state.history()), seat)
        if shown_for != position and seat != last_human and len(humans) > 1:
            # Hotseat: scroll the last person's hand away before the next one looks.
            handover = _("Seat {number}: take the keyboard and press Enter", number=seat + 1)
            handover += "> "
            write("\n" * HOTSEAT_BLANK_LINES + handover)
            if read_line() is None:
                write("")
                _stop(session, write)
                return False
        last_human = seat
        if time_is_up():
            break
        position = (len(state.history()), seat)
        if shown_for != position:
            shown_for = position
            numbered.update(_show_turn(session, seat, write))
        write(_("seat {number}, your move", number=seat + 1) + "> ")
        line = read_line()
        if line is None:
            write("")
            _stop(session, write)
            return False
        if time_is_up():
            break
        shown_for = (len(state.history()), seat)  # the clock's move changed nothing shown
        text = line.strip()
        word = text.lower()
        command, _space, argument = text.partition(" ")
        if not text:
            continue
        if word in QUIT_WORDS:
            played = len(state.history()) > played_at_start
            if session.save_path is None and played and not quit_asked:
                # The moves played would be lost: asked once, as the app asks.
                quit_asked = True
                write(_("This game is not saved. Type save to keep it, or quit again to "
                        "stop without saving."))
                continue
            _stop(session, write)
            return False
        quit_asked = False
        if word in HELP_WORDS:
            write(help_text())
            continue
        if word == "moves":
            numbered.update(range(1, show_moves(state, move_labels(session, seat), write) + 1))
            continue
        if word == "view":
            shown_for = None
            continue
        if word == "rules":
            write(_rules(rules_page))
            continue
        if command.lower() == "save":
            _save_command(session, argument.strip(), write)
            continue
        if is_clock_move(word):
            write(_("The clock is kept by the app; play a move."))
            continue
        try:
            action = typed_move(state, text, move_labels(session, seat), numbered)
            if action in state.legal_actions() and action != confirmed \
                    and gives_up(state, action):
                # Passing in Mahjongg alone gives the game up: asked once more, not taken.
                confirmed = action
                write(_("That move ends the game at once, and not as a win, while other "
                        "moves play on. Type it again to end the game, or another move to "
                        "play on."))
                continue
            confirmed = None
            play(action)  # an illegal move raises before anything changes
        except IllegalActionError as error:
            write(_("Not a legal move: {problem}", problem=words_text(as_typed(error, text))))
    write(render_view(session.game.name, state.view(None)))
    for line_text in result_lines(state, session.seats):
        write(line_text)
    saved = save_quietly(session, write)
    if saved:
        write(_("The game is saved to {path}; watch it with: {command}", path=saved,
                command=unbroken(replay_command(saved))))
    return True


def typed_move(state: State, text: str, labels: dict[str, str],
                numbered: set[int] | None = None) -> int:
    """A typed move: a number shown with a move (`numbered`, None: the whole list; the
    list leaves out clock moves), or words (with a thing's letters where the game labels
    things: `match a b`). A number that was not shown plays nothing: the move it would
    name was never read."""
    shown = listed_moves(playable_moves(state), unlisted_kinds(labels))
    if numbered is None:
        numbered = set(range(1, len(shown) + 1))
    if text.isdigit() and int(text) in numbered:
        return state.string_to_action(shown[int(text) - 1])
    if text.isdigit() and not numbered and shown:
        raise IllegalActionError(
            N_("no move is shown with a number yet: type 'moves' to list every legal move "
               "with its number, or type a move as listed"))
    if text.isdigit() and len(numbered) < len(shown):
        raise IllegalActionError(
            N_("there is no move number {number} in the list shown; type a number shown "
               "with a move ({numbers}), or 'moves' to list every legal move with its "
               "number"), number=int(text), numbers=number_ranges(sorted(numbered)))
    if text.isdigit():
        raise IllegalActionError(
            N_("there is no move number {number}; the moves are numbered 1 to {last}"),
            number=int(text), last=len(shown))
    action_text = unlabelled(text, labels)
    try:
        return parse_move(state, action_text)
    except IllegalActionError as error:
        if not labels or error.words.msgid == ILLEGAL_MOVE:
            raise
        # The game's own answer names things by number: say it with the letters.
        kinds = sorted({move.split(" ")[0] for move in shown})
        raise IllegalActionError(
            N_("'{typed}' is not a move now: type a move as listed ({kinds}), naming tiles "
               "by the letters under their faces, for example: match a b"),
            typed=text, kinds=", ".join(kinds)) from None


def move_labels(session: Session, seat: int) -> dict[str, str]:
    """The letters the seat reads and types for things the game names by number."""
    return view_labels(session.game.name, session.state.view(seat))


def view_labels(game: str, view: dict[str, Any]) -> dict[str, str]:
    """The letters a person reads and types, in this view, for things the game names by
    number (none where the game names nothing so)."""
    label = companion_of(game, "move_labels")
    return {} if label is None else dict(label(view))


def show_moves(state: State, labels: dict[str, str], write: Callable[[str], None]) -> int:
    """The `moves` command: every legal move a person may pick by number, numbered, then
    how many of each kind are left to find on the board; how many are numbered."""
    unlisted = unlisted_kinds(labels)
    playable = playable_moves(state)
    listed = listed_moves(playable, unlisted)
    write(format_moves(labelled(listed, labels)))
    for line in unlisted_count_lines(playable, unlisted):
        write(line)
    return len(listed)


def as_typed(error: IllegalActionError, text: str) -> IllegalActionError:
    """The engine's refusal names the move as the person typed it (their letters, not
    the action string's numbers)."""
    words = error.words
    if words.msgid != ILLEGAL_MOVE:
        return error
    return IllegalActionError(ILLEGAL_MOVE, move=text, why=words.values.get("why", ""))


def _save_command(session: Session, path: str, write: Callable[[str], None]) -> None:
    """`save` (to the file the game is saved to) or `save FILE` (from now on, to FILE)."""
    if not path and session.save_path is not None:
        saved = save_quietly(session, write)
        if saved:
            write(_("Saved to {path}.", path=saved))
        return
    # No file yet: a name of its own, as the full-screen app's Ctrl+S picks one (the
    # player had to think one up), never another saved game's.
    target = Path(path).expanduser() if path else free_save_path(
        session.game.name, session.seed)
    try:
        saved = session.save_to(target, own=session.save_path)
    except PyramidsError as error:
        write(words_text(error))
        return
    write(_("Saved to {path}; the game is saved there after every move. Go on with it "
            "later with: {command}", path=saved, command=unbroken(resume_command(saved))))


def _show_turn(session: Session, seat: int, write: Callable[[str], None]) -> list[int]:
    """Show the seat its view and its moves; the move numbers shown."""
    state = session.state
    title = _(game_manifest(session.game.name).display_title)
    write("")
    moves = sum(1 for text in state.history_strings() if not is_clock_move(text))
    write("=== " + _("{game}, move {move}: seat {number} to play", game=title,
                     move=moves + 1, number=seat + 1) + " ===")
    view = state.view(seat)
    write(render_view(session.game.name, view))
    notes = companion_of(session.game.name, "text_notes")
    for note in notes(view, session.game.options) if notes is not None else []:
        write(note)
    write(_("Legal moves:"))
    labels = move_labels(session, seat)
    text, numbers = summarized_moves(labelled(playable_moves(state), labels),
                                     unlisted_kinds(labels))
    write(text)
    return numbers


def unlisted_kinds(labels: dict[str, str]) -> frozenset[str]:
    """A game that labels things on its board is played by reading the board: its pairs
    are never listed nor numbered (that would give every answer away, for free, where a
    hint costs the streak)."""
    return frozenset({"match"}) if labels else frozenset()


# Wrapping breaks lines at spaces only; a command's words are joined by this until
# the line is fitted, so that it is never broken across lines.
NO_BREAK = "\u00a0"


def unbroken(command: str) -> str:
    """A command the player is told to type, kept on one line by `fitted`: copied
    across a wrap, it would run as two commands."""
    return command.replace(" ", NO_BREAK)


def fitted(text: str) -> str:
    """Lines of words wrapped to the terminal's width; drawings (a board's lines, with
    their blocks and boxes) as they are, since a wrapped drawing no longer reads."""
    from rich.cells import cell_len

    width = terminal_width()
    lines = []
    for line in text.split("\n"):
        drawing = any(mark in line for mark in ("▐", "░", "▒", "[ "))
        lines.append(line if drawing or cell_len(line) <= width else wrap_cells(line, width))
    return "\n".join(lines).replace(NO_BREAK, " ")


def save_quietly(session: Session, write: Callable[[str], None]) -> Path | None:
    """Save after a move; a file that can no longer be written (a full disk, a removed
    folder) is said, and the game goes on."""
    try:
        return session.save()
    except OSError as error:
        write(_("Could not save to {path}: {reason}", path=session.save_path,
                reason=words_text(os_reason(error))))
        return None


def _stop(session: Session, write: Callable[[str], None]) -> None:
    saved = save_quietly(session, write)
    if saved:
        write(_("Stopped. The game is saved to {path}; go on with: {command}",
                path=saved, command=unbroken(resume_command(saved))))
    elif session.save_path is None:
        write(_("Stopped. The game was not saved (start with --save FILE to keep it)."))


def _rules(rules_page: Callable[[], str] | None) -> str:
    if rules_page is None:
        return _("This game has no rules page.")
    try:
        return fitted_page(rules_page(), terminal_width())
    except PyramidsError as error:
        return words_text(error)


# A list item's first line: its indent and marker (`- `, `1. `); the lines after it
# are set under its words.
LIST_ITEM = re.compile(r"\s*(?:[-*]|\d+\.) +")
CODE_SPAN = re.compile(r"`[^`]*`")


def fitted_page(page: str, width: int) -> str:
    """A Markdown page with each paragraph and list item wrapped as one to `width`
    (`fitted` wraps a line on its own: a paragraph's source lines would each break,
    the rest set under them as if a list went on). Headings, tables and code blocks
    stay as written."""
    lines: list[str] = []
    block: list[str] = []  # the source lines of the paragraph or item being read
    in_code = False

    def flush() -> None:
        if block:
            first = block[0]
            marker = LIST_ITEM.match(first)
            indent = marker.end() if marker else len(first) - len(first.lstrip(" "))
            joined = " ".join([first.rstrip(), *(line.strip() for line in block[1:])])
            # A command in backticks stays on one line, to be copied whole.
            joined = CODE_SPAN.sub(lambda span: unbroken(span.group()), joined)
            lines.append(wrap_cells(joined, width, indent=indent))
            block.clear()

    for line in page.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            in_code = not in_code
        if in_code or stripped.startswith(("```", "#", "|")) or not stripped:
            flush()
            lines.append(line)
        elif LIST_ITEM.match(line):
            flush()
            block.append(line)
        else:
            block.append(line)
    flush()
    return "\n".join(lines)
