"""Pacal solo's `lookahead` policy: its shape features worked by hand, its one-draw
average, and play through the public API."""

from __future__ import annotations

import math

import pytest

from pyramids.agents import make_agent
from pyramids.agents.greedy import GreedyAgent
from pyramids.agents.greedy.pacal import availability
from pyramids.agents.greedy.pacal_lookahead import (
    completion_chance,
    field_outlook,
    lookahead_scores,
    shape_features,
)
from pyramids.core import load

ALL = set(range(1, 51))


def test_shape_features_of_the_rules_worked_example() -> None:
    # The rules page's example: F1=40, F4=30, F8=10 visible, nothing closed, the
    # other 47 values to come. Runs: F2-F3 between 40 and 30 (9 values), F5-F7
    # between 30 and 10 (19), F9-F10 below 10 (9); 41-50 fit only by covering F1.
    pyramid = ([40, 0, 0, 30, 0, 0, 0, 10, 0, 0], [0] * 10)
    features = shape_features(pyramid, availability(ALL - {40, 30, 10}))
    slack = 2 * math.log(10 / 3) + 3 * math.log(20 / 4) + 2 * math.log(10 / 3)
    expected = [1, 7, 4.9, slack, 0, 0, 3, 0, 4.7, 3, 0.4 + 0.45 + 0.4, 10 / 47, 0.7,
                70 / 47]
    assert features == pytest.approx(expected)


def test_values_between_two_closed_neighbours_are_dead() -> None:
    # F1 shows 40 over 45 and F2 shows 35 over 38: both closed, so 36, 37 and 39
    # (between them) and 41-50 except 45 (above the closed apex) fit nowhere.
    pyramid = ([40, 35, 0, 0, 0, 0, 0, 0, 0, 0], [45, 38, 0, 0, 0, 0, 0, 0, 0, 0])
    unseen = ALL - {40, 45, 35, 38}
    features = shape_features(pyramid, availability(unseen))
    dead_share = 12 / len(unseen)
    assert features[4] == pytest.approx(dead_share)
    assert features[5] == pytest.approx(dead_share * 8)
    assert features[7] == 2  # closed fields
    assert features[11] == 0  # nothing fits only by covering
    # The same shape with both fields open loses less.
    open_fields = ([40, 35, 0, 0, 0, 0, 0, 0, 0, 0], [0] * 10)
    assert completion_chance(open_fields, availability(unseen)) > completion_chance(
        pyramid, availability(unseen))


def test_one_draw_deep_by_hand() -> None:
    # Nine fields full and closed; F10 is empty below 5. Of the four unseen values,
    # 1, 2 and 3 complete the pyramid and 44 fits nowhere: exactly 3/4.
    visible = [50, 45, 40, 35, 30, 25, 20, 15, 5, 0]
    covered = [49, 46, 41, 36, 31, 26, 21, 16, 6, 0]
    assert field_outlook((visible, covered), [1, 2, 3, 44]) == pytest.approx(0.75)
    assert field_outlook(([*visible[:9], 4], covered), [1, 2]) == 1.0  # already full
    assert completion_chance(([*visible[:9], 4], covered), availability({1})) == 1.0


def test_the_field_that_completes_on_more_draws_is_preferred() -> None:
    # F1..F8 full and closed, F9 and F10 empty below 10; the card is 5 and 1, 2 and
    # 7 are unseen. On F9 it leaves F10 for 1-4: the draws 1 and 2 complete the
    # pyramid and 7 can only cover the 5. On F10 it leaves F9 for 6-9: only 7
    # completes, 1 and 2 can only cover the 5.
    visible = [50, 45, 40, 35, 30, 25, 20, 10, 0, 0]
    covered = [49, 46, 41, 36, 31, 26, 21, 11, 0, 0]
    unseen = [1, 2, 7]
    on_f9 = field_outlook(([*visible[:8], 5, 0], covered), unseen)
    on_f10 = field_outlook(([*visible[:9], 5], covered), unseen)
    assert on_f9 > 2 / 3 > on_f10 > 1 / 3


def test_lookahead_scores_name_every_legal_placement() -> None:
    state = load("pacal-solo").new_initial_state(8)
    scores = lookahead_scores(state)
    assert sorted(scores) == sorted(state.legal_actions())
    assert all(0.0 <= score <= 1.0 for score in scores.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lookahead_plays_legal_games_and_replays_from_its_seed(seed: int) -> None:
    game = load("pacal-solo")

    def play() -> list[int]:
        state = game.new_initial_state(seed)
        agent = make_agent("greedy", seed=seed, policy="lookahead")
        actions = []
        while not state.is_terminal():
            action = agent.step(state)
            assert action in state.legal_actions()
            actions.append(action)
            state.apply_action(action)
        return actions

    assert play() == play()


def test_lookahead_in_the_match_plays_greedy_and_is_not_quick() -> None:
    state = load("pacal").new_initial_state(4)
    assert make_agent("greedy", seed=1, policy="lookahead").step(state) in state.legal_actions()
    assert GreedyAgent(policy="lookahead").quick is False
    assert GreedyAgent(policy="sharp").quick is True
    assert GreedyAgent().quick is True
