"""`pyramids arena --results FILE`: a long run kept game by game, stopped and resumed."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import RecordError
from pyramids.sim import arena
from pyramids.sim.arena import run_arena
from tests.toy_games import load_toy

AGENTS = "mcts:iterations=20,greedy,random"
SETTINGS: dict[str, Any] = dict(seed=7, players=3, loader=load_toy)


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    summary = dict(summary)
    summary.pop("seconds_per_move")
    return summary


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The indices of the games actually played from now on."""
    played: list[int] = []
    real = arena.play_indexed_game

    def play(job: arena.ArenaJob, index: int) -> arena.GameResult:
        played.append(index)
        return real(job, index)

    monkeypatch.setattr(arena, "play_indexed_game", play)
    return played


def test_a_stopped_run_goes_on_and_gives_the_figures_of_one_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run_arena("toy-draw", AGENTS, games=12, **SETTINGS)
    results = tmp_path / "run.jsonl"
    played = counting(monkeypatch)
    first = run_arena("toy-draw", AGENTS, games=5, results_file=results, **SETTINGS)
    assert played == [0, 1, 2, 3, 4] and first["games"] == 5
    lines = results.read_text().splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["arena"]["seed"] == 7
    played.clear()
    resumed = run_arena("toy-draw", AGENTS, games=12, results_file=results, **SETTINGS)
    assert played == list(range(5, 12))  # only the games the file lacked
    assert figures(resumed) == figures(whole)
    # Asked again, nothing is played; asked for fewer, the first games count.
    played.clear()
    assert figures(run_arena("toy-draw", AGENTS, games=12, results_file=results,
                             **SETTINGS)) == figures(whole)
    assert played == []
    assert figures(run_arena("toy-draw", AGENTS, games=5, results_file=results,
                             **SETTINGS)) == figures(first)
    assert len(results.read_text().splitlines()) == 13


def test_two_workers_keep_every_game_once(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    whole = run_arena("toy-draw", AGENTS, games=12, **SETTINGS)
    kept = run_arena("toy-draw", AGENTS, games=12, workers=2, results_file=results, **SETTINGS)
    assert figures(kept) == figures(whole)
    indices = sorted(json.loads(line)["game"]["index"]
                     for line in results.read_text().splitlines()[1:])
    assert indices == list(range(12))


def test_a_line_cut_short_by_a_stop_is_dropped_and_the_game_played_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=4, results_file=results, **SETTINGS)
    kept = results.read_bytes()
    with results.open("a") as stream:
        stream.write('{"game": {"deal": 1, "ind')  # the process died while writing game 4
    played = counting(monkeypatch)
    notes: list[str] = []
    summary = run_arena("toy-draw", AGENTS, games=6, results_file=results,
                        on_note=lambda words: notes.append(str(words)), **SETTINGS)
    assert played == [4, 5]
    assert figures(summary) == figures(run_arena("toy-draw", AGENTS, games=6, **SETTINGS))
    assert all(json.loads(line) for line in results.read_text().splitlines())
    # The games kept before it are the same bytes; the player is told what went.
    assert results.read_bytes().startswith(kept)
    assert notes == [f'{results}, line 6: dropped an unfinished line that a stopped run was '
                     'writing ({"game": {"deal": 1, "ind); its game is played again']


def test_a_whole_last_line_without_its_newline_is_kept_and_the_next_game_starts_a_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=4, results_file=results, **SETTINGS)
    results.write_text(results.read_text()[:-1])  # stopped before the line's newline
    played = counting(monkeypatch)
    notes: list[object] = []
    summary = run_arena("toy-draw", AGENTS, games=6, results_file=results,
                        on_note=notes.append, **SETTINGS)
    assert played == [4, 5] and notes == []
    assert figures(summary) == figures(run_arena("toy-draw", AGENTS, games=6, **SETTINGS))
    played.clear()
    run_arena("toy-draw", AGENTS, games=6, results_file=results, **SETTINGS)  # read again
    assert played == [] and len(results.read_text().splitlines()) == 7


@pytest.mark.parametrize("cut", [1, 30])
def test_a_first_line_cut_short_by_a_stop_starts_the_file_again(
        tmp_path: Path, cut: int) -> None:
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=2, results_file=results, **SETTINGS)
    whole = results.read_text()
    results.write_text(whole[:cut])  # stopped while writing the arena's first line
    notes: list[str] = []
    run_arena("toy-draw", AGENTS, games=2, results_file=results,
              on_note=lambda words: notes.append(str(words)), **SETTINGS)
    lines = results.read_text().splitlines()
    assert lines[0] == whole.splitlines()[0] and len(lines) == 3  # the header, two games
    assert notes == [f"{results}, line 1: dropped an unfinished line that a stopped run was "
                     f"writing ({whole[:cut]}); the file starts again"]


def test_a_broken_line_before_an_unfinished_one_is_damage_and_nothing_is_cut(
        tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=3, results_file=results, **SETTINGS)
    lines = results.read_text().splitlines()
    results.write_text("\n".join([lines[0], lines[1][:20], *lines[2:]]) + '\n{"game": {"de')
    before = results.read_bytes()
    with pytest.raises(RecordError) as caught:
        run_arena("toy-draw", AGENTS, games=3, results_file=results, **SETTINGS)
    assert str(caught.value) == (f"{results}, line 2: not an arena result written by "
                                 "pyramids arena --results; delete that line to play "
                                 "its game again, or give another results file")
    assert results.read_bytes() == before


def test_another_arenas_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=3, results_file=results, **SETTINGS)
    before = results.read_bytes()
    with pytest.raises(RecordError) as caught:
        run_arena("toy-draw", AGENTS, games=3, results_file=results,
                  **{**SETTINGS, "seed": 8})
    assert str(caught.value) == (
        f"{results} holds the games of another arena (toy-draw, --agents "
        "mcts:iterations=20,greedy,random, --seed 7); these settings are toy-draw, --agents "
        "mcts:iterations=20,greedy,random, --seed 8: give another results file")  # players=3 both
    with pytest.raises(RecordError, match="another arena"):
        run_arena("toy-draw", "greedy,random", games=3, results_file=results, **SETTINGS)
    # Told apart by an option alone, the two read differently.
    with pytest.raises(RecordError, match=r"-o players=3\); these settings .* -o players=2"):
        run_arena("toy-draw", AGENTS, games=3, results_file=results,
                  **{**SETTINGS, "players": 2})
    assert results.read_bytes() == before


@pytest.mark.parametrize(("damage", "line"), [
    (lambda lines: [lines[0], "not json", *lines[1:]], 2),
    (lambda lines: [lines[0], '{"game": {"index": 1}}', *lines[1:]], 2),
    (lambda lines: lines[1:], 1),  # no header
    (lambda lines: [*lines[:2], lines[2].replace('"seats": ["greedy"', '"seats": ["gredy"')], 3),
    (lambda lines: [*lines[:2], lines[2].replace('"returns": [', '"returns": ["x", ', 1)], 3),
    (lambda lines: [*lines[:2], lines[2].replace('"metrics": {', '"metrics": [{', 1)
                    .replace('}, "moves"', '}], "moves"', 1)], 3),
])
def test_a_damaged_file_is_refused_with_the_line(tmp_path: Path, damage: Any,
                                                 line: int) -> None:
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=3, results_file=results, **SETTINGS)
    results.write_text("\n".join(damage(results.read_text().splitlines())) + "\n")
    before = results.read_bytes()
    with pytest.raises(RecordError) as caught:
        run_arena("toy-draw", AGENTS, games=3, results_file=results, **SETTINGS)
    assert str(caught.value) == (f"{results}, line {line}: not an arena result written by "
                                 "pyramids arena --results; delete that line to play "
                                 "its game again, or give another results file")
    assert results.read_bytes() == before


def test_a_damaged_line_deleted_as_the_refusal_says_plays_its_game_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal's advice holds: without the damaged line, its game alone is played
    again and the figures are those of one whole run."""
    whole = run_arena("toy-draw", AGENTS, games=4, **SETTINGS)
    results = tmp_path / "run.jsonl"
    run_arena("toy-draw", AGENTS, games=4, results_file=results, **SETTINGS)
    lines = results.read_text().splitlines()
    damaged = json.loads(lines[2])["game"]["index"]
    results.write_text("\n".join([*lines[:2], "not json", *lines[3:]]) + "\n")
    with pytest.raises(RecordError, match="line 3: .*delete that line"):
        run_arena("toy-draw", AGENTS, games=4, results_file=results, **SETTINGS)
    results.write_text("\n".join([*lines[:2], *lines[3:]]) + "\n")
    played = counting(monkeypatch)
    assert figures(run_arena("toy-draw", AGENTS, games=4, results_file=results,
                             **SETTINGS)) == figures(whole)
    assert played == [damaged]


def test_the_command_line_resumes_and_refuses_in_korean(tmp_path: Path) -> None:
    runner = CliRunner()
    results = tmp_path / "pacal.jsonl"
    args = ["arena", "pacal", "--agents", "greedy,random", "--option", "rounds_to_win=1",
            "--seed", "3", "--results", str(results), "--json"]
    first = runner.invoke(app, [*args, "-n", "2"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, [*args, "-n", "4"])
    fresh = runner.invoke(app, [*args[:-3], "--json", "-n", "4"])
    assert second.exit_code == 0 and fresh.exit_code == 0, second.output
    assert (figures(json.loads(second.output.splitlines()[-1]))
            == figures(json.loads(fresh.output.splitlines()[-1])))
    other = runner.invoke(app, ["--lang", "ko", *args[:6], "--seed", "4",
                                "--results", str(results), "-n", "4"])
    assert other.exit_code == 2
    assert other.output.strip().startswith("오류: ")
    assert "다른 아레나" in other.output and str(results) in other.output


@pytest.mark.parametrize("text", ["my notes", "\nmy notes", '{"arena": 1}\n{"game',
                                  '{"arena": {"agents": [["other"'])
def test_a_file_that_is_not_a_results_file_is_never_cut_or_written(tmp_path: Path,
                                                                  text: str) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text(text)
    with pytest.raises(RecordError):
        run_arena("toy-draw", AGENTS, games=2, results_file=notes, **SETTINGS)
    assert notes.read_text() == text


def test_a_results_file_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as caught:
        run_arena("toy-draw", AGENTS, games=2, results_file=tmp_path / "no" / "run.jsonl",
                  **SETTINGS)
    assert str(caught.value) == (f"{tmp_path / 'no' / 'run.jsonl'}: cannot write the results "
                                 "file: there is no such file or folder")


def test_the_command_line_says_in_korean_what_it_dropped(tmp_path: Path) -> None:
    runner = CliRunner()
    results = tmp_path / "pacal.jsonl"
    args = ["arena", "pacal", "--agents", "greedy,random", "--option", "rounds_to_win=1",
            "--results", str(results), "--json", "-n"]
    assert runner.invoke(app, [*args, "2"]).exit_code == 0
    with results.open("a") as stream:
        stream.write('{"game": {"deal"')
    again = runner.invoke(app, ["--lang", "ko", *args, "3"])
    assert again.exit_code == 0, again.output
    assert f'{results}, 4번째 줄: ' in again.output and '({"game": {"deal")' in again.output
    assert len(results.read_text().splitlines()) == 4


def test_a_layout_file_edited_between_runs_is_refused(tmp_path: Path) -> None:
    """The option names the file, not its content: a results file records the file's
    SHA-256 (and its resolved path), and a run after the file changed is refused rather
    than mixing games of two layouts in one table. Put back as it was, it goes on."""
    runner = CliRunner()
    layout = tmp_path / "mine.pyr"
    assert runner.invoke(app, ["layout", "convert", "giza-step-ramp", "-o",
                               str(layout)]).exit_code == 0
    original = layout.read_text()
    results = tmp_path / "run.jsonl"
    args = ["arena", "mahjongg", "--agents", "random", "--players", "2", "-o",
            f"layout={layout}", "--results", str(results), "--json"]
    first = runner.invoke(app, [*args, "-n", "1"])
    assert first.exit_code == 0, first.output
    header = json.loads(results.read_text().splitlines()[0])["arena"]
    assert header["files"]["layout"]["path"] == str(layout.resolve())
    assert len(header["files"]["layout"]["sha256"]) == 64
    layout.write_text(original.replace("giza-step-ramp", "giza-step-ramp-2", 1))
    before = results.read_bytes()
    changed = runner.invoke(app, [*args, "-n", "2"])
    assert changed.exit_code == 2
    assert f"layout={layout} as it was then" in changed.stderr
    assert "that file has changed since" in " ".join(changed.stderr.split())
    assert results.read_bytes() == before
    layout.write_text(original)
    assert runner.invoke(app, [*args, "-n", "2"]).exit_code == 0
    # A file written before headers recorded the content cannot be checked: refused.
    lines = results.read_text().splitlines()
    del header["files"]
    results.write_text("\n".join([json.dumps({"arena": header}), *lines[1:]]) + "\n")
    unchecked = runner.invoke(app, [*args, "-n", "3"])
    assert unchecked.exit_code == 2
    assert "does not record the content of layout=" in unchecked.stderr


def test_a_file_without_file_options_keeps_its_old_header() -> None:
    """No option names a file: the header is what it always was, so older results files
    still match."""
    job = arena.ArenaJob("toy-draw", {"players": 3}, (), 7, load_toy)
    assert set(arena.job_header(job)) == {"game", "options", "agents", "seed"}


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a disk that is full")
def test_a_full_disk_is_said_in_words_when_a_game_cannot_be_kept() -> None:
    """A results file on a full disk once ended a run in an OSError traceback (and,
    closing the file, a second one)."""
    from pyramids.sim.results import ResultsFormat, results_writer

    form: ResultsFormat[int, Any] = ResultsFormat("arena", {"game": "pacal"},
                                                  lambda data: (0, data))
    with pytest.raises(RecordError) as caught, results_writer(Path("/dev/full"), form) as keep:
        keep({"index": 0})
    assert str(caught.value) == "/dev/full: cannot write the results file: the disk is full"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_device_or_a_pipe_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """`--results /dev/full` was read until memory ran out, and a named pipe waited for
    ever for a writer: a results file must be a file."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def write_junk_later() -> None:
        # Without the check the run blocks reading the pipe; this lets it go on.
        time.sleep(1.0)
        try:
            descriptor = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # nobody reading: the run refused the pipe first
            return
        os.write(descriptor, b"junk\n")
        os.close(descriptor)

    writer = threading.Thread(target=write_junk_later)
    writer.start()
    try:
        with pytest.raises(RecordError) as caught:
            run_arena("toy-draw", AGENTS, games=2, results_file=pipe, **SETTINGS)
    finally:
        writer.join()
    assert str(caught.value) == (f"{pipe} is not a file but a device or a pipe; a results "
                                 "file keeps a run's games to go on from: give the path of "
                                 "a file")
    runner = CliRunner()
    korean = runner.invoke(app, ["--lang", "ko", "arena", "pacal", "--agents", "random",
                                 "-n", "1", "--results", str(pipe)])
    assert korean.exit_code == 2 and korean.stderr.startswith("오류: "), korean.output
