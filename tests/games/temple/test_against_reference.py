"""Differential test: the Temple engine against the reference model of the rules page.

Hundreds of seeded games under every option the model covers. At every step the
engine's legal moves (strings and numbers), whose turn it is, the hands, the swap
zone, the piles, treasure, the construction, round ends, the ending, the scores,
the winners and the returns must equal the model's (`reference_model.py`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from pyramids.core import TERMINAL, IllegalActionError, load

from .helpers import position
from .reference_model import KINDS, TempleModel, action_number


def counts(counter: Counter[str]) -> dict[str, int]:
    return {kind: n for kind, n in counter.items() if n}


def model_from(state: Any) -> TempleModel:
    """The model of the engine's first position (the deal is chance)."""
    view = state.view(None)
    game = state.game
    model = TempleModel(
        players=view["players"],
        options=game.options,
        hands=[Counter(state.view(p)["hand"]) for p in range(view["players"])],
        zone=list(view["swap_zone"]),
        pile=[KINDS[kind] for kind in state.pile],
        discard=Counter(view["discard"]),
        removed=Counter(view["out_of_game"]),
        treasure=list(view["treasure"]),
        start_player=view["start_player"],
        rng=state.rng.copy(),
    )
    options = game.options
    assert model.treasure == [options["start_treasure"]] * model.players
    assert len(model.zone) == options["swap_size"]
    if options["start_rule"] == "rotate":
        assert model.start_player == 0
    deck = Counter({kind: options["cards_per_level"] for kind in KINDS[:9]})
    deck["J"] = options["jewels"]
    check_cards(model, deck)
    return model


def check_cards(model: TempleModel, deck: Counter[str]) -> None:
    """Every card is in exactly one place."""
    c = model.construction
    placed = sum(model.hands, Counter()) + Counter(model.pile) + model.discard + model.removed
    placed += Counter(kind for kind in model.zone if kind is not None)
    if c is not None:
        for _, cards, pairs in c.sets:
            placed += Counter({f"L{c.level}": cards, "J": 2 * pairs})
    assert +placed == +deck


def compare(state: Any, model: TempleModel) -> None:
    view = state.view(None)
    over = model.phase == "over"
    swap_size = state.game.options["swap_size"]
    assert state.is_terminal() == over
    assert state.current_player == (TERMINAL if over else model.current)
    assert set(state.legal_action_strings()) == model.legal()
    assert state.legal_actions() == sorted(action_number(m, swap_size) for m in model.legal())
    assert view["phase"] == model.phase
    assert view["round"] == model.round
    assert view["start_player"] == model.start_player
    assert view["quiet_rounds"] == model.quiet_rounds  # at the end, the last round too
    assert view["built"] == model.built
    assert view["level"] == (None if model.built == 9 else model.built + 1)
    assert view["treasure"] == model.treasure
    assert view["hand_sizes"] == [sum(hand.values()) for hand in model.hands]
    assert view["known"] == [counts(known) for known in model.known]
    assert view["swap_zone"] == model.zone
    assert view["discard"] == counts(model.discard)
    assert view["out_of_game"] == counts(model.removed)
    assert view["pile_size"] == len(model.pile)
    for p in range(model.players):
        assert state.view(p)["hand"] == counts(model.hands[p])
    assert "hand" not in view
    if model.phase == "summon":
        assert view["passes"] == model.acted
    c = model.construction
    if c is None:
        assert view["construction"] is None
    else:
        shown = view["construction"]
        assert (shown["level"], shown["summoner"], shown["paid"]) == (c.level, c.summoner, c.paid)
        assert [(s["player"], s["cards"], s["jewel_pairs"]) for s in shown["sets"]] == c.sets
        assert shown["units_by_player"] == c.units_by_player(model.players)
        assert (shown["units"], shown["missing"]) == (c.units(), 5 - c.units())
        assert shown["next"] == model.current
    assert state.returns() == pytest.approx(model.returns())
    if over:
        assert view["ended_by"] == model.ended_by
        assert view["scores"] == model.scores()
        assert view["jewels"] == [hand["J"] for hand in model.hands]
        assert view["winners"] == model.winners()
        winners = model.winners()
        assert view["winner"] == (winners[0] if len(winners) == 1 else None)
        outcome = state.outcome()
        assert list(outcome["winners"]) == winners
        assert list(outcome["scores"]) == model.scores()
        assert outcome["capped"] == (model.ended_by == "max_rounds")
        assert outcome["reason"] == {"level 9 built": "level-9-built", "no progress": "no-progress",
                                     "level cannot be built": "level-cannot-be-built",
                                     "max_rounds": "round-cap"}[str(model.ended_by)]


def choose(rng: random.Random, moves: list[str], eager: float) -> str:
    """A random move; an eager player summons and sets as much as it can more often."""
    if rng.random() < eager:
        if "summon" in moves:
            return "summon"
        sets = [m for m in moves if m.startswith("set")]
        if sets:
            return max(sets, key=lambda m: int(m.split()[1]) + int(m.split()[2]))
    return rng.choice(moves)


def play(seed: int, options: dict[str, Any], eager: float) -> TempleModel:
    rng = random.Random(seed)
    state = load("temple", **options).new_initial_state(seed=seed)
    model = model_from(state)
    o = state.game.options
    deck = Counter({kind: o["cards_per_level"] for kind in KINDS[:9]})
    deck["J"] = o["jewels"]
    steps = 0
    while True:
        compare(state, model)
        check_cards(model, deck)
        if model.phase == "over":
            return model
        move = choose(rng, sorted(model.legal()), eager)
        steps += 1
        if steps % 13 == 0:  # an illegal move is refused and changes nothing
            illegal = [a for a in range(state.game.num_distinct_actions)
                       if a not in state.legal_actions()]
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply_action(rng.choice(illegal))
            assert state.to_json() == before
        state.apply_string(move)
        model.apply(move)


OPTIONS: list[dict[str, Any]] = [
    {},
    {"players": 2},
    {"players": 3, "start_rule": "rotate"},
    {"players": 5, "start_rule": "poorest"},
    {"players": 4, "start_rule": "lot", "start_treasure": 0},
    {"players": 3, "cards_per_level": 4, "jewels": 8},
    {"players": 2, "cards_per_level": 5, "jewels": 0, "swap_size": 0},
    {"players": 3, "swap_size": 10, "start_hand": 0, "max_rounds": 6},
    {"players": 4, "cards_per_level": 3, "jewels": 4, "start_hand": 1},
    {"players": 2, "cards_per_level": 1, "jewels": 8, "swap_size": 1},
    {"players": 5, "cards_per_level": 5, "jewels": 0, "swap_size": 3, "start_hand": 0},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(
    f"{k}={v}" for k, v in o.items()) or "defaults")
def test_temple_agrees_with_the_reference_model(options: dict[str, Any]) -> None:
    for seed in range(40):
        model = play(seed, options, eager=(0.9, 0.5, 0.0)[seed % 3])
        assert model.ended_by is not None


def test_the_games_reach_every_ending_and_shared_wins() -> None:
    endings: Counter[str] = Counter()
    shared = 0
    for options in OPTIONS:
        for seed in range(9):
            model = play(seed, options, eager=(0.9, 0.5, 0.0)[seed % 3])
            endings[str(model.ended_by)] += 1
            shared += len(model.winners()) > 1
    assert set(endings) == {"level 9 built", "level cannot be built", "no progress",
                            "max_rounds"}
    assert shared > 0


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(
    f"{k}={v}" for k, v in o.items()) or "defaults")
def test_the_deal(options: dict[str, Any]) -> None:
    """The swap zone is full, each hand holds `start_hand` cards and round 1's two, and
    round 1's start player is seat 1 with `rotate`, else drawn by lot."""
    starts = set()
    for seed in range(30):
        state = load("temple", **options).new_initial_state(seed=seed)
        o, view = state.game.options, state.view(None)
        deck = 9 * o["cards_per_level"] + o["jewels"]
        dealt = o["start_hand"] + 2
        assert None not in view["swap_zone"] and len(view["swap_zone"]) == o["swap_size"]
        assert view["hand_sizes"] == [dealt] * o["players"]
        assert view["pile_size"] == deck - o["swap_size"] - o["players"] * dealt
        assert view["discard"] == {} and view["out_of_game"] == {}
        assert (view["round"], view["built"], view["phase"]) == (1, 0, "swap")
        assert state.current_player == view["start_player"]
        starts.add(view["start_player"])
    assert starts == ({0} if o["start_rule"] == "rotate" else set(range(o["players"])))


def test_level_cannot_be_built_agrees_with_the_reference_model() -> None:
    """Random end-of-round positions with nothing usable left to draw: the engine ends
    the game exactly when the model finds no arrangement of the hands and the swap zone
    that sets 5 units (each player at most 3; swaps move zone cards into hands)."""
    rng = random.Random(5)
    seen: Counter[bool] = Counter()
    for _ in range(400):
        players = rng.randint(2, 5)
        built = rng.randint(0, 8)
        level = f"L{built + 1}"
        cards_left = {level: rng.randint(0, 7), "J": rng.randint(0, 9)}
        if built < 8:
            cards_left[f"L{built + 2}"] = rng.randint(0, 7)
        pool = [kind for kind, n in cards_left.items() for _ in range(n)]
        rng.shuffle(pool)
        swap_size = rng.choice([0, 1, 2, 4])
        zone: list[str | None] = [pool.pop() if pool and rng.random() < 0.7 else None
                                  for _ in range(swap_size)]
        hands: list[dict[str, int]] = [{} for _ in range(players)]
        for kind in pool:
            hand = hands[rng.randrange(players)]
            hand[kind] = hand.get(kind, 0) + 1
        state = position(players, hands=hands, zone=zone, built=built, rest="removed",
                         phase="summon", acted=players - 1, current=players - 1,
                         swap_size=swap_size)
        model = TempleModel(players, state.game.options, [Counter(h) for h in hands], zone,
                            [], Counter(), Counter(), [3] * players, 0, None, built=built)
        state.apply_string("pass")
        expected = model.can_never_build()
        seen[expected] += 1
        assert (state.view(None).get("ended_by") == "level cannot be built") == expected, (
            players, built, hands, zone)
    assert seen[True] > 50 and seen[False] > 50
