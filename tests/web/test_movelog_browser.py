"""The move log, the chat and the replay viewer in a real Chromium (Debian's).

Two browser contexts play Pacal: the log beside the table tells each move in words,
a chat message (markup in it) reaches the other player as text, and the replay
viewer of a finished game steps back and forth by buttons and keys with both hands
shown.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    create_from_lobby,
    move_number,
    pacal_move,
    page,
    pytestmark,
    server,
)

HOSTILE = "<script>window.chatHacked = 1</script><img src=x onerror='window.chatHacked=2'>hi"


def _second_player(context_source: Any, base: PageServer, room: str) -> tuple[Any, Any]:
    context = context_source.new_context(viewport={"width": 1000, "height": 860})
    friend = context.new_page()
    friend.set_default_timeout(TIMEOUT_MS)
    friend.goto(f"{base.base}/play/{room}")
    friend.wait_for_selector("[data-take-seat='1']")
    friend.fill("#seat-name", "Bea")
    friend.click("[data-take-seat='1']")
    friend.wait_for_selector("body[data-seat='1']")
    return context, friend


def test_two_players_read_the_log_and_chat_as_text(
    browser: Any, page: Any, server: PageServer
) -> None:
    room = create_from_lobby(page, server, "pacal", {"rounds_to_win": 1}, ["me", "open"])
    page.wait_for_selector("#waiting:not([hidden])")
    context, friend = _second_player(browser, server, room)
    errors: list[str] = []
    friend.on("pageerror", lambda error: errors.append(str(error)))
    page.wait_for_selector("#start:not([aria-disabled])")
    page.click("#start")
    for player in (page, friend):
        player.wait_for_selector("#game:not([hidden])")
    for _ in range(4):
        mover = page if page.evaluate("document.body.dataset.yourTurn") == "true" else friend
        mover.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
        before = move_number(mover)
        pacal_move(mover)
        mover.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                arg=before)
    for player in (page, friend):
        player.wait_for_function(
            "() => document.querySelectorAll('#move-log-list .log-entry').length >= 4")
    log = page.inner_text("#move-log-list")
    # The other player is named by the name they took, not by a seat number.
    assert "You offered" in log or "Bea offered" in log
    assert "Seat" not in log
    assert "picked" in log and "placed" in log
    assert "offer " not in log.replace("offered", "")  # words, not action strings
    friend_log = friend.inner_text("#move-log-list")
    assert "You" in friend_log and friend_log != log  # each reads its own seat's log

    page.fill("#chat-input", HOSTILE)
    page.click("#chat-form button[type=submit]")
    friend.wait_for_selector("#chat-list .chat-message")
    assert friend.inner_text("#chat-list .chat-text") == HOSTILE
    assert friend.locator("#chat-list script, #chat-list img").count() == 0
    assert friend.evaluate("window.chatHacked === undefined")
    assert "Ada" in friend.inner_text("#chat-list .chat-author")
    friend.fill("#chat-input", "good game")
    friend.press("#chat-input", "Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#chat-list .chat-text')]"
        ".some((node) => node.textContent === 'good game')")
    context.close()
    assert not errors, errors


def _finished_room(running: PageServer) -> str:
    with httpx.Client(base_url=running.base, timeout=15) as http:
        made = http.post("/api/rooms", json={"game": "pacal", "options": {"rounds_to_win": 1,
                                                                            "max_rounds": 1}})
        room, host = made.json()["room"]["id"], made.json()["host_token"]
        for seat in (0, 1):
            http.post(f"/api/rooms/{room}/agents",
                      json={"token": host, "seat": seat, "agent": "random"})
        http.post(f"/api/rooms/{room}/start", json={"token": host})
    # Bots play while someone watches: watch until the end.
    address = running.base.replace("http://", "ws://") + f"/ws/rooms/{room}"
    with connect(address, open_timeout=15, max_size=2**24) as socket:
        socket.send(json.dumps({"type": "join"}))
        deadline = time.monotonic() + 60
        while True:
            message = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message.get("type") == "state" and message["status"] == "finished":
                break
    return str(room)


def test_the_replay_viewer_steps_through_a_finished_game(
    page: Any, server: PageServer
) -> None:
    room = _finished_room(server)
    page.goto(f"{server.base}/replay/{room}")
    page.wait_for_selector("#controls:not([hidden])")
    total = int(page.evaluate(
        "fetch(location.pathname.replace('/replay/', '/api/rooms/') + '/replay')"
        ".then((r) => r.json()).then((data) => data.steps.length - 1)"))
    assert page.inner_text("#step") == f"Move {total} of {total}"
    assert "Fair deal" in page.inner_text("#fairness-check")
    page.keyboard.press("Home")
    assert page.inner_text("#step") == f"Move 0 of {total}"
    assert page.locator(".replay-seat").count() == 2
    # The bots are named as players read them ("Random moves (bot)"), not "random (bot)".
    assert "Seat 1: Random moves (bot)" in page.inner_text(".replay-seat[data-seat='0']")
    # Every hand is shown after the end: both seats' cards, at the deal.
    for seat in (0, 1):
        assert page.locator(f".replay-seat[data-seat='{seat}'] .hand [data-card]").count() > 0
    # The reader sits nowhere: no seat reads "(you)", and no keys are offered to press.
    for seat in (0, 1):
        panel = page.inner_text(f".replay-seat[data-seat='{seat}'] .replay-board")
        assert "(you)" not in panel and "Keys:" not in panel, panel
    page.keyboard.press("End")
    assert "(you)" not in page.inner_text("#seats")
    # Each panel fits its column: nothing spills past the window.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#step") == f"Move 1 of {total}"
    assert "offered" in page.inner_text("#move-lines")
    page.click("#forward")
    page.click("#back")
    page.click("#back")
    assert page.inner_text("#step") == f"Move 0 of {total}"
    assert page.url.endswith("#step=0")
    assert page.get_attribute("#download", "href") == f"/api/rooms/{room}/record"


def test_the_replay_of_a_game_in_play_is_refused(
    page: Any, server: PageServer
) -> None:
    with httpx.Client(base_url=server.base, timeout=15) as http:
        made = http.post("/api/rooms", json={"game": "pacal"})
        room = made.json()["room"]["id"]
    page.goto(f"{server.base}/replay/{room}")
    page.wait_for_selector("#message:not([hidden])")
    assert "not over yet" in page.inner_text("#message")
    assert page.locator(".replay-seat").count() == 0


def test_the_room_page_checks_a_62_bit_seed_to_the_digit(page: Any, server: PageServer) -> None:
    """A seed above 2**53 read as a JavaScript number loses its last digits: the page
    would call a fair deal rigged. It checks (and shows) the seed's exact text."""
    room = _finished_room(server)
    record = httpx.get(f"{server.base}/api/rooms/{room}/record", timeout=15).json()
    seed = record["fairness"]["seed"]
    assert record["fairness"]["seed_text"] == str(seed)
    page.goto(f"{server.base}/play/{room}")
    page.wait_for_function(
        "() => { const box = document.getElementById('fairness-check');"
        " return box && !box.textContent.includes('…'); }")
    said = page.inner_text("#fairness-check")
    assert said.startswith("Fair deal") and str(seed) in said, (seed, said)


def test_the_replay_controls_are_named_in_the_readers_language(
    page: Any, server: PageServer
) -> None:
    """A screen reader announces the controls' landmark by its aria-label: in Korean
    on a Korean page (`data-i18n-aria-label`)."""
    from pyramids.play.i18n import _

    room = _finished_room(server)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("nav.language-switch a[hreflang=ko]")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.goto(f"{server.base}/replay/{room}")
    page.wait_for_selector("#controls:not([hidden])")
    label = page.get_attribute("#controls", "aria-label")
    assert label == _("Replay controls", lang="ko") != "Replay controls"
