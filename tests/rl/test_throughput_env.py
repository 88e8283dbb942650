"""benchmarks/throughput.py --env: every adapter loop plays whole episodes.

No timing is asserted (speed belongs to the benchmark's own runs); this checks
that each loop the figures come from exists for its game and plays episodes to
the end (an illegal masked choice would end them at once, after one step), that
all loops play the same games move for move, and that the floor loop keeps the
env's own mask and drops only the vector.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from tests.scripts import load_script  # noqa: E402


@pytest.fixture(scope="module")
def bench():
    return load_script("benchmarks/throughput.py", "benchmark_throughput")


@pytest.mark.parametrize("name", ["pacal", "pacal-solo", "temple", "mahjongg"])
def test_every_loop_plays_whole_episodes(bench, name) -> None:
    loops = bench._env_loops(name, {}, seed=3, floor=True)
    expected = {"native", "pettingzoo", "pettingzoo-floor"}
    if name == "pacal-solo":
        expected.add("gymnasium")
    assert expected <= set(loops)
    lengths = {label: [loop.episode(deal) for deal in (3, 4, 5)] for label, loop in loops.items()}
    # None ends after one step, as an illegal action would end it.
    assert all(min(steps) > 1 for steps in lengths.values()), lengths
    # Each loop draws from its own generator seeded alike: all play the same games.
    assert len({tuple(steps) for steps in lengths.values()}) == 1, lengths


def test_every_loop_plays_deals_past_openspiels_default_outcomes(bench) -> None:
    """A fast game's loops reach deal 10,000 within a run (Pacal solo plays tens of
    thousands of episodes a burst): the OpenSpiel loop refused it ("chance outcome
    10000 is not a deal") and the documented command stopped with a traceback."""
    pytest.importorskip("pyspiel")
    loops = bench._env_loops("pacal-solo", {}, seed=3)
    assert "openspiel" in loops
    lengths = {label: loop.episode(10_000 + 7) for label, loop in loops.items()}
    assert len(set(lengths.values())) == 1, lengths


def test_the_loops_play_the_same_moves(bench) -> None:
    loops = bench._env_loops("mahjongg", {}, seed=1)
    assert {"native", "pettingzoo", "gymnasium"} <= set(loops)
    played = {}
    for label, loop in loops.items():
        moves = []
        real = loop.episode.__defaults__[0]  # the loop's own generator
        choice = real.choice

        def watch(options, choice=choice, moves=moves):
            picked = choice(options)
            moves.append(picked)
            return picked

        real.choice = watch
        loop.episode(7)
        loop.episode(8)
        played[label] = moves
    assert len({tuple(moves) for moves in played.values()}) == 1


@pytest.mark.parametrize(("name", "options"), [("pacal", {}), ("temple", {"players": 3})])
def test_the_env_against_opponents_plays_its_native_loops_games(bench, name, options) -> None:
    """--opponents: the Gymnasium env against bots and its native baseline play the same
    games: the learner is offered the same legal actions at every step, so the bots
    (random ones, whose moves follow their seeds) moved alike."""
    pytest.importorskip("gymnasium")
    loops = bench._env_loops(name, options, seed=2, opponents="random")
    pair = (bench.GYM_VS_OPPONENTS, bench.NATIVE_VS_OPPONENTS)
    assert set(pair) <= set(loops) and "gymnasium" not in loops
    offered = {}
    for label in pair:
        loop = loops[label]
        real = loop.episode.__defaults__[0]  # the loop's own generator
        seen: list[tuple[int, ...]] = []

        def watch(legal, choice=real.choice, seen=seen):
            seen.append(tuple(legal))
            return choice(legal)

        real.choice = watch
        steps = [loop.episode(deal) for deal in (4, 5, 6)]
        assert min(steps) > 1, (label, steps)
        offered[label] = (steps, seen)
    assert offered[pair[0]] == offered[pair[1]]


def test_the_floor_env_keeps_its_mask_and_drops_only_the_vector(bench) -> None:
    import numpy as np

    import pyramids.rl as rl

    loops = bench._env_loops("pacal", {}, seed=0, floor=True)
    bare = loops["pettingzoo-floor"].episode.__closure__
    envs = [cell.cell_contents for cell in bare
            if isinstance(cell.cell_contents, rl.PyramidsAECEnv)]
    (env,) = envs
    env.reset(seed=1)
    observation = env.observe(env.agent_selection)
    assert not observation["observation"].any()
    assert np.flatnonzero(observation["action_mask"]).tolist() == env.state_.legal_actions()
