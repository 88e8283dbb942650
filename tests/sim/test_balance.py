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


def _table(players: int, wins: list[int], shared: int = 0) -> list[GameResult]:
    """Games of one agent at `players` seats: seat s wins wins[s] of them, then
    `shared` games whose top is shared by seats 1 and 2."""
    results = []
    for seat, count in enumerate(wins):
        for _ in range(count):
            returns = [0.0] * players
            returns[seat] = 1.0
            results.append(GameResult(index=len(results), deal=len(results),
                                      seats=["g"] * players, returns=returns, length=10,
                                      metrics={}, seconds={}, moves={}))
    for _ in range(shared):
        returns = [1.0, 1.0] + [0.0] * (players - 2)
        results.append(GameResult(index=len(results), deal=len(results),
                                  seats=["g"] * players, returns=returns, length=10,
                                  metrics={}, seconds={}, moves={}))
    return results


def test_one_seat_far_out_by_chance_among_twelve_is_not_called_unfair() -> None:
    """1,800 fair games at each of 3, 4 and 5 players: one seat of the twelve lands 2.3
    standard deviations high, as one in about fifty seats does by chance. Its own 95%
    interval excludes the fair 20%, but the seats together are even (chi-square p ~ 0.25):
    no finding names it."""
    report = {"by_players": {
        "3": player_count_figures(_table(3, [600, 600, 600]), ["g"]),
        "4": player_count_figures(_table(4, [450, 450, 450, 450]), ["g"]),
        "5": player_count_figures(_table(5, [399, 350, 350, 351, 350]), ["g"]),
    }}
    extreme = report["by_players"]["5"]["seats"][0]
    assert extreme["ci95"][0] > 0.2  # alone, it looks unfair
    assert report["by_players"]["5"]["chi_square"]["p"] > 0.2
    notes = findings(report)
    assert notes[0].startswith("- No seat"), notes
    assert not any("seat 1 wins" in note for note in notes)


def test_a_really_unfair_seat_is_named_with_the_test_used() -> None:
    """4 players, 1,800 games, seat 4 wins 36% against a fair 25%."""
    report = {"by_players": {
        "3": player_count_figures(_table(3, [600, 600, 600]), ["g"]),
        "4": player_count_figures(_table(4, [390, 390, 372, 648]), ["g"]),
    }}
    notes = findings(report)
    assert any(note.startswith("- 4 players: the seats' wins are uneven (chi-square")
               for note in notes)
    assert any("seat 4 wins 36.0%" in note and "ahead of the fair 25.0%" in note
               for note in notes)
    assert not any(note.startswith("- 3 players") for note in notes)
    assert any("Šidák" in note and "chi-square" in note for note in notes)


def test_the_fair_share_counts_shared_wins_as_no_seats() -> None:
    """100 games at 3 players, 10 of them a top shared by two seats: a fair seat wins
    30%, not 33.3%, and seats winning 30 each are even."""
    figures = player_count_figures(_table(3, [30, 30, 30], shared=10), ["g"])
    assert figures["fair_share"] == pytest.approx(0.30)
    assert figures["chi_square"]["p"] == 1.0
    assert figures["shared_wins"] == 10


def test_the_reproduce_command_quotes_what_a_shell_would_split() -> None:
    from pyramids.sim.balance import reproduce_command

    report = {"game": "mahjongg", "agent": "greedy", "seed": 3, "games_per_count": 10,
              "by_players": {"2": {}}, "given_options": {"layout": "my boards/castle.layout",
                                                           "mode": "competitive"}}
    assert reproduce_command(report) == (
        "pyramids balance mahjongg --games 10 --players 2 --agent greedy --seed 3 "
        "--option 'layout=my boards/castle.layout' --option mode=competitive")


def _report(game: str, options: dict[str, object], results: list[GameResult]) -> dict:
    return {"game": game, "agent": "greedy", "seed": 0, "games_per_count": len(results),
            "options": options, "by_players": {"2": player_count_figures(results, ["g"])}}


def test_a_game_without_a_round_cap_gets_no_round_cap_lines() -> None:
    from pyramids.sim.balance import report_markdown

    even = _table(2, [20, 20])
    without = report_markdown(_report("mahjongg", {"mode": "competitive"}, even), [])
    assert "round cap" not in without and "max_rounds" not in without
    assert "Shared wins (games whose top score was shared): 0 at 2 players." in without
    capped = report_markdown(_report("temple", {"max_rounds": 200}, even), [])
    assert "## Games stopped by the round cap" in capped
    assert "no game hit the round cap" in capped


def test_a_report_says_when_a_seat_is_not_the_turn_order() -> None:
    """In Pacal the apex cards, then the last round's loser, decide who starts: seat 1
    is not the first player, and the report says so; in Temple it depends on the rule."""
    from pyramids.sim.balance import report_markdown

    even = _table(2, [20, 20])
    pacal = report_markdown(_report("pacal", {}, even), [])
    assert "revealed apex base card" in pacal and "previous round's loser" in pacal
    assert "previous round's winner" in report_markdown(
        _report("pacal", {"start_rule": "winner"}, even), [])
    lot = report_markdown(_report("temple", {"start_rule": "leader_last"}, even), [])
    assert "drawn by lot" in lot
    assert "drawn by lot" not in report_markdown(
        _report("temple", {"start_rule": "rotate"}, even), [])


def test_a_charts_title_names_the_options_changed_from_the_defaults() -> None:
    from pyramids.sim.balance import chart_title

    even = _table(2, [20, 20])
    # Temple's defaults (max_rounds=200, ...) are not named; nor is the player count,
    # which each table of the chart gives.
    rotate = _report("temple", {**load("temple").options, "start_rule": "rotate",
                                "jewels": 20}, even)
    assert chart_title(rotate, "game length") == (
        "temple (jewels=20, start_rule=rotate): game length")
    defaults = _report("temple", load("temple").options, even)
    assert chart_title(defaults, "game length") == "temple (default options): game length"
    # A long value (a layout file's path) keeps its end: the file's name.
    layout = _report("mahjongg", {"layout": "/home/me/boards/of many kinds/castle.layout"},
                     even)
    assert chart_title(layout, "x") == "mahjongg (layout=…any kinds/castle.layout): x"
    # A game not registered here: its defaults are unknown, every option is named.
    assert chart_title(_report("toy", {"a": 1, "b": 2}, even), "x") == "toy (a=1, b=2): x"


def test_charts_of_runs_with_other_options_are_told_apart(tmp_path: Path) -> None:
    """Two charts of the same figures from runs with different options looked alike once
    saved apart: their titles named the game alone."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    from PIL import Image

    from pyramids.sim.balance import write_plots

    even = _table(2, [20, 20])
    for game in even:
        game.metrics = {"rounds": 5}
    defaults = load("temple").options
    for name, options in (("leader", defaults), ("rotate", {**defaults, "start_rule": "rotate"})):
        (tmp_path / name).mkdir()
        write_plots(_report("temple", options, even), tmp_path / name)
    for chart, what in (("seat_win_rates.png", "seat win rates"),
                        ("game_length.png", "game length")):
        leader = Image.open(tmp_path / "leader" / chart)
        rotate = Image.open(tmp_path / "rotate" / chart)
        # The file says what it shows, in its title and in its PNG Title.
        assert leader.text["Title"].startswith(f"temple (default options): {what}")
        assert rotate.text["Title"].startswith(f"temple (start_rule=rotate): {what}")
        assert leader.tobytes() != rotate.tobytes()


def test_a_long_title_is_wrapped_to_its_chart() -> None:
    from pyramids.sim.balance import _wrapped

    title = "mahjongg (" + ", ".join(f"option_{n}={n}" for n in range(12)) + "): game length"
    lines = _wrapped(title, 6).splitlines()
    assert len(lines) > 1 and " ".join(lines) == title
    assert all(len(line) <= 54 for line in lines)


def test_the_csv_tables_are_the_reports_tables() -> None:
    from pyramids.sim.balance import length_table, report_markdown, seat_table

    report = _report("mahjongg", {}, _table(2, [12, 7]))
    assert seat_table(report) == [["2", "1", "19", "12", "63.2", "41.0", "80.9", "50.0"],
                                  ["2", "2", "19", "7", "36.8", "19.1", "59.0", "50.0"]]
    markdown = report_markdown(report, [])
    assert "| 2 | 1 | 19 | 12 | 63.2% | 41.0% to 80.9% | 50.0% |" in markdown
    # No rounds in this game's final view: empty cells, "-" in the report.
    assert length_table(report) == [["2", "10.0", "10", "10", "10", None, None, None, None]]
    assert "| 2 | 10.0 | 10 | 10 | 10 | - | - | - | - |" in markdown


def test_a_folder_holding_only_a_reports_csv_is_not_written_over(tmp_path: Path) -> None:
    from pyramids.sim.balance import existing_report

    assert existing_report(tmp_path) is None
    (tmp_path / "seat_win_rates.png").write_text("a plot alone is no report")
    assert existing_report(tmp_path) is None
    (tmp_path / "game_length.csv").write_text("players\n")
    assert existing_report(tmp_path) == tmp_path / "game_length.csv"


def test_write_report_says_in_one_line_why_a_folder_cannot_be_written(tmp_path: Path) -> None:
    """It was a traceback (FileExistsError from mkdir, PermissionError from savefig)."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    from pyramids.core import PyramidsError
    from pyramids.sim.balance import write_report

    file = tmp_path / "notes.txt"
    file.write_text("kept")
    report = _report("mahjongg", {}, _table(2, [3, 2]))
    with pytest.raises(PyramidsError) as caught:
        write_report(report, file / "report")
    assert str(caught.value) == (f"cannot write the report to {file / 'report'}: {file} is a "
                                 "file, not a folder; give --out a folder that can be written, "
                                 "or one that can be made")
    assert file.read_text() == "kept"


def test_a_plot_that_fails_half_way_leaves_the_old_one(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    import errno

    from matplotlib.figure import Figure

    from pyramids.core import PyramidsError
    from pyramids.sim.balance import write_report

    (tmp_path / "seat_win_rates.png").write_text("the old plot")

    def disk_full(self: Figure, target: str, **kwargs: object) -> None:
        Path(target).write_text("half a pl")
        raise OSError(errno.ENOSPC, "No space left on device", target)

    monkeypatch.setattr(Figure, "savefig", disk_full)
    with pytest.raises(PyramidsError) as caught:
        write_report(_report("mahjongg", {}, _table(2, [3, 2])), tmp_path)
    assert str(caught.value) == (f"cannot write the report to {tmp_path}: {tmp_path}: the disk "
                                 "is full; give --out a folder that can be written, or "
                                 "one that can be made")
    assert [p.name for p in tmp_path.iterdir()] == ["seat_win_rates.png"]
    assert (tmp_path / "seat_win_rates.png").read_text() == "the old plot"
