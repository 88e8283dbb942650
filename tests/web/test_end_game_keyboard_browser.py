"""The end of a game by keyboard (the host ends it, the monument is cleared, a rematch is
refused): where the keyboard goes, and what the players and watchers hear, in English
and Korean.

End the game went with the game (the button is drawn only while it is played), and the
keyboard that had just pressed it fell to the page's start (document.body). The live
region said nothing: it told how a game ended only when another than its host ended it,
so a player or watcher on a screen reader never heard the game stop. And Enter on the
board then said "It is not your turn.", as if the game went on.

Runs the real server and Debian's Chromium as tests/web/test_browser.py does (its
fixtures are reused); the room is made with the page's own code, as in
tests/web/test_accessibility.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from pyramids.play.i18n import _
from tests.web import test_browser as _browser_tests
from tests.web.test_accessibility import (
    announcements,
    choose,
    focused,
    into_board,
    press_until,
    start_room,
    tile_ids,
    wait_move,
)
from tests.web.test_browser import (
    PageServer,
    legal_actions,
    move_number,
    opened_page,
    wait_turn_or_end,
)

server = _browser_tests.server
browser = _browser_tests.browser
page = _browser_tests.page

pytestmark = [pytest.mark.browser]


@pytest.fixture
def korean_watcher(browser: Any, server: PageServer) -> Iterator[Any]:
    with opened_page(browser, server.base, lang="ko") as opened:
        yield opened


def test_ending_the_game_keeps_the_keyboard_and_is_heard_by_everyone(
    page: Any, korean_watcher: Any, server: PageServer
) -> None:
    room = start_room(page, server, "pacal", {"rounds_to_win": 1},
                      [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    wait_turn_or_end(page, -1)
    korean_watcher.goto(f"{server.base}/play/{room}")
    korean_watcher.wait_for_selector("#game:not([hidden]) svg.board")
    korean_watcher.wait_for_selector("#spectating")
    page.on("dialog", lambda dialog: dialog.accept())
    press_until(page, "Tab", "#end-game", limit=80)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.status === 'aborted'")
    ended = _("The host ended this game")
    # The keyboard is on the line that says so, not thrown to the page's start.
    assert page.evaluate("document.activeElement.id") == "turn"
    assert page.inner_text("#turn") == ended
    page.wait_for_function("(line) => [...document.querySelectorAll('#announcer p')]"
                           ".some((p) => p.textContent === line)", arg=ended)
    assert announcements(page).count(ended) == 1
    korean_watcher.wait_for_function("() => document.body.dataset.status === 'aborted'")
    ended_ko = _("The host ended this game", lang="ko")
    korean_watcher.wait_for_function("(line) => [...document.querySelectorAll('#announcer p')]"
                                     ".some((p) => p.textContent === line)", arg=ended_ko)
    # The board is still there to look at; Enter on it says the game is over.
    into_board(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message") == _("The game is over.")


def test_a_refused_rematch_keeps_the_keyboard_on_rematch(page: Any, server: PageServer) -> None:
    """Rematch was disabled while the new room was asked for, and a disabled button lets
    the keyboard fall to the page's start: when the server refused the room (too many
    rooms from one address), the player was left there with the refusal."""
    room = start_room(page, server, "mahjongg", {"layout": "giza-step-ramp"},
                      [{"kind": "me"}])
    press_until(page, "Tab", "[data-action='pass']", limit=80)
    page.keyboard.press("Enter")  # Give up: the game is over
    page.wait_for_selector("#over:not([hidden]) #rematch")
    refusal = "Too many new rooms from your address: wait a minute."

    def refuse(route: Any) -> None:
        if route.request.method == "POST":
            route.fulfill(status=429, content_type="application/json",
                          body=json.dumps({"error": {"code": "rate_limited",
                                                     "message": refusal}}))
        else:
            route.continue_()

    page.route("**/api/rooms", refuse)
    press_until(page, "Shift+Tab", "#rematch", limit=80)
    page.keyboard.press("Enter")
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message") == refusal
    assert page.evaluate("document.activeElement.id") == "rematch"
    page.unroute("**/api/rooms")
    page.keyboard.press("Enter")  # asked again, now granted
    page.wait_for_url(lambda url: "/play/" in url and not url.endswith(f"/play/{room}"))


def test_clearing_the_monument_leaves_the_keyboard_on_rematch(
    page: Any, server: PageServer
) -> None:
    """The last tiles went with the keyboard on one of them, and the board had no item
    left to take it: at the game's best end the keyboard fell to the page's start."""
    start_room(page, server, "mahjongg", {"layout": "giza-step-ramp"}, [{"kind": "me"}])
    page.wait_for_selector("svg.board .tile")
    into_board(page)
    while page.get_attribute("body", "data-status") != "finished":
        before = move_number(page)
        if "finish" in legal_actions(page):
            assert focused(page, "svg.board .tile")
            page.keyboard.press("f")
            wait_move(page, before)
            continue
        if len(tile_ids(page, ".tile.hinted")) < 2:
            page.keyboard.press("h")
            wait_move(page, before)
            before = move_number(page)
        for tile in tile_ids(page, ".tile.hinted")[:2]:
            choose(page, f".tile[data-id='{tile}']")
        wait_move(page, before)
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#game [data-nav]").count() == 0
    assert page.evaluate("document.activeElement.id") == "rematch"
