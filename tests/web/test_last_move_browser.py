"""The room's last-move line reads like the move log, in a real Chromium (Debian's).

The reader's own move is told in the second person ("Last move: You offer 3 and 5",
Korean 당신), as the log beside the table tells it ("You offered 3 and 5."), and not
by the reader's own name; another player's move keeps their name ("Bea: picks 3").
Ada plays in the browser; Bea's seat is a socket here that plays the first legal move.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pyramids.play.i18n import _
from tests.web.conftest import Client
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    SMALL_LAYOUT,
    TIMEOUT_MS,
    PageServer,
    browser,
    legal_actions,
    move_number,
    pacal_move,
    pytestmark,
    server,
)


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[[str], Any]]:
    """A page in a fresh context of a browser that reads `lang`; no JavaScript error."""
    opened: list[tuple[Any, list[str]]] = []

    def open_in(lang: str = "en") -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 900},
                                      locale="ko-KR" if lang == "ko" else "en-US")
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        opened.append((context, errors))
        return page

    yield open_in
    for context, errors in opened:
        context.close()
        assert not errors, f"the page raised JavaScript errors: {errors}"


class Table:
    """A started room of two people: Ada on `page`, Bea a socket that plays when asked."""

    def __init__(self, server: PageServer, page: Any, game: str, options: dict[str, Any]):
        with httpx.Client(base_url=server.base, timeout=15) as http:
            made = http.post("/api/rooms", json={"game": game, "options": options}).json()
            self.room, host = made["room"]["id"], made["host_token"]
            ada = http.post(f"/api/rooms/{self.room}/seats", json={"name": "Ada", "seat": 0})
            bea = http.post(f"/api/rooms/{self.room}/seats", json={"name": "Bea", "seat": 1})
            assert http.post(f"/api/rooms/{self.room}/start", json={"token": host}).is_success
        self.page = page
        seat = {"token": ada.json()["token"], "seat": 0, "name": "Ada"}
        page.goto(f"{server.base}/static/favicon.svg")
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"pyramids:seat:{self.room}", json.dumps(seat)])
        page.goto(f"{server.base}/play/{self.room}")
        page.wait_for_selector("#game:not([hidden])")
        self.bea = Client(server.ws_base, self.room, bea.json()["token"])

    def ada_to_move(self) -> None:
        """Bea plays (her first legal move) until it is Ada's turn."""
        while True:
            state = self.bea.until(lambda m: m.get("type") == "state")
            if state["status"] != "playing":
                raise AssertionError("the game ended before Ada's turn")
            if state["current_player"] == 0:
                break
            if state["your_turn"]:
                self.bea.send({"type": "action", "action": state["legal_actions"][0],
                               "move_number": state["move_number"]})
        self.page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")

    def bea_moves(self, ada_move: Callable[[], None]) -> str:
        """Bea's next move (her first legal one; Ada plays `ada_move` until Bea's turn),
        once Ada's page shows it: the last-move line."""
        while True:
            number = move_number(self.page)
            state = self.bea.state_at_least(number)
            if state["your_turn"]:
                break
            self.page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
            ada_move()
            self.page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                        arg=number)
        self.bea.send({"type": "action", "action": state["legal_actions"][0],
                       "move_number": state["move_number"]})
        self.page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                    arg=state["move_number"])
        return str(self.page.inner_text("#last-move"))

    def after_ada(self, move: Callable[[], None]) -> tuple[str, str]:
        """Ada's move by clicks; the last-move line and the log's last entry then."""
        before = move_number(self.page)
        move()
        self.page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                    arg=before)
        self.page.wait_for_function(
            "(n) => document.querySelector(`#move-log-list li[data-number='${n}']`)",
            arg=before + 1)
        line = self.page.inner_text("#last-move")
        entry = self.page.inner_text(f"#move-log-list li[data-number='{before + 1}']")
        return line, entry

    def close(self) -> None:
        self.bea.close()


def own_line(line: str, lang: str = "en") -> None:
    """The line tells the reader's own move in the second person, not by name."""
    you = _("Last move: {move}", lang=lang).format(move=_("You", lang=lang))
    assert line.startswith(you), line
    assert "Ada" not in line, line


def test_pacal_tells_the_readers_move_as_the_log_does(
    open_page: Callable[[str], Any], server: PageServer
) -> None:
    table = Table(server, open_page("en"), "pacal", {"rounds_to_win": 1})
    try:
        table.ada_to_move()
        legal = legal_actions(table.page)
        line, entry = table.after_ada(lambda: pacal_move(table.page))
        offers = [a for a in legal if a.startswith("offer ")]
        if offers:  # Ada deals first
            _verb, low, high = offers[len(offers) // 2].split()
            assert line == f"Last move: You offer {low} and {high}", line
            assert f"You offered {low} and {high}." in entry, entry
        else:  # Bea offered: Ada picks the first card offered
            card = next(a for a in legal if a.startswith("pick ")).split()[1]
            assert line == f"Last move: You pick {card}", line
            assert f"You picked {card}" in entry, entry
        # Bea's move keeps her name.
        other = table.bea_moves(lambda: pacal_move(table.page))
        assert other.startswith("Last move: Bea: "), other
        assert "You" not in other, other
    finally:
        table.close()


def test_pacal_in_korean_says_dangsin(
    open_page: Callable[[str], Any], server: PageServer
) -> None:
    page = open_page("ko")
    table = Table(server, page, "pacal", {"rounds_to_win": 1})
    try:
        table.ada_to_move()
        line, entry = table.after_ada(lambda: pacal_move(page))
        own_line(line, "ko")
        assert entry.split(":")[0].strip().endswith(_("You", lang="ko")), entry
        other = table.bea_moves(lambda: pacal_move(page))
        assert other.startswith(_("Last move: {name}: {move}", lang="ko").split("{")[0] + "Bea:")
    finally:
        table.close()


def test_temple_tells_the_readers_swap_as_the_log_does(
    open_page: Callable[[str], Any], server: PageServer
) -> None:
    table = Table(server, open_page("en"), "temple", {"players": 2})
    try:
        table.ada_to_move()
        assert "swap pass" in legal_actions(table.page)
        line, entry = table.after_ada(lambda: table.page.click("[data-action='swap pass']"))
        assert line == "Last move: You keep your hand", line
        assert entry.lstrip("0123456789. \n").startswith("You"), entry
    finally:
        table.close()


def test_mahjongg_tells_the_readers_pair_as_the_log_does(
    open_page: Callable[[str], Any], server: PageServer, tmp_path: Path
) -> None:
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    page = open_page("en")
    table = Table(server, page, "mahjongg", {"layout": str(layout), "players": 2})
    try:
        table.ada_to_move()

        def match() -> None:
            pair = next(a for a in legal_actions(page) if a.startswith("match "))
            _verb, first, second = pair.split()
            page.click(f".tile[data-id='{first}']")
            page.click(f".tile[data-id='{second}']")

        line, entry = table.after_ada(match)
        assert line.startswith("Last move: You match "), line
        assert "You" in entry and "Ada" not in entry, entry
        other = table.bea_moves(match)
        assert other.startswith("Last move: Bea: "), other
    finally:
        table.close()
