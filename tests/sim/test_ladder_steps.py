"""benchmarks/strength.py's ladder steps: the score, its interval and when a step is met."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    return load_script("benchmarks/strength.py", "benchmark_strength")


def test_a_step_is_met_only_when_its_interval_clears_half(strength: ModuleType) -> None:
    labels = ["low", "high"]
    # 8 of 10 is +241 Elo, but its Wilson interval (0.49-0.94) reaches below a half.
    small = strength.level_steps(labels, {("high", "low"): 8.0, ("low", "high"): 2.0})[0]
    assert small["score"] == pytest.approx(0.8)
    assert small["elo_step"] == pytest.approx(240.8, abs=0.1)
    assert small["ci95"][0] < 0.5 and not small["met"]
    # 80 of 100 is the same step, and now the interval is above a half.
    large = strength.level_steps(labels, {("high", "low"): 80.0, ("low", "high"): 20.0})[0]
    assert large["ci95"][0] > 0.5 and large["met"]
    # 60 of 100 clears a half (0.50 < lower bound) only when the sample is large,
    # and +70 Elo is under the 100 a step needs either way.
    even = strength.level_steps(labels, {("high", "low"): 600.0, ("low", "high"): 400.0})[0]
    assert even["ci95"][0] > 0.5 and even["elo_step"] < 100 and not even["met"]


def test_pairs_score_each_game_by_the_level_whose_seat_won(strength: ModuleType) -> None:
    """`--ladder-pairs`: two seats of each level at a table; a game is 1 to the level
    that won it, 1/2 each when seats of both share the win, whatever the two losers
    did (at one table of the four levels two losers would draw)."""
    from pyramids.sim.arena import GameResult

    def game(seats: list[str], returns: list[float]) -> GameResult:
        seconds = {label: 1.0 for label in seats}
        return GameResult(index=0, deal=0, seats=seats, returns=returns, length=40,
                          metrics={}, seconds=seconds, moves=dict.fromkeys(seats, 10))

    played = [
        game(["easy", "medium", "easy#2", "medium#2"], [-1 / 3, 1.0, -1 / 3, -1 / 3]),
        game(["medium", "easy#2", "medium#2", "easy"], [-1 / 3, -1 / 3, 1.0, -1 / 3]),
        game(["easy#2", "medium#2", "easy", "medium"], [1.0, -1 / 3, -1 / 3, -1 / 3]),
        game(["medium#2", "easy", "medium", "easy#2"], [0.0, 0.0, -1.0, -1.0]),  # shared
        game(["easy", "medium", "easy#2", "medium#2"], [0.0, -1.0, 0.0, -1.0]),  # two easy
    ]
    levels = [strength.as_levels(result) for result in played]
    assert levels[1].seats == ["medium", "easy", "medium", "easy"]
    assert levels[0].seconds == {"easy": 2.0, "medium": 2.0}
    assert levels[0].moves == {"easy": 20, "medium": 20}
    scores = strength.side_scores(levels)
    assert scores[("medium", "easy")] == pytest.approx(2.5)  # games 1, 2 and half of 4
    assert scores[("easy", "medium")] == pytest.approx(2.5)
    step = strength.level_steps(["easy", "medium"], scores)[0]
    assert step["meetings"] == 5 and step["score"] == pytest.approx(0.5)


def test_a_ladder_of_some_levels_plays_their_games_of_the_full_run(strength: ModuleType
                                                                   ) -> None:
    """`--ladder-levels`: each chosen level plays the very deals, with the very seeds,
    it plays in the run of all four, so a level that changed is measured again
    without the expert's games, and the others' figures still hold."""
    options = {"layout": "pharaohs-tomb"}  # where easy loses some deals, not all
    full = strength.ladder("mahjongg", 12, 1, 19, options)
    some = strength.ladder("mahjongg", 12, 1, 19, options, levels=["easy", "hard"])
    assert 0 < some["levels"]["easy"]["wins"] < 12
    assert list(some["levels"]) == ["easy", "hard"] and "ceiling" not in some
    for level in ("easy", "hard"):
        assert {k: some["levels"][level][k] for k in ("wins", "seats", "clear_rate")} == {
            k: full["levels"][level][k] for k in ("wins", "seats", "clear_rate")}
    with pytest.raises(SystemExit):
        strength.ladder("temple", 2, 1, 19, {"players": 2}, levels=["easy"])
