"""The browser pages in a real Chromium: lobby, Pacal, Temple and Mahjongg played by clicks.

Runs the real server (uvicorn in a thread, a temporary SQLite file) with the pages
mounted, and drives Debian's Chromium through Playwright. Skipped when
/usr/bin/chromium is missing (CI installs it: `apt-get install chromium`).
With PYRAMIDS_SCREENSHOTS=1 the screenshots docs/screenshots/web-*.png are refreshed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]

playwright_sync = pytest.importorskip(
    "playwright.sync_api", reason="needs the playwright package (pip install playwright)"
)
uvicorn = pytest.importorskip("uvicorn", reason="needs the web extra (pip install '.[web]')")

from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.limits import ServerLimits  # noqa: E402
from pyramids.web.pages import mount_pages  # noqa: E402
from pyramids.web.ws import MAX_MESSAGE_BYTES  # noqa: E402
from tests.web.conftest import UvicornThread  # noqa: E402

# A Mahjongg layout of ten tiles, so that a whole game is a few clicks.
SMALL_LAYOUT = """\
pyramids-layout 1
name: browser-test
layer 0
o.o.o.o.
........
o.V.o.o.
layer 1
.C...o
"""


class PageServer(UvicornThread):
    """The app with its pages, under uvicorn in a thread on a free loopback port."""

    def __init__(self, db_url: str) -> None:
        app = mount_pages(create_app(db_url, allow_file_options=True,
                                     limits=ServerLimits.relaxed()))
        super().__init__(app, wait=15, ws_max_size=MAX_MESSAGE_BYTES * 16)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageServer]:
    folder = tmp_path_factory.mktemp("browser")
    running = PageServer(f"sqlite:///{folder / 'rooms.db'}")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


@contextlib.contextmanager
def opened_page(browser: Any, base: str | None = None, lang: str | None = None,
                locale: str | None = None) -> Iterator[Any]:
    """A fresh page of its own browser context: `lang` chosen on the site at `base`
    (its cookie), `locale` the browser's own language. It may raise no JavaScript
    error."""
    options: dict[str, Any] = {"viewport": {"width": 1200, "height": 860}}
    if locale is not None:
        options["locale"] = locale
    context = browser.new_context(**options)
    if lang is not None:
        context.add_cookies([{"name": "pyramids_lang", "value": lang, "url": base}])
    opened = context.new_page()
    opened.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


def open_practice_deal(page: Any, base: str, number: str) -> None:
    """From the lobby, a one-player Mahjongg practice deal by its game number, typed
    and sent with Enter, as a keyboard player does; returns once its page is open."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#name", "Ada")
    page.select_option("#game", "mahjongg")
    page.wait_for_selector("body[data-options='mahjongg']")
    page.focus("#game-number")
    page.keyboard.type(number)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with opened_page(browser) as opened:
        yield opened


# A phone: a touch screen without a mouse, as the page's `(hover: none) and (pointer:
# coarse)` styles see it (the keys line is hidden there).
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def screenshot(page: Any, name: str) -> None:
    """Refresh docs/screenshots/web-NAME.png when PYRAMIDS_SCREENSHOTS is set (else draw only).

    A phone's page is drawn with the viewport stretched to the page's height, not as a
    full-page capture: Chromium's full-page capture draws the page without the phone's
    touch emulation, so the phone's picture showed the keys line that a phone hides.
    """
    phone = page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    if phone:
        size = page.viewport_size
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
        image = page.screenshot()
        page.set_viewport_size(size)
    else:
        image = page.screenshot(full_page=True)
    assert image[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("PYRAMIDS_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / f"web-{name}.png").write_bytes(image)


# -- driving the pages ---------------------------------------------------------------


def create_from_lobby(
    page: Any, server: PageServer, game: str, options: dict[str, Any], seats: list[str],
    name: str = "Ada",
) -> str:
    """Fill the lobby form and create the room; returns the room id from the new address."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#name", name)
    page.select_option("#game", game)
    page.wait_for_selector(f"body[data-options='{game}']")
    if page.locator("#options details").count():
        page.click("#options details summary")
    for option, value in options.items():
        field = page.locator(f"#option-{option}")
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(str(value))
        elif field.get_attribute("type") == "hidden":  # a picture chooser's value
            field.evaluate("(node, value) => { node.value = value; }", str(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")
    for index, seat in enumerate(seats):
        page.select_option(f"#seats select[data-seat='{index}']", seat)
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    return str(page.url.rsplit("/", 1)[1])


def move_number(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.moveNumber || '-1'"))


def legal_actions(page: Any) -> list[str]:
    text = page.evaluate("document.getElementById('game').dataset.legal || '[]'")
    actions: list[str] = json.loads(text)
    return actions


def wait_turn_or_end(page: Any, after: int) -> None:
    """Wait until it is this page's turn at a move after `after`, or the game is over."""
    page.wait_for_function(
        """(after) => {
            const body = document.body.dataset;
            return body.status === 'finished'
                || (body.yourTurn === 'true' && Number(body.moveNumber) > after);
        }""",
        arg=after,
    )


def finished(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.status === 'finished'"))


def play_mahjongg_to_the_end(page: Any) -> None:
    """Play this page's seat of a Mahjongg game until it is over, as a person does: the
    first pair offered, by clicking its two tiles, else a pass."""
    wait_turn_or_end(page, -1)
    while not finished(page):
        before = move_number(page)
        matches = [action for action in legal_actions(page) if action.startswith("match ")]
        if matches:
            _, first, second = matches[0].split()
            page.click(f".tile[data-id='{first}']")
            page.click(f".tile[data-id='{second}']")
        else:
            page.click("[data-action='pass']")
        wait_turn_or_end(page, before)


def pacal_move(page: Any) -> None:
    """Make one legal move by clicking what the page offers."""
    legal = legal_actions(page)
    assert legal, "the page shows no legal action on our turn"
    offers = [action for action in legal if action.startswith("offer ")]
    if offers:
        _, low, high = offers[len(offers) // 2].split()
        page.click(f".hand [data-card='{low}']")
        page.click(f".hand [data-card='{high}']")
        page.click("#offer-button")
        return
    picks = [action for action in legal if action.startswith("pick ")]
    if picks:
        page.click(f"[data-action='{picks[0]}']")
        return
    places = [action for action in legal if action.startswith("place ")]
    if places:
        lit = page.locator(".field.legal")
        assert lit.count() == len(places), "every legal field is lit, and only those"
        card = int(page.get_attribute(".to-place", "data-card") or "0")
        # Values fall from F1 to F10: put the card where its value fits best.
        best = min(places, key=lambda action: abs(card - (52.5 - 5 * int(action[7:]))))
        page.click(f".field.legal[data-action='{best}']")
        return
    assert legal == ["decline"] or "decline" in legal
    page.click("[data-action='decline']")


def play_pacal_until(page: Any, stop_after_moves: int | None = None) -> None:
    while not finished(page):
        before = move_number(page)
        if stop_after_moves is not None and before >= stop_after_moves:
            return
        pacal_move(page)
        wait_turn_or_end(page, before)


# -- the tests ---------------------------------------------------------------------------


def test_lobby_lists_the_games_and_an_open_room(page: Any, server: PageServer) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    games = page.eval_on_selector_all("#game option", "nodes => nodes.map(n => n.value)")
    assert {"pacal", "temple", "mahjongg"} <= set(games)
    # Options read as words, not as the engine's names ("rounds_to_win", "time-attack").
    page.select_option("#game", "pacal")
    page.wait_for_selector("body[data-options='pacal']")
    texts = "nodes => nodes.map(n => n.textContent)"
    names = page.eval_on_selector_all("#options .option-name", texts)
    assert "Rounds to win" in names and not any("_" in name for name in names)
    shown = page.eval_on_selector_all("#option-direction option", texts)
    assert shown == ["Descending", "Ascending (Jaguar)"]
    room = create_from_lobby(page, server, "pacal", {}, ["me", "open"], name="Host")
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.input_value("#share-link").endswith(f"/play/{room}")
    start = page.locator("#start")
    assert start.get_attribute("aria-disabled") == "true", "a room with an open seat cannot start"
    screenshot(page, "waiting")
    page.goto(server.base + "/")
    page.wait_for_selector(f"#open-rooms [data-room='{room}']")
    screenshot(page, "lobby")
    # Back in the room, the host gives the open seat to a bot and starts.
    page.click(f"#open-rooms [data-room='{room}'] a.button")
    page.wait_for_selector("#waiting:not([hidden])")
    page.click("#waiting button:has-text('Give to a bot')")
    page.wait_for_selector("#start:not([aria-disabled])")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    assert page.evaluate("document.body.dataset.status") == "playing"
    # The lobby's default: a seat away on its turn is played by a Medium bot after
    # 5 minutes, so a player who leaves for good does not hold the game up for ever.
    made = httpx.get(f"{server.base}/api/rooms/{room}").json()["room"]
    assert (made["bot_takeover_seconds"], made["takeover_agent"]) == (300, "medium")
    # And the host can end a game in play (a confirmation first).
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#end-game")
    page.wait_for_function("() => document.body.dataset.status === 'aborted'")
    assert httpx.get(f"{server.base}/api/rooms/{room}").json()["room"]["status"] == "aborted"


def test_pacal_solo_is_played_to_the_end_by_clicking_lit_fields(
    page: Any, server: PageServer
) -> None:
    failed: list[str] = []  # a room that is not a solitaire game asked /api/solitaire: 404
    page.on("response", lambda answer: failed.append(answer.url) if answer.status >= 400
            else None)
    create_from_lobby(page, server, "pacal-solo", {}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    while not finished(page):
        before = move_number(page)
        lit = page.locator(".field.legal")
        assert lit.count() == len(legal_actions(page)) > 0
        card = int(page.get_attribute(".to-place", "data-card") or "0")
        places = legal_actions(page)
        best = min(places, key=lambda action: abs(card - (52.5 - 5 * int(action[7:]))))
        page.click(f".field.legal[data-action='{best}']")
        wait_turn_or_end(page, before)
    page.wait_for_selector("#over:not([hidden])")
    outcome = page.inner_text("#over")
    assert "Pyramid complete" in outcome or "no legal field" in outcome
    # Each seat's end in words, not the engine's returns ("Returns: Ada +1").
    said = page.inner_text("#outcomes")
    assert said in ("Result: Ada: won", "Result: Ada: lost") and "+" not in said
    assert failed == [], f"requests failed: {failed}"


def test_a_person_plays_a_whole_pacal_match_against_a_bot(
    page: Any, server: PageServer
) -> None:
    create_from_lobby(page, server, "pacal", {"rounds_to_win": 1, "max_rounds": 2},
                      ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    assert page.locator("#chat").is_visible()  # two seats: the chat is there
    wait_turn_or_end(page, -1)
    # A pick shows the offer; take the screenshot when our own pyramid has cards.
    play_pacal_until(page, stop_after_moves=12)
    screenshot(page, "pacal")
    play_pacal_until(page)
    page.wait_for_selector("#over:not([hidden])")
    outcome = page.inner_text("#over")
    # The bot's win in the third person, the reader's own in the second.
    assert re.search(r"Greedy rule \(bot\) wins the match \d–\d\.|You win the match \d–\d\."
                     r"|The match is drawn\.", outcome), outcome
    assert "(you)" not in outcome.split(".")[0]
    # The result comes before the board (on a phone it was below the whole board), and
    # keys that can no longer be pressed are not offered.
    over, board = page.locator("#over").bounding_box(), page.locator("#game").bounding_box()
    assert over is not None and board is not None and over["y"] < board["y"]
    assert page.locator("#game #shortcuts").count() == 0
    old_room = page.url.rsplit("/", 1)[1]
    page.click("#rematch")
    page.wait_for_url(lambda url: not url.endswith(f"/play/{old_room}"))
    page.wait_for_selector("#game:not([hidden]) svg.board")
    new_room = page.url.rsplit("/", 1)[1]
    # Everyone one seat on: the person, seat 1 before, is seat 2; the bot seat 1.
    assert page.evaluate("document.body.dataset.seat") == "1"
    room = page.evaluate(f"fetch('/api/rooms/{new_room}').then(r => r.json())")["room"]
    assert [seat["kind"] for seat in room["seats"]] == ["agent", "person"], room["seats"]
    # The old room points its players to the rematch: they ask with their seat token;
    # the address alone tells a stranger nothing.
    notice = page.evaluate(
        """(room) => {
             const seat = JSON.parse(localStorage.getItem(`pyramids:seat:${room}`));
             return fetch(`/api/pages/rematch/${room}/find`, {
               method: "POST", headers: {"Content-Type": "application/json"},
               body: JSON.stringify({token: seat.token}),
             }).then(r => r.json());
           }""", old_room)
    assert notice == {"room": new_room}
    stranger = httpx.get(f"{server.base}/api/pages/rematch/{old_room}")
    assert stranger.status_code == 405 and new_room not in stranger.text


def temple_move(page: Any, swapped: list[bool]) -> None:
    legal = legal_actions(page)
    assert legal, "the page shows no legal action on our turn"
    swaps = [action for action in legal if action.startswith("swap ") and action != "swap pass"]
    if swaps and not swapped[0]:
        # Once per player, a real swap by clicks: a kind in the hand, then a slot.
        _, kind, slot = swaps[0].split()
        page.click(f".hand [data-kind='{kind}']")
        page.click(f".swap-zone [data-action='swap {kind} {slot}']")
        swapped[0] = True
        return
    if "swap pass" in legal:
        page.click("[data-action='swap pass']")
        return
    if "summon" in legal:
        page.click("[data-action='summon']")
        return
    sets = [action for action in legal if action.startswith("set ")]
    if sets:
        best = max(sets, key=lambda action: sum(int(n) for n in action.split()[1:]))
        page.click(f"[data-action='{best}']")
        return
    page.click(f"[data-action='{legal[0]}']")


def test_bots_of_one_level_at_one_table_are_told_apart(page: Any, server: PageServer) -> None:
    """Two "Medium (bot)" read alike everywhere. Each carries its seat where another has
    the same name ("Medium (bot, seat 3)", in the move log too), and every chip its number."""
    create_from_lobby(page, server, "temple", {"players": 3},
                      ["me", "bot:medium", "bot:medium"], name="Ada")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    page.wait_for_selector("table.players")
    names = page.eval_on_selector_all("table.players tr[data-seat] td:first-child",
                                      "nodes => nodes.map(n => n.textContent)")
    assert [name.lstrip("▶ ") for name in names] == [
        "Ada (you)", "Medium (bot, seat 2)", "Medium (bot, seat 3)"]
    chips = page.inner_text("#status")
    assert "Seat 2: Medium (bot)" in chips and "Seat 3: Medium (bot)" in chips


def test_two_people_play_temple_with_bots_and_a_spectator_sees_no_hand(
    browser: Any, page: Any, server: PageServer
) -> None:
    room = create_from_lobby(page, server, "temple", {"players": 4, "max_rounds": 2},
                             ["me", "open", "bot:greedy", "bot:random"], name="Ada")
    page.wait_for_selector("#waiting:not([hidden])")
    friend_context = browser.new_context(**PHONE)
    friend = friend_context.new_page()
    friend.set_default_timeout(TIMEOUT_MS)
    friend_errors: list[str] = []
    friend.on("pageerror", lambda error: friend_errors.append(str(error)))
    friend.goto(f"{server.base}/play/{room}")
    friend.wait_for_selector("[data-take-seat='1']")
    friend.fill("#seat-name", "Bea")
    friend.click("[data-take-seat='1']")
    friend.wait_for_selector("body[data-seat='1']")
    page.wait_for_selector("#start:not([aria-disabled])")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    friend.wait_for_selector("#game:not([hidden]) svg.board")

    watcher_context = browser.new_context()
    watcher = watcher_context.new_page()
    watcher.set_default_timeout(TIMEOUT_MS)
    # Whether the spectator's page ever asks where the rematch is (it holds no token).
    asked: list[str] = []
    watcher.on("request", lambda request: asked.append(request.url)
               if "/api/pages/rematch/" in request.url else None)
    watcher.goto(f"{server.base}/play/{room}")
    watcher.wait_for_selector("body[data-seat='spectator'] #game:not([hidden]) svg.board")
    assert watcher.locator("#game .hand").count() == 0
    assert "hidden from spectators" in watcher.inner_text("#game")
    assert watcher.locator("[data-action]").count() == 0, "a spectator is offered no move"

    swapped = {"ada": [False], "bea": [False]}
    moves = 0
    shot = False
    deadline = time.monotonic() + 120
    while not (finished(page) and finished(friend)):
        assert time.monotonic() < deadline, "the Temple game did not end"
        moved = False
        for who, player in (("ada", page), ("bea", friend)):
            if finished(player) or player.evaluate("document.body.dataset.yourTurn") != "true":
                continue
            before = move_number(player)
            temple_move(player, swapped[who])
            player.wait_for_function(
                "(n) => Number(document.body.dataset.moveNumber) > n", arg=before
            )
            moves += 1
            moved = True
            if moves == 6 and not shot:
                screenshot(page, "temple")
                screenshot(friend, "temple-phone")
                shot = True
        if not moved:
            page.wait_for_timeout(50)
    assert moves >= 4 and swapped["ada"][0] and swapped["bea"][0]
    for player in (page, friend, watcher):
        player.wait_for_selector("#over:not([hidden])")
        assert "Scores (treasure + jewels)" in player.inner_text("#over")
    # A rematch keeps the bots and leaves the friend's seat open, everyone one seat on
    # (Ada 1 -> 2, Bea 2 -> 3, the bots 3 -> 4 and 4 -> 1); the friend's page shows where
    # it is.
    page.click("#rematch")
    page.wait_for_url(lambda url: not url.endswith(f"/play/{room}"))
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.evaluate("document.body.dataset.seat") == "1"
    friend.click("#rematch-link")
    friend.wait_for_url(page.url)
    friend.wait_for_selector("[data-take-seat='2']")
    assert friend.locator("[data-take-seat]").count() == 1
    # The spectator held no seat: the rematch, where a seat is open, is not shown to him.
    # His page never asks (its first ask is made as the end is shown, long before the
    # friend's page found the rematch), so no fixed wait is needed to see that.
    assert not asked, asked
    assert watcher.locator("#rematch-link").count() == 0
    assert watcher.locator("#rematch").count() == 0
    friend_context.close()
    watcher_context.close()
    assert not friend_errors, friend_errors


def tile_ids(page: Any, selector: str) -> list[int]:
    ids: list[int] = page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => Number(n.dataset.id))"
    )
    return ids


def test_a_mahjongg_solo_game_is_cleared_by_clicks_with_hint_and_undo(
    page: Any, server: PageServer, tmp_path: Path
) -> None:
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    create_from_lobby(page, server, "mahjongg", {"layout": str(layout)}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    total = page.locator(".tile").count()
    assert total == 10
    # A one-player game has nobody to chat with: no chat, no muting spectators.
    assert page.locator("#chat").is_hidden() and page.locator("#move-log").is_visible()
    # An Undo that is off says why (it said nothing); its key says so too.
    assert page.get_attribute("[data-action='undo']", "data-off-reason") == (
        "there is nothing to undo")
    assert page.get_attribute("[data-action='undo']", "aria-description") == (
        "there is nothing to undo")
    page.focus(".tile[data-nav][tabindex='0']")
    page.keyboard.press("u")
    page.wait_for_selector("#message:not([hidden])")
    assert "there is nothing to undo" in page.inner_text("#message")
    undone = False
    while not finished(page):
        before = move_number(page)
        if len(tile_ids(page, ".tile.hinted")) < 2:
            page.click("[data-action='hint']")
            page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                   arg=before)
            before = move_number(page)
        first, second = tile_ids(page, ".tile.hinted")
        page.click(f".tile[data-id='{first}']")
        assert tile_ids(page, ".tile.selected") == [first]
        page.click(f".tile[data-id='{second}']")
        page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
        if not undone and not finished(page):
            assert page.locator(".tile").count() == total - 2
            before = move_number(page)
            page.click("[data-action='undo']")
            page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                   arg=before)
            assert page.locator(".tile").count() == total, "undo puts the pair back"
            undone = True
    page.wait_for_selector("#over:not([hidden])")
    assert "The monument is cleared!" in page.inner_text("#over")
    assert undone


def mismatched_free_pair(page: Any) -> tuple[int, int] | None:
    free: list[dict[str, Any]] = page.eval_on_selector_all(
        ".tile[data-free='true']",
        "nodes => nodes.map(n => ({id: Number(n.dataset.id), face: n.dataset.face}))",
    )
    suits = [tile for tile in free if tile["face"][:-2] in ("Scarab", "Papyrus", "Glyph")]
    for index, first in enumerate(suits):
        for second in suits[index + 1:]:
            if first["face"] != second["face"]:
                return first["id"], second["id"]
    return None


def test_time_attack_shows_a_clock_refuses_a_mismatch_and_ends_at_time_up(
    page: Any, server: PageServer
) -> None:
    create_from_lobby(page, server, "mahjongg",
                      {"mode": "time-attack", "time_limit_seconds": 6}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    assert re.search(r"0:0[0-6] left", page.inner_text("#timer"))
    screenshot(page, "mahjongg")
    pair = mismatched_free_pair(page)
    assert pair is not None, "the Great Zenith starts with two free suit tiles that differ"
    page.click(f".tile[data-id='{pair[0]}']")
    page.click(f".tile[data-id='{pair[1]}']")
    page.wait_for_selector("#message.error:not([hidden])")
    refusal = page.inner_text("#message")
    # Told by the tiles' faces, never by their numbers ("the move 'match 103 104' ...").
    assert refusal.endswith("do not match") and f"{min(pair)} {max(pair)}" not in refusal
    # Nobody moves: the server, which keeps the time, ends the game at time up.
    page.wait_for_selector("#over:not([hidden])", timeout=15_000)
    assert "Time is up." in page.inner_text("#over")
    assert "Time score" in page.inner_text("#over")


def test_reload_and_a_lost_connection_resume_the_game_and_the_keyboard_plays(
    page: Any, server: PageServer
) -> None:
    room = create_from_lobby(page, server, "pacal", {}, ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    play_pacal_until(page, stop_after_moves=5)
    before = move_number(page)
    hand = page.eval_on_selector_all(".hand [data-card]", "nodes => nodes.map(n => n.dataset.card)")

    page.reload()
    page.wait_for_selector("#game:not([hidden]) svg.board")
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) === n", arg=before)
    assert page.evaluate("document.body.dataset.seat") == "0", "the reload kept the seat"
    assert page.eval_on_selector_all(
        ".hand [data-card]", "nodes => nodes.map(n => n.dataset.card)"
    ) == hand
    assert "(you)" in page.inner_text("#status")
    assert page.url.endswith(f"/play/{room}")

    page.evaluate("window.pyramidsPage.dropConnection()")
    page.wait_for_selector("body[data-connection='bad']")
    page.wait_for_selector("body[data-connection='ok']", timeout=10_000)
    assert page.evaluate("document.body.dataset.seat") == "0"

    # The keyboard alone: Tab/arrows reach the lit elements, Enter or Space activates.
    wait_turn_or_end(page, before - 1)
    for _ in range(6):
        if finished(page):
            break
        current = move_number(page)
        legal = legal_actions(page)
        if any(action.startswith("offer ") for action in legal):
            _, low, high = next(a for a in legal if a.startswith("offer ")).split()
            page.focus(f".hand [data-card='{low}']")
            page.keyboard.press("Enter")
            page.focus(f".hand [data-card='{high}']")
            page.keyboard.press("Space")
            page.focus("#offer-button")
            page.keyboard.press("Enter")
        elif any(action.startswith("pick ") for action in legal):
            page.focus("[data-action^='pick ']")
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.action || ''").startswith(
                "pick "
            ), "the right arrow moves to the other offered card"
            page.keyboard.press("Enter")
        else:
            page.focus(".field.legal, [data-action='decline']")
            page.keyboard.press("Enter")
        wait_turn_or_end(page, current)


def test_a_phone_sized_pacal_page_fits_the_screen(browser: Any, server: PageServer) -> None:
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    create_from_lobby(phone, server, "pacal", {}, ["me", "bot:greedy"])
    phone.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(phone, -1)
    play_pacal_until(phone, stop_after_moves=8)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px wide)"
    board = phone.locator("svg.board").bounding_box()
    assert board is not None and board["width"] <= 390
    # A touch phone has no keys to press: the keys line is not shown there.
    assert phone.locator("#shortcuts").count() == 1 and not phone.is_visible("#shortcuts")
    screenshot(phone, "pacal-phone")
    context.close()


def test_the_lobby_and_a_temple_room_fit_a_small_phone(browser: Any, server: PageServer) -> None:
    """At 375 px the lobby's seat menus ("A friend (open seat, share the link)") pushed
    the page 411 px wide, and Temple's players table 393 px."""
    context = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True,
                                  has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    phone.goto(server.base + "/")
    phone.wait_for_selector("body[data-ready=true]")
    for game in ("pacal", "temple", "mahjongg"):
        phone.select_option("#game", game)
        phone.wait_for_selector(f"body[data-options='{game}']")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the lobby for {game} is {width}px wide on a 375px phone"
    create_from_lobby(phone, server, "temple", {"players": 4},
                      ["me", "bot:greedy", "bot:greedy", "bot:greedy"])
    phone.wait_for_selector("#game:not([hidden]) table.players")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the Temple room is {width}px wide on a 375px phone"
    context.close()


@pytest.mark.parametrize("mode", ["standard", "coop"])
def test_mahjongg_with_a_bot_is_played_to_the_end(
    page: Any, server: PageServer, tmp_path: Path, mode: str
) -> None:
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    create_from_lobby(page, server, "mahjongg",
                      {"layout": str(layout), "mode": mode, "players": 2}, ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    # Moves the mode never allows have no button (they stood greyed out all game): no
    # hint or undo with two players, finish only in co-op.
    assert page.locator("[data-action='sight']").count() == 1
    assert page.locator("[data-action='undo']").count() == 0, "no undo with two players"
    assert page.locator("[data-action='hint']").count() == 0, "no hint with two players"
    assert page.locator("[data-action='finish']").count() == (1 if mode == "coop" else 0)
    keys = page.inner_text("#shortcuts")
    assert "Undo" not in keys and "Hint" not in keys
    play_mahjongg_to_the_end(page)
    page.wait_for_selector("#over:not([hidden])")
    outcome = page.inner_text("#over")
    assert ("The team" in outcome) if mode == "coop" else ("Winner" in outcome)


def test_a_reloaded_mahjongg_page_names_the_last_pair(
    page: Any, server: PageServer, tmp_path: Path
) -> None:
    """After a reload the page has not seen the last pair's tiles: it names them from the
    view, not as "two face-down tile tiles"."""
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    create_from_lobby(page, server, "mahjongg",
                      {"layout": str(layout), "players": 2}, ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    before = move_number(page)
    _, first, second = next(action for action in legal_actions(page)
                             if action.startswith("match ")).split()
    page.click(f".tile[data-id='{first}']")
    page.click(f".tile[data-id='{second}']")
    wait_turn_or_end(page, before)
    page.wait_for_selector("#last-move:not(:empty)")
    said = page.inner_text("#last-move")
    page.reload()
    page.wait_for_selector("#game:not([hidden]) svg.board")
    page.wait_for_function("() => document.getElementById('last-move').textContent.trim()")
    again = page.inner_text("#last-move")
    assert "face-down" not in again and "matches" in again, again
    assert again == said


def with_seed(page: Any, seed: int) -> None:
    """Make the lobby's next room use `seed`, so that the test can follow the game itself."""

    def add_seed(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        body["seed"] = seed
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/rooms", add_seed)


# Tile 0 lies half under the capstone: a player clicks the part of a tile that
# shows, its left edge (tiles higher up are drawn up and to the left).
VISIBLE_EDGE = {"x": 6, "y": 30}


def click_and_wait(page: Any, selector: str, **click: Any) -> None:
    before = move_number(page)
    page.click(selector, **click)
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)


def test_the_favor_and_finish_buttons_do_what_the_engine_does(
    page: Any, server: PageServer, tmp_path: Path
) -> None:
    """Sandstorm Reshuffle, Ra Sight, Anubis Shift and Finish, clicked, against the engine.

    The deal (seed 0 on the small layout, faces at random) starts with no valid
    pair; the same game is played beside the page on the engine, and the page
    must offer and show what the engine says after every click.
    """
    from pyramids.core.registry import load

    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    options = {"layout": str(layout), "deal": "random", "start_tokens": 5}
    shadow = load("mahjongg", **options).new_initial_state(0)
    with_seed(page, 0)
    create_from_lobby(page, server, "mahjongg", options, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")

    def page_faces() -> dict[int, str]:
        tiles: list[dict[str, Any]] = page.eval_on_selector_all(
            ".tile", "nodes => nodes.map(n => ({id: Number(n.dataset.id), face: n.dataset.face}))"
        )
        return {tile["id"]: tile["face"] for tile in tiles}

    def engine_faces() -> dict[int, str]:
        return {tile["id"]: tile["face"] for tile in shadow.view(0)["tiles"]}

    def same_as_engine() -> None:
        assert sorted(legal_actions(page)) == sorted(shadow.legal_action_strings())
        assert page_faces() == engine_faces()

    same_as_engine()
    legal = shadow.legal_action_strings()
    assert "reshuffle" in legal and not any(action.startswith("match ") for action in legal)
    assert page.locator("[data-action='reshuffle']").is_enabled()
    assert page.locator("[data-action='finish']").is_disabled()

    faces_before = page_faces()
    click_and_wait(page, "[data-action='reshuffle']")
    shadow.apply_string("reshuffle")
    same_as_engine()
    assert sorted(page_faces().values()) == sorted(faces_before.values()), "same faces, moved"
    assert "tokens 2" in page.inner_text("#score-panel, .mahjongg-panel")

    assert not tile_ids(page, ".tile.hinted")
    click_and_wait(page, "[data-action='sight']")
    shadow.apply_string("sight")
    same_as_engine()
    sighted = {tile for pair in shadow.view(0)["sight_pairs"] for tile in pair}
    assert sighted and set(tile_ids(page, ".tile.hinted")) == sighted

    lifted = 0
    assert f"shift {lifted}" in shadow.legal_action_strings()
    assert page.get_attribute(f".tile[data-id='{lifted}']", "data-free") == "false"
    page.click("[data-key='button-shift']")
    assert page.get_attribute("[data-key='button-shift']", "aria-pressed") == "true"
    click_and_wait(page, f".tile[data-id='{lifted}']", position=VISIBLE_EDGE)
    shadow.apply_string(f"shift {lifted}")
    same_as_engine()
    assert page.get_attribute(f".tile[data-id='{lifted}']", "data-free") == "true"
    assert "lifted by Anubis Shift" in page.text_content(f".tile[data-id='{lifted}'] title")

    # The lifted tile is matched at once; then pairs until every tile left is free.
    while "finish" not in shadow.legal_action_strings():
        matches = [action for action in shadow.legal_action_strings()
                   if action.startswith("match ")]
        assert matches, "seed 0 clears to a finish"
        choice = next((action for action in matches if str(lifted) in action.split()[1:]),
                      matches[0])
        _, first, second = choice.split()
        page.click(f".tile[data-id='{first}']", position=VISIBLE_EDGE)
        click_and_wait(page, f".tile[data-id='{second}']", position=VISIBLE_EDGE)
        shadow.apply_string(choice)
        same_as_engine()
    assert page.locator("[data-action='finish']").is_enabled()
    click_and_wait(page, "[data-action='finish']")
    shadow.apply_string("finish")
    assert shadow.is_terminal()
    page.wait_for_selector("#over:not([hidden])")
    assert "The monument is cleared!" in page.inner_text("#over")
    assert page.locator(".tile").count() == 0


def test_bots_are_offered_by_level_first_and_named_in_the_readers_language(
    page: Any, server: PageServer
) -> None:
    from pyramids.agents.levels import LEVEL_DESCRIPTIONS
    from pyramids.play.i18n import _

    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("nav.language-switch a[hreflang=ko]")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", "pacal")
    page.wait_for_selector("body[data-options='pacal']")
    options = page.eval_on_selector_all(
        "#seats select[data-seat='1'] option", "nodes => nodes.map(n => [n.value, n.textContent])")
    bots = [(value, text) for value, text in options if value.startswith("bot:")]
    assert [value for value, _text in bots[:4]] == ["bot:easy", "bot:medium", "bot:hard",
                                                     "bot:expert"]
    labels = dict(bots)
    assert labels["bot:hard"] == _("Bot: {agent}", lang="ko").format(agent=_("Hard", lang="ko"))
    assert labels["bot:greedy"] == _("Bot: {agent}", lang="ko").format(
        agent=_("Greedy rule", lang="ko"))
    # Every built-in bot reads as words (an agent a plugin adds, like the tests' own
    # "slow", keeps the name its author gave it).
    built_in = {"random", "greedy", "mcts", "planner", "determinized", "openspiel-mcts",
                "openspiel-ismcts"}
    raw = [text for value, text in bots if value[4:] in built_in and text.endswith(value[4:])]
    assert not raw, raw
    # In the room the bot's seat reads as its level, in Korean, not as "hard (bot)".
    # Choosing a level says what it is like to play against, in Korean.
    def hints() -> list[str]:
        return page.eval_on_selector_all("#level-hints p", "nodes => nodes.map(n => n.textContent)")

    def hint(level: str, word: str) -> str:
        return _("{level}: {description}", lang="ko").format(
            level=_(word, lang="ko"), description=_(LEVEL_DESCRIPTIONS[level], lang="ko"))

    page.select_option("#seats select[data-seat='1']", "bot:expert")
    assert hints() == [hint("expert", "Expert")]
    assert page.get_attribute("#seats select[data-seat='1']", "aria-describedby") == "level-hints"
    page.fill("#name", "Ada")
    page.select_option("#seats select[data-seat='1']", "bot:hard")
    assert hints() == [hint("hard", "Hard")]
    page.select_option("#seats select[data-seat='1']", "bot:greedy")
    assert hints() == []
    page.select_option("#seats select[data-seat='1']", "bot:hard")
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#status li[data-seat='1']")
    chip = page.text_content("#status li[data-seat='1']") or ""
    assert _("{bot} (bot)", lang="ko").format(bot=_("Hard", lang="ko")) in chip
    assert "hard (bot)" not in chip


def test_level_hints_say_what_a_level_is_like_in_the_chosen_game(
    page: Any, server: PageServer
) -> None:
    """Mahjongg's medium slips now and then, and its hint says so; Pacal's medium
    plays the rules of thumb without slips."""
    from pyramids.agents.levels import LEVEL_DESCRIPTIONS

    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", "mahjongg")
    page.wait_for_selector("body[data-options='mahjongg']")
    if page.locator("#options details").count():
        page.click("#options details summary")
    page.fill("#option-players", "2")
    page.dispatch_event("#option-players", "change")
    page.wait_for_selector("#seats select[data-seat='1']")
    page.select_option("#seats select[data-seat='1']", "bot:medium")
    hints = page.eval_on_selector_all("#level-hints p", "nodes => nodes.map(n => n.textContent)")
    assert hints == ["Medium: Plays the rules of thumb, one move at a time, and slips now and "
                     "then."]
    page.select_option("#game", "pacal")
    page.wait_for_selector("body[data-options='pacal']")
    page.select_option("#seats select[data-seat='1']", "bot:medium")
    hints = page.eval_on_selector_all("#level-hints p", "nodes => nodes.map(n => n.textContent)")
    assert hints == [f"Medium: {LEVEL_DESCRIPTIONS['medium']}"]


def test_a_room_that_does_not_exist_says_so_and_offers_the_lobby(page: Any,
                                                                 server: PageServer) -> None:
    """It showed the message beside empty Moves and Chat panels with a usable Send box."""
    page.goto(f"{server.base}/play/doesnotexist")
    page.wait_for_selector("#to-lobby")
    assert "There is no room doesnotexist" in page.inner_text("#message")
    assert page.locator("#side").is_hidden() and not page.locator("#chat").is_visible()
    assert page.get_attribute("#to-lobby", "href") == "/"
