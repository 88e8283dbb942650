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
from operator import ne
from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.temple.cards import KIND_NAMES, LEVELS
from pyramids.games.temple.state import EMPTY_SLOT, PHASE_OVER, PHASE_SUMMON
from pyramids.rl.encoding import Canvas, CanvasWriter, Layout, put_cells


def _count_offsets(layout: Layout, prefix: str) -> list[tuple[int, int]]:
    """(kind, offset) for each card kind the layout has under `prefix` (`discard`)."""
    return [(kind, layout.offset(f"{prefix}[{name}]")) for kind, name in enumerate(KIND_NAMES)
            if layout.has(f"{prefix}[{name}]")]


def _put_counts(out: np.ndarray, where: list[tuple[int, int]], counts: list[int]) -> None:
    for kind, at in where:
        count = counts[kind]
        if count:
            out[at] = count


def _by_kind(where: list[tuple[int, int]]) -> list[int | None]:
    """The offset of each card kind's count (None where the layout has none)."""
    found: list[int | None] = [None] * len(KIND_NAMES)
    for kind, at in where:
        found[kind] = at
    return found


def _put_changed(cells: memoryview, offsets: list[int | None], counts: list[int],
                 was: list[int]) -> None:
    """Write the counts that differ from `was` (found by C loops: one or two change)."""
    changed = list(map(ne, counts, was))
    kind = -1
    for _ in range(changed.count(True)):
        kind = changed.index(True, kind + 1)
        at = offsets[kind]
        if at is not None:
            cells[at] = counts[kind]


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


def make_temple_writer(layout: Layout, game: Game) -> CanvasWriter:
    """Temple's writer: it updates a seat's canvas in place. The scalars are written each
    step; the treasure, hand sizes, known cards, swap zone, discard and removed cards,
    the construction and the hand only when they differ from what the canvas holds."""
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
    hand_cells = _by_kind(hand_at)
    known_cells = [_by_kind(where) for where in known_at]
    pile_at, passes_at = offset("pile_size"), offset("passes")
    known_runs = _CountRuns(known.length, known.first + known.size * known.capacity)
    known_in_run = [_shifted(where, known_runs.start) for where in known_at]
    table_offsets = [at for _, at in discard_at + removed_at]
    table_runs = _CountRuns(min(table_offsets, default=0), max(table_offsets, default=-1) + 1)
    discard_in_run = _shifted(discard_at, table_runs.start)
    removed_in_run = _shifted(removed_at, table_runs.start)
    built_flag = offset("construction?")
    built_start, built_stop = layout.span("construction")
    built_level, built_summoner = offset("construction.level"), offset("construction.summoner")
    built_paid = offset("construction.paid")
    sets = layout.slots("construction.sets")
    set_player = offset("construction.sets[0].player") - sets.first
    set_cards = offset("construction.sets[0].cards") - sets.first
    set_pairs = offset("construction.sets[0].jewel_pairs") - sets.first
    units_by_player = layout.slots("construction.units_by_player")
    units_at, missing_at = offset("construction.units"), offset("construction.missing")
    next_at = offset("construction.next")
    blank_construction = np.zeros(built_stop - built_start, dtype=np.float32)

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

    def write_construction(s: Any, c: Any, cells: memoryview) -> None:
        cells[built_start:built_stop] = blank_construction.data
        if c is None:
            return
        cells[built_flag] = 1
        cells[built_level] = s.level
        cells[built_summoner] = c.summoner
        cells[built_paid] = 1 if c.paid else 0
        add_sets(s, c, 0, cells)

    def add_sets(s: Any, c: Any, written: int, cells: memoryview) -> None:
        """The sets recorded since `written` were (a construction's sets only grow)."""
        cells[sets.length] = len(c.sets)
        for index in range(written, min(len(c.sets), sets.capacity)):
            who, cards, pairs = c.sets[index]
            at = sets.first + index * sets.size
            cells[at + set_player] = who
            cells[at + set_cards] = cards
            cells[at + set_pairs] = pairs
        put_cells(cells, units_by_player, c.units_by_player(s.num_players), 0)
        cells[units_at] = c.units
        cells[missing_at] = c.missing
        cells[next_at] = c.next_setter

    def update(state: State, canvas: Canvas) -> bool:
        s: Any = state
        phase = s.phase
        cells = canvas.cells
        memo = canvas.memo
        if not memo:
            canvas.array[:] = template(s, canvas.player)
            # As written: phase, treasure, hand sizes, known cards, swap zone, discard
            # and removed cards, construction (and its sets), hand.
            memo[:] = [PHASE_OVER, [], [], None, [], None, (None, 0), None]
        cells[phase_at[memo[0]]] = 0
        cells[phase_at[phase]] = 1
        memo[0] = phase
        cells[current_at] = s.current
        cells[round_at] = s.round
        cells[start_at] = s.start_player
        cells[quiet_at] = s.quiet_rounds
        built = s.built
        if built < LEVELS:
            cells[level_flag] = 1
            cells[level_at] = s.level
        else:
            cells[level_flag] = cells[level_at] = 0
        cells[built_at] = built
        cells[pile_at] = len(s.pile)
        cells[passes_at] = s.acted if phase == PHASE_SUMMON else 0
        gems = s.treasure
        if gems != memo[1]:
            put_cells(cells, treasure, gems, len(memo[1]))
            memo[1] = list(gems)
        sizes = list(map(sum, s.hands))
        if sizes != memo[2]:
            put_cells(cells, hand_sizes, sizes, len(memo[2]))
            memo[2] = sizes
        seen = s.known
        if seen != memo[3]:
            before = memo[3]
            if before is None or len(seen) != len(before):
                cells[known_runs.start:known_runs.stop] = known_runs.run(
                    tuple(map(tuple, seen)), lambda run: fill_known(seen, run)).data
            else:
                # A hand's known cards change one hand at a time (a swap, a set).
                for seat, (counts, was) in enumerate(zip(seen, before, strict=True)):
                    if counts != was and seat < known.capacity:
                        _put_changed(cells, known_cells[seat], counts, was)
            memo[3] = [list(counts) for counts in seen]
        slots = s.zone
        if slots != memo[4]:
            before = memo[4]
            cells[zone.length] = len(slots)
            for index in range(min(max(len(slots), len(before)), zone.capacity)):
                cells[zone.first + index * zone.size] = (
                    1 if index < len(slots) and slots[index] != EMPTY_SLOT else 0)
            memo[4] = list(slots)
        discard, removed = s.discard, s.removed
        table = (*discard, -1, *removed)
        if table != memo[5]:
            cells[table_runs.start:table_runs.stop] = table_runs.run(
                table, lambda run: fill_table(discard, removed, run)).data
            memo[5] = table
        c = s.construction
        was, written = memo[6]
        if c is not was:
            write_construction(s, c, cells)
            memo[6] = (c, len(c.sets) if c is not None else 0)
        elif c is not None and len(c.sets) != written:
            add_sets(s, c, written, cells)
            memo[6] = (c, len(c.sets))
        own = s.hands[canvas.player]
        if own != memo[7]:
            if memo[7] is None:
                for kind, at in hand_at:
                    cells[at] = own[kind]
            else:
                _put_changed(cells, hand_cells, own, memo[7])
            memo[7] = list(own)
        if phase == PHASE_OVER:
            # The end's own fields, once an episode; the next update starts afresh.
            array = canvas.array
            best = s.winners()
            for path, value in (("jewels", s.jewels_in_hand()), ("scores", s.scores()),
                                ("winners", best),
                                ("winner", best[0] if len(best) == 1 else None),
                                ("ended_by", s.ended_by), ("outcome", s.outcome())):
                layout.write_field(path, value, array)
            canvas.forget()
        return True

    return CanvasWriter(layout.size, update)
