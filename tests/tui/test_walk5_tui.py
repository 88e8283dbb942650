"""What a player met on the fifth keyboard walk of the terminal app: a refusal that
stayed after Escape, the cursor a redraw after a hint took back, Temple's Up from the
swap zone, Pacal's offers at the left of a big screen."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from pyramids.tui.mahjongg import MahjonggBoard, TileCanvas  # noqa: E402
from tests.tui.helpers import SMALL, settle  # noqa: E402
from tests.tui.test_mahjongg_tui import click_tile, giza_solo, matches  # noqa: E402


def message(app: PlayApp) -> str:
    return str(app.query_one("#message").render())


async def test_escape_clears_why_a_pair_was_refused() -> None:
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        free = [t for t in session.state.view(0)["tiles"] if t["free"]]
        bad = next((a, b) for a in free for b in free if a["id"] < b["id"] and not matches(a, b))
        await click_tile(pilot, app, bad[0]["id"])
        await click_tile(pilot, app, bad[1]["id"])
        assert "do not match" in message(app)
        assert app.focused is app.query_one("#tiles", TileCanvas)
        await pilot.press("escape")
        await pilot.pause()
        assert message(app).strip() == "" and app.message == ""


async def test_escape_from_the_move_box_clears_why_a_typed_move_was_refused() -> None:
    session = new_session(load("temple", players=2, max_rounds=4), ["human", "random"], 2)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        app.query_one("#command").focus()
        await pilot.press(*"swap zz 9", "enter")
        await pilot.pause()
        assert "Not a legal move" in message(app)
        await pilot.press("escape")
        await pilot.pause()
        assert message(app).strip() == ""
        assert app.focused is not app.query_one("#command")


async def test_escape_leaves_a_message_that_is_no_refusal() -> None:
    """Where the game was saved is no refusal: Escape leaves it standing."""
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        app.set_message("Saved to somewhere")
        await pilot.press("escape")
        await pilot.pause()
        assert app.message == "Saved to somewhere"


async def test_a_redraw_after_a_hint_leaves_the_cursor_where_the_player_moved_it() -> None:
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        await pilot.press("h")
        await pilot.pause()
        hint = session.state.view(0)["hint"]
        assert board.cursor == hint[0]  # the hint asked for: the cursor goes to its pair
        await pilot.press("right", "right", "right")
        await pilot.pause()
        moved = board.cursor
        assert moved not in hint
        app.redraw(interactive=True)  # the same position drawn again (the hint showing)
        await pilot.pause()
        assert board.cursor == moved
        assert session.state.view(0)["hint"] == hint  # still showing, not re-asked


async def test_a_tile_favor_put_away_gives_the_cursor_back_where_it_stood() -> None:
    """Anubis Shift and then Escape (or `a` again) put the cursor back on the free tile
    the player had moved it to; it went to the monument's top tile."""
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        start = board.cursor
        await pilot.press("right", "right", "right")
        await pilot.pause()
        moved = board.cursor
        assert moved != start
        for put_away in ("escape", "a"):
            await pilot.press("a")
            await pilot.pause()
            assert board.shifting
            await pilot.press(put_away)
            await pilot.pause()
            assert not board.shifting and board.cursor == moved, put_away
        assert session.state.history_strings() == []


@pytest.mark.parametrize("size", [SMALL, (200, 60)])
async def test_temple_up_from_the_first_swap_slot_stays_on_the_board(size) -> None:
    """Up from the first swap-zone slot went to the move box (the previous thing Tab
    reaches). Nothing on the board lies above the swap zone: the keyboard stays. Down
    goes to the hand below it, Up from there back to the slot above; at the board's
    last choice Right stays too."""
    session = new_session(load("temple", players=2, max_rounds=4), ["human", "random"], 2)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        assert session.state.view(0)["phase"] == "swap"
        played = session.state.history_strings()
        slot = app.query_one("#slot-1")
        assert app.focused is slot
        await pilot.press("up")
        await pilot.pause()
        assert app.focused is slot
        await pilot.press("right", "right", "down")
        await pilot.pause()
        below = app.focused
        assert below is not None and str(below.id).startswith("hand-")
        await pilot.press("up")
        await pilot.pause()
        assert app.focused is app.query_one("#slot-3")  # the slot straight above
        last = app.board.choices()[-1]
        last.focus()
        await pilot.press("right", "down")
        await pilot.pause()
        assert app.focused is last
        assert session.state.history_strings() == played  # the arrows play nothing


@pytest.mark.parametrize("size", [SMALL, (200, 60)])
async def test_pacal_offer_cards_stand_under_the_pyramids_middle(size) -> None:
    """At 200x60 the offer's cards stood at the far left, their title in the middle."""
    session = new_session(load("pacal"), ["human", "random"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        while not any(text.startswith("pick ") for text in session.state.legal_action_strings()):
            app.try_move(session.state.legal_action_strings()[0])
            await settle(pilot, app)
        await pilot.pause()
        offer = [cell.region for cell in app.query("CardCell")
                 if str(cell.id).startswith("offer-")]
        assert len(offer) == 2
        left = offer[0].x
        if size == SMALL:  # short, the title stands beside its cards: the line is centred
            left = app.query_one(".offer-line > .title").region.x
        middle = (left + offer[-1].right) / 2
        apex = app.query_one("#board .field").region  # F1, the apex, over the middle
        assert abs(middle - (apex.x + apex.right) / 2) <= 4, (offer, apex)


async def test_the_keyboard_stays_on_the_board_over_a_bots_turn() -> None:
    """Played by Enter and the arrows alone, a Pacal match put the keyboard in the move
    box after an offer the bot answered with its own (the card with the keyboard went
    with the old drawing, and the box took it): the arrows did nothing on the next turn."""
    session = new_session(load("pacal"), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        for _turn in range(14):
            await settle(pilot, app)
            focused = app.focused
            assert focused is not None and app.board in focused.ancestors, focused
            before = len(session.state.history())
            await pilot.press("enter")  # a card, a field: the first of the open choices
            await pilot.pause()
            if len(session.state.history()) == before:  # an offer: a second card
                await pilot.press("right", "enter")
                await pilot.pause()
            assert len(session.state.history()) > before


@pytest.mark.parametrize("size", [SMALL, (200, 60)])
async def test_rows_of_cards_stand_in_the_middle_of_the_board(size) -> None:
    """Temple's swap zone and hand and Pacal's hand stood at the far left of the board,
    under titles in its middle (most plainly at 200x60)."""
    for game, options in (("temple", {"players": 2}), ("pacal", {})):
        session = new_session(load(game, **options), ["human", "random"], 3)
        app = PlayApp(session, agent_delay=0)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.pause()
            board = app.query_one("#board").content_region
            middle = board.x + board.width / 2
            for row in app.query("#board CardRow"):
                cells = [cell.region for cell in row.children if cell.region.width]
                if not cells:
                    continue
                left, right = min(c.x for c in cells), max(c.right for c in cells)
                assert abs((left + right) / 2 - middle) <= row.cell_width, (game, row.id,
                                                                            left, right, board)


async def test_a_new_mahjongg_game_from_the_menu_gives_the_keyboard_to_the_tiles() -> None:
    """F2's new game drew the tiles anew and left the keyboard in the move box."""
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        tiles = app.query_one("#tiles", TileCanvas)
        assert app.focused is tiles
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-new")
        await settle(pilot, app)
        await pilot.pause()
        assert app.session is not session
        assert isinstance(app.focused, TileCanvas)
        cursor = app.board.cursor
        await pilot.press("right")
        await pilot.pause()
        assert app.board.cursor != cursor and app.query_one("#command").value == ""
