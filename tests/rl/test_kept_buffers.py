"""The adapters keep their observation and mask between steps; what they hand out is the user's.

The PettingZoo and Gymnasium environments update one vector a seat and one
legal-action mask in place (`Canvas`, `MaskCanvas`) and return copies; the
legality check reads the kept mask. OpenSpiel states keep the player to move
and answer `legal_actions` in Python for Python callers. These tests check that
none of it shows: the mask is the legal set after any sequence of positions,
arrays handed out never change afterwards, every kind of action value is
judged as before, and the OpenSpiel answers equal the C++ path's.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import pyramids  # noqa: E402
import pyramids.rl as rl  # noqa: E402
from pyramids.rl.aec import MaskCanvas  # noqa: E402

ACTIONS = 300


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, ACTIONS - 1), max_size=80, unique=True), max_size=12))
def test_the_kept_mask_is_the_legal_set_after_any_sequence(legal_lists) -> None:
    canvas = MaskCanvas(ACTIONS)
    shared: list[int] = []  # one list object, changed in place, for every position
    for position, legal in enumerate(legal_lists):
        shared[:] = sorted(legal)
        mask = canvas.show(shared, position)
        assert mask.dtype == np.int8 and mask.shape == (ACTIONS,)
        assert set(np.flatnonzero(mask).tolist()) == set(legal)
        assert canvas.show([], position) is mask  # the same position: nothing to write
        assert set(np.flatnonzero(mask).tolist()) == set(legal)


def _play(env, rng, steps):
    for _ in range(steps):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize(("name", "options"), [("pacal", {}), ("temple", {"players": 4})])
def test_observations_handed_out_never_change_and_can_be_written(name, options) -> None:
    env = rl.env(name, **options)
    env.reset(seed=3)
    rng = random.Random(1)
    handed_out, copies = [], []
    for step in range(80):
        agent = env.agent_selection
        observation = env.observe(agent)
        if step % 2:
            handed_out.append(observation)
            copies.append({k: v.copy() for k, v in observation.items()})
        else:
            observation["observation"][:] = -7.0  # the user's own arrays to write
            observation["action_mask"][:] = 1
        fresh = env.observe(agent)
        assert np.array_equal(fresh["observation"],
                              env.encoder.encode_from_view(env.state_, env._seat[agent]))
        legal = env.state_.legal_actions()
        assert np.flatnonzero(fresh["action_mask"]).tolist() == legal
        _play(env, rng, 1)
    for observation, copy in zip(handed_out, copies, strict=True):
        for key in ("observation", "action_mask"):
            assert np.array_equal(observation[key], copy[key])


def test_every_kind_of_action_value_is_judged_as_before() -> None:
    env = rl.env("pacal")
    for value_of in (int, np.int64, np.int32, float, np.array):
        env.reset(seed=5)
        agent = env.agent_selection
        legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
        env.step(value_of(legal[0]))
        assert not any(env.terminations.values()), value_of
    for bad in (-1, ACTIONS * 10, None):
        env.reset(seed=5)
        agent = env.agent_selection
        env.observe(agent)  # the mask is kept: the check reads it
        env.step(bad)
        assert all(env.terminations.values()) and env.rewards[agent] == -1.0, bad
    # Without an observation first (the check then asks the legal actions itself).
    env.reset(seed=5)
    state = pyramids.load("pacal").new_initial_state(5)
    illegal = next(a for a in range(ACTIONS) if a not in state.legal_actions())
    env.step(illegal)
    assert env.infos[env.possible_agents[state.current_player]]["illegal_action"]


def test_a_seat_not_to_move_and_a_finished_episode_show_no_legal_actions() -> None:
    env = rl.env("pacal", rounds_to_win=1, max_rounds=1)
    env.reset(seed=2)
    waiting = env.possible_agents[1 - env.state_.current_player]
    assert not env.observe(waiting)["action_mask"].any()
    rng = random.Random(0)
    _play(env, rng, 10_000)
    assert all(env.terminations.values())
    for agent in env.agents:
        assert not env.observe(agent)["action_mask"].any()


def test_gymnasium_hands_out_copies_and_seeds_np_random_lazily_as_gymnasium_would() -> None:
    import gymnasium
    from gymnasium.utils import seeding

    env = gymnasium.make("pyramids/pacal-solo-v0").unwrapped
    observation, info = env.reset(seed=9)
    expected = seeding.np_random(9)[0].integers(0, 1000, 5)
    assert np.array_equal(env.np_random.integers(0, 1000, 5), expected)
    assert env.np_random_seed == 9
    saved = observation.copy(), info["action_mask"].copy()
    observation[:] = 3.0
    info["action_mask"][:] = 0
    action = int(np.flatnonzero(saved[1])[0])
    after, _, _, _, info = env.step(action)
    assert np.array_equal(after, env.encoder.encode_from_view(env.state, 0))
    env.reset(seed=9)
    again, info = env.reset(seed=9)
    assert np.array_equal(again, saved[0]) and np.array_equal(info["action_mask"], saved[1])


def test_the_seed_is_read_before_the_generator_is_made() -> None:
    """`np_random_seed` read before `np_random` (a logger, a vector env's
    `np_random_seed`) gave a random seed and replaced the seeded generator with a
    random one: `reset(seed=9)` no longer fixed `np_random`."""
    import gymnasium
    from gymnasium.utils import seeding

    expected = seeding.np_random(9)[0].integers(0, 1000, 5)
    env = gymnasium.make("pyramids/pacal-solo-v0").unwrapped
    for _ in range(2):
        env.reset(seed=9)
        assert env.np_random_seed == 9
        assert np.array_equal(env.np_random.integers(0, 1000, 5), expected)
        env.reset()  # unseeded: the generator and its seed go on, as Gymnasium's do
        assert env.np_random_seed == 9


@pytest.mark.parametrize("name", ["pacal", "temple"])
def test_openspiel_python_answers_equal_the_cpp_path(name) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import pyramids.openspiel as po

    game = pyspiel.load_game(po.short_name(name))
    rng = random.Random(4)
    for deal in range(3):
        state = game.new_initial_state()
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        state.apply_action(deal)
        while True:
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for player in range(game.num_players()):
                assert (state.legal_actions(player)
                        == pyspiel.State.legal_actions(state, player))
            assert state.is_terminal() == state.engine.state.is_terminal()
            if state.is_terminal():
                assert state.current_player() == pyspiel.PlayerId.TERMINAL
                break
            assert state.current_player() == state.engine.state.current_player
            twin = state.clone()
            assert twin.current_player() == state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
