"""Words a player reads, as the game menu, the numbers and the narrow screens have them."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import ChoiceScreen, HelpScreen, PlayApp  # noqa: E402
from tests.tui.helpers import SMALL, settle  # noqa: E402


async def help_and_menu(app: PlayApp, pilot) -> tuple[str, list[str]]:
    """The keys page of F1, and the names of the F2 menu's entries."""
    await pilot.press("f1")
    assert isinstance(app.screen, HelpScreen)
    help_text = app.screen.query_one("#help").query_one("Markdown").source
    await pilot.press("escape")
    await pilot.press("f2")
    await pilot.pause()
    assert isinstance(app.screen, ChoiceScreen)
    names = [name for name, _label in app.screen.choices]
    await pilot.press("escape")
    return help_text, names


@pytest.mark.parametrize(("game", "seats", "solo"), [
    ("pacal", ["human", "random"], False),
    ("pacal-solo", ["human"], True),
])
async def test_the_help_names_only_what_this_tables_menu_offers(
        game: str, seats: list[str], solo: bool) -> None:
    app = PlayApp(new_session(load(game), seats, 3), agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        help_text, names = await help_and_menu(app, pilot)
        first_line = help_text.splitlines()[0]
        assert ("scores" in names) is solo
        assert ("best scores" in first_line) is solo
        assert ("the bots' level" in first_line) is ("level" in names)
        assert "new game" in first_line and "restart this deal" in first_line
