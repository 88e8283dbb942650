"""The full-screen app shell shared by every game: `pyramids play` and `replay --tui`.

The screen has the game's board (see `board.py`), a side panel with whose turn
it is, the legal moves (click one, or arrow keys and Enter), a box to type a
move, and a log. Keys: F1 or ? the rules, Ctrl+S or s save, q quit.

A game whose legal moves include `clock S` (Mahjongg's Time Attack) is timed by
the app, since engines never read the clock: before each move of a person, and
once a second while they think, the app applies `clock S` with the whole seconds
elapsed, so the record replays exactly. A person cannot choose `clock` moves.

Each person sees only their own seat's view. With two or more people at one
keyboard (hotseat) the board is hidden between their turns until the next
person presses Enter. Agents move after a short pause so a person can follow.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Input, Markdown, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from pyramids.core import GameRecord, IllegalActionError
from pyramids.play.moves import parse_move
from pyramids.play.results import result_text
from pyramids.play.rules import rules_text
from pyramids.play.session import Session
from pyramids.tui.board import Board, board_class

AGENT_DELAY = 0.4
CLOCK_PREFIX = "clock "


def is_clock_move(text: str) -> bool:
    return text.startswith(CLOCK_PREFIX)


class HelpScreen(ModalScreen[None]):
    """The game's rules page and the keys; Escape, F1 or ? closes it."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("f1", "close", "Close"),
        Binding("question_mark", "close", "Close"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: thick $accent;
                                  background: $panel; }
    """

    def __init__(self, game: str, keys: str) -> None:
        super().__init__()
        self.game = game
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(f"## Keys\n\n{self.keys}\n\n" + rules_text(self.game))

    def action_close(self) -> None:
        self.dismiss(None)


class PassScreen(ModalScreen[None]):
    """Hotseat: covers the table while the keyboard passes to the next person."""

    BINDINGS = [Binding("enter", "ready", "Ready"), Binding("space", "ready", "Ready")]
    DEFAULT_CSS = """
    PassScreen { align: center middle; background: $background; }
    PassScreen > Static { width: 50; height: 5; border: thick $accent;
                          content-align: center middle; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        yield Static(f"Seat {self.seat} to play.\nPass the keyboard, then press Enter.", id="pass")

    def on_click(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


GAME_CSS = """
#main { height: 1fr; }
#board-area { width: 1fr; padding: 0 1; }
#side { width: 40; border-left: solid $accent; }
#status { height: auto; padding: 0 1; text-style: bold; }
#message { height: auto; padding: 0 1; color: $warning; }
#moves { height: 1fr; }
#command { dock: bottom; }
#log { height: 8; }
"""

KEYS_HELP = (
    "- click a card, field or tile on the board, or a move in the list\n"
    "- arrow keys and Enter in the move list; Tab moves between the list and the box\n"
    "- type a move (as listed, or its number) in the box and press Enter\n"
    "- F1 or ? this help, Ctrl+S or s save, q quit (saves when a file is set)"
)


class PlayApp(App[None]):
    """One game between people and agents."""

    TITLE = "pyramids"
    CSS = GAME_CSS
    BINDINGS = [
        Binding("f1", "help", "Rules"),
        Binding("question_mark", "help", "Rules", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("s", "save", "Save", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(
        self,
        session: Session,
        agent_delay: float = AGENT_DELAY,
        default_save: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.session = session
        self.agent_delay = agent_delay
        self.default_save = default_save
        self.clock = clock
        start_view = session.state.view(None)
        self.clock_zero = clock() - float(start_view.get("elapsed") or 0)
        self.viewer: int | None = self._first_viewer()
        self.covered = False
        self.message = ""
        self.shown_moves: list[str] = []

    # ----- layout -----

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="board-area"):
                yield board_class(self.session.game.name)(self.session.game.name, id="board")
            with Vertical(id="side"):
                yield Static("", id="status")
                yield Static("", id="message")
                yield OptionList(id="moves")
                yield RichLog(id="log", wrap=True, markup=False)
                yield Input(placeholder="type a move, Enter", id="command")
        yield Footer()

    def on_mount(self) -> None:
        game = self.session.game
        self.title = f"pyramids: {game.name}"
        self.sub_title = f"seed {self.session.seed}; seats {', '.join(self.session.seats)}"
        self.query_one("#moves", OptionList).focus()
        self.log_line(f"{game.name} {game.options} seed {self.session.seed}")
        self.set_interval(1.0, self.tick)
        self.advance()

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def log_line(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def set_message(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    # ----- the game loop -----

    def _first_viewer(self) -> int | None:
        humans = self.session.human_seats
        if not humans:
            return None
        state = self.session.state
        if not state.is_terminal() and state.current_player in humans:
            return state.current_player
        return humans[0]

    def advance(self) -> None:
        """Show the position and, on an agent's turn, schedule its move."""
        state = self.session.state
        if state.is_terminal():
            self.redraw(interactive=False)
            text = result_text(state, self.session.seats)
            self.query_one("#status", Static).update(text)
            self.log_line(text)
            saved = self.session.save()
            if saved:
                self.log_line(f"saved to {saved}")
            return
        seat = state.current_player
        if self.session.is_human_turn():
            humans = self.session.human_seats
            if len(humans) > 1 and self.viewer != seat:
                self.viewer = seat
                self.cover(seat)
                return
            self.viewer = seat
            self.redraw(interactive=True)
            return
        self.redraw(interactive=False)
        if self.agent_delay > 0:
            self.set_timer(self.agent_delay, self.agent_move)
        else:
            self.call_later(self.agent_move)

    # ----- the clock of timed games -----

    def clock_moves(self) -> list[str]:
        state = self.session.state
        if state.is_terminal():
            return []
        return [text for text in state.legal_action_strings() if is_clock_move(text)]

    def sync_clock(self) -> bool:
        """Tell the engine the whole seconds elapsed; True when that ended the game."""
        moves = self.clock_moves()
        if not moves or not self.session.is_human_turn():
            return False
        seconds = int(self.clock() - self.clock_zero)
        allowed = [int(text[len(CLOCK_PREFIX) :]) for text in moves]
        if seconds < min(allowed):
            return False
        seconds = min(seconds, max(allowed))
        state = self.session.state
        state.apply_string(f"{CLOCK_PREFIX}{seconds}")
        self.session.save()
        if state.is_terminal():
            self.log_line("Time is up.")
            self.advance()
            return True
        return False

    def tick(self) -> None:
        if not self.clock_moves():
            return
        if self.sync_clock():
            return
        view = self.session.state.view(None)
        limit = int(view.get("elapsed") or 0) + int(view.get("time_left") or 0)
        left = max(0, limit - int(self.clock() - self.clock_zero))
        self.query_one("#status", Static).update(self._status_text(True) + f"\nTime left: {left} s")

    def cover(self, seat: int) -> None:
        self.covered = True
        self.board.display = False
        self.query_one("#moves", OptionList).clear_options()
        self.query_one("#status", Static).update(f"Seat {seat} to play (hidden until ready)")
        self.push_screen(PassScreen(seat), self._uncover)

    def _uncover(self, _: None = None) -> None:
        self.covered = False
        self.board.display = True
        self.redraw(interactive=True)

    def agent_move(self) -> None:
        state = self.session.state
        if state.is_terminal() or self.session.is_human_turn():
            return
        seat = state.current_player
        action = self.session.agent_action()
        self.log_line(f"seat {seat} ({self.session.seats[seat]}): {state.action_to_string(action)}")
        state.apply_action(action)
        self.session.save()
        self.advance()

    def redraw(self, interactive: bool) -> None:
        state = self.session.state
        seat = self.viewer
        if state.is_terminal() and len(self.session.human_seats) > 1:
            seat = None  # hotseat: at the end nobody's hand is left on the table
        view = state.view(seat)
        legal = state.legal_action_strings() if interactive else []
        legal = [text for text in legal if not is_clock_move(text)]
        self.shown_moves = legal
        self.board.show(view, legal, seat, interactive)
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options([Option(text, id=f"move-{n}") for n, text in enumerate(legal)])
        if legal:
            moves.highlighted = 0
        if not state.is_terminal():
            self.query_one("#status", Static).update(self._status_text(interactive))

    def _status_text(self, interactive: bool) -> str:
        state = self.session.state
        player = state.current_player
        who = self.session.seats[player]
        label = "your move" if interactive else "thinking"
        return f"Move {len(state.history()) + 1}: seat {player} ({who}), {label}"

    def try_move(self, text: str) -> bool:
        """Play `text` for the person to move; an illegal one shows why and changes nothing."""
        if self.covered or not self.session.is_human_turn():
            self.set_message("It is not your turn.")
            return False
        if self.sync_clock():
            self.set_message("Time is up.")
            return False
        state = self.session.state
        if is_clock_move(text.strip().lower()):
            self.set_message("The clock is kept by the app; play a move.")
            return False
        if text.strip().isdigit() and 1 <= int(text) <= len(self.shown_moves):
            # A number picks from the list on screen, which leaves out clock moves.
            text = self.shown_moves[int(text) - 1]
        try:
            action = parse_move(state, text)
            label = state.action_to_string(action)
            state.apply_action(action)
        except IllegalActionError as error:
            self.set_message(f"Not a legal move: {error}")
            return False
        self.set_message("")
        seat = self.viewer
        self.log_line(f"seat {seat} (you): {label}")
        self.session.save()
        self.advance()
        return True

    # ----- input -----

    def on_board_chosen(self, message: Board.Chosen) -> None:
        self.try_move(message.text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.try_move(str(event.option.prompt))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        if self.try_move(text):
            event.input.value = ""

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.session.game.name, KEYS_HELP))

    def action_save(self) -> None:
        target = self.session.save_path or self.default_save or Path(
            f"pyramids-{self.session.game.name}-{self.session.seed}.json"
        )
        try:
            saved = self.session.save(target)
        except OSError as error:
            self.set_message(f"Could not save to {target}: {error.strerror}")
            return
        self.session.save_path = saved
        self.set_message(f"Saved to {saved}; resume with: pyramids play --resume {saved}")

    def action_quit_game(self) -> None:
        if self.session.save_path is not None:
            self.session.save()
        self.exit()


class ReplayApp(App[None]):
    """Steps through a finished (or saved) game: left/right, Home/End, or click a move."""

    TITLE = "pyramids replay"
    CSS = GAME_CSS
    BINDINGS = [
        Binding("right", "step(1)", "Next"),
        Binding("n", "step(1)", "Next", show=False),
        Binding("left", "step(-1)", "Back"),
        Binding("p", "step(-1)", "Back", show=False),
        Binding("home", "jump(0)", "Start"),
        Binding("end", "jump(-1)", "End"),
        Binding("f1", "help", "Rules"),
        Binding("question_mark", "help", "Rules", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        self.record = record
        self.states = record.replay()
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="board-area"):
                yield board_class(self.record.game)(self.record.game, id="board")
            with Vertical(id="side"):
                yield Static("", id="status")
                yield OptionList(
                    *[
                        Option(f"{n}. {text}", id=f"step-{n}")
                        for n, text in enumerate(self.record.actions, start=1)
                    ],
                    id="moves",
                )
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"replay: {self.record.game}"
        self.sub_title = f"seed {self.record.seed}; players {', '.join(self.record.players)}"
        self.show_step()

    def show_step(self) -> None:
        state = self.states[self.index]
        self.query_one("#board", Board).show(state.view(None), [], None, False)
        total = len(self.states) - 1
        status = f"Move {self.index} of {total}"
        if self.index > 0:
            status += f": {self.record.actions[self.index - 1]}"
        if state.is_terminal():
            status += "\n" + result_text(state, self.record.players or self._seat_names())
        self.query_one("#status", Static).update(status)
        moves = self.query_one("#moves", OptionList)
        if self.index > 0:
            moves.highlighted = self.index - 1

    def _seat_names(self) -> list[str]:
        return [f"seat {n}" for n in range(self.states[0].game.num_players)]

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.states) - 1, self.index + delta))
        self.show_step()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.states) - 1
        self.show_step()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.index = event.option_index + 1
        self.show_step()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.record.game, "- right/n next move, left/p back, Home/End"))


def run_play_app(session: Session) -> None:
    PlayApp(session).run()


def run_replay_app(record: GameRecord) -> None:
    ReplayApp(record).run()
