"""The shared game loop: one game, a series, and who won."""

from __future__ import annotations

import pytest

from pyramids.agents import make_agent
from pyramids.core import OptionError, load
from pyramids.sim.play import play_game, play_series, winner_of


def test_play_game_is_deterministic_and_reaches_the_end() -> None:
    game = load("pacal", rounds_to_win=1, max_rounds=2)
    seen: list[tuple[int, int]] = []

    def observer(state, seat, action) -> None:
        assert state.current_player == seat and action in state.legal_actions()
        seen.append((seat, action))

    agents = [make_agent("random", seed=1), make_agent("random", seed=2)]
    final = play_game(game, agents, 5, observer=observer)
    assert final.is_terminal()
    assert [action for _, action in seen] == final.history()
    again = play_game(game, [make_agent("random", seed=1), make_agent("random", seed=2)], 5)
    assert again.history() == final.history()


def test_play_game_needs_one_agent_per_seat() -> None:
    with pytest.raises(OptionError, match="needs 2 agent"):
        play_game(load("pacal"), [make_agent("random")], 1)


@pytest.mark.parametrize(
    ("returns", "winner"),
    [([1.0, -1.0], 0), ([-1.0, 1.0], 1), ([0.0, 0.0], None), ([0.5, 0.5, -1.0], None),
     ([1.0, -0.5, -0.5], 0), ([1.0], 0), ([-1.0], None)],
)
def test_winner_of(returns: list[float], winner: int | None) -> None:
    assert winner_of(returns) == winner


def test_series_counts_add_up_and_repeat() -> None:
    game = load("pacal", rounds_to_win=1, max_rounds=2)
    summary = play_series(game, ["random", "random"], 5, seed=3)
    assert summary.games == 5
    assert sum(summary.wins) + summary.draws == 5
    assert summary.losses == 0
    assert summary.mean_actions > 0
    assert play_series(game, ["random", "random"], 5, seed=3).to_dict() == summary.to_dict()
    other = play_series(game, ["random", "random"], 5, seed=4)
    assert other.total_actions != summary.total_actions or other.wins != summary.wins


def test_solo_series_counts_losses_not_draws() -> None:
    summary = play_series(load("pacal-solo"), ["random"], 20, seed=1, keep_finals=True)
    assert summary.wins[0] + summary.losses == 20 and summary.draws == 0
    assert len(summary.finals) == 20
    for returns, view in summary.finals:
        assert (returns[0] > 0) == view["won"]
