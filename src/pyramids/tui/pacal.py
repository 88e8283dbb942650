"""Pacal and Pacal solo on screen: the pyramids drawn as pyramids, the hand, the offer.

A field shows its number (in its border) and visible card; a closed field has
a heavy border and also shows the card it covers, dimmed, after a slash. The
fields where the card in play may go are highlighted, and choosing one places
it. In the offer phase choosing a hand card selects it; the second selected
card makes the offer. In the pick phase choosing an offered card picks it.
"Choosing" is a click, or Tab to the card or field and Enter/Space: only what
can be chosen now takes the keyboard. The two apex cards revealed to decide
who starts the round are shown above the pyramids.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.widgets import Button, Static

from pyramids.play.i18n import _, ngettext
from pyramids.play.text.pacal import pacal_pyramid_lines
from pyramids.tui.board import Board, CardRow, Pickable

CARD_WIDTH = 5
# Drawn compactly a card is its value and a space: a 15-card hand fits one row at 80x24.
COMPACT_CARD = (3, 1)
# Screens shorter than this draw the pyramids and cards compactly.
COMPACT_BELOW = 34


class FieldCell(Pickable):
    """One pyramid field; choosing a legal field places the card in play."""

    def __init__(
        self, number: int, cards: list[int], legal: bool, mine: bool, taught: bool = False,
        **kwargs: Any,
    ):
        classes = "field " + ("closed" if len(cards) == 2 else "open" if cards else "empty")
        if legal:
            classes += " legal"
        if taught:
            classes += " taught"
        super().__init__(
            self.label(cards), classes=classes, active=legal and mine, **kwargs
        )
        self.border_title = f"F{number}"
        self.number = number
        self.legal = legal and mine

    @staticmethod
    def label(cards: list[int]) -> str:
        """The visible card; a closed field adds the card it covers after a slash."""
        if not cards:
            return ""
        if len(cards) == 1:
            return f"[b]{cards[0]}[/]"
        return f"[b]{cards[1]}[/] [dim]/{cards[0]}[/]"

    def action_pick(self) -> None:
        board = self.owner_board()
        if board is not None and self.legal:
            board.choose(f"place F{self.number}")


class CardCell(Pickable):
    """A card in the hand or the offer; what choosing it does depends on the phase."""

    def __init__(
        self, value: int, role: str, selected: bool = False, active: bool = False,
        taught: bool = False, **kwargs: Any,
    ):
        classes = f"card {role}" + (" selected" if selected else "") + (
            " taught" if taught else "")
        super().__init__(f"[b]{value}[/]", classes=classes, active=active, **kwargs)
        self.value = value
        self.role = role

    def action_pick(self) -> None:
        board = self.owner_board()
        if isinstance(board, PacalBoard):
            board.card_clicked(self.value, self.role)


def phase_words(phase: str) -> str:
    """The phase of a Pacal round as a player reads it."""
    words = {
        "offer": _("phase: offer"),
        "pick": _("phase: pick"),
        "place": _("phase: place"),
        "last_card": _("phase: last card"),
        "over": _("phase: over"),
    }
    return words.get(phase, _("phase: {name}", name=phase.replace("_", " ")))


def pyramid_rows(
    fields: list[list[int]],
    layout: list[list[int]],
    legal: list[int],
    mine: bool,
    prefix: str,
    taught: tuple[str, ...] = (),
) -> ComposeResult:
    rows: dict[int, list[tuple[int, int]]] = {}
    for index, (row, column) in enumerate(layout):
        rows.setdefault(row, []).append((column, index))
    for row in sorted(rows):
        with Horizontal(classes="pyramid-row"):
            for _, index in sorted(rows[row]):
                number = index + 1
                yield FieldCell(
                    number,
                    fields[index],
                    number in legal,
                    mine,
                    taught=f"F{number}" in taught,
                    id=f"{prefix}-f{number}",
                )


class PacalBoard(Board):
    def keys_help(self) -> str:
        return _(
            "- **Pacal**: click a card or field, or Tab to it and press Enter/Space: two hand "
            "cards make an offer, an offered card is picked, a highlighted field takes the "
            "card in play\n"
            "- **spread**: a pyramid's highest visible card minus its lowest; when both "
            "pyramids are completed at once, the smaller spread wins the round"
        )

    def interlude(self, before: dict[str, Any], after: dict[str, Any],
                  lines: list[str]) -> str | None:
        """A round that ended with the match going on: the next deal clears both
        pyramids at once, so the player sees how the round ended, and both pyramids as
        they were, before it starts."""
        last = after.get("last_round")
        if not isinstance(last, dict) or after.get("phase") == "over" or "pyramids" not in last:
            return None
        seen = before.get("last_round")
        if isinstance(seen, dict) and seen.get("round") == last.get("round"):
            return None
        viewer = after.get("viewer")
        parts = [line for line in lines if line]
        for seat in ([1 - viewer, viewer] if viewer is not None else [0, 1]):
            name = self.seat_name(seat)
            title = (_("Seat {number} (you)", number=seat + 1) if seat == viewer
                     else name or _("Seat {number}", number=seat + 1))
            parts.append("")
            parts.append(_("{seat}: spread {spread}", seat=title, spread=last["spreads"][seat]))
            parts.extend(pacal_pyramid_lines(last["pyramids"][seat], after["layout"]))
        return escape("\n".join(parts))  # shown as text: brackets are not markup

    @staticmethod
    def score_words(score: float) -> str:
        """Pacal solo scores the cards drawn to complete the pyramid (fewer is better)."""
        return ngettext("{count} draw", "{count} draws", int(score))

    @property
    def LOWER_SCORE_IS_BETTER(self) -> bool:  # noqa: N802 - read like the class constant
        """Solo scores count draws: fewer is better."""
        return self.solo

    # As wide as a pyramid's base (four fields and their gaps) at least: on a narrower
    # screen (60 columns) the board scrolls sideways, where F10 was cut off unreachable.
    DEFAULT_CSS = """
    PacalBoard { min-width: 44; }
    PacalBoard .pyramid-row { height: 3; align: center top; width: 100%; }
    PacalBoard .field { width: 10; height: 3; border: round $panel-lighten-2;
                        border-title-align: left; content-align: center middle;
                        text-align: center; margin: 0 1 0 0; }
    PacalBoard .field.open { border: round $secondary; }
    PacalBoard .field.closed { border: heavy $primary; background: $boost; }
    PacalBoard .field.legal { border: double $success; background: $success 20%; }
    PacalBoard .title { height: auto; width: 100%; text-align: center; text-style: bold; }
    PacalBoard .info { height: auto; width: 100%; text-align: center; }
    PacalBoard .cards { height: auto; width: 100%; }
    PacalBoard .card { width: 5; height: 3; border: round $secondary; text-align: center;
                       content-align: center middle; }
    PacalBoard .card.offer { border: round $warning; }
    PacalBoard .card.pickable { border: double $success; }
    PacalBoard .card.selected { border: double $success; background: $success 30%; }
    PacalBoard .card.to-place { border: double $warning; background: $warning 20%; }
    PacalBoard #decline { margin: 0 0; min-width: 10; column-span: 2; }
    PacalBoard .field.taught, PacalBoard .card.taught { border: double $accent;
                                                         background: $accent 40%; }
    PacalBoard .field:focus, PacalBoard .field.legal:focus, PacalBoard .card:focus,
    PacalBoard .card.pickable:focus, PacalBoard .card.selected:focus {
        border: heavy $accent; background: $accent 60%; }
    PacalBoard.compact .pyramid-row { height: 2; }
    PacalBoard.compact .field, PacalBoard.compact .field.open, PacalBoard.compact .field.closed,
    PacalBoard.compact .field.legal, PacalBoard.compact .field.taught,
    PacalBoard.compact .field:focus, PacalBoard.compact .field.legal:focus {
        height: 2; border-left: none; border-right: none; border-bottom: none; }
    PacalBoard.compact .field.legal { background: $success 30%; }
    PacalBoard.compact .field:focus, PacalBoard.compact .field.legal:focus {
        background: $accent 70%; }
    PacalBoard.compact .card, PacalBoard.compact .card.offer, PacalBoard.compact .card.pickable,
    PacalBoard.compact .card.selected, PacalBoard.compact .card.to-place,
    PacalBoard.compact .card.taught, PacalBoard.compact .card:focus {
        height: 1; border: none; margin: 0 1 0 0; width: 2; background: $boost; }
    PacalBoard.compact #decline { column-span: 4; }
    PacalBoard.compact #no-offer { display: none; }
    PacalBoard .short { display: none; }
    PacalBoard.compact .short { display: block; }
    PacalBoard.compact .wide { display: none; }
    /* The offer's cards under the pyramids' middle, as at 80x24 (at 200x60 they stood
       at the far left, under a title in the middle). */
    PacalBoard .offer-line { height: auto; width: 100%; layout: vertical; }
    PacalBoard .offer-cards { height: auto; width: 100%; align-horizontal: center; }
    PacalBoard .offer-cards > .cards { width: auto; }
    PacalBoard.compact .offer-line { layout: horizontal; align-horizontal: center; }
    PacalBoard.compact .offer-line > .title { width: auto; margin: 0 1 0 0; }
    PacalBoard.compact .offer-line > .offer-cards { width: auto; }
    PacalBoard.compact .card.pickable { background: $success 30%; }
    /* Drawn without borders a card's state is not its colour alone (NO_COLOR, a
       colour-blind player): a chosen card is underlined, the one under the cursor is
       drawn reversed. */
    PacalBoard.compact .card.selected { background: $success 60%; text-style: bold underline; }
    PacalBoard.compact .card:focus, PacalBoard.compact .card.pickable:focus {
        text-style: bold reverse; }
    PacalBoard.compact .card.selected:focus { text-style: bold reverse underline; }
    PacalBoard.compact .card.to-place { background: $warning 40%; }
    PacalBoard.compact .card:focus { background: $accent 70%; }
    """

    def on_resize(self, event: events.Resize) -> None:
        # On a short terminal (80x24) both pyramids and the hand must fit: fields lose
        # their side and bottom lines (the top one keeps the field's number), cards
        # their borders.
        self.set_class(self.app.size.height < COMPACT_BELOW, "compact")
        for row in self.query(CardRow):
            row.set_cell(*self.card_cell)
        self.fit_to_sight()

    def on_mount(self) -> None:
        # A wider terminal may leave the board as wide as it was (the pyramids' width)
        # and send it no resize: the lines are fitted again after each layout.
        self.follow_sight()

    async def recompose(self) -> None:
        await super().recompose()
        self.fit_to_sight(force=True)

    def fit_to_sight(self, force: bool = False) -> None:
        """The lines of words and the rows of cards as wide as the part of the board in
        sight: where the pyramids are wider than the screen (60 columns) the board scrolls
        sideways, and a line laid out on the pyramids' width was cut at the screen's edge
        ("Round 1 · first to 3 · round win"). The pyramids alone keep their width."""
        sight = self.sight_width()
        width = sight if 0 < sight < self.size.width else None
        if width == getattr(self, "lines_width", None) and not force:
            return  # as they are: no new layout
        self.lines_width = width
        for child in self.children:
            if not child.has_class("pyramid-row"):
                child.styles.width = width

    @property
    def card_cell(self) -> tuple[int, int]:
        """A card's cell in the rows of cards: (width, height)."""
        return COMPACT_CARD if self.has_class("compact") else (CARD_WIDTH, 3)

    def on_new_view(self) -> None:
        self.selected: list[int] = []

    @property
    def solo(self) -> bool:
        return "pyramid" in self.view

    def compose_view(self) -> ComposeResult:
        if self.solo:
            yield from self._compose_solo()
        else:
            yield from self._compose_match()

    # ----- the match -----

    def _compose_match(self) -> ComposeResult:
        view = self.view
        viewer = view["viewer"]
        wins = view["round_wins"]
        legal_fields = view.get("legal_fields") or [] if self.interactive else []
        # Each line above the pyramids also comes short, on one line, for a short screen
        # (80x24), where the two lines each took cut the opening view.
        # Seats by the names the rest of the screen gives them: a bot as the move log
        # names it, "Easy (bot)"; a person by the seat's number.
        first_seat, second_seat = (self._seat_words(seat) for seat in (0, 1))
        yield Static(
            _(
                "Round {round} · first to {target} · round wins: {first_seat} [b]{first}[/] "
                "– {second_seat} [b]{second}[/] · {phase}",
                round=view["round"], target=view["rounds_to_win"], first=wins[0],
                second=wins[1], phase=phase_words(view["phase"]), first_seat=first_seat,
                second_seat=second_seat,
            ),
            classes="info wide",
            id="score",
        )
        # The short lines (80x24) have 50 columns: seats by their numbers, as names
        # ("Random moves (bot)") would wrap them and push the hand out of sight.
        yield Static(
            _("Round {round} · first to {target} wins · seat 1: [b]{first}[/], "
              "seat 2: [b]{second}[/]", round=view["round"], target=view["rounds_to_win"],
              first=wins[0], second=wins[1]),
            classes="info short",
            id="score-short",
        )
        apex = view.get("revealed_apex_bases")
        # Who starts matters as the round opens; short, it gives its row to the offer.
        opening = view["phase"] in ("offer", "pick") and not any(
            cards for pyramid in view["pyramids"] for cards in pyramid)
        if apex:
            starter = self._seat_words(view["starting_player"])
            yield Static(
                _(
                    "Apex cards revealed to decide who starts: {first_seat} [b]{first}[/], "
                    "{second_seat} [b]{second}[/] · {starter} starts",
                    first=apex[0], second=apex[1], first_seat=first_seat,
                    second_seat=second_seat, starter=starter,
                ),
                classes="info wide",
                id="apex",
            )
            if opening:
                yield Static(
                    _("Apex cards: seat 1 [b]{first}[/], seat 2 [b]{second}[/] · seat "
                      "{number} starts", first=apex[0], second=apex[1],
                      number=view["starting_player"] + 1),
                    classes="info short",
                    id="apex-short",
                )
        order = [1, 0] if viewer is None else [1 - viewer, viewer]
        for seat in order:
            mine = seat == viewer
            values = {
                "number": seat + 1, "spread": view["spreads"][seat],
                "hand": view["hand_sizes"][seat],
            }
            name = self.seat_name(seat)
            if mine:
                title = _("Seat {number} (you) · spread {spread} · {hand} in hand", **values)
            elif name:
                # A bot by the name the move log gives it, "Easy (bot)", not its seat.
                title = _("{name} · spread {spread} · {hand} in hand", name=name, **values)
            elif viewer is not None:
                title = _("Seat {number} (opponent) · spread {spread} · {hand} in hand",
                          **values)
            else:
                title = _("Seat {number} · spread {spread} · {hand} in hand", **values)
            yield Static(title, classes="title")
            yield from pyramid_rows(
                view["pyramids"][seat],
                view["layout"],
                legal_fields if mine else [],
                mine and self.interactive,
                f"p{seat}",
                self.taught if mine else (),
            )
            if seat == order[0]:
                yield from self._compose_offer()
        if viewer is not None:
            yield from self._compose_hand()
        last = view.get("last_round")
        if isinstance(last, dict) and last.get("winner") is not None:
            # Short screens leave it to the round wins above the pyramids.
            winner = last["winner"]
            name = self.seat_name(winner)
            said = (_("Last round won by you") if winner == viewer
                    else _("Last round won by {name}", name=name) if name
                    else _("Last round won by seat {number}", number=winner + 1))
            yield Static(said, classes="info wide", id="last-round")

    def _seat_words(self, seat: int) -> str:
        """A seat in the lines above the pyramids, as markup: a bot by the move log's
        name for it ("Easy (bot)"), a person's seat by its number ("seat 1")."""
        name = self.seat_name(seat)
        return escape(name) if name else _("seat {number}", number=seat + 1)

    def _compose_offer(self) -> ComposeResult:
        offer = self.view.get("offer")
        if not offer:
            yield Static("", classes="info", id="no-offer")
            return
        can_pick = any(text.startswith("pick ") for text in self.legal)
        # The title above its cards; short, beside them (one row, not two).
        with Container(classes="offer-line"):
            yield Static(_("Offer: choose the card you take") if can_pick else _("Offer"),
                         classes="title")
            with Horizontal(classes="offer-cards"), CardRow(
                    self.card_cell[0], len(offer), self.card_cell[1], classes="cards"):
                for value in offer:
                    role = "offer pickable" if can_pick else "offer"
                    yield CardCell(value, role, active=can_pick, id=f"offer-{value}",
                                   taught=f"offer:{value}" in self.taught)

    def _compose_hand(self) -> ComposeResult:
        view = self.view
        hand = view.get("hand") or []
        offering = any(text.startswith("offer ") for text in self.legal)
        card = view.get("card_to_place")
        if card is not None and self.interactive and "decline" in self.legal:
            hint = _("Place {card}: choose a highlighted field or decline", card=card)
        elif card is not None and self.interactive:
            hint = _("Place {card}: choose a highlighted field", card=card)
        elif offering:
            hint = _("Your hand: choose two cards to offer them")
        else:
            hint = _("Your hand")
        # Short, a title that only names the hand gives its row to the board.
        yield Static(hint, classes="title" if card is not None or offering else "title wide",
                     id="hand-title")
        count = len(hand) + (1 if card is not None and self.interactive else 0)
        count += 2 if "decline" in self.legal else 0
        with CardRow(self.card_cell[0], count, self.card_cell[1], classes="cards", id="hand"):
            if card is not None and self.interactive:
                yield CardCell(card, "to-place", id="to-place")
            for value in hand:
                yield CardCell(
                    value, "hand", value in self.selected, active=offering,
                    taught=f"hand:{value}" in self.taught, id=f"hand-{value}",
                )
            if "decline" in self.legal:
                yield Button(_("Decline"), id="decline", variant="warning")

    def card_clicked(self, value: int, role: str) -> None:
        if not self.interactive:
            return
        if "offer" in role.split():
            if f"pick {value}" in self.legal:
                self.choose(f"pick {value}")
            return
        if role != "hand" or not any(text.startswith("offer ") for text in self.legal):
            return
        if value in self.selected:
            self.selected.remove(value)
        else:
            self.selected.append(value)
        if len(self.selected) == 2:
            low, high = sorted(self.selected)
            self.selected = []
            self.choose(f"offer {low} {high}")
            return
        self.redraw_keeping_focus()

    def refused(self) -> None:
        """A refused choice (a tutorial wants another) leaves no selection drawn."""
        self.redraw_keeping_focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "decline":
            event.stop()
            self.choose("decline")

    # ----- solo -----

    def _compose_solo(self) -> ComposeResult:
        view = self.view
        legal_fields = view.get("legal_fields") or [] if self.interactive else []
        result = view.get("result")
        values = {"draws": view["draws"], "pile": view["pile_size"], "spread": view["spread"]}
        if result == "won":
            status = _("Draws: [b]{draws}[/] · pile: {pile} · spread {spread} · "
                       "[b]won in {draws} draws[/]", **values)
        elif result == "lost":
            status = _("Draws: [b]{draws}[/] · pile: {pile} · spread {spread} · "
                       "[b]lost[/]: the card fits nowhere", **values)
        else:
            status = _("Draws: [b]{draws}[/] · pile: {pile} · spread {spread}", **values)
        yield Static(status, classes="info", id="score")
        yield from pyramid_rows(
            view["pyramid"], view["layout"], legal_fields, self.interactive, "p0", self.taught
        )
        card = view.get("card")
        if card is not None:
            if self.interactive:
                drawn = _("Card drawn: choose a highlighted field (click, or Tab and Enter)")
            else:
                drawn = _("Card drawn")
            yield Static(drawn, classes="title")
            with CardRow(self.card_cell[0], 1, self.card_cell[1], classes="cards"):
                yield CardCell(card, "to-place", id="to-place")


BOARD = PacalBoard
