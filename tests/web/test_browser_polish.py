"""What a walk through the pages found, second round, in a real Chromium (Debian's): the
waiting room says what it waits for, a finished game shows no buttons it can no longer
press, and the move log names the players as the rest of the page does."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from pathlib import Path
from typing import Any

from pyramids.play.i18n import _
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    SMALL_LAYOUT,
    TIMEOUT_MS,
    PageServer,
    browser,
    create_from_lobby,
    finished,
    move_number,
    pacal_move,
    page,
    pytestmark,
    server,
    wait_turn_or_end,
)


def test_a_full_waiting_room_says_it_waits_for_the_host(
    browser: Any, page: Any, server: PageServer
) -> None:
    """Every seat taken, the heading still said "Waiting for players": the room waits
    for the host, who can start now."""
    room = create_from_lobby(page, server, "pacal", {}, ["me", "open"])
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.inner_text("#waiting h2") == "Waiting for players"
    context = browser.new_context(viewport={"width": 1000, "height": 860})
    friend = context.new_page()
    friend.set_default_timeout(TIMEOUT_MS)
    friend.goto(f"{server.base}/play/{room}")
    friend.wait_for_selector("[data-take-seat='1']")
    friend.fill("#seat-name", "Bea")
    friend.click("[data-take-seat='1']")
    friend.wait_for_selector("body[data-seat='1']")
    friend.wait_for_function(
        "() => document.querySelector('#waiting h2').textContent.includes('host')")
    assert friend.inner_text("#waiting h2") == (
        "Every seat is taken: waiting for the host to start the game.")
    page.wait_for_selector("#start:not([aria-disabled])")
    assert page.inner_text("#waiting h2") == (
        "Every seat is taken: you can start the game now.")
    friend.goto(f"{server.base}/play/{room}?lang=ko")
    friend.wait_for_function("() => document.documentElement.lang === 'ko'")
    friend.wait_for_selector("#waiting h2")
    assert friend.inner_text("#waiting h2") == _(
        "Every seat is taken: waiting for the host to start the game.", lang="ko")
    context.close()


def test_a_finished_mahjongg_game_shows_no_favor_buttons(
    page: Any, server: PageServer, tmp_path: Path
) -> None:
    """After the end the favors (Hint, Undo, Ra Sight, ...) stayed on the board, every
    one of them off; the result stays, the buttons go."""
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    create_from_lobby(page, server, "mahjongg", {"layout": str(layout)}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    assert page.locator("#game [data-action='hint']").is_visible()
    page.focus("[data-action='pass']")
    page.keyboard.press("Enter")  # give up
    page.wait_for_selector("#over:not([hidden])")
    assert page.inner_text("#over").strip()
    page.wait_for_selector("#game:not([hidden]) svg.board")
    assert page.locator("#game button").count() == 0, page.inner_text("#game")
    assert "try a favor" not in page.inner_text("#game")


def test_the_move_log_names_the_bot_as_the_table_does(page: Any, server: PageServer) -> None:
    """The log said "Seat 2 placed ..." where the scores and the turn line said "Greedy
    rule (bot)": it names the bot so, in English and in Korean. At the end of the match
    no buttons are left on the board."""
    room = create_from_lobby(page, server, "pacal", {"rounds_to_win": 1, "max_rounds": 1},
                             ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    while not finished(page) and move_number(page) < 6:
        before = move_number(page)
        pacal_move(page)
        wait_turn_or_end(page, before)
    page.wait_for_function(
        "() => document.querySelectorAll('#move-log-list .log-entry').length >= 4")
    log = page.inner_text("#move-log-list")
    assert "Greedy rule (bot) " in log, log
    assert "Seat 2" not in log and "seat 2" not in log, log

    page.goto(f"{server.base}/play/{room}?lang=ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_function(
        "() => document.querySelectorAll('#move-log-list .log-entry').length >= 4")
    korean = page.inner_text("#move-log-list")
    bot = _("{bot} (bot)", lang="ko").format(bot=_("Greedy rule", lang="ko"))
    assert bot in korean, korean
    assert _("seat {number}", lang="ko").format(number=2) not in korean, korean

    wait_turn_or_end(page, -1)
    while not finished(page):
        before = move_number(page)
        pacal_move(page)
        wait_turn_or_end(page, before)
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#game button").count() == 0, page.inner_text("#game")


def test_an_empty_action_bar_leaves_no_strip_on_a_phone(
    browser: Any, server: PageServer
) -> None:
    """Temple's choices stay at the foot of a phone's screen; with none to make (another
    player's turn, or the game over) the bar stayed there, an empty strip with a rule
    over the board."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    phone.goto(server.base + "/")
    phone.wait_for_selector("body[data-ready=true]")
    phone.evaluate("""() => {
        const bar = document.createElement('div');
        bar.className = 'actions sticky-actions';
        bar.id = 'empty-bar';
        document.querySelector('main').append(bar);
    }""")
    assert not phone.locator("#empty-bar").is_visible()
    phone.evaluate("document.getElementById('empty-bar').append(document.createElement('button'))")
    assert phone.locator("#empty-bar").is_visible()
    context.close()


def test_two_player_mahjongg_keys_of_favors_it_lacks_say_why(
    page: Any, server: PageServer, tmp_path: Path
) -> None:
    """Two-player Standard has no Hint, Undo or Finish (their buttons are left off): the
    H, U and F keys did nothing and said nothing. They say why in the alert line, in the
    engine's words, in English and in Korean."""
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    room = create_from_lobby(page, server, "mahjongg",
                             {"layout": str(layout), "mode": "standard", "players": 2},
                             ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    said = {
        "h": "hints exist only in the one-player modes",
        "u": "undo exists only in the one-player modes",
        "f": "finishing exists only in the one-player modes and co-op",
    }
    for lang in ("en", "ko"):
        if lang == "ko":
            page.goto(f"{server.base}/play/{room}?lang=ko")
            page.wait_for_function("() => document.documentElement.lang === 'ko'")
            page.wait_for_selector("#game:not([hidden]) svg.board")
        before = move_number(page)
        for key, words in said.items():
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            page.keyboard.press(key)
            text = _(words, lang=lang)
            expected = text[0].upper() + text[1:]
            page.wait_for_function(
                "(text) => document.getElementById('message').textContent === text",
                arg=expected)
            assert page.is_visible("#message")
        assert move_number(page) == before, "a key of a missing favor plays nothing"
