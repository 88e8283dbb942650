"""Logging in from a link brings the player back to the page they came from, in a real
Chromium: a guest at a ranked room's waiting page, on a phone, in Korean, logs in and is
back at the room with its seats offered. Only this site's paths are returned to: a
`next=` that names another site (or tries to, with "//" or a backslash) leaves the
player on the account page."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    PageServer,
    browser,
    page,
    pytestmark,
    server,
)

PASSWORD = "correct horse battery"


def register_here(page: Any, name: str) -> None:
    """Register on the account page the browser is at (whatever its address)."""
    page.wait_for_selector("body[data-ready=true] #register-name")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register button[type=submit]")


def test_a_guest_who_logs_in_from_a_ranked_room_is_back_at_its_seats(
    browser: Any, server: PageServer
) -> None:
    """The ranked room's "log in" link led to the account page, which stayed there after
    the login: the player had to find the room's link again."""
    host = browser.new_context(viewport={"width": 1200, "height": 860}).new_page()
    host.goto(server.base + "/account")
    register_here(host, "Rhost")
    host.wait_for_selector("#account-title")
    host.goto(server.base + "/?game=pacal")
    host.wait_for_selector("body[data-options='pacal']")
    host.select_option("#seats select[data-seat='0']", "me")
    host.select_option("#seats select[data-seat='1']", "open")
    host.check("#ranked")
    host.click("#create-button")
    host.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room = host.url.rsplit("/", 1)[1]

    errors: list[str] = []
    guest = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    guest.on("pageerror", lambda error: errors.append(str(error)))
    guest.goto(f"{server.base}/play/{room}?lang=ko")
    guest.wait_for_selector("#ranked-login-link")
    guest.click("#ranked-login-link")
    guest.wait_for_url(re.compile(r"/account\?next="))
    register_here(guest, "Rguest")
    guest.wait_for_url(f"{server.base}/play/{room}?lang=ko")
    guest.wait_for_selector("[data-take-seat='1']")
    assert guest.locator("#ranked-login").count() == 0
    assert "자리" in guest.inner_text("[data-take-seat='1']")  # still in Korean
    guest.click("[data-take-seat='1']")
    guest.wait_for_selector("[data-leave='1']")
    assert not errors, errors
    host.context.close()
    guest.context.close()


def test_the_header_s_login_link_returns_to_the_lobby(
    page: Any, server: PageServer
) -> None:
    page.goto(server.base + "/?game=pacal")
    page.wait_for_selector("body[data-ready=true] #login-link")
    assert page.get_attribute("#login-link", "href") == "/account?next=%2F%3Fgame%3Dpacal"
    page.click("#login-link")
    register_here(page, "Lobbyist")
    page.wait_for_url(f"{server.base}/?game=pacal")
    page.wait_for_selector("#account-name")


def test_an_outside_address_in_next_is_refused(page: Any, server: PageServer) -> None:
    """`/account?next=https://elsewhere.example/` must not send a player who logs in to
    another site (an open redirect a phishing link would use)."""
    page.goto(server.base + "/account")
    page.wait_for_selector("body[data-ready=true]")
    checked = page.evaluate("""async () => {
        const { returnPath } = await import('/static/account.js');
        const tried = ['https://elsewhere.example/', '//elsewhere.example/x',
            '/\\\\elsewhere.example', '\\\\\\\\elsewhere.example', 'javascript:alert(1)',
            '/\\t/elsewhere.example', ' /play/abc', 'play/abc', '', null, '/account',
            '/account?next=%2F', `${location.origin}/play/abc`,
            '/play/abc?lang=ko#x', '/'];
        return tried.map((value) => [value, returnPath(value)]);
    }""")
    allowed = {value: path for value, path in checked if path is not None}
    assert allowed == {"/play/abc?lang=ko#x": "/play/abc?lang=ko#x", "/": "/"}, checked
    # One account (the server allows few new ones an hour), logged in once per address.
    register_here(page, "Careful")
    page.wait_for_selector("#account-title")
    page.click("#logout")
    for outside in ("https://elsewhere.example/", "//elsewhere.example/",
                    "/\\elsewhere.example/", "javascript:alert(1)"):
        page.goto(f"{server.base}/account?next={quote(outside)}")
        page.wait_for_selector("body[data-ready=true] #login-name")
        page.fill("#login-name", "Careful")
        page.fill("#login-password", PASSWORD)
        page.click("#login button[type=submit]")
        page.wait_for_selector("#account-title")
        assert page.url.startswith(f"{server.base}/account?next="), page.url
        page.click("#logout")
        page.wait_for_selector("#login-name")


def test_a_player_logged_in_already_is_offered_the_way_back(
    page: Any, server: PageServer
) -> None:
    """Logged in in another tab, a player who followed a page's "log in" link met their
    account page with no way back to the page but the browser's Back button."""
    page.goto(server.base + "/account?lang=ko")
    register_here(page, "Returner")
    page.wait_for_selector("#account-title")
    page.goto(f"{server.base}/account?next={quote('/leaderboard?game=temple')}")
    page.wait_for_selector("#return-link")
    assert page.inner_text("#return-link") == "있던 페이지로 돌아가기"
    page.click("#return-link")
    page.wait_for_url(f"{server.base}/leaderboard?game=temple")
    for outside in ("https://elsewhere.example/", "//elsewhere.example/"):
        page.goto(f"{server.base}/account?next={quote(outside)}")
        page.wait_for_selector("#account-title")
        assert page.locator("#return-link").count() == 0
