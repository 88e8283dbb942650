"""Each game's own observation writer equals the view-based encoding, feature for feature.

The writers (the manifests' `observation_encoder`, `pyramids.rl.observe`) read
the state's fields straight; the documented layout is the encoding of
`view(player)`. Over thousands of random positions of every game, variant and
seat (the hidden-information ones included: the seat not to move, hands the
seat cannot see), both must give the same vector; and two states that differ
only in what a seat cannot see give it the same vector.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import pyramids  # noqa: E402
from pyramids.core import manifests  # noqa: E402
from pyramids.rl.encoding import encoder_for  # noqa: E402

SMALL = "giza-step-ramp"
FACE_DOWN = "ramesseum"  # 70 tiles, 5 of them dealt face down
# (game, options, games): together several thousand positions times seats.
CASES = [
    ("pacal", {}, 6),
    ("pacal", {"direction": "ascending", "rounds_to_win": 1, "max_rounds": 2}, 10),
    ("pacal-solo", {}, 150),
    ("pacal-solo", {"direction": "ascending"}, 50),
    ("temple", {"players": 2}, 4),
    ("temple", {"players": 5}, 2),
    ("mahjongg", {}, 10),
    ("mahjongg", {"layout": SMALL}, 40),
    ("mahjongg", {"layout": SMALL, "players": 2}, 30),
    ("mahjongg", {"layout": SMALL, "players": 3, "mode": "coop"}, 12),
    ("mahjongg", {"layout": SMALL, "mode": "time-attack"}, 25),
    # A layout with face-down tiles (their rows carry no face) and Anubis Shifts.
    ("mahjongg", {"layout": FACE_DOWN}, 20),
]


def _differences(encoder, fast, slow) -> list[str]:
    paths = {row["offset"] + i: row["path"] for row in encoder.describe()
             for i in range(row["size"])}
    return [f"{paths.get(int(i), i)}: fast {fast[i]} view {slow[i]}"
            for i in np.flatnonzero(fast != slow)[:8]]


@pytest.mark.parametrize(("name", "options", "games"), CASES)
def test_the_fast_writer_equals_the_view_encoding(name, options, games) -> None:
    game = pyramids.load(name, **options)
    encoder = encoder_for(game)
    assert encoder.has_fast_writer
    rng = random.Random(11)
    positions = 0
    for seed in range(games):
        state = game.new_initial_state(1000 + seed)
        while True:
            for seat in range(game.num_players):
                fast = encoder.encode(state, seat)
                slow = encoder.encode_from_view(state, seat)
                assert fast.dtype == np.float32 and fast.shape == slow.shape
                assert np.array_equal(fast, slow), (
                    f"{name} {options} seed {1000 + seed} after {state.history()} seat {seat}: "
                    f"{_differences(encoder, fast, slow)}")
            positions += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert positions >= 5 * games  # whole games were played, not just their first positions


@pytest.mark.parametrize(("name", "options"), [
    ("pacal", {}), ("pacal-solo", {}), ("temple", {"players": 3}), ("mahjongg", {"layout": SMALL}),
    ("mahjongg", {"layout": FACE_DOWN}),
])
def test_what_a_seat_cannot_see_never_reaches_its_vector(name, options) -> None:
    game = pyramids.load(name, **options)
    encoder = encoder_for(game)
    rng = random.Random(3)
    checked = 0
    for seed in range(8):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and checked < 200:
            for seat in range(game.num_players):
                twin = state.resample_hidden(seat, random.Random(rng.random()))
                assert twin.view(seat) == state.view(seat)
                assert np.array_equal(encoder.encode(twin, seat), encoder.encode(state, seat))
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 20


def test_every_built_in_game_names_its_writer() -> None:
    for manifest in manifests():
        if manifest.factory.__module__.startswith("pyramids.games."):
            assert manifest.observation_encoder, manifest.name
            assert callable(manifest.companion("observation_encoder"))
