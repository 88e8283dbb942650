"""The named levels: each resolves to a setting for every game, plays legal moves,
and replays exactly from its seed; `easy` slips to plausible moves, not random ones."""

from __future__ import annotations

import pytest

from pyramids.agents import LEVELS, agent_names, make_agent, parse_setting
from pyramids.agents.levels import GENERIC, LevelAgent, level_setting, level_settings, level_table
from pyramids.core import OptionError, Rng, game_manifest, game_names, load

# Small tables so that whole games stay quick: one round of Pacal, two Temple seats,
# the smallest Mahjongg layout.
QUICK_OPTIONS: dict[str, dict[str, object]] = {
    "pacal": {"rounds_to_win": 1, "max_rounds": 1},
    "temple": {"players": 2},
    "mahjongg": {"layout": "giza-step-ramp"},
}
FULL_GAME_LEVELS = ("easy", "medium", "hard")
EXPERT_MOVES = 4  # expert searches; a few moves show it resolves and replays


def _options(game_name: str) -> dict[str, object]:
    return QUICK_OPTIONS.get(game_name, {})


def test_every_level_is_an_agent_name() -> None:
    assert set(LEVELS) <= set(agent_names())
    with pytest.raises(OptionError):
        make_agent("hard", iterations=3)


@pytest.mark.parametrize("game_name", game_names())
def test_every_level_resolves_to_a_registered_agent(game_name: str) -> None:
    table = level_table(game_name)
    assert list(table) == list(LEVELS)
    for level in LEVELS:
        settings = level_settings(game_name, level)
        fewest = game_manifest(game_name).players_range()[0]
        assert min(settings) == fewest and table[level] == settings[fewest]
        for setting in settings.values():
            name, options = parse_setting(setting)
            assert name in agent_names() and name not in LEVELS
            make_agent(name, seed=1, **options)  # the options are valid


class _Companion:
    """A game module whose `hard` plays one setting alone and others at tables."""

    DIFFICULTY = {"hard": {3: "mcts:iterations=5", 1: "greedy", 2: "random"}}


def test_a_level_names_settings_by_the_fewest_players_each_serves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pyramids.agents.levels as levels

    monkeypatch.setattr(levels, "companion_of", lambda name, kind: _Companion)
    assert level_settings("any-game", "hard") == {
        1: "greedy", 2: "random", 3: "mcts:iterations=5"}
    assert [level_setting("any-game", "hard", players) for players in range(1, 6)] == [
        "greedy", "random", "mcts:iterations=5", "mcts:iterations=5", "mcts:iterations=5"]
    assert level_setting("any-game", "easy", 4) == GENERIC["easy"]  # not named: generic


def test_settings_are_keyed_from_the_fewest_players_a_game_has(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Pacal and Temple are never played alone: their settings serve tables of two and
    up, and a setting named for one player serves two, unless one is named for two."""
    assert level_settings("pacal", "expert") == {2: "planner:rollouts=24"}
    assert level_settings("temple", "hard") == {2: "mcts:iterations=40"}
    assert level_settings("pacal-solo", "hard") == {1: "planner:rollouts=6"}
    assert min(level_settings("mahjongg", "expert")) == 1
    import pyramids.agents.levels as levels

    monkeypatch.setattr(levels, "companion_of", lambda name, kind: _Companion)
    monkeypatch.setattr(levels, "fewest_players", lambda name: 2)
    assert level_settings("any-game", "hard") == {2: "random", 3: "mcts:iterations=5"}
    assert level_settings("any-game", "easy") == {2: GENERIC["easy"]}


def test_mahjonggs_expert_searches_at_a_table_and_samples_faces_alone() -> None:
    from pyramids.agents.determinized import DeterminizedAgent
    from pyramids.agents.mcts import MctsAgent

    agent = LevelAgent("expert", seed=3)
    for players, kind in ((1, DeterminizedAgent), (2, MctsAgent), (4, MctsAgent)):
        game = load("mahjongg", players=players, layout="giza-step-ramp")
        state = game.new_initial_state(7)
        assert agent.step(state) in state.legal_actions()
        assert isinstance(agent.agent_for("mahjongg", players), kind)
    # One agent for each number of players, each made once.
    assert set(agent._agents) == {("mahjongg", 1), ("mahjongg", 2), ("mahjongg", 4)}
    # The same level in the co-op, a table too.
    coop = load("mahjongg", players=2, mode="coop").new_initial_state(2)
    assert agent.step(coop) in coop.legal_actions()


def test_a_game_without_settings_gets_the_generic_levels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pyramids.agents.levels as levels

    monkeypatch.setattr(levels, "companion_of", lambda name, kind: None)
    assert levels.level_table("any-game") == GENERIC


def _play(game_name: str, level: str, seed: int, moves: int | None) -> list[int]:
    game = load(game_name, **_options(game_name))
    seats = [make_agent(level, seed=seed + seat) for seat in range(game.num_players)]
    state = game.new_initial_state(seed)
    played = 0
    while not state.is_terminal() and (moves is None or played < moves):
        legal = state.legal_actions()
        action = seats[state.current_player].step(state)
        assert action in legal, f"{level} chose illegal {action} in {game_name}"
        state.apply_action(action)
        played += 1
        assert played < 20_000
    return state.history()


@pytest.mark.parametrize("level", FULL_GAME_LEVELS)
@pytest.mark.parametrize("game_name", game_names())
def test_each_level_plays_a_whole_game_and_replays_from_its_seed(game_name: str,
                                                                  level: str) -> None:
    first = _play(game_name, level, 5, None)
    assert first == _play(game_name, level, 5, None)


@pytest.mark.parametrize("game_name", game_names())
def test_expert_plays_and_replays_from_its_seed(game_name: str) -> None:
    first = _play(game_name, "expert", 9, EXPERT_MOVES)
    assert len(first) > 0
    assert first == _play(game_name, "expert", 9, EXPERT_MOVES)


def test_a_level_agent_keeps_one_agent_per_game() -> None:
    agent = LevelAgent("medium", seed=2)
    for game_name in game_names():
        state = load(game_name).new_initial_state(1)
        assert agent.step(state) in state.legal_actions()
    assert set(agent._agents) == {(name, load(name).num_players) for name in game_names()}


def test_easy_slips_to_one_of_the_next_best_moves() -> None:
    from pyramids.agents.greedy import GreedyAgent, greedy_action, scorer_for

    game = load("pacal")
    state = game.new_initial_state(4)  # the first offer: 105 pairs
    scorer = scorer_for("pacal")
    assert scorer is not None
    scores = scorer(state)
    ranked = sorted(scores, key=lambda a: -scores[a])
    best = greedy_action(state, Rng(0))
    plausible = set(ranked[:5])
    slips = {GreedyAgent(seed=s, mistakes=1.0).step(state) for s in range(30)}
    assert best not in slips and slips <= plausible and len(slips) > 1
    with pytest.raises(ValueError):
        GreedyAgent(mistakes=1.5)


def test_the_sharp_policy_answers_every_phase_of_a_match() -> None:
    from pyramids.agents.greedy.pacal import sharp_scores

    state = load("pacal").new_initial_state(8)
    agent = make_agent("greedy", seed=1, policy="sharp")
    phases = set()
    while not state.is_terminal():
        phases.add(state.view(None)["phase"])
        scores = sharp_scores(state)
        assert set(scores) == set(state.legal_actions())
        state.apply_action(agent.step(state))
    assert {"offer", "pick", "place"} <= phases
