"""The two-player Pacal match: rounds of offer, pick and place, first to three round wins.

A round: all 50 cards are shuffled; each player gets 10 hidden base cards (out
of play) and 15 hand cards. Round 1 is started by the player whose apex base
card (revealed, public for that round) is higher; later rounds by the loser of
the previous round (option `start_rule`: or its winner, or in turn), after a drawn
round by the player who did not start it.

A turn of the active player A against B: A offers two hand cards (`offer A B`);
B picks one (`pick V`); B places it (`place Fn`), then A places the other. A
player who must place a card with no legal field loses the round at once (B is
checked first; then A does not place). After 14 turns each player holds one
card: the round's starting player first, each places it or declines; not being
able to place it is no loss.

Round end, checked after each turn's placements and after the last cards:
a player who could not place loses; else exactly one complete pyramid wins;
both complete: the smaller spread (highest minus lowest visible value) wins,
equal spreads draw. After the last cards with neither complete: more occupied
fields wins, then the smaller spread, then a draw.

The match: the first to `rounds_to_win` round wins; after `max_rounds` rounds
the one with more round wins, else a draw. Chance (the deal of each round)
comes from the `Rng` kept in the state.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from pyramids.core.api import TERMINAL, RandomSource, State
from pyramids.core.errors import N_, Words
from pyramids.core.rng import Rng
from pyramids.core.saving import (
    BOOL,
    JSON_OBJECT,
    RNG,
    SEED,
    Computed,
    Field,
    Int,
    Kept,
    ListOf,
    Malformed,
    OneOf,
    Optional,
    SavedState,
    Schema,
    TupleOf,
)
from pyramids.core.views import Outcome, make_outcome
from pyramids.games.pacal import pyramid as pyr
from pyramids.games.pacal.actions import (
    DECLINE,
    NUM_ACTIONS,
    OFFER_COUNT,
    OFFER_IDS,
    OFFER_PAIRS,
    PICK_BASE,
    PLACE_BASE,
    match_action_to_string,
    match_string_to_action,
)
from pyramids.games.pacal.deck import DECK, shuffled_deck
from pyramids.games.pacal.validate import CARD, PYRAMID_HALVES, SEAT

if TYPE_CHECKING:
    from pyramids.games.pacal.game import PacalGame

OFFER, PICK, PLACE, LAST_CARD, OVER = range(5)
PHASE_NAMES = ("offer", "pick", "place", "last_card", "over")
TURNS_PER_ROUND = 14
BASE_CARDS = 10
HAND_CARDS = 15


def _dump_pyramids(state: PacalState) -> list[list[list[int]]]:
    return [pyr.fields_as_lists(state._visible[p], state._covered[p]) for p in (0, 1)]


def _load_pyramids(state: PacalState, raw: Any) -> None:
    if not isinstance(raw, list) or len(raw) != 2:
        raise Malformed(f"{raw!r} is not one list of ten fields per player")
    built = []
    for player, fields in enumerate(raw):
        try:
            built.append(pyr.pyramid_from_lists(fields))
        except (ValueError, TypeError) as error:
            raise Malformed(str(error), f"[{player}]") from None
    state._visible = [built[0][0], built[1][0]]
    state._covered = [built[0][1], built[1][1]]


def _current_low(state: PacalState) -> int:
    return TERMINAL if state._phase == OVER else 0


def _current_high(state: PacalState) -> int:
    return TERMINAL if state._phase == OVER else 1


#: Who starts a round after the first (option `start_rule`).
START_LOSER, START_WINNER, START_ROTATE = "loser", "winner", "rotate"

class PacalState(SavedState, State):
    """A position of a Pacal match. Seats are 0 and 1."""

    __slots__ = (
        "game", "seed", "_rng", "_direction", "_rounds_to_win", "_max_rounds", "_start_rule",
        "_phase", "_current", "_active", "_starter", "_turn", "_round", "_round_wins",
        "_hands", "_bases", "_reveal", "_visible", "_covered", "_offer", "_pending",
        "_declined", "_last_round", "_winner", "_history",
    )

    saved = Schema(
        "pacal state",
        Kept("game"),
        Kept("_direction"),
        Kept("_rounds_to_win"),
        Kept("_max_rounds"),
        Kept("_start_rule"),
        Field("seed", "seed", SEED),
        Field("rng", "_rng", RNG),
        Field("phase", "_phase", OneOf(PHASE_NAMES, index=True)),
        Field("current", "_current", Int(_current_low, _current_high)),
        Field("active", "_active", SEAT),
        Field("starter", "_starter", SEAT),
        Field("turn", "_turn", Int(0, TURNS_PER_ROUND)),
        Field("round", "_round", Int(1, lambda state: state._max_rounds)),
        Field("round_wins", "_round_wins",
              ListOf(Int(0, lambda state: state._rounds_to_win), length=2)),
        Field("hands", "_hands", ListOf(ListOf(CARD, sort=True), length=2)),
        Field("bases", "_bases", ListOf(ListOf(CARD), length=2)),
        Field("reveal", "_reveal", Optional(ListOf(CARD))),
        Computed("pyramids", _dump_pyramids, _load_pyramids),
        Kept("_visible", PYRAMID_HALVES),
        Kept("_covered", PYRAMID_HALVES),
        # `offer` is kept after the pick (for the view's `picked`), so it is saved in
        # every phase; only the pick phase counts its cards as in play.
        Field("offer", "_offer", Optional(TupleOf(CARD, 2))),
        Field("pending", "_pending", ListOf(Int(0, pyr.HIGHEST_CARD), length=2)),
        Field("declined", "_declined", ListOf(BOOL, length=2)),
        Field("last_round", "_last_round", Optional(JSON_OBJECT)),  # replaced, never changed
        Field("winner", "_winner", Optional(SEAT)),
        Field("history", "_history", ListOf(Int(0, NUM_ACTIONS - 1))),
    )

    def __init__(self, game: PacalGame, seed: int | str | None = None) -> None:
        self._attach(game)
        self.seed = seed
        self._rng = Rng(seed)
        self._round = 1
        self._round_wins = [0, 0]
        self._last_round: dict[str, Any] | None = None
        self._winner: int | None = None
        self._history: list[int] = []
        self._deal(starter=None)

    def _attach(self, game: PacalGame) -> None:
        """The game and its options: what a saved state takes from its game."""
        self.game = game
        options = game.options
        self._direction: str = options["direction"]
        self._rounds_to_win: int = options["rounds_to_win"]
        self._max_rounds: int = options["max_rounds"]
        self._start_rule: str = options["start_rule"]

    # ----- the deal and the round's end -------------------------------------------------

    def _deal(self, starter: int | None) -> None:
        """Shuffle and deal a round; `starter` None means round 1's apex reveal decides."""
        deck = shuffled_deck(self._rng)
        self._bases = [deck[0:BASE_CARDS], deck[BASE_CARDS : 2 * BASE_CARDS]]
        hands_from = 2 * BASE_CARDS
        self._hands = [
            sorted(deck[hands_from : hands_from + HAND_CARDS]),
            sorted(deck[hands_from + HAND_CARDS :]),
        ]
        if starter is None:
            self._reveal: list[int] | None = [self._bases[0][0], self._bases[1][0]]
            starter = 0 if self._reveal[0] > self._reveal[1] else 1
        else:
            self._reveal = None
        self._start_round(starter)

    def _start_round(self, starter: int) -> None:
        self._visible = [[0] * pyr.FIELD_COUNT, [0] * pyr.FIELD_COUNT]
        self._covered = [[0] * pyr.FIELD_COUNT, [0] * pyr.FIELD_COUNT]
        self._offer: tuple[int, int] | None = None
        self._pending = [0, 0]
        self._declined = [False, False]
        self._turn = 0
        self._starter = starter
        self._active = starter
        self._current = starter
        self._phase = OFFER

    def _end_round(self, winner: int | None, reason: str) -> None:
        visible, covered = self._visible, self._covered
        self._last_round = {
            "round": self._round,
            "winner": winner,
            "reason": reason,
            "pyramids": [pyr.fields_as_lists(visible[p], covered[p]) for p in (0, 1)],
            "spreads": [pyr.spread(visible[p]) for p in (0, 1)],
            "occupied": [pyr.occupied(visible[p]) for p in (0, 1)],
        }
        wins = self._round_wins
        if winner is not None:
            wins[winner] += 1
        if winner is not None and wins[winner] >= self._rounds_to_win:
            self._finish(winner)
        elif self._round >= self._max_rounds:
            self._finish(None if wins[0] == wins[1] else (0 if wins[0] > wins[1] else 1))
        else:
            self._round += 1
            self._deal(starter=self._next_starter(winner))

    def _next_starter(self, winner: int | None) -> int:
        """Who starts the next round, by the option `start_rule`: after a drawn round
        (or `rotate`) the player who did not start this one; else its loser (the rules'
        default) or its winner."""
        if winner is None or self._start_rule == START_ROTATE:
            return 1 - self._starter
        return winner if self._start_rule == START_WINNER else 1 - winner

    def _finish(self, winner: int | None) -> None:
        self._winner = winner
        self._phase = OVER
        self._current = TERMINAL
        self._offer = None

    def _after_turn(self) -> None:
        """The round-end check after both placements of a turn."""
        self._turn += 1
        complete0 = all(self._visible[0])
        complete1 = all(self._visible[1])
        if complete0 or complete1:
            self._decide_complete(complete0, complete1)
        elif self._turn >= TURNS_PER_ROUND:
            self._phase = LAST_CARD
            self._current = self._starter
            self._offer = None
        else:
            active = 1 - self._active
            self._active = active
            self._current = active
            self._phase = OFFER
            self._offer = None

    def _decide_complete(self, complete0: bool, complete1: bool) -> None:
        if complete0 and complete1:
            spread0 = pyr.spread(self._visible[0])
            spread1 = pyr.spread(self._visible[1])
            if spread0 == spread1:
                self._end_round(None, f"both pyramids complete with equal spreads ({spread0})")
            else:
                winner = 0 if spread0 < spread1 else 1
                self._end_round(
                    winner,
                    f"both pyramids complete; player {winner} has the smaller spread "
                    f"({min(spread0, spread1)} against {max(spread0, spread1)})",
                )
        else:
            winner = 0 if complete0 else 1
            self._end_round(winner, f"player {winner} completed the pyramid")

    def _after_last_cards(self) -> None:
        complete0 = all(self._visible[0])
        complete1 = all(self._visible[1])
        if complete0 or complete1:
            self._decide_complete(complete0, complete1)
            return
        fields = [pyr.occupied(self._visible[p]) for p in (0, 1)]
        if fields[0] != fields[1]:
            winner = 0 if fields[0] > fields[1] else 1
            self._end_round(
                winner,
                f"no pyramid complete; player {winner} occupied more fields "
                f"({fields[winner]} against {fields[1 - winner]})",
            )
            return
        spreads = [pyr.spread(self._visible[p]) for p in (0, 1)]
        if spreads[0] != spreads[1]:
            winner = 0 if spreads[0] < spreads[1] else 1
            self._end_round(
                winner,
                f"no pyramid complete, both with {fields[0]} fields; player {winner} has the "
                f"smaller spread ({spreads[winner]} against {spreads[1 - winner]})",
            )
            return
        self._end_round(
            None,
            f"no pyramid complete, both with {fields[0]} fields and spread {spreads[0]}: drawn",
        )

    # ----- the API ----------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self._current

    def progress(self) -> tuple[int, str, int]:
        """The round being played, the phase's name and the turns played in the round,
        as every view gives them, without building a view (search reads them at
        every move of its rollouts)."""
        return self._round, PHASE_NAMES[self._phase], self._turn

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def returns(self) -> list[float]:
        winner = self._winner
        if self._phase != OVER or winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == OFFER:
            ids = OFFER_IDS
            return [ids[low][high] for low, high in combinations(self._hands[self._current], 2)]
        if phase == PICK:
            offer = self._offer
            assert offer is not None
            return [PICK_BASE + offer[0], PICK_BASE + offer[1]]
        if phase == PLACE:
            player = self._current
            return pyr.legal_fields(
                self._visible[player], self._covered[player], self._pending[player], PLACE_BASE
            )
        if phase == LAST_CARD:
            player = self._current
            actions = pyr.legal_fields(
                self._visible[player], self._covered[player], self._hands[player][0], PLACE_BASE
            )
            actions.append(DECLINE)
            return actions
        return []

    def apply_action(self, action: int) -> None:
        _MOVE_BY_PHASE[self._phase](self, action)

    def _apply_offer(self, action: int) -> None:
        player = self._current
        if 0 <= action < OFFER_COUNT:
            low, high = OFFER_PAIRS[action]
            hand = self._hands[player]
            if low in hand and high in hand:
                hand.remove(low)
                hand.remove(high)
                self._offer = (low, high)
                self._current = 1 - player
                self._phase = PICK
                self._history.append(int(action))
                return
            missing = low if low not in hand else high
            raise self.illegal(action, Words(N_("card {card} is not in your hand"), card=missing))
        raise self.illegal(action, self._expected())

    def _apply_pick(self, action: int) -> None:
        player = self._current
        offer = self._offer
        assert offer is not None
        value = action - PICK_BASE
        if value == offer[0] or value == offer[1]:
            offerer = 1 - player
            self._pending[player] = value
            self._pending[offerer] = offer[1] if value == offer[0] else offer[0]
            self._phase = PLACE
            self._history.append(int(action))
            if not pyr.can_place(self._visible[player], self._covered[player], value):
                self._end_round(offerer, f"player {player} could not place the picked card {value}")
            return
        if PICK_BASE < action < PLACE_BASE:
            raise self.illegal(action, Words(
                N_("only {first} or {second} was offered; pick one of them"),
                first=offer[0], second=offer[1]))
        raise self.illegal(action, self._expected())

    def _apply_place(self, action: int) -> None:
        """The picker places first, then the offerer; each is checked before placing."""
        if not PLACE_BASE <= action < DECLINE:
            raise self.illegal(action, self._expected())
        player = self._current
        index = action - PLACE_BASE
        visible, covered = self._visible[player], self._covered[player]
        card = self._pending[player]
        if not pyr.fits(visible, covered, index, card):
            raise self.illegal(action, pyr.why_not(visible, covered, index, card) or "")
        pyr.place(visible, covered, index, card)
        self._pending[player] = 0
        self._history.append(int(action))
        offerer = self._active
        if player == offerer:
            self._after_turn()
            return
        returned = self._pending[offerer]
        if pyr.can_place(self._visible[offerer], self._covered[offerer], returned):
            self._current = offerer
        else:
            self._end_round(
                player, f"player {offerer} could not place the returned card {returned}"
            )

    def _apply_last_card(self, action: int) -> None:
        """The starting player places or declines the last card first, then the other."""
        player = self._current
        hand = self._hands[player]
        if action == DECLINE:
            self._declined[player] = True
        elif PLACE_BASE <= action < DECLINE:
            index = action - PLACE_BASE
            visible, covered = self._visible[player], self._covered[player]
            why = pyr.why_not(visible, covered, index, hand[0])
            if why is not None:
                raise self.illegal(action, Words(N_("{why} (or 'decline' the last card)"),
                                                 why=why))
            pyr.place(visible, covered, index, hand.pop())
        else:
            raise self.illegal(action, self._expected())
        self._history.append(int(action))
        if player == self._starter:
            self._current = 1 - player
        else:
            self._after_last_cards()

    def _apply_over(self, action: int) -> None:
        raise self.illegal(action, Words(N_("the match is over")))

    def _expected(self) -> Words:
        """What the current phase allows, for error messages (said to the player to move)."""
        player = self._current
        if self._phase == OFFER:
            return Words(N_("you must offer two of your hand cards ('offer A B')"))
        if self._phase == PICK:
            assert self._offer is not None
            low, high = self._offer
            return Words(N_("you must pick an offered card: 'pick {first}' or 'pick {second}'"),
                         first=low, second=high)
        if self._phase == PLACE:
            return Words(N_("you must place card {card} ('place Fn')"),
                         card=self._pending[player])
        return Words(N_("you must place the last card ('place Fn') or 'decline'"))

    def action_to_string(self, action: int) -> str:
        return match_action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return match_string_to_action(text)

    def history(self) -> list[int]:
        return list(self._history)

    # ----- views ------------------------------------------------------------------------

    def card_to_place(self, player: int) -> int | None:
        """The card `player` has yet to place this turn (or the undecided last card)."""
        if self._phase == PLACE and self._pending[player]:
            return self._pending[player]
        if self._phase == LAST_CARD and self._hands[player] and not self._declined[player]:
            return self._hands[player][0]
        return None

    def _picked(self) -> int | None:
        """The card the opponent picked this turn (the offerer's returned card is the other)."""
        offer = self._offer
        if offer is None:
            return None
        return offer[0] if offer[1] == self._pending[self._active] else offer[1]

    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and player not in (0, 1):
            raise ValueError(f"pacal: no player {player!r}; players are 0 and 1 (None: spectator)")
        phase = self._phase
        in_turn = phase in (PICK, PLACE)
        view: dict[str, Any] = {
            "game": "pacal",
            "viewer": player,
            "phase": PHASE_NAMES[phase],
            "current_player": self._current,
            "direction": self._direction,
            "layout": pyr.layout(self._direction),
            "round": self._round,
            "rounds_to_win": self._rounds_to_win,
            "max_rounds": self._max_rounds,
            "round_wins": list(self._round_wins),
            "starting_player": self._starter,
            "active_player": self._active,
            "turns_played": self._turn,
            "revealed_apex_bases": list(self._reveal) if self._reveal is not None else None,
            "pyramids": [pyr.fields_as_lists(self._visible[p], self._covered[p]) for p in (0, 1)],
            "spreads": [pyr.spread(self._visible[p]) for p in (0, 1)],
            "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
            "offer": list(self._offer) if in_turn and self._offer is not None else None,
            "picked": self._picked() if phase == PLACE else None,
            "to_place": [c or None for c in self._pending] if phase == PLACE else [None, None],
            "declined": list(self._declined),
            "last_round": _copy_round(self._last_round),
            "winner": self._winner if phase == OVER else None,
            "returns": self.returns() if phase == OVER else None,
            "outcome": self.outcome(),
        }
        if player is not None:
            view["hand"] = list(self._hands[player])
            card = self.card_to_place(player)
            view["card_to_place"] = card
            view["legal_fields"] = (
                []
                if card is None
                else [
                    index + 1
                    for index in pyr.legal_fields(
                        self._visible[player], self._covered[player], card
                    )
                ]
            )
        return view

    def outcome(self) -> Outcome | None:
        """Who won the match, the rounds won, and whether the round cap ended it."""
        if self._phase != OVER:
            return None
        wins = self._round_wins
        capped = max(wins) < self._rounds_to_win
        return make_outcome(
            winners=[0, 1] if self._winner is None else [self._winner],
            scores=[float(w) for w in wins],
            reason="round-cap" if capped else "rounds-won",
            capped=capped,
            figures={"rounds": self._round},
        )

    # ----- copies, hidden information and saving ---------------------------------------

    def resample_hidden(self, player: int | None, rng: RandomSource) -> PacalState:
        """A copy agreeing with all `player` sees: the opponent's hand and the unrevealed
        base cards are redealt at random among themselves, and the deal generator is
        reseeded from `rng` so later rounds differ from the real ones."""
        if player is not None and player not in (0, 1):
            raise ValueError(f"pacal: no player {player!r}; players are 0 and 1 (None: spectator)")
        other = self.clone()
        hidden_hands = [p for p in (0, 1) if p != player]
        first_hidden_base = 1 if self._reveal is not None else 0
        pool = [card for p in hidden_hands for card in other._hands[p]]
        for p in (0, 1):
            pool.extend(other._bases[p][first_hidden_base:])
        rng.shuffle(pool)
        taken = 0
        for p in hidden_hands:
            size = len(other._hands[p])
            other._hands[p] = sorted(pool[taken : taken + size])
            taken += size
        for p in (0, 1):
            size = len(other._bases[p]) - first_hidden_base
            other._bases[p][first_hidden_base:] = pool[taken : taken + size]
            taken += size
        other._rng = Rng(rng.randrange(1 << 64))
        return other

    @classmethod
    def from_dict(cls, game: PacalGame, data: dict[str, Any]) -> PacalState:
        """The state `_to_dict` saved; raises RecordError/ValueError when malformed."""
        state = cls.__new__(cls)
        state._attach(game)
        cls.saved.load(state, data)
        state.check_consistent()
        return state

    def check_consistent(self) -> None:
        """Raise ValueError unless the state is one a real match could reach (the
        saved fields' own checks, one entry per player included, are `saved`'s)."""
        cards: list[int] = []
        for p in (0, 1):
            cards += self._hands[p] + self._bases[p]
            cards += [c for c in self._visible[p] + self._covered[p] if c]
            if self._pending[p]:
                cards.append(self._pending[p])
        if self._phase == PICK:
            if self._offer is None:
                raise ValueError("the pick phase needs an offer")
            cards += list(self._offer)
        if sorted(cards) != list(DECK):
            raise ValueError("the cards in play are not exactly 1..50 once each")
        if self._reveal is not None and self._reveal != [self._bases[0][0], self._bases[1][0]]:
            raise ValueError("the revealed apex base cards differ from the bases")
        if self._phase == PLACE and not self._pending[self._current]:
            raise ValueError("the place phase needs a card for the current player")
        if self._phase == LAST_CARD and len(self._hands[self._current]) != 1:
            raise ValueError("the last-card phase needs one card in the current player's hand")

    @classmethod
    def from_position(
        cls,
        game: PacalGame,
        hands: Sequence[Sequence[int]],
        pyramids: Sequence[Sequence[Sequence[int]]] = ((), ()),
        *,
        starter: int = 0,
        active: int | None = None,
        turn: int = 0,
        round_number: int = 1,
        round_wins: Sequence[int] = (0, 0),
        seed: int | str | None = 0,
    ) -> PacalState:
        """A position built by hand (for tests, puzzles and analysis).

        `hands` are each player's cards; `pyramids` each player's ten fields as card
        lists (oldest first; empty sequences mean empty pyramids). `active` (default
        `starter`) is to offer, or, when `turn` is 14, the starting player places the
        last card first. The cards used nowhere become the base cards (round 1 reveals
        their first ones). Later rounds are dealt from `seed`. The history starts
        empty here, so `history_strings` and game records do not replay such a state.
        Raises ValueError for a card used twice or a pyramid that breaks the rule.
        """
        state = cls(game, seed)
        all_cards = [c for hand in hands for c in hand] + [
            c for fields_ in pyramids for field in fields_ for c in field
        ]
        if len(set(all_cards)) != len(all_cards):
            raise ValueError("a card appears twice in the hands and pyramids")
        fields: list[list[Sequence[int]]] = [
            list(p) if p else [[] for _ in range(pyr.FIELD_COUNT)] for p in pyramids
        ]
        built = [pyr.pyramid_from_lists(f) for f in fields]
        state._visible = [built[0][0], built[1][0]]
        state._covered = [built[0][1], built[1][1]]
        state._hands = [sorted(hands[0]), sorted(hands[1])]
        used = set(state._hands[0]) | set(state._hands[1])
        for p in (0, 1):
            used.update(c for c in state._visible[p] + state._covered[p] if c)
        rest = [card for card in DECK if card not in used]
        half = len(rest) // 2
        state._bases = [rest[:half], rest[half:]]
        state._round = round_number
        state._round_wins = list(round_wins)
        state._reveal = (
            [state._bases[0][0], state._bases[1][0]]
            if round_number == 1 and state._bases[0] and state._bases[1]
            else None
        )
        state._starter = starter
        state._active = starter if active is None else active
        state._turn = turn
        state._offer = None
        state._pending = [0, 0]
        state._declined = [False, False]
        if turn >= TURNS_PER_ROUND:
            state._phase = LAST_CARD
            state._current = starter
        else:
            state._phase = OFFER
            state._current = state._active
        return state


_MOVE_BY_PHASE = (
    PacalState._apply_offer,
    PacalState._apply_pick,
    PacalState._apply_place,
    PacalState._apply_last_card,
    PacalState._apply_over,
)


def _copy_round(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    copy = dict(result)
    if isinstance(copy.get("reason"), str):
        copy["reason"] = seats_from_one(copy["reason"])
    if "pyramids" in copy:
        copy["pyramids"] = _copy_pyramids(copy["pyramids"])
    for key in ("spreads", "occupied"):
        if key in copy:
            copy[key] = _deep_list(copy[key])
    return copy


def _copy_pyramids(pyramids: Any) -> Any:
    """A copy of the pyramids' [player][field] -> cards lists (a view is the caller's
    to keep); any other shape (a hand-edited save) item by item."""
    try:
        return [[field[:] for field in pyramid] for pyramid in pyramids]
    except TypeError:
        return _deep_list(pyramids)


def _deep_list(value: Any) -> Any:
    return [_deep_list(item) for item in value] if isinstance(value, list) else value


@functools.lru_cache(maxsize=256)
def seats_from_one(reason: str) -> str:
    """A round's reason as players read it: "player 0" (as saves keep it) is "seat 1"."""
    return _PLAYER_NUMBER.sub(lambda match: f"seat {int(match.group(1)) + 1}", reason)


_PLAYER_NUMBER = re.compile(r"\bplayer ([01])\b")


