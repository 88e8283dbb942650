"""Gymnasium environments for the one-player games: check_env, ids, masks and replays."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import pyramids  # noqa: E402
import pyramids.rl as rl  # noqa: E402

SMALL = "giza-step-ramp"
CASES = [("pacal-solo", {}), ("pacal-solo", {"direction": "ascending"}),
         ("mahjongg", {"layout": SMALL})]


def test_every_game_is_registered_under_its_id() -> None:
    # The multi-player games too: they take opponents (tests/rl/test_gym_opponents.py).
    assert set(rl.GYMNASIUM_IDS) == {f"pyramids/{manifest.name}-v0"
                                     for manifest in pyramids.core.manifests()}
    assert {"pyramids/pacal-solo-v0", "pyramids/mahjongg-v0", "pyramids/pacal-v0",
            "pyramids/temple-v0"} <= set(gymnasium.registry)
    assert set(rl.one_player_games()) == {"pacal-solo", "mahjongg"}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("name", "options"), CASES)
def test_gymnasium_check_env(name, options) -> None:
    env = gymnasium.make(f"pyramids/{name}-v0", **options)
    check_env(env.unwrapped)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_an_episode_replays_the_native_engine_move_for_move(name, options) -> None:
    env = gymnasium.make(f"pyramids/{name}-v0", **options)
    observation, info = env.reset(seed=21)
    native = pyramids.load(name, **options).new_initial_state(21)
    rng = random.Random(3)
    done = False
    reward = 0.0
    while not done:
        assert env.unwrapped.raw_view() == native.view(0)
        legal = np.flatnonzero(info["action_mask"]).tolist()
        assert legal == native.legal_actions()
        action = rng.choice(legal)
        observation, reward, done, truncated, info = env.step(action)
        native.apply_action(action)
        assert observation in env.observation_space
    assert native.is_terminal() and reward == native.returns()[0]
    assert env.unwrapped.state.history() == native.history()


def test_an_illegal_action_ends_the_episode() -> None:
    env = gymnasium.make("pyramids/mahjongg-v0", layout=SMALL)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    played = env.unwrapped.state.history()
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    # Why, in the engine's words; nothing is legal any more; the position is as it was.
    assert info["reason"].startswith("the move 'match ") and "is not free" in info["reason"]
    assert not info["action_mask"].any() and env.unwrapped.state.history() == played
    # Over is over: another step does not pay the penalty a second time.
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(illegal)
    _, info = env.reset(seed=2)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, reward, terminated, _, _ = env.step(np.int64(legal))  # NumPy's integers are actions
    assert not terminated and reward == 0.0


def test_action_masks_is_the_info_mask_for_maskable_learners() -> None:
    """sb3-contrib's MaskablePPO asks the env's `action_masks()`: the same legal actions
    as `info["action_mask"]` at every step, as booleans, and none once the episode is
    over (by the game's end or by an illegal action)."""
    for name, options in [("pacal", {"opponents": "greedy"}), ("mahjongg", {"layout": SMALL})]:
        env = gymnasium.make(f"pyramids/{name}-v0", **options)
        _, info = env.reset(seed=3)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            mask = env.get_wrapper_attr("action_masks")()  # as SB3's vector envs ask
            assert mask.dtype == bool and np.array_equal(mask, info["action_mask"] == 1)
            action = int(rng.choice(np.flatnonzero(mask)))
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert not env.unwrapped.action_masks().any()
    _, info = env.reset(seed=1)
    env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))  # illegal: the end
    assert not env.unwrapped.action_masks().any()


@pytest.mark.parametrize("action", [2.5, "x", None, True])
def test_what_is_not_a_whole_number_is_refused_and_changes_nothing(action: object) -> None:
    env = gymnasium.make("pyramids/pacal-solo-v0")
    env.reset(seed=1)
    before = env.unwrapped.state.to_json()
    with pytest.raises(TypeError, match="an action is a whole number"):
        env.step(action)
    assert env.unwrapped.state.to_json() == before


def test_every_action_the_action_space_contains_is_played() -> None:
    """A 0-d array (a policy's `tensor.numpy()`) is in Gymnasium's Discrete space, and
    was refused as not a whole number."""
    env = gymnasium.make("pyramids/pacal-solo-v0")
    for value_of in (int, np.int64, np.array, lambda a: np.array(a, dtype=np.int32)):
        _, info = env.reset(seed=1)
        action = value_of(int(np.flatnonzero(info["action_mask"])[0]))
        assert env.action_space.contains(action)
        played = len(env.unwrapped.state.history())
        _, _, _, _, info = env.step(action)
        assert "illegal_action" not in info
        assert len(env.unwrapped.state.history()) == played + 1, value_of
    for bad in (np.array(2.5), np.array(True), np.array([3])):
        env.reset(seed=1)
        before = env.unwrapped.state.to_json()
        with pytest.raises(TypeError, match="an action is a whole number"):
            env.step(bad)
        assert env.unwrapped.state.to_json() == before


def test_a_multi_player_setting_is_refused_with_the_way_out() -> None:
    with pytest.raises(ValueError, match="pyramids.rl.env"):
        gymnasium.make("pyramids/mahjongg-v0", layout=SMALL, players=2)


def test_a_vector_env_steps_with_masks() -> None:
    envs = gymnasium.make_vec("pyramids/pacal-solo-v0", num_envs=3,
                              vectorization_mode="sync")
    observations, infos = envs.reset(seed=5)
    assert observations.shape == (3, envs.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    for _ in range(20):
        # A finished episode's mask is empty; its next action only resets it.
        actions = [int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
                   for mask in infos["action_mask"]]
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert observations.shape[0] == 3 and set(rewards.tolist()) <= {-1.0, 0.0, 1.0}
    envs.close()


def test_reset_seeds_the_action_space_and_the_seeds_of_unseeded_resets() -> None:
    env = gymnasium.make("pyramids/pacal-solo-v0").unwrapped
    runs = []
    for _ in range(2):
        env.reset(seed=8)
        samples = [int(env.action_space.sample()) for _ in range(6)]
        deals = [env.reset()[0].tobytes() for _ in range(3)]  # unseeded: drawn from seed 8
        runs.append((samples, deals))
    assert runs[0] == runs[1]
    assert len(set(runs[0][1])) == 3
