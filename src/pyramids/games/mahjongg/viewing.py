"""What a Mahjongg position shows: the view, the end-of-game result and the outcome.

The shapes are declared in `views` (`MahjonggView`, `MahjonggResult`); this
module builds them from a state, reading it only. A face-down tile shows no
face; the solver's hint and warning are looked at only where no tile is face
down, so nothing hidden reaches a view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramids.core.views import Outcome, make_outcome
from pyramids.games.mahjongg import modes
from pyramids.games.mahjongg.geometry import tiles_in
from pyramids.games.mahjongg.tiles import FACES

if TYPE_CHECKING:
    from pyramids.games.mahjongg.state import MahjonggState


def last_move_seen(state: MahjonggState) -> dict[str, Any] | None:
    """The last move as everyone saw it: a pair with the faces of its two tiles (both
    were free and face up when taken), so a reader who came later can name them."""
    move = state.last_move
    if move is None or not str(move.get("action", "")).startswith("match "):
        return move
    tiles = [int(tile) for tile in str(move["action"]).split()[1:]]
    return {**move, "faces": [FACES[state.faces[tile]].name for tile in tiles]}


def build_view(state: MahjonggState, player: int | None) -> dict[str, Any]:
    """What `player` sees (None: a spectator); see `MahjonggView`."""
    game = state.game
    geometry = game.geometry
    free = state.free_mask()
    capstones = set(game.capstone_ids)
    vaults = set(game.vault_ids)
    tiles = []
    for tile in tiles_in(state.present):
        x, y, z = geometry.positions[tile]
        entry: dict[str, Any] = {"id": tile, "x": x, "y": y, "z": z}
        if state.face_down >> tile & 1:
            entry.update(face=None, face_index=None, group=None, short=None)
        else:
            face = FACES[state.faces[tile]]
            entry.update(
                face=face.name, face_index=face.index, group=face.group, short=face.short
            )
        entry["free"] = bool(free >> tile & 1)
        if tile == state.shift:
            entry["shifted"] = True
        if tile in capstones:
            entry["capstone"] = True
        if tile in vaults:
            entry["vault"] = True
        tiles.append(entry)
    shared = game.shared_pool
    view: dict[str, Any] = {
        "game": game.name,
        "mode": game.mode,
        "layout": game.layout.name,
        "players": game.num_players,
        "phase": "over" if state.over else "play",
        "current_player": state.current_player,
        "tiles": tiles,
        "tiles_left": len(tiles),
        "tiles_total": geometry.size,
        "scores": [state.scores[state.wallet(p)] for p in range(game.num_players)],
        "tokens": state.tokens[0] if shared else list(state.tokens),
        "bank": state.bank,
        "streaks": list(state.streaks),
        "doubling": list(state.doubling),
        "capstones": [
            {"id": tile, "removed_by": by, "on_board": bool(state.present >> tile & 1)}
            for tile, by in zip(game.capstone_ids, state.capstone_by, strict=True)
        ],
        "vaults": [
            {"id": tile, "state": status, "by": by}
            for tile, status, by in zip(
                game.vault_ids, state.vault_status, state.vault_by, strict=True
            )
        ],
        "passes": state.passes,
        "shifted": state.shift if state.shift >= 0 else None,
        "last_move": last_move_seen(state),
    }
    if shared:
        view["team_score"] = state.scores[0]
    if game.mode == modes.TIME_ATTACK:
        view["time_left"] = state.time_left()
        view["elapsed"] = state.elapsed
        if game.track is not None:
            view["barque"] = barque_view(state)
    if player is not None and player == state.player and not state.over:
        if state.sight:
            view["sight_pairs"] = [list(p) for p in state.valid_pairs()]
        if state.hint and state.valid_pairs():
            view["hint"] = list(game.advice.hint_pair(state))
    if game.solo and game.options["warn_unsolvable"] and not state.over:
        view["unsolvable"] = game.advice.proven_unsolvable(state)
    if state.over:
        view["result"] = build_result(state)
    view["outcome"] = build_outcome(state)
    return view

def barque_view(state: MahjonggState) -> dict[str, Any]:
    """Where the Solar Barque stands and what speed is worth now; see `BarqueView`."""
    track = state.game.track
    assert track is not None
    elapsed = state.elapsed
    return {
        "space": track.space(elapsed),
        "spaces": track.spaces,
        "space_seconds": track.space_seconds,
        "spaces_left": track.spaces_left(elapsed),
        "clock": state.game.options["clock"],
        "quick_until": state.last_pair_at + track.quick_seconds,
        "quick_bonus": track.quick_bonus,
        "layer_bonus": track.layers_bonus(elapsed, 1),
    }


def build_outcome(state: MahjonggState) -> Outcome | None:
    """The standard end block; Mahjongg's own details stay in `result`."""
    if not state.over:
        return None
    game = state.game
    figures = {"tiles_left": state.present.bit_count(), "cleared": not state.present}
    if game.mode == modes.TIME_ATTACK:
        figures["time_left"] = state.time_left()
    return make_outcome(
        winners=state.winners(),
        scores=[state.scores[state.wallet(p)] for p in range(game.num_players)],
        reason=state.end_reason or "over",
        figures=figures,
    )


def build_result(state: MahjonggState) -> dict[str, Any]:
    """Mahjongg's own end-of-game details (the `result` of a finished view)."""
    game = state.game
    result: dict[str, Any] = {
        "reason": state.end_reason,
        "cleared": not state.present,
        "winners": state.winners(),
        "returns": state.returns(),
        "scores": list(state.scores),
        "token_bonus": list(state.token_bonus),
    }
    if game.shared_pool:
        result["team_won"] = state.team_won()
    if game.mode == modes.TIME_ATTACK:
        result["time_left"] = state.time_left()
        result["time_score"] = (
            state.time_left() + state.tokens[0] * game.options["time_token_bonus_seconds"]
        )
    return result
