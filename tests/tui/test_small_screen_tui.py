"""The terminal app at 80×24, the size a terminal opens at: what a player reads first
is whole and in sight, in English and Korean, for every game."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from rich.cells import cell_len  # noqa: E402

from pyramids.core import load  # noqa: E402
from pyramids.play.i18n import set_language  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from tests.tui.helpers import LARGE, SMALL, screen_lines  # noqa: E402

GAMES = [("pacal", ["human", "random"]), ("temple", ["human", "random", "random", "random"]),
         ("mahjongg", ["human"])]


def from_cell(row: str, x: int) -> str:
    """A screen row from its cell `x` on (a Korean syllable takes two cells)."""
    cells = 0
    for index, char in enumerate(row):
        if cells >= x:
            return row[index:]
        cells += cell_len(char)
    return ""


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize(("game", "seats"), GAMES)
async def test_the_move_box_hint_reads_whole(game: str, seats: list[str], lang: str) -> None:
    """At 80 columns the hint was cut at 'type a move, Enter (F5'; where the side panel
    has room, it names the F5 list too."""
    set_language(lang)
    for size, hint in [(SMALL, {"en": "type a move, Enter", "ko": "수를 입력하고 Enter"}),
                       (LARGE, {"en": "type a move, Enter (F5 lists them)",
                                "ko": "수를 입력하고 Enter (F5: 목록)"})]:
        app = PlayApp(new_session(load(game), seats, 3), agent_delay=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            box = app.query_one("#command")
            row = screen_lines(app)[box.region.y]
            assert from_cell(row, box.region.x).rstrip() == hint[lang], row
