"""`pyramids tutorial GAME`: the game's interactive tutorial.

In a terminal with the `tui` extra installed it opens the full-screen app
(`pyramids.tui.tutorial`): the game's board, the step in a panel, the taught
move made on the board. With `--plain`, without Textual, or when input or
output is not a terminal (a pipe, a test), it runs at line prompts: each step
says what to look at and waits for the move it teaches (any other move is
refused with a hint and changes nothing) or for Enter. Either way, after the
last step the learner plays the game on from that real position against a bot.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib.util import find_spec

import typer

from pyramids.cli.common import LANG_HELP, apply_language, fail, user_errors
from pyramids.cli.plain import (
    HELP_WORDS,
    QUIT_WORDS,
    as_typed,
    echo,
    fitted,
    play_plain,
    read_stdin_line,
    show_moves,
    typed_move,
    view_labels,
)
from pyramids.core import IllegalActionError, game_manifest
from pyramids.play.i18n import _, words_text
from pyramids.play.learn import learn_text
from pyramids.play.render import render_view
from pyramids.play.results import seat_name
from pyramids.play.session import new_session
from pyramids.play.tutorial import TutorialRun, tutorial_for


def tutorial(
    game: str = typer.Argument(..., help="The game: see `pyramids games`."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
    plain: bool = typer.Option(
        False, "--plain", help="Line prompts instead of the full-screen app."
    ),
) -> None:
    """Learn a game step by step on a fixed deal, then finish it against a bot."""
    apply_language(lang)
    with user_errors():
        found = tutorial_for(game)
        title = _(game_manifest(game).display_title)
    if found is None:
        fail(_("{game} has no tutorial yet; read its rules with: pyramids rules {name}",
               game=title, name=game))
    if not plain and full_screen_possible():
        from pyramids.tui.tutorial import run_tutorial_app

        run_tutorial_app(found)
        return
    run = TutorialRun(found)
    if not run_steps(run, read_stdin_line, echo):
        echo(_("Tutorial stopped."))
        return
    session = new_session(run.state.game, list(found.seats_for_finish()), found.seed)
    session.state = run.state
    if len(found.seats) > 1:
        echo(_("Now finish the game against {bot}.", bot=seat_name(found.finish_against)))
    else:
        echo(_("Now finish the game on your own."))
    play_plain(session, read_stdin_line, echo, lambda: learn_text(game))


def full_screen_possible() -> bool:
    """Textual is installed and a person is at a terminal (not a pipe or a test)."""
    return find_spec("textual") is not None and sys.stdin.isatty() and sys.stdout.isatty()


def run_steps(run: TutorialRun, read_line: Callable[[], str | None],
              write: Callable[[str], None]) -> bool:
    """Walk the steps; False when the learner stops early."""
    shown_as_is = write
    write = lambda text: shown_as_is(fitted(text))  # noqa: E731  (a step's words fit the terminal)
    learner = run.tutorial.learner
    write("== " + _(run.tutorial.title) + " ==")
    shown: tuple[int, int] | None = None  # the step and position last drawn
    while not run.finished:
        step = run.step
        assert step is not None
        position = (id(step), len(run.state.history()))
        if position != shown:  # an empty line or a mistyped move does not draw it again
            shown = position
            write("")
            write(render_view(run.state.game.name, run.state.view(learner)))
            write("")
            # `highlight` is for boards that can light things up; the step's words
            # already say where to look.
            write(run.text())
        if not run.waits_for_move():
            write(_("(press Enter to go on)") + "> ")
            line = read_line()
            if line is None or line.strip().lower() in QUIT_WORDS:
                return False
            run.go_on()
            continue
        write(_("your move") + "> ")
        line = read_line()
        if line is None or line.strip().lower() in QUIT_WORDS:
            return False
        text = line.strip()
        if not text:
            continue
        # The board names Mahjongg's tiles by letters: the moves are read and typed so,
        # as in the game the tutorial ends in, never by the engine's tile numbers.
        labels = view_labels(run.state.game.name, run.state.view(learner))
        if text.lower() == "moves":
            show_moves(run.state, labels, write)
            continue
        if text.lower() in HELP_WORDS:
            write(_("Type the move the step asks for (as listed by 'moves', or its number), "
                    "or quit."))
            continue
        try:
            move = run.state.action_to_string(typed_move(run.state, text, labels))
        except IllegalActionError as error:
            write(_("Not a legal move: {problem}", problem=words_text(as_typed(error, text))))
            continue
        feedback = run.attempt(move)
        write(feedback.message)
    return True


def register(app: typer.Typer) -> None:
    app.command("tutorial")(tutorial)
