"""Bad agent settings (`name:key=value`, as `pyramids arena --agents` takes them) get an
OptionError that says what was wrong and what is allowed, in English and in Korean;
the registry and the state are unchanged."""

from __future__ import annotations

import math
from importlib import metadata
from typing import Any

import pytest

from pyramids.agents import LevelAgent, agent_names, level_setting, make_agent, parse_setting
from pyramids.agents.base import ENTRY_POINT_GROUP, PluginAgentFactory
from pyramids.core import OptionError, load
from pyramids.play.i18n import words_text

MCTS_OPTIONS = ("clock, exploration, guide, iterations, opponents, rollout, rollout_depth, "
                "time, widen")

BAD_SETTINGS: list[tuple[str, dict[str, Any], str]] = [
    ("mcts", {"iterations": 0}, "mcts: iterations must be at least 1, got 0"),
    ("mcts", {"iterations": "many"},
     "mcts: iterations must be a whole number of at least 1, got 'many'"),
    ("mcts", {"iterations": 2.5}, "mcts: iterations must be a whole number of at least 1, got 2.5"),
    ("mcts", {"time": 0}, "mcts: time must be a positive number of seconds, got 0"),
    ("mcts", {"time": -1.0}, "mcts: time must be a positive number of seconds, got -1.0"),
    ("mcts", {"time": "soon"}, "mcts: time must be a positive number of seconds, got 'soon'"),
    ("mcts", {"time": math.nan}, "mcts: time must be a positive number of seconds, got nan"),
    ("mcts", {"exploration": -0.5}, "mcts: exploration must be a number of at least 0, got -0.5"),
    ("mcts", {"rollout": "clever"},
     "mcts: rollout='clever' is not valid; allowed: random, greedy, lookahead, sharp"),
    ("mcts", {"rollout_depth": "soon"},
     "mcts: rollout_depth='soon' is not valid; allowed: a whole number of at least 0, 'end' "
     "(play rollouts to the end) or 'auto' (the game's own depth)"),
    ("mcts", {"rollout_depth": -1}, "mcts: rollout_depth=-1 is not valid; allowed: a whole"),
    ("mcts", {"widen": 0},
     "mcts: widen=0 is not valid; allowed: a whole number of at least 1 (search only that "
     "many of the greedy rule's best moves at each node), 'auto' or 'all'"),
    ("mcts", {"opponents": "greedy"},
     "mcts: opponents='greedy' is not valid; allowed: auto, search, rollout"),
    ("mcts", {"guide": "oracle"},
     "mcts: guide='oracle' is not valid; allowed: greedy, lookahead, sharp"),
    ("mcts", {"iterationz": 5},
     f"agent 'mcts' has no option 'iterationz'; allowed options: {MCTS_OPTIONS}"),
    ("random", {"depth": 2}, "agent 'random' takes no options; got depth"),
    ("planner", {"rollouts": 0}, "planner: rollouts must be at least 1, got 0"),
    ("planner", {"node_limit": 0}, "planner: node_limit must be at least 1, got 0"),
    ("planner", {"iterations": 0}, "planner: iterations must be at least 1, got 0"),
    ("planner", {"widen": "some"}, "planner: widen='some' is not valid; allowed: "),
    ("planner", {"samples": 3},
     "agent 'planner' has no option 'samples'; allowed options: clock, exploration, guide, "
     "horizon, iterations, node_limit, opponents, rollout, rollout_depth, rollouts, time, "
     "widen"),
    ("planner", {"horizon": 0}, "planner: horizon=0 is not valid; allowed: 'end' (play each "
     "sampled round out) or a whole number of at least 1"),
    ("determinized", {"samples": 0}, "determinized: samples must be at least 1, got 0"),
    ("determinized", {"node_limit": 0}, "determinized: node_limit must be at least 1, got 0"),
    ("determinized", {"plan_node_limit": 0},
     "determinized: plan_node_limit must be at least 1, got 0"),
    ("determinized", {"draws": "all"},
     "determinized: draws must be a whole number of at least 1, got 'all'"),
    ("greedy", {"mistakes": 1.5}, "greedy: mistakes must be a number from 0 to 1, got 1.5"),
    ("greedy", {"mistakes": "often"},
     "greedy: mistakes must be a number from 0 to 1, got 'often'"),
    ("greedy", {"policy": "clever"},
     "greedy: policy='clever' is not valid; allowed: greedy, lookahead, sharp"),
    ("greedy", {"mistake": 0.1},
     "agent 'greedy' has no option 'mistake'; allowed options: mistakes, policy"),
    ("hard", {"iterations": 3},
     "level 'hard' takes no options (it is a fixed setting); got iterations"),
]


def _refusal(error: OptionError, english: str) -> None:
    """The English text as given, and a Korean one from the catalogue."""
    assert english in str(error)
    assert english in words_text(error, "en")
    korean = words_text(error, "ko")
    assert korean != words_text(error, "en")
    assert any("\uac00" <= char <= "\ud7a3" for char in korean), korean  # Hangul


@pytest.mark.parametrize(("name", "options", "english"), BAD_SETTINGS)
def test_a_bad_setting_says_what_is_allowed(name: str, options: dict[str, Any],
                                            english: str) -> None:
    before = agent_names()
    with pytest.raises(OptionError) as caught:
        make_agent(name, seed=1, **options)
    _refusal(caught.value, english)
    assert agent_names() == before


def test_the_refusals_are_still_value_errors() -> None:
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        make_agent("mcts", iterations=0)


def test_the_settings_the_refusals_allow_are_accepted() -> None:
    assert make_agent("mcts", iterations=3.0).iterations == 3  # type: ignore[attr-defined]
    for options in ({"rollout_depth": "end"}, {"rollout_depth": 0}, {"widen": "all"},
                    {"widen": 1}, {"guide": "sharp"}, {"rollout": "sharp"}, {"time": 0.1},
                    {"exploration": 0}):
        make_agent("mcts", **options)
    make_agent("greedy", mistakes=1, policy="lookahead")
    make_agent("planner", rollouts=1, node_limit=1, iterations=1)
    make_agent("determinized", samples=1, node_limit=1, plan_node_limit=1, draws=1)


@pytest.mark.parametrize(("name", "options", "english"), [
    ("greedy", {"policy": "sharp"},
     "greedy: policy='sharp' is not available in temple; allowed in temple: greedy"),
    ("mcts", {"rollout": "sharp", "iterations": 2},
     "mcts: rollout='sharp' is not available in temple; allowed in temple: random, greedy"),
    ("mcts", {"guide": "sharp", "iterations": 2},
     "mcts: guide='sharp' is not available in temple; allowed in temple: greedy"),
])
def test_a_setting_another_game_has_is_refused_with_this_games_choices(
    name: str, options: dict[str, Any], english: str,
) -> None:
    state = load("temple", players=2).new_initial_state(3)
    before = (state.history(), state.to_json())
    agent = make_agent(name, seed=1, **options)
    with pytest.raises(OptionError) as caught:
        agent.step(state)
    _refusal(caught.value, english)
    assert (state.history(), state.to_json()) == before


def test_pacal_lists_its_own_policies() -> None:
    state = load("pacal").new_initial_state(3)
    agent = make_agent("mcts", seed=1, iterations=2, rollout="sharp")
    assert agent.step(state) in state.legal_actions()


@pytest.mark.parametrize("make", [
    lambda: LevelAgent("legendary"),
    lambda: level_setting("pacal", "legendary"),
])
def test_an_unknown_level_lists_the_levels(make: Any) -> None:
    with pytest.raises(OptionError) as caught:
        make()
    _refusal(caught.value,
             "unknown level 'legendary'; allowed levels: easy, medium, hard, expert")


def test_a_setting_that_is_not_key_value_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        parse_setting("mcts:iterations")
    _refusal(caught.value, "agent option 'iterations' in 'mcts:iterations' is not key=value "
                           "(e.g. mcts:iterations=200)")


@pytest.mark.parametrize(("value", "english"), [
    ("pyramids_no_such_package.bots:make [ghosts]",
     "agent 'ghost-bot' needs the module 'pyramids_no_such_package': install the 'ghosts' "
     "extra with: pip install 'pyramids[ghosts]'"),
    ("pyramids_no_such_package.bots:make",
     "agent 'ghost-bot' needs the module 'pyramids_no_such_package', which is not installed"),
])
def test_a_plugin_agent_without_its_module_says_what_to_install(value: str,
                                                                english: str) -> None:
    factory = PluginAgentFactory(metadata.EntryPoint("ghost-bot", value, ENTRY_POINT_GROUP))
    with pytest.raises(OptionError) as caught:
        factory.load()
    _refusal(caught.value, english)
