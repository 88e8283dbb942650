"""`pyramids tutorial GAME` in the full-screen app: the steps, then a real game.

The board is the game's own (`terminal_board`), drawn from the learner's view
only, and is played as in any game: clicks, or Tab/arrows and Enter. A panel
under it says the step. What the step points at (`highlight`: a Pacal field or
card, a Temple kind or swap-zone slot, a Mahjongg tile) is lit on the board.

A step that teaches a move accepts that move and nothing else: any other move
chosen on the board (or typed) is refused with the step's hint and changes
nothing. A step without a move waits for "Next". The other seats' moves of a
step (`before`) are played by the tutorial, never by a bot. After the last step
the panel goes and the learner plays on from that real position in the normal
app, against the tutorial's `finish_against` agent.

Tutorial games are not written to the best scores: the deal and the first
moves were chosen for the learner. Nor is the tutorial's deal restarted from the
menu (F2 "Restart this deal"): the learner has seen its cards.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, OptionList, Static

from pyramids.core import IllegalActionError, State
from pyramids.play.i18n import _, words_text
from pyramids.play.movelog import describe_for, describer
from pyramids.play.moves import is_clock_move, parse_move, reason_only
from pyramids.play.results import seat_name
from pyramids.play.session import Session, new_session
from pyramids.play.tutorial import Tutorial, TutorialRun
from pyramids.tui.app import AGENT_DELAY, PlayApp, unless_taken_down
from pyramids.tui.board import translate_bindings, update_static

TUTORIAL_CSS = """
#tutorial { height: auto; max-height: 45%; border-top: solid $accent;
            padding: 0 1; background: $boost; }
#tutorial.done { display: none; }
#step-head { height: 1; }
#step-number { width: 1fr; text-style: bold; color: $accent; }
#next { min-width: 12; }
#step-text { height: auto; }
"""


def finish_session(run: TutorialRun) -> Session:
    """The session the learner plays on in: the run's own state, the other seats bots."""
    tutorial = run.tutorial
    session = new_session(run.state.game, list(tutorial.seats_for_finish()), tutorial.seed)
    session.state = run.state
    return session


class TutorialApp(PlayApp):
    """A tutorial's steps on the game's board, then the game played on against a bot."""

    CSS = PlayApp.CSS + TUTORIAL_CSS
    BINDINGS = [Binding("ctrl+n", "next_step", "Next step", priority=True)]

    def __init__(self, tutorial: Tutorial, agent_delay: float = AGENT_DELAY) -> None:
        self.lesson = TutorialRun(tutorial)
        super().__init__(finish_session(self.lesson), agent_delay=agent_delay)
        translate_bindings(self, {"next_step": _("Next step")})
        self.drawn: tuple[object, ...] = ()
        #: The step whose lit things last took the keyboard (a step takes it once).
        self.pointed_step = -1
        # A new game from the menu (a new deal, the same deal, a level, options) ends
        # the lesson: the steps were of the tutorial's game, not of the one now played.
        self.left_lesson = False

    @property
    def in_steps(self) -> bool:
        return not self.lesson.finished and not self.left_lesson

    def start_session(self, session: Session, note: str) -> None:
        if self.in_steps:
            self.left_lesson = True
            self.query_one("#tutorial").add_class("done")
            self.board.taught = ()
        super().start_session(session, note)
        self.refresh_bindings()

    def compose_below_board(self) -> ComposeResult:
        with VerticalScroll(id="tutorial", can_focus=False):
            with Horizontal(id="step-head"):
                yield Static("", id="step-number")
                yield Button(_("Next"), id="next", compact=True, variant="primary")
            yield Static("", id="step-text")

    def _titles(self) -> None:
        super()._titles()
        if self.session.state is not self.lesson.state:  # a new game from the menu
            return
        self.title = _("pyramids tutorial: {title}", title=_(self.lesson.tutorial.title))

    # ----- the steps -----

    @unless_taken_down
    def advance(self) -> None:
        if not self.in_steps:
            super().advance()
            return
        waits = self.lesson.waits_for_move()
        interactive = waits and self.session.is_human_turn()
        step = self.lesson.step
        drawn = (len(self.lesson.state.history()), interactive, step.highlight if step else ())
        if drawn != self.drawn:
            # A step that only talks leaves the board as it was: no new drawing.
            self.drawn = drawn
            self.redraw(interactive)
        self._show_step()
        if waits and self.lesson.index != self.pointed_step and self.board.taught:
            # A new step that points at something: the keyboard goes to it (the step's
            # button, else its first lit card), from wherever on the board it was.
            self.pointed_step = self.lesson.index
            self.call_after_refresh(self._focus_taught)
        elif waits:
            self._focus_board_if_idle()
        else:
            self.call_after_refresh(self.query_one("#next", Button).focus)

    @unless_taken_down
    def _focus_taught(self) -> None:
        """The keyboard to what the step points at, unless the person is typing a move."""
        if isinstance(self.focused, Input | OptionList):
            self._focus_board_unless_busy()
            return
        self.action_focus_board()

    def redraw(self, interactive: bool) -> None:
        step = self.lesson.step
        self.board.taught = step.highlight if step is not None and self.in_steps else ()
        super().redraw(interactive)

    def _show_step(self) -> None:
        steps = len(self.lesson.tutorial.steps)
        update_static(self.query_one("#step-number", Static), _(
            "Step {number} of {total}", number=self.lesson.index + 1, total=steps))
        update_static(self.query_one("#step-text", Static), self.lesson.text())
        self.query_one("#next", Button).display = not self.lesson.waits_for_move()
        self.refresh_bindings()

    def _status_text(self, interactive: bool) -> str:
        if not self.in_steps:
            return super()._status_text(interactive)
        number, total = self.lesson.index + 1, len(self.lesson.tutorial.steps)
        if self.lesson.waits_for_move():
            return _("Step {number} of {total}: play the move the step asks for",
                     number=number, total=total)
        return _("Step {number} of {total}: read it, then Next", number=number, total=total)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The footer offers "Next step" only where it goes on: not while a step waits
        # for a move, nor once the steps are done.
        if action == "next_step":
            return self.in_steps and not self.lesson.waits_for_move()
        return super().check_action(action, parameters)

    def action_next_step(self) -> None:
        if not self.in_steps:
            return
        if self.lesson.waits_for_move():
            self.refuse(_("Play the move this step asks for."))
            return
        snapshot = self._snapshot()
        self.lesson.go_on()
        self.set_message("")
        self._after_step(snapshot)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "next":
            event.stop()
            self.action_next_step()
            return
        super().on_button_pressed(event)

    def try_move(self, text: str) -> bool:
        """Only the move the step teaches is played; any other shows the step's hint."""
        if not self.in_steps:
            return super().try_move(text)
        state = self.lesson.state
        if not self.lesson.waits_for_move() or not self.session.is_human_turn():
            self.refuse(_("Read the step, then go on."))
            return False
        try:
            label = state.action_to_string(parse_move(state, text))
        except IllegalActionError as error:
            # The reason alone: "Not a legal move: the move 'x' is illegal: ..." said it twice.
            reason = self.board.explain_illegal(text.strip().lower(),
                                                words_text(reason_only(error.words)))
            self._refuse(_("Not a legal move: {reason}", reason=reason))
            return False
        snapshot = self._snapshot()
        feedback = self.lesson.attempt(label)
        if not feedback.accepted:
            self._refuse(feedback.message)
            return False
        self.set_message(feedback.message)
        self._after_step(snapshot)
        return True

    def _refuse(self, text: str) -> None:
        """Say why; the position stays (the board drops its half-made choice itself)."""
        self.refuse(text)

    def _snapshot(self) -> State:
        state = self.lesson.state
        return state.game.state_from_json(state.to_json())

    def _after_step(self, snapshot: State) -> None:
        """Log the moves the step played (the learner's and the other seats'), then go on."""
        state = self.lesson.state
        learner = self.lesson.tutorial.learner
        describe = describer(self.session.game.name)
        names = self.log_names
        for action in state.history()[len(snapshot.history()):]:
            seat = snapshot.current_player
            label = snapshot.action_to_string(action)
            before = snapshot.view(learner)
            snapshot.apply_action(action)
            if not is_clock_move(label):
                # In words, as the game's log tells them ("Greedy rule (bot) picked
                # 28; ...": the other seats by the bot the learner finishes against).
                for line in describe_for(describe, label, seat, learner, before,
                                         snapshot.view(learner)):
                    self.log_line(line.text(names=names))
        if self.lesson.finished:
            self.query_one("#tutorial").add_class("done")
            tutorial = self.lesson.tutorial
            if len(tutorial.seats) > 1:
                note = _("Now finish the game against {bot}.",
                         bot=seat_name(tutorial.finish_against))
            else:
                note = _("Now finish the game on your own.")
            self.set_message(note)
            self.log_line(note)
        self.advance()

    def _record_score(self) -> None:
        """A tutorial game is not a best score (its deal and first moves were given), nor
        is its deal played again (F2's "Restart this deal"); a new game started from the
        menu is one as any other."""
        if not self._plays_the_lessons_deal():
            super()._record_score()

    def _plays_the_lessons_deal(self) -> bool:
        lesson_game, game = self.lesson.state.game, self.session.game
        return (game.name == lesson_game.name and game.options == lesson_game.options
                and self.session.seed == self.lesson.tutorial.seed)


def run_tutorial_app(tutorial: Tutorial) -> None:
    TutorialApp(tutorial).run()
