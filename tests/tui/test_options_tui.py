"""The terminal app's options screen (F2, Game options): the options in words, changed
with the keyboard, checked by the game, and a new game at the same table."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from textual.widgets import Input, Select  # noqa: E402

from pyramids.core import load  # noqa: E402
from pyramids.play.i18n import set_language  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import ChoiceScreen, PlayApp  # noqa: E402
from pyramids.tui.options_chooser import OptionsScreen  # noqa: E402
from tests.tui.helpers import LARGE, SMALL, screen_lines, settle  # noqa: E402

CATCH_UP = "Turn order: after a pair the lowest score moves next; after a pass, the next seat."


def pacal_app() -> PlayApp:
    return PlayApp(new_session(load("pacal"), ["human", "random"], 3), agent_delay=0)


def mahjongg_pair_app() -> PlayApp:
    game = load("mahjongg", layout="giza-step-ramp", players=2)
    return PlayApp(new_session(game, ["human", "random"], 3), agent_delay=0)


async def open_options(pilot: Any, app: PlayApp) -> OptionsScreen:
    """F2, then the menu's Game options, with the keyboard only."""
    await pilot.press("f2")
    await pilot.pause()
    assert isinstance(app.screen, ChoiceScreen)
    for _ in range(10):
        if app.focused is not None and app.focused.id == "choice-options":
            break
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, OptionsScreen)
    return app.screen


async def tab_to(pilot: Any, app: PlayApp, widget_id: str) -> None:
    for _ in range(60):
        if app.focused is not None and app.focused.id == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"Tab never reached #{widget_id}")


async def choose(pilot: Any, app: PlayApp, option: str, words: str) -> None:
    """Open the list of `option` with Enter and move with the arrows to `words`."""
    await tab_to(pilot, app, f"option-{option}")
    select = app.screen.query_one(f"#option-{option}", Select)
    await pilot.press("enter")
    await pilot.pause()
    for _ in range(10):
        if select.query_one("SelectOverlay").highlighted_option.prompt == words:  # type: ignore[attr-defined]
            break
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()


def error_text(app: PlayApp) -> str:
    return " ".join(str(app.screen.query_one("#options-error").render()).split())


async def test_rounds_to_win_changed_from_the_menu_starts_a_new_game_with_it() -> None:
    app = pacal_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        old = app.session
        screen = await open_options(pilot, app)
        shown = "\n".join(screen_lines(app))
        # Words, not option keys: the title and the current value of each.
        assert "Rounds to win" in shown and "The loser of the last round" in shown, shown
        assert "rounds_to_win" not in shown and "loser" not in shown.replace("The loser", "")
        assert screen.query_one("#option-rounds_to_win", Input).value == "3"
        await tab_to(pilot, app, "option-rounds_to_win")
        await pilot.press("5", "enter")  # the box's text is chosen on focus: 5 replaces 3
        await settle(pilot, app)
        assert app.screen is app.screen_stack[0]
        assert app.session is not old
        assert app.session.game.options["rounds_to_win"] == 5
        assert app.session.game.options["max_rounds"] == 15  # the others as they were
        assert app.session.seats == ["human", "random"] and app.session.seed != old.seed
        log = " ".join(str(line.text) for line in app.query_one("#log").lines)
        assert "options: Rounds to win: 5" in log, log
        assert "first to 5 wins" in "\n".join(screen_lines(app))


async def test_a_number_out_of_range_is_refused_in_words_and_the_screen_stays() -> None:
    app = pacal_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        old = app.session
        await open_options(pilot, app)
        await tab_to(pilot, app, "option-rounds_to_win")
        await pilot.press("0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        assert error_text(app) == ("Rounds to win: 0 is not allowed; allowed: a whole number "
                                   "from 1 to 99"), error_text(app)
        assert app.session is old and old.game.options["rounds_to_win"] == 3


async def test_the_catch_up_turn_order_at_a_table_of_two_takes_effect() -> None:
    app = mahjongg_pair_app()
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        old = app.session
        assert CATCH_UP not in str(app.query_one("#summary").render())
        await open_options(pilot, app)
        assert app.screen.query_one("#option-turn_order", Select).value == "round"
        assert not app.screen.query("#option-players")  # the seats are the table's
        await choose(pilot, app, "turn_order", "Lowest score moves next")
        await tab_to(pilot, app, "option-sight_cost")
        await pilot.press("2")
        await tab_to(pilot, app, "options-start")
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session is not old
        options = app.session.game.options
        assert options["turn_order"] == "behind" and options["players"] == 2
        # The board draws from the new options, not the last game's.
        assert str(app.query_one("#do-sight").label) == "(r) Ra Sight, 2 tokens"
        assert options["layout"] == "giza-step-ramp"  # the board chooser's, kept
        assert app.session.seats == ["human", "random"]
        assert CATCH_UP in str(app.query_one("#summary").render())
        log = " ".join(str(line.text) for line in app.query_one("#log").lines)
        assert "options: Turn order: Lowest score moves next" in log, log


async def test_options_the_game_refuses_together_leave_the_game_as_it_was() -> None:
    app = mahjongg_pair_app()
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        old = app.session
        played = old.state.history_strings()
        await open_options(pilot, app)
        await choose(pilot, app, "mode", "Architect Co-op")
        await choose(pilot, app, "turn_order", "Lowest score moves next")
        await tab_to(pilot, app, "options-start")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)  # still open, to choose again
        # The refusal in the words the player chose from, not the engine's keys.
        assert error_text(app) == (
            "These options cannot be played: Turn order “Lowest score moves next” is for the "
            "Standard Expedition, not “Architect Co-op”; allowed here: “In seat order”"), \
            error_text(app)
        for key in ("turn_order", "behind", "coop", "'round'", "mode="):
            assert key not in error_text(app), key
        assert app.session is old and old.state.history_strings() == played
        assert old.game.options["mode"] == "standard"
        assert old.game.options["turn_order"] == "round"
        # Set right, the same screen starts the game.
        await choose(pilot, app, "turn_order", "In seat order")
        await tab_to(pilot, app, "options-start")
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session.game.options["mode"] == "coop"


async def test_escape_changes_nothing() -> None:
    app = mahjongg_pair_app()
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        old = app.session
        options = dict(old.game.options)
        played = old.state.history_strings()
        await open_options(pilot, app)
        await tab_to(pilot, app, "option-turn_order")
        await pilot.press("enter")  # the list opens ...
        await pilot.pause()
        await pilot.press("escape")  # ... and Escape closes the list alone
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        await choose(pilot, app, "turn_order", "Lowest score moves next")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
        assert app.session is old and old.game.options == options
        assert old.state.history_strings() == played


async def test_the_options_screen_in_korean() -> None:
    set_language("ko")
    try:
        app = mahjongg_pair_app()
        async with app.run_test(size=LARGE) as pilot:
            await settle(pilot, app)
            await open_options(pilot, app)
            shown = "\n".join(screen_lines(app))
            for words in ("게임 옵션", "차례 순서", "순서대로", "이 옵션으로 시작", "표준 원정"):
                assert words in shown, (words, shown)
            assert "turn_order" not in shown and "Turn order" not in shown
    finally:
        set_language(None)


async def test_a_refused_combination_in_korean_is_in_korean_words() -> None:
    set_language("ko")
    try:
        app = mahjongg_pair_app()
        async with app.run_test(size=LARGE) as pilot:
            await settle(pilot, app)
            await open_options(pilot, app)
            await choose(pilot, app, "mode", "건축가 협력")
            await choose(pilot, app, "turn_order", "낮은 점수가 다음 차례")
            await tab_to(pilot, app, "options-start")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, OptionsScreen)
            shown = error_text(app)
            assert "차례 순서 “낮은 점수가 다음 차례”는 표준 원정에서만 쓸 수 있고 " \
                   "“건축가 협력”에는 쓸 수 없습니다. 여기서 허용: “자리 순서대로”" in shown, shown
            for key in ("turn_order", "behind", "coop", "round"):
                assert key not in shown, key
    finally:
        set_language(None)
