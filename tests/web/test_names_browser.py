"""Names that look alike, in a real Chromium (Debian's): "Bea" and a Cyrillic "Веа" at
one table read alike, so the page names each with its seat, as the move log does, and
so does the chat: one cannot write as the other."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from typing import Any

from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    create_from_lobby,
    page,
    pytestmark,
    server,
)

BEA_CYRILLIC = "\u0412\u0435\u0430"  # В е а


def test_names_that_look_alike_are_told_apart_by_their_seats(
    browser: Any, page: Any, server: PageServer
) -> None:
    room = create_from_lobby(page, server, "pacal", {"rounds_to_win": 1}, ["me", "open"],
                             name="Bea")
    page.wait_for_selector("#waiting:not([hidden])")
    context = browser.new_context(viewport={"width": 1000, "height": 860})
    friend = context.new_page()
    friend.set_default_timeout(TIMEOUT_MS)
    friend.goto(f"{server.base}/play/{room}")
    friend.wait_for_selector("[data-take-seat='1']")
    friend.fill("#seat-name", BEA_CYRILLIC)
    friend.click("[data-take-seat='1']")
    friend.wait_for_selector("body[data-seat='1']")
    page.wait_for_function(
        "() => document.querySelectorAll('#waiting li.waiting-seat')[1].textContent"
        ".includes('\u0412')")
    for reader, own in ((page, 0), (friend, 1)):
        seats = reader.eval_on_selector_all("#waiting li.waiting-seat",
                                            "nodes => nodes.map(n => n.textContent)")
        names = ["Bea", BEA_CYRILLIC]
        for seat, text in enumerate(seats):
            told = f"{names[seat]} (you)" if seat == own else f"{names[seat]} (seat {seat + 1})"
            assert text.startswith(f"Seat {seat + 1}: {told}"), (own, seats)
    page.click("#start")
    friend.wait_for_selector("#chat-input")
    friend.fill("#chat-input", "it is me, Bea")
    friend.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat-list .chat-message")
    assert page.inner_text("#chat-list .chat-author") == f"{BEA_CYRILLIC} (seat 2)"
    context.close()
