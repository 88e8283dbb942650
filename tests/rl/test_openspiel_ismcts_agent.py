"""`openspiel-ismcts`: OpenSpiel's IS-MCTS (`ismcts_bot`) as an agent setting, in the
arena, simulate, `play --seats` and `make_agent`, seeded from the seed it is made with
(the arena's per-game seed), and named by the `pyramids.agents` entry point like
`openspiel-mcts`, so that it is listed, and its extra named, without OpenSpiel.
"""

from __future__ import annotations

import copy
import json
import pickle
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.agents import agent_names, base, make_agent_from_setting
from pyramids.cli.main import app
from pyramids.core import OptionError, load
from pyramids.play.results import agent_words
from pyramids.sim.play import play_game

pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is absent")

NAME = "openspiel-ismcts"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
runner = CliRunner()

#: (game, options, seats): a short whole game of each, with something hidden: the other
#: hand and the pile (Pacal, Temple), five face-down tiles (Ramesseum).
GAMES = [
    ("pacal", {"rounds_to_win": 1}, 2),
    ("temple", {"players": 3}, 3),
    ("mahjongg", {"layout": "ramesseum", "players": 2}, 2),
]


def installed_entry() -> metadata.EntryPoint:
    """The installed entry point, which must be the one pyproject.toml declares."""
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"][
        base.ENTRY_POINT_GROUP][NAME]
    found = [e for e in metadata.entry_points(group=base.ENTRY_POINT_GROUP) if e.name == NAME]
    assert found, (f"the installed pyramids metadata has no {NAME} entry point: it predates "
                   "pyproject.toml's; run `pip install -e .` again")
    (entry,) = found
    assert entry.value == declared
    return entry


def test_the_entry_point_names_the_agent_and_its_extra() -> None:
    entry = installed_entry()
    assert entry.extras == ["openspiel"]
    assert NAME in agent_names()
    assert agent_words(f"{NAME}:simulations=5") == "OpenSpiel's information-set search"


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_the_arena_plays_whole_games_and_the_seed_replays_them(
    game: str, options: dict, seats: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    # Through the entry point, as a user's `pyramids arena` gets it.
    monkeypatch.setitem(base._AGENTS, NAME, base.PluginAgentFactory(installed_entry()))
    setting = f"{NAME}:simulations=6:max_world_samples=3"
    args = ["arena", game, "--agents", f"{setting},greedy", "-n", "1", "--seed", "5",
            "--players", str(seats), "--json"]
    for key, value in options.items():
        if key != "players":
            args += ["-o", f"{key}={value}"]
    runs = []
    for attempt in range(2):
        results = tmp_path / f"run{attempt}.jsonl"
        result = runner.invoke(app, [*args, "--results", str(results)])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        assert summary["agents"][setting]["games"] == 1
        assert summary["seconds_per_move"][setting] > 0  # it moved
        (row,) = [json.loads(line)["game"] for line in results.read_text().splitlines()
                  if line.startswith('{"game"')]
        assert setting in row["seats"] and len(row["returns"]) == seats
        assert row["moves"][setting] > 0 and row["length"] >= sum(row["moves"].values())
        runs.append((row["returns"], row["length"], row["seats"], row["moves"],
                     summary["agents"]))
    assert runs[0] == runs[1]  # the same seed, the same game


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_the_same_seed_plays_the_same_actions(game: str, options: dict, seats: int) -> None:
    engine = load(game, **options)

    def actions(seed: int) -> list[int]:
        agents = [make_agent_from_setting(f"{NAME}:simulations=3", seed=seed * 10 + seat)
                  for seat in range(seats)]
        state = play_game(engine, agents, seed=3)
        assert state.is_terminal()
        return state.history()

    first = actions(1)
    assert actions(1) == first
    assert actions(2) != first  # another seed searches other worlds: the test can fail


@pytest.mark.parametrize(("setting", "english"), [
    ("simulations=0", "openspiel-ismcts: simulations must be at least 1, got 0"),
    ("simulations=many",
     "openspiel-ismcts: simulations must be a whole number of at least 1, got 'many'"),
    ("uct_c=-1", "openspiel-ismcts: uct_c must be a number of at least 0, got -1"),
    ("rollouts=1.5", "openspiel-ismcts: rollouts must be a whole number of at least 1, got 1.5"),
    ("max_world_samples=0", "openspiel-ismcts: max_world_samples must be 'unlimited' (a new "
                            "world each simulation) or a whole number of at least 1, got 0"),
    ("max_world_samples=all", "openspiel-ismcts: max_world_samples must be 'unlimited' (a new "
                              "world each simulation) or a whole number of at least 1, "
                              "got 'all'"),
    ("final_policy=best", "openspiel-ismcts: final_policy='best' is not valid; allowed: "
                          "max-visit-count, normalized-visit-count, max-value"),
    ("iterations=5", "agent 'openspiel-ismcts' has no option 'iterations'; allowed options: "
                     "final_policy, max_world_samples, rollouts, simulations, uct_c"),
])
def test_a_bad_option_is_refused_in_words(setting: str, english: str) -> None:
    with pytest.raises(OptionError) as caught:
        make_agent_from_setting(f"{NAME}:{setting}")
    assert str(caught.value) == english
    result = runner.invoke(app, ["arena", "pacal", "--agents", f"{NAME}:{setting},greedy",
                                 "-n", "1"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.strip() == f"error: {english}"


def test_a_bad_option_is_refused_in_korean() -> None:
    result = runner.invoke(app, ["--lang", "ko", "arena", "pacal", "--agents",
                                 f"{NAME}:max_world_samples=0,greedy", "-n", "1"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "오류: openspiel-ismcts: max_world_samples은(는) 'unlimited'(시뮬레이션마다 새로 뽑은 "
        "가상 판) 또는 1 이상의 정수여야 합니다 (받은 값: 0)")


@pytest.mark.parametrize("samples", ["unlimited", -1, 2, 2.0])
def test_max_world_samples_takes_unlimited_or_a_count(samples: object) -> None:
    agent = make_agent_from_setting(f"{NAME}:simulations=4:max_world_samples={samples}")
    state = load("pacal").new_initial_state(2)
    assert agent.step(state) in state.legal_actions()
    assert agent.max_world_samples == (-1 if samples in ("unlimited", -1) else 2)


def test_every_final_policy_plays() -> None:
    state = load("temple", players=3).new_initial_state(1)
    for policy in ("max-visit-count", "normalized-visit-count", "max-value"):
        agent = make_agent_from_setting(f"{NAME}:simulations=5:final_policy={policy}", seed=2)
        assert agent.step(state) in state.legal_actions()


def test_a_game_it_cannot_search_is_refused_in_words_at_its_first_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every pyramids game is turn-based with something hidden to OpenSpiel (the adapter
    says so of each); a game that were not would be refused by `ismcts_bot`'s check, in
    the agent's name, and the arena would say so."""
    import pyspiel

    from pyramids.openspiel.game import PyramidsSpielGame

    real = PyramidsSpielGame.get_type

    def perfect(self):  # type: ignore[no-untyped-def]
        kind = real(self)
        return pyspiel.GameType(
            short_name=kind.short_name, long_name=kind.long_name, dynamics=kind.dynamics,
            chance_mode=kind.chance_mode,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=kind.utility, reward_model=kind.reward_model,
            max_num_players=kind.max_num_players, min_num_players=kind.min_num_players,
            provides_information_state_string=True, provides_information_state_tensor=True,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=kind.parameter_specification)

    monkeypatch.setattr(PyramidsSpielGame, "get_type", perfect)
    result = runner.invoke(app, ["arena", "pacal", "--agents", f"{NAME}:simulations=3,greedy",
                                 "-n", "1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (
        "error: openspiel-ismcts: it searches games where the seats move in turn and some "
        "of the game is hidden; pyramids_pacal is not one")


def test_a_copy_plays_on_as_the_original() -> None:
    """ISMCTSBot does not pickle: the agent drops its bots and makes them again."""
    state = load("pacal").new_initial_state(4)
    agent = make_agent_from_setting(f"{NAME}:simulations=5", seed=3)
    agent.step(state)
    twins = [copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))]
    played = [agent.step(state) for _ in range(3)]
    for twin in twins:
        assert [twin.step(state) for _ in range(3)] == played


def test_bots_lists_it() -> None:
    result = runner.invoke(app, ["bots", "pacal"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    start = next(i for i, line in enumerate(result.output.splitlines())
                 if line.startswith("Other agents"))
    listed = " ".join(result.output.splitlines()[start:]).split(":", 1)[1]
    assert NAME in [name.strip() for name in listed.split(",")]


def test_without_its_extra_the_arena_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = installed_entry()
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if OpenSpiel were not installed
    for module in [m for m in sys.modules if m.startswith("pyramids.openspiel")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(base._AGENTS, NAME, base.PluginAgentFactory(entry))
    result = runner.invoke(app, ["arena", "pacal", "--agents", f"{NAME},greedy", "-n", "2"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: agent 'openspiel-ismcts' needs the module 'pyspiel': install the 'openspiel' "
        "extra with: pip install 'pyramids[openspiel]'")
