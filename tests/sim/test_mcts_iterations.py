"""benchmarks/mcts_iterations.py: the iterations an mcts setting makes a move."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("benchmarks/mcts_iterations.py", "benchmark_mcts_iterations")


def test_a_fixed_budget_is_counted_move_by_move(script: ModuleType) -> None:
    runs = script.iterations_by_move("pacal", "mcts:iterations=5:rollout_depth=2", None, 2, 3)
    assert len(runs) == 2
    for counts in runs:
        assert counts and set(counts) <= {0, 5}
        assert counts.count(5) > counts.count(0)  # most Pacal moves have a choice


def test_the_report_leaves_out_moves_with_one_legal_action(
        script: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(script, "iterations_by_move",
                        lambda *args: [[0, 10, 20, 0, 30, 40], [50, 0, 60]])
    monkeypatch.setattr("sys.argv", ["mcts_iterations.py", "pacal"])
    script.main()
    out = capsys.readouterr().out
    assert "6 searched moves in 2 game(s) (3 more had one legal move)" in out
    assert "mean 35, median 35" in out
    # Thirds of each game's searched moves: [10], [20], [30, 40] and [], [50], [60].
    assert "(opening, middle, end): 10, 35, 43" in out


def test_a_setting_that_is_not_mcts_is_refused(script: ModuleType) -> None:
    with pytest.raises(SystemExit, match="not an mcts setting"):
        script.iterations_by_move("pacal", "greedy", None, 1, 1)
