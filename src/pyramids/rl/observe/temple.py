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
        out[known.length] = len(seen)
        for seat, counts in enumerate(seen[:known.capacity]):
            _put_counts(out, known_at[seat], counts)
        slots = s.zone
        out[zone.length] = len(slots)
        for index, kind in enumerate(slots[:zone.capacity]):
            if kind != EMPTY_SLOT:
                out[zone.first + index * zone.size] = 1.0
        _put_counts(out, discard_at, s.discard)
        _put_counts(out, removed_at, s.removed)
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
