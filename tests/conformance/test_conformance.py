"""The conformance suite: every registered game and option variant obeys the API.

A game joins by registering (with its `variants`); no test code is added here.
`PYRAMIDS_CONFORMANCE_GAMES` (default 1000) sets the number of random games a
variant plays: every one must end, with legal actions never empty before. The
first `PYRAMIDS_CONFORMANCE_CHECKED` (default 200) are checked at every step:
the JSON round trip (play goes on from the restored copy), sampled illegal
actions, and at sampled steps the action strings, views, `resample_hidden`
and clones. The first 50 also replay from their game record.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from pyramids.core import (
    TERMINAL,
    GameRecord,
    IllegalActionError,
    RecordError,
    Rng,
    State,
    game_entry,
    game_names,
    load,
)

GAMES = int(os.environ.get("PYRAMIDS_CONFORMANCE_GAMES", "1000"))
# Games whose every step is checked (JSON round trip, illegal actions, views);
# the rest must still end with legal actions never empty before the end.
CHECKED_GAMES = int(os.environ.get("PYRAMIDS_CONFORMANCE_CHECKED", "200"))
MAX_STEPS = 100_000

VARIANTS = [
    pytest.param(name, options, id=f"{name}-{json.dumps(options, sort_keys=True)}")
    for name in game_names()
    for options in game_entry(name).variants
]


def check_step(state: State, rng: random.Random, deep: bool) -> State:
    """Check the API contract at `state`; return its JSON round-tripped copy."""
    game = state.game
    legal = state.legal_actions()
    assert legal, "legal actions must not be empty before the end"
    assert legal == sorted(set(legal)), "legal actions are sorted and unique"
    assert all(0 <= a < game.num_distinct_actions for a in legal)
    assert 0 <= state.current_player < game.num_players
    before = state.to_json()
    # The JSON round trip gives an equal state.
    restored = game.state_from_json(before)
    assert restored.to_json() == before
    assert restored.legal_actions() == legal
    assert restored.history() == state.history()
    # A sampled illegal action raises and changes nothing.
    legal_set = set(legal)
    candidates = [-1, game.num_distinct_actions]
    candidates += [a for a in rng.sample(range(game.num_distinct_actions),
                                         min(8, game.num_distinct_actions))
                   if a not in legal_set]
    for action in candidates[: 1 if not deep else len(candidates)]:
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
        assert state.to_json() == before, f"illegal action {action} changed the state"
    if deep:
        for action in legal:
            assert state.string_to_action(state.action_to_string(action)) == action
        for player in [None, *range(game.num_players)]:
            view = state.view(player)
            json.dumps(view)
            if player is not None:
                sampled = state.resample_hidden(player, Rng(rng.randrange(1 << 30)))
                assert sampled.view(player) == view, "resample_hidden changed what the player sees"
                assert sampled.current_player == state.current_player
                if player == state.current_player:
                    # Another seat's legal actions depend on its hidden cards.
                    assert sampled.legal_actions() == legal
        clone = state.clone()
        clone.apply_action(legal[0])
        assert state.to_json() == before, "playing on a clone changed the original"
    return restored


def play_random(game_name: str, options: dict, seed: int, agent_seed: int,
                check: bool = True, deep_every: int = 7) -> State:
    game = load(game_name, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(agent_seed)
    steps = 0
    while not state.is_terminal():
        if check:
            # Continue from the restored copy, so that anything to_json forgot
            # (the chance generator, a counter) shows up later in the game.
            state = check_step(state, rng, deep=steps % deep_every == 0)
        else:
            assert state.legal_actions(), "legal actions must not be empty before the end"
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps < MAX_STEPS, "game did not end"
    assert state.legal_actions() == []
    assert state.current_player == TERMINAL
    returns = state.returns()
    assert len(returns) == game.num_players
    assert all(isinstance(r, (int, float)) for r in returns)
    return state


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_random_games_obey_the_api(name: str, options: dict) -> None:
    for index in range(GAMES):
        final = play_random(name, options, seed=index, agent_seed=10_000 + index,
                            check=index < CHECKED_GAMES, deep_every=7 if index < 50 else 23)
        if index < 50:
            record = GameRecord.from_state(final, players=["random"] * final.game.num_players)
            replayed = GameRecord.from_json(record.to_json()).final_state()
            assert replayed.to_json() == final.to_json(), "record did not replay exactly"


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_same_seed_same_game(name: str, options: dict) -> None:
    first = play_random(name, options, seed=42, agent_seed=7, check=False)
    second = play_random(name, options, seed=42, agent_seed=7, check=False)
    assert first.to_json() == second.to_json()
    game = load(name, **options)
    starts = {game.new_initial_state(seed).to_json() for seed in range(20)}
    assert len(starts) > 1, "different seeds should deal differently"


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_malformed_saved_state_is_rejected(name: str, options: dict) -> None:
    game = load(name, **options)
    state = game.new_initial_state(3)
    for bad in ["", "{", "[]", json.dumps({"format": "pyramids-state", "game": "nope"}),
                state.to_json().replace('"state":', '"stat":')]:
        with pytest.raises(RecordError):
            game.state_from_json(bad)


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_unknown_action_string_is_rejected(name: str, options: dict) -> None:
    state = load(name, **options).new_initial_state(5)
    before = state.to_json()
    for text in ["", "fly away", "🙂", "9999999"]:
        with pytest.raises(IllegalActionError):
            state.apply_action(state.string_to_action(text))
    assert state.to_json() == before
