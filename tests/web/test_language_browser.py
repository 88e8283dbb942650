"""A link's `?lang=` in a real Chromium (Debian's): every page reads it, as the learn pages do.

A Korean player sent `/play/<room>?lang=ko` (or the lobby's, the replay's, the
leaderboard's, the account page's link) reads the page in Korean though their
browser asks for English, and the choice is remembered as the header's language
switch remembers one. An unknown `?lang=` is passed over, with no error page.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pyramids.play.i18n import _
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    opened_page,
    pytestmark,
    server,
)
from tests.web.test_movelog_browser import _finished_room


@pytest.fixture
def english(browser: Any) -> Iterator[Any]:
    """A page of a browser that asks for English and has chosen no language here."""
    with opened_page(browser, locale="en-US") as opened:
        yield opened


def korean(text: str) -> str:
    translated = _(text, lang="ko")
    assert translated != text, text
    return translated


def reads_korean(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.lang === 'ko'")


def test_every_page_reads_a_links_lang(english: Any, server: PageServer) -> None:
    page = english
    page.goto(server.base + "/?lang=ko")
    page.wait_for_selector("body[data-ready=true]")
    reads_korean(page)
    assert page.text_content("#create-title") == korean("New room")

    # A room's link: the page and the words the room's socket sends (the move log).
    finished = _finished_room(server)
    page.goto(f"{server.base}/play/{finished}?lang=ko")
    page.wait_for_selector("#move-log-list .log-entry")
    reads_korean(page)
    assert page.text_content("#turn") == korean("Game over")
    log = page.inner_text("#move-log-list")
    offered = _("{seat} offered {first} and {second}.", lang="ko").rsplit(" ", 1)[-1]
    assert offered in log, log
    assert "offered" not in log and "picked" not in log, log

    with httpx.Client(base_url=server.base, timeout=15) as http:
        waiting = http.post("/api/rooms", json={"game": "pacal"}).json()["room"]["id"]
    page.goto(f"{server.base}/play/{waiting}?lang=ko")
    page.wait_for_selector("[data-take-seat='0']")
    reads_korean(page)
    assert page.text_content("[data-take-seat='0']") == korean("Take this seat")

    page.goto(f"{server.base}/replay/{finished}?lang=ko")
    page.wait_for_selector("#controls:not([hidden])")
    reads_korean(page)
    assert page.text_content("#forward") == korean("Forward")
    assert "offered" not in page.inner_text("#move"), page.inner_text("#move")

    page.goto(server.base + "/leaderboard?lang=ko")
    page.wait_for_selector("body[data-ready=true]")
    reads_korean(page)
    assert page.text_content("#board-title") == korean("Leaderboards")

    page.goto(server.base + "/account?lang=ko")
    page.wait_for_selector("body[data-ready=true]")
    reads_korean(page)
    assert page.title() == korean("Pyramids: your account")


def test_a_links_lang_is_remembered_and_the_switch_still_rules(
    english: Any, server: PageServer
) -> None:
    page = english
    page.goto(server.base + "/leaderboard?lang=ko")
    page.wait_for_selector("body[data-ready=true]")
    reads_korean(page)
    # Pages reached from the link (no ?lang= of their own) stay in Korean.
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    reads_korean(page)
    assert page.text_content("#create-title") == korean("New room")
    # The header's switch on a page opened with ?lang=ko: English, though the address
    # named Korean.
    page.goto(server.base + "/?lang=ko")
    page.wait_for_selector("body[data-ready=true]")
    page.click("nav.language-switch a[hreflang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#create-title") == "New room"
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#board-title") == "Leaderboards"


def test_an_unknown_lang_falls_back_without_an_error_page(
    english: Any, server: PageServer
) -> None:
    page = english
    for address in ("/?lang=xx", "/leaderboard?lang=", "/account?lang=%3Cb%3E"):
        answer = page.goto(server.base + address)
        assert answer is not None and answer.status == 200, address
        page.wait_for_selector("body[data-ready=true]")
        assert page.evaluate("document.documentElement.lang") == "en", address
    # It does not forget a language chosen before either.
    page.goto(server.base + "/?lang=ko")
    page.wait_for_selector("body[data-ready=true]")
    page.goto(server.base + "/leaderboard?lang=xx")
    page.wait_for_selector("body[data-ready=true]")
    reads_korean(page)
    # The lobby's name is a way in too.
    page.goto(server.base + "/lobby?lang=en")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.url.rstrip("/").endswith("?lang=en") or page.url.endswith("/?lang=en")
