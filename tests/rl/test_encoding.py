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


def test_a_game_is_named_as_the_environments_name_it() -> None:
    """`layout_markdown("pacal")` and `encoder_for("pacal")` raised AttributeError ('str'
    object has no attribute 'name'): only a loaded game was taken."""
    assert layout_markdown("temple", players=2) == \
        layout_markdown(pyramids.load("temple", players=2))
    assert encoder_for("mahjongg", layout="giza-step-ramp") is \
        encoder_for(pyramids.load("mahjongg", layout="giza-step-ramp"))
    with pytest.raises(ValueError, match="unknown game 'nope'; allowed games: mahjongg"):
        encoder_for("nope")
    with pytest.raises(ValueError, match="unknown option players; allowed options:"):
        layout_markdown("pacal", players=3)
    with pytest.raises(TypeError, match="options go with a game's name"):
        encoder_for(pyramids.load("pacal"), rounds_to_win=1)


def test_options_beside_a_loaded_game_are_refused_not_ignored() -> None:
    """The environments took a loaded game and options, and ignored the options: the
    learner trained on three round wins where it asked for one."""
    from pyramids.rl import PyramidsAECEnv, PyramidsGymEnv

    loaded = pyramids.load("pacal")
    for make in (lambda: PyramidsAECEnv(loaded, rounds_to_win=1),
                 lambda: PyramidsGymEnv(loaded, opponents="random", rounds_to_win=1)):
        with pytest.raises(TypeError, match=r"options go with a game's name; pacal is "
                                            r"loaded with its own \(.*'rounds_to_win': 3"):
            make()
    assert PyramidsGymEnv("pacal", opponents="random", rounds_to_win=1) \
        .game.options["rounds_to_win"] == 1


@pytest.mark.parametrize(("heading", "game", "options"), [
    ("### pacal (default options)", "pacal", {}),
    ("### pacal-solo (default options)", "pacal-solo", {}),
    ("### temple (default options)", "temple", {}),
    ("### mahjongg (layout=giza-step-ramp)", "mahjongg", {"layout": "giza-step-ramp"}),
])
def test_the_layout_tables_in_the_docs_are_the_encoders_own(
        heading: str, game: str, options: dict[str, object]) -> None:
    """A researcher slices features by the documented offsets: docs/rl.md's tables must
    be what `layout_markdown` prints (they had drifted: 1294 features documented, 1293
    encoded, every Mahjongg offset from 1230 on moved)."""
    from pathlib import Path


    docs = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    section = docs[docs.index(heading) + len(heading):]
    table = section[section.index("| offset |"):section.index(" actions.") + len(" actions.")]
    assert table == layout_markdown(game, **options).strip(), (
        f"docs/rl.md's {game} table is stale: paste pyramids.rl.layout_markdown's output")


def test_temples_swap_zone_cards_are_in_every_seats_observation() -> None:
    """The swap zone is public: a card there that differs gives another vector (the
    zone's slots said only whether a card lay there, not which)."""
    import json

    import numpy as np

    from pyramids.core import load
    from pyramids.rl import encoder_for

    game = load("temple", players=3)
    state = game.new_initial_state(5)
    data = json.loads(state.to_json())
    zone, pile = data["state"]["zone"], data["state"]["pile"]
    other = next(index for index, card in enumerate(pile) if card != zone[0])
    zone[0], pile[other] = pile[other], zone[0]
    changed = game.state_from_json(json.dumps(data))
    assert changed.view(None)["swap_zone"][0] != state.view(None)["swap_zone"][0]
    for fast in (True, False):
        encoder = encoder_for(game, fast=fast)
        for seat in range(3):
            assert not np.array_equal(encoder.encode(state, seat), encoder.encode(changed, seat))
    layout = encoder.layout
    first = layout.slots("swap_zone").first
    kind = state.view(None)["swap_zone"][0]
    assert encoder.encode(state, 0)[layout.choices("swap_zone[i]")[kind]] == 1.0
    assert first == layout.offset("swap_zone[0]?")
