"""The Mahjongg screen says when the catch-up turn order is on (a seat may move twice)."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from pyramids.core import load  # noqa: E402
from pyramids.play.i18n import set_language  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PassScreen, PlayApp  # noqa: E402
from tests.tui.helpers import LARGE  # noqa: E402

LINE = "Turn order: after a pair the lowest score moves next; after a pass, the next seat."


@pytest.mark.asyncio
@pytest.mark.parametrize(("options", "shown"), [
    ({"players": 2, "turn_order": "behind"}, True),
    ({"players": 2}, False),  # seat order: nothing to explain
    ({"players": 1, "turn_order": "behind"}, False),  # alone it changes nothing
])
async def test_the_summary_names_the_catch_up_order(options: dict[str, object],
                                                     shown: bool) -> None:
    game = load("mahjongg", layout="giza-step-ramp", **options)
    session = new_session(game, ["human"] * game.num_players, 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        if isinstance(app.screen, PassScreen):  # a table of people: the first one's turn
            await pilot.press("enter")
            await pilot.pause()
        summary = str(app.query_one("#summary").render())
        assert (LINE in summary) is shown, summary


@pytest.mark.asyncio
async def test_the_line_is_in_korean_too() -> None:
    set_language("ko")
    try:
        game = load("mahjongg", layout="giza-step-ramp", players=2, turn_order="behind")
        app = PlayApp(new_session(game, ["human", "human"], 3), agent_delay=0)
        async with app.run_test(size=LARGE) as pilot:
            await pilot.pause()
            if isinstance(app.screen, PassScreen):
                await pilot.press("enter")
                await pilot.pause()
            summary = str(app.query_one("#summary").render())
            assert "차례 순서: 짝을 걷은 뒤에는 점수가 가장 낮은 사람이" in summary, summary
    finally:
        set_language(None)
