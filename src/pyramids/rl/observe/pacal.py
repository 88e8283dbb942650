"""Pacal's and Pacal solo's observation writers (the manifests' `observation_encoder`).

They fill the vector that `PacalView` / `PacalSoloView` encode to, from the
state's own fields. What a seat reads: the public table (pyramids, spreads,
hand sizes, the offer and the picked card once the turn shows them) and its
own hand, card to place and legal fields; never the other hand or the bases.
The final position goes through the view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.pacal import pyramid as pyr
from pyramids.games.pacal.match import OVER, PHASE_NAMES, PICK, PLACE
from pyramids.rl.encoding import BlockCache, FastWriter, Layout, ListSlots, put_numbers


class _PyramidRuns:
    """A pyramid's run of features (`[[cards of F1], ..]`, a list of lists), kept by its cards.

    `fields` and `cards` are the layout's lists `X` and `X[i]`; a run is the
    features from `start` (the list's length) to `stop`, with its spread beside it.
    """

    def __init__(self, fields: ListSlots, cards: ListSlots, start: int, stop: int) -> None:
        self.start, self.stop = start, stop
        self.fields_length = fields.length - start
        self.field_size = fields.size
        self.field_capacity = fields.capacity
        self.cards_length = cards.length - start
        self.cards_first = cards.first - start
        self.card_size = cards.size
        self.card_capacity = cards.capacity
        self._runs: dict[tuple[int, ...], tuple[np.ndarray, int]] = {}

    def run(self, visible: list[int], covered: list[int]) -> tuple[np.ndarray, int]:
        key = (*visible, *covered)
        found = self._runs.get(key)
        if found is None:
            if len(self._runs) >= RUNS_KEPT:
                self._runs.clear()
            found = self._runs[key] = (self._encode(visible, covered), pyr.spread(visible))
        return found

    def _encode(self, visible: list[int], covered: list[int]) -> np.ndarray:
        run = np.zeros(self.stop - self.start, dtype=np.float32)
        run[self.fields_length] = len(visible)
        for index in range(min(len(visible), self.field_capacity)):
            top = visible[index]
            if not top:
                continue  # an empty field: length 0, no cards
            at = index * self.field_size
            cards = [covered[index], top] if covered[index] else [top]
            run[at + self.cards_length] = len(cards)
            for slot, card in enumerate(cards[:self.card_capacity]):
                run[at + self.cards_first + slot * self.card_size] = card
        return run


RUNS_KEPT = 4096


def make_pacal_writer(layout: Layout, game: Game) -> FastWriter:
    """The two-player match's writer."""
    offset = layout.offset
    phase_at = [layout.choice("phase", name) for name in PHASE_NAMES]
    scalars = {key: offset(key) for key in (
        "current_player", "round", "starting_player", "active_player", "turns_played")}
    current, round_at = scalars["current_player"], scalars["round"]
    starter_at, active_at, turns_at = (scalars["starting_player"], scalars["active_player"],
                                       scalars["turns_played"])
    round_wins = layout.slots("round_wins")
    reveal_flag, reveal = offset("revealed_apex_bases?"), layout.slots("revealed_apex_bases")
    pyramids = layout.slots("pyramids")
    pyramid_runs = _PyramidRuns(layout.slots("pyramids[i]"), layout.slots("pyramids[i][i]"),
                                pyramids.first, pyramids.first + pyramids.size)
    spreads, hand_sizes = layout.slots("spreads"), layout.slots("hand_sizes")
    offer_flag, offer = offset("offer?"), layout.slots("offer")
    picked_flag, picked_at = offset("picked?"), offset("picked")
    to_place = layout.slots("to_place")
    declined = layout.slots("declined")
    last_round = BlockCache.for_field(layout, "last_round")
    hand = layout.slots("hand")
    card_flag, card_at = offset("card_to_place?"), offset("card_to_place")
    legal = layout.slots("legal_fields")
    templates: dict[tuple[Any, ...], np.ndarray] = {}
    kept_round: list[Any] = [None, None]  # the last round's dict and its block (never changed)

    def template(state: Any, player: int) -> np.ndarray:
        key = (player, state._direction, state._rounds_to_win, state._max_rounds)
        found = templates.get(key)
        if found is None:
            found = layout.template()
            layout.write_field("game", "pacal", found)
            layout.write_field("viewer", player, found)
            layout.write_field("direction", state._direction, found)
            layout.write_field("layout", pyr.layout(state._direction), found)
            layout.write_field("rounds_to_win", state._rounds_to_win, found)
            layout.write_field("max_rounds", state._max_rounds, found)
            templates[key] = found
        return found

    def write(state: State, player: int) -> np.ndarray | None:
        s: Any = state
        phase = s._phase
        if phase == OVER or player is None:
            return None
        out = template(s, player).copy()
        out[phase_at[phase]] = 1.0
        out[current] = s._current
        out[round_at] = s._round
        put_numbers(out, round_wins, list(s._round_wins))
        out[starter_at] = s._starter
        out[active_at] = s._active
        out[turns_at] = s._turn
        if s._reveal is not None:
            out[reveal_flag] = 1.0
            put_numbers(out, reveal, list(s._reveal))
        visible, covered = s._visible, s._covered
        out[pyramids.length] = 2
        out[spreads.length] = 2
        for seat in (0, 1):
            run, spread = pyramid_runs.run(visible[seat], covered[seat])
            start = pyramids.first + seat * pyramids.size
            out[start:start + pyramids.size] = run
            out[spreads.first + seat] = spread
        hands = s._hands
        put_numbers(out, hand_sizes, [len(hands[0]), len(hands[1])])
        if phase in (PICK, PLACE) and s._offer is not None:
            out[offer_flag] = 1.0
            put_numbers(out, offer, list(s._offer))
        out[to_place.length] = 2
        if phase == PLACE:
            chosen = s._picked()
            if chosen is not None:
                out[picked_flag] = 1.0
                out[picked_at] = chosen
            for seat, card in enumerate(s._pending):
                if card:
                    slot = to_place.first + seat * to_place.size
                    out[slot] = 1.0
                    out[slot + 1] = card
        out[declined.length] = 2
        for seat, flag in enumerate(s._declined):
            if flag:
                out[declined.first + seat] = 1.0
        finished = s._last_round
        if finished is not None:
            if kept_round[0] is not finished:
                kept_round[:] = [finished, last_round.encode(finished)]
            out[last_round.start:last_round.stop] = kept_round[1]
        put_numbers(out, hand, list(hands[player]))
        card = s.card_to_place(player)
        if card is not None:
            out[card_flag] = 1.0
            out[card_at] = card
            fields = pyr.legal_fields(visible[player], covered[player], card, 1)
            put_numbers(out, legal, fields)
        return out

    return write


def make_pacal_solo_writer(layout: Layout, game: Game) -> FastWriter:
    """The one-player game's writer."""
    offset = layout.offset
    pyramid = layout.slots("pyramid")
    pyramid_runs = _PyramidRuns(pyramid, layout.slots("pyramid[i]"), pyramid.length,
                                pyramid.first + pyramid.size * pyramid.capacity)
    card_flag, card_at = offset("card?"), offset("card")
    legal = layout.slots("legal_fields")
    draws_at, pile_at, spread_at = offset("draws"), offset("pile_size"), offset("spread")
    templates: dict[tuple[Any, ...], np.ndarray] = {}

    def template(direction: str, player: int) -> np.ndarray:
        key = (direction, player)
        found = templates.get(key)
        if found is None:
            found = layout.template()
            for path, value in (("game", "pacal-solo"), ("viewer", player), ("phase", "place"),
                                ("current_player", 0), ("direction", direction),
                                ("layout", pyr.layout(direction)), ("result", "playing"),
                                ("won", False)):
                layout.write_field(path, value, found)
            templates[key] = found
        return found

    def write(state: State, player: int) -> np.ndarray | None:
        s: Any = state
        if s.is_terminal() or player is None:
            return None
        out = template(s._direction, player).copy()
        visible, covered = s._visible, s._covered
        run, spread = pyramid_runs.run(visible, covered)
        out[pyramid_runs.start:pyramid_runs.stop] = run
        card = s._card
        if card:
            out[card_flag] = 1.0
            out[card_at] = card
            put_numbers(out, legal, pyr.legal_fields(visible, covered, card, 1))
        out[draws_at] = s._draws
        out[pile_at] = len(s._pile)
        out[spread_at] = spread
        return out

    return write
