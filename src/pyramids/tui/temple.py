"""Temple of Inscriptions on screen: the nine levels, treasure, hands, swap zone, construction.

The temple is drawn as a stepped pyramid, level 9 on top: built levels are
filled, the level under construction is highlighted with its units set so far.
The table lists every player's treasure, hand size and the cards the table knows
are in that hand. Your hand is shown by kind with counts.

Mouse: in the swap phase click a kind in your hand and a swap-zone slot (either
order) to swap them; every other decision (summon, pass, swap pass, set C J) is a
button.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal
from textual.widgets import Button, Static

from pyramids.play.i18n import _, format_number, ngettext
from pyramids.tui.board import Board, CardRow, Pickable

KIND_WIDTH = 9

LEVELS = 9
KINDS = tuple(f"L{level}" for level in range(1, LEVELS + 1)) + ("J",)


class KindCell(Pickable):
    """A kind of card in your hand (with its count) or a swap-zone slot."""

    def __init__(self, text: str, kind: str | None, slot: int | None, classes: str, **kw: Any):
        super().__init__(text, classes=classes, active="selectable" in classes.split(), **kw)
        self.kind = kind
        self.slot = slot

    def action_pick(self) -> None:
        board = self.owner_board()
        if isinstance(board, TempleBoard):
            board.cell_clicked(self.kind, self.slot)


def describe_set(entry: dict[str, Any], seat: str) -> str:
    """What `seat` (in words) set toward the construction."""
    cards, pairs = int(entry.get("cards") or 0), int(entry.get("jewel_pairs") or 0)
    card_words = ngettext("{count} card", "{count} cards", cards)
    pair_words = ngettext("{count} jewel pair", "{count} jewel pairs", pairs)
    if cards and pairs:
        return _("{seat} set {cards} and {pairs}", seat=seat, cards=card_words,
                 pairs=pair_words)
    if cards or pairs:
        return _("{seat} set {what}", seat=seat, what=card_words if cards else pair_words)
    return _("{seat} set nothing", seat=seat)


def phase_words(phase: str) -> str:
    words = {
        "swap": _("phase: swap"),
        "summon": _("phase: summon"),
        "set": _("phase: set"),
        "over": _("phase: over"),
    }
    return words.get(phase, _("phase: {name}", name=phase))


def button_label(text: str) -> str:
    words = text.split()
    if words[0] == "set":
        cards, pairs = int(words[1]), int(words[2])
        if cards and pairs:
            return _("Set {cards} + {pairs}", cards=ngettext("{count} card", "{count} cards",
                                                             cards),
                     pairs=ngettext("{count} jewel pair", "{count} jewel pairs", pairs))
        if cards:
            return ngettext("Set {count} card", "Set {count} cards", cards)
        if pairs:
            return ngettext("Set {count} jewel pair", "Set {count} jewel pairs", pairs)
        return _("Set nothing")
    labels = {"summon": _("Summon"), "pass": _("Pass"), "swap pass": _("Keep my hand")}
    return labels.get(text, text)


class SeatsTable:
    """Every seat's treasure, hand size and known cards, as a table a column each where
    the board is wide enough, else a seat a line and its counts on the next: squeezed
    into 60 columns the table cut its columns short ("Treas…", "5 ca…") and dropped
    the ▶ of the seat to play and the known cards altogether. Chosen at each drawing,
    so a terminal made narrower or wider is followed."""

    # The least width the known cards' column keeps in the table ("L2×1 J×2" folds).
    KNOWN_WIDTH = 8

    def __init__(self, rows: list[tuple[str, str, str, str, str]]) -> None:
        self.rows = rows

    def headers(self) -> tuple[str, str, str, str, str]:
        return ("", _("Seat"), _("Treasure"), _("Hand"), _("Known"))

    def table_width(self) -> int:
        """The width the table takes with nothing cut: each column its widest cell and a
        space, the known cards' column at least `KNOWN_WIDTH`."""
        columns = list(zip(self.headers(), *self.rows, strict=True))
        widths = [max(cell_len(cell) for cell in column) for column in columns]
        widths[-1] = min(widths[-1], self.KNOWN_WIDTH)
        return sum(widths) + len(widths) - 1

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.table_width() <= options.max_width:
            table = Table(box=None, padding=(0, 1, 0, 0), show_edge=False, pad_edge=False)
            marker, seat, treasure, hand, known = self.headers()
            table.add_column(marker, no_wrap=True)
            table.add_column(seat, no_wrap=True)
            table.add_column(treasure, justify="right", no_wrap=True)
            table.add_column(hand, no_wrap=True)
            # A short header: at 80 columns beside two bots' names, "Known in hand" took
            # three lines.
            table.add_column(known, overflow="fold")
            for row in self.rows:
                table.add_row(*row)
            yield table
            return
        for marker, seat, treasure, hand, known in self.rows:
            yield Padding(Text(seat, overflow="fold"), (0, 0, 0, 2)) if marker == " " \
                else Text(f"{marker} {seat}", overflow="fold")
            yield Padding(Text(_("treasure {treasure}, {cards}, known in hand: {known}",
                                 treasure=treasure, cards=hand, known=known),
                               overflow="fold"), (0, 0, 0, 4))


class TempleBoard(Board):
    def keys_help(self) -> str:
        return _(
            "- **Temple**: in the swap phase choose a kind in your hand and a swap-zone slot "
            "(click, or Tab and Enter); every other decision is a button"
        )

    DEFAULT_CSS = """
    TempleBoard .info { height: auto; width: 100%; text-align: center; }
    TempleBoard .title { height: auto; width: 100%; text-align: center; text-style: bold;
                         margin-top: 1; }
    TempleBoard .level-row { height: 1; width: 100%; align: center top; }
    TempleBoard .level { height: 1; text-align: center; background: $panel; color: $text-muted; }
    TempleBoard .level.built { background: $primary; color: $text; text-style: bold; }
    TempleBoard .level.current { background: $warning 60%; color: $text; text-style: bold; }
    TempleBoard .cards { height: auto; width: 100%; }
    TempleBoard .kind { width: 9; height: 3; border: round $secondary; text-align: center;
                        content-align: center middle; }
    TempleBoard .kind.jewel { border: round $accent; }
    TempleBoard .kind.selectable { border: double $success; }
    /* Chosen is not a colour alone (NO_COLOR, a colour-blind player): underlined. */
    TempleBoard .kind.selected { background: $success 30%; text-style: bold underline; }
    TempleBoard .kind.empty { color: $text-muted; }
    TempleBoard .kind.taught { border: double $accent; background: $accent 40%; }
    TempleBoard .table { height: auto; width: 100%; }
    TempleBoard .buttons { height: auto; width: 100%; layout: grid; grid-size: 3;
                           grid-gutter: 0 1; padding: 0 2; }
    TempleBoard Button { width: 100%; }
    /* A tutorial step's button: lit, and not by colour alone (NO_COLOR). */
    TempleBoard Button.taught { background: $accent 40%; text-style: bold underline; }
    """

    def on_new_view(self) -> None:
        self.selected_kind: str | None = None
        self.selected_slot: int | None = None

    def compose_view(self) -> ComposeResult:
        view = self.view
        construction = view.get("construction")
        level = view.get("level")
        yield Static(
            _(
                "Round {round} · {phase} · start player: {seat} · "
                "levels built: {built}/{levels} · pile: {pile}",
                round=view["round"], phase=phase_words(view["phase"]),
                seat=self.seat_words(view["start_player"]), built=view["built"], levels=LEVELS,
                pile=view["pile_size"],
            ),
            classes="info",
            id="round",
        )
        yield from self._compose_temple(view["built"], level, construction)
        yield from self._compose_construction(construction)
        yield from self._compose_table()
        yield from self._compose_swap_zone()
        if view.get("viewer") is not None:
            yield from self._compose_hand()
        yield from self._compose_buttons()
        if view.get("phase") == "over":
            scores = ", ".join(
                _("{seat} {points}", seat=self.seat_words(seat), points=format_number(score))
                for seat, score in enumerate(view.get("scores") or [])
            )
            winners = ", ".join(
                self.seat_words(seat) for seat in view.get("winners") or []
            )
            count = len(view.get("winners") or [])
            yield Static(
                _("Final scores (treasure + jewels): {scores} · {winners}", scores=scores,
                  winners=ngettext("winner: {names}", "winners: {names}", count, names=winners)),
                classes="title",
            )

    def _compose_temple(
        self, built: int, level: int | None, construction: dict[str, Any] | None
    ) -> ComposeResult:
        yield Static(_("The temple"), classes="title")
        for number in range(LEVELS, 0, -1):
            width = 14 + 4 * (LEVELS - number)
            if number <= built:
                state, label = "built", _("L{level} built", level=number)
            elif number == level and construction is not None:
                state = "current"
                label = _("L{level} building {units}/5", level=number,
                          units=construction["units"])
            elif number == level:
                state, label = "current", _("L{level} next", level=number)
            else:
                state, label = "", f"L{number}"
            with Horizontal(classes="level-row"):
                cell = Static(label, classes=f"level {state}", id=f"level-{number}")
                cell.styles.width = width
                yield cell

    def _compose_construction(self, construction: dict[str, Any] | None) -> ComposeResult:
        if construction is None:
            return
        sets = "; ".join(describe_set(entry, self.seat_words(entry["player"]))
                         for entry in construction.get("sets", []))
        values = {
            "level": construction["level"], "seat": self.seat_words(construction["summoner"]),
            "units": construction["units"], "missing": construction["missing"],
        }
        if sets:
            text = _("Construction of level {level}, summoned by {seat}: {units} of 5 "
                     "units set, {missing} missing · {sets}", sets=sets, **values)
        else:
            text = _("Construction of level {level}, summoned by {seat}: {units} of 5 "
                     "units set, {missing} missing", **values)
        yield Static(text, classes="info", id="construction")

    def _compose_table(self) -> ComposeResult:
        """Every seat's treasure, hand size and known cards as a table: a column each,
        a long value wraps in its own column (as one line at 80 columns, "known in hand:"
        stood at a line's end and its "-" alone under it)."""
        view = self.view
        rows: list[tuple[str, str, str, str, str]] = []
        for seat in range(view["players"]):
            known = view["known"][seat]
            known_text = " ".join(
                f"{kind}×{count}" for kind, count in sorted(known.items())
            ) or "-"
            marker = "▶" if seat == view.get("current_player") else " "
            rows.append((
                marker, self.seat_words(seat), format_number(view["treasure"][seat]),
                ngettext("{count} card", "{count} cards", view["hand_sizes"][seat]),
                known_text,
            ))
        yield Static(SeatsTable(rows), classes="table", id="players")
        discard = " ".join(f"{kind}×{count}" for kind, count in view["discard"].items())
        yield Static("  " + _("discard pile: {cards}", cards=discard or "-"), classes="table",
                     id="discard")

    def _swapping(self) -> bool:
        return any(text.startswith("swap ") and text != "swap pass" for text in self.legal)

    def _compose_swap_zone(self) -> ComposeResult:
        swapping = self._swapping()
        yield Static(
            _("Swap zone: click a slot and a kind of your hand") if swapping
            else _("Swap zone"),
            classes="title",
        )
        with CardRow(KIND_WIDTH, len(self.view["swap_zone"]), classes="cards"):
            for index, kind in enumerate(self.view["swap_zone"], start=1):
                classes = "kind"
                if kind is None:
                    classes += " empty"
                if kind == "J":
                    classes += " jewel"
                if swapping and kind is not None:
                    classes += " selectable"
                if self.selected_slot == index:
                    classes += " selected"
                if f"swap:{index}" in self.taught:
                    classes += " taught"
                yield KindCell(
                    f"{index}: {kind or '—'}", None, index, classes, id=f"slot-{index}"
                )

    def _compose_hand(self) -> ComposeResult:
        hand: dict[str, int] = self.view.get("hand") or {}
        swapping = self._swapping()
        total = sum(hand.values())
        yield Static(_("Your hand ({total} cards)", total=total), classes="title")
        kinds = sum(1 for kind in KINDS if hand.get(kind, 0))
        with CardRow(KIND_WIDTH, kinds, classes="cards", id="hand"):
            for kind in KINDS:
                count = hand.get(kind, 0)
                if not count:
                    continue
                classes = "kind" + (" jewel" if kind == "J" else "")
                if swapping:
                    classes += " selectable"
                if self.selected_kind == kind:
                    classes += " selected"
                if f"hand:{kind}" in self.taught:
                    classes += " taught"
                yield KindCell(f"{kind} ×{count}", kind, None, classes, id=f"hand-{kind}")
        yield Static(_("L1 to L9: a construction card of that level · J: a jewel; two "
                       "jewels stand in for one card of any level, and each left in hand "
                       "scores 1 at the end"), classes="info", id="kinds-legend")

    def _compose_buttons(self) -> ComposeResult:
        choices = [text for text in self.legal if not text.startswith("swap ")]
        if "swap pass" in self.legal:
            choices.append("swap pass")
        if not choices:
            return
        with Grid(classes="buttons"):
            for text in choices:
                # A tutorial step's button (`button:pass`) is lit, and takes the keyboard.
                yield Button(button_label(text), id="do-" + text.replace(" ", "-"), name=text,
                             classes="taught" if f"button:{text}" in self.taught else "")

    def turn_hint(self) -> str:
        phase = self.view.get("phase")
        if not self.interactive:
            return ""
        if phase == "swap":
            return _("Swap: a kind of your hand, then a slot of the swap zone; or Keep my hand")
        if phase == "summon":
            return _("Construction: summon or pass")
        if phase == "set":
            return _("Construction: set cards")
        return ""

    def refused(self) -> None:
        """A refused choice (a tutorial wants another) leaves no selection drawn."""
        self.redraw_keeping_focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.name:
            event.stop()
            self.choose(event.button.name)

    def cell_clicked(self, kind: str | None, slot: int | None) -> None:
        if not self.interactive or not self._swapping():
            return
        if kind is not None:
            self.selected_kind = None if self.selected_kind == kind else kind
        if slot is not None:
            self.selected_slot = None if self.selected_slot == slot else slot
        if self.selected_kind is not None and self.selected_slot is not None:
            text = f"swap {self.selected_kind} {self.selected_slot}"
            self.selected_kind = self.selected_slot = None
            self.choose(text)
            return
        self.redraw_keeping_focus()
        self._say_what_is_left()

    def _say_what_is_left(self) -> None:
        """Half a swap chosen: say what it is and what comes next, as Mahjongg's first tile
        does. Enter on a slot showed only another colour (none without colour, and the
        keyboard's own mark over it), and said nothing."""
        if self.selected_slot is not None:
            text = _("Swap: slot {slot} chosen; now a kind of your hand (the slot again "
                     "drops it).", slot=self.selected_slot)
        elif self.selected_kind is not None:
            text = _("Swap: {kind} chosen; now a slot of the swap zone ({kind} again "
                     "drops it).", kind=self.selected_kind)
        else:
            text = ""
        tell = getattr(self.app, "set_message", None)
        if tell is not None:
            tell(text)


BOARD = TempleBoard
