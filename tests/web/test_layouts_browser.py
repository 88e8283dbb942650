"""The solitaire pages in a real Chromium: the picture chooser, a game played to its end,
the best-score table, game-number links and the daily deal for two players.

Runs the server with its pages as tests/web/test_browser.py does (its browser
fixture is reused), with the daily deal's date injected: the server owns the
date, and the test moves it, never the wall clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.web import test_browser as _browser_tests
from tests.web.test_browser import finished, legal_actions, move_number

pytestmark = [pytest.mark.browser]

browser = _browser_tests.browser

uvicorn = pytest.importorskip("uvicorn", reason="needs the web extra (pip install '.[web]')")

from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.limits import ServerLimits  # noqa: E402
from pyramids.web.pages import mount_pages  # noqa: E402
from tests.web.conftest import UvicornThread  # noqa: E402

GAME = "mahjongg"
SMALL = "giza-step-ramp"


class DatedServer(UvicornThread):
    """The app with its pages on a free loopback port; `day` is the server's date."""

    def __init__(self, db_url: str) -> None:
        self.day = date(2026, 12, 1)
        app = mount_pages(create_app(db_url, limits=ServerLimits.relaxed(),
                                     today=lambda: self.day))
        super().__init__(app, wait=15)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[DatedServer]:
    running = DatedServer(f"sqlite:///{tmp_path / 'rooms.db'}")
    yield running
    running.stop()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Pages in separate browser contexts (separate players); none may raise."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page() -> Any:
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        contexts.append(context)
        opened = context.new_page()
        opened.set_default_timeout(_browser_tests.TIMEOUT_MS)
        opened.on("pageerror", lambda error: errors.append(str(error)))
        return opened

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


def lobby(page: Any, server: DatedServer, name: str, query: str = "") -> None:
    page.goto(f"{server.base}/{query}")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#name", name)
    page.select_option("#game", GAME)
    page.wait_for_selector(f"body[data-options='{GAME}']")


def play_to_the_end(page: Any) -> None:
    """Click a legal pair's two tiles until none is left, then give up if tiles remain."""
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    while not finished(page):
        before = move_number(page)
        pairs = [action for action in legal_actions(page) if action.startswith("match ")]
        if pairs:
            _, first, second = pairs[0].split()
            page.click(f".tile[data-id='{first}']")
            page.click(f".tile[data-id='{second}']")
        else:
            page.click("[data-action='pass']")
        page.wait_for_function(
            "(n) => Number(document.body.dataset.moveNumber) > n"
            " || document.body.dataset.status === 'finished'", arg=before)


def board_tiles(page: Any) -> list[tuple[int, str]]:
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    tiles: list[dict[str, Any]] = page.eval_on_selector_all(
        ".tile", "nodes => nodes.map(n => ({id: Number(n.dataset.id), face: n.dataset.face}))")
    return sorted((tile["id"], tile["face"]) for tile in tiles)


def test_choose_a_board_by_its_picture_play_it_and_see_the_best_scores(
    new_page: Any, server: DatedServer
) -> None:
    page = new_page()
    lobby(page, server, "Ada")
    cards = page.locator(".board-card[data-board]")
    names = cards.evaluate_all("nodes => nodes.map(n => n.dataset.board)")
    assert SMALL in names and "turtle" in names
    assert page.locator(".board-card svg.board-preview rect").count() > 100  # drawn tiles
    assert page.get_attribute("[role=radiogroup]", "aria-labelledby")
    # The keyboard moves the choice like any radio group.
    page.click(f".board-card[data-board='{SMALL}']")
    chosen = page.locator(f".board-card[data-board='{SMALL}']")
    assert chosen.get_attribute("aria-checked") == "true"
    assert page.input_value("#option-layout") == SMALL
    page.keyboard.press("ArrowRight")
    following = names[names.index(SMALL) + 1]
    assert page.input_value("#option-layout") == following
    assert page.evaluate("document.activeElement.dataset.board") == following
    page.keyboard.press("ArrowLeft")
    assert page.input_value("#option-layout") == SMALL
    page.wait_for_selector("#board-scores :text('No results yet')")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#solitaire-info:not([hidden])")
    assert "counts on the board's table" in page.inner_text("#solitaire-info")
    play_to_the_end(page)
    page.wait_for_selector("#solitaire-info[data-finished=true] table.scores")
    info = page.inner_text("#solitaire-info")
    assert "Ada" in info and f"{SMALL}-" in info  # the table, and the deal's number
    # Back in the lobby, the board's table shows the result.
    lobby(page, server, "Ada")
    page.click(f".board-card[data-board='{SMALL}']")
    page.wait_for_selector("#board-scores table.scores")
    assert "Ada" in page.inner_text("#board-scores")
    # The game number's link starts the same deal as practice.
    number = re.search(rf"{SMALL}-\d+", info)
    assert number
    page.goto(f"{server.base}/?game={GAME}&number={number.group(0)}")
    page.wait_for_selector("body[data-ready=true]")
    assert page.input_value("#game-number") == number.group(0)
    page.fill("#name", "Ada")
    page.click("#number-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#solitaire-info:not([hidden])")
    assert "Practice game" in page.inner_text("#solitaire-info")


def test_a_bad_game_number_is_refused_in_words(new_page: Any, server: DatedServer) -> None:
    page = new_page()
    lobby(page, server, "Ada")
    for text, words in (("turtle", "A game number is a board's name"),
                        ("nowhere-12", "unknown board")):
        page.fill("#game-number", text)
        page.click("#number-button")
        page.wait_for_selector("#number-error:not([hidden])")
        assert words in page.inner_text("#number-error")
    assert page.url.rstrip("/") == server.base


def register(page: Any, server: DatedServer, name: str) -> None:
    page.goto(server.base + "/account")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#register-name", name)
    page.fill("#register-password", "correct horse battery staple")
    page.click("#register button[type=submit]")
    page.wait_for_selector("#account-title")


def test_the_daily_deal_is_the_same_for_two_players_on_a_date_not_on_another(
    new_page: Any, server: DatedServer
) -> None:
    deals = []
    for name in ("Ada", "Bo"):
        page = new_page()
        register(page, server, name)
        lobby(page, server, name)
        page.click("#daily-button")
        page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
        deals.append(board_tiles(page))
        page.wait_for_selector("#solitaire-info:not([hidden])")
        assert "it counts on the day's table" in page.inner_text("#solitaire-info")
    assert deals[0] == deals[1]
    server.day = date(2026, 12, 2)
    page = new_page()
    register(page, server, "Cy")
    lobby(page, server, "Cy")
    assert "2026-12-02" in page.inner_text("#daily")
    page.click("#daily-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    assert board_tiles(page) != deals[0]

    # A guest is told why today's deal needs a login, and practises yesterday's.
    guest = new_page()
    lobby(guest, server, "Dee")
    assert guest.query_selector("#daily-button") is None
    assert "whoever has played it knows every tile" in guest.inner_text("#daily-login")
    assert guest.get_attribute("#daily-login-link", "href").startswith("/account?next=%2F")
    guest.click("#yesterday-button")
    guest.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    assert board_tiles(guest) == deals[0]


def test_a_guest_who_logs_in_from_the_daily_deal_is_back_at_it(
    new_page: Any, server: DatedServer
) -> None:
    """The daily deal's "Log in or register to play it." link left the player on the
    account page after logging in: now they are back at the lobby's daily deal, on a
    phone too, with its Play today's deal button focused and on screen."""
    guest = new_page()
    guest.set_viewport_size({"width": 390, "height": 844})
    guest.goto(f"{server.base}/?lang=ko")
    guest.wait_for_selector("#daily-login-link")
    guest.click("#daily-login-link")
    guest.wait_for_selector("body[data-ready=true] #register-name")
    guest.fill("#register-name", "Dawn")
    guest.fill("#register-password", "correct horse battery")
    guest.click("#register button[type=submit]")
    guest.wait_for_url(f"{server.base}/?lang=ko#solitaire")
    guest.wait_for_function(
        "() => document.activeElement && document.activeElement.id === 'daily-button'")
    box = guest.locator("#daily-button").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert "오늘" in guest.inner_text("#daily-button")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_chooser_and_the_tables_pass_the_accessibility_audit(
    new_page: Any, server: DatedServer, lang: str
) -> None:
    pytest.importorskip("axe_playwright_python.sync_playwright",
                        reason="needs axe-playwright-python (pip install -e '.[dev]')")
    from tests.web.test_accessibility import serious_violations

    page = new_page()
    page.add_init_script(f"try {{ localStorage.setItem('pyramids.lang', '{lang}'); }}"
                         " catch (e) {}")
    lobby(page, server, "Ada")
    page.click(f".board-card[data-board='{SMALL}']")
    page.wait_for_selector("#board-scores :is(table, p)")
    found = serious_violations(page, "lobby with the board chooser")
    page.evaluate("document.body.classList.add('theme-contrast')")
    found += serious_violations(page, "the board chooser in high contrast")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    # The honour tiles' labels are the reader's words (Korean: 호루, not Hor).
    labels = set(page.eval_on_selector_all(".tile-label", "ns => ns.map(n => n.textContent)"))
    english = {"Hor", "Anu", "Isi", "Ni", "Ha", "Oa", "Su", "Wi", "Sa", "Pha", "Sce"}
    if lang == "ko":
        assert not labels & english, labels & english
        assert labels & {"호루", "아누", "이시", "나일", "수확", "오아", "태양", "바람", "모래",
                         "파라", "홀"}, labels
    page.focus("[data-action='pass']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#solitaire-info[data-finished=true] table.scores")
    found += serious_violations(page, "a finished solitaire game with its table")
    assert found == []
