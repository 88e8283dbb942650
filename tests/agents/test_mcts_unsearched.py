"""A search never tries the moves a game's greedy module leaves out (`UNSEARCHED`).

Mahjongg's solo undo took the `expert` bot (mcts) round a loop: "match", "undo",
"match", "undo"... for ever on mastabat-al-firaun, seed 1000 (found by the layout
difficulty benchmark). Hints and Ra Sight are left out too: they only cost.
"""

from __future__ import annotations

from pyramids.agents import make_agent
from pyramids.agents.greedy import unsearched_moves
from pyramids.core import load
from pyramids.sim.play import play_game


def test_mahjongg_search_leaves_out_undo_hint_and_sight() -> None:
    assert unsearched_moves("mahjongg") == {"undo", "hint", "sight"}
    assert unsearched_moves("pacal") == frozenset()


def test_expert_ends_the_game_that_looped_and_never_undoes() -> None:
    game = load("mahjongg", layout="mastabat-al-firaun")
    tiles = len(game.new_initial_state(1000).view(0)["tiles"])
    final = play_game(game, [make_agent("expert", seed=1000)], 1000, max_actions=3 * tiles)
    moves = [final.action_to_string(a) for a in final.history()]
    assert final.is_terminal()
    assert not {"undo", "hint", "sight"} & set(moves)


def test_expert_never_undoes_over_many_solo_deals() -> None:
    game = load("mahjongg", layout="giza-step-ramp")
    for seed in range(6):
        final = play_game(game, [make_agent("expert", seed=seed)], seed, max_actions=400)
        assert "undo" not in {final.action_to_string(a) for a in final.history()}
