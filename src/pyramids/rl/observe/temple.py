"""Temple of Inscriptions' observation writer (the manifest's `observation_encoder`).

It fills the vector that `TempleView` encodes to, from the state's own fields.
What a seat reads: the public table (treasure, hand sizes, the cards each hand
is known to hold, the swap zone, discard and removed cards, the pile's size,
the construction) and its own hand; never another hand's unknown cards or the
pile's order. Card counts go to the `[L1]`..`[J]` features the layout has (a
kind the layout's probe never saw in that place is dropped, as the view-based
encoder drops it).
"""

from __future__ import annotations

from operator import ne
from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.temple.cards import KIND_NAMES, LEVELS
from pyramids.games.temple.state import (
    EMPTY_SLOT,
    PHASE_OVER,
    PHASE_SET,
    PHASE_SUMMON,
    PHASE_SWAP,
    PHASES,
)
from pyramids.rl.encoding import Canvas, CanvasWriter, Layout, ListSlots, put_cells

KIND_INDICES = tuple(range(len(KIND_NAMES)))  # a card kind as the state holds it


def _offsets_by_kind(layout: Layout, prefix: str) -> list[int]:
    """The offset of each card kind's count under `prefix` (`discard`), -1 where the
    layout has none (a kind its probe never saw there: dropped, as the view-based
    encoder drops it)."""
    return [layout.offset(f"{prefix}[{name}]") if layout.has(f"{prefix}[{name}]") else -1
            for name in KIND_NAMES]


def make_temple_writer(layout: Layout, game: Game) -> CanvasWriter:
    """Temple's writer: it updates a seat's canvas in place.

    Everything but the construction is one flat list of values (phase, scalars,
    treasure, hand sizes, each hand's known cards, the swap zone, discard and
    removed cards, the seat's hand: some 80 to 120 numbers) read from the state;
    the canvas's memo keeps the last list, and only the values that differ are
    written (the differences found by C loops, `map` and `list.index`). The
    construction is written when it is a new one, then set by set."""
    offset = layout.offset
    phase_at = layout.choices("phase")
    treasure, hand_sizes = layout.slots("treasure"), layout.slots("hand_sizes")
    known = layout.slots("known")
    zone = layout.slots("swap_zone")
    scalars = [phase_at[name] for name in PHASES] + [
        offset(path) for path in ("current_player", "round", "start_player", "quiet_rounds",
                                  "level?", "level", "built", "pile_size", "passes")]
    known_by_seat = [_offsets_by_kind(layout, f"known[{seat}]")
                     for seat in range(known.capacity)]
    table = _offsets_by_kind(layout, "discard") + _offsets_by_kind(layout, "out_of_game")
    hand_by_kind = _offsets_by_kind(layout, "hand")
    flat_offsets: dict[tuple[int, int], list[int]] = {}

    # A slot of the swap zone: whether a card lies there, then its kind, one-hot.
    zone_flag = offset("swap_zone[0]?") - zone.first
    zone_kinds = layout.choices("swap_zone[i]")
    zone_kind_at = [zone_kinds[name] - zone.first for name in KIND_NAMES]

    def zone_offsets(count: int) -> list[int]:
        """The zone's length feature, then each slot's flag and kind (-1 past the
        capacity)."""
        found = [zone.length]
        for index in range(count):
            base = zone.first + index * zone.size
            found += ([base + zone_flag] + [base + at for at in zone_kind_at]
                      if index < zone.capacity else [-1] * (1 + len(KIND_NAMES)))
        return found

    def numbers(slots: ListSlots, count: int) -> list[int]:
        """A list's length feature, then its first `count` slots (-1 past the capacity)."""
        return [slots.length] + [slots.first + index * slots.size if index < slots.capacity
                                 else -1 for index in range(count)]

    def offsets_for(players: int, zone_size: int) -> list[int]:
        """Where each value of `values` goes (-1: nowhere), for a game's size."""
        key = (players, zone_size)
        found = flat_offsets.get(key)
        if found is None:
            found = list(scalars)
            found += numbers(treasure, players) + numbers(hand_sizes, players)
            found.append(known.length)
            for seat in range(players):
                found += (known_by_seat[seat] if seat < known.capacity
                          else [-1] * len(KIND_NAMES))
            found += zone_offsets(zone_size)
            found += table + hand_by_kind
            flat_offsets[key] = found
        return found

    def values(s: Any, player: int) -> list[Any]:
        """The flat values, in the order of `offsets_for`."""
        phase, built = s.phase, s.built
        building = built < LEVELS
        found: list[Any] = [
            phase == PHASE_SWAP, phase == PHASE_SUMMON, phase == PHASE_SET, phase == PHASE_OVER,
            s.current, s.round, s.start_player, s.quiet_rounds, building,
            s.level if building else 0, built, len(s.pile),
            s.acted if phase == PHASE_SUMMON else 0]
        gems = s.treasure
        found.append(len(gems))
        found += gems
        hands = s.hands
        found.append(len(hands))
        found += map(sum, hands)
        seen = s.known
        found.append(len(seen))
        for counts in seen:
            found += counts
        slots = s.zone
        found.append(len(slots))
        for kind in slots:
            found.append(kind != EMPTY_SLOT)
            found += [kind == each for each in KIND_INDICES]
        found += s.discard
        found += s.removed
        found += hands[player]
        return found

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
        cells = canvas.cells
        memo = canvas.memo
        if not memo:
            canvas.array[:] = template(s, canvas.player)
            # As written: the flat values, the construction (and its sets written).
            memo[:] = [None, (None, 0)]
        found = values(s, canvas.player)
        offsets = offsets_for(s.num_players, len(s.zone))
        before = memo[0]
        if before is None or len(before) != len(found):
            for at, value in zip(offsets, found, strict=True):
                if at >= 0:
                    cells[at] = value
        else:
            changed = list(map(ne, found, before))
            index = -1
            for _ in range(changed.count(True)):
                index = changed.index(True, index + 1)
                at = offsets[index]
                if at >= 0:
                    cells[at] = found[index]
        memo[0] = found
        c = s.construction
        was, written = memo[1]
        if c is not was:
            write_construction(s, c, cells)
            memo[1] = (c, len(c.sets) if c is not None else 0)
        elif c is not None and len(c.sets) != written:
            add_sets(s, c, written, cells)
            memo[1] = (c, len(c.sets))
        phase = s.phase
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
