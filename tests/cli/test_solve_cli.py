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


def test_game_options_are_given_with_o_as_every_other_command_takes_them() -> None:
    # -o deal=random is the deal `play mahjongg -o deal=random` starts from.
    result = invoke("--seed", "2", "-o", "deal=random", "--json")
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
    assert lines[0] == "turtle 시드 2 deal=solvable: 풀 수 있음"
    assert lines[1].startswith("노드: ") and ", 초: " in lines[1]
    # The moves keep the notation `play` takes; the line's words are Korean.
    assert lines[2].startswith("수순: match ")
    assert lines[2].removeprefix("수순: ") == english.output.splitlines()[2].removeprefix(
        "moves: ")
    for word in ("solvable", "nodes:", "seconds:", "moves:"):
        assert word not in korean.output.replace("deal=solvable", "")
    unknown = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "6",
                                  "--deal", "random", "--node-limit", "3"])
    assert unknown.output.splitlines()[0].endswith(": 알 수 없음(노드 한도에 도달)")
    lost = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "128",
                               "--deal", "random"])
    assert lost.output.splitlines()[0] == "turtle 시드 128 deal=random: 풀 수 없음"
    # --json keeps its keys, in every language.
    as_json = runner.invoke(app, ["--lang", "ko", "solve", "mahjongg", "--seed", "2", "--json"])
    assert set(json.loads(as_json.output)) == {"layout", "seed", "deal", "pantheon_pairs",
                                               "solvable", "moves", "nodes", "seconds"}
