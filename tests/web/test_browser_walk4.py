"""What a fourth walk through the pages found, in a real Chromium (Debian's), on a desktop
and a phone, in English and Korean: the replay stepped by keyboard, ..."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.test_accessibility import focused, press_until
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    pytestmark,
    server,
)
from tests.web.test_movelog_browser import _finished_room

SIZES = {"desktop": {"width": 1200, "height": 860}, "phone": {"width": 390, "height": 844}}


def opened(browser: Any, size: str, lang: str) -> Any:
    context = browser.new_context(viewport=SIZES[size])
    context.add_init_script(f"try {{ localStorage.setItem('pyramids.lang', '{lang}'); }}"
                            " catch (e) {}")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_the_replay_s_buttons_keep_the_focus_at_either_end(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """Pressing Forward (by Enter) onto the last move disabled the button under the focus:
    the focus fell to the page's start, and the next Enter or Tab began again from the
    top. It now goes to the button that steps the other way, and back again."""
    room = _finished_room(server)
    page = opened(browser, size, lang)
    page.goto(f"{server.base}/replay/{room}#step=1")
    page.wait_for_selector("#controls:not([hidden])")
    last = int(page.evaluate(f"fetch('/api/rooms/{room}/replay').then((r) => r.json())"
                             ".then((data) => data.steps.length - 1)"))
    press_until(page, "Tab", "#back", limit=30)
    page.keyboard.press("Enter")
    assert page.url.endswith("#step=0")
    assert focused(page, "#forward"), page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Enter")
    assert page.url.endswith("#step=1")
    # The move reads as words in the reader's language, not as the engine's action.
    words = page.inner_text("#move-lines")
    assert not re.search(r"\b(offer|pick|place)\s+\d", words), words
    if lang == "ko":
        assert re.search("[가-힣]", words), words
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    press_until(page, "Tab", "#forward", limit=30)
    page.keyboard.press("Enter")
    assert page.url.endswith(f"#step={last}")
    assert focused(page, "#back"), page.evaluate("document.activeElement.outerHTML")
    page.keyboard.press("Enter")
    assert page.url.endswith(f"#step={last - 1}")
    assert not page.errors, page.errors
    page.context.close()
