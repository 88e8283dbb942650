"""`pyramids solve mahjongg`."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import is_clearing_order
from pyramids.games.mahjongg.game import MahjonggGame

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["solve", "mahjongg", *args])


def test_json_verdict_replays_on_the_games_own_deal() -> None:
    for deal in ("solvable", "random"):
        result = invoke("--layout", "turtle", "--seed", "2", "--deal", deal, "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert report["solvable"] is True
        assert report["nodes"] >= 1 and report["seconds"] >= 0
        pairs = []
        for move in report["moves"]:
            word, a, b = move.split()
            assert word == "match"
            pairs.append((int(a), int(b)))
        # The deal is the one the game starts from with the same seed.
        state = MahjonggGame(layout="turtle", deal=deal).new_initial_state(2)
        geometry = load_layout("turtle").geometry
        assert is_clearing_order(geometry, state.faces, pairs)


def test_a_node_limit_gives_null() -> None:
    result = invoke("--seed", "6", "--deal", "random", "--node-limit", "3", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["solvable"] is None and report["moves"] == []


def test_plain_output_and_a_lost_deal() -> None:
    result = invoke("--seed", "128", "--deal", "random")
    assert result.exit_code == 0, result.output
    assert "turtle seed 128 deal=random: unsolvable" in result.output


def test_bad_input_exits_2() -> None:
    assert invoke("--deal", "fair").exit_code == 2
    assert invoke("--layout", "no-such-layout").exit_code == 2
    assert invoke("--node-limit", "0").exit_code == 2
