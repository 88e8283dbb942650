"""A Mahjongg favor button that is off now, in a real Chromium (Debian's).

It was `disabled`: a click on it did nothing and said nothing, and the keyboard
skipped it, while its key said why in the alert line. It is dimmed and marked
`aria-disabled` now, stays in the Tab order, and a click or Enter on it says the
same words as its key, in the page's language, and plays nothing (as the terminal
app's buttons do).
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pyramids.core.errors import PluralWords, Words
from pyramids.play.i18n import words_text
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    page,
    pytestmark,
    server,
)

NOTHING_TO_UNDO = Words("there is nothing to undo")
NOT_ALL_FREE = Words("finishing needs every remaining tile to be free")
# Giza's solo game starts with 2 tokens and pairs on the board: a reshuffle is off for
# both reasons (the engine's words, the same by key and by button).
RESHUFFLE = Words("a Sandstorm Reshuffle is allowed only when no valid pair exists, and it "
                  "costs {tokens}; {held}",
                  tokens=PluralWords("{count} token", "{count} tokens", 3),
                  held=Words("you have {tokens}", tokens=2))


def solo_giza(browser: Any, server: PageServer, lang: str) -> tuple[Any, Any]:
    """A one-player Mahjongg room on Giza Step Ramp, seen by its player in `lang`."""
    with httpx.Client(base_url=server.base, timeout=15) as http:
        made = http.post("/api/rooms", json={"game": "mahjongg",
                                             "options": {"layout": "giza-step-ramp"}}).json()
        room, host = made["room"]["id"], made["host_token"]
        token = http.post(f"/api/rooms/{room}/seats", json={"name": "Ada", "seat": 0}).json()
        assert http.post(f"/api/rooms/{room}/start", json={"token": host}).is_success
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  locale="ko-KR" if lang == "ko" else "en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.base}/static/favicon.svg")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"pyramids:seat:{room}",
                   json.dumps({"token": token["token"], "seat": 0, "name": "Ada"})])
    page.goto(f"{server.base}/play/{room}")
    page.wait_for_selector("#game:not([hidden]) [data-action='reshuffle']")
    return context, page


def played(page: Any) -> tuple[str, str, int]:
    """What shows that a move was made: the move number, the board, the move log."""
    return (page.evaluate("document.body.dataset.moveNumber"),
            page.inner_html("#game svg.board"),
            page.locator("#move-log li").count())


def message(page: Any) -> str:
    page.wait_for_selector("#message:not([hidden])")
    return " ".join(page.inner_text("#message").split())


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_off_favor_button_says_why_by_click_and_by_enter_and_plays_nothing(
    browser: Any, server: PageServer, lang: str
) -> None:
    context, page = solo_giza(browser, server, lang)
    try:
        before = played(page)
        for action, words in (("undo", NOTHING_TO_UNDO), ("finish", NOT_ALL_FREE),
                              ("reshuffle", RESHUFFLE)):
            button = page.locator(f"[data-action='{action}']")
            said = words_text(words, lang)
            # Dimmed and marked off, but not disabled: a click and the keyboard reach it.
            assert button.get_attribute("aria-disabled") == "true", action
            assert button.get_attribute("disabled") is None, action
            assert button.get_attribute("data-off-reason") == said
            assert button.get_attribute("aria-description") == said
            assert float(button.evaluate("(node) => getComputedStyle(node).opacity")) < 1
            # A click (forced: Playwright waits for an aria-disabled button to turn on).
            page.evaluate("document.getElementById('message').hidden = true")
            button.click(force=True)
            assert message(page) == " ".join(said.split()), action
        # The keyboard: Tab from the hint button to Reshuffle, then Enter.
        page.evaluate("document.getElementById('message').hidden = true")
        page.focus("[data-action='hint']")
        for _tab in range(12):
            if page.evaluate("document.activeElement.dataset.action") == "reshuffle":
                break
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.action") == "reshuffle"
        page.keyboard.press("Enter")
        assert message(page) == " ".join(words_text(RESHUFFLE, lang).split())
        # Undo lies on the way: Shift+Tab back to it, Enter.
        for _tab in range(12):
            if page.evaluate("document.activeElement.dataset.action") == "undo":
                break
            page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.dataset.action") == "undo"
        page.evaluate("document.getElementById('message').hidden = true")
        page.keyboard.press("Enter")
        assert message(page) == words_text(NOTHING_TO_UNDO, lang)
        # Its key says the same words.
        page.evaluate("document.getElementById('message').hidden = true")
        page.focus(".tile[data-nav][tabindex='0']")
        page.keyboard.press("u")
        assert message(page) == words_text(NOTHING_TO_UNDO, lang)
        page.wait_for_timeout(300)
        assert played(page) == before, "an off button played nothing"
        # A button that is on plays at once, as before.
        page.click("[data-action='hint']")
        page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                               arg=int(before[0] or 0))
    finally:
        context.close()


def test_co_op_finish_before_every_tile_is_free_says_why_and_plays_nothing(
    page: Any, server: PageServer
) -> None:
    """Co-op with a bot partner: Finish, the button the mode has, before every remaining
    tile is free."""
    from tests.web.test_accessibility import start_room

    start_room(page, server, "mahjongg", {"layout": "giza-step-ramp", "mode": "coop",
                                          "players": 2},
               [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    page.wait_for_selector("body[data-your-turn=true] #game [data-action='finish']")
    finish = page.locator("[data-action='finish']")
    said = words_text(NOT_ALL_FREE, "en")
    assert finish.get_attribute("aria-disabled") == "true"
    assert finish.get_attribute("data-off-reason") == said
    before = played(page)
    finish.focus()
    page.keyboard.press("Enter")
    assert message(page) == said
    page.evaluate("document.getElementById('message').hidden = true")
    finish.click(force=True)
    assert message(page) == said
    page.wait_for_timeout(300)
    assert played(page) == before
