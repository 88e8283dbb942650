"""Tutorials: data that replays through the engine, taught moves only, then a real game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from pyramids.agents import make_agent
from pyramids.cli.main import app
from pyramids.core import manifests
from pyramids.play.i18n import _, set_language, words_text
from pyramids.play.results import SEAT_NAME_WORDS
from pyramids.play.tutorial import TutorialError, TutorialRun, parse_tutorial, tutorial_for

TUTORIAL_GAMES = [m.name for m in manifests() if m.tutorial is not None and m.tutorial()]


def as_typed(game: str, move: str) -> str:
    """A taught move as a person types it: Mahjongg's tiles by the letters on the board."""
    if game != "mahjongg":
        return move
    from pyramids.play.text.mahjongg import tile_label

    kind, *things = move.split(" ")
    return " ".join([kind, *(tile_label(int(thing)) for thing in things)])


def test_the_games_have_tutorials() -> None:
    assert {"pacal", "pacal-solo", "temple", "mahjongg"} <= set(TUTORIAL_GAMES)


@pytest.mark.parametrize("game", TUTORIAL_GAMES)
def test_each_tutorial_speaks_to_players(game: str) -> None:
    """A hint for every taught move; no move strings (numbers, tile ids) in the texts; Korean."""
    tutorial = tutorial_for(game)
    assert tutorial is not None
    assert 6 <= len(tutorial.steps) <= 12
    moves = [move for step in tutorial.steps for move in (*step.before, step.expect or "")
             if any(char.isdigit() for char in move)]
    for step in tutorial.steps:
        if step.expect is not None:
            assert step.hint, f"{game}: the step teaching {step.expect!r} has no hint"
        for text in (tutorial.title, step.say, step.hint or ""):
            assert not [move for move in moves if move in text], text
            assert "tile:" not in text, text
            if text:
                assert _(text, lang="ko") != text, f"{game}: no Korean for {text!r}"


@pytest.mark.parametrize("game", TUTORIAL_GAMES)
def test_each_tutorial_replays_and_ends_in_a_real_position(game: str) -> None:
    tutorial = tutorial_for(game)
    assert tutorial is not None
    state = tutorial.check()
    assert not state.is_terminal()
    # The learner can finish it: here greedy plays the learner's seat too.
    agents = {seat: make_agent("greedy" if name == "human" else name, seed=seat)
              for seat, name in enumerate(tutorial.seats_for_finish())}
    while not state.is_terminal():
        state.apply_action(agents[state.current_player].step(state))


@pytest.mark.parametrize("game", TUTORIAL_GAMES)
def test_a_tutorial_accepts_only_the_taught_move(game: str) -> None:
    tutorial = tutorial_for(game)
    assert tutorial is not None
    run = TutorialRun(tutorial, lang="en")
    while not run.finished:
        step = run.step
        assert step is not None and run.text()
        if step.expect is None:
            run.go_on()
            continue
        others = [m for m in run.state.legal_action_strings() if m != step.expect]
        if others:
            before = run.state.to_json()
            refused = run.attempt(others[0])
            assert not refused.accepted and refused.message
            assert run.state.to_json() == before
        assert run.attempt(step.expect).accepted
    assert not run.state.is_terminal()


# The moves each game's boards (terminal and browser) make with a button of their own.
BUTTON_MOVES = {
    "temple": ("pass", "summon", "swap pass", "set "),
    "mahjongg": ("hint", "undo", "sight", "reshuffle", "finish", "pass"),
}


def is_button_move(game: str, move: str) -> bool:
    return any(move == name or (name.endswith(" ") and move.startswith(name))
               for name in BUTTON_MOVES.get(game, ()))


def drawn_at_step(game: str, word: str, view: dict[str, Any], legal: list[str]) -> bool:
    """Whether a highlight word names something the boards draw in the learner's `view`
    (the words of `pyramids.play.tutorial`'s docstring)."""
    kind, _colon, value = word.rpartition(":")
    if kind == "button":
        return is_button_move(game, value) and value in legal
    if kind == "hand":
        hand = view.get("hand")
        if isinstance(hand, dict):  # Temple: counts by kind
            return hand.get(value, 0) > 0
        return hand is not None and value.isdigit() and int(value) in hand
    if kind == "offer":
        return value.isdigit() and int(value) in (view.get("offer") or [])
    if kind == "swap":
        zone = view.get("swap_zone") or []
        return value.isdigit() and 1 <= int(value) <= len(zone) and zone[int(value) - 1] is not None
    if kind == "tile":
        return value.isdigit() and any(tile["id"] == int(value) for tile in view.get("tiles", []))
    number = value[1:]
    return (not kind and value.startswith("F") and number.isdigit() and "layout" in view
            and 1 <= int(number) <= len(view["layout"]))


@pytest.mark.parametrize("game", TUTORIAL_GAMES)
def test_each_highlight_names_what_the_board_draws_at_its_step(game: str) -> None:
    """Every step's highlight words name something on the board as the step stands (a
    card in the hand, a slot, a tile, the button of a legal move); a step that teaches a
    move made by a button names that button, so the boards put the keyboard on it (on
    the Temple step that says Pass the keyboard was on Summon)."""
    tutorial = tutorial_for(game)
    assert tutorial is not None
    run = TutorialRun(tutorial, lang="en")
    while not run.finished:
        step = run.step
        assert step is not None
        view = run.state.view(tutorial.learner)
        legal = run.state.legal_action_strings()
        for word in step.highlight:
            assert drawn_at_step(game, word, view, legal), (game, run.index + 1, word)
        if step.expect is None:
            run.go_on()
            continue
        if is_button_move(game, step.expect):
            assert f"button:{step.expect}" in step.highlight, (game, run.index + 1)
        assert run.attempt(step.expect).accepted


def test_highlight_words_that_name_nothing_drawn_are_caught() -> None:
    """The check above fails where it should: a card not in the hand, an empty or missing
    slot, a move that is no button or not legal now, an unknown word."""
    view = {"hand": {"L1": 1, "J": 0}, "swap_zone": ["L2", None]}
    assert drawn_at_step("temple", "hand:L1", view, [])
    assert not drawn_at_step("temple", "hand:J", view, [])
    assert drawn_at_step("temple", "swap:1", view, [])
    assert not drawn_at_step("temple", "swap:2", view, [])
    assert not drawn_at_step("temple", "swap:3", view, [])
    assert drawn_at_step("temple", "button:set 1 1", view, ["set 1 1", "pass"])
    assert not drawn_at_step("temple", "button:summon", view, ["pass"])
    assert not drawn_at_step("temple", "button:swap L1 2", view, ["swap L1 2"])
    assert not drawn_at_step("temple", "F7", view, [])
    assert not drawn_at_step("temple", "knob:pass", view, ["pass"])
    pacal = {"hand": [2, 28], "offer": [48], "layout": [[0, 0]] * 10}
    assert drawn_at_step("pacal", "hand:28", pacal, [])
    assert not drawn_at_step("pacal", "hand:29", pacal, [])
    assert drawn_at_step("pacal", "offer:48", pacal, [])
    assert drawn_at_step("pacal", "F10", pacal, [])
    assert not drawn_at_step("pacal", "F11", pacal, [])
    assert not drawn_at_step("pacal", "button:pass", pacal, ["pass"])
    assert drawn_at_step("mahjongg", "tile:3", {"tiles": [{"id": 3}]}, [])
    assert not drawn_at_step("mahjongg", "tile:4", {"tiles": [{"id": 3}]}, [])


def test_malformed_tutorials_are_refused_with_the_reason() -> None:
    good = {"game": "pacal-solo", "seed": 23, "title": "t", "steps": [{"say": "hello"}]}
    assert parse_tutorial(json.dumps(good)).steps[0].say == "hello"
    with pytest.raises(TutorialError) as missing:
        parse_tutorial(json.dumps({**good, "steps": [{"expect": "place F1"}]}))
    assert str(missing.value) == "malformed tutorial: 'say' is missing"
    with pytest.raises(TutorialError, match="malformed tutorial: invalid literal"):
        parse_tutorial(json.dumps({**good, "seed": "soon"}))
    with pytest.raises(TutorialError, match="exactly one 'human' seat"):
        parse_tutorial(json.dumps({**good, "seats": ["greedy"]}))
    with pytest.raises(TutorialError, match="at least one step"):
        parse_tutorial(json.dumps({**good, "steps": []}))
    bad_move = {**good, "steps": [{"say": "x", "expect": "place F1"},
                                  {"say": "y", "expect": "place F10"},
                                  {"say": "z", "expect": "place F10"}]}
    # Seed 23 draws 42, 40, 44: the 44 cannot cover the 40 on F10 under the 42 on F1.
    with pytest.raises(TutorialError) as illegal:
        parse_tutorial(json.dumps(bad_move)).check()
    assert str(illegal.value).startswith(
        "pacal-solo tutorial, step 3: the expected move 'place F10' is illegal: ")
    # An author reads it in Korean too, with the engine's reason translated.
    korean = words_text(illegal.value, "ko")
    assert korean.startswith("pacal-solo 튜토리얼, 3단계:") and "'place F10'" in korean
    assert "is illegal" not in korean
    too_far = {**good, "steps": [{"say": "x", "before": ["offer 1 2"]}]}
    with pytest.raises(TutorialError, match="the move played before it, 'offer 1 2', is illegal"):
        parse_tutorial(json.dumps(too_far)).check()


@pytest.mark.parametrize(("lang", "welcome", "hint", "finish", "sixth_draw"), [
    ("en", "Welcome! You build a pyramid", "Put the 42 on F2",
     "Now finish the game on your own.", "Draws: 6,"),
    ("ko", "환영합니다!", "42를 F2에 놓으세요", "이제 혼자서 게임을 끝까지 해 보세요.",
     "뽑은 수: 6,"),
])
def test_the_solo_tutorial_at_line_prompts(lang: str, welcome: str, hint: str,
                                           finish: str, sixth_draw: str) -> None:
    moves = "\nplace F1\nplace F2\nplace F3\nplace F1\nplace F10\nplace F5\n\nquit\n"
    try:
        result = CliRunner().invoke(app, ["tutorial", "pacal-solo", "--lang", lang], input=moves)
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    assert welcome in result.output
    assert finish in result.output
    # The wrong first move got the step's hint; the taught ones went on to the game.
    assert hint in result.output
    assert sixth_draw in result.output


def test_a_game_without_a_tutorial_says_where_to_learn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pyramids.cli.tutorial.tutorial_for", lambda game: None)
    try:
        result = CliRunner().invoke(app, ["tutorial", "pacal", "--lang", "en"])
    finally:
        set_language(None)
    assert result.exit_code == 2
    assert "pyramids rules pacal" in result.output


@pytest.mark.parametrize("game", TUTORIAL_GAMES)
def test_each_tutorial_runs_at_line_prompts_in_korean(game: str) -> None:
    tutorial = tutorial_for(game)
    assert tutorial is not None
    lines = [as_typed(game, step.expect or "") for step in tutorial.steps]
    try:
        # Wide enough that no step's words are wrapped: they are looked for whole.
        result = CliRunner().invoke(app, ["tutorial", game, "--lang", "ko"],
                                    input="\n".join([*lines, "quit", ""]),
                                    env={"COLUMNS": "1000"})
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    assert _(tutorial.title, lang="ko") in result.output
    assert _(tutorial.steps[-1].say, lang="ko") in result.output
    # Every taught move was accepted, and the game went on against the bot.
    assert result.output.count(_("Well done.", lang="ko")) == sum(
        step.expect is not None for step in tutorial.steps)
    if len(tutorial.seats) > 1:
        # The bot by its name in words ("greedy" was shown as the agent's id).
        bot = _(SEAT_NAME_WORDS[tutorial.finish_against], lang="ko")
        assert bot != tutorial.finish_against
        finish = _("Now finish the game against {bot}.", lang="ko", bot=bot)
    else:
        finish = _("Now finish the game on your own.", lang="ko")
    assert finish in result.output


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("game", TUTORIAL_GAMES)
def test_every_line_of_a_tutorial_at_line_prompts_fits_80_columns(game: str, lang: str) -> None:
    """A step's words were written as one line of a few hundred letters, which a terminal
    breaks mid-word; they wrap between words at its width, as a game's lines do."""
    from rich.cells import cell_len

    tutorial = tutorial_for(game)
    assert tutorial is not None
    lines = [as_typed(game, step.expect or "") for step in tutorial.steps]
    try:
        result = CliRunner().invoke(app, ["tutorial", game, "--plain", "--lang", lang],
                                    input="\n".join([*lines, "quit", ""]),
                                    env={"COLUMNS": "80"})
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    shown = [line.split("> ")[-1] for line in result.output.splitlines()]
    assert max(cell_len(line) for line in shown) <= 80, max(shown, key=cell_len)


def test_an_empty_line_or_a_wrong_move_does_not_draw_the_step_again() -> None:
    """The board and the step's words are drawn once a step; an empty Enter or a
    wrong move gets a new prompt (and the wrong move its hint), not the whole page."""
    from pyramids.cli.tutorial import run_steps
    from pyramids.play.tutorial import TutorialRun, tutorial_for

    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None
    run = TutorialRun(tutorial)
    while not run.waits_for_move():  # the first step that asks for a move
        run.go_on()
    inputs = iter(["", "", "place F3", "", "quit"])
    lines: list[str] = []
    assert run_steps(run, lambda: next(inputs), lines.append) is False
    boards = [line for line in lines if line.startswith("Draws: 1,")]
    prompts = [line for line in lines if line.endswith("> ")]
    hints = [line for line in lines if line.startswith("Put the 42 on F2")]
    assert len(boards) == 1 and len(prompts) == 5 and len(hints) == 1


def test_the_mahjongg_tutorial_names_tiles_by_the_letters_on_its_board() -> None:
    """The board and its legend say `match a b`; the steps took only the engine's tile
    numbers, shown nowhere, and `moves` listed every pair by them."""
    tutorial = tutorial_for("mahjongg")
    assert tutorial is not None
    taught = next(step.expect for step in tutorial.steps if step.expect)
    assert taught.startswith("match ")
    try:
        result = CliRunner().invoke(app, ["tutorial", "mahjongg", "--plain", "--lang", "en"],
                                    input=f"\nmoves\n{taught}\n{as_typed('mahjongg', taught)}"
                                          "\nquit\n", env={"COLUMNS": "200"})
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    prompts = [line.split("> ", 1)[1] for line in result.output.splitlines() if "> " in line]
    listed, numbers, letters = prompts[1:4]
    assert "match" not in listed and "'match' moves: find them on the board" in result.output
    assert numbers.startswith("Not a legal move: '") and "letters" in numbers
    assert letters == "Well done."
