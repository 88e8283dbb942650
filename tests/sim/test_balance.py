"""The balance report's figures: the round-cap test and the findings it writes."""

from __future__ import annotations

from pyramids.sim.arena import GameResult
from pyramids.sim.balance import findings, hit_round_cap, player_count_figures, run_balance
from tests.toy_games import load_toy


def test_round_cap_is_hit_only_by_an_unfinished_game() -> None:
    assert hit_round_cap({"round": 200, "max_rounds": 200, "built": 7})
    assert not hit_round_cap({"round": 200, "max_rounds": 200, "built": 9})
    assert not hit_round_cap({"round": 12, "max_rounds": 200, "built": 9})
    assert hit_round_cap({"round": 15, "max_rounds": 15})
    assert not hit_round_cap({"turn": 3})


def _game(index: int, winner: int) -> GameResult:
    returns = [-1.0, -1.0]
    returns[winner] = 1.0
    return GameResult(index=index, deal=index, seats=["g", "g"], returns=returns, length=10,
                      metrics={"round": 5, "max_rounds": 5}, seconds={}, moves={})


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
