"""Mahjongg Pyramids' observation writer (the manifest's `observation_encoder`).

It fills the vector that `MahjonggView` encodes to, from the state's own fields.
What a seat reads: the tiles on the board (a face-down tile without its face),
scores, tokens, streaks, capstones, vaults, the clock, and, for the seat to
move, the pairs or hint it paid for. The tiles' run (most of the vector) is
filled with array operations from the board's bit masks and a table of each
tile's constant columns, and only when the board differs from the one the
seat's canvas shows. The solver's unsolvable warning, part of the view where
the options ask for it, is asked of the game's advice exactly as the view asks
(so it costs what it costs there: boards a known clearing still clears cost a
few bit operations, the others a solver call, cached per board).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.mahjongg import modes
from pyramids.games.mahjongg.tiles import FACES
from pyramids.games.mahjongg.viewing import barque_view, last_move_seen
from pyramids.rl.encoding import Canvas, CanvasWriter, Layout, ListSlots


def _bits(mask: int, size: int) -> np.ndarray:
    """Bit i of `mask` at index i, for i < size (0/1 as uint8)."""
    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size]


class _TileRuns:
    """The `tiles` run, built with array operations (a board has up to ~150 tiles).

    Each slot holds one present tile in ascending order: its constant columns
    (id, x, y, z, capstone, vault) from a table made once per game, then the
    face columns for a face-up tile, `free`, and `shifted` for the shifted tile.
    """

    def __init__(self, layout: Layout, state: Any) -> None:
        self.start, self.stop = layout.span("tiles")
        slots = layout.slots("tiles")
        self.capacity, self.width = slots.capacity, slots.size
        self.first = slots.first - self.start
        self.length = slots.length - self.start

        def column(name: str) -> int:
            return layout.offset(f"tiles[0].{name}") - slots.first

        game = state.game
        self.geometry = game.geometry
        self.size = game.geometry.size
        self.static = np.zeros((self.size, self.width), dtype=np.float32)
        for tile in range(self.size):
            x, y, z = game.geometry.positions[tile]
            for name, value in (("id", tile), ("x", x), ("y", y), ("z", z)):
                self.static[tile, column(name)] = value
        for tile in game.capstone_ids:
            self.static[tile, column("capstone")] = 1.0
        for tile in game.vault_ids:
            self.static[tile, column("vault")] = 1.0
        self.face_flags = [column(name) for name in ("face?", "face_index?", "group?", "short?")]
        self.face_index = column("face_index")
        self.free = column("free")
        self.shifted = column("shifted")
        self.face_numbers = np.array([face.index for face in FACES], dtype=np.float32)
        self._faces: dict[tuple[int, ...], np.ndarray] = {}  # face-up rows per deal

    def run(self, state: Any) -> np.ndarray:
        run = np.zeros(self.stop - self.start, dtype=np.float32)
        size = self.size
        present = np.flatnonzero(_bits(state.present, size))
        run[self.length] = len(present)
        present = present[:self.capacity]
        count = len(present)
        rows = run[self.first:self.first + count * self.width].reshape(count, self.width)
        # Every tile face up, then the static rows of those face down.
        rows[:] = self._face_up_rows(state.faces)[present]
        hidden = state.face_down & state.present
        if hidden:
            down = _bits(hidden, size)[present].view(bool)
            rows[down] = self.static[present[down]]
        rows[:, self.free] = _bits(state.free_mask(), size)[present]
        if state.shift >= 0:
            rows[present == state.shift, self.shifted] = 1.0
        return run

    def _face_up_rows(self, faces: list[int]) -> np.ndarray:
        """Each tile's row as if face up (its constant columns and its face), per deal."""
        key = tuple(faces)
        found = self._faces.get(key)
        if found is None:
            if len(self._faces) >= 64:
                self._faces.clear()
            found = self.static.copy()
            for flag in self.face_flags:
                found[:, flag] = 1.0
            found[:, self.face_index] = self.face_numbers[np.array(faces, dtype=np.intp)]
            self._faces[key] = found
        return found


def make_mahjongg_writer(layout: Layout, game: Game) -> CanvasWriter:
    """Mahjongg's writer, the final position included. It writes the vector from its
    template each time except the tiles' run, which a move changes throughout (the
    slots hold the tiles left, in order) and which is rewritten when the board
    changed; capstones and vaults are copied from a run kept per value."""
    tile_runs: dict[Any, _TileRuns] = {}
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

    play_at = layout.choice("phase", "play")
    offset = layout.offset
    current_at, tiles_left_at = offset("current_player"), offset("tiles_left")
    bank_at, passes_at = offset("bank"), offset("passes")
    shifted_flag, shifted_at = offset("shifted?"), offset("shifted")
    scores, streaks = layout.slots("scores"), layout.slots("streaks")
    doubling = layout.slots("doubling")

    def put_numbers(cells: memoryview, slots: ListSlots, values: list[int]) -> None:
        # Into the template's zeros: the length, then the values the slots hold.
        cells[slots.length] = len(values)  # (one a seat: far below the bound)
        at = slots.first
        for value in values[:slots.capacity]:
            cells[at] = value
            at += 1

    markers_at, markers_stop = layout.span("capstones")[0], layout.span("vaults")[1]
    markers: dict[tuple[Any, ...], np.ndarray] = {}

    def write_markers(s: Any, out: np.ndarray) -> None:
        # Capstones and vaults, one run, written once per distinct value and kept.
        g = s.game
        present = s.present
        key = (tuple(g.capstone_ids), tuple(s.capstone_by),
               tuple([present >> tile & 1 for tile in g.capstone_ids]),
               tuple(g.vault_ids), tuple(s.vault_status), tuple(s.vault_by))
        found = markers.get(key)
        if found is None:
            scratch = layout.template()
            write_field("capstones", [
                {"id": tile, "removed_by": by, "on_board": bool(s.present >> tile & 1)}
                for tile, by in zip(g.capstone_ids, s.capstone_by, strict=True)], scratch)
            write_field("vaults", [
                {"id": tile, "state": status, "by": by}
                for tile, status, by in zip(g.vault_ids, s.vault_status, s.vault_by,
                                            strict=True)], scratch)
            if len(markers) >= 1024:
                markers.clear()
            found = markers[key] = scratch[markers_at:markers_stop].copy()
        out[markers_at:markers_stop] = found

    def update(state: State, canvas: Canvas) -> bool:
        s: Any = state
        player = canvas.player
        g = s.game
        out = canvas.array
        runs = tile_runs.get(id(g.geometry))
        if runs is None or runs.geometry is not g.geometry:
            runs = tile_runs[id(g.geometry)] = _TileRuns(layout, s)
        blank = template(s)
        # The tiles' run is rewritten only when the board differs from the one this
        # canvas shows (the memo: its template, tile runs and board); the rest of
        # the vector starts from the template each time.
        board = (s.present, s.face_down, s.shift, tuple(s.faces))
        memo = canvas.memo
        if not memo or memo[0] is not blank or memo[1] is not runs:
            out[:] = blank
            memo[:] = [blank, runs, None]
        else:
            out[:runs.start] = blank[:runs.start]
            out[runs.stop:] = blank[runs.stop:]
        if memo[2] != board:
            out[runs.start:runs.stop] = runs.run(s)
            memo[2] = board
        cells = canvas.cells
        cells[current_at] = s.current_player
        cells[tiles_left_at] = s.present.bit_count()
        put_numbers(cells, scores, [s.scores[s.wallet(p)] for p in range(g.num_players)])
        shared = g.shared_pool
        write_field("tokens", s.tokens[0] if shared else list(s.tokens), out)
        cells[bank_at] = s.bank
        put_numbers(cells, streaks, s.streaks)
        put_numbers(cells, doubling, s.doubling)
        write_markers(s, out)
        cells[passes_at] = s.passes
        if s.shift >= 0:
            cells[shifted_flag] = 1
            cells[shifted_at] = s.shift
        write_field("last_move", last_move_seen(s), out)
        if shared:
            write_field("team_score", s.scores[0], out)
        if g.mode == modes.TIME_ATTACK:
            write_field("time_left", s.time_left(), out)
            write_field("elapsed", s.elapsed, out)
            if g.track is not None:
                write_field("barque", barque_view(s), out)
        if s.over:
            out[play_at] = 0.0
            write_field("phase", "over", out)
            write_field("result", s.result(), out)
            write_field("outcome", s.outcome(), out)
            return True
        if player == s.player:
            if s.sight:
                write_field("sight_pairs", [list(p) for p in s.valid_pairs()], out)
            if s.hint and s.valid_pairs():
                write_field("hint", list(g.advice.hint_pair(s)), out)
        if g.solo and g.options["warn_unsolvable"]:
            write_field("unsolvable", g.advice.proven_unsolvable(s), out)
        return True

    return CanvasWriter(layout.size, update)
