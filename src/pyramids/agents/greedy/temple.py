"""Greedy Temple of Inscriptions, from the strategy notes: summon when the units on
the table make the level likely, set what earns points, swap toward the level
being built.

Everything comes from what the player sees (its view, or the counts the engine
gives of it: `TempleState.counting_view`), the game's (public) options and the
action strings:
- **card counting**: the cards of each kind not yet seen by this player are the
  deck minus the discard, the cards out of the game, the swap zone, the cards
  set in a construction, this hand and the cards the table knows are in other
  hands; each other player's unknown cards are that mix in proportion;
- **summon** when this player can set a unit and the units it can set plus the
  units the others are expected to hold reach the 5 a level needs (summoning is
  free at 0 treasure, so then any unit is enough);
- **set** all the level cards allowed; a jewel pair only where it earns more
  than the 2 points the two jewels are worth at the end, or completes the level;
- **swap** the card that adds least to this hand for the zone card that adds
  most: cards of the level being built count most (up to the 3 a player may
  set), later levels less the farther away they are, jewels a steady 1.5.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from pyramids.agents.greedy import best_by
from pyramids.core import Rng, State
from pyramids.games.temple.actions import ActionCodec
from pyramids.games.temple.cards import JEWEL as JEWEL_KIND
from pyramids.games.temple.state import CountingView, TempleState

LEVELS = 9
UNITS_TO_BUILD = 5
MAX_UNITS = 3
JEWEL = "J"
JEWEL_VALUE = 1.5
DISTANCE_DECAY = 0.75
SUMMON_MARGIN = 0.0


def kind_name(level: int) -> str:
    return f"L{level}"


def hand_value(hand: dict[str, int], level: int) -> float:
    """How much a hand is worth to a builder of `level` (see the module docstring)."""
    return sum(kind_value(kind, n, level) for kind, n in hand.items())


@lru_cache(maxsize=4096)
def kind_value(kind: str, n: int, level: int) -> float:
    """What `n` cards of `kind` add to `hand_value` for a builder of `level`."""
    if kind == JEWEL:
        return JEWEL_VALUE * n
    other = int(kind[1:])
    if other < level:
        return 0.0
    weight = other * DISTANCE_DECAY ** (other - level) + (2.0 if other == level else 0.0)
    return min(MAX_UNITS, n) * weight + 0.1 * max(0, n - MAX_UNITS)


def my_units(hand: list[int], level: int, use_jewels: bool = True) -> int:
    """The units (level cards, and jewel pairs when used) a hand can set, at most 3."""
    pairs = hand[JEWEL_KIND] // 2 if use_jewels else 0
    return min(MAX_UNITS, hand[level - 1] + pairs)


def expected_other_units(counts: CountingView) -> float:
    """The units the other seats are expected to set: their known cards, and their
    unknown cards as the unseen mix in proportion."""
    level_kind = counts.level - 1
    unseen = counts.unseen
    pool = sum(unseen)
    share_level = unseen[level_kind] / pool if pool else 0.0
    share_jewel = unseen[JEWEL_KIND] / pool if pool else 0.0
    jewel_use = 1.0 if counts.level >= 3 else 0.5
    total = 0.0
    for seat, known in enumerate(counts.known):
        if seat == counts.mover:
            continue
        unknown = max(0, counts.hand_sizes[seat] - sum(known))
        cards = known[level_kind] + unknown * share_level
        jewels = known[JEWEL_KIND] + unknown * share_jewel
        total += min(float(MAX_UNITS), cards + jewel_use * jewels / 2)
    return total


def choose(state: State, rng: Rng) -> int:
    temple = _temple(state)
    if temple.phase == "summon":
        return _summon(temple.counting_view(), state.legal_actions(), _moves(temple))
    facts = temple.turn_view()
    phase = facts["phase"]
    legal = sorted(state.legal_actions())
    if phase == "swap":
        return best_by(legal, _swap_gain(facts, _moves(temple)), rng)
    if phase == "set":
        return best_by(legal, _set_worth(facts, _moves(temple)), rng)
    return legal[rng.randrange(len(legal))]


def action_scores(state: State) -> dict[int, float]:
    """Every legal action with the score the rule chooses by (`choose` plays a best
    one): a swap's gain, a set's worth, and for summoning how far the units
    expected on the table clear the 5 a level needs. `easy` slips to the next best."""
    temple = _temple(state)
    facts = temple.turn_view()
    phase = facts["phase"]
    legal = state.legal_actions()
    if phase == "swap":
        gain = _swap_gain(facts, _moves(temple))
        return {action: gain(action) for action in legal}
    if phase == "set":
        worth = _set_worth(facts, _moves(temple))
        return {action: worth(action) for action in legal}
    if phase == "summon":
        margin = _summon_margin(temple.counting_view())
        moves = _moves(temple)
        return {action: (0.0 if moves[action].verb == "pass" else margin) for action in legal}
    return dict.fromkeys(legal, 0.0)


class _Move(NamedTuple):
    """An action string read once: `swap K S`, `swap pass`, `summon`, `pass`, `set C J`."""

    verb: str
    given: str | None = None  # swap: the kind given; None for `swap pass`
    slot: int = 0  # swap: the zone slot taken, from 0
    cards: int = 0  # set: level cards
    pairs: int = 0  # set: jewel pairs


def _read_move(name: str) -> _Move:
    words = name.split()
    if words[0] == "swap":
        if words[1] == "pass":
            return _Move("swap")
        return _Move("swap", words[1].upper(), int(words[2]) - 1)
    if words[0] == "set":
        return _Move("set", cards=int(words[1]), pairs=int(words[2]))
    return _Move(words[0])


@lru_cache(maxsize=16)
def _moves_of(codec: ActionCodec) -> tuple[_Move, ...]:
    # An action's string never changes within a game, and rollouts choose a move at
    # every turn: each string is read once, not at every legal move of every turn.
    return tuple(_read_move(codec.to_string(action)) for action in range(codec.size))


def _moves(state: TempleState) -> tuple[_Move, ...]:
    """Every action of the game as a `_Move`, by action number."""
    return _moves_of(state.game.codec)


def _temple(state: State) -> TempleState:
    if not isinstance(state, TempleState):
        raise TypeError(f"the Temple rule plays Temple of Inscriptions, not {state.game.name}")
    return state


def _swap_gain(view: dict[str, Any], moves: tuple[_Move, ...]) -> Callable[[int], float]:
    hand = view["hand"]
    level = view["level"]
    zone = view["swap_zone"]
    # hand_value(after) - hand_value(before): only the two kinds swapped change. A
    # turn weighs every kind held against every zone slot, so each kind's change is
    # worked out once.
    given_change = {kind: kind_value(kind, n - 1, level) - kind_value(kind, n, level)
                    for kind, n in hand.items()}
    taken_values = {slot: (kind_value(kind, hand.get(kind, 0) + 1, level),
                           kind_value(kind, hand.get(kind, 0), level))
                    for slot, kind in enumerate(zone) if kind is not None}

    def gain(action: int) -> float:
        move = moves[action]
        given = move.given
        if given is None:
            return 0.0
        taken = zone[move.slot]
        if given == taken:
            return 0.0
        with_taken, without_taken = taken_values[move.slot]
        return given_change[given] + with_taken - without_taken

    return gain


def _summon(counts: CountingView, legal: list[int], moves: tuple[_Move, ...]) -> int:
    by_verb = {moves[action].verb: action for action in legal}
    if "summon" not in by_verb:
        return by_verb["pass"]
    return by_verb["summon" if _summon_margin(counts) > 0 else "pass"]


def _summon_margin(counts: CountingView) -> float:
    """Above 0 to summon: the units this player and the others are expected to set,
    less the 5 a level needs (summoning is free at 0 treasure; no unit of its own,
    never). Half a unit is added either side of 0 so that a slip's next best move
    is the other choice, never a tie."""
    level = counts.level
    mine = my_units(counts.hand, level, use_jewels=level >= 3)
    if mine == 0:
        return -float(UNITS_TO_BUILD)
    expected = mine + expected_other_units(counts)
    margin = expected - (UNITS_TO_BUILD + SUMMON_MARGIN)
    if counts.treasure[counts.mover] == 0 or margin >= 0:
        return max(margin, 0.0) + 0.5
    return margin - 0.5


def _set_worth(view: dict[str, Any], moves: tuple[_Move, ...]) -> Callable[[int], float]:
    construction = view["construction"]
    level = construction["level"]
    missing = construction["missing"]

    def worth(action: int) -> float:
        move = moves[action]
        c, j = move.cards, move.pairs
        completes = c + j >= missing
        return c * level + j * (level - 2) + (5.0 if completes else 0.0) + 0.01 * (c + j)

    return worth


# ----- search settings (mcts reads these) ------------------------------------------------

SEARCH_GAMES = ("temple",)
# The other seats play this greedy rule inside mcts' tree too (the tree branches on
# the searching player's moves only), and rollouts go to the end of the game, so a
# rollout's return is the engine's: who finishes with the single highest score.
OPPONENTS = "rollout"
ROLLOUT_DEPTH = None
SCORE_SCALE = 3.0


def evaluate_state(state: State) -> list[float]:
    """Expected returns from the score race, for rollouts cut short (`rollout_depth=N`):
    treasure plus jewels now, each player's chance of finishing first a softmax of
    the scores (the engine's returns give the winner +1 and share -1 among the
    others)."""
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    players = state.game.num_players
    public = state.view(None)
    scores = []
    for seat in range(players):
        jewels = state.view(seat)["hand"].get(JEWEL, 0)
        scores.append(public["treasure"][seat] + jewels)
    top = max(scores)
    weights = [math.exp((s - top) / SCORE_SCALE) for s in scores]
    total = sum(weights)
    share = 1.0 / (players - 1)
    return [w / total * (1 + share) - share for w in weights]


# ----- named levels (pyramids.agents.levels; figures in docs/agents.md) -----------------

DIFFICULTY = {
    "easy": "greedy:mistakes=0.3",
    "medium": "greedy",
    "hard": "mcts:iterations=40",
    "expert": "mcts:iterations=2000",
}
