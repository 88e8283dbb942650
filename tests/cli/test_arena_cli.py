"""`pyramids arena` and `pyramids balance` from the command line."""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app

runner = CliRunner()


def test_arena_json_schema() -> None:
    result = runner.invoke(
        app, ["arena", "pacal", "--agents", "greedy,random", "--games", "4", "--seed", "3",
              "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 4
    assert summary["game"] == "pacal"
    assert set(summary["agents"]) == {"greedy", "random"}
    for row in summary["agents"].values():
        assert {"wins", "draws", "losses", "win_rate", "ci95", "elo"} <= set(row)
        assert row["wins"] + row["draws"] + row["losses"] == row["games"] == 4
        lo, hi = row["ci95"]
        assert 0.0 <= lo <= row["win_rate"] <= hi <= 1.0
    assert summary["agents"]["greedy"]["elo"] > summary["agents"]["random"]["elo"]


def test_figures_written_to_a_file_start_with_their_first_line(tmp_path: Path) -> None:
    """`pyramids simulate ... > run.txt` began with an empty line: the progress bar drew
    nothing there but Rich still ended it with a newline."""
    commands = [
        ["simulate", "pacal", "--games", "2"],
        ["arena", "pacal", "--agents", "greedy,random", "--games", "2"],
    ]
    if importlib.util.find_spec("matplotlib") is not None:  # balance needs the sim extra
        commands.append(["balance", "pacal", "--games", "2", "--out", str(tmp_path / "b")])
    for args in commands:
        result = runner.invoke(app, ["--lang", "ko", *args])
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("pacal (기본값)" if args[0] != "balance"
                                        else f"{tmp_path / 'b' / 'report.md'}에 썼습니다")


def test_arena_table_and_workers_agree() -> None:
    args = ["arena", "temple", "--agents", "greedy,random", "--games", "4", "--players", "2",
            "--json"]
    one = json.loads(runner.invoke(app, [*args, "--workers", "1"]).stdout)
    two = json.loads(runner.invoke(app, [*args, "--workers", "2"]).stdout)
    one.pop("seconds_per_move")
    two.pop("seconds_per_move")
    assert one == two
    table = runner.invoke(app, ["arena", "pacal-solo", "--agents", "greedy,random",
                                "--games", "4"])
    assert table.exit_code == 0, table.output
    assert "win rate" in table.stdout and "greedy" in table.stdout
    # Alone, the agents never meet: the table says how they are compared.
    assert "compared deal by deal" in " ".join(table.stdout.split())
    assert "compared deal by deal" not in runner.invoke(
        app, ["arena", "pacal", "--agents", "greedy,random", "--games", "2"]).stdout
    # The header names the options set away from their defaults, as simulate does (it
    # listed all 32 of Mahjongg's); a co-op table at --players 2 plays (it was refused).
    coop = runner.invoke(app, ["arena", "mahjongg", "--players", "2", "--option", "mode=coop",
                               "--agents", "greedy,random", "--games", "2"])
    assert coop.exit_code == 0, coop.output
    assert "mahjongg (mode=coop, players=2): 2 games, 2 seats, seed 0" in coop.stdout


def test_arena_table_in_korean() -> None:
    table = runner.invoke(app, ["--lang", "ko", "arena", "pacal", "--agents", "greedy,random",
                                "--games", "2", "--seed", "1"])
    assert table.exit_code == 0, table.output
    text = " ".join(table.stdout.split())  # the terminal's width may wrap a line
    for words in ("2게임, 2자리, 시드 1", "에이전트", "승률", "자리별 승률", "1번 자리:",
                  "쌍마다 더한 가상 무승부: 1"):
        assert words in text, words
    assert "win rate" not in text and "seat" not in text


@pytest.mark.parametrize(("args", "expected"), [
    (["--agents", "greedy,"], "--agents 'greedy,'에 빈 항목이 있습니다"),
    (["--agents", "mcts:iterations"], "key=value 형식이 아닙니다"),
    (["--agents", "random", "--players", "3"], "pacal은(는) 플레이어 2명만 할 수 있습니다"),
    (["--agents", "random", "--games", "0"], "--games는 1 이상이어야 합니다 (받은 값: 0)"),
    (["--agents", "random", "--address", "ray://x"], "--backend ray와 함께 쓰세요"),
])
def test_arena_bad_input_in_korean(args: list[str], expected: str) -> None:
    result = runner.invoke(app, ["--lang", "ko", "arena", "pacal", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("오류: ") and expected in result.stderr


@pytest.mark.parametrize(("agents", "expected"), [
    ("mcts:iterations=0,greedy", "mcts: iterations은(는) 1 이상이어야 합니다 (받은 값: 0)"),
    ("planner:rollouts=0,greedy", "planner: rollouts은(는) 1 이상이어야 합니다 (받은 값: 0)"),
    ("hard:iterations=3,greedy",
     "난이도 'hard'에는 옵션을 줄 수 없습니다 (정해진 설정입니다); 받은 옵션: iterations"),
    ("mcts:iterationz=3,greedy", "에이전트 'mcts'에는 옵션 'iterationz'이(가) 없습니다; "
                                 "가능한 옵션: clock, exploration, guide, iterations"),
    ("greedy:mistakes=2,random", "greedy: mistakes은(는) 0부터 1까지의 수여야 합니다"),
    ("mcts:rollout=clever,greedy",
     "mcts: rollout='clever'은(는) 쓸 수 없습니다. 허용: random, greedy, lookahead, sharp"),
])
def test_arena_bad_agent_settings_in_korean(agents: str, expected: str) -> None:
    result = runner.invoke(app, ["--lang", "ko", "arena", "pacal", "--agents", agents,
                                 "--games", "2"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stderr.startswith("오류: ") and expected in result.stderr


def test_arena_bad_agent_setting_from_worker_processes_in_korean() -> None:
    """The refusal comes from the workers, which make the agents: its words survive."""
    result = runner.invoke(app, ["--lang", "ko", "arena", "temple", "--agents",
                                 "greedy:policy=sharp,greedy", "--players", "2", "--games", "2",
                                 "--workers", "2"])
    assert result.exit_code == 2
    assert "greedy: policy='sharp'은(는) temple에서 쓸 수 없습니다. temple에서 허용: greedy" \
        in result.stderr


def test_arena_bad_agent_settings_say_what_is_allowed() -> None:
    result = runner.invoke(app, ["arena", "pacal", "--agents", "mcts:iterations=0,greedy",
                                 "--games", "2"])
    assert result.exit_code == 2
    assert "error: mcts: iterations must be at least 1, got 0" in result.stderr
    unknown = runner.invoke(app, ["arena", "pacal", "--agents", "mcts:iterationz=3,greedy",
                                  "--games", "2"])
    assert unknown.exit_code == 2
    assert "Traceback" not in unknown.output
    assert "agent 'mcts' has no option 'iterationz'; allowed options: clock, exploration" \
        in unknown.stderr


def test_arena_bad_input_says_what_is_allowed() -> None:
    unknown = runner.invoke(app, ["arena", "pacal", "--agents", "greedy,nobody"])
    assert unknown.exit_code == 2
    assert "allowed agents" in unknown.stderr
    seats = runner.invoke(app, ["arena", "pacal", "--agents", "random", "--players", "3"])
    assert seats.exit_code == 2
    assert "pacal" in seats.stderr
    games = runner.invoke(app, ["arena", "pacal", "--agents", "random", "--games", "0"])
    assert games.exit_code == 2


def test_balance_writes_a_report_with_plots(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = runner.invoke(
        app, ["balance", "temple", "--games", "6", "--players", "2,3", "--out", str(out),
              "--option", "max_rounds=30"]
    )
    assert result.exit_code == 0, result.output
    report = (out / "report.md").read_text()
    assert "| 3 | 3 |" in report  # the third seat of the 3-player table
    assert "max_rounds" in report
    for plot in ("seat_win_rates.png", "game_length.png"):
        assert (out / plot).read_bytes().startswith(b"\x89PNG")
    figures = json.loads((out / "balance.json").read_text())
    assert set(figures["by_players"]) == {"2", "3"}
    assert figures["by_players"]["2"]["games"] == 6


def test_balance_rejects_bad_player_counts(tmp_path: Path) -> None:
    result = runner.invoke(app, ["balance", "temple", "--players", "two", "--out",
                                 str(tmp_path)])
    assert result.exit_code == 2
    assert "comma-separated" in result.stderr


def _plugin(name: str, value: str) -> Any:
    from importlib import metadata

    from pyramids.agents.base import ENTRY_POINT_GROUP, PluginAgentFactory

    return PluginAgentFactory(metadata.EntryPoint(name, value, ENTRY_POINT_GROUP))


def test_arena_names_the_extra_a_plugin_agent_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramids.agents import base

    monkeypatch.setitem(base._AGENTS, "ghost-bot",
                        _plugin("ghost-bot", "pyramids_no_such_package.bots:make [ghosts]"))
    result = runner.invoke(app, ["arena", "pacal", "--agents", "ghost-bot,greedy", "-n", "2"])
    assert result.exit_code == 2
    assert "ghost-bot" in result.stderr
    assert "pip install 'pyramids[ghosts]'" in result.stderr
    assert "Traceback" not in result.output


def test_openspiel_mcts_is_an_arena_agent_even_without_its_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The installed entry point lists it; without OpenSpiel the arena names the extra."""
    import sys
    from importlib import metadata

    from pyramids.agents import agent_names, base

    (entry,) = [e for e in metadata.entry_points(group=base.ENTRY_POINT_GROUP)
                if e.name == "openspiel-mcts"]
    assert entry.extras == ["openspiel"]
    assert "openspiel-mcts" in agent_names()
    # As if the extra were not installed: importing pyspiel fails.
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    for module in [m for m in sys.modules if m.startswith("pyramids.openspiel")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(base._AGENTS, "openspiel-mcts", base.PluginAgentFactory(entry))
    result = runner.invoke(app, ["arena", "pacal", "--agents", "openspiel-mcts,greedy",
                                 "-n", "2"])
    assert result.exit_code == 2
    assert "pip install 'pyramids[openspiel]'" in result.stderr


def test_reports_say_when_an_agent_thinks_by_the_clock() -> None:
    """An agent with a time budget (plain `mcts`: 0.8 s a move) plays other moves on a
    slower or busier machine, so the seed cannot replay its games: the arena and simulate
    say so under their figures, and a budget of iterations (which replays) gets no note."""
    clocked = runner.invoke(app, ["arena", "pacal", "--agents", "mcts:time=0.01,greedy",
                                  "--games", "2"])
    assert clocked.exit_code == 0, clocked.output
    text = " ".join(clocked.stdout.split())
    assert "Thinking by the clock: mcts:time=0.01. The seed does not replay" in text
    summary = json.loads(runner.invoke(app, ["arena", "pacal", "--agents",
                                             "mcts:time=0.01,greedy", "--games", "2",
                                             "--json"]).stdout)
    assert summary["clock_agents"] == ["mcts:time=0.01"]
    counted = runner.invoke(app, ["arena", "pacal", "--agents", "mcts:iterations=5,greedy",
                                  "--games", "2"])
    assert counted.exit_code == 0 and "clock" not in counted.stdout
    simulated = runner.invoke(app, ["simulate", "pacal", "--agents", "mcts:time=0.01,random",
                                    "--games", "2"])
    assert simulated.exit_code == 0, simulated.output
    assert "Thinking by the clock: mcts:time=0.01." in " ".join(simulated.stdout.split())
    assert "clock" not in runner.invoke(app, ["simulate", "pacal", "--games", "2"]).stdout


def test_a_balance_report_says_when_its_agent_thinks_by_the_clock() -> None:
    from pyramids.sim.balance import report_markdown

    report = {"game": "temple", "agent": "mcts", "seed": 1, "games_per_count": 10,
              "options": {}, "by_players": {}, "thinks_by_clock": True}
    assert "`mcts` thinks by the clock" in report_markdown(report, [])
    assert "clock" not in report_markdown({**report, "agent": "greedy",
                                           "thinks_by_clock": False}, [])


def _reproduce_line(report: str) -> list[str]:
    import shlex

    (line,) = [line for line in report.splitlines() if line.startswith("Reproduce: `")]
    return shlex.split(line.removeprefix("Reproduce: `").split("`")[0])


def test_a_balance_reports_reproduce_line_replays_its_figures(tmp_path: Path) -> None:
    """The printed command, run as printed, plays the same games: every --option
    goes into it (it once dropped them, and played the defaults)."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    first = runner.invoke(app, ["balance", "temple", "--games", "3", "--players", "3",
                                "--option", "start_rule=rotate", "--option", "max_rounds=40",
                                "--seed", "5", "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    command = _reproduce_line((tmp_path / "a" / "report.md").read_text())
    assert command[:3] == ["pyramids", "balance", "temple"]
    assert "start_rule=rotate" in command and "max_rounds=40" in command
    again = runner.invoke(app, [*command[1:], "--out", str(tmp_path / "b")])
    assert again.exit_code == 0, again.output
    a = json.loads((tmp_path / "a" / "balance.json").read_text())
    b = json.loads((tmp_path / "b" / "balance.json").read_text())
    assert b["options"]["start_rule"] == "rotate"
    assert a["by_players"] == b["by_players"] and a["options"] == b["options"]


def test_balance_does_not_write_over_a_report_unless_forced(tmp_path: Path) -> None:
    """A 600-game report was once replaced by a 20-game one without a word."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    out = tmp_path / "report"
    out.mkdir()
    (out / "report.md").write_text("600 games")
    args = ["balance", "temple", "--games", "2", "--players", "2", "--out", str(out)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2
    assert "already holds a balance report" in refused.stderr
    assert str(out / "report.md") in refused.stderr and "--force" in refused.stderr
    assert (out / "report.md").read_text() == "600 games"
    forced = runner.invoke(app, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    assert (out / "report.md").read_text().startswith("# Balance report: temple")


def _csv(path: Path) -> list[dict[str, str]]:
    import csv

    with path.open(newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def test_the_arena_gives_each_seats_win_rate_its_interval() -> None:
    """Every other rate in the arena's table has its 95% Wilson interval; the line of win
    rates by seat had none."""
    args = ["arena", "pacal", "--agents", "greedy,random", "--games", "6", "--seed", "3"]
    summary = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    table = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    text = " ".join(table.stdout.split())
    for seat in summary["seats"]:
        lo, hi = seat["ci95"]
        assert lo < seat["win_rate"] < hi  # 6 games: an interval, not a point
        assert (f"seat {seat['seat'] + 1}: {100 * seat['win_rate']:.1f}% "
                f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)") in text
    korean = runner.invoke(app, ["--lang", "ko", *args], env={"COLUMNS": "200"})
    assert "1번 자리: 50.0% (95% 신뢰구간 " in " ".join(korean.stdout.split())


def test_arena_csv_holds_the_tables_figures(tmp_path: Path) -> None:
    path = tmp_path / "pacal.csv"
    args = ["arena", "pacal", "--agents", "greedy,random", "--games", "6", "--seed", "3"]
    result = runner.invoke(app, [*args, "--csv", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"wrote {path}" in result.stdout
    assert f"wrote {tmp_path / 'pacal-seats.csv'}" in result.stdout
    summary = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    header = path.read_text().splitlines()[0]
    assert header == ("agent,seats_played,wins,draws,losses,win_rate_pct,ci95_low_pct,"
                      "ci95_high_pct,elo,ms_per_move")
    rows = _csv(path)
    assert [row["agent"] for row in rows] == ["greedy", "random"]  # best first, as printed
    for row in rows:
        figures = summary["agents"][row["agent"]]
        assert int(row["seats_played"]) == figures["games"]
        assert int(row["wins"]) == figures["wins"] and int(row["losses"]) == figures["losses"]
        assert row["win_rate_pct"] == f"{100 * figures['win_rate']:.1f}"
        assert [row["ci95_low_pct"], row["ci95_high_pct"]] == [
            f"{100 * bound:.1f}" for bound in figures["ci95"]]
        assert row["elo"] == f"{figures['elo']:.0f}"
        assert float(row["ms_per_move"]) >= 0
        # Plain numbers: the table's "100.0%" is 100.0 here.
        assert "%" not in "".join(row.values())
        # The terminal's table prints the same figures.
        assert f"{row['ci95_low_pct']}-{row['ci95_high_pct']}%" in result.stdout
    seats = _csv(tmp_path / "pacal-seats.csv")
    assert [row["seat"] for row in seats] == ["1", "2"]
    for row, seat in zip(seats, summary["seats"], strict=True):
        assert row["win_rate_pct"] == f"{100 * seat['win_rate']:.1f}"
        assert float(row["ci95_low_pct"]) == round(100 * seat["ci95"][0], 1)
        assert int(row["games"]) == seat["games"] == 6


def test_arena_csv_is_not_written_over_unless_forced(tmp_path: Path) -> None:
    """Refused before any game is played: a table kept from a long run stays as it was."""
    path = tmp_path / "kept.csv"
    path.write_text("400 games")
    args = ["arena", "pacal", "--agents", "greedy,random", "--games", "2", "--csv", str(path)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2
    assert f"error: {path} exists; give --force to replace it" in refused.stderr
    assert path.read_text() == "400 games"
    assert not (tmp_path / "kept-seats.csv").exists()
    # The table by seat is kept as well.
    path.unlink()
    (tmp_path / "kept-seats.csv").write_text("400 games")
    assert runner.invoke(app, args).exit_code == 2
    forced = runner.invoke(app, [*args, "--force", "--json"])
    assert forced.exit_code == 0, forced.output
    json.loads(forced.stdout)  # --json's output stays one JSON object
    assert _csv(path)[0]["agent"] == "greedy"
    assert _csv(tmp_path / "kept-seats.csv")[0]["seat"] == "1"
    missing = runner.invoke(app, ["arena", "pacal", "--agents", "greedy,random", "--games",
                                  "2", "--csv", str(tmp_path / "no" / "such.csv")])
    assert missing.exit_code == 2
    assert "cannot write" in missing.stderr and "Traceback" not in missing.output


def test_arena_csv_alone_has_no_table_by_seat(tmp_path: Path) -> None:
    path = tmp_path / "solo.csv"
    result = runner.invoke(app, ["arena", "pacal-solo", "--agents", "greedy,random",
                                 "--games", "2", "--csv", str(path)])
    assert result.exit_code == 0, result.output
    assert sorted(row["agent"] for row in _csv(path)) == ["greedy", "random"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["solo.csv"]


def test_balance_writes_its_report_in_the_language_asked_for(tmp_path: Path) -> None:
    """`--lang ko` reaches report.md (the figures' files stay for programs), and its
    Reproduce line asks for the same language."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    args = ["balance", "temple", "--games", "2", "--players", "2"]
    for lang in ("en", "ko"):
        result = runner.invoke(app, ["--lang", lang, *args, "--out", str(tmp_path / lang)])
        assert result.exit_code == 0, result.output
    korean = (tmp_path / "ko" / "report.md").read_text(encoding="utf-8")
    assert korean.startswith("# 밸런스 보고서: temple\n")
    assert "`pyramids --lang ko balance temple --games 2 --players 2 " in korean
    assert (tmp_path / "ko" / "balance.json").read_bytes() == (
        tmp_path / "en" / "balance.json").read_bytes()


def test_balance_writes_its_tables_as_csv(tmp_path: Path) -> None:
    """The seat win-rate and game-length tables beside report.md: the same columns and
    figures, plain numbers, seats counted from 1."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    out = tmp_path / "report"
    result = runner.invoke(app, ["balance", "temple", "--games", "4", "--players", "2,3",
                                 "--out", str(out), "--option", "max_rounds=30"])
    assert result.exit_code == 0, result.output
    report = (out / "report.md").read_text()

    def markdown_rows(heading: str) -> list[list[str]]:
        section = report.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
        rows = [line.strip("|").split("|") for line in section.splitlines()
                if line.startswith("| ") and not line.startswith("| players")]
        return [[cell.strip() for cell in row] for row in rows]

    seats = (out / "seat_win_rates.csv").read_text().splitlines()
    assert seats[0] == ("players,seat,games,wins,win_rate_pct,ci95_low_pct,ci95_high_pct,"
                        "fair_share_pct")
    assert len(seats) == 1 + 2 + 3
    expected = []
    for count, seat, games, wins, rate, interval, fair in markdown_rows("Seat win rates"):
        lo, hi = interval.split(" to ")
        expected.append(",".join([count, seat, games, wins,
                                  *(x.removesuffix("%") for x in (rate, lo, hi, fair))]))
    assert seats[1:] == expected
    assert seats[-1].startswith("3,3,4,")
    lengths = (out / "game_length.csv").read_text().splitlines()
    assert lengths[0] == ("players,actions_mean,actions_median,actions_p90,actions_max,"
                          "rounds_mean,rounds_median,rounds_p90,rounds_max")
    assert lengths[1:] == [",".join(row) for row in markdown_rows("Game length")]
    assert [line.split(",")[0] for line in lengths[1:]] == ["2", "3"]


def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played from now on fails the test: a refusal comes before the games."""
    import pyramids.sim.balance

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the refusal")

    monkeypatch.setattr(pyramids.sim.balance, "run_balance", played)


@pytest.mark.parametrize("under", ["", "sub", "sub/deeper"])
def test_balance_refuses_an_out_under_a_file_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, under: str) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    _no_games(monkeypatch)
    file = tmp_path / "notes.txt"
    file.write_text("kept")
    out = file / under if under else file
    result = runner.invoke(app, ["balance", "temple", "--games", "2", "--players", "2",
                                 "--out", str(out)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: cannot write the report to {out}: {file} is a file, not a "
                     "folder; give --out a folder that can be written, or one that can be "
                     "made"]
    assert file.read_text() == "kept" and sorted(tmp_path.iterdir()) == [file]


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder that cannot be written, holding a person's files: a folder made read-only
    (0555), or where that does not stop this user (root), /sys, which no one writes."""
    import tempfile

    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "seat_win_rates.png").write_text("an old plot")
    folder.chmod(0o555)
    try:
        os.close(tempfile.mkstemp(dir=folder)[0])
    except OSError:
        yield folder
    else:  # root writes anywhere it may chmod
        for leftover in folder.glob("tmp*"):
            leftover.unlink()
        try:
            os.close(tempfile.mkstemp(dir="/sys")[0])
        except OSError:
            yield Path("/sys")
        else:
            pytest.skip("no folder here refuses this user")
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("sub", ["", "new/report"])
def test_balance_refuses_a_read_only_out_before_any_game(
        read_only_folder: Path, monkeypatch: pytest.MonkeyPatch, sub: str) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    _no_games(monkeypatch)
    before = {path: path.read_bytes() for path in read_only_folder.glob("*.*")}
    out = read_only_folder / sub if sub else read_only_folder
    result = runner.invoke(app, ["balance", "temple", "--games", "2", "--players", "2",
                                 "--out", str(out)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: cannot write the report to {out}: {read_only_folder}: ")
    assert "Traceback" not in result.output
    assert {path: path.read_bytes() for path in read_only_folder.glob("*.*")} == before
    assert not (read_only_folder / "new").exists()


def _no_arena_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any arena or simulate game played from now on fails the test."""
    import pyramids.cli.games
    import pyramids.sim.arena

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the refusal")

    monkeypatch.setattr(pyramids.sim.arena, "run_arena", played)
    monkeypatch.setattr(pyramids.cli.games, "play_series", played)


@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_a_read_only_csv_folder_is_refused_before_any_game(
        read_only_folder: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """As balance's --out: not a run of hours whose figures are lost at its end."""
    _no_arena_games(monkeypatch)
    before = {path: path.read_bytes() for path in read_only_folder.glob("*.*")}
    path = read_only_folder / "figures.csv"
    result = runner.invoke(app, [command, "pacal", "--agents", "greedy,random", "--games",
                                 "2", "--csv", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: cannot write '{path}': permission denied"]
    assert {path: path.read_bytes() for path in read_only_folder.glob("*.*")} == before


@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_a_folder_given_as_the_csv_file_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """--force replaces a file, never a folder: refused at the start, not at the end."""
    _no_arena_games(monkeypatch)
    (tmp_path / "kept").mkdir()
    result = runner.invoke(app, [command, "pacal", "--agents", "greedy,random", "--games",
                                 "2", "--csv", str(tmp_path / "kept"), "--force"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: cannot write '{tmp_path / 'kept'}': it is a folder, not a file"]
    assert (tmp_path / "kept").is_dir()


@pytest.mark.parametrize(("players", "problem"), [
    (",", "has an empty entry"), (" , ", "has an empty entry"),
    ("2,,3", "has an empty entry"), ("2,3,", "has an empty entry"),
    ("two", "is not a comma-separated list of table sizes"),
    ("2,²", "is not a comma-separated list of table sizes"),
    ("2,x", "is not a comma-separated list of table sizes"),
])
def test_balance_refuses_players_that_name_no_count_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: str, problem: str) -> None:
    """`--players ,` played no game and ended in a plotting library's words ("Number of
    columns must be a positive integer, not 0"), leaving an empty folder; `2,,3` played
    2 and 3 and said nothing of the entry it dropped."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    _no_games(monkeypatch)
    out = tmp_path / "report"
    result = runner.invoke(app, ["balance", "temple", "--games", "2", "--players", players,
                                 "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: --players '{players}' {problem}; allowed: from 2 to 5, comma-separated "
        "(e.g. 2,3,4)"]
    assert not out.exists()


def test_balance_says_which_table_sizes_each_game_has(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    _no_games(monkeypatch)
    for game, allowed in [("pacal", "pacal is played at a table of 2 only"),
                          ("mahjongg", "from 2 to 4, comma-separated (e.g. 2,3,4)")]:
        result = runner.invoke(app, ["balance", game, "--players", "2,,2", "--out",
                                     str(tmp_path / game)])
        assert result.exit_code == 2
        assert result.stderr.strip() == (
            f"error: --players '2,,2' has an empty entry; allowed: {allowed}")
    twice = runner.invoke(app, ["balance", "temple", "--players", "2, 3,3", "--out",
                                str(tmp_path / "t")])
    assert twice.exit_code == 2
    assert twice.stderr.strip() == (
        "error: --players '2, 3,3' names 3 twice; give each table size once")
    korean = runner.invoke(app, ["--lang", "ko", "balance", "temple", "--players", "2,,3",
                                 "--out", str(tmp_path / "k")])
    assert korean.exit_code == 2 and "--players '2,,3'" in korean.stderr
    assert "empty" not in korean.stderr and "allowed" not in korean.stderr


def test_balance_takes_an_agent_setting_as_arena_does(tmp_path: Path) -> None:
    """`--agent mcts:iterations=200` was refused as "unknown agent", as if the name were
    wrong. The setting is played in every seat, by every worker process, and the report,
    its Reproduce line and the results file name it (not the bare name)."""
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    args = ["balance", "temple", "--games", "4", "--players", "2", "--seed", "3"]
    slipping = runner.invoke(app, [*args, "--agent", "greedy:mistakes=0.5", "--out",
                                   str(tmp_path / "a")])
    assert slipping.exit_code == 0, slipping.output
    report = json.loads((tmp_path / "a" / "balance.json").read_text())
    assert report["agent"] == "greedy:mistakes=0.5"
    text = (tmp_path / "a" / "report.md").read_text()
    assert "Every seat played by `greedy:mistakes=0.5`" in text
    command = _reproduce_line(text)
    assert command[command.index("--agent") + 1] == "greedy:mistakes=0.5"
    # Run as printed, in two worker processes: the same figures.
    again = runner.invoke(app, [*command[1:], "--workers", "2", "--out", str(tmp_path / "b")])
    assert again.exit_code == 0, again.output
    shared = json.loads((tmp_path / "b" / "balance.json").read_text())
    assert shared["by_players"] == report["by_players"]
    # The setting was played, not the bare name.
    plain = runner.invoke(app, [*args, "--agent", "greedy", "--out", str(tmp_path / "c")])
    assert plain.exit_code == 0, plain.output
    greedy = json.loads((tmp_path / "c" / "balance.json").read_text())
    assert greedy["by_players"]["2"]["length_actions"] != (
        report["by_players"]["2"]["length_actions"])
    level = runner.invoke(app, [*args, "--agent", "easy", "--out", str(tmp_path / "d")])
    assert level.exit_code == 0, level.output
    assert json.loads((tmp_path / "d" / "balance.json").read_text())["agent"] == "easy"


def test_a_balance_results_file_of_another_agent_setting_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    results = tmp_path / "run.jsonl"
    args = ["balance", "temple", "--games", "2", "--players", "2", "--results", str(results)]
    first = runner.invoke(app, [*args, "--agent", "mcts:iterations=5", "--out",
                                str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    assert json.loads(results.read_text().splitlines()[0])["balance"]["agent"] == (
        "mcts:iterations=5")
    other = runner.invoke(app, [*args, "--agent", "mcts:iterations=6", "--out",
                                str(tmp_path / "b")])
    assert other.exit_code == 2
    assert (f"error: {results} holds the games of another run of pyramids balance (temple, "
            "--agent mcts:iterations=5, --seed 0); these settings are temple, --agent "
            "mcts:iterations=6, --seed 0: give another results file") in " ".join(
                other.stderr.split())


@pytest.mark.parametrize("command", [["arena", "--agents", "random,random"],
                                     ["simulate", "--agents", "random,random"]])
def test_a_results_file_of_another_table_size_names_players_as_given(
        tmp_path: Path, command: list[str]) -> None:
    """A Temple file made with `--players 2` was named `-o players=2` in the refusal (and
    simulate's listed every default option too): the refusal names the settings the way
    they are typed, `--players 2`, and leaves out options both runs share."""
    results = tmp_path / "run.jsonl"
    name, agents, lineup = command[0], command[1:], command[2]
    shown = "random,random#2" if name == "arena" else lineup
    args = [name, "temple", *agents, "--games", "2", "--results", str(results)]
    first = runner.invoke(app, [*args, "--players", "2"])
    assert first.exit_code == 0, first.output
    before = results.read_bytes()
    other = runner.invoke(app, [*args, "--players", "3"] if name == "arena" else
                          [*args[:3], "random,random,random", *args[4:], "--players", "3"])
    assert other.exit_code == 2
    said = " ".join(other.stderr.split())
    theirs = f"(temple, --agents {shown}, --seed 0 --players 2)"
    assert theirs in said, said
    assert "--seed 0 --players 3: give another results file" in said, said
    assert "players=" not in said and "-o " not in said
    assert results.read_bytes() == before
    korean = runner.invoke(app, ["--lang", "ko", *args, "-o", "players=3"] if name == "arena"
                           else ["--lang", "ko", *args[:3], "random,random,random", *args[4:],
                                 "-o", "players=3"])
    assert korean.exit_code == 2
    assert f"{theirs}; 지금 설정은 temple, " in " ".join(korean.stderr.split())


@pytest.mark.parametrize(("agent", "words"), [
    ("mcts:iter=2",
     "error: agent 'mcts' has no option 'iter'; allowed options: clock, exploration, "),
    ("mcts:iterations", "error: agent option 'iterations' in 'mcts:iterations' is not "
                        "key=value (e.g. mcts:iterations=200)"),
    ("mcts:iterations=0", "error: mcts: iterations must be at least 1, got 0"),
    ("hard:x=1", "error: level 'hard' takes no options (it is a fixed setting); got x"),
    ("nobody", "error: unknown agent 'nobody'; allowed agents: determinized, easy, "),
    ("greedy,mcts", "error: --agent 'greedy,mcts' names more than one agent; balance plays "
                    "one agent in every seat (for agents against each other, run pyramids "
                    "arena --agents)"),
])
def test_balance_refuses_a_bad_agent_setting_in_the_arenas_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str, words: str) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    _no_games(monkeypatch)
    result = runner.invoke(app, ["balance", "temple", "--agent", agent, "--out",
                                 str(tmp_path / "r")])
    assert result.exit_code == 2
    assert result.stderr.startswith(words)
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("command", "where", "name"), [
    ("arena", "pyramids.sim.arena", "run_arena"),
    ("simulate", "pyramids.cli.games", "play_series"),
])
def test_json_stays_one_object_when_something_prints_while_the_games_run(
        monkeypatch: pytest.MonkeyPatch, command: str, where: str, name: str) -> None:
    """Ray prints a worker's death to stdout from a thread of its own (it retries the
    games, and the run goes on): `--json > run.json` then held a line before the JSON."""
    import importlib

    module = importlib.import_module(where)
    play = getattr(module, name)

    def play_while_ray_speaks(*args: Any, **kwargs: Any) -> Any:
        print("(raylet) A worker died or was killed while executing a task")
        return play(*args, **kwargs)

    monkeypatch.setattr(module, name, play_while_ray_speaks)
    result = runner.invoke(app, [command, "pacal", "--agents", "greedy,random", "--games", "2",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 2
    assert "(raylet) A worker died" in result.stderr


def _ctrl_c_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Ctrl-C arrives once `games` games have finished, as a person's would mid-run."""
    import contextlib

    import pyramids.cli.arena
    import pyramids.cli.games

    @contextlib.contextmanager
    def progress(*args: Any) -> Iterator[Any]:
        finished = 0

        def advance(count: int) -> None:
            nonlocal finished
            finished += count
            if finished >= games:
                raise KeyboardInterrupt

        yield advance

    monkeypatch.setattr(pyramids.cli.arena, "progress", progress)
    monkeypatch.setattr(pyramids.cli.games, "progress", progress)


@pytest.mark.parametrize("command", [
    ["arena", "pacal", "--agents", "greedy,random"],
    ["simulate", "pacal", "--agents", "greedy,random"],
    ["balance", "temple", "--players", "2"],
])
def test_ctrl_c_says_where_the_finished_games_are_and_how_to_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    """A stopped run once ended in a blank line: the designer could not tell whether the
    games played were kept, nor that the same command goes on."""
    if command[0] == "balance":
        pytest.importorskip("matplotlib", reason="needs the sim extra")
        command = [*command, "--out", str(tmp_path / "report")]
    results = tmp_path / "run.jsonl"
    args = [*command, "--games", "6", "--results", str(results)]
    with monkeypatch.context() as stopping:
        _ctrl_c_after(stopping, 3)
        stopped = runner.invoke(app, args)
        alone = runner.invoke(app, [*command, "--games", "6"])
    assert stopped.exit_code != 0
    assert stopped.stderr.strip().splitlines()[-1] == (
        f"stopped: the games that finished are kept in {results}; give the same command "
        "again to go on from them")
    assert alone.stderr.strip().splitlines()[-1] == (
        "stopped: no game was kept; with --results FILE, a stopped run goes on where it was "
        "when given again")
    assert len(results.read_text().splitlines()) == 1 + 3
    went_on = runner.invoke(app, args)
    assert went_on.exit_code == 0, went_on.output
    assert len(results.read_text().splitlines()) == 1 + 6


@pytest.fixture
def unwritable() -> Iterator[Any]:
    """Makes a file unwritable for this user: read-only (0444), or where that does not
    stop this user (root), immutable (chattr +i)."""
    import subprocess

    made: list[Path] = []

    def make(path: Path) -> None:
        path.chmod(0o444)
        made.append(path)
        try:
            path.open("a").close()
        except OSError:
            return
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("no way here to make a file this user cannot write")

    yield make
    for path in made:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
        path.chmod(0o644)


@pytest.mark.parametrize("command", [
    ["arena", "pacal", "--agents", "greedy,random", "--json"],
    ["simulate", "pacal", "--agents", "greedy,random", "--json"],
    ["balance", "temple", "--players", "2,3"],
])
def test_a_finished_run_kept_read_only_gives_its_figures_again(
        tmp_path: Path, unwritable: Any, command: list[str]) -> None:
    """A results file kept read-only (an archived run, a colleague's) once refused to
    give the figures it holds: 'cannot write the results file: Permission denied',
    though no game was left to write. A run with games to add is still refused before
    any game."""
    if command[0] == "balance":
        pytest.importorskip("matplotlib", reason="needs the sim extra")
        command = [*command, "--out", str(tmp_path / "report"), "--force"]
    results = tmp_path / "run.jsonl"
    args = [*command, "--results", str(results)]
    def figures(result: Any) -> dict[str, Any]:
        assert result.exit_code == 0, result.output
        if command[0] == "balance":
            return dict(json.loads((tmp_path / "report" / "balance.json").read_text()))
        # Seconds a move are measured as the games are played, not kept.
        return {key: value for key, value in json.loads(result.stdout).items()
                if key != "seconds_per_move"}

    first = figures(runner.invoke(app, [*args, "--games", "4"]))
    kept = results.read_bytes()
    unwritable(results)
    assert figures(runner.invoke(app, [*args, "--games", "4"])) == first
    more = runner.invoke(app, [*args, "--games", "5"])
    assert more.exit_code == 2
    assert more.stderr.strip().splitlines() == [
        f"error: {results}: cannot write the results file: permission denied"]
    assert results.read_bytes() == kept


@pytest.mark.parametrize(("command", "written", "option"), [
    (["arena", "pacal", "--agents", "greedy,random", "--csv", "{dir}/run.csv"],
     "run.csv", "--csv"),
    (["arena", "pacal", "--agents", "greedy,random", "--csv", "{dir}/run.csv"],
     "run-seats.csv", "--csv"),
    (["simulate", "pacal", "--agents", "greedy,random", "--csv", "{dir}/run.csv"],
     "run.csv", "--csv"),
    (["balance", "temple", "--players", "2", "--out", "{dir}"], "balance.json", "--out"),
    (["balance", "temple", "--players", "2", "--out", "{dir}"], "game_length.png", "--out"),
])
def test_a_results_file_that_the_figures_would_replace_is_refused_before_any_game(
        tmp_path: Path, command: list[str], written: str, option: str) -> None:
    """--results naming the file --csv (or a report in --out) writes: the figures
    replaced the kept games at the end of the run, --force or not, and the next run
    refused the file as not a results file."""
    if command[0] == "balance":
        pytest.importorskip("matplotlib", reason="needs the sim extra")
    args = [part.format(dir=tmp_path) for part in command]
    results = tmp_path / written
    # A new file, then one that holds games, given with --force.
    for force, kept in (([], None), (["--force"], '{"kept": "games"}\n')):
        if kept is not None:
            results.write_text(kept)
        result = runner.invoke(app, [*args, "--games", "2", "--results", str(results), *force])
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().splitlines() == [
            f"error: --results {results} is also a file that {option} writes ({results}): the "
            "games kept there would be written over; give the results file a name of its own"]
        assert (results.read_text() if results.exists() else None) == kept
