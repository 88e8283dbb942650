"""Wilson intervals and Bradley-Terry Elo, checked on cases worked by hand."""

from __future__ import annotations

import math

import pytest

from pyramids.sim.stats import bradley_terry_elo, elo_expected, wilson_interval


def test_wilson_half_of_ten() -> None:
    # p = 0.5, n = 10, z = 1.96: centre 0.5, half-width
    # 1.96 * sqrt(0.025 + 1.96^2 / 400) / (1 + 1.96^2 / 10) = 0.26340.
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)


def test_wilson_no_successes_has_upper_bound_z2_over_n_plus_z2() -> None:
    lo, hi = wilson_interval(0, 10)
    z2 = 1.959963984540054**2
    assert lo == 0.0
    assert hi == pytest.approx(z2 / (10 + z2))


def test_wilson_all_successes_mirrors_none() -> None:
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0)
    assert lo == pytest.approx(1 - wilson_interval(0, 10)[1])


@pytest.mark.parametrize("trials", range(1, 200))
def test_wilson_bounds_are_exactly_0_and_1_at_the_edges(trials: int) -> None:
    """Rounding gave 5.6e-17 for no success in 3 and 0.9999999999999999 for 10 of 10,
    so an error bar (rate - low) went below zero and `pyramids balance` crashed."""
    assert wilson_interval(0, trials)[0] == 0.0
    assert wilson_interval(trials, trials)[1] == 1.0
    for successes in range(trials + 1):
        low, high = wilson_interval(successes, trials)
        assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_wilson_narrows_with_more_trials() -> None:
    small = wilson_interval(30, 100)
    large = wilson_interval(300, 1000)
    assert large[1] - large[0] < small[1] - small[0]
    assert small[0] < 0.3 < small[1]


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_three_wins_in_four_is_400_log10_3_apart() -> None:
    ratings = bradley_terry_elo(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0})
    gap = 400 * math.log10(3)  # 190.85: odds of 3 to 1
    assert ratings["a"] == pytest.approx(1500 + gap / 2, abs=1e-3)
    assert ratings["b"] == pytest.approx(1500 - gap / 2, abs=1e-3)
    assert elo_expected(ratings["a"], ratings["b"]) == pytest.approx(0.75, abs=1e-6)


def test_elo_recovers_consistent_strengths_4_2_1() -> None:
    # Scores exactly in Bradley-Terry proportion for strengths 4, 2, 1.
    scores = {
        ("a", "b"): 2.0, ("b", "a"): 1.0,
        ("b", "c"): 2.0, ("c", "b"): 1.0,
        ("a", "c"): 4.0, ("c", "a"): 1.0,
    }
    ratings = bradley_terry_elo(["a", "b", "c"], scores)
    step = 400 * math.log10(2)
    assert ratings["a"] == pytest.approx(1500 + step, abs=1e-3)
    assert ratings["b"] == pytest.approx(1500, abs=1e-3)
    assert ratings["c"] == pytest.approx(1500 - step, abs=1e-3)


def test_elo_draws_and_cycles_are_level() -> None:
    cycle = {("a", "b"): 1.0, ("b", "a"): 0.0, ("b", "c"): 1.0, ("c", "b"): 0.0,
             ("c", "a"): 1.0, ("a", "c"): 0.0}
    ratings = bradley_terry_elo(["a", "b", "c"], cycle)
    for name in "abc":
        assert ratings[name] == pytest.approx(1500, abs=1e-6)


def test_elo_prior_keeps_a_clean_sweep_finite() -> None:
    # 4-0 plus one virtual draw: a scores 4.5 of 5, odds 9 to 1.
    ratings = bradley_terry_elo(["a", "b"], {("a", "b"): 4.0, ("b", "a"): 0.0}, prior_games=1.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(9), abs=1e-3)
    unrated = bradley_terry_elo(["a", "b", "c"], {("a", "b"): 1.0, ("b", "a"): 1.0})
    assert unrated["c"] == pytest.approx(unrated["a"]) == pytest.approx(1500)
