"""The observation encoder: fixed layout from the declared view type, only what the view shows."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import pyramids  # noqa: E402
from pyramids.rl.encoding import encoder_for, layout_markdown  # noqa: E402

SMALL = "giza-step-ramp"
CASES = [("pacal", {}), ("pacal-solo", {}), ("temple", {"players": 3}),
         ("mahjongg", {"layout": SMALL}), ("mahjongg", {"layout": SMALL, "players": 2})]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_vectors_keep_their_size_and_bounds_over_random_games(name, options) -> None:
    game = pyramids.load(name, **options)
    encoder = encoder_for(game)
    rng = random.Random(5)
    for seed in range(100, 104):
        state = game.new_initial_state(seed)
        while True:
            for seat in range(game.num_players):
                vector = encoder.encode(state, seat)
                assert vector.shape == (encoder.size,) and vector.dtype == np.float32
                assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
                mask = encoder.action_mask(state, seat)
                legal = state.legal_actions() if state.current_player == seat else []
                assert sorted(np.flatnonzero(mask).tolist()) == legal
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_vector_is_a_function_of_the_view_alone() -> None:
    # Two deals that look the same to seat 0 give seat 0 the same vector, and the
    # vector changes when the view does: the encoder reads nothing but the view.
    game = pyramids.load("pacal")
    encoder = encoder_for(game)
    state = game.new_initial_state(3)
    other = state.resample_hidden(0, random.Random(1))
    assert other.view(0) == state.view(0)
    assert other.view(1) != state.view(1)
    assert (encoder.encode(other, 0) == encoder.encode(state, 0)).all()
    before = encoder.encode(state, 0)
    state.apply_action(state.legal_actions()[0])
    assert (encoder.encode(state, 0) != before).any()


def test_booleans_literals_optionals_and_lists_land_where_the_layout_says() -> None:
    game = pyramids.load("pacal-solo")
    encoder = encoder_for(game)
    state = game.new_initial_state(1)
    view = state.view(0)
    vector = encoder.encode(state, 0)
    where = {row["path"]: row for row in encoder.describe()}
    phase = where["phase"]
    assert phase["size"] == 2 and vector[phase["offset"]] == (view["phase"] == "place")
    assert vector[where["won"]["offset"]] == float(view["won"])
    assert vector[where["card?"]["offset"]] == 1.0
    assert vector[where["card"]["offset"]] == view["card"]
    assert vector[where["legal_fields.len"]["offset"]] == len(view["legal_fields"])
    for index, value in enumerate(view["legal_fields"]):
        assert vector[where[f"legal_fields[{index}]"]["offset"]] == value
    assert vector[where["score?"]["offset"]] == 0.0  # null while playing


def test_the_layout_is_the_same_in_every_process_and_documented() -> None:
    game = pyramids.load("temple", players=2)
    text = layout_markdown(game)
    assert "| offset | size | feature | meaning |" in text
    assert f"Total: {encoder_for(game).size} features" in text
    assert "`hand[L1]`" in text or "`hand[J]`" in text
