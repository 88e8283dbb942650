"""The Pacal match planner (the `expert` level): rollouts that check `sharp`."""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.agents import make_agent
from pyramids.agents.greedy.pacal import placeable_mask, pyramid_from_view, sharp_scores
from pyramids.agents.pacal_planning import (
    CLEAR_LEAD,
    clearly_better,
    rollout_value,
    round_result,
)
from pyramids.core import OptionError, Rng, load
from pyramids.games.pacal.match import PacalState

# The opponent's pyramid has every field closed but F10, which is empty under a
# visible 6: it can place only a value below 6 (5 is played, under the 6), and a
# card on F10 completes it.
THEIRS = [[47, 48], [43, 44], [39, 40], [35, 36], [31, 32], [27, 28], [19, 20], [11, 12],
          [5, 6], []]
MINE = [[50], [], [], [], [], [], [], [], [], []]


def _kill_position() -> PacalState:
    """Turn 10 of round 2, this player (seat 1) to offer, holding 30 and 25, which the
    opponent cannot place, beside 3, 2 and 1, which it can (and would complete its
    pyramid with)."""
    return PacalState.from_position(load("pacal"), hands=[[30, 25, 3, 2, 1],
                                                          [45, 42, 38, 33, 29]],
                                    pyramids=[MINE, THEIRS], active=0, turn=10,
                                    round_number=2)


def test_the_position_is_what_the_comment_says() -> None:
    placeable = placeable_mask(pyramid_from_view(THEIRS))
    # The mask is of values with a legal field; 5 has one but is never to come.
    assert [v for v in range(1, 51) if placeable >> v & 1] == [1, 2, 3, 4, 5]


def test_a_clear_lead_is_played_without_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _kill_position()
    scores = {state.action_to_string(a): s for a, s in sharp_scores(state).items()}
    ranked = sorted(scores.values(), reverse=True)
    assert scores["offer 25 30"] == ranked[0] == pytest.approx(1.0, abs=0.02)
    assert ranked[0] - ranked[1] > CLEAR_LEAD

    def no_worlds(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the planner sampled worlds for a clear move")

    monkeypatch.setattr(PacalState, "resample_hidden", no_worlds)
    planner = make_agent("planner", seed=1, rollouts=4)
    assert state.action_to_string(planner.step(state)) == "offer 25 30"


def test_close_moves_are_tried_on_worlds_sampled_from_the_players_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = load("pacal").new_initial_state(11)
    me = state.current_player
    scores = sorted(sharp_scores(state).values(), reverse=True)
    assert scores[0] - scores[1] <= CLEAR_LEAD  # a round's first offer is never clear
    asked: list[int | None] = []
    real = PacalState.resample_hidden

    def counted(self: PacalState, player: int | None, rng: Any) -> PacalState:
        asked.append(player)
        return real(self, player, rng)

    monkeypatch.setattr(PacalState, "resample_hidden", counted)
    action = make_agent("planner", seed=1, rollouts=3).step(state)
    assert action in state.legal_actions()
    assert asked == [me, me, me]


def test_the_planner_replays_from_its_seed_and_plays_legal_moves() -> None:
    def play(seed: int) -> list[int]:
        state = load("pacal").new_initial_state(4)
        planners = [make_agent("planner", seed=seed + seat, rollouts=2) for seat in (0, 1)]
        for _ in range(12):
            action = planners[state.current_player].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        return state.history()

    assert play(3) == play(3)


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_a_rollout_with_a_horizon_stops_when_that_turn_begins(seed: int) -> None:
    state = load("pacal").new_initial_state(seed)
    me = state.current_player
    public = state.view(None)
    start = (public["round"], public["turns_played"])
    world = state.clone()
    world.apply_action(world.legal_actions()[0])
    value = rollout_value(world, me, start, Rng(0), horizon=2)
    assert 0.0 <= value <= 1.0
    after = world.view(None)
    if after["round"] == start[0]:
        assert after["phase"] == "offer"
        assert after["turns_played"] == start[1] + 2
        assert value not in (0.0, 1.0)  # judged, not played out
    else:
        assert value in (0.0, 0.5, 1.0)


@pytest.mark.parametrize("seed", [8, 9, 10])
def test_a_rollout_without_a_horizon_plays_the_round_out(seed: int) -> None:
    state = load("pacal").new_initial_state(seed)
    me = state.current_player
    start = (state.view(None)["round"], 0)
    world = state.clone()
    world.apply_action(world.legal_actions()[0])
    value = rollout_value(world, me, start, Rng(0))
    after = world.view(None)
    assert after["round"] == start[0] + 1 or world.is_terminal()
    last = after["last_round"]
    assert last["round"] == start[0]
    expected = 0.5 if last["winner"] is None else float(last["winner"] == me)
    assert value == expected


@pytest.mark.parametrize("horizon", [0, -1, "far", True, 1.5, None])
def test_a_horizon_that_is_neither_end_nor_a_whole_number_is_refused(horizon: Any) -> None:
    with pytest.raises(OptionError, match="horizon") as error:
        make_agent("planner", seed=1, horizon=horizon)
    assert "'end'" in str(error.value)


def test_each_horizon_replays_from_its_seed_and_the_two_play_differently() -> None:
    """`horizon=2` (the expert of 2026-12-02) stops its rollouts two turns on and judges by
    `sharp`'s formula, so somewhere in a round it chooses otherwise than `end`."""
    def play(horizon: int | str) -> list[int]:
        state = load("pacal").new_initial_state(6)
        planners = [make_agent("planner", seed=7 + seat, rollouts=3, horizon=horizon)
                    for seat in (0, 1)]
        while state.view(None)["round"] == 1 and not state.is_terminal():
            state.apply_action(planners[state.current_player].step(state))
        return state.history()

    assert play(2) == play(2)
    assert play(2) != play("end")


def test_a_round_that_ends_in_the_rollout_counts_its_result() -> None:
    ended = {"last_round": {"round": 2, "winner": 1}}
    assert round_result(ended, 1, 2) == 1.0
    assert round_result(ended, 0, 2) == 0.0
    assert round_result({"last_round": {"round": 2, "winner": None}}, 0, 2) == 0.5


@pytest.mark.parametrize(
    ("challenger", "incumbent", "better"),
    [
        ([1.0, 1.0, 1.0, 0.6], [0.5, 0.5, 0.5, 0.5], True),  # ahead on every world
        ([0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5], False),  # the same
        ([1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.9], False),  # ahead on average, by noise
        ([0.4, 0.4, 0.4, 0.4], [0.5, 0.5, 0.5, 0.5], False),  # behind
    ],
)
def test_a_challenger_must_win_clearly_on_the_same_worlds(
        challenger: list[float], incumbent: list[float], better: bool) -> None:
    assert clearly_better(challenger, incumbent) is better
