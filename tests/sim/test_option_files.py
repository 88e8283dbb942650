"""A file an option names (`layout=mine.pyr`) is read once, at the start of a run: a
file edited during a long arena or balance run does not mix two versions in one run."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import load
from pyramids.core.errors import Words
from pyramids.core.files import file_as_read, files_as_read
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.sim.arena import AgentSpec, ArenaJob, play_indexed_game, run_arena
from pyramids.sim.balance import report_markdown, run_balance
from pyramids.sim.play import play_series

# Two versions of a designer's layout: 14 tiles, then 4.
FIRST = """pyramids-layout 1
name: mine
layer 0
o.o.o.o.
........
o.o.o.o.
........
o.o.o.o.
........
layer 1
..o.o...
"""
EDITED = """pyramids-layout 1
name: mine
layer 0
o.o.o.o.
........
"""


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in summary.items() if key != "seconds_per_move"}


def editing(path: Path, after: int) -> Callable[[int], None]:
    """An `on_done` that rewrites the layout file once `after` games have finished."""
    done = [0]

    def on_done(count: int) -> None:
        done[0] += count
        if done[0] >= after and path.read_text() != EDITED:
            path.write_text(EDITED)

    return on_done


def test_an_arena_plays_every_game_with_the_file_as_it_was_at_the_start(
        tmp_path: Path) -> None:
    layout = tmp_path / "mine.pyr"
    layout.write_text(FIRST)
    settings: dict[str, Any] = dict(games=4, seed=3, options={"layout": str(layout)})
    whole = run_arena("mahjongg", "random", **settings)
    notes: list[Words] = []
    results = tmp_path / "run.jsonl"
    edited = run_arena("mahjongg", "random", on_done=editing(layout, 1), on_note=notes.append,
                       results_file=results, **settings)
    assert layout.read_text() == EDITED  # the file did change after the first game
    assert figures(edited) == figures(whole)
    # The results file records the content played, not the file as it is at the end.
    header = json.loads(results.read_text().splitlines()[0])["arena"]
    assert header["files"]["layout"]["sha256"] == sha256(FIRST)
    # The designer is told that the run did not play the change.
    assert [str(note) for note in notes] == [
        f"layout={layout} changed during the run (SHA-256 {sha256(FIRST)[:12]} at its start, "
        f"now {sha256(EDITED)[:12]}); every game of the run was played with the file as it "
        "was at the start, not with the change: run again for figures of the changed file"]
    # The edited file gives other figures: played with it, the run would have mixed them.
    assert figures(run_arena("mahjongg", "random", **settings)) != figures(whole)


def test_a_worker_plays_the_content_the_job_carries_not_the_file(tmp_path: Path) -> None:
    """Workers (processes, Ray tasks) get the job pickled: the content travels with it."""
    layout = tmp_path / "mine.pyr"
    layout.write_text(FIRST)
    job = ArenaJob("mahjongg", {"layout": str(layout)}, (AgentSpec("random", "random"),), 5,
                   load)
    expected = [play_indexed_game(job, index) for index in range(3)]
    sent = pickle.loads(pickle.dumps(job))
    layout.write_text(EDITED)
    played = [play_indexed_game(sent, index) for index in range(3)]
    assert [(r.returns, r.length) for r in played] == [(r.returns, r.length) for r in expected]
    # A job made now reads the file as it is now.
    fresh = ArenaJob("mahjongg", {"layout": str(layout)}, (AgentSpec("random", "random"),), 5,
                     load)
    assert [play_indexed_game(fresh, i).length for i in range(3)] != [
        r.length for r in expected]


def test_a_balance_run_plays_every_player_count_with_one_version(tmp_path: Path) -> None:
    layout = tmp_path / "mine.pyr"
    layout.write_text(FIRST)
    settings: dict[str, Any] = dict(agent="random", seed=1, options={"layout": str(layout)})
    whole = run_balance("mahjongg", 2, [2, 3], **settings)
    notes: list[Words] = []
    # The file changes after the first player count's games, before the second's start.
    edited = run_balance("mahjongg", 2, [2, 3], on_done=editing(layout, 2),
                         on_note=notes.append, **settings)
    assert layout.read_text() == EDITED
    assert edited["by_players"] == whole["by_players"]
    assert edited["files"] == {"layout": {"path": str(layout.resolve()),
                                          "sha256": sha256(FIRST)}}
    assert len(notes) == 1 and "changed during the run" in str(notes[0])
    assert run_balance("mahjongg", 2, [2, 3], **settings)["by_players"] != whole["by_players"]
    text = report_markdown(edited, [])
    assert f"`layout` = `{layout.resolve()}`, SHA-256 `{sha256(FIRST)}`" in text


def test_simulate_plays_the_game_it_loaded_once(tmp_path: Path) -> None:
    layout = tmp_path / "mine.pyr"
    layout.write_text(FIRST)
    game = MahjonggGame(layout=str(layout))
    whole = play_series(game, ["random"], 4, seed=2)
    edited = play_series(game, ["random"], 4, seed=2, on_done=editing(layout, 1))
    assert layout.read_text() == EDITED
    assert edited.to_dict() == whole.to_dict()


def test_an_arena_whose_file_did_not_change_says_nothing_of_it(tmp_path: Path) -> None:
    layout = tmp_path / "mine.pyr"
    layout.write_text(FIRST)
    result = CliRunner().invoke(app, ["arena", "mahjongg", "--agents", "random", "-n", "1",
                                      "-o", f"layout={layout}", "--json"])
    assert result.exit_code == 0, result.output
    assert "changed during the run" not in result.stderr  # unchanged: nothing said


def test_files_as_read_gives_the_content_for_the_path_as_given_or_resolved(
        tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.pyr").write_text(EDITED)
    assert file_as_read("mine.pyr") is None
    with files_as_read({"mine.pyr": FIRST.encode()}):
        assert file_as_read("mine.pyr") == FIRST.encode()
        assert file_as_read(tmp_path / "mine.pyr") == FIRST.encode()
        assert file_as_read(os.path.join(".", "other.pyr")) is None
        # The game reads the content, not the file.
        assert MahjonggGame(layout="mine.pyr").layout.size == 14
        with files_as_read({"other.pyr": b"x"}):
            assert file_as_read("mine.pyr") == FIRST.encode()
    assert file_as_read("mine.pyr") is None
    assert MahjonggGame(layout="mine.pyr").layout.size == 4
    # A KMahjongg file as read, too.
    (tmp_path / "mine.layout").write_text("garbage")
    kmahjongg = "kmahjongg-layout-v1.1\nw4\nh2\nd1\n1212\n4343\n"
    with files_as_read({"mine.layout": kmahjongg.encode()}):
        assert MahjonggGame(layout="mine.layout").layout.positions == ((0, 0, 0), (2, 0, 0))
