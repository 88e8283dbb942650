"""Environments pickle and deep-copy, and a copy goes on exactly as the original.

Vectorised runners (Gymnasium's async vector env, Ray, multiprocessing) pickle
environments, and search and checkpointing deep-copy them. They failed: the
encoder's layout writers are closures (`Can't pickle local object`), and the kept
observation and mask hold memoryviews (`cannot pickle memoryview objects`). A copy
is taken mid-episode, after observations were computed (so the kept vectors and
their memos are warm), then the original and the copy play the same actions and
must give the same observations, masks, rewards, terminations and infos, through
the end and into the next (unseeded) episode.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import pyramids.rl  # noqa: E402
from pyramids.rl.encoding import encoder_for  # noqa: E402


def _pickled(env: Any) -> Any:
    return pickle.loads(pickle.dumps(env))


COPIES = [pytest.param(_pickled, id="pickle"), pytest.param(copy.deepcopy, id="deepcopy")]
AEC_GAMES = [
    ("pacal", {}),
    ("temple", {"players": 3}),
    ("mahjongg", {"layout": "giza-step-ramp", "players": 2}),
]


def _aec_record(env: Any, rng: random.Random, steps: int) -> list[Any]:
    """What `steps` turns of the AEC loop show (the actions drawn from `rng`)."""
    seen: list[Any] = []
    for _ in range(steps):
        if not env.agents:
            env.reset()  # unseeded: the next seed comes from the env's own generator
            seen.append(("reset", env.seed_))
            continue
        observation, reward, termination, truncation, info = env.last()
        seen.append((env.agent_selection, observation["observation"].tolist(),
                     observation["action_mask"].tolist(), reward, termination, truncation,
                     dict(info)))
        if termination or truncation:
            action = None
        else:
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        env.step(action)
    return seen


@pytest.mark.parametrize("copier", COPIES)
@pytest.mark.parametrize(("name", "options"), AEC_GAMES)
def test_a_copied_pettingzoo_env_goes_on_as_the_original(name, options, copier) -> None:
    env = pyramids.rl.env(name, **options)
    env.reset(seed=4)
    _aec_record(env, random.Random(1), 25)  # warm: kept vectors, memos, mask
    twin = copier(env)
    assert twin.state_.to_json() == env.state_.to_json()
    assert _aec_record(twin, random.Random(2), 400) == _aec_record(env, random.Random(2), 400)


@pytest.mark.parametrize("copier", COPIES)
def test_a_copied_parallel_env_goes_on_as_the_original(copier) -> None:
    def play(env: Any, rng: random.Random, steps: int) -> list[Any]:
        seen = []
        for _ in range(steps):
            if not env.agents:
                break
            agent = env.aec_env.agent_selection
            mask = env.aec_env.observe(agent)["action_mask"]
            actions = {agent: rng.choice(np.flatnonzero(mask).tolist())}
            observations, rewards, terminations, truncations, infos = env.step(actions)
            seen.append((agent, {a: o["observation"].tolist() for a, o in observations.items()},
                         rewards, terminations, truncations, infos))
        return seen

    env = pyramids.rl.parallel_env("temple", players=4)
    env.reset(seed=9)
    play(env, random.Random(1), 10)
    twin = copier(env)
    assert play(twin, random.Random(3), 300) == play(env, random.Random(3), 300)


def _gym_record(env: Any, rng: random.Random, steps: int) -> list[Any]:
    seen: list[Any] = []
    mask = env.unwrapped._info()["action_mask"]
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(mask).tolist())
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append((observation.tolist(), reward, terminated, truncated,
                     {key: value.tolist() if hasattr(value, "tolist") else value
                      for key, value in info.items()}))
        mask = info["action_mask"]
        if terminated or truncated:
            observation, info = env.reset()  # unseeded: from the env's own generator
            seen.append(("reset", observation.tolist(), info["action_mask"].tolist()))
            mask = info["action_mask"]
    seen.append(int(env.action_space.sample()))  # the action space's generator too
    return seen


@pytest.mark.parametrize("copier", COPIES)
@pytest.mark.parametrize(("ident", "options"), [
    ("pyramids/pacal-solo-v0", {}),
    ("pyramids/mahjongg-v0", {"layout": "giza-step-ramp"}),
    # Against bots: the opponents' generators travel with the copy.
    ("pyramids/pacal-v0", {"opponents": "easy"}),
    ("pyramids/temple-v0", {"players": 3, "opponents": ["easy", "random"],
                            "seat": "rotate"}),
])
def test_a_copied_gymnasium_env_goes_on_as_the_original(ident, options, copier) -> None:
    env = gymnasium.make(ident, **options)
    env.reset(seed=6)
    _gym_record(env, random.Random(1), 4)
    twin = copier(env)
    assert _gym_record(twin, random.Random(5), 150) == _gym_record(env, random.Random(5), 150)


def test_an_encoder_copies_as_the_process_own() -> None:
    encoder = encoder_for(pyramids.load("temple", players=2))
    assert _pickled(encoder) is encoder and copy.deepcopy(encoder) is encoder
