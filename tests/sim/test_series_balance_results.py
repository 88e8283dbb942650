"""`pyramids simulate --results FILE` and `pyramids balance --results FILE`: a long run
kept game by game, stopped and resumed, with the arena's guarantees."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import RecordError
from pyramids.sim import arena, play
from pyramids.sim.arena import run_arena
from pyramids.sim.balance import run_balance
from pyramids.sim.play import play_series
from tests.toy_games import load_toy

runner = CliRunner()
AGENTS = ["mcts:iterations=20", "greedy", "random"]


def series(games: int, seed: int = 7, **kwargs: Any) -> dict[str, Any]:
    game = load_toy("toy-draw", players=3)
    return play_series(game, AGENTS, games, seed, **kwargs).to_dict()


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """The indices of the games actually played from now on."""
    played: list[int] = []
    real = getattr(module, name)

    def work(job: Any, index: int) -> Any:
        played.append(index)
        return real(job, index)

    monkeypatch.setattr(module, name, work)
    return played


# --- simulate ---------------------------------------------------------------------------


def test_a_stopped_series_goes_on_and_gives_the_figures_of_one_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = series(12)
    results = tmp_path / "run.jsonl"
    played = counting(monkeypatch, play, "play_series_game")
    first = series(5, results_file=results)
    assert played == [0, 1, 2, 3, 4] and first == series(5)
    lines = results.read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["simulate"]["seed"] == 7
    played.clear()
    assert series(12, results_file=results) == whole
    assert played == list(range(5, 12))  # only the games the file lacked
    played.clear()
    assert series(12, results_file=results) == whole and played == []
    assert series(5, results_file=results) == first
    assert len(results.read_text().splitlines()) == 13


def test_a_series_line_cut_short_by_a_stop_is_dropped_and_played_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "run.jsonl"
    series(4, results_file=results)
    kept = results.read_bytes()
    with results.open("a") as stream:
        stream.write('{"game": {"final": null, "ind')  # the process died while writing
    played = counting(monkeypatch, play, "play_series_game")
    notes: list[str] = []
    summary = series(6, results_file=results, on_note=lambda words: notes.append(str(words)))
    assert played == [4, 5] and summary == series(6)
    assert results.read_bytes().startswith(kept)
    assert notes == [f'{results}, line 6: dropped an unfinished line that a stopped run was '
                     'writing ({"game": {"final": null, "ind); its game is played again']


def test_another_series_file_is_refused_with_both_settings_and_left_as_it_was(
        tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    series(3, results_file=results)
    before = results.read_bytes()
    with pytest.raises(RecordError) as caught:
        series(3, seed=8, results_file=results)
    assert str(caught.value) == (
        f"{results} holds the games of another run of pyramids simulate (toy-draw, --agents "
        "mcts:iterations=20,greedy,random, --seed 7); these settings are toy-draw, --agents "
        "mcts:iterations=20,greedy,random, --seed 8: give another results file")  # players=3 both
    # An arena's file is not a series' (and the other way round).
    with pytest.raises(RecordError, match=r"the games of pyramids simulate \(toy-draw.*\), "
                       r"not of pyramids arena;"):
        run_arena("toy-draw", ",".join(AGENTS), games=3, seed=7, players=3, loader=load_toy,
                  results_file=results)
    assert results.read_bytes() == before
    arena_file = tmp_path / "arena.jsonl"
    run_arena("toy-draw", ",".join(AGENTS), games=2, seed=7, players=3, loader=load_toy,
              results_file=arena_file)
    with pytest.raises(RecordError, match=r"the games of pyramids arena \(toy-draw.*\), not of "
                       r"pyramids simulate;"):
        series(3, results_file=arena_file)


@pytest.mark.parametrize(("damage", "line"), [
    (lambda lines: [lines[0], "not json", *lines[1:]], 2),
    (lambda lines: [lines[0], '{"game": {"index": 1}}', *lines[1:]], 2),
    (lambda lines: lines[1:], 1),  # no header
    (lambda lines: [*lines[:2], lines[2].replace('"returns": [', '"returns": ["x", ', 1)], 3),
])
def test_a_damaged_series_file_is_refused_with_the_line(tmp_path: Path, damage: Any,
                                                        line: int) -> None:
    results = tmp_path / "run.jsonl"
    series(3, results_file=results)
    results.write_text("\n".join(damage(results.read_text().splitlines())) + "\n")
    before = results.read_bytes()
    with pytest.raises(RecordError) as caught:
        series(3, results_file=results)
    assert str(caught.value) == (f"{results}, line {line}: not a game result written by "
                                 "pyramids simulate --results; delete that line to play "
                                 "its game again, or give another results file")
    assert results.read_bytes() == before


def test_simulate_resumes_from_the_command_line_alone_and_refuses_in_korean(
        tmp_path: Path) -> None:
    results = tmp_path / "solo.jsonl"
    args = ["simulate", "pacal-solo", "--agents", "greedy", "--seed", "3", "--json"]
    first = runner.invoke(app, [*args, "--results", str(results), "-n", "3"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, [*args, "--results", str(results), "-n", "6"])
    fresh = runner.invoke(app, [*args, "-n", "6"])
    assert second.exit_code == 0 and fresh.exit_code == 0, second.output
    # Alone, the final views are kept too: the mean draws of the won games come back.
    assert json.loads(second.output) == json.loads(fresh.output)
    assert len(results.read_text().splitlines()) == 7
    other = runner.invoke(app, ["--lang", "ko", *args[:4], "--seed", "4",
                                "--results", str(results), "-n", "6"])
    assert other.exit_code == 2
    assert other.output.strip().startswith("오류: ") and str(results) in other.output
    assert "다른 pyramids simulate 실행의 게임" in other.output
    # An arena's file is said to be the arena's, not another run of simulate.
    arena_file = tmp_path / "arena.jsonl"
    arena = ["arena", "pacal-solo", "--agents", "greedy", "--seed", "3", "--json", "-n", "2"]
    assert runner.invoke(app, [*arena, "--results", str(arena_file)]).exit_code == 0
    refused = runner.invoke(app, ["--lang", "ko", *args, "--results", str(arena_file),
                                  "-n", "2"])
    assert refused.exit_code == 2
    assert (f"{arena_file}에는 pyramids simulate가 아니라 pyramids arena의 게임이 들어 "
            "있습니다 (pacal-solo, --agents greedy, --seed 3)") in " ".join(
                refused.output.split())


def test_simulate_refuses_a_file_whose_layout_has_changed(tmp_path: Path) -> None:
    layout = tmp_path / "mine.pyr"
    assert runner.invoke(app, ["layout", "convert", "giza-step-ramp", "-o",
                               str(layout)]).exit_code == 0
    original = layout.read_text()
    results = tmp_path / "run.jsonl"
    args = ["simulate", "mahjongg", "--agents", "random", "--players", "2", "-o",
            f"layout={layout}", "--results", str(results), "--json"]
    assert runner.invoke(app, [*args, "-n", "1"]).exit_code == 0
    header = json.loads(results.read_text().splitlines()[0])["simulate"]
    assert header["files"]["layout"]["path"] == str(layout.resolve())
    layout.write_text(original.replace("giza-step-ramp", "giza-step-ramp-2", 1))
    before = results.read_bytes()
    changed = runner.invoke(app, [*args, "-n", "2"])
    assert changed.exit_code == 2
    assert "that file has changed since" in " ".join(changed.stderr.split())
    assert results.read_bytes() == before
    layout.write_text(original)
    assert runner.invoke(app, [*args, "-n", "2"]).exit_code == 0


# --- balance ----------------------------------------------------------------------------


def balance(games: int, counts: list[int | None], seed: int = 5,
            **kwargs: Any) -> dict[str, Any]:
    return run_balance("toy-draw", games, counts, agent="random", seed=seed, loader=load_toy,
                       **kwargs)


def test_a_stopped_balance_run_goes_on_and_gives_the_figures_of_one_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole, four, three = balance(10, [2, 3]), balance(4, [2]), balance(10, [3])
    results = tmp_path / "run.jsonl"
    played = counting(monkeypatch, arena, "play_indexed_game")
    assert balance(4, [2], results_file=results) == four
    assert played == [0, 1, 2, 3]
    played.clear()
    # Stopped at 2 players' fifth game: the rest of 2 players, then all of 3 players.
    assert balance(10, [2, 3], results_file=results) == whole
    assert played == [*range(4, 10), *range(10)]
    played.clear()
    assert balance(10, [2, 3], results_file=results) == whole and played == []
    assert balance(10, [3], results_file=results) == three and played == []
    lines = results.read_text().splitlines()
    assert len(lines) == 21 and json.loads(lines[0])["balance"]["agent"] == "random"


def test_a_balance_line_cut_short_is_dropped_and_another_runs_file_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "run.jsonl"
    balance(3, [2], results_file=results)
    with results.open("a") as stream:
        stream.write('{"game": {"deal": 3')
    notes: list[str] = []
    five = balance(5, [2])
    played = counting(monkeypatch, arena, "play_indexed_game")
    assert balance(5, [2], results_file=results,
                   on_note=lambda words: notes.append(str(words))) == five
    assert played == [3, 4] and len(notes) == 1 and "line 5: dropped an unfinished" in notes[0]
    before = results.read_bytes()
    with pytest.raises(RecordError) as caught:
        balance(5, [2], seed=6, results_file=results)
    assert str(caught.value) == (
        f"{results} holds the games of another run of pyramids balance (toy-draw, --agent "
        "random, --seed 5); these settings are toy-draw, --agent random, --seed 6: give "
        "another results file")
    # Told apart by an option alone, the two read differently.
    with pytest.raises(RecordError, match=r"--seed 5\); these settings are toy-draw, --agent "
                                          r"random, --seed 5 -o players=2: give"):
        balance(5, [2], options={"players": "2"}, results_file=results)
    results.write_text(before.decode().replace('"seats": ["random"', '"seats": ["greedy"', 1))
    damaged = results.read_bytes()
    with pytest.raises(RecordError, match="line 2: not a game result written by pyramids "
                                          "balance --results"):
        balance(5, [2], results_file=results)
    assert results.read_bytes() == damaged


def test_balance_resumes_from_the_command_line(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="needs the sim extra")
    results = tmp_path / "run.jsonl"
    args = ["balance", "temple", "--players", "2,3", "--seed", "2", "--results", str(results),
            "--force"]
    first = runner.invoke(app, [*args, "-n", "2", "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, [*args, "-n", "4", "--out", str(tmp_path / "b")])
    fresh = runner.invoke(app, [*args[:6], "-n", "4", "--out", str(tmp_path / "c")])
    assert again.exit_code == 0 and fresh.exit_code == 0, again.output
    kept = json.loads((tmp_path / "b" / "balance.json").read_text())
    assert kept == json.loads((tmp_path / "c" / "balance.json").read_text())
    assert len(results.read_text().splitlines()) == 1 + 4 + 4
