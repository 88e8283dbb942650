"""`pyramids solve mahjongg`."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import is_clearing_order
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.tiles import FACES

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
    assert "pharaohs-tomb seed 128 deal=random: unsolvable" in result.output


def test_bad_input_exits_2() -> None:
    assert invoke("--deal", "fair").exit_code == 2
    assert invoke("--layout", "no-such-layout").exit_code == 2
    assert invoke("--node-limit", "0").exit_code == 2


def test_game_options_are_given_with_o_as_every_other_command_takes_them() -> None:
    # -o deal=random is the deal `play mahjongg -o deal=random` starts from.
    result = invoke("--seed", "2", "-o", "deal=random", "-o", "layout=turtle", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["layout"], report["deal"], report["pantheon_pairs"]) == (
        "turtle", "random", True)
    state = MahjonggGame(layout="turtle", deal="random").new_initial_state(2)
    pairs = [(int(a), int(b)) for _, a, b in (move.split() for move in report["moves"])]
    assert is_clearing_order(load_layout("turtle").geometry, state.faces, pairs)
    # --option is the long form; layout and pantheon_pairs are options too.
    result = invoke("--seed", "5", "--option", "layout=giza-step-ramp",
                    "--option", "pantheon_pairs=false", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["layout"], report["deal"], report["pantheon_pairs"]) == (
        "giza-step-ramp", "solvable", False)


def test_the_old_flags_still_work_and_say_the_same_as_the_options() -> None:
    pairs = [
        (["--deal", "random"], ["-o", "deal=random"]),
        (["--no-pantheon-pairs"], ["-o", "pantheon_pairs=false"]),
        (["--pantheon-pairs"], ["-o", "pantheon_pairs=true"]),
        (["--layout", "giza-step-ramp"], ["-o", "layout=giza-step-ramp"]),
    ]
    for flag, option in pairs:
        by_flag = invoke("--seed", "3", *flag, "--json")
        by_option = invoke("--seed", "3", *option, "--json")
        assert by_flag.exit_code == 0, by_flag.output
        assert json.loads(by_flag.output) | {"seconds": 0} == (
            json.loads(by_option.output) | {"seconds": 0})
    # A flag and an option that agree are fine; that disagree, refused.
    assert invoke("--deal", "random", "-o", "deal=random", "--node-limit", "5").exit_code == 0
    result = invoke("--deal", "random", "-o", "deal=solvable")
    assert result.exit_code == 2
    assert "error: --deal random and the option deal=solvable disagree; give one of them" in (
        result.output)
    result = invoke("--no-pantheon-pairs", "-o", "pantheon_pairs=on")
    assert result.exit_code == 2
    assert ("error: --no-pantheon-pairs and the option pantheon_pairs=on disagree; give one "
            "of them") in result.output


def test_help_shows_the_option_not_the_old_flags() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "--option" in result.output and "-o" in result.output
    assert "--deal" not in result.output and "--pantheon-pairs" not in result.output


def test_a_bad_key_or_value_gets_the_words_of_the_other_commands() -> None:
    for option, words in [
        ("deal=fair", "error: deal=fair is not valid; allowed: one of solvable, random"),
        ("pantheon_pairs=maybe", "error: pantheon_pairs=maybe is not valid; "
                                 "allowed: true or false"),
        ("colour=red", "error: unknown option colour; allowed options: bank, "),
        ("deal", "error: option 'deal' is not key=value (for example --option players=3)"),
    ]:
        solved = invoke("-o", option)
        simulated = runner.invoke(app, ["simulate", "mahjongg", "-o", option, "--games", "1"])
        assert solved.exit_code == simulated.exit_code == 2
        assert words in solved.output and words in simulated.output
    # The old flag's bad value is the option's bad value.
    result = invoke("--deal", "fair")
    assert result.exit_code == 2
    assert "error: deal=fair is not valid; allowed: one of solvable, random" in result.output
    result = invoke("--node-limit", "0")
    assert "error: --node-limit must be at least 1, got 0" in result.output


def test_every_line_a_person_reads_is_in_korean_under_lang_ko() -> None:
    english = invoke("--seed", "2")
    korean = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "2"])
    assert english.exit_code == 0 and korean.exit_code == 0, korean.output
    lines = korean.output.splitlines()
    assert lines[0] == "pharaohs-tomb 시드 2 deal=solvable: 풀 수 있음"
    assert lines[1].startswith("노드: ") and ", 초: " in lines[1]
    # The moves keep the letters `play` takes; the faces and places are Korean.
    english_lines = english.output.splitlines()
    assert len(lines) == len(english_lines)
    for line, in_english in zip(lines[3:], english_lines[3:], strict=True):
        assert line.split(":")[0] == in_english.split(":")[0]  # " 1. match db en"
        assert "층" in line and "layer" not in line and " and " not in line
    for word in ("solvable", "nodes:", "seconds:", "clearing", "Scarab", "Glyph", "row",
                 "column"):
        assert word not in korean.output.replace("deal=solvable", "")
    unknown = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "6",
                                  "--deal", "random", "--node-limit", "3"])
    assert unknown.output.splitlines()[0].endswith(": 알 수 없음(노드 한도에 도달)")
    lost = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "128",
                               "--deal", "random"])
    assert lost.output.splitlines()[0] == "pharaohs-tomb 시드 128 deal=random: 풀 수 없음"
    # --json keeps its keys, in every language.
    as_json = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "2", "--json"])
    assert set(json.loads(as_json.output)) == {"layout", "seed", "deal", "pantheon_pairs",
                                               "solvable", "moves", "pairs", "nodes",
                                               "seconds"}


PLACE = re.compile(r"(?P<face>[^(]+) \(layer (?P<layer>\d+), "
                   r"rows? (?P<row>\d+)(?:-(?P<row2>\d+))?, "
                   r"columns? (?P<column>\d+)(?:-(?P<column2>\d+))?\)")


def _found(layout: Layout, words: str) -> tuple[str, tuple[int, int, int]]:
    """The face and layout position a person reads in `Scarab 4 (layer 5, rows 4-5,
    columns 7-8)`: layers from 1, rows and columns in tiles from the board's edges."""
    match = PLACE.fullmatch(words)
    assert match, words
    left = min(x for x, _y, _z in layout.positions)
    top = min(y for _x, y, _z in layout.positions)

    def cells(first: str, second: str | None) -> int:
        if second is not None:
            assert int(second) == int(first) + 1
        return 2 * (int(first) - 1) + (second is not None)

    x = left + cells(match["column"], match["column2"])
    y = top + cells(match["row"], match["row2"])
    return match["face"], (x, y, int(match["layer"]) - 1)


def test_a_clearing_names_each_tile_so_a_person_finds_it() -> None:
    """The clearing was engine tile numbers ("match 44 143"), found on no board. Each pair
    is the move `play --plain` takes, with the letters it draws under the tiles, then
    each tile's face and place: played as printed, the moves clear the deal, and each
    place is where the tile with those letters lies, with that face."""
    from pyramids.play.moves import unlabelled
    from pyramids.play.text.mahjongg import move_labels

    for layout_name in ("turtle", "giza-step-ramp"):
        result = invoke("--seed", "4", "--layout", layout_name)
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert lines[2].startswith("A clearing, pair by pair: the move with the letters")
        game = MahjonggGame(layout=layout_name)
        state = game.new_initial_state(4)
        layout = load_layout(layout_name)
        labels = move_labels(state.view(0))
        pairs = []
        for number, line in enumerate(lines[3:], 1):
            head, _colon, tiles = line.partition(": ")
            assert head.lstrip().startswith(f"{number}. match ")
            move = unlabelled(head.split(". ", 1)[1], labels)
            word, a, b = move.split()
            pair = (int(a), int(b))
            pairs.append(pair)
            for tile, words in zip(pair, tiles.split(" and "), strict=True):
                face, position = _found(layout, words)
                assert position == layout.positions[tile]
                assert face == FACES[state.faces[tile]].name
            assert not re.search(r"\b(105|143)\b", tiles)  # no engine numbers
        assert len(pairs) == layout.size // 2
        assert is_clearing_order(layout.geometry, state.faces, pairs)


def test_json_keeps_the_engine_moves_and_adds_the_words() -> None:
    report = json.loads(invoke("--layout", "turtle", "--seed", "4", "--json").output)
    assert len(report["pairs"]) == len(report["moves"]) == 72
    layout = load_layout("turtle")
    for move, pair in zip(report["moves"], report["pairs"], strict=True):
        ids = [int(n) for n in move.split()[1:]]
        assert [tile["id"] for tile in pair["tiles"]] == ids
        assert pair["move"] == "match " + " ".join(tile["letters"] for tile in pair["tiles"])
        for tile in pair["tiles"]:
            assert (tile["x"], tile["y"], tile["layer"]) == layout.positions[tile["id"]]


@pytest.mark.parametrize(("option", "words"), [
    ("players=2", "error: solve mahjongg clears a board played alone, not by 2 players; give "
                  "players=1 or leave it out"),
    ("mode=coop", "error: solve mahjongg clears a board played alone: mode=coop is played by "
                  "several players; give mode=standard or time-attack, or leave it out"),
    ("bank=3", "error: the option bank changes play or scoring, not the deal, so solve "
               "mahjongg does not use it; it takes: layout, deal, pantheon_pairs, "
               "mode=standard or time-attack, players=1"),
    ("turn_order=behind", "error: the option turn_order changes play or scoring, not the "
                          "deal, so solve mahjongg does not use it; it takes: "),
    ("solver_nodes=50", "error: the option solver_nodes is the budget of the game's hints; "
                        "the budget of solve mahjongg is --node-limit N"),
    ("players=x", "error: players=x is not valid; allowed: "),
])
def test_options_the_solver_does_not_use_are_refused(option: str, words: str) -> None:
    """`-o players=2` was taken and the one-player board solved, as if for two."""
    result = invoke("-o", option)
    assert result.exit_code == 2
    assert result.stderr.startswith(words), result.stderr
    korean = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "-o", option])
    assert korean.exit_code == 2 and korean.stderr.startswith("오류: ")
    for english in ("played alone", "leave it out", "changes play", "the budget"):
        assert english not in korean.stderr


def test_the_options_the_solver_uses_still_work() -> None:
    base = json.loads(invoke("--seed", "3", "--json").output)
    for options in (["players=1"], ["mode=standard"], ["layout=pharaohs-tomb"]):
        given = [word for option in options for word in ("-o", option)]
        result = invoke("--seed", "3", *given, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.output) | {"seconds": 0} == base | {"seconds": 0}
    # layout=auto leaves the board to the mode: the time attack's own.
    auto = invoke("--seed", "3", "-o", "layout=auto", "-o", "mode=time-attack", "--json")
    assert auto.exit_code == 0, auto.output
    assert json.loads(auto.output)["layout"] == "great-zenith"


@pytest.mark.parametrize("options", [[], ["mode=time-attack"], ["mode=time-attack", "players=1"]])
def test_without_a_layout_the_verdict_is_for_the_deal_play_starts_from(options: list[str]) -> None:
    """`solve mahjongg --seed N` answered for the Turtle while `play mahjongg --seed N`
    deals the mode's own board (Pharaoh's Tomb, or the Great Zenith for the Time Attack):
    a player asking about the game in front of them got another board's verdict."""
    given = [word for option in options for word in ("-o", option)]
    result = invoke("--seed", "3", *given, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    played = MahjonggGame(**dict(option.split("=") for option in options))
    assert report["layout"] == played.layout.name
    assert report["solvable"] is True
    state = played.new_initial_state(3)
    pairs = [(int(a), int(b)) for _, a, b in (move.split() for move in report["moves"])]
    assert is_clearing_order(played.layout.geometry, state.faces, pairs)
