"""Greedy Pacal (match and solo), from the strategy notes: keep the value ranges of
the open fields wide, and when offering, give a card the opponent will take
beside the card you want back.

The agent reads the pyramids from the view (each field the list of its cards,
oldest first) and keeps its own small model of the building rule from the rules
page: the visible values strictly decrease in field order, a card goes on an
empty field or covers an open one, between the nearest occupied values above
and below. Legal moves themselves always come from the engine.

A pyramid is judged by `evaluate`: each filled field is worth `FILL_WEIGHT`;
each run of empty fields between two visible values must later be filled with
values from between them, so a run of `k` fields with only `n` such values
still to come is cramped (`-k*k/(n+1)`) or dead (fewer values than fields);
open fields keep a little flexibility (they can still be covered). "Values
still to come" are the values not on either pyramid. In solo, values to come
that would fit nowhere (dead values) cost in proportion to the empty fields.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pyramids.agents.greedy import best_by
from pyramids.core import Rng, State
from pyramids.core.errors import N_
from pyramids.games.pacal.match import PacalState
from pyramids.games.pacal.pyramid import legal_fields as rule_legal_fields

FIELDS = 10
HIGHEST = 50
FILL_WEIGHT = 4.0
OPEN_BONUS = 0.3
DEAD_PENALTY = 25.0
OPPONENT_WEIGHT = 0.6
DEAD_WEIGHT = 2.0

Pyramid = tuple[list[int], list[int]]  # (visible value per field, 0 if empty; covered value)


def pyramid_from_view(fields: Sequence[Sequence[int]]) -> Pyramid:
    visible = [cards[-1] if cards else 0 for cards in fields]
    covered = [cards[0] if len(cards) > 1 else 0 for cards in fields]
    return visible, covered


def used_values(pyramids: Sequence[Sequence[Sequence[int]]]) -> set[int]:
    return {card for fields in pyramids for cards in fields for card in cards}


def legal_fields(pyramid: Pyramid, card: int) -> list[int]:
    """Field indices (0..9) where `card` may go under the building rule."""
    visible, covered = pyramid
    if card in visible:
        return []  # a value already visible cannot come again (each card exists once)
    return rule_legal_fields(visible, covered, card)


def placed(pyramid: Pyramid, field: int, card: int) -> Pyramid:
    visible, covered = list(pyramid[0]), list(pyramid[1])
    if visible[field]:
        covered[field] = visible[field]
    visible[field] = card
    return visible, covered


def availability(free: set[int]) -> list[int]:
    """Prefix counts: `counts[v]` is how many free values are below `v`."""
    counts = [0] * (HIGHEST + 2)
    for value in range(1, HIGHEST + 2):
        counts[value] = counts[value - 1] + (1 if value - 1 in free else 0)
    return counts


def evaluate(pyramid: Pyramid, counts: list[int], solo: bool = False) -> float:
    """How promising a pyramid is, with `counts` the prefix counts of values to come.

    `solo` scores runs for survival alone (`_solo_run_score`), which completes
    more solo pyramids (53% against 48% over 1,500 deals) than the match's
    `_run_score`, which weighs cramped runs harder. It also counts the dead
    values (`dead_values`): a drawn card among them fits nowhere and loses the
    game, so the score drops by `DEAD_WEIGHT` x empty fields x the share of the
    cards to come that are dead (56.9% of 20,000 deals completed against 53.1%).
    """
    run_score = _solo_run_score if solo else _run_score
    visible, covered = pyramid
    score = 0.0
    high = HIGHEST + 1
    run = 0
    empty = 0
    for index in range(FIELDS):
        value = visible[index]
        if not value:
            run += 1
            empty += 1
            continue
        score += FILL_WEIGHT + (0.0 if covered[index] else OPEN_BONUS)
        if run:
            score += run_score(run, counts[high] - counts[value + 1])
        high, run = value, 0
    if run:
        score += run_score(run, counts[high] - counts[1])
    if solo and empty and counts[HIGHEST + 1]:
        score -= DEAD_WEIGHT * empty * dead_values(pyramid, counts) / counts[HIGHEST + 1]
    return score


def dead_values(pyramid: Pyramid, counts: list[int]) -> int:
    """How many values to come fit nowhere: those between two neighbouring occupied
    fields (or an occupied end field and the edge) that are both covered."""
    visible, covered = pyramid
    dead = 0
    last, high, high_covered = -1, HIGHEST + 1, True  # the edge above field 1
    for index in range(FIELDS):
        value = visible[index]
        if not value:
            continue
        if index == last + 1 and high_covered and covered[index]:
            dead += counts[high] - counts[value + 1]
        last, high, high_covered = index, value, bool(covered[index])
    if last == FIELDS - 1 and high_covered:
        dead += counts[high] - counts[1]
    return dead


def _run_score(fields: int, values: int) -> float:
    if values < fields:
        return -DEAD_PENALTY * (fields - values)
    return -fields * fields / (values + 1.0)


def _solo_run_score(fields: int, values: int) -> float:
    if values < fields:
        return -DEAD_PENALTY * (fields - values)
    return fields * math.log((values + 1.0) / (fields + 1.0))


def best_placement(pyramid: Pyramid, card: int, counts: list[int]) -> tuple[float, int | None]:
    """The best evaluation reachable by placing `card`, and the field (None: nowhere)."""
    best: tuple[float, int | None] = (-float("inf"), None)
    for field in legal_fields(pyramid, card):
        value = evaluate(placed(pyramid, field, card), counts)
        if value > best[0]:
            best = (value, field)
    return best


def gain(pyramid: Pyramid, card: int, counts: list[int]) -> float:
    """How much placing `card` as well as possible improves a pyramid (-inf: it cannot go)."""
    return best_placement(pyramid, card, counts)[0] - evaluate(pyramid, counts)


def gains(pyramid: Pyramid, cards: Sequence[int], counts: list[int]) -> dict[int, float]:
    """`gain` of each card, the pyramid as it stands judged once."""
    before = evaluate(pyramid, counts)
    return {card: best_placement(pyramid, card, counts)[0] - before for card in cards}


def field_of(name: str) -> int | None:
    """The field index of `place F3`, None for other actions."""
    return int(name.split()[1][1:]) - 1 if name.startswith("place ") else None


ROUND_WIN = 1000.0
Scores = dict[int, float]
Counts = tuple[list[Any], list[Any]]  # prefix counts for my shape and for the opponent's


def choose(state: State, rng: Rng) -> int:
    scores = action_scores(state)
    return best_by(sorted(scores), scores.__getitem__, rng)


def action_scores(state: State) -> Scores:
    """Every legal action of the player to move with the greedy rule's score for it."""
    me = state.current_player
    view = state.view(me)
    names = {action: state.action_to_string(action) for action in state.legal_actions()}
    if view["game"] == "pacal-solo":
        return solo_placement_scores(view, names)
    pyramids = view["pyramids"]
    mine = pyramid_from_view(pyramids[me])
    theirs = pyramid_from_view(pyramids[1 - me])
    counts = availability(set(range(1, HIGHEST + 1)) - used_values(pyramids))
    phase = view["phase"]
    if phase == "offer":
        return _offer(names, mine, theirs, counts)
    if phase == "pick":
        return _pick(names, mine, theirs, counts)
    if phase == "place":
        return _place(names, mine, view["card_to_place"], counts)
    if phase == "last_card":
        return _last_card(names, mine, view["card_to_place"])
    return dict.fromkeys(names, 0.0)


def solo_placement_scores(view: dict[str, Any], names: dict[int, str]) -> Scores:
    fields = view["pyramid"]
    pyramid = pyramid_from_view(fields)
    counts = availability(set(range(1, HIGHEST + 1)) - used_values([fields]) - {view["card"]})
    return _place(names, pyramid, view["card"], counts, solo=True)


def _place(names: dict[int, str], mine: Pyramid, card: int, counts: list[int],
           solo: bool = False) -> Scores:
    scores = {}
    for action, name in names.items():
        field = field_of(name)
        scores[action] = (
            -float("inf") if field is None
            else evaluate(placed(mine, field, card), counts, solo)
        )
    return scores


def _last_card(names: dict[int, str], mine: Pyramid, card: int) -> Scores:
    # A filled field decides the round (more fields, then the smaller spread):
    # place on an empty field if possible, cover only to narrow the spread.
    scores = {}
    for action, name in names.items():
        field = field_of(name)
        if field is None:
            scores[action] = 0.0  # decline
            continue
        after = placed(mine, field, card)
        filled = sum(1 for v in after[0] if v) - sum(1 for v in mine[0] if v)
        scores[action] = 100.0 * filled + spread(mine[0]) - spread(after[0])
    return scores


def spread(visible: Sequence[int]) -> int:
    values = [v for v in visible if v]
    return max(values) - min(values) if values else 0


def _pick(names: dict[int, str], mine: Pyramid, theirs: Pyramid, counts: list[int]) -> Scores:
    # The picker places first: a card this player cannot place loses the round at
    # once; a returned card the offerer cannot place wins it.
    cards = {action: int(names[action].split()[1]) for action in names}
    scores = {}
    for action, card in cards.items():
        other = next((c for a, c in cards.items() if a != action), None)
        value = gain(mine, card, counts)
        if value == -float("inf"):
            scores[action] = -ROUND_WIN
            continue
        if other is not None:
            their_gain = gain(theirs, other, counts)
            value += ROUND_WIN if their_gain == -float("inf") else -OPPONENT_WEIGHT * their_gain
        scores[action] = value
    return scores


def _offer(names: dict[int, str], mine: Pyramid, theirs: Pyramid, counts: list[int]) -> Scores:
    # The opponent takes the card better for them and this player gets the other
    # back: offer a card they will take beside the card wanted back. Two cards
    # they cannot place win the round; a returned card this player cannot place
    # loses it.
    hand_cards = sorted({int(w) for name in names.values() for w in name.split()[1:]})
    mine_gain = gains(mine, hand_cards, counts)
    theirs_gain = gains(theirs, hand_cards, counts)
    scores = {}
    for action, name in names.items():
        _, first, second = name.split()
        a, b = int(first), int(second)
        taken, returned = (a, b) if theirs_gain[a] >= theirs_gain[b] else (b, a)
        if theirs_gain[taken] == -float("inf"):
            scores[action] = ROUND_WIN
        elif mine_gain[returned] == -float("inf"):
            scores[action] = -ROUND_WIN
        else:
            scores[action] = mine_gain[returned] - OPPONENT_WEIGHT * theirs_gain[taken]
    return scores


# ----- a position's value for search (mcts cuts its rollouts short with it) -------------

SEARCH_GAMES = ("pacal",)
ROLLOUT_DEPTH = 60


def rollout_stage(state: State) -> object:
    """Rollouts play to the end of the round being played, then `evaluate_state`."""
    return match_progress(state)[0]


def match_progress(state: State) -> tuple[int, str, int]:
    """The round, the phase's name and the turns played, as the public view gives them."""
    if isinstance(state, PacalState):
        return state.progress()
    public = state.view(None)
    return public["round"], public["phase"], public["turns_played"]


SEARCH_WIDTH = 3
ROUND_SCALE = 6.0


def match_win_chance(wins: int, their_wins: int, target: int, p: float = 0.5) -> float:
    """The chance of reaching `target` round wins first when each round is won with `p`."""
    need, their_need = target - wins, target - their_wins
    if need <= 0:
        return 1.0
    if their_need <= 0:
        return 0.0
    # Win `need` rounds before losing `their_need`: sum over the losses k on the way.
    total = 0.0
    for k in range(their_need):
        total += _choose(need - 1 + k, k) * p**need * (1 - p) ** k
    return total


def _choose(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def evaluate_state(state: State) -> list[float]:
    """Estimated returns of a Pacal match from its public view: the round score plus
    how far each pyramid is ahead in the round being played."""
    view = state.view(None)
    if view.get("returns") is not None:
        return [float(r) for r in view["returns"]]
    pyramids = view["pyramids"]
    counts = availability(set(range(1, HIGHEST + 1)) - used_values(pyramids))
    scores = [evaluate(pyramid_from_view(fields), counts) for fields in pyramids]
    from math import exp

    p_round = 1.0 / (1.0 + exp(-(scores[0] - scores[1]) / ROUND_SCALE))
    wins = view["round_wins"]
    target = view["rounds_to_win"]
    p_match = p_round * match_win_chance(wins[0] + 1, wins[1], target) + (
        1 - p_round
    ) * match_win_chance(wins[0], wins[1] + 1, target)
    return [2 * p_match - 1, 1 - 2 * p_match]


# ----- `sharp`: a stronger fast policy (the `hard` level) ------------------------------
#
# What decides a Pacal round beyond a pyramid's shape is the kill: a player who
# offers two cards the other cannot place wins the round at once. So the policy
# keeps, for each pyramid, the set of values it can still take (a bit mask), and
# judges a position by
# - the shape (`evaluate`, as greedy), both pyramids, through a logistic, with
#   each value still to come weighted by where it can come from (`SOURCE_COUNTS`):
#   a card in this player's hand `OWN_HAND` (for the opponent's shape
#   `OTHER_HAND`), an unseen card `THEIR_HAND` x the chance that it is in the
#   opponent's hand rather than among the face-down bases, which never come
#   (about 1.3 at a round's start, falling as the opponent's hand empties);
# - its own bullets: cards in its hand the opponent cannot place (two of them
#   at its next offer win the round);
# - the danger: the chance that the opponent's hidden hand holds two values this
#   player cannot place, exactly from the cards still unseen (hypergeometric: the
#   opponent's hand is a uniformly random part of them);
# - a full pyramid (first to fill wins; both: the smaller spread).
# It searches one turn of the offer tree: every offer, the opponent's pick and
# field that are worst for this player, and this player's best field; as the
# picker, each pick with its best field against the offerer's worst-case field.

ALL_VALUES = ((1 << (HIGHEST + 1)) - 1) ^ 1
SHARP_WIDTH = 3  # fields kept per card and side in the offer search
TURNS = 14
BULLET_EDGE = 0.15  # one bullet in hand: the forcing offer it allows
DANGER_WEIGHT = 1.0
PESSIMISM = 1.0  # offer: 1 expects the pick worst for this player, 0 the pick best for them
TEMPO = 0.0  # extra weight of a field ahead in the race to fill the pyramid
SOURCE_COUNTS = True  # shapes count values by where they can come from (False: all alike)
OWN_HAND = 2.5  # weight of a card in this player's hand, for its own shape
OTHER_HAND = 1.0  # weight of a card in this player's hand, for the opponent's shape
THEIR_HAND = 3.0  # weight of an unseen card: this x the chance it is in the opponent's hand


def mask_of(values: Any) -> int:
    mask = 0
    for value in values:
        mask |= 1 << value
    return mask


def placeable_mask(pyramid: Pyramid) -> int:
    """The values (bits) that have a legal field on this pyramid."""
    visible, covered = pyramid
    below = [0] * FIELDS
    low = 0
    for index in range(FIELDS - 1, -1, -1):
        below[index] = low
        if visible[index]:
            low = visible[index]
    mask = 0
    high = HIGHEST + 1
    for index in range(FIELDS):
        if not covered[index]:
            low = below[index]
            if high - low > 1:
                mask |= ((1 << high) - 1) ^ ((1 << (low + 1)) - 1)
        if visible[index]:
            high = visible[index]
    return mask & ~mask_of(v for v in visible if v)


_TWO_CACHE: dict[tuple[int, int, int], float] = {}


def at_least_two(population: int, marked: int, drawn: int) -> float:
    """The chance that `drawn` cards out of `population` include two of the `marked`."""
    if drawn < 2 or marked < 2:
        return 0.0
    key = (population, marked, drawn)
    found = _TWO_CACHE.get(key)
    if found is None:
        drawn = min(drawn, population)
        total = math.comb(population, drawn)
        none = math.comb(population - marked, drawn) / total
        one = marked * math.comb(population - marked, drawn - 1) / total
        found = _TWO_CACHE[key] = max(0.0, 1.0 - none - one)
    return found


class Side:
    """One pyramid after a placement: its shape score, fill and placeable values."""

    __slots__ = ("pyramid", "shape", "filled", "placeable", "spread", "field")

    def __init__(self, pyramid: Pyramid, counts: list[int], field: int | None = None) -> None:
        self.pyramid = pyramid
        self.shape = evaluate(pyramid, counts)
        self.filled, self.placeable, self.spread = pyramid_facts(pyramid)
        self.field = field


_FACTS: dict[tuple[int, ...], tuple[int, int, int]] = {}
FACTS_KEPT = 20_000  # pyramids remembered (about 10 MB); rollouts meet the same ones often


def pyramid_facts(pyramid: Pyramid) -> tuple[int, int, int]:
    """A pyramid's filled fields, placeable values (`placeable_mask`) and spread,
    remembered: the planner's rollouts judge the same pyramids again and again."""
    key = (*pyramid[0], *pyramid[1])
    facts = _FACTS.get(key)
    if facts is None:
        if len(_FACTS) >= FACTS_KEPT:
            _FACTS.clear()
        visible = pyramid[0]
        facts = _FACTS[key] = (sum(1 for v in visible if v), placeable_mask(pyramid),
                               spread(visible))
    return facts


class Outlook:
    """What the next turns hold: the unseen values, the opponent's hand size, my hand."""

    __slots__ = ("unseen", "unseen_count", "their_hand", "turns_left")

    def __init__(self, unseen: int, their_hand: int, turns_left: int) -> None:
        self.unseen = unseen
        self.unseen_count = unseen.bit_count()
        self.their_hand = their_hand
        self.turns_left = turns_left


def round_chance(mine: Side, theirs: Side, my_hand: int, outlook: Outlook,
                 i_offer_next: bool) -> float:
    """This player's chance of winning the round from the position after a turn."""
    if mine.filled == FIELDS or theirs.filled == FIELDS:
        if theirs.filled < FIELDS:
            return 1.0
        if mine.filled < FIELDS:
            return 0.0
        return 1.0 if mine.spread < theirs.spread else 0.0 if mine.spread > theirs.spread else 0.5
    lead = mine.shape - theirs.shape + TEMPO * (mine.filled - theirs.filled)
    chance = 1.0 / (1.0 + math.exp(-lead / ROUND_SCALE))
    if outlook.turns_left <= 0:
        return chance
    bullets = (my_hand & ~theirs.placeable).bit_count()
    threats = (outlook.unseen & ~mine.placeable).bit_count()
    danger = DANGER_WEIGHT * at_least_two(outlook.unseen_count, threats, outlook.their_hand)
    if i_offer_next:
        if bullets >= 2:
            return 1.0 - 0.01 * danger
        if bullets == 1:
            chance += BULLET_EDGE * (1.0 - chance)
        return chance * (1.0 - danger) if outlook.turns_left >= 2 else chance
    if bullets >= 2 and outlook.turns_left >= 2:
        chance = 1.0 - 0.01 * (1.0 - chance)
    elif bullets == 1:
        chance += BULLET_EDGE * (1.0 - chance)
    return chance * (1.0 - danger)


def worst_of_best(their_sides: list[Side], my_sides: list[Side], my_hand: int,
                  outlook: Outlook) -> float:
    """The opponent's worst field for this player, each answered by this player's best
    one (both non-empty): the min over `their_sides` of the max over `my_sides` of
    `round_chance` after this player's offer (the opponent offers next). A side of
    theirs stops being searched once one answer reaches the minimum so far (it
    cannot lower it): the full search's value, with fewer calls."""
    worst = math.inf
    for theirs in their_sides:
        best = -math.inf
        for mine in my_sides:
            chance = round_chance(mine, theirs, my_hand, outlook, False)
            if chance > best:
                best = chance
                if best >= worst:
                    break
        if best < worst:
            worst = best
    return worst


def _sides(pyramid: Pyramid, card: int, counts: list[int]) -> list[Side]:
    return [Side(placed(pyramid, field, card), counts, field)
            for field in legal_fields(pyramid, card)]


def source_availability(hand: list[int], hand_weight: float, unseen: int, their_hand: int,
                        unseen_weight: float) -> list[Any]:
    """Prefix sums of values weighted by where they come from: a card in this
    player's hand `hand_weight`, an unseen one `unseen_weight` x the chance that it
    is in the opponent's hand (the other unseen cards are face-down bases)."""
    share = unseen_weight * their_hand / max(1, unseen.bit_count())
    weights = [0.0] * (HIGHEST + 2)
    for value in hand:
        weights[value] = hand_weight
    for value in range(1, HIGHEST + 1):
        if unseen >> value & 1:
            weights[value] = share
    counts: list[Any] = [0.0] * (HIGHEST + 2)
    for value in range(1, HIGHEST + 2):
        counts[value] = counts[value - 1] + weights[value - 1]
    return counts


def unseen_mask(view: dict[str, Any]) -> int:
    """The values (bits) a player's view has not shown: on neither pyramid, not in its
    hand, the offer or a card about to be placed, nor a revealed apex base."""
    known = used_values(view["pyramids"]) | set(view["hand"])
    known |= {c for c in (view["offer"] or ()) if c}
    known |= {c for c in view["to_place"] if c}
    if view["revealed_apex_bases"]:
        known |= set(view["revealed_apex_bases"])
    return ALL_VALUES & ~mask_of(known)


def sharp_counts(view: dict[str, Any], unseen: int, their_hand: int) -> Counts:
    """The prefix counts `sharp` judges shapes by: for this player's pyramid and for
    the opponent's, each value weighted by where it can come from (`SOURCE_COUNTS`;
    off: every value on neither pyramid alike)."""
    if SOURCE_COUNTS:
        hand = view["hand"]
        return (source_availability(hand, OWN_HAND, unseen, their_hand, THEIR_HAND),
                source_availability(hand, OTHER_HAND, unseen, their_hand, THEIR_HAND))
    plain = availability(set(range(1, HIGHEST + 1)) - used_values(view["pyramids"]))
    return plain, plain


def sharp_choose(state: State, rng: Rng) -> int:
    scores = sharp_scores(state)
    return best_by(sorted(scores), scores.__getitem__, rng)


def sharp_scores(state: State) -> Scores:
    """Every legal action with the `sharp` policy's chance of winning the round."""
    me = state.current_player
    view = state.view(me)
    names = {action: state.action_to_string(action) for action in state.legal_actions()}
    if view["game"] != "pacal" or view["phase"] not in ("offer", "pick", "place"):
        return action_scores(state)
    pyramids = view["pyramids"]
    mine = pyramid_from_view(pyramids[me])
    theirs = pyramid_from_view(pyramids[1 - me])
    unseen = unseen_mask(view)
    their_hand = view["hand_sizes"][1 - me]
    counts = sharp_counts(view, unseen, their_hand)
    turns_left = TURNS - view["turns_played"] - 1
    hand = mask_of(view["hand"])
    phase = view["phase"]
    if phase == "offer":
        return _sharp_offer(names, mine, theirs, view["hand"], counts,
                            Outlook(unseen, their_hand, turns_left))
    if phase == "pick":
        offer = view["offer"]
        outlook = Outlook(unseen, their_hand, turns_left)
        return _sharp_pick(names, mine, theirs, offer, hand, counts, outlook)
    return _sharp_place(names, view, me, mine, theirs, hand, counts,
                        Outlook(unseen, their_hand, turns_left))


def _sharp_offer(names: dict[int, str], mine: Pyramid, theirs: Pyramid, hand_cards: list[int],
                 counts: Counts, outlook: Outlook) -> Scores:
    hand = mask_of(hand_cards)
    my_sides = {c: _sides(mine, c, counts[0]) for c in hand_cards}
    their_sides = {c: _sides(theirs, c, counts[1]) for c in hand_cards}
    threat_base = outlook.unseen
    for c in hand_cards:
        my_sides[c].sort(key=lambda s: -(s.shape - 30.0 * at_least_two(
            outlook.unseen_count, (threat_base & ~s.placeable).bit_count(),
            outlook.their_hand)))
        del my_sides[c][SHARP_WIDTH:]
        their_sides[c].sort(key=lambda s: -(s.shape - 4.0 * (hand & ~s.placeable).bit_count()))
        del their_sides[c][SHARP_WIDTH:]
    scores: Scores = {}
    for action, name in names.items():
        _, first, second = name.split()
        a, b = int(first), int(second)
        rest = hand & ~(1 << a) & ~(1 << b)
        outcomes: list[tuple[float, float]] = []  # (their shape after, my chance)
        for taken, returned in ((a, b), (b, a)):
            if not their_sides[taken]:
                continue  # taking a card they cannot place loses them the round
            if not my_sides[returned]:
                outcomes = [(math.inf, 0.0)]
                break
            value = worst_of_best(their_sides[taken], my_sides[returned], rest, outlook)
            outcomes.append((their_sides[taken][0].shape, value))
        if not outcomes:
            scores[action] = 1.0
            continue
        worst = min(value for _, value in outcomes)
        expected = max(outcomes)[1]  # the card that suits them best
        scores[action] = PESSIMISM * worst + (1.0 - PESSIMISM) * expected
    return scores


def _sharp_pick(names: dict[int, str], mine: Pyramid, theirs: Pyramid, offer: list[int],
                hand: int, counts: Counts, outlook: Outlook) -> Scores:
    after = Outlook(outlook.unseen & ~mask_of(offer), max(0, outlook.their_hand),
                    outlook.turns_left)
    scores: Scores = {}
    for action, name in names.items():
        card = int(name.split()[1])
        other = offer[1] if offer[0] == card else offer[0]
        my_sides = _sides(mine, card, counts[0])
        if not my_sides:
            scores[action] = 0.0
            continue
        their_sides = _sides(theirs, other, counts[1])
        if not their_sides:
            scores[action] = 1.0
            continue
        scores[action] = max(
            min(round_chance(m, t, hand, after, True) for t in their_sides) for m in my_sides
        )
    return scores


def _sharp_place(names: dict[int, str], view: dict[str, Any], me: int, mine: Pyramid,
                 theirs: Pyramid, hand: int, counts: Counts, outlook: Outlook) -> Scores:
    card = view["card_to_place"]
    their_card = view["to_place"][1 - me]
    picker = view["active_player"] != me  # the picker places first and offers next
    their_sides = ([Side(theirs, counts[1])] if their_card is None
                   else _sides(theirs, their_card, counts[1]))
    scores: Scores = {}
    for action, name in names.items():
        field = field_of(name)
        if field is None:
            scores[action] = -1.0
            continue
        side = Side(placed(mine, field, card), counts[0], field)
        if not their_sides:
            scores[action] = 1.0
            continue
        scores[action] = min(round_chance(side, t, hand, outlook, picker) for t in their_sides)
    return scores


def lookahead_choose(state: State, rng: Rng) -> int:
    """Pacal solo by the chance of completion, one draw deep (`pacal_lookahead`)."""
    from pyramids.agents.greedy.pacal_lookahead import lookahead_choose as choose_ahead

    return choose_ahead(state, rng)


def lookahead_scores(state: State) -> Scores:
    from pyramids.agents.greedy.pacal_lookahead import lookahead_scores as scores_ahead

    return scores_ahead(state)


POLICIES = {"greedy": choose, "sharp": sharp_choose, "lookahead": lookahead_choose}
SCORERS = {"sharp": sharp_scores, "lookahead": lookahead_scores}
#: `lookahead` averages over every card that may come next: about 3 ms a move, and
#: more at a game's start (40 values x 10 fields x 10 fields).
SLOW_POLICIES = {"lookahead"}

# ----- named levels (pyramids.agents.levels; figures in docs/agents.md) -----------------

DIFFICULTY = {
    "pacal": {
        "easy": "greedy:mistakes=0.3",
        "medium": "greedy",
        "hard": "greedy:policy=sharp",
        "expert": "planner:rollouts=24",
    },
    "pacal-solo": {
        "easy": "greedy:mistakes=0.3",
        "medium": "greedy",
        "hard": "planner:rollouts=6",
        "expert": "greedy:policy=lookahead",
    },
}

#: Where this module's levels play otherwise than `LEVEL_DESCRIPTIONS` in
#: `pyramids.agents.levels` says: Pacal solo's expert answers in milliseconds.
LEVEL_DESCRIPTIONS = {
    "pacal-solo": {
        "expert": N_("The strongest: it weighs every card still to come, and answers at "
                     "once."),
    },
}
