"""Two people with accounts play a ranked Pacal match with a turn clock in Chromium.

Each registers on the account page in their own browser context; Ana creates a
ranked room with one minute a move from the lobby, Bo takes the open seat from the
link. They chat; the move log beside the table shows each move. The server's clock
is a fake one the test moves: when Bo lets his minute pass, the bot makes his move
and both pages say so. After the end both ratings moved, each page shows its
player's new rating, and the replay viewer steps through the game with both hands
shown.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    TIMEOUT_MS,
    finished,
    move_number,
    pacal_move,
    playwright_sync,
)

uvicorn = pytest.importorskip("uvicorn", reason="needs the web extra (pip install '.[web]')")

from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.clocks import FakeClock  # noqa: E402
from pyramids.web.limits import ServerLimits  # noqa: E402
from pyramids.web.pages import mount_pages  # noqa: E402
from pyramids.web.ws import MAX_MESSAGE_BYTES  # noqa: E402
from tests.web.conftest import UvicornThread  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's Chromium at /usr/bin/chromium"),
]

PASSWORD = "pyramids of the sun"


class ClockedServer(UvicornThread):
    """The app with its pages and a fake turn clock, under uvicorn in a thread."""

    def __init__(self, db_url: str) -> None:
        self.clock = FakeClock()
        app = mount_pages(create_app(db_url, limits=ServerLimits.relaxed(), clock=self.clock))
        self.app = app
        super().__init__(app, wait=15, ws_max_size=MAX_MESSAGE_BYTES * 16)


@pytest.fixture
def server(tmp_path: Any) -> Iterator[ClockedServer]:
    running = ClockedServer(f"sqlite:///{tmp_path / 'ranked.db'}")
    yield running
    running.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def person(browser: Any, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def register(page: Any, server: ClockedServer, name: str) -> None:
    page.goto(server.base + "/account")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register button[type=submit]")
    page.wait_for_selector("#account-title")
    assert name in page.inner_text("#account-title")


def play_one_move(pages: list[Any]) -> None:
    """Whoever's turn it is makes one move by clicks; wait until both pages show it."""
    before = move_number(pages[0])
    for page in pages:
        if page.evaluate("document.body.dataset.yourTurn") == "true":
            pacal_move(page)
            break
    else:
        raise AssertionError("neither page has the turn")
    for page in pages:
        page.wait_for_function(
            "(n) => document.body.dataset.status === 'finished' "
            "|| Number(document.body.dataset.moveNumber) > n", arg=before)


def test_a_ranked_pacal_match_with_clocks_between_two_accounts(
    browser: Any, server: ClockedServer
) -> None:
    errors: list[str] = []
    ana, bo = person(browser, errors), person(browser, errors)
    register(ana, server, "Ana")
    register(bo, server, "Bo")

    ana.goto(server.base + "/")
    ana.wait_for_selector("body[data-ready=true]")
    assert "Ana" in ana.inner_text("#account-line")
    ana.fill("#name", "Ana")
    ana.select_option("#game", "pacal")
    ana.wait_for_selector("body[data-options='pacal']")
    ana.fill("#option-rounds_to_win", "1")
    ana.locator("#option-rounds_to_win").dispatch_event("change")
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "open")
    ana.select_option("#time-control", "move:60")
    ana.select_option("#on-timeout", "bot")
    ana.check("#ranked")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room = ana.url.rsplit("/", 1)[1]

    bo.goto(f"{server.base}/play/{room}")
    assert "Bo" in bo.inner_text("#account-name")  # he sits as his account
    bo.click("[data-take-seat='1']")
    bo.wait_for_selector("[data-leave='1']")
    ana.click("#start:not([aria-disabled])")
    for page in (ana, bo):
        page.wait_for_selector("body[data-status=playing]")
        page.wait_for_selector("#clock:not([hidden]) [data-clock-seat='1']")
    assert "1:00 a move" in ana.inner_text("#clock")
    assert re.fullmatch(r"[01]:\d\d", ana.inner_text("#clock [data-clock-seat='0'] .clock-time"))

    ana.fill("#chat-input", "good luck, Bo")
    ana.press("#chat-input", "Enter")
    bo.wait_for_function("() => document.getElementById('chat-list').textContent"
                         ".includes('good luck, Bo')")
    bo.fill("#chat-input", "<b>thanks</b>")
    bo.press("#chat-input", "Enter")
    ana.wait_for_selector("#chat-list li:has-text('<b>thanks</b>')")  # text, not markup

    # Ending a ranked game is no escape: the host is told the players away lose it.
    questions: list[str] = []

    def answer(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.dismiss()

    ana.once("dialog", answer)
    ana.click("#end-game")
    assert questions and "players who have been away lose it" in questions[0]
    assert "count for nobody" not in questions[0]

    # Play until it is Bo's turn after a few moves; then he lets his minute pass.
    while not (move_number(ana) >= 3 and bo.evaluate("document.body.dataset.yourTurn") == "true"):
        play_one_move([ana, bo])
        assert not finished(ana), "the match ended before Bo's clock could run out"
        number = move_number(ana)
        for page in (ana, bo):  # the log beside the table shows the move
            page.wait_for_selector(f"#move-log-list li[data-number='{number}']")
    timed_out_at = move_number(bo)
    server.clock.advance(61)
    for page in (ana, bo):
        page.wait_for_function(
            "(n) => Number(document.body.dataset.moveNumber) > n", arg=timed_out_at)
        page.wait_for_function(
            "() => document.getElementById('announcer').textContent.includes('ran out of time')")
    assert "by a bot while away" in ana.inner_text("#last-move")

    while not (finished(ana) and finished(bo)):
        play_one_move([ana, bo])
    for page in (ana, bo):
        page.wait_for_selector("#rating-after")
        assert re.search(r"\(([+-]\d+)\)", page.inner_text("#rating-after"))

    ratings = {}
    for page, name in ((ana, "Ana"), (bo, "Bo")):
        account = page.evaluate("fetch('/api/account').then((r) => r.json())")["account"]
        assert account["name"] == name
        ratings[name] = account["ratings"]["pacal"]["rating"]
        assert account["games"][0]["room"] == room
    assert ratings["Ana"] != 1500 and ratings["Bo"] != 1500
    assert (ratings["Ana"] - 1500) * (ratings["Bo"] - 1500) < 0  # one won, one lost
    board = ana.evaluate("fetch('/api/leaderboard/pacal').then((r) => r.json())")
    assert sorted(row["name"] for row in board["players"]) == ["Ana", "Bo"]
    ana.goto(server.base + "/leaderboard?game=pacal")
    ana.wait_for_selector("#leaderboard tbody tr")
    assert "Ana" in ana.inner_text("#leaderboard") and "Bo" in ana.inner_text("#leaderboard")

    bo.goto(f"{server.base}/replay/{room}")
    bo.wait_for_selector("#controls:not([hidden])")
    bo.click("#first")
    for _ in range(3):
        bo.click("#forward")
    assert bo.inner_text("#step").startswith("Move 3 of")
    for seat in (0, 1):  # every seat's cards, once the game is over
        assert bo.locator(f".replay-seat[data-seat='{seat}'] .hand [data-card]").count() > 0
    bo.click("#back")
    assert bo.inner_text("#step").startswith("Move 2 of")
    assert not errors, f"the pages raised JavaScript errors: {errors}"


def test_the_lobby_asks_for_a_login_before_a_ranked_room(
    browser: Any, server: ClockedServer
) -> None:
    errors: list[str] = []
    guest = person(browser, errors)
    guest.goto(server.base + "/")
    guest.wait_for_selector("body[data-ready=true]")
    assert "Log in or register" in guest.inner_text("#account-line")
    guest.fill("#name", "Guest")
    guest.select_option("#game", "pacal")
    guest.wait_for_selector("body[data-options='pacal']")
    guest.select_option("#seats select[data-seat='1']", "bot:easy")
    guest.check("#ranked")
    guest.click("#create-button")
    guest.wait_for_selector("#create-error:not([hidden])")
    assert "Log in to play a ranked room" in guest.inner_text("#create-error")
    waiting = guest.evaluate("fetch('/api/rooms?status=waiting').then((r) => r.json())")
    assert waiting["rooms"] == [] and guest.url.endswith("/")
    assert not errors, f"the page raised JavaScript errors: {errors}"


def test_the_lobby_chooses_the_fair_turn_order_for_a_ranked_mahjongg_table(
    browser: Any, server: ClockedServer
) -> None:
    """A ranked Mahjongg table plays 'behind' (the server refuses seat order there): the
    lobby asks the server, chooses it while "ranked" is ticked and says why, and gives
    the player's own choice back when it is not."""
    errors: list[str] = []
    ana = person(browser, errors)
    register(ana, server, "Ana")
    ana.goto(server.base + "/")
    ana.wait_for_selector("body[data-ready=true]")
    ana.fill("#name", "Ana")
    ana.select_option("#game", "mahjongg")
    ana.wait_for_selector("body[data-options='mahjongg']")
    ana.click("#options details summary")
    ana.locator("#option-layout").evaluate("(node) => { node.value = 'giza-step-ramp'; }")
    ana.fill("#option-players", "2")
    ana.locator("#option-players").dispatch_event("change")
    ana.select_option("#option-turn_order", "round")  # the player's own choice
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "open")

    ana.check("#ranked")
    ana.wait_for_selector("#option-turn_order:disabled")
    assert ana.input_value("#option-turn_order") == "behind"
    hint = ana.inner_text("#ranked-hint")
    assert "Lowest score moves next" in hint and "same chance" in hint, hint
    ana.uncheck("#ranked")
    ana.wait_for_selector("#option-turn_order:enabled")
    assert ana.input_value("#option-turn_order") == "round"
    assert ana.locator("#ranked-hint").is_hidden()
    # Alone there is no first seat to favour: nothing is chosen for the player.
    ana.fill("#option-players", "1")
    ana.locator("#option-players").dispatch_event("change")
    ana.check("#ranked")
    ana.wait_for_function(
        "() => !document.getElementById('ranked-hint').innerText.includes('same chance')")
    assert ana.input_value("#option-turn_order") == "round"
    assert ana.locator("#option-turn_order").is_enabled()

    ana.fill("#option-players", "2")
    ana.locator("#option-players").dispatch_event("change")
    ana.select_option("#seats select[data-seat='1']", "open")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room_id = ana.url.rsplit("/", 1)[1]
    room = ana.evaluate(f"fetch('/api/rooms/{room_id}').then((r) => r.json())")["room"]
    assert room["ranked"] is True and room["options"]["turn_order"] == "behind", room
    assert not errors, f"the page raised JavaScript errors: {errors}"


def test_the_lobby_gives_a_ranked_room_a_clock_whose_time_out_lets_the_bot_move(
    browser: Any, server: ClockedServer
) -> None:
    """The server refuses a ranked room without a clock, or whose clock adjourns (a
    losing player could stall for ever): while "ranked" is ticked the lobby offers
    neither, says why, and gives the player's own choice back when it is not."""
    errors: list[str] = []
    ana = person(browser, errors)
    register(ana, server, "Ana")
    ana.goto(server.base + "/")
    ana.wait_for_selector("body[data-ready=true]")
    ana.fill("#name", "Ana")
    ana.select_option("#game", "pacal")
    ana.wait_for_selector("body[data-options='pacal']")
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "open")
    ana.select_option("#time-control", "none")
    ana.select_option("#on-timeout", "adjourn")  # the player's own choices

    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    assert "bot makes their move" in ana.inner_text("#ranked-hint")
    assert (ana.input_value("#time-control"), ana.input_value("#on-timeout")) == (
        "move:120", "bot")
    assert ana.locator("#time-control option[value=none]").is_disabled()
    assert ana.locator("#on-timeout option[value=adjourn]").is_disabled()
    ana.uncheck("#ranked")
    ana.wait_for_selector("#ranked-hint", state="hidden")
    assert (ana.input_value("#time-control"), ana.input_value("#on-timeout")) == (
        "none", "adjourn")
    assert ana.locator("#on-timeout option[value=adjourn]").is_enabled()

    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room_id = ana.url.rsplit("/", 1)[1]
    room = ana.evaluate(f"fetch('/api/rooms/{room_id}').then((r) => r.json())")["room"]
    assert room["ranked"] is True, room
    assert (room["time_control"]["kind"], room["time_control"]["seconds"],
            room["time_control"]["on_timeout"]) == ("move", 120, "bot"), room
    assert not errors, f"the page raised JavaScript errors: {errors}"


@pytest.mark.parametrize(("stored", "rematch_clock"), [
    ({"kind": "move", "seconds": 300, "on_timeout": "adjourn"}, ("move", 300, "bot")),
    ({"kind": "move", "seconds": 3600, "on_timeout": "bot"}, ("move", 120, "bot")),
], ids=["adjourning", "too-long"])
def test_a_rematch_of_a_ranked_room_without_a_clock_gets_the_ranked_clock(
    browser: Any, server: ClockedServer, stored: dict[str, Any],
    rematch_clock: tuple[str, int, str],
) -> None:
    """A room ranked before ranked rooms needed a clock (none, or one that adjourned),
    or before their clocks were bounded (an hour a move): its Rematch asked the server
    for the same, and was refused (`ranked_needs_clock`, `ranked_clock_too_long`, in
    words meant for the API); now it takes its own clock with the bot at a time-out
    where that fits, else 2 minutes a move."""
    errors: list[str] = []
    ana = person(browser, errors)
    register(ana, server, "Ana")
    ana.goto(server.base + "/?game=pacal")
    ana.wait_for_selector("body[data-options='pacal']")
    ana.fill("#option-rounds_to_win", "1")
    ana.locator("#option-rounds_to_win").dispatch_event("change")
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "bot:easy")
    ana.check("#ranked")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room = ana.url.rsplit("/", 1)[1]
    # As stored before the rule: a ranked room whose clock adjourns a player out of time.
    hub = server.app.state.hub
    hub.rooms[room].room.settings.time_control = stored
    ana.reload()
    ana.wait_for_selector("body[data-status=playing]")
    while not finished(ana):
        before = move_number(ana)
        if ana.evaluate("document.body.dataset.yourTurn") == "true":
            pacal_move(ana)
        ana.wait_for_function(
            "(n) => document.body.dataset.status === 'finished' "
            "|| Number(document.body.dataset.moveNumber) > n", arg=before)
    ana.click("#rematch")
    ana.wait_for_url(lambda url: url.rstrip("/").rsplit("/", 1)[1] != room)
    rematch = ana.url.rsplit("/", 1)[1]
    summary = ana.evaluate(f"fetch('/api/rooms/{rematch}').then((r) => r.json())")
    assert summary["room"]["ranked"]
    clock = summary["room"]["time_control"]
    assert (clock["kind"], clock["seconds"], clock["on_timeout"]) == rematch_clock
    assert not errors, f"the page raised JavaScript errors: {errors}"


def test_a_guest_in_a_ranked_waiting_room_is_told_to_log_in_not_offered_seats(
    browser: Any, server: ClockedServer
) -> None:
    """A guest saw a name field and Take this seat in a ranked room, which the server
    refused (`account_required`): the page says why and links to the account page."""
    errors: list[str] = []
    ana = person(browser, errors)
    register(ana, server, "Ana")
    ana.goto(server.base + "/?game=pacal")
    ana.wait_for_selector("body[data-options='pacal']")
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "open")
    ana.check("#ranked")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room = ana.url.rsplit("/", 1)[1]
    guest = person(browser, errors)
    guest.set_viewport_size({"width": 390, "height": 844})
    guest.goto(f"{server.base}/play/{room}")
    guest.wait_for_selector("#ranked-login")
    assert "logged in to an account" in guest.inner_text("#ranked-login")
    assert guest.get_attribute("#ranked-login-link", "href") == f"/account?next=%2Fplay%2F{room}"
    assert guest.locator("[data-take-seat]").count() == 0
    assert guest.locator("#seat-name").count() == 0
    bo = person(browser, errors)
    register(bo, server, "Bo")
    bo.goto(f"{server.base}/play/{room}")
    bo.click("[data-take-seat='1']")
    bo.wait_for_selector("[data-leave='1']")
    assert bo.locator("#ranked-login").count() == 0
    assert not errors, f"the pages raised JavaScript errors: {errors}"


def test_a_player_changes_their_password_and_deletes_their_account_on_the_account_page(
    server: ClockedServer, browser: Any
) -> None:
    errors: list[str] = []
    page = person(browser, errors)
    register(page, server, "Ana")
    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", "a new passphrase")
    page.click("#change-password button[type=submit]")
    page.wait_for_selector("#password-changed:not([hidden])")
    assert "other logins have ended" in page.inner_text("#password-changed")

    page.fill("#delete-password", "the old one, wrong")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete-account button[type=submit]")
    page.wait_for_selector("#account-error:not([hidden])")
    assert "current password is wrong" in page.inner_text("#account-error")
    page.fill("#delete-password", "a new passphrase")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete-account button[type=submit]")
    page.wait_for_selector("#register")  # logged out: the forms to log in or register
    gone = page.evaluate("fetch('/api/account').then((r) => r.json())")
    assert gone == {"account": None}
    assert errors == []


def lobby_for_pacal(browser: Any, server: ClockedServer, errors: list[str]) -> Any:
    """Ana, logged in, at the lobby with a Pacal room of her and an open seat."""
    ana = person(browser, errors)
    register(ana, server, "Ana")
    ana.goto(server.base + "/")
    ana.wait_for_selector("body[data-ready=true]")
    ana.fill("#name", "Ana")
    ana.select_option("#game", "pacal")
    ana.wait_for_selector("body[data-options='pacal']")
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "open")
    return ana


def offered(page: Any) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        "#time-control option", "(options) => options.filter((o) => !o.disabled)"
        ".map((o) => o.value)")
    return values


def test_the_lobby_offers_a_ranked_room_only_the_clocks_the_server_allows(
    browser: Any, server: ClockedServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server refuses a ranked clock longer than its bound (`ranked_clock_too_long`);
    the lobby reads the bound from the server and, while "Ranked" is ticked, offers only
    the clocks within it. Here the bound is made shorter than some of the lobby's
    clocks (2 minutes a move, a bank of 5 minutes): a longer one the player had chosen
    gives way to 2 minutes a move, and comes back when "Ranked" is unticked."""
    from pyramids.web import clocks

    monkeypatch.setattr(clocks, "RANKED_MAX_MOVE_SECONDS", 120.0)
    monkeypatch.setattr(clocks, "RANKED_MAX_BANK_SECONDS", 300.0)
    errors: list[str] = []
    ana = lobby_for_pacal(browser, server, errors)
    ana.select_option("#time-control", "move:300")
    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    assert offered(ana) == ["move:60", "move:120", "bank:300:10"]
    assert ana.input_value("#time-control") == "move:120"
    # Every clock offered is one the server takes for a ranked room, and no other.
    for value in ("move:60", "move:120", "bank:300:10", "move:300", "bank:900:10"):
        kind, seconds, *increment = value.split(":")
        control = {"kind": kind, "seconds": int(seconds), "on_timeout": "bot"}
        if increment:
            control["increment"] = int(increment[0])
        refused = clocks.ranked_clock_problem(clocks.TimeControl.from_dict(control))
        assert (refused is None) == (value in offered(ana)), value
    ana.uncheck("#ranked")
    ana.wait_for_selector("#ranked-hint", state="hidden")
    assert ana.input_value("#time-control") == "move:300"
    assert len(offered(ana)) == 6

    ana.select_option("#time-control", "bank:900:10")
    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room_id = ana.url.rsplit("/", 1)[1]
    room = ana.evaluate(f"fetch('/api/rooms/{room_id}').then((r) => r.json())")["room"]
    assert room["ranked"] is True
    assert (room["time_control"]["kind"], room["time_control"]["seconds"]) == ("move", 120)
    assert not errors, f"the page raised JavaScript errors: {errors}"


def test_a_clock_chosen_while_ranked_stays_when_ranked_is_unticked(
    browser: Any, server: ClockedServer
) -> None:
    """What the lobby chose in the player's place when "Ranked" was ticked (2 minutes a
    move for no clock, a bot for the game waiting) is given back when it is unticked;
    a clock the player chose themselves while it was ticked is theirs, and stays."""
    errors: list[str] = []
    ana = lobby_for_pacal(browser, server, errors)
    ana.select_option("#time-control", "none")
    ana.select_option("#on-timeout", "adjourn")
    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    assert (ana.input_value("#time-control"), ana.input_value("#on-timeout")) == (
        "move:120", "bot")
    ana.select_option("#time-control", "move:300")  # the player's own choice
    ana.uncheck("#ranked")
    ana.wait_for_selector("#ranked-hint", state="hidden")
    assert (ana.input_value("#time-control"), ana.input_value("#on-timeout")) == (
        "move:300", "adjourn")
    # Ticked again: the clock the player sees fits, so it stays; the bot is chosen
    # again for the time-out, and given back again.
    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    assert (ana.input_value("#time-control"), ana.input_value("#on-timeout")) == (
        "move:300", "bot")
    ana.uncheck("#ranked")
    ana.wait_for_selector("#ranked-hint", state="hidden")
    assert (ana.input_value("#time-control"), ana.input_value("#on-timeout")) == (
        "move:300", "adjourn")
    assert not errors, f"the page raised JavaScript errors: {errors}"


def ranked_pacal_match(browser: Any, server: ClockedServer, errors: list[str],
                       clock: str | None = None) -> tuple[Any, Any, Any, str]:
    """Ana (host) and Bo, both logged in, start a ranked Pacal match made in the lobby
    (with `clock`, else the one the lobby gives a ranked room); a Korean spectator
    watches. Their pages and the room's id."""
    ana, bo = person(browser, errors), person(browser, errors)
    register(ana, server, "Ana")
    register(bo, server, "Bo")
    ana.goto(server.base + "/")
    ana.wait_for_selector("body[data-ready=true]")
    ana.fill("#name", "Ana")
    ana.select_option("#game", "pacal")
    ana.wait_for_selector("body[data-options='pacal']")
    ana.select_option("#seats select[data-seat='0']", "me")
    ana.select_option("#seats select[data-seat='1']", "open")
    if clock is not None:
        ana.select_option("#time-control", clock)
    ana.check("#ranked")
    ana.wait_for_selector("#ranked-hint:not([hidden])")
    assert "3 turns in a row loses the game" in ana.inner_text("#ranked-hint")
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room: str = ana.url.rsplit("/", 1)[1]
    bo.goto(f"{server.base}/play/{room}")
    bo.click("[data-take-seat='1']")
    bo.wait_for_selector("[data-leave='1']")
    ana.click("#start:not([aria-disabled])")
    watcher = browser.new_context(locale="ko-KR").new_page()
    watcher.set_default_timeout(TIMEOUT_MS)
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    watcher.goto(f"{server.base}/play/{room}")
    for page in (ana, bo, watcher):
        page.wait_for_selector("body[data-status=playing]")
    return ana, bo, watcher, room


def test_a_player_who_lets_the_clock_run_out_three_turns_in_a_row_forfeits_on_every_page(
    browser: Any, server: ClockedServer
) -> None:
    """Bo stops moving in a ranked match: the bot moves for him twice, and on his third
    turn in a row that runs out the game ends, his loss. Both players' pages, and a
    Korean spectator's, say who ran out of time and why; so do the replay and the
    account page."""
    errors: list[str] = []
    ana, bo, watcher, room = ranked_pacal_match(browser, server, errors, "move:60")

    timeouts = 0
    while timeouts < 3:
        if ana.evaluate("document.body.dataset.yourTurn") == "true":
            play_one_move([ana, bo])
            continue
        number = move_number(bo)
        server.clock.advance(61)  # Bo lets his minute pass
        timeouts += 1
        for page in (ana, bo):
            page.wait_for_function(
                "(n) => document.body.dataset.status === 'aborted' || "
                "(Number(document.body.dataset.moveNumber) > n "
                "&& document.body.dataset.yourTurn !== undefined)", arg=number)
        if timeouts < 3:
            assert ana.evaluate("document.body.dataset.status") == "playing"
            ana.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    said = "Bo (seat 2) let the clock run out on 3 turns in a row, so they forfeit"
    for page in (ana, bo):
        page.wait_for_selector("body[data-status=aborted]")
        assert said in page.inner_text("#turn")
        page.wait_for_function(
            "(said) => document.getElementById('announcer').textContent.includes(said)",
            arg=said)
    watcher.wait_for_selector("body[data-status=aborted]")
    assert "Bo(2번 자리)님이 3턴 연속으로" in watcher.inner_text("#turn")

    ana.goto(f"{server.base}/replay/{room}")
    ana.wait_for_selector("#ended:not([hidden])")
    assert said in ana.inner_text("#ended")
    bo.goto(f"{server.base}/account")
    bo.wait_for_selector("body[data-ready=true]")
    bo.wait_for_function(
        "() => document.body.textContent.includes('lost: out of time, turn after turn')")
    account = bo.evaluate("fetch('/api/account').then((r) => r.json())")["account"]
    assert account["ratings"]["pacal"]["rating"] < 1500
    # Ana's history names the player she won against.
    ana.goto(f"{server.base}/account")
    ana.wait_for_selector("body[data-ready=true]")
    ana.wait_for_function(
        "() => document.body.textContent.includes("
        "'won against Bo, who ran out of time turn after turn')")
    assert not errors, f"the pages raised JavaScript errors: {errors}"


def test_a_host_who_ends_a_ranked_game_over_a_player_away_is_told_who_and_how_it_counts(
    browser: Any, server: ClockedServer
) -> None:
    """Bo leaves a ranked match; once he has been away long enough, Ana, the host, ends
    it. Every page said only "The host ended this game" (and the history "ended by the
    host") though Bo forfeited it and both ratings moved: now Ana's page, a Korean
    spectator's, the replay and both histories say Bo was away and how it counts."""
    server.app.state.hub.limits = ServerLimits.relaxed(ranked_end_away_seconds=0.3)
    errors: list[str] = []
    ana, bo, watcher, room = ranked_pacal_match(browser, server, errors)
    bo.goto(f"{server.base}/account")  # Bo leaves the game
    bo.wait_for_selector("body[data-ready=true]")
    time.sleep(0.5)
    ana.once("dialog", lambda dialog: dialog.accept())
    ana.click("#end-game")
    said = ("The host ended this ranked game while Bo (seat 2) was away, so they forfeit "
            "it: it counts as a loss for them and a win for Ana")
    ana.wait_for_selector("body[data-status=aborted]")
    assert said in ana.inner_text("#turn")
    ana.wait_for_function(
        "(said) => document.getElementById('announcer').textContent.includes(said)", arg=said)
    watcher.wait_for_selector("body[data-status=aborted]")
    assert "Bo(2번 자리)님이 자리를 비운 사이 방장이" in watcher.inner_text("#turn")
    ana.goto(f"{server.base}/replay/{room}")
    ana.wait_for_selector("#ended:not([hidden])")
    assert said in ana.inner_text("#ended")
    for page, line in ((ana, "won against Bo, away when the host ended the game"),
                       (bo, "lost: away when the host ended the game")):
        page.goto(f"{server.base}/account")
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_function("(line) => document.body.textContent.includes(line)", arg=line)
        assert "ended by the host" not in page.inner_text("body")
    assert not errors, f"the pages raised JavaScript errors: {errors}"


def test_a_game_the_server_s_operator_closes_says_so_on_every_page(
    browser: Any, tmp_path: Any
) -> None:
    """The operator closes Ana's game: her page (and its announcement), a Korean
    spectator's, the replay and her history said "The host ended this game" / "ended by
    the host", though Ana, the host, did nothing; now they say the operator closed it."""
    token = "an-operator-secret-of-more-than-32-characters"
    app = mount_pages(create_app(f"sqlite:///{tmp_path / 'operator.db'}",
                                 limits=ServerLimits.relaxed(), admin_token=token))
    server = UvicornThread(app, wait=15, ws_max_size=MAX_MESSAGE_BYTES * 16)
    try:
        errors: list[str] = []
        ana = person(browser, errors)
        register(ana, server, "Ana")  # type: ignore[arg-type]
        ana.goto(server.base + "/")
        ana.wait_for_selector("body[data-ready=true]")
        ana.fill("#name", "Ana")
        ana.select_option("#game", "pacal")
        ana.wait_for_selector("body[data-options='pacal']")
        ana.select_option("#seats select[data-seat='0']", "me")
        ana.select_option("#seats select[data-seat='1']", "bot:greedy")
        ana.click("#create-button")
        ana.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
        room = ana.url.rsplit("/", 1)[1]
        if ana.evaluate("document.body.dataset.status") == "waiting":
            ana.click("#start:not([aria-disabled])")
        watcher = browser.new_context(locale="ko-KR").new_page()
        watcher.set_default_timeout(TIMEOUT_MS)
        watcher.on("pageerror", lambda error: errors.append(str(error)))
        watcher.goto(f"{server.base}/play/{room}")
        for page in (ana, watcher):
            page.wait_for_selector("body[data-status=playing]")
        closed = ana.request.post(f"{server.base}/api/admin/rooms/{room}/close",
                                  headers={"Authorization": f"Bearer {token}"})
        assert closed.status == 200, closed.text()
        said = ("The server's operator closed this game: it ended without a result, and "
                "nobody is rated")
        ana.wait_for_selector("body[data-status=aborted]")
        assert said in ana.inner_text("#turn") and "host" not in ana.inner_text("#turn")
        ana.wait_for_function(
            "(said) => document.getElementById('announcer').textContent.includes(said)",
            arg=said)
        watcher.wait_for_selector("body[data-status=aborted]")
        assert "서버 운영자가 이 게임을 닫았습니다" in watcher.inner_text("#turn")
        ana.goto(f"{server.base}/replay/{room}")
        ana.wait_for_selector("#ended:not([hidden])")
        assert said in ana.inner_text("#ended")
        ana.goto(f"{server.base}/account")
        ana.wait_for_selector("body[data-ready=true]")
        ana.wait_for_function(
            "() => document.body.textContent.includes(\"closed by the server's operator\")")
        assert "ended by the host" not in ana.inner_text("body")
        assert not errors, f"the pages raised JavaScript errors: {errors}"
    finally:
        server.stop()
