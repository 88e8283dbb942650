"""One position of Temple of Inscriptions, and how actions change it.

A round (rules page, "A round: three phases"):
1. draw: each player, from the round's start player on, draws 2 cards; this is
   chance, done by the engine with the `Rng` kept in the state;
2. swap: each player, from the start player on, plays `swap K S` or `swap pass`;
3. construction: players, from the start player on, play `summon` or `pass`;
   after `summon` (1 treasure point, free at 0 points) the summoner and then each
   other player in seat order play `set C J` once. Success builds the level and
   the player after the summoner decides next; failure ends the round; so do
   passes by every player in a row. The next round's start player follows the
   `start_rule` option (`progress.next_start_player`).
The game ends when level 9 is built, when the level under construction can never
be built (`progress.can_never_build`, checked as each round ends), when
`progress.IDLE_ROUNDS_PER_PLAYER x players` rounds in a row pass with no card
drawn and no level built (`quiet_rounds`), or when round `max_rounds` ends;
`ended_by` says which.

Besides the cards, the state tracks `known`: per player, how many cards of each
kind the table has seen go into that hand and not come out (a swap-zone card
taken, cards taken back after a failed construction). It is public, so it is in
every view, and `resample_hidden` keeps those cards where they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from pyramids.core.api import TERMINAL, RandomSource, State
from pyramids.core.errors import N_, RecordError, Words
from pyramids.core.rng import Rng
from pyramids.core.saving import (
    BOOL,
    RNG,
    SEED,
    Custom,
    Field,
    Int,
    Kept,
    ListOf,
    Malformed,
    OneOf,
    Optional,
    SavedState,
    Schema,
)
from pyramids.core.views import Outcome, make_outcome
from pyramids.games.temple.actions import PASS, SET, SUMMON, SWAP, SWAP_PASS, Decoded
from pyramids.games.temple.cards import (
    JEWEL,
    KIND_NAMES,
    LEVELS,
    NUM_KINDS,
    counts_from_dict,
    counts_of,
    counts_to_dict,
    empty_counts,
    kind_words,
    level_kind,
    new_deck,
    parse_kind,
)
from pyramids.games.temple.construction import (
    SET_CHOICES,
    Construction,
    earnings,
    why_set_is_illegal,
)
from pyramids.games.temple.pile import draw_card
from pyramids.games.temple.progress import (
    IDLE_ROUNDS_PER_PLAYER,
    can_never_build,
    first_start_player,
    next_start_player,
)
from pyramids.games.temple.scoring import returns_for, scores, winners

if TYPE_CHECKING:
    from pyramids.games.temple.game import TempleGame

DRAWS_PER_ROUND = 2
PHASE_SWAP, PHASE_SUMMON, PHASE_SET, PHASE_OVER = "swap", "summon", "set", "over"
PHASES = (PHASE_SWAP, PHASE_SUMMON, PHASE_SET, PHASE_OVER)
# Why a game ended: level 9 was built, the level under construction can never be
# built, rounds passed with nothing to draw and no level built, or the safety cap.
ENDED_BUILT, ENDED_STUCK, ENDED_IDLE, ENDED_CAP = (
    "level 9 built", "level cannot be built", "no progress", "max_rounds")
ENDINGS = (ENDED_BUILT, ENDED_STUCK, ENDED_IDLE, ENDED_CAP)
EMPTY_SLOT = -1


def _load_kind(raw: Any, state: TempleState) -> int:
    kind = parse_kind(raw) if isinstance(raw, str) else None
    if kind is None:
        raise Malformed(f"{raw!r} is not a card kind; allowed: {', '.join(KIND_NAMES)}")
    return kind


def _load_slot(raw: Any, state: TempleState) -> int:
    return EMPTY_SLOT if raw is None else _load_kind(raw, state)


def _dump_slot(kind: int) -> str | None:
    return None if kind == EMPTY_SLOT else KIND_NAMES[kind]


def _load_counts(raw: Any, state: TempleState) -> list[int]:
    if not isinstance(raw, dict):
        raise Malformed(f"{raw!r} is not an object of card counts like {{\"L3\": 2, \"J\": 1}}")
    try:
        return counts_from_dict(raw)
    except ValueError as error:
        raise Malformed(str(error)) from None


def _load_construction(raw: Any, state: TempleState) -> Construction:
    if not isinstance(raw, dict):
        raise Malformed(f"{raw!r} is not an object with summoner, paid and sets")
    return Construction.from_dict(raw, state.num_players)


def _seats(state: TempleState) -> int:
    return state.num_players


def _last_seat(state: TempleState) -> int:
    return state.num_players - 1


_KIND = Custom(_load_kind, KIND_NAMES.__getitem__)
_COUNTS = Custom(_load_counts, counts_to_dict, list.copy)


class CountingView(NamedTuple):
    """What the player to move can count, as lists of ten counts indexed by kind
    (as in `pyramids.games.temple.cards`): the public table and the mover's own
    hand, nothing hidden from it."""

    mover: int  # the seat to move
    level: int  # the level under construction (10 once all nine are built)
    hand: list[int]  # the mover's hand
    treasure: list[int]  # by seat
    hand_sizes: list[int]  # by seat
    known: list[list[int]]  # by seat: the cards the table knows are in that hand
    unseen: list[int]  # cards the mover cannot place: in the pile or unknown in other hands


class TempleState(SavedState, State):
    game: TempleGame

    __slots__ = (
        "game", "num_players", "seed", "rng", "pile", "discard", "removed", "built",
        "zone", "hands", "known", "treasure", "round", "start_player", "ended_by",
        "quiet_rounds", "stirred", "phase", "current", "acted", "construction", "actions",
    )

    saved = Schema(
        "temple state",
        Kept("game"),
        Kept("num_players"),  # the `players` option, set before loading
        Field("seed", "seed", SEED),
        Field("rng", "rng", RNG),
        Field("pile", "pile", ListOf(_KIND)),
        Field("discard", "discard", _COUNTS),
        Field("removed", "removed", _COUNTS),
        Field("built", "built", Int(0, LEVELS)),
        Field("zone", "zone", ListOf(Custom(_load_slot, _dump_slot),
                                     length=lambda state: state.game.options["swap_size"])),
        Field("hands", "hands", ListOf(_COUNTS, length=_seats)),
        Field("known", "known", ListOf(_COUNTS, length=_seats)),
        Field("treasure", "treasure", ListOf(Int(0), length=_seats)),
        Field("round", "round", Int(1, lambda state: state.game.options["max_rounds"])),
        Field("start_player", "start_player", Int(0, _last_seat)),
        Field("ended_by", "ended_by", Optional(OneOf(ENDINGS))),
        Field("quiet_rounds", "quiet_rounds",
              Int(0, lambda state: IDLE_ROUNDS_PER_PLAYER * state.num_players)),
        Field("stirred", "stirred", BOOL),
        Field("phase", "phase", OneOf(PHASES)),
        Field("current", "current", Int(TERMINAL, _last_seat)),
        # Passes in a row end a round at `players`, and a game ended then keeps the count.
        Field("acted", "acted", Int(0, _seats)),
        Field("construction", "construction",
              Optional(Custom(_load_construction, Construction.to_dict, Construction.copy))),
        Field("actions", "actions", ListOf(Int(0, lambda state: state.game.codec.size - 1))),
    )

    def __init__(self, game: TempleGame, seed: int | str | None = None) -> None:
        options = game.options
        self.game = game
        self.seed = seed
        self.num_players = options["players"]
        self.rng = Rng(seed)
        self.pile = new_deck(options["cards_per_level"], options["jewels"])
        self.rng.shuffle(self.pile)
        self.discard = empty_counts()
        self.removed = empty_counts()
        self.built = 0
        self.zone = [self._draw() for _ in range(options["swap_size"])]
        self.hands = [empty_counts() for _ in range(self.num_players)]
        for hand in self.hands:
            for _ in range(options["start_hand"]):
                hand[self._draw()] += 1  # the game's options guarantee a card here
        self.known = [empty_counts() for _ in range(self.num_players)]
        self.treasure = [options["start_treasure"]] * self.num_players
        self.round = 1
        self.start_player = first_start_player(options["start_rule"], self.num_players,
                                               self.rng)
        self.ended_by: str | None = None
        # Rounds in a row with nothing drawn or built: before this one while playing, up to
        # and including the last one once the game is over.
        self.quiet_rounds = 0
        self.construction: Construction | None = None
        self.actions: list[int] = []
        self._begin_round()

    # -- chance ---------------------------------------------------------------

    def _draw(self) -> int:
        """The next usable card, or EMPTY_SLOT when no card is left at all."""
        kind = draw_card(self.pile, self.discard, self.removed, self.built, self.rng)
        return EMPTY_SLOT if kind is None else kind

    def _begin_round(self) -> None:
        self.stirred = False  # a card drawn or a level built this round
        for offset in range(self.num_players):
            hand = self.hands[(self.start_player + offset) % self.num_players]
            for _ in range(DRAWS_PER_ROUND):
                kind = self._draw()
                if kind != EMPTY_SLOT:
                    hand[kind] += 1
                    self.stirred = True
        self.phase = PHASE_SWAP
        self.current = self.start_player
        self.acted = 0  # swap phase: players who have acted; summon phase: passes in a row

    def _end_round(self) -> None:
        self.construction = None
        # The round that ended counts before any ending is decided, so a finished game's
        # view counts its last round whichever rule ended it.
        self.quiet_rounds = 0 if self.stirred else self.quiet_rounds + 1
        if can_never_build(self.built, self.hands, self.zone, self.pile, self.discard):
            self._finish(ENDED_STUCK)
            return
        if self.quiet_rounds >= IDLE_ROUNDS_PER_PLAYER * self.num_players:
            self._finish(ENDED_IDLE)
            return
        if self.round >= self.game.options["max_rounds"]:
            self._finish(ENDED_CAP)
            return
        self.round += 1
        self.start_player = next_start_player(self.game.options["start_rule"],
                                              self.start_player, self.treasure)
        self._begin_round()

    def _finish(self, why: str) -> None:
        self.ended_by = why
        self.phase = PHASE_OVER
        self.current = TERMINAL
        self.construction = None

    # -- the API ----------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return self.current

    @property
    def level(self) -> int:
        """The level under construction (10 once all nine are built)."""
        return self.built + 1

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def history(self) -> list[int]:
        return list(self.actions)

    def action_to_string(self, action: int) -> str:
        return self.game.codec.to_string(action)

    def string_to_action(self, text: str) -> int:
        return self.game.codec.parse(text)

    def legal_actions(self) -> list[int]:
        codec = self.game.codec
        if self.phase == PHASE_SWAP:
            hand = self.hands[self.current]
            open_slots = [slot for slot, kind in enumerate(self.zone) if kind != EMPTY_SLOT]
            legal = [codec.swap(kind, slot)
                     for kind in range(NUM_KINDS) if hand[kind] for slot in open_slots]
            legal.append(codec.swap_pass)
            return legal
        if self.phase == PHASE_SUMMON:
            return [codec.summon, codec.pass_]
        if self.phase == PHASE_SET:
            assert self.construction is not None
            hand = self.hands[self.current]
            held_cards, held_jewels = hand[level_kind(self.level)], hand[JEWEL]
            missing = self.construction.missing
            return [codec.set(cards, pairs) for cards, pairs in SET_CHOICES
                    if cards + pairs <= missing and cards <= held_cards
                    and 2 * pairs <= held_jewels]
        return []

    def _why_illegal(self, move: Decoded) -> Words | None:
        if self.phase == PHASE_OVER:
            return Words(N_("the game is over"))
        if self.phase == PHASE_SWAP:
            if move.what == SWAP:
                if not self.hands[self.current][move.a]:
                    return Words(N_("you hold no {card}"), card=kind_words(move.a))
                if self.zone[move.b] == EMPTY_SLOT:
                    return Words(N_("swap-zone slot {slot} is empty"), slot=move.b + 1)
                return None
            if move.what == SWAP_PASS:
                return None
            return Words(N_("it is phase 2 (swap); allowed: 'swap K S' or 'swap pass'"))
        if self.phase == PHASE_SUMMON:
            if move.what in (SUMMON, PASS):
                return None
            return Words(N_("it is phase 3: summon the construction of level {level} or pass; "
                            "allowed: 'summon' or 'pass'"), level=self.level)
        assert self.construction is not None
        if move.what != SET:
            return Words(N_("a construction of level {level} is under way; allowed: 'set C J'"),
                         level=self.level)
        hand = self.hands[self.current]
        return why_set_is_illegal(move.a, move.b, self.level, hand[level_kind(self.level)],
                                  hand[JEWEL], self.construction.missing)

    def apply_action(self, action: int) -> None:
        move = self.game.codec.decode(action)
        if move is None:
            raise self.illegal(action, Words(N_("that is not a move of this game")))
        why = self._why_illegal(move)
        if why is not None:
            raise self.illegal(action, why)
        self.actions.append(action)
        if move.what == SWAP:
            self._swap(move.a, move.b)
        elif move.what == SWAP_PASS:
            self._after_swap()
        elif move.what == SUMMON:
            self._summon()
        elif move.what == PASS:
            self._pass()
        else:
            self._set(move.a, move.b)

    # -- phase 2 --------------------------------------------------------------

    def _swap(self, given: int, slot: int) -> None:
        player = self.current
        taken = self.zone[slot]
        self.hands[player][given] -= 1
        self.hands[player][taken] += 1
        self.zone[slot] = given
        known = self.known[player]
        known[given] = max(0, known[given] - 1)
        known[taken] += 1
        self._after_swap()

    def _after_swap(self) -> None:
        self.acted += 1
        if self.acted == self.num_players:
            self.phase = PHASE_SUMMON
            self.current = self.start_player
            self.acted = 0
        else:
            self.current = (self.current + 1) % self.num_players

    # -- phase 3 --------------------------------------------------------------

    def _pass(self) -> None:
        self.acted += 1
        if self.acted == self.num_players:
            self._end_round()
        else:
            self.current = (self.current + 1) % self.num_players

    def _summon(self) -> None:
        player = self.current
        paid = self.treasure[player] > 0
        if paid:
            self.treasure[player] -= 1
        self.construction = Construction(player, paid, self.num_players)
        self.phase = PHASE_SET

    def _set(self, cards: int, pairs: int) -> None:
        construction = self.construction
        assert construction is not None
        player, kind = self.current, level_kind(self.level)
        hand, known = self.hands[player], self.known[player]
        hand[kind] -= cards
        hand[JEWEL] -= 2 * pairs
        known[kind] = max(0, known[kind] - cards)
        known[JEWEL] = max(0, known[JEWEL] - 2 * pairs)
        construction.record(player, cards, pairs)
        if construction.complete:
            self._succeed(construction)
        elif construction.everyone_has_set:
            self._fail(construction)
        else:
            self.current = construction.next_setter

    def _fail(self, construction: Construction) -> None:
        kind = level_kind(self.level)
        for player, cards, pairs in construction.sets:
            self.hands[player][kind] += cards
            self.hands[player][JEWEL] += 2 * pairs
            # The table saw these cards go back into that hand.
            self.known[player][kind] += cards
            self.known[player][JEWEL] += 2 * pairs
        self._end_round()

    def _succeed(self, construction: Construction) -> None:
        level, kind = self.level, level_kind(self.level)
        for player, units in enumerate(construction.units_by_player(self.num_players)):
            self.treasure[player] += earnings(level, units)
        for _, cards, pairs in construction.sets:
            self.discard[kind] += cards
            self.discard[JEWEL] += 2 * pairs
        self.built += 1
        self.stirred = True
        for hand, known in zip(self.hands, self.known, strict=True):
            self.discard[kind] += hand[kind]
            hand[kind] = 0
            known[kind] = 0
        stale = [slot for slot, card in enumerate(self.zone) if card == kind]
        self.discard[kind] += len(stale)
        for slot in stale:
            self.zone[slot] = self._draw()
        self.construction = None
        if self.built == LEVELS:
            self.quiet_rounds = 0  # the last round built a level: it ends any quiet run
            self._finish(ENDED_BUILT)
            return
        self.phase = PHASE_SUMMON
        self.acted = 0
        self.current = (construction.summoner + 1) % self.num_players

    # -- the end ------------------------------------------------------------------

    def jewels_in_hand(self) -> list[int]:
        return [hand[JEWEL] for hand in self.hands]

    def scores(self) -> list[int]:
        return scores(self.treasure, self.jewels_in_hand())

    def winners(self) -> list[int]:
        return winners(self.treasure, self.jewels_in_hand())

    def standings(self) -> list[Any]:
        # The winner's tie-break orders every place: score, then jewels.
        if self.phase != PHASE_OVER:
            return super().standings()
        return list(zip(self.scores(), self.jewels_in_hand(), strict=True))

    def returns(self) -> list[float]:
        if self.phase != PHASE_OVER:
            return [0.0] * self.num_players
        return returns_for(self.num_players, self.winners())

    # -- information ------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and not 0 <= player < self.num_players:
            raise ValueError(f"temple: no seat {player!r}; seats are 0..{self.num_players - 1}")
        construction = None
        if self.construction is not None:
            c = self.construction
            construction = {
                "level": self.level,
                "summoner": c.summoner,
                "paid": c.paid,
                "sets": [{"player": p, "cards": cards, "jewel_pairs": pairs}
                         for p, cards, pairs in c.sets],
                "units_by_player": c.units_by_player(self.num_players),
                "units": c.units,
                "missing": c.missing,
                "next": c.next_setter,
            }
        view: dict[str, Any] = {
            "game": self.game.name,
            "viewer": player,
            "players": self.num_players,
            "phase": self.phase,
            "current_player": self.current,
            "round": self.round,
            "max_rounds": self.game.options["max_rounds"],
            "start_player": self.start_player,
            "quiet_rounds": self.quiet_rounds,
            "level": self.level if self.built < LEVELS else None,
            "built": self.built,
            "treasure": list(self.treasure),
            "hand_sizes": [sum(hand) for hand in self.hands],
            "known": [counts_to_dict(known) for known in self.known],
            "swap_zone": [None if kind == EMPTY_SLOT else KIND_NAMES[kind] for kind in self.zone],
            "discard": counts_to_dict(self.discard),
            "out_of_game": counts_to_dict(self.removed),
            "pile_size": len(self.pile),
            "passes": self.acted if self.phase == PHASE_SUMMON else 0,
            "construction": construction,
        }
        if player is not None:
            view["hand"] = counts_to_dict(self.hands[player])
        if self.phase == PHASE_OVER:
            best = self.winners()
            view["jewels"] = self.jewels_in_hand()
            view["scores"] = self.scores()
            view["winners"] = best
            view["winner"] = best[0] if len(best) == 1 else None
            view["ended_by"] = self.ended_by
        view["outcome"] = self.outcome()
        return view

    def turn_view(self) -> dict[str, Any]:
        """The part of `view(current_player)` that a swap or a set is chosen from:
        the phase, the level, the mover's hand, the swap zone and, during a
        construction, its level and the units it misses (the same values under the
        same keys). Search rollouts choose a move at every turn, and a whole view
        costs several times more than this."""
        construction = None
        if self.construction is not None:
            construction = {"level": self.level, "missing": self.construction.missing}
        return {
            "phase": self.phase,
            "level": self.level if self.built < LEVELS else None,
            "hand": counts_to_dict(self.hands[self.current]) if self.phase != PHASE_OVER else {},
            "swap_zone": [None if kind == EMPTY_SLOT else KIND_NAMES[kind] for kind in self.zone],
            "construction": construction,
        }

    def counting_view(self) -> CountingView:
        """The counts the player to move decides to summon from (`CountingView`).

        `unseen` is worked out as a player would: the whole deck less every card the
        mover can place (the discard, the cards out of the game, the swap zone, the
        cards set in a construction, its own hand and the known cards of the other
        hands), so it never reveals more than the mover's view. Search rollouts ask
        for it at every summon, and a whole view costs several times more."""
        if self.phase == PHASE_OVER:
            raise ValueError("temple: the game is over, so no one is to move")
        me = self.current
        options = self.game.options
        deck = [options["cards_per_level"]] * LEVELS + [options["jewels"]]
        others = [known for seat, known in enumerate(self.known) if seat != me]
        placed = zip(self.discard, self.removed, self.hands[me], *others, strict=True)
        unseen = [total - sum(counts) for total, counts in zip(deck, placed, strict=True)]
        for kind in self.zone:
            if kind != EMPTY_SLOT:
                unseen[kind] -= 1
        if self.construction is not None:
            for _, cards, pairs in self.construction.sets:
                unseen[level_kind(self.level)] -= cards
                unseen[JEWEL] -= 2 * pairs
        return CountingView(
            mover=me,
            level=self.level,
            hand=list(self.hands[me]),
            treasure=list(self.treasure),
            hand_sizes=[sum(hand) for hand in self.hands],
            known=[list(known) for known in self.known],
            unseen=unseen,
        )

    def outcome(self) -> Outcome | None:
        """The standard end block: winners, scores, and the ending as a fixed word."""
        if self.phase != PHASE_OVER or self.ended_by is None:
            return None
        return make_outcome(
            winners=self.winners(),
            scores=[float(score) for score in self.scores()],
            reason="round-cap" if self.ended_by == ENDED_CAP else self.ended_by.replace(" ", "-"),
            capped=self.ended_by == ENDED_CAP,
            figures={"rounds": self.round, "built": self.built},
        )

    def resample_hidden(self, player: int | None, rng: RandomSource) -> TempleState:
        """A copy with the cards `player` cannot see dealt again at random.

        Kept: everything public, `player`'s hand, the hand sizes, the pile size and
        the cards the table knows to be in a hand (`known`). Dealt again: the other
        cards of the other hands and the pile. A hand never holds a card of a built
        level, so those stay in the pile. The state's `Rng` is reseeded from `rng`.
        The legal actions stay the same when `player` is the player to move; another
        seat's legal actions depend on its hidden cards.
        """
        twin = self.clone()
        redealt = [seat for seat in range(self.num_players) if seat != player]
        usable: list[int] = []
        stale: list[int] = []
        for kind in twin.pile:
            (stale if kind != JEWEL and kind < self.built else usable).append(kind)
        for seat in redealt:
            hand, known = twin.hands[seat], twin.known[seat]
            for kind in range(NUM_KINDS):
                usable.extend([kind] * (hand[kind] - known[kind]))
                hand[kind] = known[kind]
        rng.shuffle(usable)
        for seat in redealt:
            hand = twin.hands[seat]
            for _ in range(sum(self.hands[seat]) - sum(hand)):
                hand[usable.pop()] += 1
        twin.pile = usable + stale
        rng.shuffle(twin.pile)
        twin.rng = Rng(rng.randrange(1 << 62))
        return twin

    # -- saving -----------------------------------------------------------------

    @classmethod
    def from_dict(cls, game: TempleGame, data: dict[str, Any]) -> TempleState:
        """The state `_to_dict` saved; raises RecordError naming a malformed field."""
        state = cls.__new__(cls)
        state.game = game
        state.num_players = game.options["players"]
        cls.saved.load(state, _with_keys_added_since(data))
        why = state._why_inconsistent()
        if why is not None:
            raise RecordError(f"saved temple state: {why}")
        return state

    def _why_inconsistent(self) -> str | None:
        """What no game can reach in this loaded state (each field's own checks are
        `saved`'s), or None."""
        for hand, known in zip(self.hands, self.known, strict=True):
            if any(k > h for k, h in zip(known, hand, strict=True)):
                return "known: a hand holds fewer cards than are known to be in it"
        if (self.ended_by is None) != (self.phase != PHASE_OVER):
            return (f"ended_by {self.ended_by!r} does not fit phase {self.phase!r}; a finished "
                    f"game gives one of: {', '.join(ENDINGS)}")
        if self.acted == self.num_players and self.phase != PHASE_OVER:
            return f"acted: {self.acted} players have acted, so the round is over"
        if (self.construction is None) != (self.phase != PHASE_SET):
            return "construction: one is under way exactly in the 'set' phase"
        if self.construction is not None and self.current != self.construction.next_setter:
            return "current: in the 'set' phase the current player is the next to set"
        if (self.current == TERMINAL) != (self.phase == PHASE_OVER):
            return "current: the current player is -1 exactly when the game is over"
        total = empty_counts()
        for counts in (self.discard, self.removed, *self.hands):
            total = [a + b for a, b in zip(total, counts, strict=True)]
        for kind in self.pile + [k for k in self.zone if k != EMPTY_SLOT]:
            total[kind] += 1
        if self.construction is not None:
            for _, cards, pairs in self.construction.sets:
                total[level_kind(self.level)] += cards
                total[JEWEL] += 2 * pairs
        options = self.game.options
        if total != counts_of(new_deck(options["cards_per_level"], options["jewels"])):
            return f"the cards do not add up to the deck: {counts_to_dict(total)}"
        return None


def _with_keys_added_since(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the keys that saves written before them lack: `stirred` and
    `quiet_rounds` (then: a fresh count), and `ended_by` (then: only two endings)."""
    if "ended_by" in data and "quiet_rounds" in data and "stirred" in data:
        return data
    added: dict[str, Any] = {"quiet_rounds": 0, "stirred": True, "ended_by": None}
    if data.get("phase") == PHASE_OVER:
        added["ended_by"] = ENDED_BUILT if data.get("built") == LEVELS else ENDED_CAP
    return {**added, **data}
