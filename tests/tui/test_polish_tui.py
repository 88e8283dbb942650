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


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [SMALL, (120, 40)])
async def test_temple_seat_lines_keep_each_value_by_its_seat(
        lang: str, size: tuple[int, int]) -> None:
    """At 80 columns a seat's line wrapped after "known in hand:", its "-" alone on the
    next line: each seat is one row, its treasure, hand and known cards on it."""
    from pyramids.play.i18n import _, format_number, ngettext, set_language
    from tests.tui.helpers import screen_lines

    set_language(lang)
    try:
        session = new_session(load("temple", players=4, max_rounds=4),
                              ["human", "greedy", "greedy", "greedy"], 7)
        app = PlayApp(session, agent_delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            table = app.query_one("#players")
            table.scroll_visible(animate=False, immediate=True)
            await pilot.pause()
            view = session.state.view(0)
            lines = screen_lines(app)
            for seat in range(4):
                name = (_("seat {number} (you)", number=1) if seat == 0
                        else _("seat {number}", number=seat + 1))
                cards = ngettext("{count} card", "{count} cards", view["hand_sizes"][seat])
                found = [line for line in lines if f" {name} " in line and cards in line]
                assert len(found) == 1, (name, lines)
                known = " ".join(f"{kind}×{count}"
                                 for kind, count in sorted(view["known"][seat].items()))
                row = found[0]
                assert f" {format_number(view['treasure'][seat])} {cards} " in row, row
                assert f"{cards} {known.split(' ')[0] if known else '-'}" in row, row
    finally:
        set_language(None)
