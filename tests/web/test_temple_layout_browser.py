"""Temple's swap choice in sight on a laptop's screen, in a real Chromium (Debian's).

When the swap phase starts, the player reads their hand and the two ways on: swap
a card (the hand, then the swap zone) or keep the hand ("Keep my hand"). At
1280x720 the button stood below the window's edge, under a board as tall as the
window: a player did not see that they could keep their hand.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.web.conftest import Client
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    PHONE,
    TIMEOUT_MS,
    PageServer,
    browser,
    pytestmark,
    server,
)

IN_SIGHT = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
    && box.left >= 0 && box.right <= window.innerWidth;
}"""


def swap_turn_page(browser: Any, server: PageServer, size: tuple[int, int], players: int,
                   phone: bool = False) -> Any:
    """The page of the seat that swaps first in a new Temple room, opened at `size`."""
    with httpx.Client(base_url=server.base, timeout=15) as http:
        made = http.post("/api/rooms", json={"game": "temple",
                                             "options": {"players": players}}).json()
        room, host = made["room"]["id"], made["host_token"]
        tokens = [http.post(f"/api/rooms/{room}/seats",
                            json={"name": f"P{seat + 1}", "seat": seat}).json()["token"]
                  for seat in range(players)]
        assert http.post(f"/api/rooms/{room}/start", json={"token": host}).is_success
    watcher = Client(server.ws_base, room)
    try:
        state = watcher.until(lambda m: m.get("type") == "state" and m["status"] == "playing")
    finally:
        watcher.close()
    first = state["current_player"]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.base}/static/favicon.svg")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"pyramids:seat:{room}",
                   json.dumps({"token": tokens[first], "seat": first, "name": f"P{first + 1}"})])
    page.goto(f"{server.base}/play/{room}")
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    page.wait_for_selector("[data-action='swap pass']")
    return page


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_keep_my_hand_is_in_sight_with_the_hand_when_the_swap_starts(
    browser: Any, server: PageServer, size: tuple[int, int]
) -> None:
    page = swap_turn_page(browser, server, size, players=3)
    try:
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate(IN_SIGHT, "[data-action='swap pass']"), "Keep my hand is out of sight"
        assert page.evaluate(IN_SIGHT, "svg.board .hand"), "the hand is out of sight"
        assert page.evaluate(IN_SIGHT, "svg.board .swap-zone"), "the swap zone is out of sight"
        # Nothing spills past the window's width either.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        page.context.close()


def test_on_a_phone_the_board_keeps_the_screens_width(
    browser: Any, server: PageServer
) -> None:
    """A phone's board is not shrunk to the screen's height; the choices under it stay
    in sight at the screen's foot (Keep my hand stood a screen and a half below)."""
    page = swap_turn_page(browser, server, (390, 844), players=2)
    try:
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate(IN_SIGHT, "[data-action='swap pass']"), "Keep my hand is out of sight"
        page.mouse.wheel(0, 600)  # and while the player scrolls down to the hand
        page.wait_for_function("() => window.scrollY > 0")
        assert page.evaluate(IN_SIGHT, "[data-action='swap pass']")
        # The drawing fills the board's width (a height cap would draw it smaller, centred).
        drawn, board = page.evaluate("""() => {
            const svg = document.querySelector('svg.board');
            return [svg.getScreenCTM().a * svg.viewBox.baseVal.width,
                    svg.getBoundingClientRect().width];
        }""")
        assert drawn >= board - 4, (drawn, board)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.locator("[data-action='swap pass']").scroll_into_view_if_needed()
        assert page.evaluate(IN_SIGHT, "[data-action='swap pass']")
    finally:
        page.context.close()


GAP = """() => {
  const built = document.querySelector("svg.board .construction").getBoundingClientRect();
  const hand = document.querySelector("svg.board .hand").getBoundingClientRect();
  return hand.top - built.bottom;
}"""

TITLE_YS = """() => ["construction", "hand"].map((name) =>
  Number(document.querySelector(`svg.board .${name} text.phase`).getAttribute("y")))"""


def test_the_hand_follows_the_construction_closely_on_a_phone(
    browser: Any, server: PageServer
) -> None:
    """On a phone about 90 px of nothing stood between the construction ("No
    construction under way") and the hand: the hand had a fixed place, kept for the
    longest construction."""
    size = (PHONE["viewport"]["width"], PHONE["viewport"]["height"])
    page = swap_turn_page(browser, server, size, players=5, phone=True)
    try:
        gap = page.evaluate(GAP)
        assert 0 <= gap < 24, gap
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        page.context.close()


def test_the_hand_keeps_its_place_under_the_construction_on_a_laptop(
    browser: Any, server: PageServer
) -> None:
    """The wide layout is as it was: the hand's title 152 below the construction's,
    room for the longest construction (five seats' sets) between them."""
    page = swap_turn_page(browser, server, (1280, 720), players=5)
    try:
        built, hand = page.evaluate(TITLE_YS)
        assert hand - built == 152
        assert page.evaluate(IN_SIGHT, "svg.board .hand")
    finally:
        page.context.close()
