"""The balance report's figures: the round-cap test and the findings it writes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pyramids.core import State, load
from pyramids.sim.arena import GameResult, terminal_metrics
from pyramids.sim.balance import findings, hit_round_cap, player_count_figures, run_balance
from tests.toy_games import load_toy


def _finished(game_name: str, seed: int, **options: object) -> State:
    state = load(game_name, **options).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_round_cap_is_read_from_the_outcome_block() -> None:
    # Two rounds to win, two rounds at most: a match split 1-1 ends at the cap.
    finals = [_finished("pacal", seed, rounds_to_win=2, max_rounds=2) for seed in range(40)]
    capped = [s for s in finals if s.view(None)["round_wins"] == [1, 1]]
    decided = [s for s in finals if max(s.view(None)["round_wins"]) == 2]
    assert capped and decided and len(capped) + len(decided) == len(finals)
    for state in capped:
        assert state.view(None)["outcome"]["capped"] is True
        assert hit_round_cap(terminal_metrics(state))
        assert terminal_metrics(state)["rounds"] == 2
    for state in decided:
        assert not hit_round_cap(terminal_metrics(state))
    assert not hit_round_cap({"rounds": 3})


def _game(index: int, winner: int) -> GameResult:
    returns = [-1.0, -1.0]
    returns[winner] = 1.0
    return GameResult(index=index, deal=index, seats=["g", "g"], returns=returns, length=10,
                      metrics={"rounds": 5, "capped": 1.0}, seconds={}, moves={})


def test_findings_name_a_seat_far_from_its_share_and_the_stalls() -> None:
    lopsided = [_game(i, 0) for i in range(40)] + [_game(40 + i, 1) for i in range(10)]
    report = {"by_players": {"2": player_count_figures(lopsided, ["g"])}}
    notes = findings(report)
    assert any("seat 1 wins 80.0%" in note and "ahead" in note for note in notes)
    assert any("seat 2" in note and "behind" in note for note in notes)
    assert any("50 of 50 games" in note for note in notes)


def test_even_seats_give_no_findings() -> None:
    even = [_game(i, i % 2) for i in range(40)]
    for game in even:
        game.metrics = {}
    assert findings({"by_players": {"2": player_count_figures(even, ["g"])}})[0].startswith(
        "- No seat"
    )


def test_run_balance_covers_each_player_count() -> None:
    report = run_balance("toy-draw", 20, [2, 3], agent="random", loader=load_toy)
    assert set(report["by_players"]) == {"2", "3"}
    three = report["by_players"]["3"]
    assert [s["seat"] for s in three["seats"]] == [0, 1, 2]
    assert three["games"] == 20
    assert three["length_actions"]["mean"] == 6  # two laps of three players


def test_one_agent_plays_each_deal_once() -> None:
    from pyramids.sim.arena import AgentSpec, ArenaJob, run_games

    job = ArenaJob("toy-draw", {"players": 3}, (AgentSpec("random", "random"),), 5, load_toy)
    results = run_games(job, 9, 1)
    assert [result.deal for result in results] == list(range(9))


def test_a_report_is_written_when_a_seat_never_or_always_wins(tmp_path: Path) -> None:
    """Three games that one seat won every time: the plot's error bars are exactly 0 at
    the edges (they were -5.6e-17, and matplotlib refused them: no report at all)."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    from pyramids.sim.balance import write_report

    figures = player_count_figures(
        [GameResult(index=i, deal=i, seats=["g", "g"], returns=[1.0, -1.0], length=5,
                    metrics={}, seconds={}, moves={}) for i in range(3)], ["g"])
    report = {"game": "toy", "agent": "g", "seed": 0, "games_per_count": 3, "options": {},
              "by_players": {"2": figures}}
    path = write_report(report, tmp_path)
    assert path.exists() and (tmp_path / "balance.json").exists()
    assert (tmp_path / "seat_win_rates.png").exists()
    assert figures["seats"][1]["ci95"][0] == 0.0 and figures["seats"][0]["ci95"][1] == 1.0
