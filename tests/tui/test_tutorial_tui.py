"""The tutorials in the full-screen app, in English and Korean, played as a learner plays:
the taught move is read from the tutorial, then made by clicks on the board (fields,
cards, kinds, slots, tiles) and its buttons; never typed."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import State, load  # noqa: E402
from pyramids.play.i18n import _, set_language  # noqa: E402
from pyramids.play.session import HUMAN, new_session  # noqa: E402
from pyramids.play.tutorial import Tutorial, tutorial_for  # noqa: E402
from pyramids.tui.app import HelpScreen, PlayApp  # noqa: E402
from pyramids.tui.board import Board  # noqa: E402
from pyramids.tui.tutorial import TutorialApp  # noqa: E402
from tests.tui.helpers import SMALL, settle  # noqa: E402
from tests.tui.test_mahjongg_tui import click_at, click_tile  # noqa: E402


@pytest.fixture
def language():  # type: ignore[no-untyped-def]
    """Set the run's language as `--lang` does; back to the environment's after."""
    yield set_language
    set_language(None)


def selectors_for(move: str, learner: int) -> list[str]:
    """What a learner clicks for `move` on the Pacal or Temple board."""
    kind, *rest = move.split()
    if kind == "place":
        return [f"#p{learner}-{rest[0].lower()}"]
    if kind == "offer":
        return [f"#hand-{rest[0]}", f"#hand-{rest[1]}"]
    if kind == "pick":
        return [f"#offer-{rest[0]}"]
    if kind == "swap" and rest != ["pass"]:
        return [f"#hand-{rest[0]}", f"#slot-{rest[1]}"]
    return ["#do-" + move.replace(" ", "-")]


def lit_selector(word: str, learner: int) -> str | None:
    """The board's widget a highlight word lights in the terminal app (None: Mahjongg's
    tiles, lit in its canvas)."""
    kind, _colon, value = word.rpartition(":")
    if kind == "button":
        return "#do-" + value.replace(" ", "-")
    if kind in ("hand", "offer"):
        return f"#{kind}-{value}"
    if kind == "swap":
        return f"#slot-{value}"
    if kind == "tile":
        return None
    assert not kind and value.startswith("F"), word
    return f"#p{learner}-{value.lower()}"


async def click(pilot, app: TutorialApp, selector: str) -> None:  # type: ignore[no-untyped-def]
    """Scroll a widget into sight as a person would, then click its middle."""
    widget = app.query_one(selector)
    area = app.query_one("#board-area")
    before = area.scroll_offset
    widget.scroll_visible(animate=False, immediate=True)
    if area.scroll_offset != before:
        await pilot.pause()
    await click_at(pilot, app, selector, (widget.size.width // 2, widget.size.height // 2))


async def make_move(pilot, app: TutorialApp, move: str) -> None:  # type: ignore[no-untyped-def]
    if move.startswith("match "):
        for tile in move.split()[1:]:
            await click_tile(pilot, app, int(tile))
    elif app.session.game.name == "mahjongg":
        app.action_focus_board()
        await pilot.press({"sight": "r", "hint": "h", "undo": "u", "pass": "p"}[move])
    else:
        for selector in selectors_for(move, app.lesson.tutorial.learner):
            await click(pilot, app, selector)


def a_wrong_move(app: TutorialApp, expected: str) -> str | None:
    """Another legal move the board offers (a Pacal field or a Temple button), if any."""
    for move in app.lesson.state.legal_action_strings():
        if move != expected and move.split()[0] in ("place", "pass", "summon"):
            return move
    return None


def footer_actions(app: TutorialApp) -> set[str]:
    """The actions the footer shows now (hidden ones are left out)."""
    return {binding.action for _key, (_node, binding, enabled, _tip)
            in app.active_bindings.items() if enabled}


def step_text(app: TutorialApp) -> str:
    return str(app.query_one("#step-text").render())


async def run_through(tutorial: Tutorial, lang: str) -> None:
    app = TutorialApp(tutorial, agent_delay=0)
    wrong_tried = False
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for number, step in enumerate(tutorial.steps, start=1):
            assert app.lesson.index == number - 1
            assert step_text(app) == _(step.say, lang=lang)
            # The footer offers Ctrl+N only on steps it moves on from.
            offered = footer_actions(app)
            assert ("next_step" in offered) == (step.expect is None), (number, offered)
            if step.expect is None:
                button = app.query_one("#next")
                assert button.display
                while button.has_class("-active"):  # a button takes one press at a time
                    await pilot.pause(0.05)
                await click(pilot, app, "#next")
                continue
            assert not app.query_one("#next").display
            await pilot.pause()
            lit = {widget.id for widget in app.board.query(".taught")}
            for word in step.highlight:
                selector = lit_selector(word, tutorial.learner)
                if selector is not None:  # Mahjongg's tiles are lit in its canvas
                    assert selector[1:] in lit, (number, word, "is not lit", lit)
            buttons = [word for word in step.highlight if word.startswith("button:")]
            if buttons:  # the keyboard is on the step's button
                focused = app.focused
                assert focused is not None and f"#{focused.id}" == lit_selector(
                    buttons[0], tutorial.learner), (number, focused)
            wrong = a_wrong_move(app, step.expect)
            if wrong is not None and not wrong_tried:
                wrong_tried = True
                history = list(app.lesson.state.history())
                await make_move(pilot, app, wrong)
                assert app.lesson.state.history() == history  # refused, nothing changed
                assert app.lesson.index == number - 1
                assert app.message == _(step.hint or "", lang=lang)
            await make_move(pilot, app, step.expect)
            assert app.lesson.index == number, f"step {number}: {step.expect} not accepted"
        # The steps' moves are in the log in words, as a game's are: never as the action
        # strings ("pick 28", "swap L7 1", "match 3 9").
        log = [str(line.text) for line in app.query_one("#log").lines]
        assert log
        for move in app.lesson.state.history_strings():
            assert not any(line.endswith(f": {move}") for line in log), (move, log)
        if lang == "en" and len(tutorial.seats) > 1:
            # The other seats by the bot the learner finishes against, as the browser's
            # log names bots ("Greedy rule (bot)"), never "Seat 2".
            assert not any(line.startswith("Seat ") for line in log), log
            assert any("Greedy rule (bot" in line for line in log), log
        # The steps are done: the panel goes, and the game goes on against the bot.
        assert app.lesson.finished
        assert not app.query_one("#tutorial").display
        assert "next_step" not in footer_actions(app)
        assert app.session.seats == list(tutorial.seats_for_finish())
        assert app.session.state is app.lesson.state
        before = len(app.session.state.history())
        await settle(pilot, app)
        legal = app.session.state.legal_action_strings()
        kinds = ["match", "place", "offer", "pick", "swap", "pass"]
        move = min((m for m in legal if m.split()[0] in kinds),
                   key=lambda m: kinds.index(m.split()[0]))
        await make_move(pilot, app, move)
        assert len(app.session.state.history()) > before
        if len(tutorial.seats) > 1:
            await settle(pilot, app)
            assert app.session.is_human_turn() or app.session.state.is_terminal()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("game", ["pacal", "pacal-solo", "temple", "mahjongg"])
async def test_each_tutorial_to_its_end_by_the_board(game: str, lang: str, language) -> None:  # type: ignore[no-untyped-def]
    language(lang)
    tutorial = tutorial_for(game)
    assert tutorial is not None and tutorial.seats.count(HUMAN) == 1
    await run_through(tutorial, lang)


async def test_help_shows_the_korean_learn_page_in_tabs(language) -> None:  # type: ignore[no-untyped-def]
    language("ko")
    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None
    app = TutorialApp(tutorial, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        tabs = [str(tab.label) for tab in app.screen.query("Tab")]
        assert tabs == ["키", "소개", "구성물", "규칙", "전략", "자주 묻는 질문", "우리의 결정"]
        keys = app.screen.query_one("#help-keys Markdown").source
        assert "Ctrl+Q" in keys and "끝내기" in keys
        rules = app.screen.query_one("#help-3 Markdown").source
        assert "쌓기 규칙" in rules
        await pilot.press("right")  # the tabs by keyboard
        assert app.screen.query_one("TabbedContent").active == "help-1"
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_command_opens_the_app_at_a_terminal_and_prompts_with_plain(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from pyramids.cli.main import app as cli

    opened: list[tuple[str, str]] = []
    monkeypatch.setattr("pyramids.cli.tutorial.full_screen_possible", lambda: True)
    monkeypatch.setattr("pyramids.tui.tutorial.run_tutorial_app",
                        lambda tutorial: opened.append((tutorial.game, _("Next"))))
    try:
        result = CliRunner().invoke(cli, ["tutorial", "temple", "--lang", "ko"])
        assert result.exit_code == 0, result.output
        assert opened == [("temple", "다음")]  # the app, in the language asked for
        result = CliRunner().invoke(cli, ["tutorial", "pacal-solo", "--plain", "--lang", "en"],
                                    input="quit\n")
    finally:
        set_language(None)
    assert result.exit_code == 0, result.output
    assert opened == [("temple", "다음")]
    assert "Welcome! You build a pyramid" in result.output  # the line prompts


@pytest.mark.parametrize("entry", ["new", "restart"])
async def test_a_new_game_from_the_menu_mid_lesson_leaves_the_steps(entry: str) -> None:
    """F2's new game (or the same deal again) in the middle of the steps is that game,
    played as any other: the steps and their panel go, and a move is played on the board
    shown (the steps went on with the tutorial's game under the new one's board)."""
    tutorial = tutorial_for("pacal")
    assert tutorial is not None
    app = TutorialApp(tutorial, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        lesson_state = app.lesson.state
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click(f"#choice-{entry}")
        await pilot.pause()
        assert app.session.state is not lesson_state
        assert not app.in_steps and not app.query_one("#tutorial").display
        assert "next_step" not in footer_actions(app)
        assert "tutorial" not in app.title
        await settle(pilot, app)
        before = len(app.session.state.history())
        move = app.session.state.legal_action_strings()[0]
        await make_move(pilot, app, move)
        assert len(app.session.state.history()) > before  # then the bot's answer


def play_out(state: State) -> None:
    """The first legal move until the game is over (the learner's part is not tested here)."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


async def test_a_game_from_the_menu_after_a_tutorial_counts_for_best_scores() -> None:
    """The tutorial's own game is no best score (its deal and first moves were given); a
    new game from the menu is one as any other, and the best scores keep it."""
    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None
    app = TutorialApp(tutorial, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        store = app._store()
        assert store is not None
        play_out(app.session.state)  # the tutorial's game, played to its end
        app.advance()
        await pilot.pause()
        assert store.entries("pacal-solo") == []
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-new")
        await pilot.pause()
        assert app.session.state is not app.lesson.state
        play_out(app.session.state)
        app.advance()
        await pilot.pause()
        assert [entry.seed for entry in store.entries("pacal-solo")] == [str(app.session.seed)]


@pytest.mark.parametrize("mid_lesson", [True, False])
async def test_the_lessons_deal_restarted_is_no_best_score(mid_lesson: bool) -> None:
    """F2's "Restart this deal", in the middle of the steps or after them, deals the
    tutorial's cards again, which the learner has seen: that game is no best score."""
    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None
    app = TutorialApp(tutorial, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        store = app._store()
        assert store is not None
        if not mid_lesson:
            play_out(app.session.state)
            app.advance()
            await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-restart")
        await pilot.pause()
        assert app.session.state is not app.lesson.state
        assert app.session.seed == tutorial.seed
        play_out(app.session.state)
        app.advance()
        await pilot.pause()
        assert app.session.state.is_terminal()
        assert store.entries("pacal-solo") == []


@pytest.mark.parametrize("kind", ["play", "tutorial"])
async def test_callbacks_that_arrive_after_the_app_closed_do_nothing(kind: str) -> None:
    """A board's Redrawn, a clock tick, an agent's timer or a deferred focus may be
    delivered while the app quits, after its screens are gone; they must neither raise
    (CI failed once: F2's new game redrawn as the test's app closed) nor touch the game."""
    tutorial = tutorial_for("pacal")
    assert tutorial is not None
    if kind == "tutorial":
        app: PlayApp = TutorialApp(tutorial, agent_delay=0)
    else:
        app = PlayApp(new_session(load("pacal"), [HUMAN, "random"], 3), agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
    assert not app.screen_stack
    history = list(app.session.state.history())
    app.on_board_redrawn(Board.Redrawn(True))
    app.on_board_redrawn(Board.Redrawn(False))
    app.action_focus_board()
    app._focus_board_unless_busy()
    app._focus_end_choices()
    app.tick()
    app.advance()
    app.agent_move()
    assert list(app.session.state.history()) == history


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_temple_step_that_says_pass_has_the_keyboard_on_pass(lang: str, language) -> None:  # type: ignore[no-untyped-def]
    """Step 3 of the Temple tutorial says "Pass too": the Pass button is the lit one and
    has the keyboard (it went to Summon, the first button), and Enter there passes and
    goes on; step 4's "keep your hand" then has the keyboard on Keep my hand."""
    language(lang)
    tutorial = tutorial_for("temple")
    assert tutorial is not None
    assert tutorial.steps[2].expect == "pass" and tutorial.steps[3].expect == "swap pass"
    app = TutorialApp(tutorial, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await click(pilot, app, "#next")
        await pilot.pause()
        # Step 2's swap by the keyboard: Enter on the lit slot 4 (drawn first), then L9.
        assert app.focused is not None and app.focused.id == "slot-4"
        await pilot.press("enter")
        app.query_one("#hand-L9").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.lesson.index == 2
        assert [widget.id for widget in app.board.query("Button.taught")] == ["do-pass"]
        assert app.query_one("#do-summon").display  # Summon is there, first, and not lit
        assert app.focused is not None and app.focused.id == "do-pass", app.focused
        await pilot.press("enter")
        await pilot.pause()
        assert app.lesson.index == 3
        assert app.lesson.state.history_strings()[-2:] == ["pass", "pass"]
        assert app.focused is not None and app.focused.id == "do-swap-pass", app.focused
        await pilot.press("enter")
        await pilot.pause()
        assert app.lesson.index == 4
        assert app.focused is not None and app.focused.id == "do-summon", app.focused
