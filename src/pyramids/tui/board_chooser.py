"""The terminal app's board chooser: the shipped boards in a list, the highlighted one
drawn as text beside it (`pyramids.play.boards.text_preview`: the number of tiles
stacked on each half-tile cell, `C` where a capstone is on top), with its tier,
tile count and description. Enter plays the board with a new deal; Escape goes back.

Also the game number of a one-player game on a shipped board, for the title bar
(`game_number_text`), and the game-menu entries that lead here (`board_menu_choices`).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from pyramids.core import Game
from pyramids.play.boards import (
    BoardError,
    board_option,
    game_number_of,
    parse_game_number,
    text_preview,
)
from pyramids.play.i18n import _, ngettext, words_text
from pyramids.tui.board import HIDES_BOARD, translate_bindings


def board_menu_choices(game: Game) -> tuple[tuple[str, str], ...]:
    """The game menu's entries for a game with boards (none for the others)."""
    if board_option(game) is None:
        return ()
    return (("board", _("Choose a board")), ("number", _("Play a game number")))


def game_number_text(game: Game, seed: Any) -> str | None:
    """`game number turtle-4821` for a game a game number describes, else None."""
    number = game_number_of(game, seed)
    return None if number is None else _("game number {number}", number=str(number))


def board_facts(entry: dict[str, Any]) -> str:
    facts = [
        ngettext("{count} tile", "{count} tiles", entry["tiles"]),
        ngettext("{count} layer", "{count} layers", entry["layers"]),
    ]
    minutes = entry["figures"].get("estimated_minutes")
    if minutes:
        facts.append(_("about {minutes} min", minutes=round(minutes)))
    if entry["tier"]:
        facts.insert(0, _("tier: {tier}", tier=_(entry["tier"])))
    return " · ".join(facts)


def measured_lines(figures: dict[str, Any], alone: bool = True) -> list[str]:
    """The measured figures in words (none when the board was not measured). The bots'
    clear rates were measured alone: at a table (`alone` false) they are left out."""
    lines = []
    if "unsolvable_share" in figures:
        # The game deals only boards that can be cleared (unless deal=random): say so,
        # or "no way to clear: 100%" beside "bots clear it" reads as a contradiction.
        lines.append(_("Deals made at random that cannot be cleared: {share}% (you get only "
                       "deals that can, unless you choose random deals)",
                       share=round(100 * figures["unsolvable_share"])))
    rates = {level: figures.get(f"clear_rate_{level}")
             for level in ("easy", "medium", "hard", "expert")}
    if alone and all(rate is not None for rate in rates.values()):
        lines.append(_(
            "Bots clear its deals: easy {easy}%, medium {medium}%, hard {hard}%, "
            "expert {expert}%",
            **{level: round(100 * rate) for level, rate in rates.items() if rate is not None}))
    return lines


def board_card(entry: dict[str, Any], alone: bool = True) -> str:
    """The board as the preview shows it: title, facts, description, picture, key."""
    lines = [_(entry["title"]), board_facts(entry)]
    if entry["description"]:
        lines.append(_(entry["description"]))
    lines += measured_lines(entry["figures"], alone)
    lines += ["", *text_preview(entry), "",
              _("Digits: tiles stacked there. C: a capstone on top. Dots: no tile.")]
    return "\n".join(lines)


class BoardChooserScreen(ModalScreen[str | None]):
    """Choose a board: answers its name, or None."""

    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    BoardChooserScreen { align: center middle; }
    BoardChooserScreen > Vertical { width: 95%; height: 90%; border: thick $accent;
                                    background: $panel; padding: 0 1; }
    BoardChooserScreen Horizontal { height: 1fr; }
    BoardChooserScreen #board-list { width: 40; max-width: 45%; height: 1fr; }
    BoardChooserScreen #board-preview { width: 1fr; height: 1fr; padding: 0 1;
                                        overflow-y: auto; }
    """

    def __init__(self, boards: list[dict[str, Any]], current: str | None = None,
                 alone: bool = True) -> None:
        super().__init__(classes=HIDES_BOARD)
        translate_bindings(self, {"back": _("Back")})
        self.boards = boards
        self.current = current
        self.alone = alone  # one player: the bots' clear rates (measured alone) apply

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Choose a board (Enter plays it with a new deal, Escape goes "
                           "back)"), id="board-question")
            with Horizontal():
                yield OptionList(
                    *[Option(f"{_(entry['title'])} · {board_facts(entry)}", id=entry["name"])
                      for entry in self.boards],
                    id="board-list",
                )
                yield Static("", id="board-preview")
        yield Footer()  # Back, which a click presses: a mouse alone had no way back

    def on_click(self, event: events.Click) -> None:
        """A click beside the chooser (on the dimmed game) goes back, as Escape does."""
        if event.widget is self:
            self.dismiss(None)

    def on_mount(self) -> None:
        options = self.query_one("#board-list", OptionList)
        names = [entry["name"] for entry in self.boards]
        options.highlighted = names.index(self.current) if self.current in names else 0
        options.focus()
        self._show(options.highlighted or 0)

    def _show(self, index: int) -> None:
        if 0 <= index < len(self.boards):
            self.query_one("#board-preview", Static).update(
                board_card(self.boards[index], self.alone))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_back(self) -> None:
        self.dismiss(None)


class GameNumberScreen(ModalScreen[str | None]):
    """Type a game number: answers it once it reads, or None; a bad one is explained."""

    AUTO_FOCUS = "#number-input"  # typing goes straight into the box
    BINDINGS = [Binding("escape", "back", "Back")]
    DEFAULT_CSS = """
    GameNumberScreen { align: center middle; }
    GameNumberScreen > Vertical { width: 70; max-width: 95%; height: auto;
                                  border: thick $accent; background: $panel; padding: 0 1; }
    GameNumberScreen #number-error { color: $error; height: auto; }
    """

    def __init__(self, game_name: str) -> None:
        super().__init__(classes=HIDES_BOARD)
        translate_bindings(self, {"back": _("Back")})
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("A game number is a board and a deal, like turtle-4821. "
                           "Type one and press Enter (Escape goes back)."))
            yield Input(placeholder=_("game number"), id="number-input")
            yield Static("", id="number-error")
        yield Footer()  # Back, which a click presses: a mouse alone had no way back

    def on_click(self, event: events.Click) -> None:
        """A click beside the box (on the dimmed game) goes back, as Escape does."""
        if event.widget is self:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            number = parse_game_number(self.game_name, event.value)
        except BoardError as error:
            self.query_one("#number-error", Static).update(words_text(error))
            return
        self.dismiss(str(number))

    def action_back(self) -> None:
        self.dismiss(None)
