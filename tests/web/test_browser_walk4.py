"""What a fourth walk through the pages found, in a real Chromium (Debian's), on a desktop
and a phone, in English and Korean: the replay stepped by keyboard, ..."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.web.test_accessibility import focused, press_until
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    pytestmark,
    server,
)
from tests.web.test_movelog_browser import _finished_room

SIZES = {"desktop": {"width": 1200, "height": 860}, "phone": {"width": 390, "height": 844}}


def opened(browser: Any, size: str, lang: str) -> Any:
    context = browser.new_context(viewport=SIZES[size])
    context.add_init_script(f"try {{ localStorage.setItem('pyramids.lang', '{lang}'); }}"
                            " catch (e) {}")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_the_replay_s_buttons_keep_the_focus_at_either_end(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """Pressing Forward (by Enter) onto the last move disabled the button under the focus:
    the focus fell to the page's start, and the next Enter or Tab began again from the
    top. It now goes to the button that steps the other way, and back again."""
    room = _finished_room(server)
    page = opened(browser, size, lang)
    page.goto(f"{server.base}/replay/{room}#step=1")
    page.wait_for_selector("#controls:not([hidden])")
    last = int(page.evaluate(f"fetch('/api/rooms/{room}/replay').then((r) => r.json())"
                             ".then((data) => data.steps.length - 1)"))
    press_until(page, "Tab", "#back", limit=30)
    page.keyboard.press("Enter")
    assert page.url.endswith("#step=0")
    assert focused(page, "#forward"), page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Enter")
    assert page.url.endswith("#step=1")
    # The move reads as words in the reader's language, not as the engine's action.
    words = page.inner_text("#move-lines")
    assert not re.search(r"\b(offer|pick|place)\s+\d", words), words
    if lang == "ko":
        assert re.search("[가-힣]", words), words
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    press_until(page, "Tab", "#forward", limit=30)
    page.keyboard.press("Enter")
    assert page.url.endswith(f"#step={last}")
    assert focused(page, "#back"), page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Enter")
    assert page.url.endswith(f"#step={last - 1}")
    assert not page.errors, page.errors
    page.context.close()


HEAR = """() => {
    window.heard = [];
    new MutationObserver((changes) => {
        for (const change of changes) {
            for (const node of change.addedNodes) {
                window.heard.push([Number(document.body.dataset.entries), node.textContent]);
            }
        }
    }).observe(document.getElementById('announcer'), { childList: true });
}"""


@pytest.mark.parametrize(("game", "size", "lang"), [("pacal", "desktop", "en"),
                                                     ("temple", "phone", "ko")])
def test_a_tutorial_tells_a_screen_reader_the_bots_moves_and_the_end_once(
    browser: Any, server: PageServer, game: str, size: str, lang: str
) -> None:
    """The tutorial page had no live region for the other seats: a screen-reader user
    heard the step's text, never the bot's reply ("Since your move: ..." is read only
    when looked for), nor that the game was over. Each is now said once: a step read with
    Next shows the same moves again, unsaid."""
    from tests.web.test_tutorial_browser import follow_the_steps, play_to_the_end

    page = opened(browser, size, lang)
    page.context.add_cookies([{"name": "pyramids_lang", "value": lang, "url": server.base}])
    page.add_init_script(f"window.addEventListener('DOMContentLoaded', {HEAR})")
    # The server's answers: the others' moves that follow each move of the learner's.
    answered: list[int] = []

    def replied(response: Any) -> None:
        if "/api/tutorial/" in response.url and response.request.method == "POST":
            body, reply = response.request.post_data_json, response.json()
            if body.get("attempt") and reply["feedback"]["accepted"]:
                answered.append(len(reply["others"]))

    page.on("response", replied)
    follow_the_steps(page, server, game, lang)
    play_to_the_end(page)
    page.wait_for_selector("#over:not([hidden])")
    heard = [tuple(line) for line in page.evaluate("window.heard")]
    assert len(heard) == len(set(heard)), heard
    moves = [text for _, text in heard if not text.startswith(("Game over.", "게임이 끝났"))]
    # The others are told by the bot who plays them, as a room names its bots and the
    # page's "Since your move: ..." line tells them (with the seat where two are alike).
    seat = (r"Greedy rule \(bot(, seat [2-4])?\)" if lang == "en"
            else r"탐욕 규칙 \(봇(, [2-4]번 자리)?\)")
    assert moves and all(re.fullmatch(seat, text.split(":")[0]) for text in moves), heard
    assert len(moves) == sum(answered), (answered, heard)  # each move said once
    if lang == "ko":
        assert all(re.search("[가-힣]", text.split(":", 1)[1]) for text in moves), moves
    ends = [text for _, text in heard if text not in moves]
    assert len(ends) == 1, heard
    assert page.text_content("#over .outcome") in ends[0], (ends, page.text_content("#over"))
    assert not page.errors, page.errors
    page.context.close()


ROUND_HEARD = """() => {
    window.heard = [];
    new MutationObserver((changes) => {
        for (const change of changes) {
            for (const node of change.addedNodes) window.heard.push(node.textContent);
        }
    }).observe(document.getElementById('announcer'), { childList: true });
}"""


@pytest.mark.parametrize(("size", "lang"), [("phone", "ko")])
def test_a_pacal_round_s_end_is_said_to_a_screen_reader_once(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """A round's end was shown as a hint under the board, never said: a screen-reader
    user heard the bot's moves, then cards of a new deal, with no word of who took the
    round. It is said once, whoever made the round's last move; the match's end says
    its last round with the result."""
    from tests.web.test_accessibility import start_room
    from tests.web.test_browser import finished, move_number, pacal_move, wait_turn_or_end

    page = opened(browser, size, lang)
    start_room(page, server, "pacal", {"rounds_to_win": 2, "max_rounds": 2},
               [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    page.evaluate(ROUND_HEARD)
    wait_turn_or_end(page, -1)
    while not finished(page):
        before = move_number(page)
        pacal_move(page)
        wait_turn_or_end(page, before)
    page.wait_for_selector("#over:not([hidden])")
    heard = page.evaluate("window.heard")
    rounds = [line for line in heard if re.match(r"\d라운드: ", line)]
    assert len(rounds) == 1 and rounds[0].startswith("1라운드: "), heard
    assert re.fullmatch(r"1라운드: (.+ 승리|무승부) \(차이 \d+ / \d+\)\.", rounds[0]), rounds
    assert heard.index(rounds[0]) < len(heard) - 1  # said when it ended, not at the end
    assert "2라운드: " in heard[-1], heard  # the match's end says its last round
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_a_game_s_rules_page_leads_to_a_game_of_it_against_a_bot(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """A newcomer who read Temple's rules had the tutorial to try, but no way to play it
    short of going back to the lobby, where Pacal stood chosen: the rules page now links
    to the lobby with the game chosen and a bot in the other seats."""
    page = opened(browser, size, lang)
    page.goto(f"{server.base}/learn/temple?lang={lang}")
    link = page.locator("a.play-link")
    assert link.inner_text() == ("Play a real game" if lang == "en" else "실제 게임 하기")
    link.click()
    page.wait_for_selector("body[data-options='temple']")
    assert page.input_value("#game") == "temple"
    assert page.input_value("#seats select[data-seat='1']").startswith("bot:")
    page.fill("#name", "Newcomer")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#game:not([hidden]) svg.board")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("host_lang", "friend_lang"), [("en", "ko")])
def test_the_waiting_room_keeps_the_keyboard_s_place_and_the_start_is_said(
    browser: Any, server: PageServer, host_lang: str, friend_lang: str
) -> None:
    """By keyboard: Take this seat dropped the focus to the page's start, and so did
    Start, on both pages; a name half typed was wiped when someone else took a seat
    (the waiting page is drawn again at each change); and a screen-reader user who
    waited heard nothing when the host started the game. Now the focus goes to the
    seat's Leave button, then to the board, the typing is kept, and the start is said
    with whose move it is."""
    from tests.web.test_accessibility import press_until
    from tests.web.test_browser import create_from_lobby

    host = opened(browser, "desktop", host_lang)
    room = create_from_lobby(host, server, "temple", {"players": 3},
                             ["me", "open", "open"], name="Ada")
    host.wait_for_selector("#waiting:not([hidden])")
    host.evaluate(ROUND_HEARD)
    friend = opened(browser, "phone", friend_lang)
    friend.goto(f"{server.base}/play/{room}")
    friend.wait_for_selector("[data-take-seat='1']")
    friend.evaluate(ROUND_HEARD)
    friend.click("#seat-name")
    friend.keyboard.type("Be")
    # Seat 3 is taken (by a bot the host gives it to) while the friend types.
    host.click("[data-give='2']")
    friend.wait_for_function("() => !document.querySelector('[data-take-seat=\"2\"]')")
    friend.keyboard.type("a")
    assert friend.input_value("#seat-name") == "Bea"
    press_until(friend, "Tab", "[data-take-seat='1']", limit=20)
    friend.keyboard.press("Enter")
    friend.wait_for_selector("[data-leave='1']")
    friend.wait_for_function("() => document.activeElement.matches('[data-leave=\"1\"]')")
    assert "Bea" in friend.inner_text("#waiting")
    # Leave this seat, and take it again, by keyboard: the focus stays on the seat.
    friend.keyboard.press("Enter")
    friend.wait_for_function(
        "() => document.activeElement.matches('[data-take-seat=\"1\"]')")
    friend.keyboard.press("Enter")
    friend.wait_for_function("() => document.activeElement.matches('[data-leave=\"1\"]')")
    host.wait_for_selector("#start:not([aria-disabled])")
    press_until(host, "Tab", "#start", limit=60)
    host.keyboard.press("Enter")
    for page in (host, friend):
        page.wait_for_selector("#game:not([hidden]) svg.board")
        page.wait_for_function(
            "() => document.activeElement.matches('#game [data-nav][tabindex=\"0\"]')")
        page.wait_for_function("() => window.heard.length > 0")
    # Whoever moves first (the deal decides), both pages say the same seat.
    heard = (host.evaluate("window.heard[0]"), friend.evaluate("window.heard[0]"))
    assert heard in {
        ("The game has started: your move.", "게임이 시작되었습니다: Ada의 차례입니다."),
        ("The game has started: Bea moves first.", "게임이 시작되었습니다: 당신의 차례입니다."),
        ("The game has started: Medium (bot) moves first.",
         "게임이 시작되었습니다: 보통 (봇)의 차례입니다."),
    }, heard
    assert not host.errors and not friend.errors, host.errors + friend.errors
    host.context.close()
    friend.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_cards_chosen_in_one_tab_do_not_stay_chosen_after_the_other_tab_offered_them(
    browser: Any, server: PageServer, size: str
) -> None:
    """The same player in two tabs chose two cards in one and offered them from the
    other: at their next offer the first tab still had them chosen, out of the hand,
    its button saying "Offer 20 and 21" (disabled) for cards no longer held."""
    from tests.web.test_accessibility import start_room
    from tests.web.test_browser import legal_actions, move_number, pacal_move

    first = opened(browser, size, "en")
    room = start_room(first, server, "pacal", {},
                      [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    second = first.context.new_page()
    second.goto(f"{server.base}/play/{room}")
    second.wait_for_selector("#game:not([hidden]) svg.board")

    def offering(page: Any) -> bool:
        return page.evaluate("document.body.dataset.yourTurn") == "true" and any(
            action.startswith("offer ") for action in legal_actions(page))

    while not offering(second):
        if second.evaluate("document.body.dataset.yourTurn") == "true":
            before = move_number(second)
            pacal_move(second)
            second.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                     arg=before)
        else:
            second.wait_for_timeout(30)
    first.wait_for_function("(n) => Number(document.body.dataset.moveNumber) === n",
                            arg=move_number(second))
    _, low, high = next(a for a in legal_actions(first) if a.startswith("offer ")).split()
    first.click(f".hand [data-card='{low}']")
    first.click(f".hand [data-card='{high}']")
    assert first.inner_text("#offer-button") == f"Offer {low} and {high}"
    # The other tab offers those very cards; play on to this seat's next offer.
    second.click(f".hand [data-card='{low}']")
    second.click(f".hand [data-card='{high}']")
    second.click("#offer-button")
    second.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                             arg=move_number(first))
    while not offering(second):
        if second.evaluate("document.body.dataset.yourTurn") == "true":
            before = move_number(second)
            pacal_move(second)
            second.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                     arg=before)
        else:
            second.wait_for_timeout(30)
    first.wait_for_function("(n) => Number(document.body.dataset.moveNumber) === n",
                            arg=move_number(second))
    assert first.locator(".hand .selected").count() == 0
    assert first.inner_text("#offer-button") == "Choose two cards to offer"
    assert not first.errors, first.errors
    first.context.close()


def test_a_temple_card_chosen_in_one_tab_is_let_go_when_the_other_tab_keeps_the_hand(
    browser: Any, server: PageServer
) -> None:
    """A card of the hand chosen to give in one tab stayed raised and "chosen" (and the
    hint asked for a slot) after the same player chose Keep my hand in another tab."""
    from tests.web.test_accessibility import start_room
    from tests.web.test_browser import legal_actions, move_number

    first = opened(browser, "phone", "ko")
    room = start_room(first, server, "temple", {"players": 2},
                      [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    second = first.context.new_page()
    second.goto(f"{server.base}/play/{room}")
    second.wait_for_selector("#game:not([hidden]) svg.board")
    first.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    swaps = [a for a in legal_actions(first) if a.startswith("swap ") and a != "swap pass"]
    assert swaps, legal_actions(first)
    kind = swaps[0].split()[1]
    first.click(f".hand [data-kind='{kind}']")
    first.wait_for_selector(f".hand .selected[data-kind='{kind}']")
    before = move_number(first)
    second.wait_for_selector("[data-action='swap pass']")
    second.click("[data-action='swap pass']")
    first.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
    assert first.locator(".hand .selected").count() == 0
    assert not first.errors, first.errors
    first.context.close()


def test_the_leaderboard_fits_a_small_phone(browser: Any, server: PageServer) -> None:
    """On a 320-pixel phone the leaderboard's table (rank, name, rating ± deviation,
    ranked games) was 340 pixels wide: the whole page scrolled sideways."""
    page = opened(browser, "phone", "en")
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{server.base}/leaderboard?game=pacal")
    page.wait_for_selector("#leaderboard tbody tr")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_the_end_of_a_game_keeps_the_focus_on_rematch_when_a_spectator_comes_and_goes(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """After the end, each state message (a spectator arriving or leaving) drew the end
    box again: a keyboard player on Rematch was thrown to the page's start, and the
    rematch offer's live region was emptied, to be filled (and said) again."""
    from tests.web.test_accessibility import start_room
    from tests.web.test_browser import finished, move_number, pacal_move, wait_turn_or_end

    page = opened(browser, size, lang)
    states: list[str] = []
    page.on("websocket", lambda socket: socket.on(
        "framereceived", lambda frame: states.append(str(frame))
        if '"type": "state"' in str(frame) or '"type":"state"' in str(frame) else None))
    room = start_room(page, server, "pacal", {"rounds_to_win": 1, "max_rounds": 1},
                      [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    wait_turn_or_end(page, -1)
    while not finished(page):
        before = move_number(page)
        pacal_move(page)
        wait_turn_or_end(page, before)
    page.wait_for_selector("#over:not([hidden]) #rematch")
    page.evaluate("""() => { window.redrawn = 0;
        new MutationObserver(() => { window.redrawn += 1; })
            .observe(document.getElementById('over'), { childList: true }); }""")
    page.focus("#rematch")
    seen = len(states)
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.base}/play/{room}")
    watcher.wait_for_selector("#over:not([hidden])")
    watcher.context.close()
    # The watcher's coming and going reach the player's page as state messages.
    deadline = time.monotonic() + 10
    while len(states) < seen + 2:
        assert time.monotonic() < deadline, "no state message came after the watcher's visit"
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)
    assert page.evaluate("document.activeElement.id") == "rematch"
    assert page.evaluate("window.redrawn") == 0
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [("phone", "ko")])
def test_a_reloaded_tutorial_goes_on_from_the_same_step(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """The tutorial kept the learner's moves in the page alone: a reload (or a look at
    the rules and Back) began the lesson again at step 1. It goes on from the same step,
    with the same board; a finished lesson, or entries the server refuses, start anew."""
    from pyramids.play.i18n import _
    from pyramids.play.tutorial import tutorial_for
    from tests.web.test_tutorial_browser import click_move, entries, wait_entries

    tutorial = tutorial_for("pacal")
    assert tutorial is not None
    page = opened(browser, size, lang)
    page.goto(f"{server.base}/tutorial/pacal")
    page.wait_for_selector("body[data-ready='true']")
    for step in tutorial.steps[:3]:
        before = entries(page)
        if step.expect is None:
            page.click("#next")
        else:
            click_move(page, step.expect)
        wait_entries(page, before + 1)
    shown = (page.text_content("#step-count"), page.text_content("#say"),
             page.inner_text("#game"))
    assert shown[0] == _("Step {step} of {steps}", lang=lang, step=4,
                         steps=len(tutorial.steps)), shown[0]
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert (page.text_content("#step-count"), page.text_content("#say"),
            page.inner_text("#game")) == shown
    # Entries the server does not replay: the lesson starts again, with no error left.
    page.evaluate("sessionStorage.setItem('pyramids.tutorial.pacal', '[\"offer 99 98\"]')")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert page.get_attribute("body", "data-step") == "1"
    assert not page.is_visible("#feedback")
    assert not page.errors, page.errors
    page.context.close()


def test_the_lobby_s_room_lists_keep_the_keyboard_on_a_room_s_join(
    browser: Any, server: PageServer
) -> None:
    """The open rooms and games being played are fetched every four seconds, and the
    lists were drawn anew each time: a keyboard or screen-reader user on a room's Join
    was thrown to the page's start. Now an unchanged list is left alone, and a changed
    one keeps the focus on the same room's link."""
    import httpx

    def open_room() -> str:
        made = httpx.post(f"{server.base}/api/rooms", json={"game": "pacal"}, timeout=15)
        return str(made.json()["room"]["id"])

    room = open_room()
    page = opened(browser, "phone", "ko")
    page.goto(f"{server.base}/")
    page.wait_for_selector(f"#open-rooms [data-room='{room}'] a.button")
    from tests.web.test_accessibility import press_until

    press_until(page, "Tab", f"#open-rooms [data-room='{room}'] a.button", limit=120)
    page.wait_for_timeout(4500)  # one refresh, nothing changed
    assert page.evaluate("document.activeElement.closest('[data-room]')?.dataset.room") == room
    other = open_room()
    page.wait_for_selector(f"#open-rooms [data-room='{other}']")  # a refresh that changed
    assert page.evaluate("document.activeElement.closest('[data-room]')?.dataset.room") == room
    assert page.evaluate("document.activeElement.classList.contains('button')")
    assert not page.errors, page.errors
    page.context.close()


def test_the_keyboard_on_end_the_game_stays_there_while_the_others_move(
    browser: Any, server: PageServer
) -> None:
    """The status (whose turn, the seats, End the game) is drawn anew at each move: a host
    who had tabbed to End the game was thrown to the page's start by the bot's move."""
    from tests.web.test_accessibility import start_room
    from tests.web.test_browser import move_number, pacal_move

    page = opened(browser, "desktop", "en")
    start_room(page, server, "pacal", {}, [{"kind": "bot", "agent": "slow"}, {"kind": "me"}])
    page.wait_for_selector("#end-game")
    if page.evaluate("document.body.dataset.yourTurn") == "true":  # the deal chose us first
        before = move_number(page)
        pacal_move(page)
        page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                               arg=before)
    # The slow bot thinks: the host is on End the game when its move comes.
    before = move_number(page)
    assert page.evaluate("document.body.dataset.yourTurn") == "false"
    page.focus("#end-game")
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
    page.wait_for_timeout(100)
    assert page.evaluate("document.activeElement.id") == "end-game"
    assert not page.errors, page.errors
    page.context.close()


def test_a_visitor_coming_and_going_does_not_redraw_the_waiting_room(
    browser: Any, server: PageServer
) -> None:
    """Each state message drew the waiting page anew, a visitor's connection coming and
    going too: the host's choice of bot level went back to Medium, and a screen reader
    read the focused control again."""
    from tests.web.test_browser import create_from_lobby

    host = opened(browser, "desktop", "en")
    states: list[str] = []
    host.on("websocket", lambda socket: socket.on(
        "framereceived", lambda frame: states.append(str(frame))
        if '"type":"state"' in str(frame).replace(" ", "") else None))
    room = create_from_lobby(host, server, "pacal", {}, ["me", "open"], name="Ada")
    host.wait_for_selector("#waiting:not([hidden]) [data-give='1']")
    select = "#waiting select[aria-label='bot for seat 2']"
    host.select_option(select, "hard")
    host.evaluate("""() => { window.redrawn = 0;
        new MutationObserver(() => { window.redrawn += 1; })
            .observe(document.getElementById('waiting'), { childList: true }); }""")
    seen = len(states)
    visitor = browser.new_context().new_page()
    visitor.goto(f"{server.base}/play/{room}")
    visitor.wait_for_selector("[data-take-seat='1']")
    visitor.context.close()
    deadline = time.monotonic() + 10
    while len(states) < seen + 2:
        assert time.monotonic() < deadline, "no state message came after the visit"
        host.wait_for_timeout(50)
    host.wait_for_timeout(200)
    assert host.evaluate("window.redrawn") == 0
    assert host.input_value(select) == "hard"
    assert not host.errors, host.errors
    host.context.close()


def test_a_visitor_coming_and_going_does_not_redraw_the_board(
    browser: Any, server: PageServer
) -> None:
    """Each state message drew the board anew, a watcher's connection coming and going
    too: the focused card was a new element, which a screen reader read again."""
    import httpx

    from tests.web.test_browser import create_from_lobby

    page = opened(browser, "phone", "ko")
    states: list[str] = []
    page.on("websocket", lambda socket: socket.on(
        "framereceived", lambda frame: states.append(str(frame))
        if '"type":"state"' in str(frame).replace(" ", "") else None))
    room = create_from_lobby(page, server, "pacal", {}, ["me", "open"], name="Ada")
    host = page.evaluate(f"localStorage.getItem('pyramids:host:{room}')")
    with httpx.Client(base_url=server.base, timeout=15) as http:  # a friend who waits
        assert http.post(f"/api/rooms/{room}/seats", json={"name": "Bo"}).status_code == 201
        assert http.post(f"/api/rooms/{room}/start", json={"token": host}).status_code == 200
    page.wait_for_selector("#game:not([hidden]) svg.board [data-nav]")
    page.focus('#game [data-nav][tabindex="0"]')
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.evaluate("""() => { window.redrawn = 0;
        new MutationObserver(() => { window.redrawn += 1; })
            .observe(document.getElementById('game'), { childList: true }); }""")
    seen = len(states)
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.base}/play/{room}")
    watcher.wait_for_selector("#game:not([hidden]) svg.board")
    watcher.context.close()
    deadline = time.monotonic() + 10
    while len(states) < seen + 2:
        assert time.monotonic() < deadline, "no state message came after the visit"
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)
    assert page.evaluate("window.redrawn") == 0
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == focused
    assert not page.errors, page.errors
    page.context.close()
