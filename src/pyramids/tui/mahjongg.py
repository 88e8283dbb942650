"""Mahjongg Pyramids on screen: the layered board seen from above, scores, tokens, favors.

The board is drawn on a character grid in which one half-tile step is one row
down or a few columns across, so half offsets show as half offsets. Tiles are
painted layer by layer, so a higher tile hides what lies under it, and each
layer has its own background colour (darker below, lighter above; a legend
names them). A tile shows its face on its first line and its id (what typed
moves such as `match 12 40` name) on its second. Free tiles are bright and bold, blocked ones dim; a
face-down tile shows `▒▒` and nothing of its face. The hint and Ra Sight pairs
are underlined; `^` marks a capstone, `v` a burial vault.

Mouse: click a free tile, then its partner, to remove the pair (click a tile
again to drop it). Favors, hint, undo, finish and pass are buttons where the
rules allow them; "Anubis Shift" then a click on a blocked tile lifts it. The
clock of Time Attack is kept by the app (see `app.py`), never by the board.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from pyramids.tui.board import Board

ROWS_PER_STEP = 1
LAYER_COLOURS = ("#4a3b28", "#6b5230", "#8a6a38", "#a88240", "#c49a48", "#dcb860", "#e8cf8a")
SELECTED = "#2e8b57"
SHIFTING = "#7b3fa0"

BUTTONS = (
    ("sight", "Ra Sight"),
    ("reshuffle", "Sandstorm Reshuffle"),
    ("hint", "Hint"),
    ("undo", "Undo"),
    ("finish", "Finish"),
    ("pass", "Pass"),
)


def columns_per_step(tiles: list[dict[str, Any]]) -> int:
    """3 columns a half step (6 a tile) when the board fits, else 2."""
    span = max((tile["x"] for tile in tiles), default=0) + 2
    return 3 if span <= 28 else 2


def tile_label(tile: dict[str, Any], width: int) -> str:
    if tile.get("face") is None:
        return "▒" * (width - 1)
    return str(tile.get("short") or "?")[: width - 1].ljust(width - 1)


class TileCanvas(Static):
    """The tiles, painted from the lowest layer up; a click finds the top tile there."""

    def __init__(self, board: MahjonggBoard, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = board
        self.owner: dict[tuple[int, int], int] = {}
        self.step = 3

    def paint(self) -> Text:
        view = self.board.view
        tiles: list[dict[str, Any]] = view.get("tiles", [])
        self.step = step = columns_per_step(tiles)
        width = (max((t["x"] for t in tiles), default=0) + 2) * step + 1
        height = (max((t["y"] for t in tiles), default=0) + 2) * ROWS_PER_STEP + 1
        cells: list[list[tuple[str, Style]]] = [
            [(" ", Style()) for _ in range(width)] for _ in range(height)
        ]
        self.owner = {}
        marked = self.board.marked_tiles()
        for tile in sorted(tiles, key=lambda t: (t["z"], t["y"], t["x"])):
            self._paint_tile(cells, tile, step, marked)
        text = Text()
        for number, row in enumerate(cells):
            for char, style in row:
                text.append(char, style)
            if number < len(cells) - 1:
                text.append("\n")
        return text

    def _paint_tile(
        self,
        cells: list[list[tuple[str, Style]]],
        tile: dict[str, Any],
        step: int,
        marked: set[int],
    ) -> None:
        tile_id = tile["id"]
        z = tile["z"]
        left = tile["x"] * step
        top = tile["y"] * ROWS_PER_STEP
        tile_width = 2 * step
        background = LAYER_COLOURS[min(z, len(LAYER_COLOURS) - 1)]
        if tile_id in self.board.selected:
            background = SELECTED
        elif tile.get("shifted"):
            background = SHIFTING
        free = bool(tile.get("free")) or bool(tile.get("shifted"))
        face = Style(
            bgcolor=background,
            color="white" if free else "grey66",
            bold=free,
            dim=not free,
            underline=tile_id in marked,
        )
        edge = Style(bgcolor=background, color="black")
        label = tile_label(tile, tile_width)
        markers = ("^" if tile.get("capstone") else "") + ("v" if tile.get("vault") else "")
        lower = f"{tile_id}{markers}".ljust(tile_width - 1)[: tile_width - 1]
        rows = [label, lower]
        for dy, content in enumerate(rows):
            y = top + dy
            for dx in range(tile_width):
                x = left + dx
                if y >= len(cells) or x >= len(cells[y]):
                    continue
                if dx == tile_width - 1:
                    cells[y][x] = ("▕", edge)
                else:
                    style = face if dy == 0 else Style(bgcolor=background, color="grey50")
                    cells[y][x] = (content[dx], style)
                self.owner[(x, y)] = tile_id

    def render(self) -> Text:
        return self.paint()

    def tile_offset(self, tile_id: int) -> tuple[int, int]:
        """A cell where `tile_id` is on top (what a click there hits); for tests and keys."""
        self.paint()
        for (x, y), owner in sorted(self.owner.items(), key=lambda item: (item[0][1], item[0][0])):
            if owner == tile_id:
                return x, y
        raise KeyError(f"tile {tile_id} is not visible")

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        tile_id = self.owner.get((offset.x, offset.y))
        if tile_id is not None:
            self.board.tile_clicked(tile_id)


class MahjonggBoard(Board):
    DEFAULT_CSS = """
    MahjonggBoard .info { height: auto; width: 100%; }
    MahjonggBoard .warning { height: auto; width: 100%; color: $warning; text-style: bold; }
    MahjonggBoard TileCanvas { width: auto; height: auto; margin: 1 0; }
    MahjonggBoard .buttons { height: 3; width: 100%; }
    MahjonggBoard Button { margin: 0 1 0 0; min-width: 8; }
    MahjonggBoard Button.active { background: $accent; }
    """

    def on_new_view(self) -> None:
        self.selected: list[int] = []
        self.shifting = False

    def marked_tiles(self) -> set[int]:
        marked: set[int] = set(self.view.get("hint") or [])
        for pair in self.view.get("sight_pairs") or []:
            marked.update(pair)
        return marked

    def compose_view(self) -> ComposeResult:
        view = self.view
        yield Static(self._summary(), classes="info", id="summary")
        if view.get("unsolvable"):
            yield Static(
                "The board can no longer be cleared by matching alone (favors may help).",
                classes="warning",
            )
        yield Static(self._legend(), classes="info", id="legend")
        yield TileCanvas(self, id="tiles")
        yield from self._compose_buttons()
        last = view.get("last_move")
        if last:
            yield Static(self._last_move(last), classes="info", id="last-move")
        result = view.get("result")
        if result:
            yield Static(self._result(result), classes="warning", id="result")

    def _summary(self) -> str:
        view = self.view
        players = view["players"]
        lines = [
            f"{view['mode']} on {view['layout']} · tiles {view['tiles_left']}/{view['tiles_total']}"
            f" · bank {view['bank']} tokens · passes {view['passes']}"
        ]
        tokens = view["tokens"]
        for seat in range(players):
            you = " (you)" if seat == self.seat else ""
            turn = "▶" if seat == view.get("current_player") else " "
            seat_tokens = tokens if isinstance(tokens, int) else tokens[seat]
            doubling = view["doubling"][seat]
            lines.append(
                f"{turn} seat {seat}{you}: score {view['scores'][seat]} · tokens {seat_tokens}"
                f" · streak {view['streaks'][seat]}"
                + (f" · doubled pairs left {doubling}" if doubling else "")
            )
        if "team_score" in view:
            lines.append(f"  team score {view['team_score']}")
        vaults = ", ".join(f"{v['id']}:{v['state']}" for v in view.get("vaults", []))
        capstones = ", ".join(
            f"{c['id']}:{'on board' if c['on_board'] else 'removed'}"
            for c in view.get("capstones", [])
        )
        lines.append(f"  capstones {capstones or '-'} · vaults {vaults or '-'}")
        if "time_left" in view:
            lines.append(f"  time left {view['time_left']} s (elapsed {view['elapsed']} s)")
        return "\n".join(lines)

    def _legend(self) -> Text:
        layers = max((tile["z"] for tile in self.view.get("tiles", [])), default=0) + 1
        legend = Text("layers: ")
        for z in range(layers):
            colour = LAYER_COLOURS[min(z, len(LAYER_COLOURS) - 1)]
            legend.append(f" {z} ", Style(bgcolor=colour, color="white", bold=True))
            legend.append(" ")
        legend.append("  bright = free, dim = blocked, ▒▒ face down, ^ capstone, v vault")
        return legend

    @staticmethod
    def _last_move(last: dict[str, Any]) -> str:
        text = f"Last: seat {last.get('player')} {last.get('action')}"
        if "points" in last:
            text += f" for {last['points']} points"
        if last.get("vaults_unlocked"):
            text += f", vaults unlocked {last['vaults_unlocked']}"
        return text

    @staticmethod
    def _result(result: dict[str, Any]) -> str:
        text = f"Over ({result.get('reason')}): scores {result.get('scores')}"
        if "time_score" in result:
            text += f" · time score {result['time_score']}"
        if "team_won" in result:
            text += " · the team " + ("wins" if result["team_won"] else "loses")
        elif result.get("winners") is not None:
            text += f" · winner(s) {result['winners']}"
        return text

    def _compose_buttons(self) -> ComposeResult:
        if not self.interactive:
            return
        legal = set(self.legal)
        shift_possible = any(text.startswith("shift ") for text in self.legal)
        with Horizontal(classes="buttons"):
            for action, label in BUTTONS:
                if action in legal:
                    yield Button(label, id=f"do-{action}", name=action)
            if shift_possible:
                button = Button(
                    "Anubis Shift: click a tile" if self.shifting else "Anubis Shift",
                    id="do-shift",
                    name="shift",
                )
                if self.shifting:
                    button.add_class("active")
                yield button

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = event.button.name
        if not name:
            return
        event.stop()
        if name == "shift":
            self.shifting = not self.shifting
            self.selected = []
            self.refresh(recompose=True)
            return
        self.choose(name)

    def tile_clicked(self, tile_id: int) -> None:
        if not self.interactive:
            return
        if self.shifting:
            self.shifting = False
            self.choose(f"shift {tile_id}")
            return
        if tile_id in self.selected:
            self.selected.remove(tile_id)
        else:
            self.selected.append(tile_id)
        if len(self.selected) == 2:
            first, second = sorted(self.selected)
            self.selected = []
            self.choose(f"match {first} {second}")
        self.refresh(recompose=True)


BOARD = MahjonggBoard
