"""benchmarks/paired_runs.py: two solo runs compared on the deals both finished."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def paired() -> ModuleType:
    return load_script("benchmarks/paired_runs.py", "benchmark_paired_runs")


def write_run(path: Path, agent: str, won: dict[int, bool], seed: int = 19,
              cut: bool = False) -> Path:
    header = {"arena": {"agents": [[agent, agent, {}]], "game": "mahjongg",
                        "options": {"layout": "turtle"}, "seed": seed}}
    lines = [json.dumps(header)]
    for deal, cleared in won.items():
        lines.append(json.dumps({"game": {
            "deal": deal, "index": deal, "length": 10, "metrics": {"cleared": float(cleared)},
            "moves": {agent: 10}, "returns": [1.0 if cleared else -1.0], "seats": [agent],
            "seconds": {agent: 0.5}}}))
    text = "\n".join(lines) + "\n"
    path.write_text(text[:-25] if cut else text, encoding="utf-8")
    return path


def test_deals_are_paired_and_counted_once(paired: ModuleType, tmp_path: Path) -> None:
    # Deals 0-5: A wins 0,1,2,3; B wins 2,3,4. Deal 5 only in A: left out.
    a = write_run(tmp_path / "a.jsonl", "built",
                  {0: True, 1: True, 2: True, 3: True, 4: False, 5: True})
    b = write_run(tmp_path / "b.jsonl", "plain",
                  {0: False, 1: False, 2: True, 3: True, 4: True})
    figures = paired.compare(a, b)
    assert figures["deals"] == 5
    assert [row["won"] for row in figures["runs"]] == [4, 3]
    assert (figures["only_first"], figures["only_second"]) == (2, 1)
    assert figures["sign_test_z"] == pytest.approx(1 / 3**0.5)
    assert figures["runs"][0]["ms_per_move"] == pytest.approx(50.0)


def test_a_run_stopped_mid_line_still_compares(paired: ModuleType, tmp_path: Path) -> None:
    a = write_run(tmp_path / "a.jsonl", "built", {0: True, 1: False, 2: True}, cut=True)
    b = write_run(tmp_path / "b.jsonl", "plain", {0: True, 1: True, 2: True})
    assert paired.compare(a, b)["deals"] == 2


def test_runs_of_other_deals_are_refused(paired: ModuleType, tmp_path: Path) -> None:
    a = write_run(tmp_path / "a.jsonl", "built", {0: True})
    b = write_run(tmp_path / "b.jsonl", "plain", {0: True}, seed=20)
    with pytest.raises(SystemExit, match="differ in seed"):
        paired.compare(a, b)
    (tmp_path / "bad.jsonl").write_text('{"arena": {"seed": 1}}\nnot json\n{}\n')
    with pytest.raises(SystemExit, match="line 2: not an arena result"):
        paired.read_run(tmp_path / "bad.jsonl")
