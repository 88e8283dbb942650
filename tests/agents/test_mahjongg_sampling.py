"""Samples built to clear (`pyramids.agents.mahjongg_sampling`), and `determinized`
with `fill=built`: they keep what the player knows, use exactly the unseen faces,
clear, replay from the seed, and never read a hidden face."""

from __future__ import annotations

from collections import Counter

import pytest

from pyramids.agents import make_agent
from pyramids.agents.determinized import DeterminizedAgent, board_seen, unseen_faces
from pyramids.agents.mahjongg_sampling import built_faces
from pyramids.core import OptionError, Rng
from pyramids.games.mahjongg.deal import is_clearing_order
from pyramids.games.mahjongg.solver import solve
from pyramids.games.mahjongg.state import MahjonggState
from pyramids.games.mahjongg.tiles import NUM_FACES, match_class

from .test_mahjongg_determinized import hidden_game, swapped_hidden


def what_is_known(state: MahjonggState) -> tuple[int, dict[int, int], list[int]]:
    """The present tiles, the faces showing (tile -> face) and the unseen faces."""
    present, known = board_seen(state)
    unseen = unseen_faces(state)
    assert unseen is not None
    return present, known, unseen


def play_greedy(state: MahjonggState, moves: int, seed: int) -> None:
    agent = make_agent("greedy", seed=seed)
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply_action(agent.step(state))


def test_built_samples_keep_the_known_faces_use_the_unseen_ones_and_clear() -> None:
    game = hidden_game("pharaohs-tomb")
    positions = found = 0
    for seed in range(12):
        for moves in (0, 10, 25):
            state = game.new_initial_state(seed)
            play_greedy(state, moves, seed)
            present, known, unseen = what_is_known(state)
            if not solve(game.geometry, state.faces, present_mask=present,
                         node_limit=200_000).solvable:
                continue  # greedy has lost this board: no faces may clear it
            positions += 1
            built = built_faces(game.geometry, present, known, unseen, Rng(seed))
            if built is None:
                continue
            found += 1
            faces, order = built
            assert all(faces[tile] == face for tile, face in known.items())
            hidden = [t for t in range(game.layout.size) if present >> t & 1 and t not in known]
            assert Counter(faces[t] for t in hidden) == Counter(unseen)
            assert is_clearing_order(game.geometry, faces, order, present=present)
    # The builder gives up only within its budget; on boards that clear it rarely does.
    assert positions >= 25
    assert found >= positions - 2


def test_plain_shuffles_of_a_tall_board_do_not_clear_where_built_ones_do() -> None:
    # Why the builder exists: Pharaoh's Tomb's 116 face-down tiles at the start.
    game = hidden_game("pharaohs-tomb")
    state = game.new_initial_state(7)
    present, known, unseen = what_is_known(state)
    rng = Rng(3)
    cleared = 0
    for _ in range(20):
        faces = [known.get(t, -1) for t in range(game.layout.size)]
        drawn = list(unseen)
        rng.shuffle(drawn)
        for tile, face in zip(sorted(set(range(game.layout.size)) - set(known)), drawn,
                              strict=True):
            faces[tile] = face
        cleared += bool(solve(game.geometry, faces, present_mask=present,
                              node_limit=2_000).solvable)
    assert cleared == 0
    assert built_faces(game.geometry, present, known, unseen, rng) is not None


def test_a_built_sample_replays_from_the_generator() -> None:
    game = hidden_game("turtle")
    state = game.new_initial_state(4)
    present, known, unseen = what_is_known(state)
    first = built_faces(game.geometry, present, known, unseen, Rng(9))
    again = built_faces(game.geometry, present, known, unseen, Rng(9))
    other = built_faces(game.geometry, present, known, unseen, Rng(10))
    assert first == again
    assert first != other


def test_faces_that_cannot_pair_give_no_sample() -> None:
    game = hidden_game("turtle")
    state = game.new_initial_state(4)
    present, known, unseen = what_is_known(state)
    # One unseen face too few for the face-down tiles: nothing to build.
    assert built_faces(game.geometry, present, known, unseen[1:], Rng(0)) is None
    # A board of two tiles, both face up, whose faces do not match: never cleared.
    first, second = game.geometry.free_tiles(game.geometry.all_mask)[:2]
    other = next(face for face in range(NUM_FACES) if match_class(face) != match_class(0))
    board = (1 << first) | (1 << second)
    assert built_faces(game.geometry, board, {first: 0, second: other}, [], Rng(0)) is None
    # The same two tiles face down, with a matching pair among the unseen faces: cleared.
    pair = [0, 0]  # two copies of one face
    assert built_faces(game.geometry, board, {}, pair, Rng(0)) is not None


@pytest.mark.parametrize("moves", [0, 20])
def test_fill_built_reads_no_hidden_face(moves: int) -> None:
    game = hidden_game("pharaohs-tomb")
    state = game.new_initial_state(5)
    play_greedy(state, moves, seed=5)
    twin = swapped_hidden(state, seed=3)
    assert twin.faces != state.faces and twin.view(0) == state.view(0)
    first = DeterminizedAgent(seed=2, samples=4, fill="built")
    second = DeterminizedAgent(seed=2, samples=4, fill="built")
    scores = first.pair_scores(state)
    assert scores == second.pair_scores(twin)
    # At the start no shuffle clears, so only built samples vote: some pair has votes.
    assert max(scores.values()) >= 1.0


def test_an_unknown_fill_is_refused_with_the_allowed_ones() -> None:
    with pytest.raises(OptionError, match="fill.*none, built"):
        make_agent("determinized", fill="magic")
