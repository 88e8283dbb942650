"""A table of people at one keyboard: nobody's hidden hand is shown before its owner
has the keyboard, at the first move of any game as at every other."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import ChoiceScreen, PassScreen, PlayApp  # noqa: E402
from pyramids.tui.board import Board  # noqa: E402
from tests.tui.helpers import SMALL, play_first_move_by_list  # noqa: E402


def hidden(app: PlayApp) -> bool:
    return isinstance(app.screen, PassScreen) and not app.query_one("#board", Board).display


async def pass_keyboard(pilot, app: PlayApp) -> None:
    assert hidden(app)
    await pilot.press("enter")
    await pilot.pause()
    board = app.query_one("#board", Board)
    assert board.display and board.view["viewer"] == app.session.state.current_player


async def test_the_first_player_of_each_game_is_asked_for() -> None:
    session = new_session(load("temple", players=3), ["human"] * 3, 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        # The one who started the app may not be the start player.
        await pass_keyboard(pilot, app)
        await play_first_move_by_list(pilot, app)
        await pilot.pause()
        await pass_keyboard(pilot, app)
        for answer in ("#choice-restart", "#choice-new"):
            await pilot.press("f2")
            await pilot.pause()
            await pilot.click(answer)
            await pilot.pause()
            if isinstance(app.screen, ChoiceScreen):  # not saved: start anyway
                await pilot.click("#choice-start")
                await pilot.pause()
            assert app.session is not session
            # The last player still has the keyboard: the start player's hand is covered.
            assert hidden(app)
            await pass_keyboard(pilot, app)
            session = app.session
