"""The part of a screen that draws one game: a `Board` widget per game.

A board sees only what it is given: one seat's view (`state.view(seat)`) and the
legal moves as strings, never the state, so a person is never shown more than
their own view. A click on a card, field or tile posts `Board.Chosen` with an
action string; the app checks it against the rules, so a board never decides
legality itself.

A game gets its own drawing by naming a `Board` subclass as the
`terminal_board` of its manifest; any other game is drawn as an outline of its
view.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from pyramids.core import companion_of
from pyramids.play.render import outline


class Board(Vertical):
    """Draws a view. Subclasses override `compose_view`; `choose` sends an action string."""

    DEFAULT_CSS = """
    Board { height: auto; width: 100%; }
    """

    class Chosen(Message):
        """A move chosen on the board, as an action string."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, game: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.view: dict[str, Any] = {}
        self.legal: list[str] = []
        self.seat: int | None = None
        self.interactive = False
        self.on_new_view()

    def show(
        self, view: dict[str, Any], legal: list[str], seat: int | None, interactive: bool
    ) -> None:
        """Draw `view` for `seat`; `legal` are the moves a click may choose when interactive."""
        self.view = view
        self.legal = legal if interactive else []
        self.seat = seat
        self.interactive = interactive
        self.on_new_view()
        self.refresh(recompose=True)

    def on_new_view(self) -> None:
        """Reset per-turn selections; called before each redraw for a new view."""

    def compose(self) -> ComposeResult:
        if not self.view:
            yield Static("")
            return
        yield from self.compose_view()

    def compose_view(self) -> ComposeResult:
        yield Static(outline(self.view), classes="outline")

    def choose(self, text: str) -> None:
        self.post_message(self.Chosen(text))


def board_class(game: str) -> type[Board]:
    board: type[Board] | None = companion_of(game, "terminal_board")
    return board or Board
