"""Why a Mahjongg move is illegal: the message `IllegalActionError` carries.

Kept apart from the rules of play (`state`) because it only reads a position:
each kind of move gets the reason that applies, with what is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramids.games.mahjongg import actions as act
from pyramids.games.mahjongg.tiles import FACES

if TYPE_CHECKING:
    from pyramids.games.mahjongg.state import MahjonggState


def why_illegal(state: MahjonggState, action: int) -> str:
    """Why `action` is not legal in `state`, in words a player can act on."""
    space = state.game.actions
    kind = space.kind(action)
    if not kind:
        return f"not an action of this game; actions are 0..{space.size - 1}"
    if state.over:
        return "the game is over"
    options = state.game.options
    tokens = state.tokens[state.wallet(state.player)]
    owner = "the team has" if state.game.shared_pool else f"player {state.player} has"
    if kind == "match":
        a, b = space.pairs[action]
        for tile in (a, b):
            if not state.present >> tile & 1:
                return f"tile {tile} is no longer on the board"
        free = state.free_mask()
        for tile in (a, b):
            if not free >> tile & 1:
                return f"tile {tile} is not free (covered, or blocked on both sides)"
        return (
            f"tiles {a} ({FACES[state.faces[a]].name}) and {b} "
            f"({FACES[state.faces[b]].name}) do not match"
        )
    if kind == "shift":
        tile = action - space.shift_base
        if state.shift >= 0:
            return f"tile {state.shift} is already shifted this turn"
        if tokens < options["shift_cost"]:
            return f"Anubis Shift costs {options['shift_cost']} token(s); {owner} {tokens}"
        if not state.present >> tile & 1:
            return f"tile {tile} is no longer on the board"
        return f"tile {tile} is already free; Anubis Shift lifts a tile that is not free"
    if kind == "reveal":
        tile = action - space.reveal_base
        if tokens < options["reveal_cost"]:
            return f"a Tile Reveal costs {options['reveal_cost']} token(s); {owner} {tokens}"
        if not state.present >> tile & 1:
            return f"tile {tile} is no longer on the board"
        return f"tile {tile} is already face up; a Tile Reveal turns up a face-down tile"
    if kind == act.SIGHT:
        if state.sight:
            return "Ra Sight is already showing this turn's pairs"
        return f"Ra Sight costs {options['sight_cost']} token(s); {owner} {tokens}"
    if kind == act.RESHUFFLE:
        if state.valid_pairs():
            return "a Sandstorm Reshuffle is allowed only when no valid pair exists"
        return (
            f"a Sandstorm Reshuffle costs {options['reshuffle_cost']} tokens; "
            f"{owner} {tokens}"
        )
    if kind in (act.UNDO, act.HINT):
        if not state.game.solo:
            return f"{kind} exists only in the one-player modes"
        if kind == act.UNDO:
            return "there is nothing to undo"
        if state.hint:
            return "a hint is already showing"
        return "there is no valid pair to hint at"
    if kind == act.FINISH:
        if not state.game.can_finish:
            return "finish exists only in the one-player modes and co-op"
        return "finish needs every remaining tile to be free"
    if kind == "clock":
        if space.clock_limit is None:
            return "the clock exists only in time attack"
        return (
            f"the clock reports the total elapsed seconds, which only grow: "
            f"now {state.elapsed}, allowed {state.elapsed + 1}..{space.clock_limit}"
        )
    return "not legal now"
