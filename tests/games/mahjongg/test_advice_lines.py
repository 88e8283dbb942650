"""The unsolvable warning read off kept clearing lines answers exactly as the solver does.

`Advice.proven_unsolvable` skips the solver for boards a kept line (the deal's
clearing, a line the solver found, or one mended after a move split two of its
pairs) still clears. These tests hold it to the solver's own answer on every
board of random games, whatever the same game played before, and check that
every line it keeps clears its board.
"""

from __future__ import annotations

import random

import pyramids
from pyramids.games.mahjongg.deal import is_clearing_order
from pyramids.games.mahjongg.solver import solve


def _direct(game, state) -> bool:
    """The warning as the solver alone gives it (no cache, no lines)."""
    if state.face_down & state.present or not state.present:
        return False
    result = solve(game.geometry, state.faces, state.present,
                   pantheon_pairs=game.options["pantheon_pairs"],
                   node_limit=game.options["solver_nodes"])
    return result.solvable is False


def _play(game, seed: int, rng: random.Random, record: list) -> None:
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        record.append((game.advice.proven_unsolvable(state), _direct(game, state),
                       state.view(0).get("unsolvable")))
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_warning_equals_the_solvers_answer_on_every_board() -> None:
    game = pyramids.load("mahjongg")
    rng = random.Random(7)
    record: list = []
    for seed in range(60):
        _play(game, seed, rng, record)
    assert len(record) > 300
    assert all(kept == direct == shown for kept, direct, shown in record)
    # Both answers occur, and most boards were read off a line (no solver call).
    assert any(direct for _, direct, _ in record)
    assert any(not direct for _, direct, _ in record)


def test_views_replay_alike_whatever_the_game_played_before() -> None:
    def views(game, seeds):
        out = []
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                out.append(state.view(0))
                state.apply_action(rng.choice(state.legal_actions()))
        return out

    fresh = views(pyramids.load("mahjongg", solver_nodes=300), [11, 12, 13])
    used = pyramids.load("mahjongg", solver_nodes=300)
    views(used, range(20, 40))  # other games first: their lines and verdicts are kept
    assert views(used, [11, 12, 13]) == fresh


def test_every_kept_line_clears_its_board() -> None:
    game = pyramids.load("mahjongg")
    rng = random.Random(3)
    for seed in range(30):
        _play(game, seed, rng, [])
    lines = game.advice._lines._lines
    assert lines
    for faces, kept in lines.items():
        for board, moves, _turn in kept:
            assert is_clearing_order(game.geometry, faces, moves,
                                     game.options["pantheon_pairs"], present=board)


def test_a_mended_line_is_kept_when_a_move_splits_two_pairs() -> None:
    game = pyramids.load("mahjongg")
    lines = game.advice._lines
    mended = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        faces = tuple(state.faces)
        board, moves, turn = lines._lines[faces][0]  # the deal's clearing
        split = [(a, b) for a, b in state.valid_pairs() if b not in moves[turn[a]]]
        if not split:
            continue
        a, b = split[0]
        left = board & ~(1 << a | 1 << b)
        if lines.clears(faces, left):
            mended += 1
            new_board, new_moves, _ = lines._lines[faces][0]
            assert new_board == left
            assert is_clearing_order(game.geometry, faces, new_moves, present=left)
        else:  # not mended: the warning then asks the solver
            assert len(lines._lines[faces]) == 1
    assert mended


def test_lines_are_kept_for_a_bounded_number_of_deals_newest_last() -> None:
    from pyramids.games.mahjongg.advice import DEALS_KEPT, LINES_PER_FACES

    game = pyramids.load("mahjongg", layout="giza-step-ramp")
    lines = game.advice._lines._lines
    first = tuple(game.new_initial_state(0).faces)
    for seed in range(1, DEALS_KEPT + 20):
        game.new_initial_state(seed)
        game.advice.keep_clearing(first, 0, [])  # a deal still played stays kept
    assert len(lines) == DEALS_KEPT
    assert first in lines and len(lines[first]) == LINES_PER_FACES
    assert tuple(game.new_initial_state(DEALS_KEPT + 20).faces) == list(lines)[-1]
