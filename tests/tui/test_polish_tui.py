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
                # A bot as the log names it, "Greedy rule (bot, seat 2)".
                name = (_("seat {number} (you)", number=1) if seat == 0
                        else app.seat_names[seat])
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


def mahjongg_after_three_pairs():
    """A Mahjongg game whose score is in the thousands (2,760; the last pair 2,040)."""
    session = new_session(load("mahjongg"), ["human"], 5)
    state = session.state
    for _pair in range(3):
        match = next(text for text in state.legal_action_strings() if text.startswith("match"))
        state.apply_action(state.string_to_action(match))
    assert state.view(0)["scores"] == [2760]
    return session


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_mahjongg_scores_read_as_the_log_writes_numbers(lang: str) -> None:
    """The board said "score 2760" where the log said "2,040 points": a score reads the
    same everywhere, by the language's rules (Babel's)."""
    from pyramids.play.i18n import format_number, set_language
    from pyramids.play.text.mahjongg import render_mahjongg

    set_language(lang)
    try:
        session = mahjongg_after_three_pairs()
        app = PlayApp(session, agent_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.pause()
            summary = " ".join(str(app.query_one("#summary").render()).split())
            last = " ".join(str(app.query_one("#last-move").render()).split())
            board = app.query_one("#board")
            result = board._result({"scores": [17950], "reason": "cleared",
                                    "time_score": 1200})
        assert "17,950" in result and "1,200" in result, result
        assert format_number(2760) == "2,760"
        assert "2,760" in summary and "2760" not in summary, summary
        assert "2,040" in last and "2040" not in last, last
        plain = render_mahjongg(session.state.view(0), 80)
        assert "2,760" in plain and "2760" not in plain
    finally:
        set_language(None)


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_temple_treasure_and_scores_at_the_line_prompts_read_as_numbers_do(lang: str) -> None:
    from pyramids.play.i18n import set_language
    from pyramids.play.text.temple import render_temple

    set_language(lang)
    try:
        view = new_session(load("temple", players=2), ["human", "greedy"], 7).state.view(0)
        view["treasure"] = [1234, 3]
        view["scores"] = [4321, 5]
        text = render_temple(view)
        assert "1,234" in text and "4,321" in text and "1234" not in text, text
    finally:
        set_language(None)


@pytest.mark.parametrize("size", [(60, 40), (60, 20)])
@pytest.mark.parametrize("game", ["pacal", "pacal-solo"])
async def test_pacal_lines_of_words_wrap_in_sight_at_60_columns(
        game: str, size: tuple[int, int]) -> None:
    """At 60 columns the pyramids are wider than the board in sight and scroll sideways;
    the lines above them scrolled with them, cut at the screen's edge ("Round 1 · first
    to 3 · round win"). They wrap to the width in sight, as the hand's cards do."""
    from textual.widgets import Static

    from pyramids.tui.board import CardRow
    from tests.tui.helpers import screen_lines

    seats = ["human"] if game == "pacal-solo" else ["human", "random"]
    app = PlayApp(new_session(load(game), seats, 7), agent_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        area = app.query_one("#board-area")
        area.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        assert area.max_scroll_x > 0  # the pyramids still scroll sideways
        sight = area.scrollable_content_region
        shown = [widget for widget in app.query("#board .info, #board .title, #board CardRow")
                 if widget.display and widget.region.height]
        assert shown
        for widget in shown:
            assert sight.x <= widget.region.x and widget.region.right <= sight.right, widget
        text = " ".join(" ".join(line[sight.x:sight.right].split())
                        for line in screen_lines(app))
        first = [widget for widget in shown if isinstance(widget, Static)
                 and not isinstance(widget, CardRow)][0]
        words = " ".join(str(first.render()).split())
        assert words.split(" ")[-1] in text, (words, text)


async def test_pacal_lines_follow_the_terminal_as_it_widens_and_narrows() -> None:
    """From 50 to 60 columns the board keeps the pyramids' width (no resize of its
    own): its lines still take the wider width in sight; wide, they take the board's."""
    app = PlayApp(new_session(load("pacal"), ["human", "random"], 7), agent_delay=0)
    async with app.run_test(size=(50, 40)) as pilot:
        await settle(pilot, app)
        area, board, line = (app.query_one("#board-area"), app.query_one("#board"),
                             app.query_one("#score"))
        for size in [(60, 40), (120, 40), (50, 40), (60, 40)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            sight = area.scrollable_content_region.width
            assert line.region.width == min(sight, board.size.width), size



async def test_mahjongg_lines_follow_the_terminal_as_it_widens_and_narrows() -> None:
    """A monument wider than the screen keeps the board's width as the terminal widens
    or narrows (no resize of the board's own): the lines above and below it, and the
    favors, are fitted again to the width in sight, never left cut at the screen's edge
    (they were, narrowing 60 to 50 columns) nor narrower than it (widening 50 to 60)."""
    app = PlayApp(new_session(load("mahjongg"), ["human"], 7), agent_delay=0)
    async with app.run_test(size=(50, 40)) as pilot:
        await settle(pilot, app)
        area, board = app.query_one("#board-area"), app.query_one("#board")
        lines = [app.query_one(name) for name in
                 ("#summary", "#warning", "#favors", "#last-move", "#legend")]
        for size in [(60, 40), (80, 40), (120, 40), (50, 40), (60, 40)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            sight = area.scrollable_content_region
            if size[0] < 100:
                assert board.size.width > sight.width, size  # the monument scrolls sideways
            for line in lines:
                assert line.region.width == sight.width, (size, line)
                assert sight.x <= line.region.x and line.region.right <= sight.right, line
