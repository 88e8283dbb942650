"""The arena: its schedule, outcomes, pairwise scores and worker-independent results."""

from __future__ import annotations

import pytest

from pyramids.core import OptionError
from pyramids.sim.arena import (
    AgentSpec,
    GameResult,
    lineups,
    pairwise_scores,
    parse_agents,
    resolve_game,
    run_arena,
    seat_outcome,
    summarize,
)
from tests.toy_games import load_toy


def result(index: int, seats: list[str], returns: list[float], deal: int = 0) -> GameResult:
    return GameResult(index=index, deal=deal, seats=seats, returns=returns, length=1,
                      metrics={}, seconds={}, moves={})


def test_two_agents_two_seats_rotate() -> None:
    assert lineups(["a", "b"], 2) == [("a", "b"), ("b", "a")]


def test_three_agents_two_seats_play_every_pair_both_ways() -> None:
    assert lineups(["a", "b", "c"], 2) == [
        ("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")
    ]


def test_fewer_agents_than_seats_repeats_the_last() -> None:
    tables = lineups(["mcts", "greedy"], 4)
    assert tables[0] == ("mcts", "greedy", "greedy", "greedy")
    # mcts sits in every seat once.
    assert sorted(t.index("mcts") for t in tables) == [0, 1, 2, 3]


def test_one_agent_in_every_seat_is_one_lineup_so_each_deal_is_played_once() -> None:
    """Its P rotations are the same seating: playing each deal P times counted one deal
    as P independent games (intervals too narrow by about sqrt(P))."""
    assert lineups(["greedy"], 4) == [("greedy",) * 4]
    assert lineups(["a", "b"], 3) == [("a", "b", "b"), ("b", "b", "a"), ("b", "a", "b")]


def test_solo_lineups_are_one_agent_each() -> None:
    assert lineups(["a", "b"], 1) == [("a",), ("b",)]


@pytest.mark.parametrize(
    ("returns", "seat", "outcome"),
    [
        ([1, -1], 0, "win"),
        ([1, -1], 1, "loss"),
        ([0, 0], 0, "draw"),
        ([0.5, 0.5, -1], 1, "draw"),
        ([0.5, 0.5, -1], 2, "loss"),
        ([3], 0, "win"),
        ([0], 0, "draw"),
        ([-1], 0, "loss"),
        # A team's result (co-op): every seat won, or every seat lost.
        ([1, 1], 1, "win"),
        ([-1, -1, -1], 2, "loss"),
    ],
)
def test_seat_outcome(returns: list[float], seat: int, outcome: str) -> None:
    assert seat_outcome(returns, seat) == outcome


def test_a_co_op_table_at_a_player_count_plays_and_counts_the_teams_result() -> None:
    """`--players 2 --option mode=coop` was refused ('coop is for 2 to 4 players, not
    1'), and a team that lost every game was counted as drawing them."""
    from pyramids.sim.play import play_series

    game, chosen = resolve_game("mahjongg", {"mode": "coop"}, 2)
    assert chosen == {"mode": "coop", "players": 2} and game.num_players == 2
    summary = play_series(game, ["greedy", "greedy"], games=4, seed=2)
    team = [summary.wins[0]] * 2
    assert summary.wins == team and summary.draws == 0
    assert summary.wins[0] + summary.losses == 4


def test_pairwise_scores_by_hand() -> None:
    results = [
        result(0, ["a", "b", "b"], [1.0, -0.5, -0.5]),  # a beats both b seats; b-b ignored
        result(1, ["b", "a", "b"], [0.5, -1.0, 0.5]),  # both b seats beat a
    ]
    scores = pairwise_scores(results)
    assert scores == {("a", "b"): 2.0, ("b", "a"): 2.0}


def test_pairwise_scores_compare_solo_agents_on_the_same_deal() -> None:
    results = [
        result(0, ["a"], [1.0], deal=0),
        result(1, ["b"], [-1.0], deal=0),
        result(2, ["a"], [1.0], deal=1),
        result(3, ["b"], [1.0], deal=1),
    ]
    assert pairwise_scores(results) == {("a", "b"): 1.5, ("b", "a"): 0.5}


def test_summary_counts_by_hand() -> None:
    results = [
        result(0, ["a", "b"], [1.0, -1.0]),
        result(1, ["b", "a"], [0.0, 0.0]),
        result(2, ["a", "b"], [-1.0, 1.0], deal=1),
    ]
    summary = summarize(results, ["a", "b"], elo_prior_games=0.0)
    a = summary["agents"]["a"]
    assert (a["wins"], a["draws"], a["losses"], a["games"]) == (1, 1, 1, 3)
    assert a["win_rate"] == pytest.approx(1 / 3)
    assert summary["agents"]["a"]["elo"] == pytest.approx(1500)
    assert [s["wins"] for s in summary["seats"]] == [1, 1]


def test_parse_agents_labels_and_options() -> None:
    specs = parse_agents("mcts:iterations=20:rollout=greedy,greedy,greedy")
    assert specs[0] == AgentSpec("mcts:iterations=20:rollout=greedy", "mcts",
                                 {"iterations": 20, "rollout": "greedy"})
    assert [s.label for s in specs[1:]] == ["greedy", "greedy#2"]


@pytest.mark.parametrize("text", ["nobody", "random,,greedy", "mcts:iterations"])
def test_parse_agents_rejects_bad_input(text: str) -> None:
    with pytest.raises(OptionError):
        parse_agents(text)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    kwargs = dict(games=12, seed=7, players=3, loader=load_toy)
    agents = "mcts:iterations=30,greedy,random"
    one = run_arena("toy-draw", agents, workers=1, **kwargs)  # type: ignore[arg-type]
    two = run_arena("toy-draw", agents, workers=2, **kwargs)  # type: ignore[arg-type]
    for summary in (one, two):
        summary.pop("seconds_per_move")
    assert one == two
    assert one["games"] == 12
    assert sum(a["games"] for a in one["agents"].values()) == 36


def test_another_seed_gives_other_games() -> None:
    first = run_arena("toy-draw", "random,random", games=30, seed=1, loader=load_toy)
    second = run_arena("toy-draw", "random,random", games=30, seed=2, loader=load_toy)
    assert first["agents"] != second["agents"]


def test_mcts_beats_random_at_nim() -> None:
    summary = run_arena("toy-nim", "mcts:iterations=150,random", games=10, loader=load_toy)
    mcts = summary["agents"]["mcts:iterations=150"]
    assert mcts["wins"] == 10
    assert mcts["elo"] > summary["agents"]["random"]["elo"]


def test_solo_arena_plays_each_agent_on_the_same_deals() -> None:
    summary = run_arena("toy-draw", "mcts:iterations=40,random", games=40, players=1,
                        loader=load_toy)
    assert summary["agents"]["mcts:iterations=40"]["games"] == 20
    assert summary["agents"]["random"]["games"] == 20
    assert (summary["agents"]["mcts:iterations=40"]["win_rate"]
            > summary["agents"]["random"]["win_rate"])


def test_players_option_is_checked() -> None:
    with pytest.raises(OptionError):
        run_arena("toy-nim", "random", games=1, players=3, loader=load_toy)
