"""The full-screen app shell shared by every game: `pyramids play` and `replay --tui`.

The screen has the game's board (see `board.py`) on the left, scrolling where it
does not fit, and a side panel with whose turn it is, messages, a log and a box
to type a move. The list of every legal move is an optional panel (F5), for
those who like to type. The keymap (also in the footer and in F1):

- F1 help (keys and rules), F2 game menu (new game, restart this deal, best
  scores, game options, the bots' level, boards), F5 all moves, Ctrl+S save,
  Ctrl+Q quit (asks when the game is not saved). These are never typed into the box.
- Tab moves on between the board, the log and the box; Esc goes back to the board
  (and on a Mahjongg board to the cursor's tile, wherever the board was scrolled).
- The board's own keys (arrows, Enter, letters for favors) act while it has
  the keyboard; in the box letters are text.

The box is emptied after each move typed, played or refused.

A game whose legal moves include `clock S` (Mahjongg's Time Attack) is timed by
the app, since engines never read the clock: before each move of a person, and
once a second while they think, the app applies `clock S` with the whole seconds
elapsed, so the record replays exactly. A person cannot choose `clock` moves.
The clock stands still while a screen hides the board (F1's help, F2's menu and
what it opens): time nobody can use for the game is not the game's.

Each person sees only their own seat's view. With two or more people at one
keyboard (hotseat) the board is hidden between their turns until the next
person presses Enter. Agents move after a short pause so a person can follow.

One-player games are written to the score file (`play/scores.py`) when they
end; the side panel then shows the best score and time of that layout.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Markdown,
    OptionList,
    RichLog,
    Static,
    TabbedContent,
    TabPane,
    Tabs,
)
from textual.widgets.option_list import Option

from pyramids.agents.levels import LEVELS, level_description
from pyramids.core import (
    Game,
    GameRecord,
    IllegalActionError,
    PyramidsError,
    UnknownGameError,
    game_manifest,
)
from pyramids.core.files import os_reason
from pyramids.play.boards import boards, find_board, parse_game_number, practice_options
from pyramids.play.i18n import _, format_number, ngettext, words_text
from pyramids.play.learn import learn_text
from pyramids.play.movelog import Words, describe_for, describer, record_log
from pyramids.play.moves import clock_move, gives_up, is_clock_move, parse_move, reason_only
from pyramids.play.option_words import changed_options_words
from pyramids.play.results import result_text, seat_label, seat_name, seats_label
from pyramids.play.scores import (
    ScoreEntry,
    ScoreStore,
    ScoreStoreError,
    clock_text,
    default_scores_path,
    today,
)
from pyramids.play.session import (
    HUMAN,
    Session,
    free_save_path,
    fresh_seed,
    new_session,
    replay_command,
    resume_command,
    seat_log_names,
)
from pyramids.tui.board import (
    HIDES_BOARD,
    Board,
    board_class,
    translate_bindings,
    update_static,
)
from pyramids.tui.board_chooser import (
    BoardChooserScreen,
    GameNumberScreen,
    board_menu_choices,
    game_number_text,
)
from pyramids.tui.options_chooser import OptionsScreen, options_menu_choices

AGENT_DELAY = 0.4

# ----- words on screen (through the catalogue, in the language of this run) -----


def menu_entry_words() -> dict[str, str]:
    """The game menu's entries in a word or two, for the help (by the menu's names)."""
    return {
        "new": _("new game"),
        "restart": _("restart this deal"),
        "scores": _("best scores"),
        "options": _("game options"),
        "level": _("the bots' level"),
        "board": _("boards"),
        "number": _("game numbers"),
    }


def keys_help(menu: tuple[tuple[str, str], ...]) -> str:
    """The app's keys; `menu` (the game menu's entries at this table) is what F2 is
    said to offer: best scores, options, boards are not offered at every table."""
    words = menu_entry_words()
    entries = ", ".join(words[name] for name, _label in menu if name in words)
    return _(
        "- **F1** this help · **F2** game menu ({entries}) · "
        "**F5** show or hide the list of all moves · **Ctrl+S** save · **Ctrl+Q** quit "
        "(asks when the game is not saved)\n"
        "- **Tab** moves on between the board, the log (the arrows scroll it) and the move "
        "box; **Esc** goes back to the board\n"
        "- on the board: click, or the arrow keys / Tab and Enter; typing a move there "
        "starts it in the box\n"
        "- in the box: type a move (as the all-moves list shows it, or its number there) "
        "and press Enter; the box is emptied after each try",
        entries=entries,
    )


def replay_keys() -> str:
    return _("- right/n next move, left/p back, Home/End, F1 this help, Ctrl+Q quit")


def menu_choices() -> tuple[tuple[str, str], ...]:
    return (
        ("new", _("New game (new deal, same seats)")),
        ("restart", _("Restart this deal")),
        ("scores", _("Best scores")),
        ("close", _("Back to the game")),
    )


def level_menu_choices(seats: list[str]) -> tuple[tuple[str, str], ...]:
    """The game menu's entry for choosing the bots' level (none at a table of people)."""
    if all(seat == HUMAN for seat in seats):
        return ()
    return (("level", _("Choose the bots' level")),)


def level_question(seats: list[str], game_name: str) -> str:
    """What each level is like, and the level the bots play now where they share one."""
    lines = [_("Every bot seat plays the level you choose, in a new game.")]
    bots = {seat for seat in seats if seat != HUMAN}
    if len(bots) == 1:
        lines.append(_("Now: {level}.", level=seat_name(next(iter(bots)))))
    lines.append("")
    lines += [_("{level}: {description}", level=seat_name(level),
                description=_(level_description(level, game_name))) for level in LEVELS]
    return "\n".join(lines)


def level_choices() -> tuple[tuple[str, str], ...]:
    return (*((level, seat_name(level)) for level in LEVELS), ("close", _("Back to the game")))


def end_choices() -> tuple[tuple[str, str], ...]:
    return (
        ("new", _("Play again")),
        ("restart", _("Same deal again")),
        ("scores", _("Best scores")),
    )


def new_game_choices() -> tuple[tuple[str, str], ...]:
    return (
        ("save", _("Save, then start a new one")),
        ("start", _("Start without saving")),
        ("close", _("Cancel")),
    )


def give_up_choices() -> tuple[tuple[str, str], ...]:
    return (("close", _("Play on")), ("end", _("End the game")))


def quit_choices() -> tuple[tuple[str, str], ...]:
    return (
        ("save", _("Save, then quit")),
        ("quit", _("Quit without saving")),
        ("close", _("Cancel")),
    )


def play_key_labels() -> dict[str, str]:
    """The footer's words for the app's keys (by action)."""
    return {
        "help": _("Help"),
        "menu": _("Menu"),
        "toggle_moves": _("All moves"),
        "save": _("Save"),
        "quit_game": _("Quit"),
        "back_to_board": _("Board"),
    }


def replay_key_labels() -> dict[str, str]:
    return {
        "step(1)": _("Next"),
        "step(-1)": _("Back"),
        "jump(0)": _("Start"),
        "jump(-1)": _("End"),
        "help": _("Help"),
        "quit": _("Quit"),
    }


def help_sections(page: str) -> list[tuple[str, str]]:
    """A learn page as (title, Markdown) per `## ` section, in the page's order.

    Words before the first section (under the page's `# ` title) become a first
    section named by that title; a page without sections is one section.
    """
    title = ""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in page.splitlines():
        if line.startswith("## "):
            sections.append((line[3:].strip(), []))
        elif line.startswith("# ") and not title and not sections[0][1]:
            title = line[2:].strip()
        else:
            sections[-1][1].append(line)
    result = []
    for name, lines in sections:
        body = "\n".join(lines).strip()
        if name or body:
            result.append((name or title or _("Rules"), body))
    return result


class HelpScreen(ModalScreen[None]):
    """The keys and the game's learn page, one tab a section; Escape or F1 closes it."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("f1", "close", "Close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > TabbedContent { width: 90%; height: 90%; border: thick $accent;
                                 background: $panel; }
    HelpScreen TabPane { padding: 0; height: 1fr; }
    HelpScreen TabPane > VerticalScroll { height: 1fr; }
    """

    def __init__(self, game: str, keys: str) -> None:
        super().__init__(classes=HIDES_BOARD)
        self.game = game
        self.keys = keys
        translate_bindings(self, {"close": _("Close")})

    def compose(self) -> ComposeResult:
        with TabbedContent(id="help"):
            with TabPane(_("Keys"), id="help-keys"), VerticalScroll():
                yield Markdown(self.keys)
            for number, (title, body) in enumerate(help_sections(learn_text(self.game)), 1):
                with TabPane(title, id=f"help-{number}"), VerticalScroll():
                    yield Markdown(body)
        # The screen's own keys, which a click also presses: the game's footer is
        # covered, and a player with a mouse alone had no way out of the help.
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Tabs).focus()

    def on_click(self, event: events.Click) -> None:
        """A click beside the help (on the dimmed game) closes it, as Escape does."""
        if event.widget is self:
            self.dismiss(None)

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

    def __init__(self, who: str) -> None:
        super().__init__()
        self.who = who
        translate_bindings(self, {"ready": _("Ready")})

    def compose(self) -> ComposeResult:
        text = _("{who} to play.\nPass the keyboard, then press Enter.",
                 who=who_capital(self.who))
        yield Static(text, id="pass")

    def on_click(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


def who_capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class ChoiceScreen(ModalScreen[str]):
    """A question with buttons; Escape answers `close`."""

    AUTO_FOCUS = "Button"
    BINDINGS = [
        Binding("escape", "answer('close')", "Back"),
        # The choices stand one under another: the arrow keys move between them.
        Binding("down", "app.focus_next", show=False),
        Binding("up", "app.focus_previous", show=False),
    ]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > VerticalScroll { width: 60; max-width: 95%; height: auto; max-height: 90%;
                              border: thick $accent; background: $panel; padding: 0 1; }
    ChoiceScreen Static { width: 100%; margin: 0 0 1 0; }
    ChoiceScreen Button { width: 100%; }
    """

    def __init__(self, text: str, choices: tuple[tuple[str, str], ...],
                 id: str | None = None,  # noqa: A002 - Textual's name
                 hides_board: bool = False) -> None:
        super().__init__(id=id, classes=HIDES_BOARD if hides_board else None)
        translate_bindings(self, {"answer('close')": _("Back")})
        self.text = text
        self.choices = choices

    def compose(self) -> ComposeResult:
        # A long text (a round's end with both pyramids) scrolls on a small terminal.
        with VerticalScroll():
            if self.text:
                yield Static(self.text, id="question")
            for name, label in self.choices:
                yield Button(label, id=f"choice-{name}", name=name, compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.name or "close")

    def action_answer(self, name: str) -> None:
        self.dismiss(name)


GAME_CSS = """
#main { height: 1fr; }
#board-area { width: 1fr; padding: 0 1; }
#side { width: 30%; min-width: 26; max-width: 56; border-left: solid $accent; }
#status { height: auto; padding: 0 1; text-style: bold; }
#message { height: auto; max-height: 6; padding: 0 1; color: $warning; }
#scores { height: auto; max-height: 8; padding: 0 1; }
/* One a line: two to a line, a narrow side cut "Same deal again" in two. */
#end { height: auto; display: none; layout: vertical; }
#end Button { width: 100%; }
#moves { height: 1fr; display: none; }
#moves.shown { display: block; }
#log { height: 1fr; min-height: 3; }
#command { dock: bottom; }
.hides-board { background: $background; }
"""


class MoveBox(Input):
    """The box a move is typed in. Its hint reads whole: where the side panel is narrow
    (80 columns) it leaves the F5 list to the footer (it was cut at '(F5')."""

    def on_resize(self, event: events.Resize) -> None:
        from rich.cells import cell_len

        hint = _("type a move, Enter (F5 lists them)")
        if cell_len(hint) > self.scrollable_content_region.width:
            hint = _("type a move, Enter")
        self.placeholder = hint


def names_read(log_names: Mapping[int, str | Words]) -> dict[int, str]:
    """The move log's names for the seats (`seat_log_names`) as the reader reads them."""
    return {seat: name if isinstance(name, str) else name.text()
            for seat, name in log_names.items()}


def game_title(name: str) -> str:
    """The game's title as players read it (the manifest's, translated), not its name."""
    try:
        return _(game_manifest(name).display_title)
    except UnknownGameError:  # a record of a game this install lacks
        return name


def unless_taken_down(method: Callable[..., None]) -> Callable[..., None]:
    """A callback of the app's that does nothing once the app is being taken down.

    Timers, `call_after_refresh` and a board's `Redrawn` may arrive while the app
    quits, after its screens are gone: asking for the screen then raises (a test
    failed on a loaded machine when a board redrawn by F2's new game reported after
    the app had closed)."""

    @functools.wraps(method)
    def guarded(self: App[None], *args: object, **kwargs: object) -> None:
        if self._exit or not self.screen_stack:
            return None
        return method(self, *args, **kwargs)

    return guarded


class PlayApp(App[None]):
    """One game (then more, from the menu) between people and agents."""

    TITLE = "pyramids"
    CSS = GAME_CSS
    # Textual's command palette (Ctrl+P) speaks only English and quits without asking
    # to save: every action has its key and its place in the menus.
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # the board takes the keyboard when a turn starts, not the box
    BINDINGS = [
        Binding("f1", "help", "Help", priority=True),
        Binding("f2", "menu", "Menu", priority=True),
        Binding("f5", "toggle_moves", "All moves", priority=True),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+q", "quit_game", "Quit", priority=True),
        Binding("escape", "back_to_board", "Board", show=False),
    ]

    def __init__(
        self,
        session: Session,
        agent_delay: float = AGENT_DELAY,
        default_save: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        scores: ScoreStore | None = None,
    ) -> None:
        super().__init__()
        translate_bindings(self, play_key_labels())
        self.session = session
        self.agent_delay = agent_delay
        self.default_save = default_save
        self.clock = clock
        self.scores = scores
        self.message = ""
        self.refusal_shown = False  # the message says why a move was refused
        self.shown_moves: list[str] = []
        # A move's first letters went to the move box, the keyboard not there yet.
        self._typing_ahead = False
        # While a screen hides the board (`HIDES_BOARD`), when it began: the game's
        # time stands still until the board is back.
        self.paused_at: float | None = None
        self._begin(session)

    def _begin(self, session: Session) -> None:
        self.session = session
        # The seats' names as the move log says them, bots by their level ("Easy (bot)"):
        # a table's seats change only with a new game, which comes through here.
        self.log_names = session.log_names()
        self.seat_names = names_read(self.log_names)
        start_view = session.state.view(None)
        self.clock_zero = self.game_clock() - float(start_view.get("elapsed") or 0)
        self.started_at = self.game_clock()
        self.viewer: int | None = self._first_viewer()
        self.covered = False
        self.recorded = False
        self.interlude: str | None = None  # what to show before the game goes on
        self.timed = bool(self.clock_moves())
        self.saved_length = len(session.state.history()) if session.save_path else 0

    # ----- layout -----

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with ScrollableContainer(id="board-area", can_focus=False):
                yield self._new_board()
            with Vertical(id="side"):
                yield Static("", id="status")
                with Horizontal(id="end"):
                    for name, label in end_choices():
                        yield Button(label, id=f"end-{name}", name=name, compact=True)
                yield Static("", id="message")
                yield Static("", id="scores")
                yield OptionList(id="moves")
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
                yield MoveBox(
                    placeholder=_("type a move, Enter (F5 lists them)"), id="command",
                    compact=True, select_on_focus=False,  # a move typed on the board goes on
                )
        yield from self.compose_below_board()
        yield Footer()

    def compose_below_board(self) -> ComposeResult:
        """More under the board and side panel (the tutorial's steps); nothing here."""
        yield from ()

    def _new_board(self) -> Board:
        game = self.session.game
        return board_class(game.name)(game.name, dict(game.options), id="board")

    def on_mount(self) -> None:
        self._titles()
        self.log_line(_("{game}, seed {seed}", game=game_title(self.session.game.name),
                        seed=self.session.seed))
        self._log_options()
        self._log_the_game_so_far()
        self.set_interval(1.0, self.tick)
        self.screen_change_signal.subscribe(self, self._pause_under_hiding_screens,
                                            immediate=True)
        self.advance()

    def _log_options(self) -> None:
        """The options that differ from the rules' defaults, once at the start: the
        board's own lines name few of them, and they change what the moves mean. The
        seats and the board are in the title and on the board already."""
        game = self.session.game
        changed = changed_options_words(
            game, skip=("players", getattr(type(game), "board_option", "")))
        if changed:
            self.log_line(_("options: {options}", options="; ".join(changed)))

    def _log_the_game_so_far(self) -> None:
        """A resumed game: its moves so far in the log, as they were told when played
        (the log was empty, and the player had lost the thread)."""
        if not self.session.state.history():
            return
        audience = self._log_audience()
        record = self.session.record()
        log = record_log(record, follow=[audience])
        names = self.log_names
        for entry, text in zip(log.for_audience(audience), record.actions, strict=False):
            if not is_clock_move(text):
                self.log_lines([line.text(names=names) for line in entry.lines])
        played = sum(1 for text in record.actions if not is_clock_move(text))
        self.log_line(ngettext("Resumed after {count} move.", "Resumed after {count} moves.",
                               played))

    def _titles(self) -> None:
        session = self.session
        self.title = f"pyramids: {game_title(session.game.name)}"
        # Who plays first: at 80 columns the title is cut, and the seed matters less.
        # Bots as the move log names them, "Greedy rule (bot)".
        self.sub_title = _("{seats} · seed {seed}", seed=session.seed,
                           seats=seats_label(session.seats, self.seat_names))
        number = game_number_text(session.game, session.seed) if self._is_solo() else None
        if number:
            self.sub_title += f" · {number}"

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def log_line(self, text: str) -> None:
        self.query_one("#log", RichLog).write(text)

    def set_message(self, text: str) -> None:
        self.message = text
        self.refusal_shown = False
        update_static(self.query_one("#message", Static), text)

    def refuse(self, text: str) -> None:
        """Say why a move was refused (Escape clears it: `clear_refusal`)."""
        self.set_message(text)
        self.refusal_shown = True

    def clear_refusal(self) -> None:
        """Escape: the player has read why a move was refused, and goes back to the
        board; the words went on standing beside it. Other messages (where a game was
        saved) stay."""
        if getattr(self, "refusal_shown", False):
            self.set_message("")

    # ----- the game loop -----

    def _first_viewer(self) -> int | None:
        """Whose eyes the table is drawn for as a game begins: the one person playing; at
        a table of people nobody's yet, so the first of them to move is asked for behind
        the pass screen (whoever started the app, or played last, may not be that one)."""
        humans = self.session.human_seats
        return humans[0] if len(humans) == 1 else None

    @unless_taken_down
    def advance(self) -> None:
        """Show the position and, on an agent's turn, schedule its move."""
        state = self.session.state
        if state.is_terminal():
            self.redraw(interactive=False)
            text = result_text(state, self.session.seats, self.seat_names)
            self._set_status(text)
            self.log_line(text)
            self._autosave()
            self._record_score()
            self.query_one("#end").display = True
            self.query_one("#end-scores").display = self._is_solo()
            self.call_after_refresh(self._focus_end_choices)
            return
        self.query_one("#end").display = False
        seat = state.current_player
        if self.session.is_human_turn():
            humans = self.session.human_seats
            if len(humans) > 1 and self.viewer != seat:
                self.viewer = seat
                self.cover(seat)
                return
            self.viewer = seat
            self.redraw(interactive=True)
            self._focus_board_if_idle()
            return
        self.redraw(interactive=False)
        if self.agent_delay > 0:
            self.set_timer(self.agent_delay, self.agent_move)
        else:
            self.call_later(self.agent_move)

    def _autosave(self) -> None:
        try:
            saved = self.session.save()
        except OSError as error:  # a full disk, a removed folder: said, and play goes on
            self.set_message(_("Could not save to {path}: {reason}",
                               path=self.session.save_path, reason=words_text(os_reason(error))))
            return
        if saved:
            self.saved_length = len(self.session.state.history())

    def _focus_board_if_idle(self) -> None:
        self.call_after_refresh(self._focus_board_unless_busy)

    @unless_taken_down
    def _focus_board_unless_busy(self) -> None:
        """Give the keyboard to the board, unless the person is typing or already there."""
        if self.board.redrawing:
            # Another drawing is on its way: the keyboard given to this one went with it,
            # and Textual handed it on to the move box (after Play again, when busy).
            # The next drawing's Redrawn gives the keyboard out.
            return
        focused = self.focused
        if isinstance(focused, Input | OptionList):
            # The keyboard stays where the person types; the board still shows what
            # can be chosen now (Temple's Summon and Pass were left below the fold).
            target = self.board.focus_target()
            if target is not None:
                self._bring_into_sight(target)
            return
        if focused is not None and self.board in focused.ancestors_with_self:
            return
        self.action_focus_board()

    # ----- the clock of timed games -----

    def game_clock(self) -> float:
        """The app's clock as the game counts it: it stands still while a screen hides
        the board (help, the game menu), so a timed game loses no time to them."""
        return self.clock() if self.paused_at is None else self.paused_at

    def _pause_under_hiding_screens(self, _screen: object = None) -> None:
        hidden = any(screen.has_class(HIDES_BOARD) for screen in self.screen_stack)
        if hidden and self.paused_at is None:
            self.paused_at = self.clock()
        elif not hidden and self.paused_at is not None:
            # The board is back: the game goes on from where it stood.
            paused = self.clock() - self.paused_at
            self.clock_zero += paused
            self.started_at += paused
            self.paused_at = None

    def clock_moves(self) -> list[str]:
        state = self.session.state
        if state.is_terminal():
            return []
        return [text for text in state.legal_action_strings() if is_clock_move(text)]

    def sync_clock(self) -> bool:
        """Tell the engine the whole seconds elapsed; True when that ended the game."""
        if not self.session.is_human_turn():
            return False
        state = self.session.state
        told = clock_move(state, self.game_clock() - self.clock_zero)  # None: not timed
        if told is None:
            return False
        state.apply_string(told)
        self._autosave()
        if state.is_terminal():
            self.log_line(_("Time is up."))
            self.advance()
            return True
        return False

    def time_left(self) -> int | None:
        """The seconds left in a timed game, from the app's clock (one value everywhere)."""
        if not self.timed:
            return None
        view = self.session.state.view(None)
        if "time_left" not in view:
            return None
        limit = int(view.get("elapsed") or 0) + int(view.get("time_left") or 0)
        if self.session.state.is_terminal():
            return int(view.get("time_left") or 0)
        return max(0, limit - int(self.game_clock() - self.clock_zero))

    @unless_taken_down
    def tick(self) -> None:
        try:
            if not self.clock_moves():
                return
            if self.sync_clock():
                return
            self._set_status(self._status_text(self._interactive()))
        except NoMatches:
            # The clock's timer may fire while the app is being taken down (quitting),
            # its board and status line already gone: there is nothing left to show.
            return

    def _interactive(self) -> bool:
        return not self.covered and self.session.is_human_turn()

    def cover(self, seat: int) -> None:
        self.covered = True
        self.board.display = False
        self.query_one("#moves", OptionList).clear_options()
        who = seat_label(seat, self.session.seats)
        self._set_status(_("{who} to play (hidden until ready)", who=who_capital(who)))
        self.push_screen(PassScreen(who), self._uncover)

    @unless_taken_down
    def _uncover(self, _: None = None) -> None:
        self.covered = False
        self.board.display = True
        self.redraw(interactive=True)
        self.call_after_refresh(self.action_focus_board)

    @unless_taken_down
    def agent_move(self) -> None:
        state = self.session.state
        if state.is_terminal() or self.session.is_human_turn():
            return
        seat = state.current_player
        action = self.session.agent_action()
        label = state.action_to_string(action)
        lines = self._apply_logged(seat, label, action)
        if not is_clock_move(label):
            self.log_lines(lines)
        self._autosave()
        self._go_on()

    def _log_audience(self) -> int | None:
        """Whose log the panel shows: the one person at the table, else a spectator's
        (at a hotseat table the next player reads the panel too)."""
        humans = self.session.human_seats
        return humans[0] if len(humans) == 1 else None

    def _apply_logged(self, seat: int, label: str, action: int) -> list[str]:
        """Apply `action` and tell it as the move log does (pyramids.play.movelog).

        An illegal action raises before anything changes."""
        state = self.session.state
        audience = self._log_audience()
        before = state.view(audience)
        state.apply_action(action)
        after = state.view(audience)
        describe = describer(self.session.game.name)
        self.board.names = self.log_names
        lines = [line.text(names=self.log_names)
                 for line in describe_for(describe, label, seat, audience, before, after)]
        self.interlude = self.board.interlude(before, after, lines)
        return lines

    def log_lines(self, lines: list[str]) -> None:
        for line in lines:
            self.log_line(line)

    def redraw(self, interactive: bool) -> None:
        state = self.session.state
        seat = self.viewer
        if state.is_terminal() and len(self.session.human_seats) > 1:
            seat = None  # hotseat: at the end nobody's hand is left on the table
        view = state.view(seat)
        legal = state.legal_action_strings() if interactive else []
        legal = [text for text in legal if not is_clock_move(text)]
        self.board.names = self.log_names
        self.board.show(view, legal, seat, interactive)
        self.shown_moves = self.board.list_moves(legal)
        self._fill_moves()
        if not state.is_terminal():
            self._set_status(self._status_text(interactive))

    def _fill_moves(self) -> None:
        """The all-moves panel, filled only while it is shown (it can be long)."""
        moves = self.query_one("#moves", OptionList)
        if not moves.has_class("shown"):
            if moves.option_count:
                moves.clear_options()
            return
        moves.clear_options()
        # Numbered: the help says a move can be typed by its number in this list.
        moves.add_options(
            [Option(f"{n + 1:>3}  {text}", id=f"move-{n}")
             for n, text in enumerate(self.shown_moves)]
        )
        if self.shown_moves:
            moves.highlighted = 0

    def _set_status(self, text: str) -> None:
        update_static(self.query_one("#status", Static), text)

    def _status_text(self, interactive: bool) -> str:
        state = self.session.state
        player = state.current_player
        played = sum(1 for text in state.history_strings() if not is_clock_move(text))
        who = seat_label(player, self.session.seats, self.seat_names)
        if interactive:
            text = _("Move {number}: {who}, your move", number=played + 1, who=who)
            hint = self.board.turn_hint()
            if hint:
                text += "\n" + hint
        else:
            text = _("Move {number}: {who}, thinking", number=played + 1, who=who)
        left = self.time_left()
        if left is not None:
            text += "\n" + _("Time left {clock}", clock=clock_text(left))
        return text

    def try_move(self, text: str) -> bool:
        """Play `text` for the person to move; an illegal one shows why and changes nothing."""
        if self.session.state.is_terminal():
            self.refuse(_("The game is over: F2 starts another."))
            return False
        if self.covered or not self.session.is_human_turn():
            self.refuse(_("It is not your turn."))
            return False
        if self.sync_clock():
            self.refuse(_("Time is up."))
            return False
        state = self.session.state
        if is_clock_move(text.strip().lower()):
            self.refuse(_("The clock is kept by the app; play a move."))
            return False
        listed = self.query_one("#moves", OptionList).has_class("shown")
        if text.strip().isdigit() and not listed:
            # The list is not on screen: a number would play a move never read.
            self.refuse(_("Not a legal move: a number picks from the list of all "
                               "moves, which F5 shows"))
            return False
        if text.strip().isdigit() and 1 <= int(text) <= len(self.shown_moves):
            # A number picks from the list on screen, which leaves out clock moves.
            text = self.shown_moves[int(text) - 1]
        elif text.strip().isdigit():
            self.refuse(_(
                "Not a legal move: there is no move number {number} in the list (F5 shows it)",
                number=text.strip(),
            ))
            return False
        try:
            action = parse_move(state, text)
            if action in state.legal_actions() and gives_up(state, action):
                # One key must not end a solo game lost (Mahjongg's Pass): asked first.
                self.push_screen(ChoiceScreen(_(
                    "That move ends the game at once, and not as a win, while other moves "
                    "play on. End the game?"), give_up_choices()),
                    lambda answer: self._give_up_answer(answer, action))
                return False
            label = state.action_to_string(action)
            seat = state.current_player
            lines = self._apply_logged(seat, label, action)
        except IllegalActionError as error:
            # The reason alone: "Not a legal move: the move 'x' is illegal: ..." said it twice.
            reason = self.board.explain_illegal(text.strip().lower(),
                                                words_text(reason_only(error.words)))
            self.refuse(_("Not a legal move: {reason}", reason=reason))
            return False
        return self._after_move(lines)

    def _give_up_answer(self, answer: str | None, action: int) -> None:
        state = self.session.state
        if answer != "end" or action not in state.legal_actions():
            self.board.refused()
            return
        seat = state.current_player
        self._after_move(self._apply_logged(seat, state.action_to_string(action), action))

    def _after_move(self, lines: list[str]) -> bool:
        self.set_message("")
        self.log_lines(lines)
        self._autosave()
        self._go_on()
        return True

    def _go_on(self) -> None:
        """Advance; where the move ended a part of the game (a Pacal round), first show
        how, and wait for the player (the bots wait too)."""
        shown, self.interlude = self.interlude, None
        if shown is None or not self.session.human_seats:
            self.advance()
            return
        self.push_screen(ChoiceScreen(shown, (("close", _("Next round")),), id="interlude"),
                         lambda _answer: self.advance())

    # ----- scores of one-player games -----

    def _is_solo(self) -> bool:
        return len(self.session.seats) == 1 and self.session.seats[0] == HUMAN

    def _record_score(self) -> None:
        if self.recorded or not self._is_solo():
            return
        self.recorded = True
        state = self.session.state
        view = state.view(0)
        outcome = view.get("outcome") or {}
        scores = outcome.get("scores") or [0]
        entry = ScoreEntry(
            game=self.session.game.name,
            variant=self.board.variant_of(view),
            won=state.returns()[0] > 0,
            score=float(scores[0]),
            seconds=round(self.game_clock() - self.started_at, 1),
            seed=str(self.session.seed),
            played_on=today(),
        )
        store = self._store()
        if store is None:
            return
        lower = getattr(self.board, "LOWER_SCORE_IS_BETTER", False)
        try:
            store.add(entry)
            standing = store.standing(entry, lower)
        except ScoreStoreError as error:
            self.set_message(_("Best scores are not available: {reason}", reason=error))
            return
        if store.set_aside is not None:
            self.set_message(_(
                "The score file could not be read; it was kept as {kept} and a new one "
                "was started.", kept=str(store.set_aside)))
        words = self.board.score_words
        lines = [
            _(
                "This game: {score} in {clock}, {verdict}, rank {rank} of {of}.",
                score=words(entry.score), clock=clock_text(entry.seconds),
                verdict=_("won") if entry.won else _("lost"),
                rank=format_number(standing.rank), of=format_number(standing.of),
            ),
            _(
                "Best on {variant}: {score} ({verdict}, {clock}).",
                variant=self.board.variant_words(entry.variant)
                or game_title(self.session.game.name),
                score=words(standing.best.score),
                verdict=_("won") if standing.best.won else _("lost"),
                clock=clock_text(standing.best.seconds),
            ),
        ]
        if standing.fastest_win is not None:
            fastest_clock = clock_text(standing.fastest_win.seconds)
            lines.append(_("Fastest win: {clock}.", clock=fastest_clock))
        self.query_one("#scores", Static).update("\n".join(lines))
        self.log_line(lines[0])

    def _store(self) -> ScoreStore | None:
        if self.scores is None:
            try:
                self.scores = ScoreStore(default_scores_path())
            except ImportError as error:
                self.set_message(_("Best scores are not available: {reason}", reason=error))
                return None
        return self.scores

    def best_scores_text(self) -> str:
        store = self._store()
        if store is None:
            return _("No finished one-player games yet.")
        game = self.session.game.name
        lower = getattr(self.board, "LOWER_SCORE_IS_BETTER", False)
        try:
            variants = store.variants(game)
            lines = []
            for variant in variants:
                shown = self.board.variant_words(variant) if variant else ""
                lines.append(f"{shown or game_title(self.session.game.name)}:")
                for number, entry in enumerate(store.best(game, variant, lower), start=1):
                    verdict = _("won") if entry.won else _("lost")
                    lines.append(
                        f"  {number}. {self.board.score_words(entry.score)} · {verdict} · "
                        f"{clock_text(entry.seconds)} · {entry.played_on}"
                    )
                fastest = store.fastest_win(game, variant)
                if fastest is not None:
                    fastest_clock = clock_text(fastest.seconds)
                    lines.append("  " + _("Fastest win: {clock}.", clock=fastest_clock))
        except ScoreStoreError as error:
            return _("Best scores are not available: {reason}", reason=error)
        return "\n".join(lines) or _("No finished one-player games yet.")

    # ----- more games in one sitting -----

    def start_session(self, session: Session, note: str) -> None:
        """Play `session` next, in this sitting; it never writes over the last game's file."""
        self.default_save = None
        self._begin(session)
        # The same game on the same board widget: the view changes, and the options
        # (the options screen's) that the board draws from.
        self.board.new_options(session.game.options)
        self.board.display = True
        self._titles()
        self.query_one("#scores", Static).update("")
        self.set_message("")
        # The log is this game's: the last game's moves read as if they were its own.
        self.query_one("#log", RichLog).clear()
        self.log_line(note)
        self._log_options()
        self.call_after_refresh(self.advance)

    def new_game(self, same_deal: bool) -> None:
        session = self.session
        seed = session.seed if same_deal else fresh_seed()
        fresh = new_session(session.game, list(session.seats), seed)
        if same_deal:
            note = _("Restarted the same deal (seed {seed}).", seed=seed)
        else:
            note = _("New game: seed {seed}.", seed=seed)
        self.start_session(fresh, note)

    def _menu_answer(self, answer: str | None) -> None:
        if answer == "new":
            self.start_unless_unsaved(lambda: self.new_game(same_deal=False))
        elif answer == "restart":
            self.start_unless_unsaved(lambda: self.new_game(same_deal=True))
        elif answer == "scores":
            self.push_screen(ChoiceScreen(
                _("Best scores") + "\n\n" + self.best_scores_text(), (("close", _("Close")),),
                hides_board=True,
            ))
        elif answer == "board":
            game = self.session.game
            option = getattr(type(game), "board_option", "")
            current = game.options.get(option)
            if current not in {entry["name"] for entry in boards(game.name)}:
                # "auto" (the board for the number of players): the one on the table.
                current = self.session.state.view(None).get(option, current)
            self.push_screen(BoardChooserScreen(boards(game.name), current,
                                                alone=game.num_players == 1), self.play_board)
        elif answer == "number":
            self.push_screen(GameNumberScreen(self.session.game.name), self.play_game_number)
        elif answer == "options":
            self.push_screen(OptionsScreen(self.session.game), self.play_options)
        elif answer == "level":
            question = level_question(self.session.seats, self.session.game.name)
            self.push_screen(ChoiceScreen(question, level_choices(), hides_board=True),
                             self.play_level)

    def start_unless_unsaved(self, start: Callable[[], object]) -> None:
        """`start` a new game; first, where the game in progress is not saved, ask (a
        new deal, board, game number or level must not throw it away unasked)."""
        if not self.unsaved() or self.session.state.is_terminal():
            start()
            return

        def answer(reply: str | None) -> None:
            if reply == "start":
                start()
            elif reply == "save" and self.action_save():
                kept = self.session.save_path
                start()
                if kept is not None:  # the new game's log starts empty: say it again
                    self.log_line(_("The last game was saved to {path}; resume it with: "
                                    "{command}", path=kept, command=resume_command(kept)))

        self.push_screen(ChoiceScreen(
            _("This game is not saved. Start a new one anyway?"), new_game_choices(),
            hides_board=True), answer)

    def play_level(self, level: str | None) -> None:
        """A new deal with every bot seat at `level` (the level menu's answer)."""
        if level not in LEVELS:
            return
        seats = [seat if seat == HUMAN else level for seat in self.session.seats]

        def start() -> None:
            seed = fresh_seed()
            self.start_session(new_session(self.session.game, seats, seed),
                               _("New game against {level} bots: seed {seed}.",
                                 level=seat_name(level), seed=seed))

        self.start_unless_unsaved(start)

    def play_options(self, chosen: Game | None) -> None:
        """A new deal of `chosen` (the options screen's answer, checked by the engine
        there) at this table: the same seats and bots."""
        if chosen is None:
            return

        def start() -> None:
            seed = fresh_seed()
            self.start_session(new_session(chosen, list(self.session.seats), seed),
                               _("New game with the options chosen: seed {seed}.", seed=seed))

        self.start_unless_unsaved(start)

    def play_board(self, name: str | None) -> None:
        """A new deal on the board `name` (the chooser's answer), the same seats and rules."""
        if name is None:
            return
        game = self.session.game
        option = getattr(type(game), "board_option", "")
        chosen = type(game)(**{**game.options, option: name})
        title = _(find_board(game.name, name)["title"])  # the board's name as players read it

        def start() -> None:
            seed = fresh_seed()
            self.start_session(new_session(chosen, list(self.session.seats), seed),
                               _("New game on {board}: seed {seed}.", board=title, seed=seed))

        self.start_unless_unsaved(start)

    def play_game_number(self, text: str | None) -> None:
        """The game a game number names (checked by the screen that asked for it), at
        this table: a game number names a board and a deal, the seats stay."""
        if text is None:
            return
        game = self.session.game
        number = parse_game_number(game.name, text)
        options = practice_options(game.name, number)
        players_option = game_manifest(game.name).players_option
        if players_option:
            options[players_option] = len(self.session.seats)
        try:
            chosen = type(game)(**options)
        except PyramidsError as error:
            self.set_message(words_text(error))
            return
        self.start_unless_unsaved(lambda: self.start_session(
            new_session(chosen, list(self.session.seats), number.deal),
            _("Game number {number}.", number=str(number))))

    # ----- input -----

    @unless_taken_down
    def on_board_redrawn(self, message: Board.Redrawn) -> None:
        if not self._interactive():
            return
        if message.had_focus and not self.board.redrawing:
            self.action_focus_board()
        else:
            self._focus_board_unless_busy()

    def on_board_chosen(self, message: Board.Chosen) -> None:
        if not self.try_move(message.text):
            self.board.refused()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.try_move(self.shown_moves[int(str(event.option.id).rpartition("-")[2])])

    def on_key(self, event: events.Key) -> None:
        """A character typed where no key takes it (on the board) starts a typed move in
        the move box; before, it was lost, and the box was far down the Tab order."""
        character = event.character
        if not (event.is_printable and character):
            return
        if isinstance(self.screen, ModalScreen) or isinstance(self.focused, Input):
            return
        if event.key in self.screen.active_bindings:
            return  # the board's own key (Mahjongg's favors), already acted on
        command = self.query_one("#command", Input)
        if not command.display or self.session.state.is_terminal():
            return
        if not character.strip() and not command.value:
            return  # a space starts no move
        command.focus()
        command.insert_text_at_cursor(character)
        self._typing_ahead = True
        event.stop()

    def continue_typed_move(self, key: str) -> bool:
        """(`board.continues_typed_move`) A key the board would take, pressed after a
        move's first letters went to the move box but before the keyboard got there:
        it is the move's (a space, a letter; Enter plays it). False otherwise."""
        command = self.query_one("#command", Input)
        if not self._typing_ahead or self.focused is command or not command.value:
            self._typing_ahead = False
            return False
        if key == "enter":
            self._typing_ahead = False
            self._play_typed(command)
            return True
        command.insert_text_at_cursor(" " if key == "space" else key)
        return True

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget.id == "command":
            self._typing_ahead = False  # the keys go to the box itself now

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._play_typed(event.input)

    def _play_typed(self, box: Input) -> None:
        """Play the move typed in `box`, which is emptied."""
        text = box.value.strip()
        box.value = ""
        if text:
            self.try_move(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("end-"):
            event.stop()
            self._menu_answer(event.button.name)

    @unless_taken_down
    def action_focus_board(self) -> None:
        if isinstance(self.screen, ModalScreen):
            return  # a dialog keeps the keyboard; set_focus(None) would clear its focus
        target = self.board.focus_target()
        if target is not None:
            target.focus()
            self._bring_into_sight(target)
        elif self.session.state.is_terminal():
            self.query_one("#end-new", Button).focus()  # the board has nothing to choose
        else:
            self.set_focus(None)

    @unless_taken_down
    def _focus_end_choices(self) -> None:
        """At the game's end the keyboard goes to its first choice (Play again), unless
        the person is in the move box or the log: the board's choices went with the last
        move (Temple's buttons, Pacal's cards), and the keyboard was nowhere, Enter doing
        nothing and saying nothing; on Mahjongg's tiles the arrows and Enter do nothing
        once the game is over."""
        if isinstance(self.screen, ModalScreen) or not self.session.state.is_terminal():
            return
        focused = self.focused
        if focused is None or self.board in focused.ancestors_with_self:
            self.query_one("#end-new", Button).focus()

    def action_back_to_board(self) -> None:
        """Escape: the keyboard back on the board, and the board scrolled back to where
        its keys act (Mahjongg's cursor tile, out of sight after the box or the log)."""
        self.action_focus_board()
        if not isinstance(self.screen, ModalScreen):
            self.clear_refusal()
            if not self.covered:
                self.board.show_cursor()

    def _bring_into_sight(self, target: Widget) -> None:
        """Scroll the board to a small choice (a card, a button), after the layout: a
        board just redrawn has no place for it yet, and Temple's Summon and Pass stayed
        below the fold at 80x24. A container or the board scrolls itself."""
        if isinstance(target, ScrollableContainer | Board) or self.board.keeps_its_sight:
            return
        self.call_after_refresh(self._scroll_into_sight, target)

    @unless_taken_down
    def _scroll_into_sight(self, target: Widget) -> None:
        if target.is_attached and target.size.height < 12:
            target.scroll_visible(animate=False)

    def action_toggle_moves(self) -> None:
        moves = self.query_one("#moves", OptionList)
        moves.toggle_class("shown")
        self._fill_moves()
        if moves.has_class("shown"):
            moves.focus()
        else:
            self.action_focus_board()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        board_keys = self.board.keys_help()
        keys = keys_help(self.menu_entries()) + ("\n" + board_keys if board_keys else "")
        self.push_screen(HelpScreen(self.session.game.name, keys))

    def menu_entries(self) -> tuple[tuple[str, str], ...]:
        """The game menu's entries at this table, "Back to the game" last."""
        choices = (menu_choices() + options_menu_choices(self.session.game)
                   + level_menu_choices(self.session.seats)
                   + board_menu_choices(self.session.game))
        # "Back to the game" last, under every entry (it stood amid them).
        choices = (*(choice for choice in choices if choice[0] != "close"),
                   *(choice for choice in choices if choice[0] == "close"))
        if not self._is_solo():  # best scores are kept for one-player games only
            choices = tuple(choice for choice in choices if choice[0] != "scores")
        return choices

    def action_menu(self) -> None:
        if isinstance(self.screen, ModalScreen):
            return
        self.push_screen(ChoiceScreen("", self.menu_entries(), hides_board=True),
                         self._menu_answer)

    def _save_target(self) -> Path:
        """This game's file; a new game's first save never takes a name another saved
        game holds (the same deal played earlier too): it gets the next free one."""
        if self.session.save_path is not None:
            return self.session.save_path
        if self.default_save is not None and not self.default_save.exists():
            return self.default_save
        folder = self.default_save.parent if self.default_save is not None else Path(".")
        return free_save_path(self.session.game.name, self.session.seed, folder)

    def action_save(self) -> bool:
        target = self._save_target()
        try:
            saved = self.session.save(target)
        except OSError as error:
            self.set_message(
                _("Could not save to {path}: {reason}", path=target,
                  reason=words_text(os_reason(error)))
            )
            return False
        self.session.save_path = saved
        self.saved_length = len(self.session.state.history())
        self.set_message(
            _("Saved to {path}; resume with: {command}", path=saved,
              command=resume_command(saved or target))
        )
        return True

    def unsaved(self) -> bool:
        """Moves a person would lose by quitting now."""
        return len(self.session.state.history()) > self.saved_length and bool(
            self.session.human_seats
        )

    def action_quit_game(self) -> None:
        if isinstance(self.screen, ChoiceScreen):
            return
        if not self.unsaved():
            self.exit()
            return
        question = _("This game is not saved. Quit anyway?")
        self.push_screen(ChoiceScreen(question, quit_choices()), self._quit_answer)

    def _quit_answer(self, answer: str | None) -> None:
        if answer == "quit" or answer == "save" and self.action_save():
            self.exit()


class ReplayApp(App[None]):
    """Steps through a finished (or saved) game: left/right, Home/End, or click a move."""

    TITLE = "pyramids replay"
    CSS = GAME_CSS + "\n#moves { display: block; }"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("right", "step(1)", "Next", priority=True),
        Binding("n", "step(1)", "Next", show=False),
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("p", "step(-1)", "Back", show=False),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("f1", "help", "Help", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("q", "quit", "Quit", show=False),
    ]

    def __init__(self, record: GameRecord) -> None:
        super().__init__()
        translate_bindings(self, replay_key_labels())
        self.record = record
        self.states = record.replay()
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with ScrollableContainer(id="board-area"):
                yield board_class(self.record.game)(self.record.game, id="board")
            with Vertical(id="side"):
                yield Static("", id="status")
                yield OptionList(id="moves")
        yield Footer()

    def on_mount(self) -> None:
        self.title = _("replay: {game}", game=game_title(self.record.game))
        # Bots by their level or rule, as the move log names them ("Greedy rule (bot)"),
        # people by their seats ("seat 1"): the title names the seats as the log does.
        self.log_names = seat_log_names(self._players())
        self.sub_title = _(
            "seed {seed}; players {players}", seed=self.record.seed,
            players=seats_label(self._players(), names_read(self.log_names), watching=True))
        self.move_words = self._moves_in_words()
        self.query_one("#moves", OptionList).add_options(
            [Option(f"{number}. {words}", id=f"step-{number}")
             for number, words in enumerate(self.move_words, start=1)])
        self.show_step()

    def _moves_in_words(self) -> list[str]:
        """Each move as the move log tells it to a spectator ("Greedy rule (bot) gave 1
        level-7 card..."), not as the engine writes it ("swap L7 1"); a move the log
        does not tell (a Time Attack clock) in the board's words."""
        names = self.log_names
        board = self.query_one("#board", Board)
        board.names = names
        log = record_log(self.record, follow=[None], states=self.states)
        told = {entry.number: " ".join(line.text(names=names) for line in entry.lines)
                for entry in log.for_audience(None)}
        words = []
        for number, text in enumerate(self.record.actions, start=1):
            board.view = self.states[number - 1].view(None)
            words.append(told.get(number) or board.describe_move(text))
        board.view = {}
        return words

    def _players(self) -> list[str]:
        return self.record.players or [HUMAN] * self.states[0].game.num_players

    def show_step(self) -> None:
        state = self.states[self.index]
        board = self.query_one("#board", Board)
        board.show(state.view(None), [], None, False)
        total = len(self.states) - 1
        if self.index > 0:
            status = _("Move {index} of {total}: {move}", index=self.index, total=total,
                       move=self.move_words[self.index - 1])
        else:
            status = _("Move {index} of {total}", index=self.index, total=total)
        if state.is_terminal():
            status += "\n" + result_text(state, self._players(),
                                          names_read(self.log_names))
        self.query_one("#status", Static).update(status)
        moves = self.query_one("#moves", OptionList)
        if self.index > 0:
            moves.highlighted = self.index - 1

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
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(HelpScreen(self.record.game, replay_keys()))


def run_play_app(session: Session) -> None:
    PlayApp(session).run()
    if session.save_path is not None and session.human_seats:
        # The screen is gone: say once more where the game is kept.
        if session.state.is_terminal():
            print(_("The game is saved to {path}; watch it with: {command}",
                    path=session.save_path, command=replay_command(session.save_path)))
        else:
            print(_("Saved to {path}; resume with: {command}", path=session.save_path,
                    command=resume_command(session.save_path)))


def run_replay_app(record: GameRecord) -> None:
    ReplayApp(record).run()
