"""The Solar Barque track and the Tile Reveal on the Mahjongg page, in a real Chromium
(the server and browser fixtures of tests/web/test_browser.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web import test_browser as _browser_tests
from tests.web.test_browser import create_from_lobby

pytestmark = [pytest.mark.browser]

browser = _browser_tests.browser
server = _browser_tests.server
page = _browser_tests.page


def test_the_barque_track_is_drawn_and_a_reveal_turns_up_the_chosen_tile(
    page: Any, server: Any
) -> None:
    create_from_lobby(page, server, "mahjongg",
                      {"mode": "time-attack", "time_limit_seconds": 130,
                       "barque_space_seconds": 60}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    track = page.wait_for_selector("svg#barque-track")
    # 130 s in spaces of 60 s: spaces 0, 1, 2 and sunset at 3.
    assert track.get_attribute("data-spaces") == "3"
    assert page.locator("#barque-track .barque-space").count() == 3
    assert page.locator("#barque-track .barque-sunset").count() == 1
    assert page.locator("#barque-marker").count() == 1
    assert "spaces to sunset" in page.inner_text("#barque-text")
    hidden = page.eval_on_selector_all(
        "svg.board .tile.facedown", "nodes => nodes.map(n => Number(n.dataset.id))")
    assert hidden, "the Great Zenith starts with face-down tiles"
    page.click("[data-key='button-reveal']")
    target = page.locator(f"svg.board .tile[data-id='{hidden[0]}']")
    # Lower tiles lie partly under others: the click goes to the tile itself.
    target.dispatch_event("click")
    page.wait_for_function(
        "(id) => document.querySelector(`svg.board .tile[data-id='${id}']`).dataset.face !== ''",
        arg=hidden[0])
    still_hidden = page.eval_on_selector_all(
        "svg.board .tile.facedown", "nodes => nodes.map(n => Number(n.dataset.id))")
    assert sorted(still_hidden) == sorted(hidden[1:])
    assert "Tile Reveal" in page.inner_text("body")


def test_on_the_turn_clock_the_page_shows_the_engines_time_standing_still(
    page: Any, server: Any
) -> None:
    create_from_lobby(page, server, "mahjongg",
                      {"mode": "time-attack", "clock": "turns", "turn_seconds": 30}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    page.wait_for_timeout(1500)
    assert "15:00 left" in page.inner_text("#timer")
    page.click("[data-key='button-hint']")  # one action: 30 s of the engine's time
    page.wait_for_function(
        "() => document.getElementById('timer').textContent.includes('14:30')")
    page.wait_for_timeout(1200)
    assert "14:30 left" in page.inner_text("#timer")
