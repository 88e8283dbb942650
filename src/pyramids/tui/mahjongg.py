"""Mahjongg Pyramids on screen: the monument as stacked blocks, scores, tokens, favors.

The tiles are drawn by `mahjongg_tiles.paint` (faces as glyphs with the source's
colour-blind marks, higher layers offset over lower ones, blocked tiles hatched,
`×N` where elevation scores). The board grows with the screen (larger tiles at
200×60) and scrolls where it does not fit.

Mouse: click a free tile, then its partner, to remove the pair (click a tile
again to drop it). Keyboard: the arrow keys move a cursor between free tiles,
Enter or Space selects. There is no list of the legal pairs: Hint (one-player
modes) and the paid Ra Sight are the ways to see matches, as in the source.
Favors are buttons with their cost, and keys: `h` hint, `r` Ra Sight, `a`
Anubis Shift (then choose a blocked tile), `v` Tile Reveal (then choose a
face-down tile), `x` Sandstorm Reshuffle, `u` undo, `f` finish, `p` pass,
Escape drops the selection and brings the cursor's tile back into sight (from the
box, the log or a favor button too). The clock of Time Attack is kept by the app (see
`app.py`), never by the board; the board draws the Solar Barque track from the
view (`barque_track`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, ScrollableContainer
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Static

from pyramids.games.mahjongg.blueprints import layout_names
from pyramids.games.mahjongg.explain import face_words
from pyramids.play.i18n import _, format_number, ngettext, words_text
from pyramids.play.option_words import choice_title
from pyramids.play.scores import clock_text
from pyramids.play.text.mahjongg import (
    barque_track,
    option_notes,
    reason_words,
    shown_layout_title,
    team_outcome,
)
from pyramids.play.text.mahjongg_tiles import (
    Canvas,
    Marks,
    Scale,
    choose_scale,
    legend,
    paint,
)
from pyramids.tui.board import Board, continues_typed_move, update_static

# ----- words on screen -----

# The names best scores are kept under (stored, so never translated).
MODE_NAMES = {
    "standard": "Standard Expedition",
    "time-attack": "Pharaoh's Time Attack",
    "coop": "Architect Co-op",
}


def mode_title(mode: str) -> str:
    return _(choice_title("mode", mode))  # as the lobby and the line prompts name it


def token_text(count: int) -> str:
    return ngettext("{count} token", "{count} tokens", count)


def layout_title(name: str) -> str:
    return name.replace("-", " ").title().replace("Pharaohs", "Pharaoh's")


def face_name(face: str | None) -> str:
    """A tile's face as players read it (the engine's names are English ids)."""
    return words_text(face_words(face))


# (action, key, option naming its cost or None)
FAVORS = (
    ("hint", "h", None),
    ("sight", "r", "sight_cost"),
    ("shift", "a", "shift_cost"),
    ("reveal", "v", "reveal_cost"),
    ("reshuffle", "x", "reshuffle_cost"),
    ("undo", "u", None),
    ("finish", "f", None),
    ("pass", "p", None),
)
DEFAULT_COSTS = {"sight_cost": 1, "shift_cost": 1, "reveal_cost": 1, "reshuffle_cost": 3}
# The favors that ask for a tile next: Anubis Shift a blocked one, Tile Reveal a
# face-down one.
TILE_FAVORS = ("shift", "reveal")


def favor_exists(action: str, view: dict[str, Any], options: dict[str, Any]) -> bool:
    """Whether this game has the favor at all (its button is drawn): hints and undo in
    the one-player modes only, finish there and in co-op, Tile Reveal with its option.
    A button that can never be used in the game was drawn greyed out for the whole game
    (two-player Standard's Hint, Undo and Finish); the browser leaves them off too."""
    solo = view.get("players") == 1 and view.get("mode") != "coop"
    if action in ("hint", "undo"):
        return solo
    if action == "finish":
        return solo or view.get("mode") == "coop"
    if action == "reveal":
        return bool(options.get("reveal_favor", True))
    return True


def favor_name(action: str) -> str:
    names = {
        "hint": _("Hint"),
        "sight": _("Ra Sight"),
        "shift": _("Anubis Shift"),
        "reveal": _("Tile Reveal"),
        # One name for the favor, as the browser's button and the move log call it (a
        # bare "Sandstorm" is an element tile's face).
        "reshuffle": _("Sandstorm Reshuffle"),
        "undo": _("Undo"),
        "finish": _("Finish"),
        "pass": _("Pass"),
    }
    return names.get(action, action)


def favor_label(action: str, key: str, cost: int | None) -> str:
    """The key first: where a narrow terminal cuts a button's label, the key stays."""
    if cost is None:
        return _("({key}) {favor}", favor=favor_name(action), key=key)
    return _("({key}) {favor}, {tokens}", favor=favor_name(action), tokens=token_text(cost),
             key=key)


def action_words(kind: str) -> str:
    """A move of one kind in words, for the log and the last-move line."""
    words = {
        "match": _("removed a pair"),
        "sight": _("used Ra Sight"),
        "shift": _("used Anubis Shift"),
        "reveal": _("used a Tile Reveal"),
        "reshuffle": _("called a Sandstorm Reshuffle"),
        "hint": _("asked for a hint"),
        "undo": _("took back a move"),
        "finish": _("finished the board"),
        "pass": _("passed"),
    }
    return words.get(kind, kind)


def barque_lines(barque: dict[str, Any], elapsed: int) -> list[str]:
    """The track and what speed is worth now, for the summary of a time attack."""
    left = int(barque["spaces_left"])
    track = barque_track(int(barque["space"]), int(barque["spaces"]))
    if left:
        where = ngettext("{count} space to sunset", "{count} spaces to sunset", left)
    else:
        where = _("sunset")
    lines = [_("Solar Barque {track} {where}", track=track, where=where)]
    quick = int(barque["quick_until"]) - elapsed
    bonuses = []
    if quick >= 0 and left and barque.get("quick_bonus"):
        bonuses.append(ngettext("quick pair for {count} more second",
                                "quick pair for {count} more seconds", quick))
    if barque.get("layer_bonus"):
        bonuses.append(_("a layer emptied now earns {points}",
                          points=format_number(barque["layer_bonus"])))
    if bonuses:
        lines.append("  " + " · ".join(bonuses))
    return lines


class TileCanvas(Widget, can_focus=True):
    """The tiles; a click or Enter on a tile chooses it. Arrows move the cursor."""

    BINDINGS = [
        Binding("left", "move(-1, 0)", "Cursor", show=False),
        Binding("right", "move(1, 0)", "Cursor", show=False),
        Binding("up", "move(0, -1)", "Cursor", show=False),
        Binding("down", "move(0, 1)", "Cursor", show=False),
        Binding("enter", "key_choose('enter')", "Select", show=False),
        Binding("space", "key_choose('space')", "Select", show=False),
    ]
    DEFAULT_CSS = """
    TileCanvas { width: auto; height: auto; }
    TileCanvas:focus { background: $boost; }
    """

    def __init__(self, board: MahjonggBoard, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = board
        self.canvas: Canvas = paint([])
        self.strips: list[Strip] = []
        self.scale = Scale()
        self.repaint(refresh=False)

    def focus(self, scroll_visible: bool = True) -> Self:
        """Take the keyboard where the board is scrolled: taller than the board area at
        80x24, the tiles scrolled into sight on focus put the score and tiles-left lines
        above them out of sight as the game opened. The cursor's moves scroll to its
        tile (`scroll_to_tile`)."""
        return super().focus(scroll_visible=False)

    def repaint(self, refresh: bool = True) -> None:
        board = self.board
        tiles: list[dict[str, Any]] = board.view.get("tiles", [])
        self.scale = board.scale
        before = self.canvas
        self.canvas = paint(tiles, self.scale, board.marks(), board.extent())
        self.strips = [
            Strip([Segment(text, style) for text, style in self.canvas.row_segments(row)])
            for row in range(self.canvas.height)
        ]
        self.styles.width = self.canvas.width
        self.styles.height = self.canvas.height
        if not refresh:
            return
        if (before.width, before.height) != (self.canvas.width, self.canvas.height):
            self.refresh(layout=True)
            return
        # Only the lines that changed are drawn again (a click changes one or two).
        changed = [
            Region(0, row, self.canvas.width, 1)
            for row in range(self.canvas.height)
            if before.chars[row] != self.canvas.chars[row]
            or before.styles[row] != self.canvas.styles[row]
        ]
        if changed:
            self.refresh(*changed)

    def render_line(self, y: int) -> Strip:
        if 0 <= y < len(self.strips):
            return self.strips[y]
        return Strip.blank(self.size.width)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return self.canvas.width

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self.canvas.height

    def tile_offset(self, tile_id: int) -> tuple[int, int]:
        """The cell a click on `tile_id` goes to (on its face where that shows)."""
        cell = self.canvas.visible_cell(tile_id)
        if cell is None:
            raise KeyError(f"tile {tile_id} is not visible")
        return cell

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        tile_id = self.canvas.owner.get((offset.x, offset.y))
        if tile_id is not None:
            self.board.tile_clicked(tile_id)

    def action_move(self, dx: int, dy: int) -> None:
        self.board.move_cursor(dx, dy)

    def action_key_choose(self, key: str) -> None:
        if not continues_typed_move(self, key):
            self.action_choose()

    def action_choose(self) -> None:
        if self.board.cursor is not None:
            self.board.tile_clicked(self.board.cursor)

    def scroll_to_tile(self, tile_id: int) -> None:
        """Scroll the board area so that the tile under the cursor is in sight."""
        origin = self.canvas.origin.get(tile_id)
        if origin is None:
            return
        x, y = origin
        widget: Widget | None = self
        while widget is not None and not isinstance(widget, ScrollableContainer):
            offset = widget.virtual_region.offset
            x, y = x + offset.x, y + offset.y
            parent = widget.parent
            widget = parent if isinstance(parent, Widget) else None
        container = widget
        if container is None:
            return
        region = Region(x, y, self.scale.tile_width, self.scale.tile_height)
        container.scroll_to_region(region, animate=False, immediate=True)


def pack_parts(line: str, width: int) -> str:
    """A line of the summary broken for `width` cells between its " · " parts, not in
    them: at 80x24 the words wrapped where they would, "streak" at a line's end and
    its "0" alone under it, "vaults unlocked 0 of" and "4". A line after the first
    stands two cells in from the text of its first (past a seat's "▶ "). A part wider than `width`
    (or any, where `width` is 0: not yet known) is left to wrap as words do."""
    if width <= 0 or cell_len(line) <= width:
        return line
    body = line.lstrip(" ▶")
    indent = " " * (cell_len(line) - cell_len(body) + 2)
    first, *rest = body.split(" · ")
    packed = _packed(line[:len(line) - len(body)] + first, rest, " · ", width, indent)
    return "\n".join(wrapped for piece in packed for wrapped in wrap_words(piece, width, indent))


def wrap_words(line: str, width: int, indent: str) -> list[str]:
    """A line wider than `width` broken between words, each line after the first
    indented, a number kept with the word before it ("board 2", "of 2")."""
    if cell_len(line) <= width:
        return [line]
    lead = line[:len(line) - len(line.lstrip(" ▶"))]
    words: list[str] = []
    for word in line[len(lead):].split(" "):
        if words and word.isdigit():
            words[-1] += " " + word
        else:
            words.append(word)
    return _packed(lead + words[0], words[1:], " ", width, indent)


def _packed(head: str, parts: list[str], separator: str, width: int, indent: str) -> list[str]:
    """`head` and then `parts`, joined by `separator` while a line stays within `width`;
    a part that would pass it starts the next line, after `indent`."""
    lines: list[str] = []
    current = head
    for part in parts:
        if cell_len(f"{current}{separator}{part}") > width:
            lines.append(current)
            current = indent + part
        else:
            current = f"{current}{separator}{part}"
    lines.append(current)
    return lines


def reading_place(tile: dict[str, Any]) -> tuple[float, float, int]:
    """Where a tile stands in reading order: by its row, then across as drawn (a higher
    tile is drawn a third of a column to the left)."""
    return (tile["y"], tile["x"] - tile["z"] * 0.34, tile["id"])


def cursor_step(candidates: list[dict[str, Any]], current: dict[str, Any],
                dx: int, dy: int) -> int | None:
    """The tile an arrow key takes the cursor to from `current`, or None.

    Left and right go to the previous and next tile in reading order (on to the next
    row at a row's end), so every free tile is reached by them alone: the nearest tile
    in the arrow's direction, as before, left a free tile now and then that no arrow
    reached from anywhere (one tile far along a row lost to nearer ones beside it),
    and a keyboard player could not take it. Up and down go to the nearest tile that
    way, one in the same column first."""
    if dy == 0:
        ordered = sorted(candidates, key=reading_place)
        index = next(i for i, tile in enumerate(ordered) if tile["id"] == current["id"])
        step = index + dx
        return ordered[step]["id"] if 0 <= step < len(ordered) else None
    best: tuple[tuple[bool, float], int] | None = None
    cx, cy = current["x"] - current["z"] * 0.34, current["y"]
    for tile in candidates:
        if tile["id"] == current["id"]:
            continue
        tx, ty = tile["x"] - tile["z"] * 0.34, tile["y"]
        along = (ty - cy) * dy
        across = abs(tx - cx)
        if along <= 0:
            continue
        # A tile two half-columns wide overlaps the column within 2.
        score = (across >= 2, along + 2 * across)
        if best is None or score < best[0]:
            best = (score, tile["id"])
    return best[1] if best is not None else None


class MahjonggBoard(Board):
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        *(
            Binding(key, f"favor('{action}')", action, show=False)
            for action, key, _cost in FAVORS
        ),
        Binding("escape", "drop", "Drop selection", show=False),
    ]

    DEFAULT_CSS = """
    MahjonggBoard { width: auto; min-width: 100%; }
    MahjonggBoard .info { height: auto; width: 100%; }
    MahjonggBoard .warning { height: auto; width: 100%; color: $warning; text-style: bold; }
    MahjonggBoard .legend { height: auto; width: 100%; color: $text-muted; }
    MahjonggBoard TileCanvas { margin: 1 0 0 0; }
    MahjonggBoard #favors { height: auto; width: 100%; grid-size: 4; grid-gutter: 0 1;
                            grid-rows: auto; }
    /* A label wider than the screen (60 columns) goes on to a second line, not cut. */
    MahjonggBoard #favors Button { width: 100%; height: auto; }
    MahjonggBoard #favors Button.active { background: $accent; text-style: bold; }
    /* Not to be had now: drawn as a disabled button is, but a click says why, as its
       key does (a disabled button took the click and said nothing). */
    MahjonggBoard #favors Button.off { text-opacity: 60%; }
    /* A tutorial step's button: lit as its tiles are, not by colour alone. */
    MahjonggBoard #favors Button.taught { background: $accent 40%; text-style: bold underline; }
    """

    # The cursor's moves scroll to its tile; the tiles taking the keyboard scroll nowhere
    # (a short monument, Co-op's Twin Pyramids at 80x24, opened with the lines above it
    # out of sight).
    keeps_its_sight = True

    def keys_help(self) -> str:
        return _(
            "- **Mahjongg**: click a free tile, then its partner; or arrows move the cursor "
            "between free tiles and Enter/Space selects. Esc drops the selection.\n"
            "- favors: `h` hint, `r` Ra Sight, `a` Anubis Shift (then a blocked tile), "
            "`v` Tile Reveal (then a face-down tile), `x` Sandstorm Reshuffle, `u` undo, "
            "`f` finish, `p` pass (the buttons say what each costs)"
        )

    def on_new_view(self) -> None:
        self.selected: list[int] = []
        self.shifting = False
        self.revealing = False
        self.prompt = ""
        if not hasattr(self, "cursor"):
            self.cursor: int | None = None
        self.scale = Scale()
        if not hasattr(self, "hint_followed"):
            # The hint the cursor went to, and where the cursor stood before a tile favor
            # asked for its tile.
            self.hint_followed: tuple[int, ...] | None = None
            self.cursor_before_pick: int | None = None
        hint = tuple(self.view.get("hint") or ())
        last = self.view.get("last_move") or {}
        if hint and last.get("action") == "hint" and self.interactive \
                and hint != self.hint_followed:
            # The hint just asked for: the cursor goes to its pair, in sight (marked where
            # the board was scrolled away at 80x24, it was a "?" nobody saw). Once: a
            # redraw of the same hint left the cursor where the player had moved it since.
            self.cursor = hint[0]
            if self.is_mounted:
                self.show_cursor()
        self.hint_followed = hint or None
        self._keep_cursor()

    # ----- what is drawn -----

    def marks(self) -> Marks:
        sight: set[int] = set()
        for pair in self.view.get("sight_pairs") or []:
            sight.update(pair)
        taught = {
            int(word[len("tile:"):]) for word in self.taught if word.startswith("tile:")
        }
        return Marks(
            selected=frozenset(self.selected),
            hint=frozenset(self.view.get("hint") or []) | taught,
            sight=frozenset(sight),
            cursor=self.cursor if self.interactive else None,
        )

    def extent(self) -> tuple[int, int] | None:
        return None

    def compose_view(self) -> ComposeResult:
        yield Static(self._summary(), classes="info", id="summary")
        yield Static(self._warning(), classes="warning", id="warning")
        favors = Grid(id="favors")
        # A finished game has no favor to ask for (the browser drops its bar too).
        favors.display = not self.view.get("result")
        with favors:
            for action, key, cost in FAVORS:
                if not favor_exists(action, self.view, self.options):
                    continue
                price = self._cost(cost) if cost else None
                button = Button(
                    favor_label(action, key, price), id=f"do-{action}", name=action,
                    compact=True,
                )
                button.set_class(not self._allowed(action), "off")
                button.set_class(self._picking(action), "active")
                button.set_class(f"button:{action}" in self.taught, "taught")
                yield button
        yield TileCanvas(self, id="tiles")
        yield Static(self._last_and_result(), classes="info", id="last-move")
        yield Static(Text(legend()), classes="legend", id="legend")

    def on_mount(self) -> None:
        # A monument wider than the screen keeps the board's width as the terminal widens
        # or narrows (no resize of the board's own): fitted again after each layout.
        self.follow_sight()
        self.call_after_refresh(self.fit_to_sight, True)
        if isinstance(self.parent, Widget):
            self.watch(self.parent, "scroll_x", self._words_in_sight, init=False)

    def _words_in_sight(self, scroll_x: float | None = None) -> None:
        """The lines of words and the favor buttons stay where the part of the board in
        sight begins as the board scrolls sideways: at 80x24 Escape scrolled Co-op's
        Twin Pyramids to the cursor's tile, and the score lines above it were cut at the
        screen's left edge ("shur", "reak 0"). Only the tiles scroll."""
        if scroll_x is None:
            scroll_x = self.parent.scroll_x if isinstance(self.parent, Widget) else 0
        shift = round(scroll_x)
        for line in self.query(".info, .warning, .legend, #favors"):
            if line.styles.offset.x.value != shift:
                line.styles.offset = (shift, 0)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to_sight(force=True)

    def fit_to_sight(self, force: bool = False) -> None:
        """Columns of favor buttons, the lines of words and the tile size for the space
        the board has in sight (where it changed since the last fit, or `force`)."""
        if not self.view:
            return
        self._words_in_sight()  # drawn anew where the board was scrolled sideways
        area = self.parent.size if isinstance(self.parent, Widget) else self.size
        sight = self.sight_width()
        if (area, sight) == getattr(self, "fitted_to", None) and not force:
            return  # as they are: no new layout
        self.fitted_to = (area, sight)
        # The width in sight, not the board's (a wide monument scrolls sideways), less
        # the scrollbar beside it.
        width = max(20, sight or area.width - 1)
        grids = self.query("#favors")
        if grids:
            # As many columns as the longest label fits whole ("(r) 라의 시선 (토큰 1개)" was
            # cut to "(r) 라의 시" at 80x24): Korean letters take two cells each.
            grid = grids.first(Grid)
            widest = max((cell_len(str(button.label)) for button in grid.query(Button)),
                         default=20)
            grid.styles.grid_size_columns = max(1, min(4, width // (widest + 3)))
            grid.styles.width = width  # in sight, as the columns are
        # The lines of words too: laid out on a monument wider than the screen, they
        # were cut at its edge ("Standard Expedition on Avenue of Sphinxes · tiles").
        for line in self.query(".info, .warning, .legend"):
            line.styles.width = width
        if self.query("#summary"):
            self._update("#summary", self._summary())  # its lines broke between parts
        scale = choose_scale(self.view.get("tiles", []), area.width - 2, area.height - 10)
        if scale != self.scale:
            self.scale = scale
            self.update_drawing()

    def show(
        self, view: dict[str, Any], legal: list[str], seat: int | None, interactive: bool
    ) -> None:
        scale = getattr(self, "scale", Scale())
        first = not self.view or self.drawn_whole_next
        self.drawn_whole_next = False
        self.view = view
        self.legal = legal if interactive else []
        self.seat = seat
        self.interactive = interactive
        self.on_new_view()
        self.scale = scale
        if first or not self.query("#tiles"):
            # As `Board.show`: the tiles with the keyboard go with the old drawing, and
            # the move box took it (a new game from the menu began there, the arrows
            # typing nothing); the tiles drawn anew get it back.
            had_focus = self.is_attached and self.has_focus_within
            if had_focus:
                self.app.set_focus(None)
            self.refresh(recompose=True)
            self.call_after_refresh(self.fit_to_sight, True)
            self.call_after_refresh(self.post_message, self.Redrawn(had_focus))
        else:
            self.update_drawing()

    def update_drawing(self) -> None:
        """Redraw in place (no recompose, so the keyboard focus stays on the tiles)."""
        if not self.query("#tiles"):
            return
        self._update("#summary", self._summary())
        self._update("#warning", self._warning())
        for action, _key, _cost in FAVORS:
            # A fit queued after the first refresh may come while the board is still
            # being composed: a favor button not mounted yet is set when it is.
            found = self.query(f"#do-{action}")
            if not found:
                continue
            button = found.first(Button)
            if button.has_class("off") == self._allowed(action):
                button.set_class(not self._allowed(action), "off")
            if button.has_class("active") != self._picking(action):
                button.set_class(self._picking(action), "active")
            taught = f"button:{action}" in self.taught
            if button.has_class("taught") != taught:
                button.set_class(taught, "taught")
        for grid in self.query("#favors"):
            grid.display = not self.view.get("result")
        self._update("#last-move", self._last_and_result())
        self.query_one("#tiles", TileCanvas).repaint()

    def _update(self, selector: str, text: str) -> None:
        """Update a line only when it changed (each update costs a layout)."""
        update_static(self.query_one(selector, Static), text)

    def _warning(self) -> str:
        if self.prompt:
            return self.prompt
        return self._unsolvable()

    def _unsolvable(self) -> str:
        if self.view.get("unsolvable"):
            return _("The board can no longer be cleared by matching alone (favors may help).")
        return ""

    def turn_hint(self) -> str:
        """The warning that the board can no longer be cleared, beside the board too: at
        80x24 the line above the tiles is scrolled out of sight, and it went unseen; and
        the pair a hint showed, in words (as the browser says it)."""
        lines = [self._unsolvable(), self._hint_words()]
        return "\n".join(line for line in lines if line)

    def _hint_words(self) -> str:
        hint = self.view.get("hint") or []
        tiles = {tile["id"]: tile for tile in self.view.get("tiles", [])}
        if len(hint) != 2 or not all(tile in tiles for tile in hint):
            return ""
        first, second = (_("{face} (layer {layer})", face=face_name(tiles[tile].get("face")),
                           layer=tiles[tile]["z"] + 1) for tile in hint)
        return _("Hint: match {first} and {second}.", first=first, second=second)

    def _picking(self, action: str) -> bool:
        """Whether the board waits for the tile of this favor."""
        return (action == "shift" and self.shifting) or (action == "reveal" and self.revealing)

    def _allowed(self, action: str) -> bool:
        if action in TILE_FAVORS:
            return any(text.startswith(action + " ") for text in self.legal)
        return action in self.legal

    def _cost(self, option: str) -> int:
        return int(self.options.get(option, DEFAULT_COSTS.get(option, 1)))

    def _summary(self) -> str:
        view = self.view
        lines = [
            _(
                "{mode} on {layout} · tiles left {left} of {total} · bank {tokens}",
                mode=mode_title(view["mode"]), layout=shown_layout_title(view["layout"]),
                left=view["tiles_left"], total=view["tiles_total"],
                tokens=token_text(view["bank"]),
            )
        ]
        tokens = view["tokens"]
        # Co-op: one score and one pool of tokens, the team's, said once under the seats;
        # each seat's line gave them again ("score 22,500 · 8 tokens" four times over).
        team = "team_score" in view
        for seat in range(view["players"]):
            turn = "▶ " if seat == view.get("current_player") else "  "
            seat_tokens = tokens if isinstance(tokens, int) else tokens[seat]
            doubling = view["doubling"][seat]
            values = {
                "seat": self.seat_words(seat), "score": format_number(view["scores"][seat]),
                "tokens": token_text(seat_tokens), "streak": view["streaks"][seat],
            }
            if team:
                line = _("{seat}: streak {streak}", seat=values["seat"],
                         streak=values["streak"])
                if doubling:
                    line += " · " + ngettext("the next pair doubled",
                                             "the next {count} pairs doubled", doubling)
            elif doubling:
                line = _("{seat}: score {score} · {tokens} · streak {streak} · {doubled}",
                         doubled=ngettext("the next pair doubled",
                                          "the next {count} pairs doubled", doubling),
                         **values)
            else:
                line = _("{seat}: score {score} · {tokens} · streak {streak}", **values)
            lines.append(turn + line)
        if team:
            score = format_number(view["team_score"])
            if isinstance(tokens, int):
                lines.append("  " + _("team score {score} · pool {tokens}", score=score,
                                      tokens=token_text(tokens)))
            else:
                lines.append("  " + _("team score {score}", score=score))
        lines.extend("  " + note for note in option_notes(view, self.options))
        if view.get("barque"):
            if view["barque"].get("clock") == "turns":
                # No clock of the app's: the engine's moves keep the time.
                lines.append("  " + _("Time left {clock}",
                                      clock=clock_text(int(view.get("time_left") or 0))))
            lines.extend(barque_lines(view["barque"], int(view.get("elapsed") or 0)))
        capstones = view.get("capstones", [])
        vaults = view.get("vaults", [])
        extras = []
        if capstones:
            on_board = sum(1 for capstone in capstones if capstone["on_board"])
            extras.append(_("capstones on the board {count} of {total}",
                            count=on_board, total=len(capstones)))
        if vaults:
            opened = sum(1 for vault in vaults if vault["state"] == "unlocked")
            lost = sum(1 for vault in vaults if vault["state"] == "forfeited")
            if lost:
                extras.append(_("vaults unlocked {count} of {total}, {lost} lost",
                                count=opened, total=len(vaults), lost=lost))
            else:
                extras.append(_("vaults unlocked {count} of {total}",
                                count=opened, total=len(vaults)))
        if extras:
            lines.append("  " + " · ".join(extras))
        width = self.fitted_to[1] if getattr(self, "fitted_to", None) else 0
        return "\n".join(pack_parts(line, width) for line in lines)

    def _last_and_result(self) -> str:
        lines = []
        last = self.view.get("last_move")
        if last and not str(last.get("action", "")).startswith("clock"):
            lines.append(self._last_move(last))
        result = self.view.get("result")
        if result:
            lines.append(self._result(result))
        return "\n".join(lines)

    def _last_move(self, last: dict[str, Any]) -> str:
        who = self.seat_words(int(last.get("player", 0)))
        kind = str(last.get("action", "")).split(" ")[0]
        parts = [_("Last: {who}, {action}", who=who, action=action_words(kind))]
        if "points" in last:
            parts.append(_("{points} points", points=format_number(last["points"])))
        if last.get("vaults_unlocked"):
            parts.append(ngettext("{count} vault unlocked", "{count} vaults unlocked",
                                  len(last["vaults_unlocked"])))
        if last.get("speed_bonus"):
            parts.append(_("quick pair +{points}", points=format_number(last["speed_bonus"])))
        if last.get("layer_bonus"):
            parts.append(_("layer emptied before sunset +{points}",
                           points=format_number(last["layer_bonus"])))
        if last.get("settled"):
            parts.append(ngettext("the monument settles: {count} tile turns face up",
                                  "the monument settles: {count} tiles turn face up",
                                  len(last["settled"])))
        return " · ".join(parts)

    def _result(self, result: dict[str, Any]) -> str:
        reason = reason_words(str(result.get("reason")))
        if "team_won" in result:  # Co-op: one score, the team's, not the first seat's
            return " · ".join([
                _("Game over: {reason}. Team score: {score}", reason=reason,
                  score=format_number(result["scores"][0])),
                team_outcome(self.view)])
        scores = ", ".join(
            _("{seat} {points}", seat=self.seat_words(seat), points=format_number(score))
            for seat, score in enumerate(result.get("scores", []))
        )
        parts = [_("Game over: {reason}. Scores: {scores}", reason=reason, scores=scores)]
        if "time_score" in result:
            parts.append(_("time score {seconds} s", seconds=format_number(result["time_score"])))
        return " · ".join(parts)

    # ----- describing moves in words -----

    def face_of(self, tile_id: int) -> str:
        for tile in self.view.get("tiles", []):
            if tile["id"] == tile_id:
                return face_name(tile.get("face"))
        return face_name(None)

    def describe_move(self, text: str) -> str:
        words = text.split()
        if words and words[0] == "match" and len(words) == 3:
            return _("removed {first} and {second}", first=self.face_of(int(words[1])),
                     second=self.face_of(int(words[2])))
        if words and words[0] == "shift" and len(words) == 2:
            return _("lifted {face} with Anubis Shift", face=self.face_of(int(words[1])))
        if words and words[0] == "reveal" and len(words) == 2:
            return _("turned up a face-down tile with a Tile Reveal")
        if not words or action_words(words[0]) == words[0]:
            return text
        return action_words(words[0])

    def explain_illegal(self, text: str, error: str) -> str:
        words = text.split()
        tiles = {tile["id"]: tile for tile in self.view.get("tiles", [])}
        numbered = all(word.isascii() and word.isdigit() for word in words[1:])  # tile ids,
        # else the engine says what a move is ("match a b", from a help's example)
        if words and words[0] == "match" and len(words) == 3 and numbered:
            first, second = (tiles.get(int(word)) for word in words[1:])
            for tile in (first, second):
                if tile is not None and not (tile.get("free") or tile.get("shifted")):
                    return _(
                        "{face} is blocked: something lies on it, or both its sides are closed.",
                        face=face_name(tile.get("face")),
                    )
            if first is not None and second is not None:
                return _(
                    "{first} and {second} do not match.",
                    first=face_name(first.get("face")),
                    second=face_name(second.get("face")),
                )
        if words and words[0] == "shift" and len(words) == 2 and numbered:
            tile = tiles.get(int(words[1]))
            if tile is not None and tile.get("free"):
                return _(
                    "{face} is already free; Anubis Shift lifts a blocked tile.",
                    face=face_name(tile.get("face")),
                )
        # A favor's refusal is the engine's own reason, as its button says it: a price
        # said here first told "costs 3 tokens" over a Sandstorm Reshuffle that a pair
        # on the board rules out whatever the tokens (the engine says both then).
        return super().explain_illegal(text, error.replace("player 0 has", "you have"))

    # ----- choosing -----

    def _candidates(self) -> list[dict[str, Any]]:
        tiles = self.view.get("tiles", [])
        if self.shifting or self.revealing:
            # A tile that shows on screen (one under others cannot be pointed at):
            # blocked for a shift, face down for a reveal.
            shown = set(self.query_one("#tiles", TileCanvas).canvas.owner.values()) if (
                self.query("#tiles")) else {t["id"] for t in tiles}
            if self.revealing:
                return [t for t in tiles if t.get("face") is None and t["id"] in shown]
            return [t for t in tiles if not t.get("free") and t["id"] in shown]
        return [t for t in tiles if t.get("free") or t.get("shifted")]

    def _keep_cursor(self) -> None:
        candidates = self._candidates()
        if not candidates:
            self.cursor = None
            return
        if self.cursor in {t["id"] for t in candidates}:
            return
        top = min(candidates, key=lambda t: (t["y"], t["x"], -t["z"]))
        self.cursor = top["id"]

    def move_cursor(self, dx: int, dy: int) -> None:
        if not self.interactive:
            return
        candidates = self._candidates()
        current = next((t for t in candidates if t["id"] == self.cursor), None)
        if current is None:
            self._keep_cursor()
            self.update_drawing()
            return
        target = cursor_step(candidates, current, dx, dy)
        if target is not None:
            self.cursor = target
            self.update_drawing()
            self.query_one("#tiles", TileCanvas).scroll_to_tile(target)

    def tile_clicked(self, tile_id: int) -> None:
        if not self.interactive:
            return
        self.cursor = tile_id
        if self.shifting or self.revealing:
            favor = "shift" if self.shifting else "reveal"
            self.shifting = self.revealing = False
            self.prompt = ""
            self.choose(f"{favor} {tile_id}")
            return
        if tile_id in self.selected:
            self.selected.remove(tile_id)
        else:
            self.selected.append(tile_id)
        self.prompt = ""
        if len(self.selected) == 1:
            self.prompt = _("Choose its partner, or the same tile again to drop it.")
        if len(self.selected) == 2:
            first, second = sorted(self.selected)
            self.selected = []
            self.prompt = ""
            # No redraw here: the app draws the new view, or calls `refused`.
            self.choose(f"match {first} {second}")
            return
        self._tell(self.prompt)
        self.update_drawing()

    def action_favor(self, action: str) -> None:
        key = next(key for name, key, _cost in FAVORS if name == action)
        if not self.interactive or continues_typed_move(self, key):
            return
        if action in TILE_FAVORS:
            if not self._allowed(action) and not self._picking(action):
                # Standard mode has no face-down tile: no mode with nothing to choose.
                # The engine's reason where the game has one: with too few tokens it
                # said "has no tile to take now" over a board full of blocked tiles.
                why = self._why_off(action)
                self._tell(_("Not a legal move: {reason}", reason=why) if why else
                           _("{favor} has no tile to take now.", favor=favor_name(action)),
                           refusal=True)
                return
            if not (self.shifting or self.revealing):
                self.cursor_before_pick = self.cursor
            if action == "shift":
                self.shifting, self.revealing = not self.shifting, False
            else:
                self.revealing, self.shifting = not self.revealing, False
            self.selected = []
            self.prompt = ""
            if self.shifting:
                self.prompt = _("Anubis Shift: choose a blocked tile (click, or arrows and "
                                "Enter); Esc cancels.")
            if self.revealing:
                self.prompt = _("Tile Reveal: choose a face-down tile (click, or arrows and "
                                "Enter); Esc cancels.")
            # Back on the free tile it stood on when the favor is put away (it went to
            # the top tile, far from where the player had moved it).
            self.cursor = None if self.shifting or self.revealing else self.cursor_before_pick
            self._keep_cursor()
            self.update_drawing()
            # Also beside the board: at 80x24 the line above it may be scrolled away.
            self._tell(self.prompt)
            return
        self.choose(action)

    def _why_off(self, action: str) -> str:
        """Why the engine has no move of this favor now, in words ('' where the app
        plays no game of its own to ask: the board itself has only the view)."""
        session = getattr(self.app, "session", None)
        unavailable = getattr(getattr(session, "state", None), "unavailable", None)
        if not callable(unavailable):
            return ""
        why = unavailable().get(action)
        return words_text(why) if why is not None else ""

    def _tell(self, text: str, refusal: bool = False) -> None:
        tell = getattr(self.app, "refuse" if refusal else "set_message", None)
        if tell is not None:
            tell(text)

    def refused(self) -> None:
        self.update_drawing()

    def action_drop(self) -> None:
        """Escape: drop the selection (or the favor waiting for its tile), and come back
        to the tiles, the keyboard on them and the cursor's tile in sight, from a favor
        button or from wherever the board was scrolled."""
        if self.selected or self.shifting or self.revealing:
            if self.shifting or self.revealing:
                self.cursor = self.cursor_before_pick  # where it stood before the favor
            self.selected = []
            self.shifting = self.revealing = False
            self.prompt = ""
            self._keep_cursor()
            self.update_drawing()
            self._tell("")  # the side's "choose a blocked tile" went stale
        # Escape goes back to the board: why the last move was refused has been read.
        clear = getattr(self.app, "clear_refusal", None)
        if clear is not None:
            clear()
        tiles = self.focus_target()
        if tiles is not None and self.app.focused is not tiles:
            tiles.focus()
        self.show_cursor()

    def show_cursor(self) -> None:
        """The tile under the cursor in sight (the tiles' top where there is none): the
        tiles taking the keyboard scroll nowhere (`TileCanvas.focus`)."""
        found = self.query(TileCanvas)
        if not found:
            return
        canvas = found.first()
        if self.cursor is not None and self.cursor in canvas.canvas.origin:
            self.call_after_refresh(canvas.scroll_to_tile, self.cursor)
        else:
            self.call_after_refresh(canvas.scroll_visible, animate=False, top=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = event.button.name
        if not name:
            return
        event.stop()
        self.action_favor(name)

    def focus_target(self) -> Widget | None:
        taught = self.taught_target()  # a tutorial's button (Ra Sight), else the tiles
        if taught is not None:
            return taught
        found = self.query("#tiles")
        return found.first() if found else None

    def list_moves(self, legal: list[str]) -> list[str]:
        """No list of pairs or tiles: Hint and Ra Sight show matches."""
        return [text for text in legal if text.split(" ")[0] not in ("match", *TILE_FAVORS)]

    @staticmethod
    def variant_of(view: dict[str, Any]) -> str:
        return f"{layout_title(view['layout'])}, {MODE_NAMES.get(view['mode'], view['mode'])}"

    @staticmethod
    def variant_words(variant: str) -> str:
        """A stored variant ("Avenue Of Sphinxes, Standard Expedition") in the reader's
        words: the layout's own title and the mode's title, translated."""
        layout, _comma, mode = variant.rpartition(", ")
        modes = {name: key for key, name in MODE_NAMES.items()}
        names = {layout_title(name): name for name in layout_names()}
        if layout not in names or mode not in modes:
            return variant  # a layout file's, or a name kept by another version
        return f"{shown_layout_title(names[layout])}, {mode_title(modes[mode])}"

    @staticmethod
    def score_words(score: float) -> str:
        return ngettext("{count} point", "{count} points", int(score))


BOARD = MahjonggBoard
