"""Refusals a player meets in a room's page, said where they look and in words.

- A join the server turns away as one too many (here: a fifth watched game only bots
  play) is no lost connection: the page says it is not connected and tries again
  less and less often, not every second for ever.
- A chat message the server refuses (too many at once) is said beside the chat, in
  sight on a phone where the page's message line is far above, and the words the
  player wrote come back to send again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pyramids.web.limits import ServerLimits
from tests.web.conftest import Client, ServerThread
from tests.web.test_browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, playwright_sync

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's Chromium at /usr/bin/chromium"),
]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def page_of(context: Any, errors: list[str]) -> Any:
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def bots_only_room(server: ServerThread) -> str:
    """A Pacal room two bots play, slowly, started."""
    created = server.http.post("/api/rooms", json={"game": "pacal", "bot_delay_seconds": 5})
    created.raise_for_status()
    room, host = created.json()["room"]["id"], created.json()["host_token"]
    for seat in range(2):
        server.http.post(f"/api/rooms/{room}/agents",
                         json={"token": host, "seat": seat, "agent": "random"}).raise_for_status()
    server.http.post(f"/api/rooms/{room}/start", json={"token": host}).raise_for_status()
    return str(room)


def test_a_join_refused_as_one_too_many_says_so_and_backs_off(
    browser: Any, start_server: Callable[..., ServerThread], tmp_path: Any
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'rooms.db'}",
                          ServerLimits.relaxed(bot_rooms_watched_per_client=1), pages=True)
    first, second = bots_only_room(server), bots_only_room(server)
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE)
    watching = page_of(context, errors)
    watching.goto(f"{server.base}/play/{first}")
    watching.wait_for_selector("body[data-connection=ok]")
    refused = page_of(context, errors)
    refused.goto(f"{server.base}/play/{second}")
    refused.wait_for_function(
        "() => document.getElementById('message').textContent.includes('only bots play')")
    # It was never in: no "connection lost", and it tries again less and less often
    # (a refused join used to count as joined, and tried again every second for ever).
    refused.wait_for_function(
        "() => /trying again in ([4-9]|10) s/"
        ".test(document.getElementById('connection').textContent)",
        timeout=12_000)
    assert "lost" not in refused.inner_text("#connection")
    assert refused.evaluate("document.body.dataset.connection") == "bad"
    assert not errors
    context.close()


def test_a_refused_chat_message_is_said_beside_the_chat_and_given_back(
    browser: Any, start_server: Callable[..., ServerThread], tmp_path: Any
) -> None:
    server = start_server(f"sqlite:///{tmp_path / 'rooms.db'}", pages=True)
    created = server.http.post("/api/rooms", json={"game": "pacal"})
    created.raise_for_status()
    room = created.json()["room"]["id"]
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE)
    spectator = page_of(context, errors)
    spectator.goto(f"{server.base}/play/{room}")
    spectator.wait_for_selector("body[data-connection=ok]")
    # A burst of four goes out; the fifth, typed at once, is refused as too many.
    for number in range(1, 6):
        spectator.fill("#chat-input", f"hello {number}")
        spectator.press("#chat-input", "Enter")
    spectator.wait_for_selector("#chat-error:not([hidden])")
    assert re.search(r"too many chat messages.*wait", spectator.inner_text("#chat-error"))
    assert spectator.locator("#chat-error").is_visible()
    # A pixel's fraction over (a header of 111.56 pixels, a scroll of whole ones) is
    # still in sight.
    in_sight = ("(() => { const box = document.getElementById('chat-error')"
                ".getBoundingClientRect(); return box.top >= -1 && box.bottom <= innerHeight + 1;"
                " })()")
    assert spectator.evaluate(in_sight), "said in sight of the chat"
    # Chat that comes in while the refusal shows lengthens the list above it: the
    # refusal stays in sight (a line of the burst that came after it pushed it off a
    # phone's screen once).
    other = Client(server.ws_base, room)
    try:
        for number in range(1, 4):
            other.send({"type": "chat", "text": f"from the other side {number}"})
            spectator.wait_for_selector(f"#chat-list li:has-text('from the other side {number}')")
            assert spectator.evaluate(in_sight), "the refusal stays in sight"
    finally:
        other.close()
    assert spectator.input_value("#chat-input") == "hello 5"
    assert spectator.evaluate("document.activeElement.id") == "chat-input"
    # Sent again once the wait is over, it goes out and the refusal goes away.
    spectator.wait_for_timeout(2_200)
    spectator.press("#chat-input", "Enter")
    spectator.wait_for_selector("#chat-list li:has-text('hello 5')")
    assert spectator.locator("#chat-error").is_hidden()
    assert not errors
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_a_refused_login_is_said_in_the_pages_column(
    browser: Any, start_server: Callable[..., ServerThread], tmp_path: Any,
    viewport: dict[str, int],
) -> None:
    """A wrong password, or too many failed logins, stood against the window's left
    edge (x = 0), out of line with the forms it is about."""
    server = start_server(f"sqlite:///{tmp_path / 'rooms.db'}", pages=True)
    errors: list[str] = []
    context = browser.new_context(viewport=viewport)
    page = page_of(context, errors)
    page.goto(f"{server.base}/account")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#login-name", "Nobody")
    page.fill("#login-password", "not the password")
    page.press("#login-password", "Enter")
    page.wait_for_selector("#account-error:not([hidden])")
    assert "wrong name or password" in page.inner_text("#account-error")
    # Where its words stand (a box's padding may hold them in): in the forms' column.
    left, right = page.evaluate(
        "(() => { const range = document.createRange();"
        " range.selectNodeContents(document.getElementById('account-error'));"
        " const box = range.getBoundingClientRect(); return [box.left, box.right]; })()")
    form = page.locator("#login").bounding_box()
    assert form["x"] - 1 <= left <= form["x"] + 20, (left, form)
    assert right <= form["x"] + form["width"] + 1, (right, form)
    assert not errors
    context.close()
