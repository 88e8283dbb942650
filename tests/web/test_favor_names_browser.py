"""Mahjongg's favor buttons in a real Chromium (Debian's): the terminal app's names and
the table's costs.

The Sandstorm Reshuffle read "Sandstorm" on the terminal app's button (the element
tile's face) and "Sandstorm Reshuffle (3 tokens)" in the browser, whatever the
room's `reshuffle_cost`: one catalogue name now, and the cost of this table.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pyramids.play.i18n import ngettext, set_language
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    pytestmark,
    server,
)

pytest.importorskip("textual", reason="needs the tui extra (pip install '.[tui]')")

from pyramids.tui.mahjongg import favor_name  # noqa: E402


def favor_buttons(browser: Any, server: PageServer, lang: str,
                  options: dict[str, Any]) -> dict[str, str]:
    """The favor buttons' words in a one-player Mahjongg room with `options`, by action."""
    with httpx.Client(base_url=server.base, timeout=15) as http:
        made = http.post("/api/rooms", json={"game": "mahjongg", "options": options}).json()
        room, host = made["room"]["id"], made["host_token"]
        token = http.post(f"/api/rooms/{room}/seats", json={"name": "Ada", "seat": 0}).json()
        assert http.post(f"/api/rooms/{room}/start", json={"token": host}).is_success
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  locale="ko-KR" if lang == "ko" else "en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{server.base}/static/favicon.svg")
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [f"pyramids:seat:{room}",
                       json.dumps({"token": token["token"], "seat": 0, "name": "Ada"})])
        page.goto(f"{server.base}/play/{room}")
        page.wait_for_selector("#game:not([hidden]) [data-action='reshuffle']")
        return dict(page.eval_on_selector_all(
            "#game .actions button[data-key^='button-']",
            "nodes => nodes.map((n) => [n.dataset.key.slice(7), n.textContent])"))
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_reshuffle_reads_as_on_the_terminal_with_this_tables_cost(
    browser: Any, server: PageServer, lang: str
) -> None:
    options = {"layout": "turtle", "reshuffle_cost": 4, "sight_cost": 2}
    shown = favor_buttons(browser, server, lang, options)
    set_language(lang)
    try:
        for action, cost in (("reshuffle", 4), ("sight", 2), ("shift", 1), ("reveal", 1)):
            tokens = ngettext("{favor} ({count} token)", "{favor} ({count} tokens)", cost,
                              favor=favor_name(action))
            assert shown[action] == tokens, (action, shown[action], tokens)
    finally:
        set_language(None)
