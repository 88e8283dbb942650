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
from tests.tui.helpers import LARGE, SMALL, screen_lines, settle  # noqa: E402

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


def up_to_cell(row: str, x: int) -> str:
    """A screen row up to its cell `x`."""
    return row[:len(row) - len(from_cell(row, x))]


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
            # A bot that starts moves first; the box's hint is the person's.
            await settle(pilot, app)
            box = app.query_one("#command")
            row = screen_lines(app)[box.region.y]
            assert from_cell(row, box.region.x).rstrip() == hint[lang], row


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("seed", [3, 1])  # seat 1 offers first; seat 2 does, seat 1 picks
async def test_pacal_opens_with_both_pyramids_and_the_hand_in_sight(lang: str,
                                                                    seed: int) -> None:
    """At 80×24 the board was two rows too tall and opened scrolled to the hand, the
    round's score and the apex cards above the opponent's pyramid out of sight."""
    set_language(lang)
    session = new_session(load("pacal"), ["human", "random"], seed)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        view = session.state.view(0)
        assert view["phase"] == ("offer" if seed == 3 else "pick")
        area = app.query_one("#board-area")
        assert area.max_scroll_y == 0 and area.scroll_offset.y == 0
        # The bot's pyramid under the move log's name for it, not "Seat 2 (opponent)".
        words = {"en": ("Round 1 · first to 3 wins", "Apex cards: seat 1",
                        "Random moves (bot) · spread", "Seat 1 (you)"),
                 "ko": ("1라운드 · 3승 선취", "꼭대기 카드: 1번", "무작위 수 (봇) · 차이",
                        "1번 자리 (나)")}[lang]
        board = [up_to_cell(row, area.region.right) for row in
                 screen_lines(app)[area.region.y:area.region.bottom]]
        for row, start in zip(board[:3], words[:3], strict=True):  # the top, in its order
            assert start in row, board
        assert any(words[3] in row for row in board[3:]), board
        # The hand on the last row; when picking, the offer beside its title.
        assert board[-1].split() == [str(card) for card in view["hand"]]
        if seed == 1:
            assert any(row.split()[-2:] == [str(card) for card in view["offer"]]
                       for row in board), board


async def test_a_pacal_match_fits_80x24_at_every_turn() -> None:
    """Offer, pick, place and the next round's opening: the board never needs scrolling
    at 80×24 (it hid the hand, or the top)."""
    session = new_session(load("pacal", rounds_to_win=2), ["human", "random"], 1)
    app = PlayApp(session, agent_delay=0)
    phases: set[tuple[int, str]] = set()
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(300):
            await settle(pilot, app)
            state = session.state
            if state.is_terminal():
                break
            view = state.view(0)
            phases.add((view["round"], view["phase"]))
            assert app.query_one("#board-area").max_scroll_y == 0, (view["round"],
                                                                    view["phase"])
            app.try_move(state.legal_action_strings()[0])
    assert state.is_terminal()
    assert {(2, "offer"), (2, "pick"), (2, "place")} <= phases


@pytest.mark.parametrize("game", ["pacal", "pacal-solo"])
async def test_every_pacal_field_can_be_brought_into_sight_at_60x20(game: str) -> None:
    """A pyramid's base is four fields wide: on a 60-column terminal the board scrolls
    sideways to F10 (it was cut off, with no way to reach it by mouse)."""
    seats = ["human"] if game == "pacal-solo" else ["human", "random"]
    app = PlayApp(new_session(load(game), seats, 4), agent_delay=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        area = app.query_one("#board-area")
        for number in range(1, 11):
            field = app.query_one(f"#p0-f{number}")
            field.scroll_visible(animate=False, immediate=True)
            await pilot.pause()
            assert area.region.contains_region(field.region), (number, field.region)


@pytest.mark.parametrize(("lang", "header"), [("en", r"Seat\s+Treasure\s+Hand\s+Known"),
                                              ("ko", r"자리\s+보물\s+손패\s+공개")])
async def test_temple_seats_table_header_is_one_line_beside_long_bot_names(
        lang: str, header: str) -> None:
    """At 80×24, beside "Greedy rule (bot, seat 2)" and "(bot, seat 3)", the header
    "Known in hand" took three lines: the header is one row over the seats' rows."""
    import re

    set_language(lang)
    session = new_session(load("temple", players=3, max_rounds=4),
                          ["human", "greedy", "greedy"], 7)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        table = app.query_one("#players")
        table.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        rows = [up_to_cell(row, table.region.right).rstrip()
                for row in screen_lines(app)[table.region.y:table.region.bottom]]
        assert re.fullmatch(rf"\s*{header}", rows[0]), rows
        assert len(rows) == 1 + 3 and all(app.seat_names[seat] in rows[seat + 1]
                                          for seat in (1, 2)), rows


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize(("mode", "seats"), [("standard", ["human"]),
                                             ("standard", ["human", "easy"]),
                                             ("coop", ["human", "easy", "easy"])])
async def test_mahjongg_opens_with_its_score_lines_in_sight_at_80x24(
        lang: str, mode: str, seats: list[str]) -> None:
    """Focus on the tiles scrolled the board to them: the game opened with the tiles
    left and the score out of sight. The cursor's moves still scroll to its tile.
    Co-op's monument (Twin Pyramids), shorter than the screen, was still scrolled into
    sight as a small choice is, and opened with the mode and tiles left out of sight."""
    set_language(lang)
    words = {"en": ("tiles left", "score 0"), "ko": ("남은 타일", "점수 0")}[lang]
    session = new_session(load("mahjongg", mode=mode, players=len(seats)), seats, 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        area = app.query_one("#board-area")
        assert app.focused is app.query_one("#tiles") and area.max_scroll_y > 0
        assert area.scroll_offset.y == 0
        board = " ".join(up_to_cell(row, area.region.right) for row in
                         screen_lines(app)[area.region.y:area.region.bottom])
        assert all(word in board for word in words), board
        for _ in range(8):
            await pilot.press("down")
        await pilot.pause()
        assert area.scroll_offset.y > 0


async def test_escape_brings_the_mahjongg_tiles_back_into_sight_at_80x24() -> None:
    """Escape is the way back to the board: from the log (or the box) with the board
    scrolled back up to its score lines, it gave the tiles the keyboard and left the
    cursor's tile out of sight; from a favor button it did nothing at all. Either way
    the keyboard is now on the tiles, the cursor's tile in sight, the selection dropped."""
    session = new_session(load("mahjongg"), ["human"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        area = app.query_one("#board-area")
        tiles = app.query_one("#tiles")
        board = app.board

        def cursor_in_sight() -> bool:
            x, y = tiles.canvas.origin[board.cursor]
            top = tiles.virtual_region.y + y
            return area.scroll_offset.y <= top < area.scroll_offset.y + area.size.height

        for _ in range(8):  # the cursor to a low tile
            await pilot.press("down")
        app.query_one("#log").focus()
        area.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert area.max_scroll_y > 0 and not cursor_in_sight()
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is tiles and cursor_in_sight()

        await pilot.press("enter")  # a tile selected, then a favor button focused
        assert board.selected
        button = app.query("#favors Button").last()
        button.focus()
        await pilot.pause()
        area.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert not cursor_in_sight()
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is tiles and cursor_in_sight() and not board.selected


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_temple_seats_at_60_columns_keep_the_turn_marker_and_every_count(
        lang: str) -> None:
    """Five seats at 60x20: the seats table was squeezed into the board's 33 columns,
    its cells cut ("Treas…", "5 ca…"), the ▶ of the seat to play and the known cards
    dropped. There each seat is now a line, its counts whole on the next."""
    set_language(lang)
    session = new_session(load("temple", players=5), ["human"] + ["easy"] * 4, 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        players = app.query_one("#players")
        players.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        region = players.region
        rows = [up_to_cell(from_cell(row, region.x), region.width).rstrip()
                for row in screen_lines(app)[region.y:region.bottom]]
        text = " ".join(row.strip() for row in rows)
        assert "…" not in text, rows
        you = {"en": "▶ seat 1 (you)", "ko": "▶ 1번 자리 (나)"}[lang]
        assert rows[0].strip() == you, rows
        counts = {"en": "5 cards", "ko": "카드 5장"}[lang]
        known = {"en": "known in hand:", "ko": "알려진 손패:"}[lang]
        assert text.count(counts) == 5 and text.count(known) == 5, rows
        for seat in range(1, 5):
            assert app.seat_names[seat] in text, (app.seat_names[seat], rows)


@pytest.mark.parametrize(("size", "mode", "seats"), [
    (SMALL, "coop", ["human", "easy", "easy"]),
    ((60, 20), "standard", ["human", "easy"]),
])
async def test_mahjongg_summary_breaks_between_its_parts(
        size: tuple[int, int], mode: str, seats: list[str]) -> None:
    """The score lines wrapped where the words did: "streak" at a row's end and its
    "0" alone at the start of the next, "vaults unlocked 0 of" and "4". They now break
    between their " · " parts, the parts whole, the rows after a seat's first under it."""
    session = new_session(load("mahjongg", mode=mode, players=len(seats)), seats, 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        summary = app.query_one("#summary")
        summary.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        region = summary.region
        rows = [up_to_cell(from_cell(row, region.x), region.width).rstrip()
                for row in screen_lines(app)[region.y:region.bottom]]
        assert rows.count("") == 0, rows
        assert sum("streak 0" in row for row in rows) == len(seats), rows
        assert any("tiles left 144 of 144" in row for row in rows), rows
        assert not any(row.strip().isdigit() for row in rows), rows
        # A seat's line broken: its next row stands in under its name.
        for row, below in zip(rows, rows[1:], strict=False):
            if ": score 0" in row and "streak 0" not in row:
                assert below.startswith("    "), rows


async def test_a_mahjongg_hint_is_told_in_words_and_brought_into_sight_at_80x24() -> None:
    """A hint marked its pair with "?" on the tiles and said nothing more: at 80x24,
    the board scrolled elsewhere, nobody saw the marks. Beside the board the pair is
    now told in words (as the browser tells it), and the cursor goes to the pair's
    first tile, in sight, so Enter takes it."""
    session = new_session(load("mahjongg"), ["human"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        area = app.query_one("#board-area")
        tiles = app.query_one("#tiles")
        board = app.board
        for _ in range(5):
            await pilot.press("right")
        area.scroll_to(y=area.max_scroll_y, animate=False, immediate=True)
        await pilot.pause()
        await pilot.press("h")
        await settle(pilot, app)
        await pilot.pause()
        hint = session.state.view(0)["hint"]
        assert board.cursor == hint[0], (board.cursor, hint)
        _x, y = tiles.canvas.origin[hint[0]]
        top = tiles.virtual_region.y + y
        assert area.scroll_offset.y <= top < area.scroll_offset.y + area.size.height
        status = str(app.query_one("#status").render())
        assert "Hint: match " in status and "(layer " in status, status
        await pilot.press("enter")
        assert board.selected == [hint[0]]
