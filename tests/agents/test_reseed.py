"""`agent.reseed(seed)`: every built-in agent and level, reseeded after playing, plays
on exactly as a new agent made with that seed, on each game (fixed budgets only: a
clock budget depends on the machine)."""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.agents import LEVELS, make_agent_from_setting, reseed_agent, thinks_by_clock
from pyramids.agents.greedy import game_policies
from pyramids.core import Game, State, load
from tests.agents.test_mahjongg_determinized import hidden_game

SMALL = "giza-step-ramp"
#: (label, the game).
GAMES: list[tuple[str, Any]] = [
    ("pacal", lambda: load("pacal")),
    ("pacal-solo", lambda: load("pacal-solo")),
    ("temple", lambda: load("temple", players=3)),
    ("mahjongg", lambda: load("mahjongg", layout=SMALL)),
    ("mahjongg-hidden", lambda: hidden_game(SMALL)),
    ("mahjongg-2p", lambda: load("mahjongg", layout=SMALL, players=2)),
]
SETTINGS = [
    "random",
    "greedy",
    "greedy:mistakes=0.5",
    "mcts:iterations=20",
    "mcts:iterations=20:rollout=random",
    "planner:rollouts=2:iterations=20",
    "determinized:samples=3:draws=6",
    *LEVELS,
]
#: Moves played before the reseed (on another deal), and compared after it.
BEFORE, AFTER = 6, 14
#: The levels whose setting searches long (Temple's expert: mcts with 2000 iterations,
#: seconds a move; Pacal's: the planner's 24 sampled deals) play fewer moves.
SLOW = {("temple", "expert"): (1, 2), ("pacal", "expert"): (2, 4),
        ("mahjongg-2p", "expert"): (3, 8)}


def _settings(game: Game) -> list[str]:
    policies = [f"greedy:policy={policy}" for policy in game_policies(game.name)]
    return [*SETTINGS, *policies]


CASES = [pytest.param(label, make, setting, id=f"{label}-{setting}",
                      marks=[pytest.mark.slow] if (label, setting) in SLOW else [])
         for label, make in GAMES for setting in _settings(make())]


def _play(agent: Any, state: State, moves: int) -> list[int]:
    """`agent` plays every seat for up to `moves` moves; the actions."""
    actions = []
    while len(actions) < moves and not state.is_terminal():
        action = agent.step(state)
        state.apply_action(action)
        actions.append(action)
    return actions


@pytest.mark.parametrize(("label", "make", "setting"), CASES)
def test_a_reseeded_agent_plays_as_a_new_one_with_that_seed(label, make, setting) -> None:
    game = make()
    before, moves = SLOW.get((label, setting), (BEFORE, AFTER))
    used = make_agent_from_setting(setting, seed=1)
    assert not thinks_by_clock(used, game)
    # It has played (kept plans, trees, made inner agents, moved its generator) ...
    _play(used, game.new_initial_state(11), before)
    used.reseed(5)
    # ... and after the reseed plays the deal as an agent new with seed 5 does.
    fresh = _play(make_agent_from_setting(setting, seed=5), game.new_initial_state(7), moves)
    assert _play(used, game.new_initial_state(7), moves) == fresh
    if (label, setting) not in SLOW:
        used.reseed(5)  # between episodes: the same episode again
        assert _play(used, game.new_initial_state(7), moves) == fresh


class OldAgent:
    """A plugin's agent written before `reseed`."""

    name = "old"

    def step(self, state: State) -> int:
        return state.legal_actions()[0]


def test_an_agent_without_reseed_still_plays_and_says_it_was_not_reseeded() -> None:
    old = OldAgent()
    assert reseed_agent(old, 3) is False
    state = load("temple", players=2).new_initial_state(0)
    assert _play(old, state, 3)
    greedy = make_agent_from_setting("greedy", seed=1)
    assert reseed_agent(greedy, 3) is True


def test_a_level_drops_an_inner_agent_it_cannot_reseed(monkeypatch) -> None:
    """A level holding an agent without `reseed` makes it afresh from the new seed."""
    level = make_agent_from_setting("medium", seed=1)
    state = load("temple", players=2).new_initial_state(0)
    _play(level, state, 2)
    made = level.agent_for("temple", 2)
    monkeypatch.delattr(type(made), "reseed")
    level.reseed(9)
    monkeypatch.undo()
    again = level.agent_for("temple", 2)
    assert again is not made
    fresh = make_agent_from_setting("greedy", seed=9)
    assert _play(again, load("temple", players=2).new_initial_state(4), 10) == _play(
        fresh, load("temple", players=2).new_initial_state(4), 10)


@pytest.mark.parametrize("setting", ["openspiel-mcts:simulations=20",
                                     "openspiel-ismcts:simulations=10:max_world_samples=4"])
@pytest.mark.parametrize("label", ["pacal", "temple", "mahjongg-2p"])
def test_openspiel_agents_reseeded_play_as_new_ones(label, setting) -> None:
    """`openspiel-mcts` and `openspiel-ismcts` (the openspiel extra): their
    determinizations and OpenSpiel's generator start again."""
    pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is absent")
    game = dict(GAMES)[label]()
    used = make_agent_from_setting(setting, seed=1)
    _play(used, game.new_initial_state(11), 4)
    used.reseed(5)
    fresh = _play(make_agent_from_setting(setting, seed=5), game.new_initial_state(7), 10)
    assert _play(used, game.new_initial_state(7), 10) == fresh
    used.reseed(5)
    assert _play(used, game.new_initial_state(7), 10) == fresh
