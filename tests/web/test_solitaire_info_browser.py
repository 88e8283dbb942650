"""A one-player game's info line (what it counts on, its game number) in a real Chromium,
for a player on the keyboard or with a screen reader.

The page asks the server about the game every few seconds until it is over. Each answer
drew the line anew, the same words: its live region was read again at every poll, all
game long.

Runs the real server and Debian's Chromium as tests/web/test_browser.py does (its
fixtures are reused).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web import test_browser as _browser_tests
from tests.web.test_browser import PageServer, open_practice_deal

server = _browser_tests.server
browser = _browser_tests.browser
page = _browser_tests.page

pytestmark = [pytest.mark.browser]

POLLS = 2


def test_the_info_line_is_said_once_not_at_every_poll(
    page: Any, server: PageServer
) -> None:
    open_practice_deal(page, server.base, "giza-step-ramp-4821")
    page.wait_for_selector("#solitaire-info:not([hidden])")
    assert page.get_attribute("#solitaire-info", "aria-live") == "polite"
    page.evaluate("""() => {
        window.infoChanges = 0;
        new MutationObserver((records) => { window.infoChanges += records.length; })
            .observe(document.getElementById('solitaire-info'),
                     { childList: true, subtree: true, characterData: true });
    }""")
    # The next polls come and are answered: the same game, still going on. A poll is
    # asked for once the answer before it is drawn, so the third request follows two
    # answers drawn.
    for _ in range(POLLS + 1):
        with page.expect_request(re.compile(r"/api/solitaire/[A-Za-z0-9_-]+$")):
            pass
    assert page.evaluate("window.infoChanges") == 0, "the live region was filled again"
    assert "Practice game" in page.inner_text("#solitaire-info")
