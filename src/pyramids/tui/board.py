"""The part of a screen that draws one game: a `Board` widget per game.

A board sees only what it is given: one seat's view (`state.view(seat)`) and the
legal moves as strings, never the state, so a person is never shown more than
their own view. A click on a card, field or tile posts `Board.Chosen` with an
action string; the app checks it against the rules, so a board never decides
legality itself.

A game gets its own drawing by naming a `Board` subclass as the
`terminal_board` of its manifest; any other game is drawn by its `text_renderer`
(as `play --plain` draws it), or without one as an outline of its view.
Hooks a board may override, all in words a player reads:

- `describe_move(text)`: a move the move log does not tell (Time Attack's clock), for
  the replay's list (no tile ids or action numbers);
- `explain_illegal(text, error)`: why a move chosen on the board is not legal;
- `list_moves(legal)`: what the optional "all moves" panel may list;
- `focus_target()`: the widget that takes the keyboard when a turn starts;
- `variant_of(view)`: the name high scores are kept under (a layout, a mode);
- `variant_words(variant)`: that name as the reader reads it (it is stored in English);
- `keys_help()`: the board's own keys, for the help screen;
- `taught`: the words of what a tutorial step points at (see `play/tutorial.py`),
  lit with the class `taught`; `focus_target` gives the keyboard to the first lit
  (the lit button of the step's move before anything else).

Every word a board draws goes through the message catalogue (`_()` from
`pyramids.play.i18n`) when it is drawn, so it is in the language of the run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.dom import DOMNode
from textual.geometry import Region
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from pyramids.core import companion_of
from pyramids.play.i18n import _
from pyramids.play.movelog import Words as LogWords
from pyramids.play.render import no_drawing, render_view

PLAYER_NUMBER = re.compile(r"\bplayer (\d+)")


class Board(Vertical):
    """Draws a view. Subclasses override `compose_view`; `choose` sends an action string."""

    DEFAULT_CSS = """
    Board { height: auto; width: 100%; }
    Grid.plain-moves { grid-size: 4; grid-gutter: 0 1; height: auto; }
    """
    # The arrows walk the board's choices, its buttons too (Temple's Summon and Pass): on
    # a button they did nothing, so Enter played the button left focused. Left and right
    # go to the previous and next choice as Tab does; up and down to the nearest choice
    # above or below, as Mahjongg's cursor does. None of them leaves the board: at its
    # first or last choice, or with nothing above or below, the keyboard stays (Up from
    # Temple's first swap-zone slot went to the move box). A widget with arrows of its
    # own (Mahjongg's tiles) keeps them.
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("right", "step_focus(1)", show=False),
        Binding("left", "step_focus(-1)", show=False),
        Binding("down", "vertical_focus(1)", show=False),
        Binding("up", "vertical_focus(-1)", show=False),
    ]

    class Redrawn(Message):
        """The board was drawn anew (its old widgets, and the keyboard focus, are gone)."""

        def __init__(self, had_focus: bool) -> None:
            super().__init__()
            self.had_focus = had_focus

    class Chosen(Message):
        """A move chosen on the board, as an action string."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def keys_help(self) -> str:
        """The board's own keys for the help screen (Markdown, in the run's language)."""
        return ""

    def __init__(self, game: str, options: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        #: The game's options (public: costs of favors and the like).
        self.options: dict[str, Any] = dict(options or {})
        self.view: dict[str, Any] = {}
        self.legal: list[str] = []
        self.seat: int | None = None
        self.interactive = False
        #: What a tutorial step points at, in its words: `F7`, `hand:28`, `tile:19`.
        self.taught: tuple[str, ...] = ()
        #: The next `show` draws everything anew (a board that updates in place).
        self.drawn_whole_next = False
        #: The seats' names as the move log says them (`Session.log_names`): a bot by its
        #: level, "Easy (bot)"; a person's seat has none (it reads "you" or its number).
        self.names: Mapping[int, str | LogWords] = {}
        self.on_new_view()

    def seat_name(self, seat: int) -> str | None:
        """The move log's name for `seat` ("Easy (bot)"), in the reader's language; None
        for a person's seat."""
        name = self.names.get(seat)
        return name.text() if isinstance(name, LogWords) else name

    def seat_words(self, seat: int) -> str:
        """A seat in the board's lines as the move log names it: a bot by its name
        ("Greedy rule (bot)"), the reader's own seat "seat 1 (you)", another person's
        by its number, "seat 2" (people at one keyboard have no other names)."""
        if seat == self.seat:
            return _("seat {number} (you)", number=seat + 1)
        return self.seat_name(seat) or _("seat {number}", number=seat + 1)

    def show(
        self, view: dict[str, Any], legal: list[str], seat: int | None, interactive: bool
    ) -> None:
        """Draw `view` for `seat`; `legal` are the moves a click may choose when interactive."""
        self.view = view
        self.legal = legal if interactive else []
        self.seat = seat
        self.interactive = interactive
        had_focus = self.is_attached and self.has_focus_within
        if had_focus:
            # The widget with the keyboard goes with the old drawing: Textual gave the
            # keyboard to the next thing that takes it, the move box, and there it stayed
            # (the app leaves a person who types alone), so a keyboard player found the
            # arrows dead after a bot's turn. Nobody has it until the board is drawn.
            self.app.set_focus(None)
        self.let_the_old_drawing_go()
        self.on_new_view()
        self.refresh(recompose=True)
        self.call_after_refresh(self.post_message, self.Redrawn(had_focus))

    @property
    def redrawing(self) -> bool:
        """A drawing anew asked for and not yet made: its `Redrawn` is still to come."""
        # Textual's own flag (private): read with a default, so a Textual without it
        # means "no drawing pending" rather than an error.
        return bool(getattr(self, "_recompose_required", False))

    def let_the_old_drawing_go(self) -> None:
        """Before drawing anew: the old drawing's widgets take the keyboard no more. A
        focus() asked of one just before (the app's, Textual applies it a moment later)
        gave it the keyboard as it went, and Textual handed the keyboard on to the last
        thing in the Tab order, the move box, where the app left it (after Play again
        in a 5-seat Temple game, about one run in three on a busy machine)."""
        for widget in self.query("*"):
            widget.can_focus = False

    def on_new_view(self) -> None:
        """Reset per-turn selections; called before each redraw for a new view."""

    # ----- the arrow keys -----

    def choices(self) -> list[Widget]:
        """What can take the keyboard on the board, in Tab's order."""
        return [widget for widget in self.screen.focus_chain if self in widget.ancestors]

    def action_step_focus(self, step: int) -> None:
        """Left and right: the previous or next choice on the board, as Tab goes."""
        choices = self.choices()
        focused = self.app.focused
        if focused not in choices:
            return
        index = choices.index(focused) + step
        if 0 <= index < len(choices):
            choices[index].focus()

    def action_vertical_focus(self, step: int) -> None:
        """Up and down: the nearest choice above or below (the nearest line first, then
        the nearest across), or none: the keyboard stays."""
        choices = self.choices()
        focused = self.app.focused
        if focused not in choices:
            return
        here = self.place_of(focused)
        best: tuple[tuple[int, float], Widget] | None = None
        for widget in choices:
            there = self.place_of(widget)
            gap = there.y - here.bottom if step > 0 else here.y - there.bottom
            if widget is focused or gap < 0:
                continue
            across = abs((there.x + there.width / 2) - (here.x + here.width / 2))
            if best is None or (gap, across) < best[0]:
                best = ((gap, across), widget)
        if best is not None:
            best[1].focus()

    def place_of(self, widget: Widget) -> Region:
        """Where `widget` lies on the board (scrolled out of sight or not)."""
        region = widget.virtual_region
        x, y = region.x, region.y
        node = widget.parent
        while isinstance(node, Widget) and node is not self:
            x, y = x + node.virtual_region.x, y + node.virtual_region.y
            node = node.parent
        return Region(x, y, region.width, region.height)

    # ----- the part of the board in sight -----

    def sight_width(self) -> int:
        """The width of the part of the board in sight: its scrolling area's, less a
        scrollbar. A board wider than the screen (Pacal's pyramids, a wide Mahjongg
        monument at 60 columns) scrolls sideways, and its lines of words fit this."""
        area = self.parent
        return area.scrollable_content_region.width if isinstance(area, Widget) else 0

    def follow_sight(self) -> None:
        """Fit the board again (`fit_to_sight`) after each layout of the screen: a
        terminal that widens or narrows may leave a board wider than the screen as wide
        as it was, and send it no resize of its own. Called on mount by a board whose
        lines follow the width in sight; `fit_to_sight` does nothing where that width
        has not changed, so a layout it causes ends there."""
        self.screen.screen_layout_refresh_signal.subscribe(self, self._after_layout)

    def _after_layout(self, _screen: object) -> None:
        self.fit_to_sight()

    def fit_to_sight(self, force: bool = False) -> None:
        """Fit what is drawn to the part of the board in sight, where that changed since
        the last fit (or always, `force`: the board was drawn anew)."""

    def new_options(self, options: dict[str, Any]) -> None:
        """A new game on this board widget with `options` (the options screen's): the
        board draws from them (favor costs, the turn order), so the next view is drawn
        whole, not updated in place from the last game's."""
        self.options = dict(options)
        self.drawn_whole_next = True

    def compose(self) -> ComposeResult:
        if not self.view:
            yield Static("")
            return
        yield from self.compose_view()

    def compose_view(self) -> ComposeResult:
        # A game without a board of its own is drawn as its plain-text player draws it
        # (its manifest's `text_renderer`); without one, words say it has no drawing
        # (its view's fields are internal keys), and its moves are buttons in words.
        if companion_of(self.game, "text_renderer") is not None:
            yield Static(render_view(self.game, self.view), classes="outline", markup=False)
            return
        yield Static(no_drawing(self.game), classes="no-drawing", markup=False)
        if self.legal:
            yield Static(_("Your moves:"), markup=False)
            with Grid(classes="plain-moves"):
                for text in self.legal:
                    yield MoveButton(text)

    def choose(self, text: str) -> None:
        self.post_message(self.Chosen(text))

    def redraw_keeping_focus(self) -> None:
        """Recompose, then give the keyboard back to the widget of the same id."""
        focused = self.app.focused
        focused_id = focused.id if focused is not None else None
        self.refresh(recompose=True)

        def refocus() -> None:
            if focused_id:
                for widget in self.query(f"#{focused_id}"):
                    if widget.focusable:
                        widget.focus()
                        return
            target = self.focus_target()
            if target is not None:
                target.focus()

        self.call_after_refresh(refocus)

    def refused(self) -> None:
        """The app refused the move this board chose: drop what the choice left drawn."""

    def describe_move(self, text: str) -> str:
        return text

    def explain_illegal(self, text: str, error: str) -> str:
        """The engine's reason, with its players (counted from 0) as seats from 1."""
        return PLAYER_NUMBER.sub(
            lambda match: _("seat {number}", number=int(match.group(1)) + 1), error
        )

    def list_moves(self, legal: list[str]) -> list[str]:
        return legal

    def turn_hint(self) -> str:
        """What the person to move does now, in a line beside the board (the board's
        own instructions may be scrolled out of sight); '' when the board says enough."""
        return ""

    #: True for a board that scrolls to what its keys act on itself (Mahjongg's cursor):
    #: the app then leaves the board where it is when the board takes the keyboard.
    keeps_its_sight = False

    def show_cursor(self) -> None:
        """Scroll the board back to where its keys act (the person pressed Escape to
        come back to it); a board whose choices `focus_target` brings into sight
        need do nothing."""

    def taught_target(self) -> Widget | None:
        """What a tutorial step points at that can take the keyboard: the lit button of
        its move (`button:pass`) before any other lit thing; None where nothing is lit.
        The keyboard went to the first button (Temple's Summon) while the step said Pass."""
        lit = [widget for widget in self.query(".taught") if widget.focusable]
        buttons = [widget for widget in lit if isinstance(widget, Button)]
        return (buttons or lit or [None])[0]

    def focus_target(self) -> Widget | None:
        """What a tutorial step points at, else the first thing on the board a key can
        act on."""
        taught = self.taught_target()
        if taught is not None:
            return taught
        for widget in self.query("*"):
            if widget.focusable:
                return widget
        return None

    @staticmethod
    def variant_of(view: dict[str, Any]) -> str:
        return ""

    @staticmethod
    def variant_words(variant: str) -> str:
        return variant

    def interlude(self, before: dict[str, Any], after: dict[str, Any],
                  lines: list[str]) -> str | None:
        """What to show, and wait for, between two parts of a game (a round that just
        ended, whose board the next one clears); None: play straight on. `lines` are the
        move's words in the log."""
        return None

    @staticmethod
    def score_words(score: float) -> str:
        """A one-player game's score as the player reads it ("14 draws", "2,350 points")."""
        return f"{score:g}"


#: The class of a screen that hides the whole board (the help, the game menu and what it
#: opens): drawn opaque, and a timed game's clock stops under it (`PlayApp`), since
#: nobody can think over a board out of sight. A dialog that leaves the board in
#: sight (the question before quitting) has no such class: the clock runs on.
HIDES_BOARD = "hides-board"


def translate_bindings(node: DOMNode, labels: dict[str, str]) -> None:
    """Give `node`'s keys their words in the language of this run, by action.

    `BINDINGS` are made when the module is imported, before `--lang` is known,
    so their descriptions are replaced here, per widget, when it is made.
    """
    bindings = node._bindings.key_to_bindings
    for key, found in bindings.items():
        bindings[key] = [
            replace(binding, description=labels[binding.action])
            if binding.action in labels else binding
            for binding in found
        ]


def update_static(widget: Static, text: str) -> None:
    """Update a line of text only when it changed, and without a new layout when its
    size stays (a layout of the whole screen is what makes a big board slow)."""
    old = getattr(widget, "shown_text", None)
    if old == text:
        return
    width = widget.content_region.width
    same_size = (
        isinstance(old, str)
        and old.count("\n") == text.count("\n")
        and bool(old) == bool(text)
        and width > 0
        and all(len(line) < width for line in text.split("\n"))
        and all(len(line) < width for line in old.split("\n"))
    )
    widget.shown_text = text  # type: ignore[attr-defined]
    widget.update(text, layout=not same_size)


class CardRow(Grid):
    """A row of equal cells that wraps onto more lines when the board is narrow.

    (Textual has no flex wrap: the columns are counted from the width on resize.)
    """

    DEFAULT_CSS = """
    CardRow { height: auto; width: 100%; grid-gutter: 0 0; }
    """

    def __init__(self, cell_width: int, count: int, cell_height: int = 3, **kwargs: Any):
        super().__init__(**kwargs)
        self.cell_width = cell_width
        self.count = max(1, count)
        self.styles.grid_size_columns = self.count
        self.styles.grid_columns = str(cell_width)
        self.styles.grid_rows = str(cell_height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        columns = max(1, min(self.count, width // self.cell_width))
        if columns != self.styles.grid_size_columns:
            self.styles.grid_size_columns = columns
        # The cells in the middle of the row, under their title and the board drawn
        # above them (at 200x60 a hand, a swap zone, a drawn card stood at the far left).
        indent = max(0, (width - columns * self.cell_width) // 2)
        if self.styles.padding.left != indent:
            self.styles.padding = (0, 0, 0, indent)

    def set_cell(self, width: int, height: int) -> None:
        """Another cell size (a board drawn compactly), the columns counted again."""
        self.cell_width = width
        self.styles.grid_columns = str(width)
        self.styles.grid_rows = str(height)
        if self.size.width:
            self._fit(self.size.width)


class Pickable(Static):
    """A card, field or slot that a click, or Enter/Space while focused, chooses.

    Focusable only while choosing it can do something, so Tab walks the choices
    that are open now.
    """

    BINDINGS = [
        Binding("enter", "key_pick('enter')", "Choose", show=False),
        Binding("space", "key_pick('space')", "Choose", show=False),
        # The arrows walk the open choices: the board's keys (`Board.action_step_focus`).
    ]
    # Reverse video alone shows nothing on a cell without text (an empty field): the
    # background and border say where the keyboard is too.
    DEFAULT_CSS = """
    Pickable:focus { text-style: bold reverse; background: $accent 60%; }
    """

    def __init__(self, *args: Any, active: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.can_focus = active

    def on_click(self) -> None:
        self.action_pick()

    def action_key_pick(self, key: str) -> None:
        if not continues_typed_move(self, key):
            self.action_pick()

    def action_pick(self) -> None:
        """What choosing this does; subclasses say."""

    def owner_board(self) -> Board | None:
        for ancestor in self.ancestors:
            if isinstance(ancestor, Board):
                return ancestor
        return None


def continues_typed_move(widget: Widget, key: str) -> bool:
    """Whether `key`, pressed on the board, belongs to a move being typed: the first
    letters went to the move box, and keys that come faster than the keyboard moves
    there (a pasted move) reach the board still. Then it goes to the box too (Enter
    plays the move) instead of choosing what the board has in focus."""
    handler = getattr(widget.app, "continue_typed_move", None)
    return bool(handler is not None and handler(key))


class MoveButton(Button):
    """One legal move of a game without a drawing, named by its move's words: pressing
    it chooses the move, as a click on a board does."""

    DEFAULT_CSS = "MoveButton { width: 100%; }"

    def __init__(self, move: str) -> None:
        super().__init__(Content(move), compact=True)
        self.move = move

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        board = next((node for node in self.ancestors if isinstance(node, Board)), None)
        if board is not None:
            board.choose(self.move)


def board_class(game: str) -> type[Board]:
    board: type[Board] | None = companion_of(game, "terminal_board")
    return board or Board
