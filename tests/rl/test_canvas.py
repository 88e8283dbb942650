"""Observation canvases updated in place equal the view's encoding, however stale they were.

An environment keeps one vector a seat (`Canvas`) and the game's writer brings
it up to date, rewriting a run (a pyramid, a hand, the board) only when its
source changed since the canvas last saw it. Over thousands of random positions
of every game, variant and seat, with each seat's canvas updated after a random
number of moves (as a seat observes only when it is asked) and kept from one
episode to the next, the updated vector must equal the encoding of the view.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import pyramids  # noqa: E402
from pyramids.rl.encoding import encoder_for  # noqa: E402
from tests.rl.test_fast_encoders import CASES, SMALL, _differences  # noqa: E402


@pytest.mark.parametrize(("name", "options", "games"), CASES)
def test_a_canvas_kept_across_moves_and_episodes_equals_the_view_encoding(
        name, options, games) -> None:
    game = pyramids.load(name, **options)
    encoder = encoder_for(game)
    canvases = [encoder.canvas(seat) for seat in range(game.num_players)]
    rng = random.Random(5)
    updates = 0
    for seed in range(games):
        state = game.new_initial_state(2000 + seed)
        while True:
            for seat, canvas in enumerate(canvases):
                # The seat to move always looks; the others now and then.
                if seat != state.current_player and rng.random() < 0.7:
                    continue
                vector = encoder.update(state, canvas)
                expected = encoder.encode_from_view(state, seat)
                assert np.array_equal(vector, expected), (
                    f"{name} {options} seed {2000 + seed} after {state.history()} seat {seat}: "
                    f"{_differences(encoder, vector, expected)}")
                updates += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert updates >= 5 * games


@pytest.mark.parametrize(("name", "options"), [
    ("pacal", {}), ("pacal-solo", {}), ("temple", {"players": 3}), ("mahjongg", {"layout": SMALL}),
])
def test_a_canvas_moved_to_an_unrelated_position_is_rewritten(name, options) -> None:
    # A canvas that saw a late position of one deal, then the start of another (or
    # a position the first cannot reach), holds no trace of the first.
    game = pyramids.load(name, **options)
    encoder = encoder_for(game)
    rng = random.Random(8)
    positions = []
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            positions.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        positions.append(state)
    canvas = encoder.canvas(0)
    for _ in range(400):
        state = rng.choice(positions)
        assert np.array_equal(encoder.update(state, canvas), encoder.encode_from_view(state, 0))
