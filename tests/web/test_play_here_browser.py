"""Play here, in a real Chromium: a player logged in on a second browser (a phone, in
Korean) finds their game only watched, with a Play here button; pressing it plays the
seat there, with its cards, and the first browser watches from then on, told why in
words, and offered Play here to take the seat back."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import re
from typing import Any

from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    PageServer,
    browser,
    pytestmark,
    server,
)

PASSWORD = "correct horse battery"


def test_a_second_device_plays_the_seat_and_the_first_one_watches(
    browser: Any, server: PageServer
) -> None:
    errors: list[str] = []
    first = browser.new_context(viewport={"width": 1200, "height": 860}).new_page()
    first.on("pageerror", lambda error: errors.append(str(error)))
    first.goto(server.base + "/account")
    first.wait_for_selector("body[data-ready=true] #register-name")
    first.fill("#register-name", "Hana")
    first.fill("#register-password", PASSWORD)
    first.click("#register button[type=submit]")
    first.wait_for_selector("#account-title")
    first.goto(server.base + "/?game=pacal")
    first.wait_for_selector("body[data-options='pacal']")
    first.select_option("#seats select[data-seat='0']", "me")
    first.select_option("#seats select[data-seat='1']", "open")
    first.click("#create-button")
    first.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
    room = first.url.rsplit("/", 1)[1]
    first.wait_for_selector("body[data-seat='0'] [data-leave='0']")
    assert first.locator("#play-here").count() == 0  # it plays here already

    # The phone: the same account, logged in; the page watches and offers Play here.
    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{server.base}/account?lang=ko")
    phone.wait_for_selector("body[data-ready=true] #login-name")
    phone.fill("#login-name", "Hana")
    phone.fill("#login-password", PASSWORD)
    phone.click("#login button[type=submit]")
    phone.wait_for_selector("#account-title")
    phone.goto(f"{server.base}/play/{room}?lang=ko")
    phone.wait_for_selector("body[data-seat='spectator'] #play-here")
    offer = phone.inner_text("#play-here-offer")
    assert "1번 자리" in offer and "Play here" not in offer  # in Korean
    phone.click("#play-here")
    phone.wait_for_selector("body[data-seat='0'] [data-leave='0']")
    assert phone.locator("#play-here").count() == 0

    # The first browser watches now, says why, and forgets its token.
    first.wait_for_selector("body[data-seat='spectator'] #play-here")
    assert "another device" in first.inner_text("#message")
    assert first.evaluate(f"localStorage.getItem('pyramids:seat:{room}')") is None
    # A reload stays a watcher (no stale token refused), still offering Play here.
    first.reload()
    first.wait_for_selector("body[data-seat='spectator'] #play-here")
    assert "not valid" not in (first.inner_text("#message") or "")

    # Someone else, not logged in, sees no such offer.
    stranger = browser.new_context().new_page()
    stranger.goto(f"{server.base}/play/{room}")
    stranger.wait_for_selector("body[data-seat='spectator'] #spectating")
    assert stranger.locator("#play-here").count() == 0

    # The first browser takes the seat back: the phone watches.
    first.click("#play-here")
    first.wait_for_selector("body[data-seat='0'] [data-leave='0']")
    phone.wait_for_selector("body[data-seat='spectator'] #play-here")
    assert not errors, errors
    for page in (first, phone, stranger):
        page.context.close()


def test_a_banned_player_reads_why_the_seat_stopped(browser: Any, tmp_path: Any) -> None:
    """The operator bans an account in play: its page said only that the seat kept in
    this browser was not valid; it says the account is banned, and watches."""
    import httpx

    from pyramids.web.app import create_app
    from pyramids.web.limits import ServerLimits
    from pyramids.web.pages import mount_pages
    from tests.web.conftest import UvicornThread

    token = "an operator secret of at least thirty-two characters"
    running = UvicornThread(mount_pages(create_app(
        f"sqlite:///{tmp_path / 'ban.db'}", limits=ServerLimits.relaxed(), admin_token=token)),
        wait=15)
    try:
        page = browser.new_context(viewport={"width": 1200, "height": 860}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(running.base + "/account")
        page.wait_for_selector("body[data-ready=true] #register-name")
        page.fill("#register-name", "Mallory")
        page.fill("#register-password", PASSWORD)
        page.click("#register button[type=submit]")
        page.wait_for_selector("#account-title")
        page.goto(running.base + "/?game=pacal")
        page.wait_for_selector("body[data-options='pacal']")
        page.select_option("#seats select[data-seat='0']", "me")
        page.select_option("#seats select[data-seat='1']", "open")
        page.click("#create-button")
        page.wait_for_url(re.compile(r"/play/[A-Za-z0-9_-]+$"))
        page.wait_for_selector("body[data-seat='0'] [data-leave='0']")
        banned = httpx.post(f"{running.base}/api/admin/accounts/Mallory/ban",
                            json={"banned": True},
                            headers={"Authorization": f"Bearer {token}"})
        assert banned.status_code == 200, banned.text
        page.wait_for_selector("body[data-seat='spectator']")
        page.locator("#message", has_text="banned from this server").wait_for(timeout=10_000)
        assert "not valid" not in page.inner_text("#message")
        assert page.locator("#play-here").count() == 0  # logged out: nothing to claim
        assert not errors, errors
        page.context.close()
    finally:
        running.stop()
