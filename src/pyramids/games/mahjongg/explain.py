"""Why a Mahjongg move is illegal: the words `IllegalActionError` carries.

Kept apart from the rules of play (`state`) because it only reads a position:
each kind of move gets the reason that applies, with what is allowed. Tiles are
named by their faces as players read them (a face-down tile stays unnamed), never
by id; the player told is the one to move ("you"), or the team in co-op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramids.core.errors import N_, PluralWords, Words
from pyramids.games.mahjongg import actions as act
from pyramids.games.mahjongg.tiles import FACES

if TYPE_CHECKING:
    from pyramids.games.mahjongg.layout import Layout
    from pyramids.games.mahjongg.state import MahjonggState

# Each face name as a catalogue message (the suits carry their number as a value).
_SUIT_WORDS = {"Scarab": N_("Scarab {value}"), "Papyrus": N_("Papyrus {value}"),
               "Glyph": N_("Glyph {value}")}
_FACE_WORDS = {
    name: name for name in (
        N_("Ra"), N_("Horus"), N_("Anubis"), N_("Isis"), N_("Nile Inundation"), N_("Harvest"),
        N_("Oasis"), N_("Sun"), N_("Wind"), N_("Sandstorm"), N_("Golden Pharaoh"),
        N_("Sacred Scepter"),
    )
}


def face_words(name: str | None) -> Words:
    """A face's name (the engine's English id) as players read it; None: face down."""
    if not name:
        return Words(N_("a face-down tile"))
    suit, _space, value = name.partition(" ")
    if suit in _SUIT_WORDS and value:
        return Words(_SUIT_WORDS[suit], value=int(value))
    return Words(_FACE_WORDS.get(name, name))


def tile_words(state: MahjonggState, tile: int) -> Words:
    """A tile as players read it: its face, or "a face-down tile" while it hides one."""
    if state.face_down >> tile & 1:
        return face_words(None)
    return face_words(FACES[state.faces[tile]].name)


def tile_place(layout: Layout, tile: int) -> Words:
    """Where a tile lies, in words a person can find on any drawing of the board (the
    terminal app, the browser, a table): its layer counted from 1 at the bottom, then
    its row from the top and its column from the left, counted in whole tiles over the
    whole board, so that a tile above lies in the rows and columns of those below it.
    A tile set half a tile off that grid (as most upper layers of a pyramid are) lies
    across two rows or columns: `rows 3-4`."""
    x, y, z = layout.positions[tile]
    # The board's edges, not the layer's: a column means the same place on every layer.
    left = min(px for px, _py, _pz in layout.positions)
    top = min(py for _px, py, _pz in layout.positions)
    return Words(N_("layer {layer}, {row}, {column}"), layer=z + 1,
                 row=_grid_words(y - top, N_("row {first}"), N_("rows {first}-{second}")),
                 column=_grid_words(x - left, N_("column {first}"),
                                    N_("columns {first}-{second}")))


def _grid_words(cells: int, one: str, across: str) -> Words:
    """`cells` half-tile steps from the edge as a row or column counted from 1 (`one`),
    or the two a tile half a step off lies across (`across`)."""
    first = cells // 2 + 1
    if cells % 2 == 0:
        return Words(one, first=first)
    return Words(across, first=first, second=first + 1)


def _tokens_held(state: MahjonggState, tokens: int) -> Words:
    if state.game.shared_pool:
        return Words(N_("the team has {tokens}"), tokens=tokens)
    return Words(N_("you have {tokens}"), tokens=tokens)


def _cost(favor: Words, cost: int, held: Words) -> Words:
    return Words(N_("{favor} costs {tokens}; {held}"), favor=favor,
                 tokens=PluralWords("{count} token", "{count} tokens", cost), held=held)


def why_illegal(state: MahjonggState, action: int) -> Words:
    """Why `action` is not legal in `state`, in words a player can act on."""
    space = state.game.actions
    kind = space.kind(action)
    if not kind:
        return Words(N_("that is not a move of this game"))
    if state.over:
        return Words(N_("the game is over"))
    options = state.game.options
    held = _tokens_held(state, state.tokens[state.wallet(state.player)])
    if kind == "match":
        a, b = space.pairs[action]
        for tile in (a, b):
            if not state.present >> tile & 1:
                return Words(N_("{tile} is no longer on the board"), tile=tile_words(state, tile))
        free = state.free_mask()
        for tile in (a, b):
            if not free >> tile & 1:
                return Words(N_("{tile} is not free (covered, or blocked on both sides)"),
                             tile=tile_words(state, tile))
        return Words(N_("{first} and {second} do not match"),
                     first=tile_words(state, a), second=tile_words(state, b))
    if kind == "shift":
        tile = action - space.shift_base
        refused = _tile_favor_refused(state, kind)
        if refused is not None:
            return refused
        if not state.present >> tile & 1:
            return Words(N_("{tile} is no longer on the board"), tile=tile_words(state, tile))
        return Words(N_("{tile} is already free; Anubis Shift lifts a tile that is not free"),
                     tile=tile_words(state, tile))
    if kind == "reveal":
        tile = action - space.reveal_base
        refused = _tile_favor_refused(state, kind)
        if refused is not None:
            return refused
        if not state.present >> tile & 1:
            return Words(N_("{tile} is no longer on the board"), tile=tile_words(state, tile))
        return Words(N_("{tile} is already face up; Tile Reveal turns up a face-down tile"),
                     tile=tile_words(state, tile))
    if kind == act.SIGHT:
        if state.sight:
            return Words(N_("Ra Sight is already showing this turn's pairs"))
        return _cost(Words(N_("Ra Sight")), options["sight_cost"], held)
    if kind == act.RESHUFFLE:
        short = state.tokens[state.wallet(state.player)] < options["reshuffle_cost"]
        if state.valid_pairs():
            # Both reasons when both hold: matching a pair alone never makes it playable.
            if short:
                return Words(N_("a Sandstorm Reshuffle is allowed only when no valid pair "
                                "exists, and it costs {tokens}; {held}"),
                             tokens=PluralWords("{count} token", "{count} tokens",
                                                options["reshuffle_cost"]), held=held)
            return Words(N_("a Sandstorm Reshuffle is allowed only when no valid pair exists"))
        return _cost(Words(N_("Sandstorm Reshuffle")), options["reshuffle_cost"], held)
    if kind in (act.UNDO, act.HINT):
        if not state.game.solo:
            if kind == act.UNDO:
                return Words(N_("undo exists only in the one-player modes"))
            return Words(N_("hints exist only in the one-player modes"))
        if kind == act.UNDO:
            if not state.undo_keeps_favors_paid():
                if state.game.options["undo_refunds_favors"]:
                    return Words(N_("an undo would take back the token a favor was paid "
                                    "with (a vault's, won since), and the moves it takes "
                                    "back showed a face-down tile, so the favor's tokens "
                                    "stay spent"))
                return Words(N_("an undo would take back the token a favor was paid with "
                                "(a vault's, won since): a favor's tokens stay spent"))
            return Words(N_("there is nothing to undo"))
        if state.hint:
            return Words(N_("a hint is already showing"))
        return Words(N_("there is no valid pair to hint at"))
    if kind == act.FINISH:
        if not state.game.can_finish:
            return Words(N_("finishing exists only in the one-player modes and co-op"))
        return Words(N_("finishing needs every remaining tile to be free"))
    if kind == "clock":
        if space.clock_limit is None:
            return Words(N_("the clock exists only in time attack"))
        return Words(N_("the clock reports the total elapsed seconds, which only grow: "
                        "now {now}, allowed {low}..{high}"),
                     now=state.elapsed, low=state.elapsed + 1, high=space.clock_limit)
    return Words(N_("not legal now"))


def _tile_favor_refused(state: MahjonggState, kind: str) -> Words | None:
    """Why Anubis Shift (`shift`) or Tile Reveal (`reveal`) cannot be used at all this
    turn, whatever the tile (None: it can, on a tile that suits it)."""
    options = state.game.options
    tokens = state.tokens[state.wallet(state.player)]
    if kind == "shift":
        if state.shift >= 0:
            return Words(N_("{tile} is already shifted this turn"),
                         tile=tile_words(state, state.shift))
        if tokens < options["shift_cost"]:
            return _cost(Words(N_("Anubis Shift")), options["shift_cost"],
                         _tokens_held(state, tokens))
        return None
    if tokens < options["reveal_cost"]:
        return _cost(Words(N_("Tile Reveal")), options["reveal_cost"],
                     _tokens_held(state, tokens))
    return None


def why_no_tile_favor(state: MahjonggState, kind: str) -> Words:
    """Why no tile can be chosen for Anubis Shift (`shift`) or Tile Reveal (`reveal`)."""
    refused = _tile_favor_refused(state, kind)
    if refused is not None:
        return refused
    if kind == "shift":
        return Words(N_("no tile is blocked: Anubis Shift lifts a tile that is not free"))
    return Words(N_("no face-down tile is left to turn up"))
