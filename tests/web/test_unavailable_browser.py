"""Pacal's and Temple's buttons that cannot be used now, in a real Chromium (Debian's).

Pacal's offer button was `disabled` until two hand cards were chosen: the keyboard
skipped it and a click said nothing. Temple's swap zone slots (buttons to a screen
reader, marked unavailable until a hand card is chosen) said why on Enter but nothing on
a click. Now each stays in the Tab order (the slots: by the board's tab stop and its
arrows), is marked `aria-disabled`, and a click, Enter or its key says why in the alert
line, in the page's language, and plays nothing.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from typing import Any

import pytest

from pyramids.play.i18n import _
from tests.web.test_accessibility import focused, press_until
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    PageServer,
    browser,
    create_from_lobby,
    legal_actions,
    move_number,
    pacal_move,
    pytestmark,
    server,
    wait_turn_or_end,
)
from tests.web.test_browser_walk6 import opened


def said(page: Any) -> str:
    """The alert line, once it shows."""
    page.wait_for_selector("#message:not([hidden])")
    return " ".join((page.text_content("#message") or "").split())


def quiet(page: Any) -> None:
    page.evaluate("document.getElementById('message').hidden = true")


def played(page: Any) -> tuple[int, list[str], str]:
    """What shows that a move was made: the move number, the legal moves, the hand."""
    return (move_number(page), legal_actions(page),
            page.get_attribute("#game svg.board .hand", "aria-label") or "")


def spy_on_moves(page: Any) -> None:
    """Keep each move the page sends from now on in `window.movesSent`."""
    page.evaluate("""() => {
        window.movesSent = [];
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
            const message = JSON.parse(String(data));
            if (message.type === "action") window.movesSent.push(message.action);
            return send.call(this, data);
        };
    }""")


def moves_sent(page: Any) -> list[str]:
    sent: list[str] = page.evaluate("window.movesSent")
    return sent


def offering(page: Any) -> bool:
    return page.evaluate("document.body.dataset.yourTurn") == "true" and any(
        action.startswith("offer ") for action in legal_actions(page))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_pacal_s_offer_button_says_what_to_choose_and_offers_nothing(
    browser: Any, server: PageServer, lang: str
) -> None:
    page = opened(browser, server, lang)
    create_from_lobby(page, server, "pacal", {}, ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    # Play on (the bot answers at once) to this seat's first offer.
    while not offering(page):
        if page.evaluate("document.body.dataset.yourTurn") == "true":
            before = move_number(page)
            pacal_move(page)
            wait_turn_or_end(page, before)
        else:
            page.wait_for_timeout(30)
    before = played(page)
    spy_on_moves(page)
    first = page.get_attribute(".hand [data-card]", "data-card")
    none_chosen = _("Choose two cards of your hand to offer first.", lang=lang)
    one_chosen = _("Choose one more card of your hand to offer: {card} is chosen.",
                   lang=lang, card=first)
    offer = page.locator("#offer-button")
    # Dimmed and marked off, but not disabled: its reason is its tooltip and description.
    assert offer.get_attribute("aria-disabled") == "true"
    assert offer.get_attribute("disabled") is None
    assert offer.get_attribute("aria-description") == none_chosen
    assert offer.get_attribute("title") == none_chosen
    assert float(offer.evaluate("(node) => getComputedStyle(node).opacity")) < 1
    # The keyboard: from a hand card, Tab goes on to the offer button; Enter says why.
    page.focus(f".hand [data-card='{first}']")
    press_until(page, "Tab", "#offer-button", limit=3)
    page.keyboard.press("Enter")
    assert said(page) == none_chosen
    quiet(page)
    page.keyboard.press("Space")
    assert said(page) == none_chosen
    # A click (forced: Playwright waits for an aria-disabled button to turn on).
    quiet(page)
    offer.click(force=True)
    assert said(page) == none_chosen
    # One card chosen: the button names it and asks for one more, by click and by O.
    page.click(f".hand [data-card='{first}']")
    page.wait_for_selector(f".hand [data-card='{first}'].selected")
    assert offer.get_attribute("aria-disabled") == "true"
    quiet(page)
    offer.click(force=True)
    assert said(page) == one_chosen
    quiet(page)
    page.focus(f".hand [data-card='{first}']")
    page.keyboard.press("o")
    assert said(page) == one_chosen
    page.wait_for_timeout(300)
    assert moves_sent(page) == [], "an unavailable offer button sends no move"
    assert played(page) == before
    # Two cards chosen: the button is on and offers them at once, as before.
    second = page.get_attribute(".hand [data-card]:not(.selected)", "data-card")
    page.click(f".hand [data-card='{second}']")
    page.wait_for_selector("#offer-button:not([aria-disabled])")
    assert offer.get_attribute("title") is None
    low, high = sorted([int(first or 0), int(second or 0)])
    assert offer.get_attribute("data-action") == f"offer {low} {high}"
    page.focus("#offer-button")
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                           arg=before[0])
    assert moves_sent(page) == [f"offer {low} {high}"]
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_temple_s_swap_slot_says_to_choose_a_card_first_by_click_and_by_enter(
    browser: Any, server: PageServer, lang: str
) -> None:
    page = opened(browser, server, lang)
    create_from_lobby(page, server, "temple", {}, ["me", "bot:greedy", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    # The first swap phase: every hand holds cards and every slot a card to take.
    assert any(a.startswith("swap ") and a != "swap pass" for a in legal_actions(page))
    before = played(page)
    spy_on_moves(page)
    why = _("First choose the card of your hand to give.", lang=lang)
    slot = page.locator("[data-slot='2']")
    assert slot.get_attribute("role") == "button"
    assert slot.get_attribute("aria-disabled") == "true"
    # The keyboard: Tab from the page's top reaches the board's tab stop, the arrows the slot.
    page.evaluate("document.activeElement && document.activeElement.blur()")
    press_until(page, "Tab", "svg.board [data-nav]", limit=80)
    press_until(page, "ArrowRight", "[data-slot='2']", limit=30)
    assert focused(page, "[data-slot='2']")
    page.keyboard.press("Enter")
    assert said(page) == why
    # A click on it said nothing: it says the same words now.
    quiet(page)
    slot.click(force=True)  # forced: Playwright waits for an aria-disabled item to turn on
    assert said(page) == why
    page.wait_for_timeout(300)
    assert moves_sent(page) == [], "a slot chosen before a hand card sends no move"
    assert played(page) == before
    # With a hand card chosen, the slot is on and a click gives the card.
    page.click(".hand [data-key^='hand-'][role='button']")
    page.wait_for_selector("[data-slot='2'][data-action]")
    assert slot.get_attribute("aria-disabled") is None
    slot.click()
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                           arg=before[0])
    assert len(moves_sent(page)) == 1 and moves_sent(page)[0].endswith(" 2")
    assert not page.errors, page.errors
    page.context.close()


def test_start_with_an_open_seat_says_which_seat_and_starts_nothing(
    browser: Any, server: PageServer
) -> None:
    """The host's Start was `disabled` while a seat was open: the keyboard skipped it."""
    import httpx

    page = opened(browser, server, "en")
    room = create_from_lobby(page, server, "pacal", {}, ["me", "open"], name="Host")
    page.wait_for_selector("#waiting:not([hidden]) #start")
    why = "Seat 2 is still open: take it or give it to a bot, then start."
    starts: list[str] = []
    page.on("request", lambda request: starts.append(request.url)
            if request.url.endswith("/start") else None)
    start = page.locator("#start")
    assert start.get_attribute("aria-disabled") == "true"
    assert start.get_attribute("disabled") is None
    assert start.get_attribute("aria-description") == why
    page.evaluate("document.activeElement && document.activeElement.blur()")
    press_until(page, "Tab", "#start", limit=60)
    page.keyboard.press("Enter")
    assert said(page) == why
    quiet(page)
    start.click(force=True)
    assert said(page) == why
    page.wait_for_timeout(300)
    assert starts == [], "an unavailable Start sends no request"
    assert httpx.get(f"{server.base}/api/rooms/{room}").json()["room"]["status"] == "waiting"
    # The seat given to a bot, Start starts.
    page.click("#waiting button:has-text('Give to a bot')")
    page.wait_for_selector("#start:not([aria-disabled])")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    assert not page.errors, page.errors
    page.context.close()


def test_solo_pacal_a_click_on_a_field_the_card_does_not_fit_says_why(
    browser: Any, server: PageServer
) -> None:
    """Solo Pacal: a click on a field that cannot take the card said nothing (Enter said
    why); it says the rules' words now, and places nothing."""
    from pyramids.games.pacal.pyramid import why_not
    from pyramids.play.i18n import words_text
    from tests.web.test_browser_walk6 import _solo_pyramid

    page = opened(browser, server, "en")
    create_from_lobby(page, server, "pacal-solo", {}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    for _turn in range(10):
        wait_turn_or_end(page, -1)
        assert page.evaluate("document.body.dataset.status") != "finished", "lost too soon"
        off = page.locator(".field[aria-disabled='true']")
        if off.count():
            break
        before = move_number(page)
        legal = legal_actions(page)
        page.click(f".field[data-action='{legal[len(legal) // 2]}']")
        wait_turn_or_end(page, before)
    field = off.first
    number = int(field.get_attribute("data-field") or "0")
    card = int(page.get_attribute(".to-place", "data-card") or "0")
    visible, covered = _solo_pyramid(page, "en")
    reason = why_not(visible, covered, number - 1, card)
    assert reason is not None
    expected = words_text(reason, "en")
    expected = expected[0].upper() + expected[1:]
    before = move_number(page)
    spy_on_moves(page)
    field.click(force=True)  # forced: Playwright waits for an aria-disabled item to turn on
    assert said(page) == expected
    page.wait_for_timeout(300)
    assert moves_sent(page) == [] and move_number(page) == before
    assert not page.errors, page.errors
    page.context.close()


def test_a_tutorial_s_step_to_read_says_to_read_on_when_the_board_is_clicked(
    browser: Any, server: PageServer
) -> None:
    """Pacal's tutorial, its first step (to read): a click or Enter on a hand card said
    nothing, or "It is not your turn." (no other player was to move): it says to read
    the step and go on, and the step stays."""
    page = opened(browser, server, "ko")
    page.goto(f"{server.base}/tutorial/pacal")
    page.wait_for_selector("body[data-ready='true'] #game .hand [data-card]")
    assert page.evaluate("document.body.dataset.step") == "1"
    card = page.locator(".hand [data-card]").first
    assert card.get_attribute("aria-disabled") == "true"
    words = _("Read the step, then go on.", lang="ko")
    card.click(force=True)
    page.wait_for_function("(w) => document.getElementById('feedback').textContent === w",
                           arg=words)
    page.evaluate("document.getElementById('feedback').textContent = ''")
    card.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(w) => document.getElementById('feedback').textContent === w",
                           arg=words)
    assert page.evaluate("document.body.dataset.step") == "1"
    assert page.evaluate("document.body.dataset.entries") == "0"
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_pacal_s_o_and_d_keys_say_why_outside_the_offer_and_the_last_card(
    browser: Any, server: PageServer, lang: str
) -> None:
    """On this seat's turn to pick or place, O (offer) and D (decline) said nothing at
    all: each now says when it may be used, in the alert line, and sends nothing."""
    page = opened(browser, server, lang)
    create_from_lobby(page, server, "pacal", {}, ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")

    def picking_or_placing() -> bool:
        legal = legal_actions(page)
        return page.evaluate("document.body.dataset.yourTurn") == "true" and bool(legal) and all(
            action.startswith(("pick ", "place ")) for action in legal)

    while not picking_or_placing():
        if page.evaluate("document.body.dataset.yourTurn") == "true":
            before_move = move_number(page)
            pacal_move(page)
            wait_turn_or_end(page, before_move)
        else:
            page.wait_for_timeout(30)
    before = played(page)
    spy_on_moves(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    quiet(page)
    page.keyboard.press("d")
    assert said(page) == _("You can decline only your last card, on your turn.", lang=lang)
    quiet(page)
    page.keyboard.press("o")
    assert said(page) == _("You can offer only on your turn, when it is time to offer.",
                           lang=lang)
    page.wait_for_timeout(300)
    assert moves_sent(page) == [], "a key that cannot be used now sends no move"
    assert played(page) == before
    assert not page.errors, page.errors
    page.context.close()
