"""Invariants over many random games: the building rule, card conservation, no leaks."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.core import Rng
from pyramids.games.pacal import PacalGame, PacalSoloGame
from pyramids.games.pacal.match import PacalState

from .helpers import saved

ALL_CARDS = list(range(1, 51))


def check_pyramid(fields: list[list[int]]) -> list[int]:
    """The visible values; asserts at most two cards a field and the building rule."""
    assert len(fields) == 10
    assert all(len(f) <= 2 for f in fields)
    visible = [f[-1] for f in fields if f]
    assert all(a > b for a, b in zip(visible, visible[1:], strict=False)), fields
    return [card for f in fields for card in f]


def check_match_state(state: PacalState) -> None:
    body = saved(state)
    placed = [check_pyramid(p) for p in body["pyramids"]]
    cards = body["hands"][0] + body["hands"][1] + body["bases"][0] + body["bases"][1]
    cards += placed[0] + placed[1] + [c for c in body["pending"] if c]
    if body["phase"] == "pick":
        cards += body["offer"]
    assert sorted(cards) == ALL_CARDS, "cards are not conserved"
    assert [len(b) for b in body["bases"]] == [10, 10]
    # The 30 hand cards: each turn moves two of the active player's cards out of hand.
    in_hand_or_placed = 30 - len(body["hands"][0]) - len(body["hands"][1])
    assert len(placed[0]) + len(placed[1]) + sum(1 for c in body["pending"] if c) + (
        2 if body["phase"] == "pick" else 0
    ) == in_hand_or_placed
    if body["phase"] in ("offer", "last_card"):
        assert 2 * body["turn"] == in_hand_or_placed - (
            sum(1 for h in body["hands"] if not h) if body["phase"] == "last_card" else 0
        )
    # Views: never the opponent's hand or a hidden base card. A state whose hidden
    # cards were redealt must give the very same view.
    for viewer in (None, 0, 1):
        view = state.view(viewer)
        json.dumps(view)
        assert ("hand" in view) == (viewer is not None)
        if viewer is not None:
            assert view["hand"] == body["hands"][viewer]
        redealt = state.resample_hidden(viewer, Rng(len(body["history"])))
        assert redealt.view(viewer) == view
        assert view["hand_sizes"] == [len(h) for h in body["hands"]]
    public = state.view(None)
    assert public["revealed_apex_bases"] == body["reveal"]
    assert state.progress() == (public["round"], public["phase"], public["turns_played"])


def play(seed: int, agent_seed: int, check: bool, options: dict[str, Any] | None = None) -> Any:
    game = PacalGame(**(options or {}))
    state = game.new_initial_state(seed)
    rng = random.Random(agent_seed)
    steps = 0
    while not state.is_terminal():
        if check:
            check_match_state(state)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps < 20_000
    check_match_state(state)
    return state


def test_thousands_of_random_matches_keep_the_invariants() -> None:
    outcomes = set()
    for seed in range(2000):
        state = play(seed, seed + 1, check=seed < 100)
        view = state.view(None)
        wins = view["round_wins"]
        returns = state.returns()
        if max(wins) >= 3:
            assert returns[wins.index(max(wins))] == 1.0
        outcomes.add(tuple(returns))
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    assert {(1.0, -1.0), (-1.0, 1.0)} <= outcomes


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.sampled_from([0, 1]))
def test_views_do_not_depend_on_hidden_cards(seed: int, agent_seed: int, viewer: int) -> None:
    state = PacalGame(rounds_to_win=2).new_initial_state(seed)
    rng = random.Random(agent_seed)
    while not state.is_terminal():
        view = state.view(viewer)
        sampled = state.resample_hidden(viewer, Rng(rng.randrange(1 << 30)))
        assert sampled.view(viewer) == view
        other = 1 - viewer
        if saved(sampled)["hands"][other] != saved(state)["hands"][other]:
            # The redealt opponent hand never shows in the viewer's view.
            assert sampled.view(other)["hand"] != state.view(other)["hand"]
        if state.current_player == viewer:
            assert sampled.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))


def test_random_solo_games_keep_the_invariants() -> None:
    game = PacalSoloGame()
    results = {"won": 0, "lost": 0}
    for seed in range(3000):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            view = state.view(0)
            assert view["legal_fields"] == [a + 1 for a in state.legal_actions()]
            state.apply_action(rng.choice(state.legal_actions()))
        body = saved(state)
        placed = check_pyramid(body["pyramid"])
        cards = body["bases"] + body["pile"] + placed + ([body["card"]] if body["card"] else [])
        assert sorted(cards) == ALL_CARDS
        view = state.view(0)
        assert view["draws"] == len(placed) + (1 if view["result"] == "lost" else 0)
        assert 10 <= view["draws"] <= 20 or view["result"] == "lost"
        results[view["result"]] += 1
        assert state.returns() == ([1.0] if view["won"] else [-1.0])
    assert results["won"] > 0 and results["lost"] > 0
