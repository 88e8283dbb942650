"""PettingZoo AEC environments: PettingZoo's own api_test and seed_test, and replays."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

import pyramids  # noqa: E402
import pyramids.rl as rl  # noqa: E402

SMALL = "giza-step-ramp"
# The multi-player games: Pacal, Temple at 2 and 5 seats, Mahjongg competitive and co-op.
CASES = [
    ("pacal", {}),
    ("temple", {"players": 2}),
    ("temple", {"players": 5, "max_rounds": 30}),
    ("mahjongg", {"layout": SMALL, "players": 2}),
    ("mahjongg", {"layout": SMALL, "players": 3, "mode": "coop"}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for name, options in CASES]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_pettingzoo_api_test(name, options) -> None:
    pettingzoo_test.api_test(rl.env(name, **options), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "options"), CASES[:2] + CASES[3:4], ids=IDS[:2] + IDS[3:4])
def test_pettingzoo_seed_test(name, options) -> None:
    pettingzoo_test.seed_test(lambda: rl.env(name, **options), num_cycles=100)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_pettingzoo_parallel_api_and_seed_tests(name, options) -> None:
    pettingzoo_test.parallel_api_test(rl.parallel_env(name, **options), num_cycles=100)
    pettingzoo_test.parallel_seed_test(
        lambda render_mode=None: rl.parallel_env(name, render_mode=render_mode, **options),
        num_cycles=50)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_an_episode_replays_the_native_engine_move_for_move(name, options) -> None:
    env = rl.env(name, **options)
    env.reset(seed=11)
    native = pyramids.load(name, **options).new_initial_state(11)
    rng = random.Random(2)
    for agent in env.agent_iter(max_iter=2000):
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat == native.current_player
        assert env.raw_view(agent) == native.view(seat)
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == native.legal_actions()
        action = rng.choice(legal)
        env.step(action)
        native.apply_action(action)
    assert native.is_terminal() and env.state_.history() == native.history()
    assert [env._cumulative_rewards.get(a, 0.0) for a in env.possible_agents] in (
        [0.0] * len(env.possible_agents), native.returns())


def test_final_rewards_are_the_game_returns() -> None:
    env = rl.env("pacal", rounds_to_win=1, max_rounds=2)
    env.reset(seed=4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(0)
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    assert list(totals.values()) == env.state_.returns()
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_an_illegal_action_ends_the_game_with_a_penalty() -> None:
    env = rl.env("pacal")
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0 and env.infos[agent]["illegal_action"]
    # What was wrong, in the engine's words, not only that something was.
    assert env.infos[agent]["reason"] == (
        f"the move '{env.state_.action_to_string(illegal)}' is illegal: card 3 is not in "
        "your hand")
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(None)  # a policy that returned nothing
    assert env.infos[agent]["reason"].startswith("no action was given (None)")


@pytest.mark.parametrize("action", [2.5, "x", True])
def test_an_action_that_is_not_a_whole_number_is_refused(action: object) -> None:
    """2.5 was taken as action 2, and "x" raised int()'s ValueError."""
    env = rl.env("pacal")
    env.reset(seed=1)
    before = env.state_.to_json()
    with pytest.raises(TypeError, match="an action is a whole number"):
        env.step(action)
    assert env.state_.to_json() == before and not any(env.terminations.values())


def test_names_metadata_and_ansi_render() -> None:
    env = rl.env("pacal", render_mode="ansi")
    assert env.metadata["name"] == "pacal_v0"
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and text
    assert env.metadata["render_modes"] == ["ansi", "human"]
    with pytest.raises(ValueError, match="allowed: None, 'ansi', 'human'"):
        rl.env("pacal", render_mode="rgb_array")


def test_reset_seeds_the_action_spaces_and_the_seeds_of_unseeded_resets() -> None:
    env = rl.env("temple", players=3)
    runs = []
    for _ in range(2):
        env.reset(seed=4)
        samples = [int(env.action_space(agent).sample()) for agent in env.possible_agents
                   for _ in range(3)]
        deals = []
        for _ in range(3):
            env.reset()  # unseeded: the deal's seed is drawn from seed 4
            deals.append(env.state_.to_json())
        runs.append((samples, deals))
    assert runs[0] == runs[1]
    assert len(set(runs[0][1])) == 3


@pytest.mark.parametrize("seed", ["abc", -1, 2.5, True])
def test_a_reset_seed_that_is_not_a_whole_number_of_0_or_more_is_refused(seed: object) -> None:
    """A string seed failed deep inside ('can only concatenate str'), a negative one
    only later, in NumPy: both environments now say what a seed is, and keep the game."""
    env = rl.env("pacal")
    env.reset(seed=4)
    before = env.state_.history()
    with pytest.raises((TypeError, ValueError), match="a seed is a whole number of 0 or more"):
        env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.seed_ == 4 and env.state_.history() == before
    gym = pytest.importorskip("gymnasium")
    solo = gym.make("pyramids/pacal-solo-v0")
    with pytest.raises((TypeError, ValueError), match="a seed is a whole number of 0 or more"):
        solo.reset(seed=seed)


def test_misuse_of_the_env_is_refused_saying_what_to_do() -> None:
    """`last()` before a reset, an agent that is not one, and a step after every agent's
    dead step raised AttributeError and KeyError ('player_0') from inside the env."""
    env = rl.env("pacal")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
        env.last()
    env.reset(seed=1)
    for ask in (env.observe, env.raw_view, env.action_space, env.observation_space):
        with pytest.raises(ValueError, match="unknown agent 'player_2'; the agents are "
                                             "player_0, player_1"):
            ask("player_2")
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated
                 else int(np.flatnonzero(observation["action_mask"])[0]))
    assert not env.agents
    before = env.state_.to_json()
    with pytest.raises(RuntimeError, match=r"the episode is over; call reset\(\)"):
        env.step(None)
    assert env.state_.to_json() == before
    env.reset(seed=2)  # and the env goes on
    assert env.agents == env.possible_agents
