"""Mahjongg's catch-up turn order in a real Chromium (Debian's): chosen in the lobby by
its words, and said on the board, where a seat may move twice running."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from typing import Any

from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    PageServer,
    browser,
    create_from_lobby,
    page,
    pytestmark,
    server,
)

LINE = "Turn order: after a pair the lowest score moves next; after a pass, the next seat."


def test_the_lobby_offers_the_turn_order_in_words_and_the_board_says_it(
    page: Any, server: PageServer
) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", "mahjongg")
    page.wait_for_selector("body[data-options='mahjongg']")
    choices = page.eval_on_selector_all("#option-turn_order option",
                                        "nodes => nodes.map((n) => [n.value, n.textContent])")
    assert choices == [["round", "In seat order"], ["behind", "Lowest score moves next"]]
    create_from_lobby(page, server, "mahjongg",
                      {"players": 2, "layout": "giza-step-ramp", "turn_order": "behind"},
                      ["me", "bot:hard"], name="Ada")
    page.wait_for_selector("#game:not([hidden]) #turn-order")
    assert page.inner_text("#turn-order") == LINE


def test_in_seat_order_the_board_says_nothing_of_it(page: Any, server: PageServer) -> None:
    create_from_lobby(page, server, "mahjongg", {"players": 2, "layout": "giza-step-ramp"},
                      ["me", "bot:hard"], name="Ada")
    page.wait_for_selector("#game:not([hidden]) .mahjongg-panel")
    assert page.locator("#turn-order").count() == 0
