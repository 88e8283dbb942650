"""The room's chat, a polite live region, for a screen reader: a new connection's
chat history leaves the lines already shown as they are.

The page opens a new connection when its reader takes a seat (and when it comes back
after a drop), and the server sends the chat so far on each. The list was filled anew
with it, the same lines: the live region read the whole chat again.

Runs the real server and Debian's Chromium as tests/web/test_browser.py does (its
fixtures are reused).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web import test_browser as _browser_tests
from tests.web.test_browser import PageServer, opened_page

server = _browser_tests.server
browser = _browser_tests.browser

pytestmark = [pytest.mark.browser]

CHANGES = """() => {
  window.chatChanges = [];
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) window.chatChanges.push('+' + node.textContent);
      for (const node of record.removedNodes) window.chatChanges.push('-' + node.textContent);
    }
  }).observe(document.getElementById('chat-list'), { childList: true });
}"""


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Pages in separate browser contexts (separate players); none may raise."""
    with contextlib.ExitStack() as pages:
        yield lambda: pages.enter_context(opened_page(browser))


def write(page: Any, text: str) -> None:
    """Send a chat line by keyboard once connected, and wait for it to come back."""
    page.wait_for_selector("body[data-connection=ok]")
    before = page.locator("#chat-list li").count()
    page.focus("#chat-input")
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => document.querySelectorAll('#chat-list li').length > n",
                           arg=before)


def test_taking_a_seat_does_not_read_the_chat_again(new_page: Any, server: PageServer) -> None:
    host = new_page()
    host.goto(server.base + "/")
    host.wait_for_selector("body[data-ready=true]")
    room = host.evaluate(
        "async (setup) => (await import('/static/setup.js')).createRoom(setup)",
        {"game": "pacal", "options": {}, "seats": [{"kind": "me"}, {"kind": "open"}],
         "bot_delay_seconds": 0, "name": "Ada"})
    host.goto(f"{server.base}/play/{room}")
    write(host, "hello")
    write(host, "who plays?")
    guest = new_page()
    guest.goto(f"{server.base}/play/{room}")
    guest.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 2")
    guest.evaluate(CHANGES)
    guest.fill("#seat-name", "Bo")
    guest.focus("[data-take-seat]")
    guest.keyboard.press("Enter")
    guest.wait_for_function("() => document.body.dataset.seat === '1'")
    # A line written after the seat is taken comes on the new connection, after its
    # history: it alone is added.
    write(host, "welcome, Bo")
    guest.wait_for_function("() => document.querySelectorAll('#chat-list li').length === 3")
    assert guest.evaluate("window.chatChanges") == ["+Ada: welcome, Bo"]
    assert guest.inner_text("#chat-list").splitlines() == [
        "Ada: hello", "Ada: who plays?", "Ada: welcome, Bo"]
