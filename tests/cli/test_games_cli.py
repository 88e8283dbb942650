"""`pyramids play --plain`, `simulate`, `rules` and `replay`, driven as a user would."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pyramids.cli.main import app
from pyramids.core import GameRecord, IllegalActionError, load

runner = CliRunner()
SHORT_MATCH = ["--option", "rounds_to_win=1", "--option", "max_rounds=2"]


def invoke(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def test_an_illegal_move_at_the_plain_prompt_is_refused_in_korean() -> None:
    # Seat 1 opens a Pacal round with an offer: a decline, a bad field and a typo.
    result = runner.invoke(app, [
        "play", "pacal", "--vs", "random", "--seed", "11", "--plain", "--lang", "ko",
        *SHORT_MATCH], input="decline\nplase F3\nquit\n", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert ("둘 수 없는 수입니다: 'decline' 수는 둘 수 없습니다: "
            "손의 카드 두 장을 제안해야 합니다 ('offer A B')") in result.output
    assert ("둘 수 없는 수입니다: 알 수 없는 수 'plase F3'. "
            "둘 수 있는 수: 'offer A B'") in result.output
    assert "is illegal" not in result.output and "unknown move" not in result.output


@pytest.mark.parametrize(("lang", "lines"), [
    ("en", ["Pacal, seed 11", "seats: seat 1 (you), seat 2 (Hard)",
            "Type 'help' for commands."]),
    ("ko", ["파칼, 시드 11", "자리: 1번 자리 (나), 2번 자리 (어려움)",
            "'help'를 입력하면 명령 목록을 볼 수 있습니다."]),
])
def test_the_plain_game_opens_with_its_title_and_seats_in_words(lang, lines) -> None:
    result = invoke("play", "pacal", "--vs", "hard", "--seed", "11", "--plain", "--lang", lang,
                    stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:3] == lines
    # Not the game's internal name or its options as a Python dict.
    assert "{'" not in result.output and "rounds_to_win" not in result.output


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "options: Board: Giza Step Ramp; Turn order: Lowest score moves next; "
           "Pantheon pairs: off"),
    ("ko", "옵션: 보드: 기자 계단 경사로; 차례 순서: 낮은 점수가 다음 차례; 신들의 짝: 끔"),
])
def test_the_plain_game_says_the_options_that_differ_from_the_defaults(lang, line) -> None:
    """A table that plays by other rules (the catch-up turn order) says so before the
    first move, in words; the players are on the seats line."""
    result = invoke("play", "mahjongg", "--vs", "hard", "--seed", "4", "--plain", "--lang", lang,
                    "--players", "2", "-o", "layout=giza-step-ramp", "-o", "turn_order=behind",
                    "-o", "pantheon_pairs=false", stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[2] == line
    default = invoke("play", "mahjongg", "--vs", "hard", "--seed", "4", "--plain", "--lang",
                     lang, "--players", "2", stdin="quit\n")
    assert default.exit_code == 0, default.output
    assert not [text for text in default.output.splitlines()
                if text.startswith(("options:", "옵션:"))]


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Turn order: after a pair the lowest score moves next; after a pass, the next seat."),
    ("ko", "차례 순서: 짝을 걷은 뒤에는 점수가 가장 낮은 사람이, 패스한 뒤에는 다음 자리가 "
           "둡니다."),
])
def test_the_plain_screen_says_the_catch_up_turn_order_at_each_turn(lang, line) -> None:
    """A player who moves twice running under the catch-up order is told why, on the
    screen of each turn, as the terminal app and the browser tell it."""
    args = ["play", "mahjongg", "--vs", "hard", "--seed", "4", "--plain", "--lang", lang,
            "--players", "2", "-o", "layout=giza-step-ramp"]
    behind = runner.invoke(app, [*args, "-o", "turn_order=behind"], input="quit\n",
                           env={"COLUMNS": "200"})
    assert behind.exit_code == 0, behind.output
    lines = behind.output.splitlines()
    assert line in lines
    assert lines.index(line) < lines.index("Legal moves:" if lang == "en" else "둘 수 있는 수:")
    # In seat order (the default) the turns need no word.
    default = runner.invoke(app, args, input="quit\n", env={"COLUMNS": "200"})
    assert default.exit_code == 0, default.output
    assert line not in default.output.splitlines()


@pytest.mark.parametrize(("agent", "lang", "words"), [
    ("greedy", "en", "seat 2 (Greedy rule)"),
    ("greedy", "ko", "2번 자리 (탐욕 규칙)"),
    ("random", "ko", "2번 자리 (무작위 수)"),
    ("mcts", "en", "seat 2 (MCTS tree search)"),
])
def test_built_in_bots_are_named_in_words(agent: str, lang: str, words: str) -> None:
    result = invoke("play", "pacal", "--vs", agent, "--seed", "11", "--plain", "--lang", lang,
                    stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert words in result.output.splitlines()[1]


def test_play_pacal_plain_full_game_with_bad_moves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # A mistyped move and an illegal one first, then always the first listed move.
    stdin = "plase F3\ndecline\n0\n" + "1\n" * 400
    result = invoke(
        "play", "pacal", "--vs", "random", "--seed", "11", "--plain", "--save", str(save),
        *SHORT_MATCH, stdin=stdin,
    )
    assert result.exit_code == 0, result.output
    assert "Not a legal move: unknown move 'plase F3'" in result.output
    assert "the move 'decline' is illegal" in result.output
    assert "1285" not in result.output
    assert "there is no move number 0" in result.output
    assert "Game over." in result.output
    record = GameRecord.load_file(save)
    assert record.players == ["human", "random"]
    states = record.replay()
    final = states[-1]
    assert final.is_terminal()
    assert record.result == {"returns": final.returns()}
    # The bad inputs changed nothing: every move of seat 0 is the first legal move.
    human_moves = 0
    for before, text in zip(states, record.actions, strict=False):
        if before.current_player == 0:
            assert text == before.legal_action_strings()[0]
            human_moves += 1
    assert human_moves > 0


def test_an_agent_setting_plays_saves_and_resumes_the_same_moves(tmp_path: Path) -> None:
    # `--vs mcts:iterations=5` as the arena writes it; the record keeps the setting, and
    # the same seed plays the same agent moves.
    whole = tmp_path / "whole.json"
    half = tmp_path / "half.json"
    args = ["play", "pacal", "--vs", "mcts:iterations=5", "--seed", "8", "--plain",
            *SHORT_MATCH]
    played = invoke(*args, "--save", str(whole), stdin="1\n" * 200)
    assert played.exit_code == 0, played.output
    # The seat reads as its agent in words; the setting is an internal.
    assert "seat 2 (MCTS tree search)" in played.output.splitlines()[1]
    assert "iterations" not in played.output
    record = GameRecord.load_file(whole)
    assert record.players == ["human", "mcts:iterations=5"]
    assert record.replay()[-1].is_terminal()

    first = invoke(*args, "--save", str(half), stdin="1\n1\n1\nquit\n")
    assert first.exit_code == 0, first.output
    started = GameRecord.load_file(half).actions
    assert started == record.actions[:len(started)]
    # Resumed, the record's seat is the same agent setting, played on to the end.
    resumed = invoke("play", "--resume", str(half), "--plain", stdin="1\n" * 200)
    assert resumed.exit_code == 0, resumed.output
    assert "seat 2 (MCTS tree search)" in resumed.output
    finished = GameRecord.load_file(half)
    assert finished.players == ["human", "mcts:iterations=5"]
    assert finished.actions[:len(started)] == started and finished.replay()[-1].is_terminal()


def test_play_shows_only_the_players_own_hand() -> None:
    game = load("pacal")
    state = game.new_initial_state(5)
    opponent_hand = state.view(1)["hand"]
    result = invoke("play", "pacal", "--seed", "5", "--plain", stdin="quit\n")
    assert result.exit_code == 0
    own = " ".join(str(card) for card in state.view(0)["hand"])
    assert f"Your hand: {own}" in result.output
    assert " ".join(str(card) for card in opponent_hand) not in result.output
    assert "not saved" in result.output


def test_play_pacal_solo_plain_to_the_end() -> None:
    result = invoke("play", "pacal-solo", "--seed", "3", "--plain", stdin="1\n" * 30)
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    assert "Card to place:" in result.output


def test_quit_saves_and_resume_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "half.json"
    first = invoke(
        "play", "pacal", "--seed", "4", "--plain", "--save", str(save), *SHORT_MATCH,
        stdin="1\n1\n1\nquit\n",
    )
    assert first.exit_code == 0, first.output
    assert "pyramids play --resume" in first.output
    saved = GameRecord.load_file(save)
    assert saved.result is None and saved.actions
    before = saved.final_state()
    # End of input also stops and saves; the game goes on from the saved position.
    second = invoke("play", "--resume", str(save), "--plain", stdin="1\n")
    assert second.exit_code == 0, second.output
    resumed = GameRecord.load_file(save)
    assert resumed.actions[: len(saved.actions)] == saved.actions
    assert len(resumed.actions) > len(saved.actions)
    assert not before.is_terminal()


def test_simulate_json_is_consistent() -> None:
    result = invoke("simulate", "pacal", "--agents", "random,random", "--games", "6", "--seed",
                    "2", "--json", *SHORT_MATCH)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 6
    assert len(report["wins"]) == 2
    assert sum(report["wins"]) + report["draws"] == 6
    assert report["mean_actions"] > 0
    again = invoke("simulate", "pacal", "--agents", "random", "--games", "6", "--seed", "2",
                   "--json", *SHORT_MATCH)
    assert json.loads(again.output) == report


def test_simulate_solo_reports_win_rate_and_draws() -> None:
    result = invoke("simulate", "pacal-solo", "--agents", "greedy", "--games", "30", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["wins"][0] + report["losses"] == 30
    assert report["win_rate"] == pytest.approx(report["wins"][0] / 30)
    assert report["wins"][0] > 0
    # A won solo game takes between 10 and 20 draws.
    assert 10 <= report["mean_draws_won"] <= 20


def test_simulate_players_option() -> None:
    result = invoke("simulate", "temple", "--players", "3", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["options"]["players"] == 3
    assert len(report["wins"]) == 3
    assert sum(report["wins"]) + report["draws"] == 2


def test_simulate_text_output() -> None:
    result = invoke("simulate", "pacal", "--games", "2", *SHORT_MATCH)
    assert result.exit_code == 0
    assert "seat 1 (Random moves):" in result.output and "draws:" in result.output


def _csv(path: Path) -> list[dict[str, str]]:
    import csv

    with path.open(newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


def test_simulate_csv_holds_the_figures_one_row_a_seat(tmp_path: Path) -> None:
    path = tmp_path / "temple.csv"
    args = ["simulate", "temple", "--players", "3", "--agents", "greedy,random,random",
            "--games", "4", "--seed", "5"]
    result = invoke(*args, "--csv", str(path))
    assert result.exit_code == 0, result.output
    assert f"wrote {path}" in result.output
    report = json.loads(invoke(*args, "--json").stdout)
    assert path.read_text().splitlines()[0] == (
        "seat,agent,games,wins,win_rate_pct,ci95_low_pct,ci95_high_pct,draws,"
        "games_every_seat_lost,mean_actions")
    rows = _csv(path)
    assert [row["seat"] for row in rows] == ["1", "2", "3"]
    assert [row["agent"] for row in rows] == ["greedy", "random", "random"]
    assert [int(row["wins"]) for row in rows] == report["wins"]
    for row in rows:
        assert int(row["games"]) == 4 and int(row["draws"]) == report["draws"]
        assert row["mean_actions"] == f"{report['mean_actions']:.1f}"
        assert row["mean_actions"] in result.output  # the figure the text prints
        low, high = float(row["ci95_low_pct"]), float(row["ci95_high_pct"])
        assert low <= float(row["win_rate_pct"]) <= high


def test_simulate_csv_alone_has_the_printed_win_rate(tmp_path: Path) -> None:
    path = tmp_path / "solo.csv"
    args = ["simulate", "pacal-solo", "--agents", "greedy", "--games", "6", "--seed", "4"]
    result = invoke(*args, "--csv", str(path))
    assert result.exit_code == 0, result.output
    (row,) = _csv(path)
    assert (f"win rate: {row['win_rate_pct']}% (95% CI {row['ci95_low_pct']}-"
            f"{row['ci95_high_pct']}%)") in result.output
    report = json.loads(invoke(*args, "--json").stdout)
    assert int(row["games_every_seat_lost"]) == report["losses"]
    assert row["mean_draws_won"] == f"{report['mean_draws_won']:.2f}"


def test_simulate_csv_is_not_written_over_unless_forced(tmp_path: Path) -> None:
    path = tmp_path / "kept.csv"
    path.write_text("1000 games")
    refused = invoke("simulate", "pacal", "--games", "2", "--csv", str(path), *SHORT_MATCH)
    assert refused.exit_code == 2
    assert f"{path} exists; give --force to replace it" in refused.stderr
    assert path.read_text() == "1000 games"
    forced = invoke("simulate", "pacal", "--games", "2", "--csv", str(path), "--force",
                    *SHORT_MATCH)
    assert forced.exit_code == 0, forced.output
    assert [row["seat"] for row in _csv(path)] == ["1", "2"]


@pytest.mark.parametrize("agents", [",", " , ,"])
def test_simulate_refuses_agents_that_name_none(agents: str) -> None:
    result = invoke("simulate", "pacal", "--games", "2", "--agents", agents)
    assert result.exit_code == 2
    assert result.output == "error: --agents needs at least one agent\n"


def test_simulate_reports_in_korean() -> None:
    result = invoke("--lang", "ko", "simulate", "pacal-solo", "--agents", "greedy",
                    "--games", "6", "--seed", "4")
    assert result.exit_code == 0, result.output
    report = json.loads(invoke("simulate", "pacal-solo", "--agents", "greedy", "--games", "6",
                               "--seed", "4", "--json").stdout)
    lines = result.output.strip().splitlines()
    assert lines[0].endswith("6게임, 시드 4")
    assert lines[1] == f"  1번 자리 (탐욕 규칙): {report['wins'][0]}승"
    assert f"패배: {report['losses']}" in result.output
    assert "게임당 평균 행동 수" in result.output
    assert "seat" not in result.output and "wins" not in result.output


@pytest.mark.parametrize(("args", "expected"), [
    (["simulate", "pacal", "--agents", "random,random,random"],
     "pacal은(는) 2자리 게임입니다; 받은 에이전트 3개: random"),
    (["simulate", "pacal", "--agents", "genius"], "알 수 없는 에이전트 'genius'"),
    (["simulate", "pacal", "--backend", "cloud"], "알 수 없는 백엔드 'cloud'"),
    (["simulate", "pacal", "--workers", "0"], "--workers는 1 이상이어야 합니다"),
    (["play", "--plain"], "게임 이름을 쓰거나"),
    # A seat takes an agent setting too, and its values are checked before the game.
    (["play", "pacal", "--vs", "mcts:iterations=0", "--plain"],
     "mcts: iterations은(는) 1 이상이어야 합니다 (받은 값: 0)"),
    (["play", "pacal", "--seats", "human,mcts:depth=3", "--plain"],
     "에이전트 'mcts'에는 옵션 'depth'이(가) 없습니다; 가능한 옵션: clock, exploration"),
    (["simulate", "pacal", "--agents", "greedy:mistakes=2"], "greedy: mistakes"),
])
def test_bad_input_is_refused_in_korean(args: list[str], expected: str) -> None:
    result = invoke("--lang", "ko", *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("오류: ")
    assert expected in lines[0]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "error: turn_order=behind is for the Standard Expedition, not mode=coop; allowed "
           "here: turn_order=round"),
    ("ko", "오류: turn_order=behind은(는) 표준 원정에서만 쓸 수 있고 mode=coop에는 쓸 수 "
           "없습니다. 여기서 허용: turn_order=round"),
])
def test_a_refused_combination_names_the_options_as_they_were_typed(lang: str,
                                                                     expected: str) -> None:
    """The command line took keys (`-o turn_order=behind`): its refusal says them so, where
    the lobby and the terminal app say the options' words."""
    result = invoke("--lang", lang, "play", "mahjongg", "--vs", "random", "-o", "players=2",
                    "-o", "mode=coop", "-o", "turn_order=behind", "--plain")
    assert result.exit_code == 2
    assert result.output.strip() == expected


def test_players_that_is_already_the_game_s_count_is_accepted_as_the_arena_does() -> None:
    result = invoke("simulate", "pacal", "--agents", "random", "--players", "2", "--games", "2")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["simulate", "chess"], "allowed games: mahjongg, pacal, pacal-solo, temple"),
        (["simulate", "pacal", "--option", "colour=red"], "allowed options: direction"),
        (["simulate", "pacal", "--option", "direction=up"],
         "direction=up is not valid; allowed: one of descending, ascending"),
        (["simulate", "pacal", "--option", "direction"], "not key=value"),
        (["simulate", "pacal", "--agents", "genius"],
         "allowed agents: determinized, easy, expert, greedy"),
        (["simulate", "pacal", "--agents", "random,random,random"],
         "got 3 agents: random, random, random"),
        (["simulate", "pacal", "--players", "3"], "has no players option"),
        (["simulate", "temple", "-o", "players=3", "--players", "4"],
         "--players 4 and the option players=3 disagree"),
        (["arena", "temple", "--agents", "greedy", "-o", "players=3", "--players", "4"],
         "--players 4 and the option players=3 disagree"),
        (["simulate", "temple", "-o", "jewels=3", "-o", "jewels=4"],
         "option jewels is given twice (3 and 4)"),
        (["balance", "pacal-solo", "--games", "2", "--out", "/nonexistent/x"],
         "pacal-solo is played alone: a balance report compares seats"),
        (["play", "pacal", "--vs", "genius", "--plain"],
         "allowed: human, determinized, easy, expert, greedy"),
        (["play", "pacal", "--seats", "human", "--plain"], "has 2 seats"),
        (["play", "chess", "--plain"], "allowed games:"),
        (["rules", "chess"], "allowed games:"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], expected: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert expected in lines[0]


def test_rules_prints_the_learn_page_and_the_reference() -> None:
    from pyramids.core import game_entry

    manifest = game_entry("pacal")
    assert manifest.rules_page is not None and manifest.learn_page is not None
    learn = invoke("rules", "pacal", "--lang", "en")
    assert learn.exit_code == 0
    assert learn.output.strip() == (manifest.learn_page("en") or "").strip()
    reference = invoke("rules", "pacal", "--reference")
    assert reference.exit_code == 0
    assert reference.output.strip() == manifest.rules_page().strip()


def test_replay_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    invoke("play", "pacal-solo", "--seed", "8", "--plain", "--save", str(save), stdin="1\n" * 30)
    record = GameRecord.load_file(save)
    result = invoke("replay", str(save))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:2] == ["Pacal solo, seed 8", "seats: seat 1 (you)"]
    # Every move, numbered, in words: the card placed and the field it went to.
    moves = [line for line in lines if re.match(r" *\d+\. ", line)]
    assert len(moves) == len(record.actions)
    for line, action in zip(moves, record.actions, strict=True):
        field = action.split()[-1]  # "place F2": "on F2." or "on F2, covering 34."
        assert f"on {field}." in line or f"on {field}, covering " in line, (line, action)
    assert "{" not in result.output and "Game over." in result.output
    korean = invoke("replay", str(save), "--lang", "ko")
    assert korean.output.splitlines()[:2] == ["파칼 솔로, 시드 8", "자리: 1번 자리 (나)"]
    assert "게임이 끝났습니다." in korean.output


def test_replay_step_stops_on_q(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    invoke("play", "pacal-solo", "--seed", "8", "--plain", "--save", str(save), stdin="1\n" * 30)
    result = invoke("replay", str(save), "--step", stdin="\nq\n")
    assert result.exit_code == 0
    assert result.output.count("[Enter for the next move") == 2
    assert "   1. Placed " in result.output and "   2. " not in result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "bad.json: not a game record: the JSON breaks off or is malformed at line 1"),
        ('{"format": "something"}', "not a game record"),
        (
            json.dumps({"format": "pyramids-record", "version": 1, "game": "pacal-solo",
                        "options": {}, "seed": 1, "actions": ["place F11"]}),
            "move 1 ('place F11')",
        ),
    ],
)
def test_replay_malformed_file(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.output.startswith("error: ") and expected in result.output


def test_replay_missing_file(tmp_path: Path) -> None:
    result = invoke("replay", str(tmp_path / "nothing.json"))
    assert result.exit_code == 2
    assert "cannot read game record" in result.output


def test_long_move_lists_keep_the_numbers_a_person_types(tmp_path: Path) -> None:
    save = tmp_path / "mahjongg.json"
    first = invoke(
        "play", "mahjongg", "--plain", "--seed", "3", "--option", "layout=giza-step-ramp",
        stdin="quit\n",
    )
    assert "'shift' moves, for example" in first.output
    found = re.search(r"(\d+)\) pass\b", first.output)
    assert found is not None
    number = found.group(1)
    second = invoke(
        "play", "mahjongg", "--plain", "--seed", "3", "--option", "layout=giza-step-ramp",
        "--save", str(save), stdin=f"{number}\n{number}\n",  # passing alone: asked again
    )
    assert "Type it again to end the game" in second.output
    record = GameRecord.load_file(save)
    assert record.actions == ["pass"]
    assert "|" in first.output  # the board is drawn as a grid of tiles


def test_plain_hotseat_asks_before_showing_the_next_hand() -> None:
    state = load("pacal").new_initial_state(6)
    first = state.current_player
    result = invoke("play", "pacal", "--seed", "6", "--plain", "--seats", "human,human",
                    stdin="\n1\n\nquit\n")
    assert result.exit_code == 0, result.output
    prompts = result.output.count("take the keyboard and press Enter")
    assert prompts == 2
    # The second person's hand appears only after their prompt.
    second_prompt = result.output.index(f"Seat {1 - first}: take the keyboard")
    second_hand = " ".join(str(card) for card in state.view(1 - first)["hand"])
    assert result.output.index(f"Your hand: {second_hand}") > second_prompt


def test_play_without_plain_opens_the_app_with_the_seats(monkeypatch, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    import pyramids.tui.app as tui_app

    opened = []
    monkeypatch.setattr(tui_app, "run_play_app", opened.append)
    monkeypatch.setattr("pyramids.cli.games.at_a_terminal", lambda: True)
    result = invoke("play", "temple", "--players", "3", "--seats", "human,greedy,human",
                    "--seed", "4", "--save", str(tmp_path / "t.json"))
    assert result.exit_code == 0, result.output
    (session,) = opened
    assert session.seats == ["human", "greedy", "human"]
    assert session.game.num_players == 3 and session.seed == 4
    assert session.human_seats == [0, 2]
    assert session.save_path == tmp_path / "t.json"


def test_replay_tui_opens_the_replay_screen(monkeypatch, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    import pyramids.tui.app as tui_app

    save = tmp_path / "game.json"
    invoke("play", "pacal-solo", "--seed", "8", "--plain", "--save", str(save), stdin="1\n" * 30)
    opened = []
    monkeypatch.setattr(tui_app, "run_replay_app", opened.append)
    result = invoke("replay", str(save), "--tui")
    assert result.exit_code == 0, result.output
    assert opened[0].actions == GameRecord.load_file(save).actions


def test_a_command_line_mistake_is_labelled_in_the_readers_language(tmp_path: Path) -> None:
    missing = str(tmp_path / "nothing.json")
    english = invoke("replay", missing)
    korean = invoke("replay", missing, "--lang", "ko")
    assert english.exit_code == korean.exit_code == 2
    assert english.output.startswith("error: ")
    assert korean.output.startswith("오류: ") and "error" not in korean.output.split(":")[0]


def test_bots_lists_each_level_of_a_game_with_what_it_is_like_and_its_setting() -> None:
    from pyramids.agents.levels import LEVEL_DESCRIPTIONS, LEVELS, level_setting

    result = runner.invoke(app, ["bots", "temple"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Bot levels in Temple of Inscriptions:"
    for level in LEVELS:
        start = lines.index(f"  {level} · {level.capitalize()}")
        assert lines[start + 1] == "      " + LEVEL_DESCRIPTIONS[level]  # indented
        assert lines[start + 2].strip() == f"setting: {level_setting('temple', level)}"
    assert "  hard · Hard" in lines and "      setting: mcts:iterations=40" in lines
    start = next(i for i, line in enumerate(lines) if line.startswith("Other agents"))
    others = " ".join(lines[start:])
    assert "greedy" in others and "mcts" in others and "openspiel-mcts" in others
    # Every line fits a terminal of 80 columns, the list of agents too (it is broken
    # between names, never inside one).
    assert max(len(line) for line in lines) <= 80


def test_bots_says_mahjonggs_medium_slips_now_and_then() -> None:
    result = runner.invoke(app, ["bots", "mahjongg"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index("  medium · Medium")
    assert lines[start + 1].strip() == ("Plays the rules of thumb, one move at a time, and "
                                        "slips now and then.")
    expert = lines.index("  expert · Expert")
    assert " ".join(line.strip() for line in lines[expert + 1:expert + 3]) == (
        "The strongest: alone it weighs the faces it cannot see; at a table it searches "
        "the others' replies, under a second a move.")
    assert lines[start + 2:start + 4] == ["      setting (1 player): greedy:mistakes=0.15",
                                          "      setting (2 or more players): greedy:mistakes=0.3"]
    assert max(len(line) for line in lines if not line.startswith("Other agents")) <= 80


def test_bots_names_the_tables_a_level_setting_serves() -> None:
    # Mahjongg's expert samples the hidden faces alone and searches at a table.
    result = runner.invoke(app, ["bots", "mahjongg"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index("  expert · Expert")
    first = lines.index("      setting (1 player): determinized", start)
    assert lines[first + 1] == "      setting (2 or more players): mcts:iterations=100"
    assert max(len(line) for line in lines if not line.startswith("Other agents")) <= 80
    korean = invoke("--lang", "ko", "bots", "mahjongg").output.splitlines()
    assert "      설정 (플레이어 2명 이상): mcts:iterations=100" in korean
    data = json.loads(invoke("bots", "mahjongg", "--json").output)["games"]["mahjongg"]
    assert data["expert"]["settings_by_players"] == {"1": "determinized",
                                                     "2": "mcts:iterations=100"}
    assert data["expert"]["setting"] == "determinized"
    assert data["hard"]["settings_by_players"] == {"1": "greedy"}
    # Pacal and Temple are played by two or more: their settings are keyed from "2".
    games = json.loads(invoke("bots", "--json").output)["games"]
    assert games["pacal"]["expert"]["settings_by_players"] == {"2": "planner:rollouts=24"}
    assert games["temple"]["medium"]["settings_by_players"] == {"2": "greedy"}
    assert games["pacal-solo"]["medium"]["settings_by_players"] == {"1": "greedy"}


def test_a_levels_tables_read_as_player_counts() -> None:
    from pyramids.cli.games import _settings_lines
    from pyramids.play.i18n import current_language, set_language

    assert _settings_lines({1: "greedy"}) == ["setting: greedy"]
    assert _settings_lines({1: "greedy", 2: "random", 4: "mcts"}) == [
        "setting (1 player): greedy", "setting (2 to 3 players): random",
        "setting (4 or more players): mcts"]
    before = current_language()
    set_language("ko")
    try:
        assert _settings_lines({1: "greedy", 3: "mcts"}) == [
            "설정 (플레이어 1~2명): greedy", "설정 (플레이어 3명 이상): mcts"]
    finally:
        set_language(before)


def test_bots_in_korean_and_as_json_for_every_game() -> None:
    from pyramids.agents.levels import LEVEL_DESCRIPTIONS, LEVELS, level_description, level_setting
    from pyramids.core import game_names
    from pyramids.play.i18n import _

    result = invoke("bots", "--json", "--lang", "ko")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert sorted(data["games"]) == game_names()
    for game, levels in data["games"].items():
        assert list(levels) == list(LEVELS)
        for level, entry in levels.items():
            assert entry["setting"] == level_setting(game, level)
            assert entry["description"] == _(level_description(level, game), lang="ko")
            assert entry["description"] != level_description(level, game)
    # Mahjongg's medium slips now and then (greedy:mistakes=0.15), and says so, as its
    # expert says how it plays alone and at a table; the others read as in the other games.
    mahjongg = data["games"]["mahjongg"]
    assert mahjongg["medium"]["description"] != _(LEVEL_DESCRIPTIONS["medium"], lang="ko")
    assert mahjongg["expert"]["description"] != _(LEVEL_DESCRIPTIONS["expert"], lang="ko")
    assert data["games"]["pacal"]["medium"]["description"] == _(LEVEL_DESCRIPTIONS["medium"],
                                                                 lang="ko")
    assert all(mahjongg[level]["description"] == _(LEVEL_DESCRIPTIONS[level], lang="ko")
               for level in LEVELS if level not in ("medium", "expert"))
    assert "hard" not in data["other_agents"] and "mcts" in data["other_agents"]
    text = invoke("--lang", "ko", "bots", "pacal")
    assert text.exit_code == 0, text.output
    assert "  expert · 전문가" in text.output.splitlines()


def test_bots_of_an_unknown_game_names_the_games() -> None:
    result = invoke("bots", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'; allowed games: mahjongg, pacal, pacal-solo, temple" in (
        result.output)


def test_play_without_vs_meets_the_medium_level_as_the_lobby_does() -> None:
    result = invoke("play", "temple", "--players", "3", "--seed", "3", "--plain", stdin="quit\n")
    assert result.exit_code == 0, result.output
    assert "seats: seat 1 (you), seat 2 (Medium), seat 3 (Medium)" in result.output
    wrong = invoke("play", "temple", "--players", "3", "--seats", "human", "--plain")
    assert wrong.exit_code == 2
    assert "(for example --seats human,medium,medium)" in wrong.output


def test_a_save_file_that_cannot_be_written_is_refused_before_the_first_move(
        tmp_path: Path) -> None:
    """Not after moves the person would lose: a missing folder, a folder as the file."""
    missing = tmp_path / "no-such-folder" / "game.json"
    result = invoke("play", "pacal-solo", "--seed", "3", "--plain", "--save", str(missing),
                    stdin="1\n")
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: cannot save the game to {missing}: there is no such file or folder")
    result = invoke("play", "pacal-solo", "--seed", "3", "--plain", "--save", str(tmp_path),
                    stdin="1\n")
    assert result.exit_code == 2
    assert f"cannot save the game to {tmp_path}: it is a folder" in result.output
    assert "Traceback" not in result.output and "Card to place" not in result.output


def test_a_saved_game_is_never_written_over_by_a_new_one(tmp_path: Path) -> None:
    save = tmp_path / "mine.json"
    first = invoke("play", "pacal-solo", "--seed", "8", "--plain", "--save", str(save),
                   stdin="1\n1\nquit\n")
    assert first.exit_code == 0, first.output
    kept = save.read_text()
    again = invoke("play", "pacal-solo", "--seed", "9", "--plain", "--save", str(save),
                   stdin="1\n")
    assert again.exit_code == 2
    assert f"--resume {save}" in again.output
    assert save.read_text() == kept
    # Going on with it saves to the same file.
    resumed = invoke("play", "--resume", str(save), "--plain", stdin="1\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    assert len(GameRecord.load_file(save).actions) > len(json.loads(kept)["actions"])


def test_a_save_that_fails_during_play_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    save = folder / "game.json"
    lines: list[str] = []
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session

    session = new_session(load_game("pacal-solo", {}), ["human"], 8, save)
    inputs = iter(["1", "1", "1", None])

    def read_line() -> str | None:
        line = next(inputs)
        if line is not None and save.exists():
            save.unlink()
            folder.rmdir()  # the folder goes away under the game
        return line

    assert play_plain(session, read_line, lines.append) is False
    assert len(session.state.history()) == 3  # every move played
    said = [" ".join(line.split()) for line in lines]  # a long path wraps at 80 columns
    failures = [line for line in said if line.startswith(f"Could not save to {save}:")]
    assert failures and "there is no such file or folder" in failures[0]


def test_every_move_is_told_in_words_and_a_round_says_why_it_ended() -> None:
    """Bot moves read as sentences (no action strings); the round's end says who won it
    and why, as the replay does; the end gives each seat's outcome, not the engine's
    returns."""
    result = invoke("play", "pacal", "--plain", "--vs", "easy", "--seed", "11",
                    "--option", "rounds_to_win=1", stdin="1\n" * 60)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.endswith("You offered 3 and 6.") for line in lines)
    # The bot by its level, as the browser's log names it (not "Seat 2").
    assert "Easy (bot) picked 3; 6 goes back to you." in lines
    assert "Easy (bot) placed 3 on F9." in lines
    assert "plays:" not in result.output  # was "seat 2 (Easy) plays: place F9"
    # The cause first, then the round's winner it made.
    end = lines.index("You could not place a card.")
    assert lines[end + 1:end + 4] == ["Round 1 goes to Easy (bot).",
                                      "Rounds won: you 0, Easy (bot) 1.",
                                      "Easy (bot) won the match."]
    over = lines.index("Game over.")
    assert lines[over + 1:over + 4] == ["  seat 1 (you): lost", "  seat 2 (Easy): won",
                                        "  Winner: seat 2 (Easy)"]
    korean = invoke("play", "pacal", "--plain", "--vs", "easy", "--seed", "11", "--lang", "ko",
                    "--option", "rounds_to_win=1", stdin="1\n" * 60)
    assert "2번 자리 (쉬움): 승리" in korean.output and "Seat 2" not in korean.output
    assert "쉬움 (봇)" in korean.output and "(bot)" not in korean.output


def test_two_seats_of_one_bot_are_told_apart_by_their_seats() -> None:
    """The line prompts name a bot two seats hold with its seat, as the browser's log."""
    result = invoke("play", "temple", "--plain", "--option", "players=3",
                    "--seats", "greedy,greedy,human", "--seed", "3", stdin="quit\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Greedy rule (bot, seat 2) gave 1 level-7 card" in result.output
    assert "Seat 2 gave" not in result.output


def test_a_hotseat_table_is_told_moves_in_a_spectators_words() -> None:
    """Two people at one keyboard: the log never says whose hand a card came from in
    a way only one of them may read (a spectator's words: no `you`)."""
    result = invoke("play", "pacal", "--plain", "--seats", "human,human", "--seed", "11",
                    *SHORT_MATCH, stdin="\n1\n\n1\n\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Seat 1 offered 3 and 6." in result.output
    assert "You " not in result.output


def test_a_move_can_be_named_by_its_last_words_when_only_one_fits() -> None:
    game = load("pacal-solo")
    state = game.new_initial_state(3)
    from pyramids.play.moves import parse_move

    strings = state.legal_action_strings()
    field = strings[1].split()[-1]  # "F2"
    assert parse_move(state, field) == state.string_to_action(strings[1])
    assert parse_move(state, field.lower()) == state.string_to_action(strings[1])
    with pytest.raises(IllegalActionError, match="unknown move 'F99'"):
        parse_move(state, "F99")
    # Whole words only: "ace F2" does not name "place F2".
    with pytest.raises(IllegalActionError):
        parse_move(state, "ace " + field)

    class TwoFit:
        """Two moves end in the same words: neither is guessed."""

        def legal_actions(self) -> list[int]:
            return [0, 1]

        def legal_action_strings(self) -> list[str]:
            return ["cover F2", "place F2"]

        def string_to_action(self, text: str) -> int:
            raise IllegalActionError(f"unknown move {text!r}")

    with pytest.raises(IllegalActionError, match="unknown move 'F2'"):
        parse_move(TwoFit(), "F2")  # type: ignore[arg-type]


def test_save_file_at_the_prompt_starts_saving_a_game_begun_without_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # `save` alone names a file here
    target = tmp_path / "later.json"
    taken = tmp_path / "taken.json"
    taken.write_text("someone's game")
    result = runner.invoke(  # wide: the long temporary paths stay on one line each
        app, ["play", "pacal-solo", "--plain", "--seed", "8"], env={"COLUMNS": "400"},
        input=f"1\nsave\nsave {taken}\nsave {tmp_path}\nsave {target}\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pyramids-pacal-solo-8.json").exists()  # `save` alone: a free name
    assert f"{taken} already exists" in result.output and taken.read_text() == "someone's game"
    assert f"cannot save the game to {tmp_path}: it is a folder" in result.output
    assert f"Saved to {target}; the game is saved there after every move." in result.output
    record = GameRecord.load_file(target)
    assert len(record.actions) == 2  # the move after `save FILE` was saved too
    assert f"The game is saved to {target}" in result.output


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "{path} already exists and is not a saved game: saving would write over it; "
           "choose another file"),
    ("ko", "{path} 파일이 이미 있고 저장된 게임이 아닙니다: 저장하면 덮어쓰게 됩니다. "
           "다른 파일을 고르세요"),
])
def test_saving_onto_a_file_that_is_no_game_does_not_offer_to_resume_it(
        tmp_path: Path, lang: str, words: str) -> None:
    """Saving onto someone's notes was refused with "go on with that game with --resume
    notes.txt", which then said the file is not a game record."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    expected = words.format(path=notes)
    started = runner.invoke(app, ["--lang", lang, "play", "pacal-solo", "--plain", "--seed",
                                  "8", "--save", str(notes)], env={"COLUMNS": "400"})
    assert started.exit_code == 2
    assert started.output.strip().split(": ", 1)[1] == expected
    at_prompt = runner.invoke(app, ["--lang", lang, "play", "pacal-solo", "--plain", "--seed",
                                    "8"], input=f"save {notes}\nquit\nquit\n",
                              env={"COLUMNS": "400"})
    assert at_prompt.exit_code == 0, at_prompt.output
    assert expected in at_prompt.output and "--resume" not in at_prompt.output
    assert notes.read_text() == "my notes"


def test_the_legal_moves_fit_the_terminal() -> None:
    for columns in ("60", "80", "120"):
        result = runner.invoke(app, ["play", "pacal-solo", "--plain", "--seed", "3"],
                               input="moves\nquit\n", env={"COLUMNS": columns})
        listing = [line for line in result.output.splitlines() if re.match(r"\d+\) ", line)]
        assert listing and max(len(line) for line in listing) <= int(columns)
    wide = runner.invoke(app, ["play", "pacal-solo", "--plain", "--seed", "3"],
                         input="moves\nquit\n", env={"COLUMNS": "200"})
    assert any(line.count(") place") >= 8 for line in wide.output.splitlines())


def test_time_attack_at_line_prompts_is_timed_by_the_interface() -> None:
    """The person neither sees nor types clock moves; the seconds gone by are told to
    the game before each move, and the game ends when the time is up."""
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session

    session = new_session(load_game("mahjongg", {"mode": "time-attack"}), ["human"], 4)
    now = [100.0]
    # (seconds the person thinks, what they type); the last answer comes too late.
    inputs = iter([(61.5, "clock 900"), (61.5, "hint"), (61.5, "moves"), (61.5, "sight"),
                   (1000.0, "hint")])
    lines: list[str] = []

    def read_line() -> str | None:
        seconds, typed = next(inputs)
        now[0] += seconds
        return typed

    assert play_plain(session, read_line, lines.append, clock=lambda: now[0]) is True
    text = "\n".join(lines)
    assert "The clock is kept by the app; play a move." in text
    assert "clock" not in text.replace("The clock is kept", "")
    history = session.state.history_strings()
    # Told before each move: 61, 123, 184 ... seconds, and the end at 900.
    clocks = [int(move.split()[1]) for move in history if move.startswith("clock ")]
    assert clocks == [61, 123, 184, 246, 900]
    assert "time left 900 s" in text and "time left 777 s" in text  # shown after a move
    assert len(history) == len(clocks) + 2  # the two moves typed in time
    assert session.state.is_terminal() and lines[-1 - lines[::-1].index("Time is up.")]
    assert "Result: time is up" in text
    # The rules' result: the time score, seconds left plus 30 per unused token.
    tokens = session.state.view(0)["tokens"][0]
    assert tokens > 0 and f"Time score: {30 * tokens} (0 s left)." in text


def test_play_from_a_pipe_plays_at_line_prompts_instead_of_hanging() -> None:
    """The full-screen app needs a terminal; piped input (a script, `echo q |`) gets
    line prompts and a word saying so."""
    pytest.importorskip("textual")
    result = invoke("play", "pacal-solo", "--seed", "3", stdin="1\nquit\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Not at a terminal: playing at line prompts (as with --plain)."
    assert "Card to place:" in result.output and "\x1b[" not in result.output


def test_an_empty_vs_is_refused_with_an_example() -> None:
    result = invoke("play", "pacal", "--plain", "--vs", " ", stdin="quit\n")
    assert result.exit_code == 2
    assert "--vs needs a level or an agent, for example --vs medium" in result.output


def test_rules_at_a_terminal_are_laid_out_to_its_width(monkeypatch) -> None:
    """Piped, the page is its Markdown (above); at a terminal it is wrapped to the
    terminal's width, headings and bold set as text, not as `#` and `**`."""
    monkeypatch.setattr("pyramids.cli.games.at_a_terminal", lambda: True)
    for lang in ("en", "ko"):
        result = runner.invoke(app, ["rules", "mahjongg", "--lang", lang],
                               env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        from rich.cells import cell_len

        assert max(cell_len(line) for line in lines) <= 80
        assert not any(line.startswith("#") for line in lines)
        assert "**" not in result.output and len(lines) > 100


@pytest.mark.parametrize(("game", "lang", "columns"), [("pacal-solo", "en", 60),
                                                      ("pacal", "ko", 80)])
def test_the_rules_at_line_prompts_wrap_as_paragraphs(game: str, lang: str,
                                                      columns: int) -> None:
    """`rules` at the prompt wrapped each line of the page on its own, the rest of a line
    indented under it: a paragraph read 'You\n  draw cards one by one\nfrom a pile',
    and a Korean page at 80 columns so too. A paragraph now wraps as one, a list item
    under its own words; every word is kept, in its order."""
    from rich.cells import cell_len

    from pyramids.play.learn import learn_text

    result = runner.invoke(app, ["play", game, "--plain", "--seed", "3", "--lang", lang],
                           input="rules\nquit\n", env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    shown = result.output.split("> ", 2)[1].rsplit("\n", 1)[0]
    assert shown.split() == learn_text(game, lang).split()
    lines = shown.splitlines()
    assert max(cell_len(line) for line in lines) <= columns
    blocks = [block.splitlines() for block in shown.split("\n\n")]
    paragraphs = [block for block in blocks
                  if not block[0].startswith(("-", " ", "#", "`", "|", *"0123456789"))]
    assert len(paragraphs) > 5
    # A paragraph's lines, up to a list that follows it without an empty line.
    prose = [line for block in paragraphs
             for line in itertools.takewhile(lambda line: not re.match(r"(-|\d+\.) ", line),
                                             block)]
    assert not [line for line in prose if line.startswith(" ")]
    items = [block for block in blocks if block[0].startswith("- ")]
    assert items and all(line.startswith(("- ", "  ")) for block in items for line in block)


def test_mahjongg_at_line_prompts_is_played_by_the_letters_on_the_tiles() -> None:
    """Pairs are typed by the letters printed on free tiles, never by tile numbers; the
    turn's move list does not give the pairs away; a refusal names the letters typed."""
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session
    from pyramids.play.text.mahjongg import tile_label

    session = new_session(load_game("mahjongg", {"layout": "turtle"}), ["human"], 3)
    state = session.state
    pair = next(move for move in state.legal_action_strings() if move.startswith("match"))
    first, second = (int(word) for word in pair.split()[1:])
    letters = f"match {tile_label(first)} {tile_label(second)}"
    view = state.view(0)
    free = [tile["id"] for tile in view["tiles"] if tile["free"]]
    legal = set(state.legal_action_strings())
    wrong = next((a, b) for a in free for b in free
                 if a < b and f"match {a} {b}" not in legal and f"match {b} {a}" not in legal)
    typed = f"match {tile_label(wrong[0])} {tile_label(wrong[1])}"
    inputs = iter([pair, typed, letters, None])
    lines: list[str] = []
    play_plain(session, lambda: next(inputs), lines.append)
    text = " ".join(" ".join(lines).split())  # long lines wrap at the terminal's width
    assert f"'{pair.split()[1]}' is not the letters of a tile on the board" in text
    assert f"the move '{typed}' is illegal: " in text and "do not match" in text
    assert state.history_strings() == [pair]  # played by its letters
    assert "'match' moves: find them on the board" in text
    assert "1) match" not in text


def test_giving_a_solo_game_up_is_asked_once_more_but_chance_is_never_asked() -> None:
    """Passing in Mahjongg alone ends the game lost: the first `pass` is answered with a
    question, the second ends it. Pacal solo's moves end the game only by the card
    drawn next, which the player cannot see: never asked (asking would tell it)."""
    from pyramids.play.moves import gives_up as ends_alone_without_a_win

    result = invoke("play", "mahjongg", "--plain", "--seed", "3",
                    stdin="pass\nhint\npass\npass\n")
    lines = result.output.split("> ")
    asked = [index for index, line in enumerate(lines) if "Type it again to end the game" in line]
    assert len(asked) == 2 and "You passed." in result.output  # hint in between: asked anew
    assert result.output.index("You passed.") > result.output.rindex("Type it again")
    for seed in range(30):
        state = load("pacal-solo").new_initial_state(seed)
        while not state.is_terminal():
            assert not any(ends_alone_without_a_win(state, move) for move in state.legal_actions())
            state.apply_action(state.legal_actions()[-1])


def test_replay_names_the_file_of_a_record_that_does_not_replay(tmp_path: Path) -> None:
    path = tmp_path / "changed.json"
    path.write_text(json.dumps({"format": "pyramids-record", "version": 1, "game": "pacal-solo",
                                "options": {}, "seed": 1, "actions": ["place F11"]}))
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {path}: game record: move 1 ('place F11')")


def test_resume_names_the_file_of_a_record_that_does_not_replay(tmp_path: Path) -> None:
    """As replay does: the person may have several saved games, and one is wrong."""
    path = tmp_path / "changed.json"
    path.write_text(json.dumps({"format": "pyramids-record", "version": 1, "game": "pacal",
                                "options": {}, "seed": 1, "players": ["human"],
                                "actions": []}))
    result = invoke("play", "--plain", "--resume", str(path))
    assert result.exit_code == 2
    assert result.output == (f"error: {path}: game record: pacal has 2 seats, but the record "
                             "names 1 player\n")


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "error: {path}: agent 'mcts' has no option 'bogus'; allowed options: "),
    ("ko", "오류: {path}: 에이전트 'mcts'에는 옵션 'bogus'이(가) 없습니다; 가능한 옵션: "),
])
def test_a_saved_game_whose_bot_cannot_be_made_goes_on_with_other_seats(
        tmp_path: Path, lang: str, line: str) -> None:
    """A record names a bot this install cannot make (an option an older version had, an
    agent whose extra is gone): resuming said only "agent 'mcts' has no option", naming
    no file, and --seats or --vs could not seat another bot, so the game was lost."""
    path = tmp_path / "saved.json"
    started = invoke("play", "pacal", "--seed", "4", "--plain", "--save", str(path),
                     *SHORT_MATCH, stdin="1\n1\nquit\n")
    assert started.exit_code == 0, started.output
    saved = json.loads(path.read_text())
    saved["players"] = ["human", "mcts:bogus=1"]
    path.write_text(json.dumps(saved))
    refused = invoke("--lang", lang, "play", "--plain", "--resume", str(path))
    assert refused.exit_code == 2
    assert refused.output.startswith(line.format(path=path)), refused.output
    assert ("--seats" in refused.output and "--vs" in refused.output), refused.output
    assert json.loads(path.read_text()) == saved
    # Seated again, the game goes on from where it stopped, its moves kept.
    resumed = invoke("play", "--plain", "--resume", str(path), "--vs", "easy",
                     stdin="1\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    record = GameRecord.load_file(path)
    assert record.players == ["human", "easy"]
    assert record.actions[:len(saved["actions"])] == saved["actions"]
    assert len(record.actions) > len(saved["actions"])


@pytest.mark.parametrize(("lang", "content", "line"), [
    ("en", None, "error: cannot read game record {path}: there is no such file or folder"),
    ("en", b"\xff\xd8 a photo", "error: {path} is not a game record: a record is JSON text "
                                "(UTF-8), and this file is not text"),
    ("en", b"", "error: {path}: not a game record: the JSON breaks off or is malformed at "
                "line 1, column 1"),
    ("en", b'{"format": "pyramids-record", "version": 1, "game": "pacal", "seed": 1, '
           b'"actions": []}',
     "error: {path}: no commitment in this record (it is not from a server room, or the "
     "room is older than commitments)"),
    ("ko", None, "오류: 게임 기록 {path}을(를) 읽을 수 없습니다: 그런 파일이나 폴더가 없습니다"),
])
def test_verify_room_says_what_is_wrong_with_the_file(
        tmp_path: Path, lang: str, content: bytes | None, line: str) -> None:
    """One line in the reader's language, as replay says it: not an empty option name
    (`error: : cannot read`), nor Python's `[Errno 2]` or a codec's words."""
    path = tmp_path / "room.json"
    if content is not None:
        path.write_bytes(content)
    result = invoke("--lang", lang, "verify-room", str(path))
    assert result.exit_code == 2
    assert result.output.splitlines() == [line.format(path=path)]


@pytest.mark.parametrize(("game", "args"), [
    ("temple", ["--players", "3", "--vs", "easy"]),
    ("mahjongg", ["--option", "mode=time-attack"]),
    ("pacal", ["--vs", "easy", "--lang", "ko"]),
])
def test_every_line_of_a_plain_game_fits_80_columns(game: str, args: list[str]) -> None:
    """Words wrap at the terminal's width (the moves told, headers, the end); a board's
    drawing is made to fit instead of wrapped."""
    from rich.cells import cell_len

    result = runner.invoke(app, ["play", game, "--plain", "--seed", "6", *args],
                           input="1\n" * 60, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = [line.split("> ")[-1] for line in result.output.splitlines()]
    assert max(cell_len(line) for line in lines) <= 80


def test_plain_mahjongg_never_lists_nor_numbers_the_pairs() -> None:
    """`moves` listed every pair, and a typed number played one: a free hint that kept
    the streak. Pairs are found on the board; numbers name the other moves only."""
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session

    session = new_session(load_game("mahjongg", {"layout": "ramesseum"}), ["human"], 5)
    state = session.state
    pairs = [move for move in state.legal_action_strings() if move.startswith("match ")]
    assert pairs
    inputs = iter(["moves", *[str(n) for n in range(1, 4)], "quit"])
    lines: list[str] = []
    played: list[str] = []
    original = state.apply_action

    def read_line() -> str | None:
        return next(inputs, None)

    def watch(action: int) -> None:
        played.append(state.action_to_string(action))
        original(action)

    state.apply_action = watch  # type: ignore[method-assign]
    play_plain(session, read_line, lines.append)
    text = "\n".join(lines)
    assert not re.search(r"\d+\) match ", text), "a pair listed with its number"
    assert f"{len(pairs)} 'match' moves: find them on the board" in text
    assert played and not any(move.startswith("match ") for move in played), played


def test_plain_save_without_a_name_picks_a_free_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`save` alone asked the player to think up a file name; the app's Ctrl+S picks
    one. It never takes another saved game's file."""
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyramids-pacal-solo-3.json").write_text("another game", encoding="utf-8")
    session = new_session(load_game("pacal-solo", {}), ["human"], 3)
    inputs = iter(["1", "save", "1", "quit"])
    lines: list[str] = []
    play_plain(session, lambda: next(inputs, None), lines.append)
    saved = tmp_path / "pyramids-pacal-solo-3-2.json"
    assert saved.exists() and session.save_path.resolve() == saved
    assert (tmp_path / "pyramids-pacal-solo-3.json").read_text(encoding="utf-8") == "another game"
    record = GameRecord.load_file(saved)
    assert len(record.actions) == 2  # saved after the later move too
    assert any(f"--resume {saved.name}" in line or str(saved) in line for line in lines)


def test_a_plain_number_plays_only_a_move_shown_with_it() -> None:
    """Pacal's 105 offers are summarized; '9' played the ninth offer of the whole list,
    which the player never saw. A number plays what was shown with it, and 'moves'
    shows (and so allows) them all."""
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session

    def turn(inputs: list[str]) -> tuple[str, list[str]]:
        session = new_session(load_game("pacal", {}), ["human", "random"], 3)
        state = session.state
        assert state.current_player == 0
        offers = [move for move in state.legal_action_strings() if move.startswith("offer ")]
        assert len(offers) > 40
        lines: list[str] = []
        feed = iter([*inputs, "quit"])
        play_plain(session, lambda: next(feed, None), lines.append)
        played = [state.action_to_string(a) for a in state.history()]
        return "\n".join(lines), played[:1]

    offers = load("pacal").new_initial_state(3).legal_action_strings()
    text, played = turn(["9", "0"])
    assert played == []  # neither the unseen ninth offer nor anything else
    assert f"for example 1) {offers[0]}, 2) {offers[1]}, 3) {offers[2]}" in text
    assert ("there is no move number 9 in the list shown; type a number shown with a move "
            "(1-3), or 'moves' to list every legal move with its number") in text.replace(
                "\n  ", " ")
    assert "there is no move number 0 in the list shown" in text.replace("\n  ", " ")
    assert turn(["2"])[1] == [offers[1]]  # a number shown with its move plays it
    assert turn(["moves", "9"])[1] == [offers[8]]  # listed whole, every number is read


def test_simulate_solo_win_rate_is_a_percentage_with_its_interval() -> None:
    """As arena and balance give it: 2 of 30 is "6.7% (95% CI 1.8-21.3%)", not 0.067."""
    from pyramids.sim.stats import wilson_interval

    report = json.loads(invoke("simulate", "pacal-solo", "--agents", "random", "--games",
                               "30", "--seed", "1", "--json").stdout)
    wins = report["wins"][0]
    assert report["ci95"] == list(wilson_interval(wins, 30))
    text = invoke("simulate", "pacal-solo", "--agents", "random", "--games", "30", "--seed",
                  "1").stdout
    low, high = report["ci95"]
    assert (f"win rate: {100 * wins / 30:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"
            in text)


def test_simulate_json_names_what_its_losses_count() -> None:
    """`losses` counts games every seat lost (alone: games not won), not seats' losses:
    the same figure under a name that cannot be misread, the old key kept."""
    solo = json.loads(invoke("simulate", "pacal-solo", "--agents", "random", "--games", "10",
                             "--json").stdout)
    assert solo["games_every_seat_lost"] == solo["losses"] == 10 - solo["wins"][0]
    match = json.loads(invoke("simulate", "pacal", "--games", "2", "--json",
                              *SHORT_MATCH).stdout)
    assert match["games_every_seat_lost"] == match["losses"] == 0


def test_plain_quit_on_a_game_not_saved_asks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`quit` threw away the moves played at once, where the app asks; now it says the
    game is not saved and stops when typed again. A saved game stops at once."""
    from pyramids.cli.plain import play_plain
    from pyramids.play.session import load_game, new_session

    monkeypatch.chdir(tmp_path)
    session = new_session(load_game("pacal-solo", {}), ["human"], 3)
    inputs = iter(["quit", "1", "quit", "1", "quit", "quit"])
    lines: list[str] = []
    assert play_plain(session, lambda: next(inputs, None), lines.append) is False
    asked = [line for line in lines if line.startswith("This game is not saved.")]
    assert not asked and lines[-1].startswith("Stopped.")  # nothing played: nothing lost

    session = new_session(load_game("pacal", {}), ["human", "random"], 3)
    inputs = iter(["1", "quit", "1", "quit", "quit", "1"])
    lengths: list[int] = []  # the game's length at each line read

    def read_line() -> str | None:
        lengths.append(len(session.state.history()))
        return next(inputs, None)

    lines = []
    assert play_plain(session, read_line, lines.append) is False
    asked = [line for line in lines if line.startswith("This game is not saved.")]
    assert len(asked) == 2  # asked again after a move played in between
    assert "Type save to keep it" in asked[0]
    assert lengths[3] > lengths[2]  # the move typed after the first quit was played
    assert len(lengths) == 5  # the second quit in a row stopped: the last "1" unread

    session = new_session(load_game("pacal-solo", {}), ["human"], 3)
    inputs = iter(["1", "save", "quit", "1"])
    lines = []
    assert play_plain(session, lambda: next(inputs, None), lines.append) is False
    assert not [line for line in lines if line.startswith("This game is not saved.")]
    assert len(session.state.history()) == 1


def test_the_resume_command_a_stopped_game_names_can_be_copied_whole(tmp_path: Path) -> None:
    """The line prompts wrapped 'go on with: pyramids play --resume FILE' at a space
    inside the command, and a path with a space in it was not quoted: pasted, either
    ran something else. The command stays on one line and quotes its path."""
    import shlex

    folder = tmp_path / "my saves"
    folder.mkdir()
    target = folder / "a long game of pacal solo.json"
    result = runner.invoke(app, ["play", "pacal-solo", "--plain", "--seed", "3",
                                 "--save", str(target)], input="quit\n",
                           env={"COLUMNS": "60", "LANG": "en_US.UTF-8"})
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "pyramids play" in line)
    command = shlex.split(line[line.index("pyramids play"):])
    assert command == ["pyramids", "play", "--resume", str(target)]
    resumed = runner.invoke(app, command[1:] + ["--plain"], input="quit\n")
    assert resumed.exit_code == 0 and "Pacal solo, seed 3" in resumed.output, resumed.output
