"""Differential test: the Pacal engines against the reference model of the rules page.

Thousands of seeded games, with every option value the model covers. At every step
the engine's legal moves, whose turn it is, the pyramids, hands, scores, round ends,
winners and returns must equal the model's (`reference_model.py`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pyramids.core import TERMINAL, IllegalActionError, load

from .reference_model import FIELDS, PacalModel, SoloModel, layout, legal_fields, spread


def choose(rng: random.Random, moves: list[str], card: int | None, careful: bool,
           pyramid: list[list[int]] | None = None) -> str:
    """A move: at random, or (careful) mostly the empty field nearest the card's natural
    place, so that pyramids get completed and every round end is reached."""
    if careful and card is not None and pyramid is not None and rng.random() < 0.9:
        places = [m for m in moves if m.startswith("place")]
        if places:
            target = (50 - card) / 5

            def badness(move: str) -> float:
                index = int(move.split()[1][1:]) - 1
                return abs(index - target) + (3 if pyramid[index] else 0)

            return min(places, key=badness)
    return rng.choice(moves)


def seat_views(state: Any) -> list[dict[str, Any]]:
    return [state.view(0), state.view(1)]


def compare_match(state: Any, model: PacalModel, direction: str) -> None:
    spectator = state.view(None)
    views = seat_views(state)
    over = model.phase == "over"
    assert state.is_terminal() == over
    assert state.current_player == (TERMINAL if over else model.current_player())
    assert set(state.legal_action_strings()) == model.legal()
    assert sorted(state.string_to_action(m) for m in model.legal()) == state.legal_actions()
    assert spectator["layout"] == layout(direction)
    assert spectator["pyramids"] == model.pyramids
    assert spectator["spreads"] == [spread(p) for p in model.pyramids]
    assert spectator["round"] == model.round
    assert spectator["round_wins"] == model.round_wins
    if model.last_round is not None:
        last = spectator["last_round"]
        finished = model.last_round.pyramids
        assert (last["round"], last["winner"]) == (model.last_round.round, model.last_round.winner)
        assert last["pyramids"] == finished
        assert last["spreads"] == [spread(p) for p in finished]
        assert last["occupied"] == [sum(1 for f in p if f) for p in finished]
    if over:
        assert spectator["phase"] == "over"
        assert state.returns() == model.returns
        assert spectator["winner"] == model.winner
        outcome = state.outcome()
        assert outcome is not None
        assert list(outcome["winners"]) == ([0, 1] if model.winner is None else [model.winner])
        assert list(outcome["scores"]) == model.round_wins
        capped = max(model.round_wins) < model.rounds_to_win
        assert outcome["capped"] == capped
        assert outcome["reason"] == ("round-cap" if capped else "rounds-won")
        return
    assert spectator["phase"] == model.phase
    assert state.returns() == [0.0, 0.0]
    assert spectator["starting_player"] == model.starting
    assert spectator["active_player"] == model.active
    assert spectator["turns_played"] == model.turns
    assert spectator["revealed_apex_bases"] == model.apex
    assert spectator["hand_sizes"] == [len(hand) for hand in model.hands]
    assert spectator["offer"] == (model.offer if model.phase in ("pick", "place") else None)
    if model.phase == "place":
        assert spectator["picked"] == model.picked
        assert spectator["to_place"] == model.to_place
    assert spectator["declined"] == model.declined
    for seat, view in enumerate(views):
        assert "hand" not in spectator
        assert view["hand"] == model.hands[seat]
        card = model.card_to_place(seat)
        assert view["card_to_place"] == card
        expected = [] if card is None else [i + 1 for i in legal_fields(model.pyramids[seat], card)]
        assert view["legal_fields"] == expected
        other = views[1 - seat]
        assert "hand" in other and all(v not in view["hand"] for v in other["hand"])


def deal_from(state: Any, model: PacalModel) -> None:
    """Give the model the engine's deal of the new round (a chance event)."""
    views = seat_views(state)
    hands = [view["hand"] for view in views]
    assert [len(h) for h in hands] == [15, 15] and not set(hands[0]) & set(hands[1])
    apex = views[0]["revealed_apex_bases"] if model.round == 0 else None
    if apex is not None:
        assert apex[0] != apex[1] and not set(apex) & set(hands[0] + hands[1])
    model.deal(hands, apex)


def play_match(seed: int, options: dict[str, Any], careful: bool) -> PacalModel:
    rng = random.Random(seed)
    state = load("pacal", **options).new_initial_state(seed=seed)
    model = PacalModel(rounds_to_win=options.get("rounds_to_win", 3),
                       max_rounds=options.get("max_rounds", 15),
                       start_rule=options.get("start_rule", "loser"))
    direction = options.get("direction", "descending")
    deal_from(state, model)
    steps = 0
    while True:
        compare_match(state, model, direction)
        if model.phase == "over":
            return model
        moves = sorted(model.legal())
        seat = model.current_player()
        move = choose(rng, moves, model.card_to_place(seat), careful, model.pyramids[seat])
        if steps % 17 == 0:  # an illegal move is refused and changes nothing
            illegal = [a for a in range(state.game.num_distinct_actions)
                       if a not in state.legal_actions()]
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply_action(rng.choice(illegal))
            assert state.to_json() == before
        state.apply_string(move)
        model.apply(move)
        steps += 1
        if model.phase == "dealing":
            deal_from(state, model)


MATCH_OPTIONS = [
    {},
    {"direction": "ascending"},
    {"rounds_to_win": 1},
    {"rounds_to_win": 2, "max_rounds": 2},
    {"rounds_to_win": 5, "max_rounds": 6, "start_rule": "winner"},
    {"start_rule": "rotate", "max_rounds": 4},
    {"start_rule": "winner", "direction": "ascending"},
]


@pytest.mark.parametrize("options", MATCH_OPTIONS, ids=lambda o: ",".join(
    f"{k}={v}" for k, v in o.items()) or "defaults")
def test_match_agrees_with_the_reference_model(options: dict[str, Any]) -> None:
    endings: set[str] = set()
    for seed in range(40):
        model = play_match(seed * 7 + len(options), options, careful=seed % 4 != 0)
        assert model.last_round is not None
        endings.add(model.last_round.reason)
    # the careful games reach every kind of round end
    if options in ({}, {"start_rule": "rotate", "max_rounds": 4}):
        assert {"cannot place", "complete"} <= endings


def test_every_round_end_is_reached() -> None:
    """The games above meet each rule of the round end at least once."""
    ends: set[tuple[str, int | None]] = set()
    winners: set[object] = set()
    for seed in range(400):
        model = play_match(1000 + seed, {"max_rounds": 2, "rounds_to_win": 2}, careful=True)
        ends.update(model.ends)
        winners.add(model.winner)
        if len({reason for reason, _ in ends}) == 4 and ("more fields", None) in ends \
                and len(winners) == 3:
            break
    reasons = {reason for reason, _ in ends}
    assert reasons >= {"cannot place", "complete", "more fields", "both complete"}
    assert ("more fields", None) in ends  # a drawn round
    assert winners >= {0, 1, None}


def play_solo(seed: int, direction: str, careful: bool) -> SoloModel:
    rng = random.Random(seed)
    state = load("pacal-solo", direction=direction).new_initial_state(seed=seed)
    model = SoloModel()
    model.draw(state.view(0)["card"])
    while True:
        view = state.view(0)
        over = model.result != "playing"
        assert state.is_terminal() == over
        assert state.current_player == (TERMINAL if over else 0)
        assert set(state.legal_action_strings()) == model.legal()
        assert view["layout"] == layout(direction)
        assert view["pyramid"] == model.pyramid
        assert view["draws"] == model.draws
        assert view["pile_size"] == 40 - model.draws
        assert view["result"] == model.result
        assert view["won"] == (model.result == "won")
        assert view["score"] == (model.draws if model.result == "won" else None)
        assert view["spread"] == spread(model.pyramid)
        if model.result != "won":
            assert view["card"] == model.card
            fields = [] if over else [i + 1 for i in legal_fields(model.pyramid, model.card or 0)]
            assert view["legal_fields"] == fields
        if over:
            assert state.returns() == model.returns()
            assert model.draws <= 20
            return model
        move = choose(rng, sorted(model.legal()), model.card, careful, model.pyramid)
        state.apply_string(move)
        model.apply(move)
        if model.result == "playing":
            model.draw(state.view(0)["card"])


@pytest.mark.parametrize("direction", ["descending", "ascending"])
def test_solo_agrees_with_the_reference_model(direction: str) -> None:
    results = {"won": 0, "lost": 0}
    for seed in range(600):
        model = play_solo(seed, direction, careful=seed % 3 != 0)
        results[model.result] += 1
        assert model.result == "lost" or sum(1 for f in model.pyramid if f) == FIELDS
    assert results["won"] > 0 and results["lost"] > 0


def test_the_model_reproduces_the_worked_examples_of_the_rules_page() -> None:
    pyramid: list[list[int]] = [[] for _ in range(FIELDS)]
    pyramid[0], pyramid[3], pyramid[7] = [40], [30], [10]

    def fields(card: int) -> list[int]:
        return [i + 1 for i in legal_fields(pyramid, card)]

    assert fields(45) == [1]
    assert fields(35) == [1, 2, 3, 4]
    assert fields(20) == [4, 5, 6, 7, 8]
    assert fields(5) == [8, 9, 10]
    pyramid[3] = [31, 30]  # F4 closed
    assert fields(35) == [1, 2, 3]
    pyramid = [[] for _ in range(FIELDS)]
    pyramid[0], pyramid[2] = [40], [39]
    assert not any(1 in legal_fields(pyramid, card) for card in range(1, 51))
