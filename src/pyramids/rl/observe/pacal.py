"""Pacal's and Pacal solo's observation writers (the manifests' `observation_encoder`).

They fill the vector that `PacalView` / `PacalSoloView` encode to, from the
state's own fields. What a seat reads: the public table (pyramids, spreads,
hand sizes, the offer and the picked card once the turn shows them) and its
own hand, card to place and legal fields; never the other hand or the bases.
The final position goes through the view.
"""

from __future__ import annotations

from operator import ne, or_
from typing import Any

import numpy as np

from pyramids.core import Game, State
from pyramids.games.pacal import pyramid as pyr
from pyramids.games.pacal.match import LAST_CARD, OVER, PHASE_NAMES, PICK, PLACE
from pyramids.games.pacal.solo import WON
from pyramids.rl.encoding import (
    Canvas,
    CanvasWriter,
    Layout,
    ListSlots,
    put_cells,
)


class _PyramidCells:
    """Where each field of one pyramid is in the vector: a field is a list of its cards
    (`[covered, top]`, `[top]` or `[]`): its length, then its card slots.

    `fields` and `cards` are the layout's lists `X` and `X[i]` (slot 0 of each);
    `shift` moves them to another slot of an outer list (the other seat's pyramid).
    """

    def __init__(self, fields: ListSlots, cards: ListSlots, shift: int = 0) -> None:
        self.fields = [(cards.length + shift + index * fields.size,
                        cards.first + shift + index * fields.size,
                        cards.first + shift + index * fields.size + cards.size)
                       for index in range(min(pyr.FIELD_COUNT, fields.capacity))]

    def write(self, cells: memoryview, visible: list[int], covered: list[int],
              seen_visible: list[int], seen_covered: list[int]) -> None:
        """Rewrite the fields whose cards differ from `seen_visible` / `seen_covered`.

        The fields that differ are found by C loops (`map`, `list.index`): between
        two observations one or two fields of a pyramid change."""
        changed = list(map(ne, visible, seen_visible))
        if covered != seen_covered:
            changed = list(map(or_, changed, map(ne, covered, seen_covered)))
        fields = self.fields
        index = -1
        for _ in range(changed.count(True)):
            index = changed.index(True, index + 1)
            length_at, first_at, second_at = fields[index]
            top, under = visible[index], covered[index]
            if under:
                cells[length_at], cells[first_at], cells[second_at] = 2, under, top
            else:
                cells[length_at], cells[first_at], cells[second_at] = (1 if top else 0), top, 0

    def write_lists(self, cells: memoryview, fields: list[list[int]]) -> None:
        """A pyramid given as its fields' card lists (`fields_as_lists`) into zeros."""
        for cards, (length_at, first_at, second_at) in zip(fields, self.fields, strict=False):
            cells[length_at] = len(cards)
            if cards:
                cells[first_at] = cards[0]
                if len(cards) > 1:
                    cells[second_at] = cards[1]


def _spread(visible: list[int]) -> int:
    """`pyramid.spread`, with the loops in C."""
    highest = max(visible)
    return highest - min(filter(None, visible)) if highest else 0


_EMPTY_PYRAMID = [0] * pyr.FIELD_COUNT


def make_pacal_writer(layout: Layout, game: Game) -> CanvasWriter:
    """The two-player match's writer: it updates a seat's canvas in place.

    Every step it writes the few features that may change (phase, turn, offer,
    cards to place, ..: some 25 items); a pyramid, the hand, the legal fields,
    the revealed bases and the last round are rewritten only when they differ
    from what the canvas holds (the canvas's memo keeps copies of them)."""
    offset = layout.offset
    phase_at = [layout.choice("phase", name) for name in PHASE_NAMES]
    current, round_at = offset("current_player"), offset("round")
    starter_at, active_at = offset("starting_player"), offset("active_player")
    turns_at = offset("turns_played")
    round_wins = layout.slots("round_wins")
    wins_at = round_wins.first
    reveal_flag, reveal = offset("revealed_apex_bases?"), layout.slots("revealed_apex_bases")
    pyramids = layout.slots("pyramids")
    pyramid_cells = [_PyramidCells(layout.slots("pyramids[i]"), layout.slots("pyramids[i][i]"),
                                   seat * pyramids.size) for seat in (0, 1)]
    fields_length_at = [layout.slots("pyramids[i]").length + seat * pyramids.size
                        for seat in (0, 1)]
    kept_round: list[Any] = [None, None]  # the last round's dict and its block (never changed)
    spreads, hand_sizes = layout.slots("spreads"), layout.slots("hand_sizes")
    spreads_at, sizes_at = spreads.first, hand_sizes.first
    offer_flag, offer = offset("offer?"), layout.slots("offer")
    offer_length, offer_at = offer.length, offer.first
    picked_flag, picked_at = offset("picked?"), offset("picked")
    to_place = layout.slots("to_place")
    place_at = [to_place.first + seat * to_place.size for seat in (0, 1)]
    declined = layout.slots("declined")
    declined_at = declined.first
    round_start, round_stop = layout.span("last_round")
    round_flag, round_number_at = offset("last_round?"), offset("last_round.round")
    round_winner_flag, round_winner_at = offset("last_round.winner?"), offset("last_round.winner")
    round_pyramids = layout.slots("last_round.pyramids")
    round_fields = layout.slots("last_round.pyramids[i]")
    round_pyramid_cells = [
        _PyramidCells(round_fields, layout.slots("last_round.pyramids[i][i]"),
                      seat * round_pyramids.size - round_start) for seat in (0, 1)]
    round_spreads = layout.slots("last_round.spreads")
    round_occupied = layout.slots("last_round.occupied")

    def encode_round(finished: dict[str, Any]) -> np.ndarray:
        """The `last_round` run of features (what the view's writer gives for it)."""
        block = np.zeros(round_stop - round_start, dtype=np.float32)
        cells = block.data
        cells[round_flag - round_start] = 1
        cells[round_number_at - round_start] = finished["round"]
        if finished["winner"] is not None:
            cells[round_winner_flag - round_start] = 1
            cells[round_winner_at - round_start] = finished["winner"]
        pyramids_seen = finished["pyramids"]
        cells[round_pyramids.length - round_start] = len(pyramids_seen)
        for seat, fields in enumerate(pyramids_seen[:2]):
            cells[round_fields.length + seat * round_pyramids.size - round_start] = len(fields)
            round_pyramid_cells[seat].write_lists(cells, fields)
        for slots, values in ((round_spreads, finished["spreads"]),
                              (round_occupied, finished["occupied"])):
            cells[slots.length - round_start] = len(values)
            for index, value in enumerate(values[:slots.capacity]):
                cells[slots.first + index - round_start] = value
        return block
    hand = layout.slots("hand")
    card_flag, card_at = offset("card_to_place?"), offset("card_to_place")
    legal = layout.slots("legal_fields")
    templates: dict[tuple[Any, ...], np.ndarray] = {}

    def template(state: Any, player: int) -> np.ndarray:
        key = (player, state._direction, state._rounds_to_win, state._max_rounds)
        found = templates.get(key)
        if found is None:
            found = layout.template()
            for path, value in (("game", "pacal"), ("viewer", player),
                                ("direction", state._direction),
                                ("layout", pyr.layout(state._direction)),
                                ("rounds_to_win", state._rounds_to_win),
                                ("max_rounds", state._max_rounds)):
                layout.write_field(path, value, found)
            # The lists that always have two entries (one a seat) while a match is on.
            for slots in (round_wins, pyramids, spreads, hand_sizes, to_place, declined):
                found[slots.length] = 2
            for at in fields_length_at:
                found[at] = pyr.FIELD_COUNT  # empty pyramids: ten empty fields
            templates[key] = found
        return found

    def write_round(s: Any, cells: memoryview, memo: list[Any]) -> None:
        """What is fixed for a round: its number, the wins, the starter, the revealed bases
        and the last round's result (all set when a round is dealt)."""
        cells[round_at] = s._round
        wins = s._round_wins
        cells[wins_at] = wins[0]
        cells[wins_at + 1] = wins[1]
        cells[starter_at] = s._starter
        shown = s._reveal
        cells[reveal_flag] = 0 if shown is None else 1
        put_cells(cells, reveal, [] if shown is None else shown, reveal.capacity)
        finished = s._last_round
        if finished is None:
            cells[round_start:round_stop] = _zeros(round_stop - round_start).data
        else:
            if kept_round[0] is not finished:
                kept_round[:] = [finished, encode_round(finished)]
            cells[round_start:round_stop] = kept_round[1].data

    def update(state: State, canvas: Canvas) -> bool:
        s: Any = state
        phase = s._phase
        player = canvas.player
        cells = canvas.cells
        memo = canvas.memo
        if not memo:
            canvas.array[:] = template(s, player)
            # As written: the phase, the deal (its base cards: a new list each round),
            # the pyramids (visible, covered) by seat, the hand, the card to place and
            # its legal fields.
            memo[:] = [OVER, None, [_EMPTY_PYRAMID, _EMPTY_PYRAMID],
                       [_EMPTY_PYRAMID, _EMPTY_PYRAMID], [], 0, []]
        cells[phase_at[memo[0]]] = 0
        cells[phase_at[phase]] = 1
        memo[0] = phase
        if s._bases is not memo[1] or phase == OVER:  # the last round ends without a deal
            write_round(s, cells, memo)
            memo[1] = s._bases
        cells[current] = s._current
        cells[active_at] = s._active
        cells[turns_at] = s._turn
        visible, covered = s._visible, s._covered
        seen_visible, seen_covered = memo[2], memo[3]
        own_changed = False
        for seat in (0, 1):
            top, under = visible[seat], covered[seat]
            if top != seen_visible[seat] or under != seen_covered[seat]:
                pyramid_cells[seat].write(cells, top, under, seen_visible[seat],
                                          seen_covered[seat])
                cells[spreads_at + seat] = _spread(top)
                seen_visible[seat] = top[:]
                seen_covered[seat] = under[:]
                own_changed = own_changed or seat == player
        hands = s._hands
        cells[sizes_at] = len(hands[0])
        cells[sizes_at + 1] = len(hands[1])
        own = hands[player]
        if own != memo[4]:
            put_cells(cells, hand, own, len(memo[4]))
            memo[4] = own[:]
        if phase in (PLACE, PICK):
            offered = s._offer
            cells[offer_flag] = 1
            cells[offer_length] = 2
            cells[offer_at] = offered[0]
            cells[offer_at + 1] = offered[1]
        else:
            cells[offer_flag] = cells[offer_length] = 0
            cells[offer_at] = cells[offer_at + 1] = 0
        if phase == PLACE:
            pending = s._pending
            cells[picked_flag] = 1
            cells[picked_at] = offered[0] if offered[1] == pending[s._active] else offered[1]
            first, second = pending
            cells[place_at[0]] = 1 if first else 0
            cells[place_at[0] + 1] = first
            cells[place_at[1]] = 1 if second else 0
            cells[place_at[1] + 1] = second
            card = pending[player]
        else:
            cells[picked_flag] = cells[picked_at] = 0
            cells[place_at[0]] = cells[place_at[0] + 1] = 0
            cells[place_at[1]] = cells[place_at[1] + 1] = 0
            card = own[0] if phase == LAST_CARD and own and not s._declined[player] else 0
        flags = s._declined
        cells[declined_at] = flags[0]
        cells[declined_at + 1] = flags[1]
        if card != memo[5] or own_changed:
            if card:
                cells[card_flag] = 1
                cells[card_at] = card
                fields = pyr.legal_fields(visible[player], covered[player], card, 1)
            else:
                cells[card_flag] = cells[card_at] = 0
                fields = []
            if fields != memo[6]:
                put_cells(cells, legal, fields, len(memo[6]))
                memo[6] = fields
            memo[5] = card
        if phase == OVER:
            # The end's own fields, once an episode; the next update starts afresh.
            array = canvas.array
            layout.write_field("winner", s._winner, array)
            layout.write_field("returns", s.returns(), array)
            layout.write_field("outcome", s.outcome(), array)
            canvas.forget()
        return True

    return CanvasWriter(layout.size, update)


def _zeros(size: int) -> np.ndarray:
    found = _ZEROS.get(size)
    if found is None:
        found = _ZEROS[size] = np.zeros(size, dtype=np.float32)
    return found


_ZEROS: dict[int, np.ndarray] = {}


def make_pacal_solo_writer(layout: Layout, game: Game) -> CanvasWriter:
    """The one-player game's writer: it updates the canvas in place (the fields that
    changed, the card, its legal fields, the draws, the pile and the spread)."""
    offset = layout.offset
    pyramid = layout.slots("pyramid")
    pyramid_cells = _PyramidCells(pyramid, layout.slots("pyramid[i]"))
    card_flag, card_at = offset("card?"), offset("card")
    legal = layout.slots("legal_fields")
    draws_at, pile_at, spread_at = offset("draws"), offset("pile_size"), offset("spread")
    place_at, playing_at = layout.choice("phase", "place"), layout.choice("result", "playing")
    current_at = offset("current_player")
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
            found[pyramid.length] = pyr.FIELD_COUNT  # ten empty fields
            templates[key] = found
        return found

    def update(state: State, canvas: Canvas) -> bool:
        s: Any = state
        cells = canvas.cells
        memo = canvas.memo
        if not memo:
            canvas.array[:] = template(s._direction, canvas.player)
            memo[:] = [_EMPTY_PYRAMID, _EMPTY_PYRAMID, []]  # visible, covered, legal fields
        visible, covered = s._visible, s._covered
        if visible != memo[0] or covered != memo[1]:
            pyramid_cells.write(cells, visible, covered, memo[0], memo[1])
            memo[0], memo[1] = visible[:], covered[:]
            cells[spread_at] = _spread(visible)
        card = s._card
        if card:
            cells[card_flag] = 1
            cells[card_at] = card
            fields = pyr.legal_fields(visible, covered, card, 1)
        else:
            cells[card_flag] = cells[card_at] = 0
            fields = []
        if fields != memo[2]:
            put_cells(cells, legal, fields, len(memo[2]))
            memo[2] = fields
        cells[draws_at] = s._draws
        cells[pile_at] = len(s._pile)
        if s.is_terminal():
            # The end's own fields, once an episode; the next update starts afresh.
            array = canvas.array
            cells[place_at] = cells[playing_at] = 0
            cells[current_at] = s.current_player
            for path, value in (("phase", "over"), ("result", s._result),
                                ("won", s._result == WON),
                                ("score", s._draws if s._result == WON else None),
                                ("outcome", s.outcome())):
                layout.write_field(path, value, array)
            canvas.forget()
        return True

    return CanvasWriter(layout.size, update)
