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
