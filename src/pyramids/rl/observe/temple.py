"""Temple of Inscriptions' observation writer (the manifest's `observation_encoder`).

It fills the vector that `TempleView` encodes to, from the state's own fields.
What a seat reads: the public table (treasure, hand sizes, the cards each hand
is known to hold, the swap zone, discard and removed cards, the pile's size,
the construction) and its own hand; never another hand's unknown cards or the
pile's order. Card counts go to the `[L1]`..`[J]` features the layout has (a
kind the layout's probe never saw in that place is dropped, as the view-based
encoder drops it). The final position goes through the view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.temple.cards import KIND_NAMES, LEVELS
from pyramids.games.temple.state import EMPTY_SLOT, PHASE_OVER, PHASE_SUMMON
from pyramids.rl.encoding import FastWriter, Layout, put_numbers


def _count_offsets(layout: Layout, prefix: str) -> list[tuple[int, int]]:
    """(kind, offset) for each card kind the layout has under `prefix` (`discard`)."""
    return [(kind, layout.offset(f"{prefix}[{name}]")) for kind, name in enumerate(KIND_NAMES)
            if layout.has(f"{prefix}[{name}]")]


def _put_counts(out: np.ndarray, where: list[tuple[int, int]], counts: list[int]) -> None:
    for kind, at in where:
        count = counts[kind]
        if count:
            out[at] = count


def _shifted(where: list[tuple[int, int]], start: int) -> list[tuple[int, int]]:
    return [(kind, at - start) for kind, at in where]


class _CountRuns:
    """Runs of card-count features that seldom change (known cards, discard and removed
    cards), encoded once per content and copied after."""

    def __init__(self, start: int, stop: int) -> None:
        self.start, self.stop = start, stop
        self._runs: dict[Any, np.ndarray] = {}

    def run(self, key: Any, fill: Callable[[np.ndarray], None]) -> np.ndarray:
        found = self._runs.get(key)
        if found is None:
            if len(self._runs) >= RUNS_KEPT:
                self._runs.clear()
            found = np.zeros(self.stop - self.start, dtype=np.float32)
            fill(found)
            self._runs[key] = found
        return found


RUNS_KEPT = 4096


def make_temple_writer(layout: Layout, game: Game) -> FastWriter:
    offset = layout.offset
    phase_at = layout.choices("phase")
    current_at, round_at = offset("current_player"), offset("round")
    start_at, quiet_at = offset("start_player"), offset("quiet_rounds")
    level_flag, level_at, built_at = offset("level?"), offset("level"), offset("built")
    treasure, hand_sizes = layout.slots("treasure"), layout.slots("hand_sizes")
    known = layout.slots("known")
    known_at = [_count_offsets(layout, f"known[{seat}]") for seat in range(known.capacity)]
    zone = layout.slots("swap_zone")
    discard_at = _count_offsets(layout, "discard")
    removed_at = _count_offsets(layout, "out_of_game")
    hand_at = _count_offsets(layout, "hand")
    pile_at, passes_at = offset("pile_size"), offset("passes")
    known_runs = _CountRuns(known.length, known.first + known.size * known.capacity)
    known_in_run = [_shifted(where, known_runs.start) for where in known_at]
    table_offsets = [at for _, at in discard_at + removed_at]
    table_runs = _CountRuns(min(table_offsets, default=0), max(table_offsets, default=-1) + 1)
    discard_in_run = _shifted(discard_at, table_runs.start)
    removed_in_run = _shifted(removed_at, table_runs.start)

    def fill_known(seen: list[list[int]], run: np.ndarray) -> None:
        run[0] = len(seen)
        for seat, counts in enumerate(seen[:known.capacity]):
            _put_counts(run, known_in_run[seat], counts)

    def fill_table(discard: list[int], removed: list[int], run: np.ndarray) -> None:
        _put_counts(run, discard_in_run, discard)
        _put_counts(run, removed_in_run, removed)
    templates: dict[tuple[Any, ...], np.ndarray] = {}

    def template(state: Any, player: int) -> np.ndarray:
        key = (player, state.num_players, state.game.options["max_rounds"])
        found = templates.get(key)
        if found is None:
            found = layout.template()
            layout.write_field("game", state.game.name, found)
            layout.write_field("viewer", player, found)
            layout.write_field("players", state.num_players, found)
            layout.write_field("max_rounds", state.game.options["max_rounds"], found)
            templates[key] = found
        return found

    def write(state: State, player: int) -> np.ndarray | None:
        s: Any = state
        phase = s.phase
        if phase == PHASE_OVER or player is None:
            return None
        out = template(s, player).copy()
        out[phase_at[phase]] = 1.0
        out[current_at] = s.current
        out[round_at] = s.round
        out[start_at] = s.start_player
        out[quiet_at] = s.quiet_rounds
        if s.built < LEVELS:
            out[level_flag] = 1.0
            out[level_at] = s.level
        out[built_at] = s.built
        put_numbers(out, treasure, list(s.treasure))
        put_numbers(out, hand_sizes, [sum(hand) for hand in s.hands])
        seen = s.known
        out[known_runs.start:known_runs.stop] = known_runs.run(
            tuple(map(tuple, seen)), lambda run: fill_known(seen, run))
        slots = s.zone
        out[zone.length] = len(slots)
        for index, kind in enumerate(slots[:zone.capacity]):
            if kind != EMPTY_SLOT:
                out[zone.first + index * zone.size] = 1.0
        discard, removed = s.discard, s.removed
        out[table_runs.start:table_runs.stop] = table_runs.run(
            (*discard, -1, *removed), lambda run: fill_table(discard, removed, run))
        out[pile_at] = len(s.pile)
        if phase == PHASE_SUMMON:
            out[passes_at] = s.acted
        c = s.construction
        if c is not None:
            layout.write_field("construction", {
                "level": s.level,
                "summoner": c.summoner,
                "paid": c.paid,
                "sets": [{"player": p, "cards": cards, "jewel_pairs": pairs}
                         for p, cards, pairs in c.sets],
                "units_by_player": c.units_by_player(s.num_players),
                "units": c.units,
                "missing": c.missing,
                "next": c.next_setter,
            }, out)
        _put_counts(out, hand_at, s.hands[player])
        return out

    return write
