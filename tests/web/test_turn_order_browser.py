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


def _refused_in_lobby(page: Any, server: PageServer, query: str) -> str:
    """Co-op with the catch-up turn order, chosen from the lobby's lists: the server's
    refusal as the lobby shows it."""
    page.goto(server.base + "/" + query)
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#name", "Ada")
    page.select_option("#game", "mahjongg")
    page.wait_for_selector("body[data-options='mahjongg']")
    if page.locator("#options details").count():
        page.click("#options details summary")
    page.fill("#option-players", "2")
    page.dispatch_event("#option-players", "change")  # the seats follow the players
    page.select_option("#option-mode", "coop")
    page.select_option("#option-turn_order", "behind")
    page.select_option("#seats select[data-seat='0']", "me")
    page.select_option("#seats select[data-seat='1']", "bot:hard")
    page.click("#create-button")
    page.wait_for_selector("#create-error:not([hidden])")
    return str(page.inner_text("#create-error"))


def test_a_combination_the_game_refuses_is_said_in_the_lobby_s_words(
    page: Any, server: PageServer
) -> None:
    """The lobby offers options by their words; its refusal says them the same way, not
    as the keys a request carries (`turn_order 'behind' ... mode 'coop'`)."""
    shown = _refused_in_lobby(page, server, "")
    assert shown == ("Turn order “Lowest score moves next” is for the Standard Expedition, "
                     "not “Architect Co-op”; allowed here: “In seat order”"), shown
    for key in ("turn_order", "behind", "coop", "'round'", "="):
        assert key not in shown, key
    korean = _refused_in_lobby(page, server, "?lang=ko")
    assert korean.startswith("차례 순서 “낮은 점수가 다음 차례”는 표준 원정에서만"), korean
    assert "turn_order" not in korean and "coop" not in korean
