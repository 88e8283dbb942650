"""Mahjongg Pyramids' observation writer (the manifest's `observation_encoder`).

It fills the vector that `MahjonggView` encodes to, from the state's own fields.
What a seat reads: the tiles on the board (a face-down tile without its face),
scores, tokens, streaks, capstones, vaults, the clock, and, for the seat to
move, the pairs or hint it paid for. The tiles' run (most of the vector) is
encoded once per board (tiles present, faces, face-down tiles, the shifted
tile) and copied after. The solver's unsolvable warning, part of the view
where the options ask for it, is asked of the game's advice exactly as the view
asks (so it costs what it costs there: the solver, cached per board). The
final position goes through the view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.mahjongg import modes
from pyramids.games.mahjongg.geometry import tiles_in
from pyramids.games.mahjongg.tiles import FACES
from pyramids.games.mahjongg.viewing import barque_view
from pyramids.rl.encoding import BlockCache, FastWriter, Layout


def _tiles(state: Any) -> list[dict[str, Any]]:
    """The board's tiles as the view lists them."""
    game = state.game
    positions = game.geometry.positions
    free = state.free_mask()
    capstones = set(game.capstone_ids)
    vaults = set(game.vault_ids)
    tiles = []
    for tile in tiles_in(state.present):
        x, y, z = positions[tile]
        entry: dict[str, Any] = {"id": tile, "x": x, "y": y, "z": z}
        if state.face_down >> tile & 1:
            entry.update(face=None, face_index=None, group=None, short=None)
        else:
            face = FACES[state.faces[tile]]
            entry.update(face=face.name, face_index=face.index, group=face.group,
                         short=face.short)
        entry["free"] = bool(free >> tile & 1)
        if tile == state.shift:
            entry["shifted"] = True
        if tile in capstones:
            entry["capstone"] = True
        if tile in vaults:
            entry["vault"] = True
        tiles.append(entry)
    return tiles


def make_mahjongg_writer(layout: Layout, game: Game) -> FastWriter:
    tiles = BlockCache.for_field(layout, "tiles")
    write_field = layout.write_field
    templates: dict[tuple[Any, ...], np.ndarray] = {}

    def template(state: Any) -> np.ndarray:
        g = state.game
        key = (g.name, g.mode, g.num_players, g.geometry.size)
        found = templates.get(key)
        if found is None:
            found = layout.template()
            for path, value in (("game", g.name), ("mode", g.mode), ("players", g.num_players),
                                ("phase", "play"), ("tiles_total", g.geometry.size)):
                write_field(path, value, found)
            templates[key] = found
        return found

    def write(state: State, player: int) -> np.ndarray | None:
        s: Any = state
        if s.over or player is None:
            return None
        g = s.game
        out = template(s).copy()
        key = (s.present, s.face_down, s.shift, tuple(s.faces))
        out[tiles.start:tiles.stop] = tiles.block(key, lambda: _tiles(s))
        write_field("current_player", s.current_player, out)
        write_field("tiles_left", s.present.bit_count(), out)
        write_field("scores", [s.scores[s.wallet(p)] for p in range(g.num_players)], out)
        shared = g.shared_pool
        write_field("tokens", s.tokens[0] if shared else list(s.tokens), out)
        write_field("bank", s.bank, out)
        write_field("streaks", list(s.streaks), out)
        write_field("doubling", list(s.doubling), out)
        write_field("capstones", [
            {"id": tile, "removed_by": by, "on_board": bool(s.present >> tile & 1)}
            for tile, by in zip(g.capstone_ids, s.capstone_by, strict=True)], out)
        write_field("vaults", [
            {"id": tile, "state": status, "by": by}
            for tile, status, by in zip(g.vault_ids, s.vault_status, s.vault_by, strict=True)],
            out)
        write_field("passes", s.passes, out)
        write_field("shifted", s.shift if s.shift >= 0 else None, out)
        write_field("last_move", s.last_move, out)
        if shared:
            write_field("team_score", s.scores[0], out)
        if g.mode == modes.TIME_ATTACK:
            write_field("time_left", s.time_left(), out)
            write_field("elapsed", s.elapsed, out)
            if g.track is not None:
                write_field("barque", barque_view(s), out)
        if player == s.player:
            if s.sight:
                write_field("sight_pairs", [list(p) for p in s.valid_pairs()], out)
            if s.hint and s.valid_pairs():
                write_field("hint", list(g.advice.hint_pair(s)), out)
        if g.solo and g.options["warn_unsolvable"]:
            write_field("unsolvable", g.advice.proven_unsolvable(s), out)
        return out

    return write
