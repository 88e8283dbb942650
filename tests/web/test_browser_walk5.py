"""What a fifth walk through the learn pages and the tutorials found, keyboard only and
with a screen reader in mind, in a real Chromium (Debian's), on a desktop and a
360-pixel phone, in English and Korean."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from typing import Any

import pytest

from pyramids.play.i18n import _
from pyramids.play.tutorial import tutorial_for
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    pytestmark,
    server,
)

SIZES = {"desktop": {"width": 1200, "height": 860}, "phone": {"width": 360, "height": 740}}

# Every change of the feedback's `hidden` attribute, and each text it was given with
# whether it was hidden then (a region shown and filled at once is not read by all).
WATCH_FEEDBACK = """() => {
    const box = document.getElementById('feedback');
    window.feedbackLog = [];
    new MutationObserver((changes) => {
        for (const change of changes) {
            if (change.type === 'attributes') window.feedbackLog.push(['hidden', box.hidden]);
            else window.feedbackLog.push(['text', box.textContent, box.hidden]);
        }
    }).observe(box, { attributes: true, attributeFilter: ['hidden'], childList: true });
}"""


def opened(browser: Any, server: PageServer, size: str, lang: str) -> Any:
    context = browser.new_context(viewport=SIZES[size])
    context.add_cookies([{"name": "pyramids_lang", "value": lang, "url": server.base}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_the_tutorial_s_feedback_is_a_live_region_already_in_the_page(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """The feedback line was hidden while empty and shown with its text at once: a live
    region that enters the page with its words is not read by every screen reader, so
    a refused move's hint could go unsaid. It now stays in the page, empty and taking
    no room, and only its words change."""
    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None
    page = opened(browser, server, size, lang)
    page.goto(f"{server.base}/tutorial/pacal-solo")
    page.wait_for_selector("body[data-ready='true']")
    feedback = page.locator("#feedback")
    assert feedback.get_attribute("aria-live") == "assertive"
    assert feedback.get_attribute("hidden") is None
    box = feedback.bounding_box()
    assert box is not None and box["height"] == 0 and not page.is_visible("#feedback")
    page.evaluate(WATCH_FEEDBACK)
    page.focus("#next")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-entries='1']")
    step = tutorial.steps[1]
    assert step.expect == "place F2" and step.hint
    # A wrong field by the keyboard: the hint is said, the step stays.
    page.focus(".field.legal[data-action='place F9']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.refused")
    assert feedback.text_content() == _(step.hint, lang=lang)
    page.focus(".field.legal[data-action='place F2']")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-entries='2']")
    page.wait_for_selector("#feedback.info")
    assert feedback.text_content() == _("Well done.", lang=lang)
    log = page.evaluate("window.feedbackLog")
    assert ["text", _(step.hint, lang=lang), False] in log, log
    assert all(entry[0] == "text" and entry[2] is False for entry in log), log
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_a_game_s_learn_tutorial_and_room_tabs_have_different_names(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """The tutorial's tab read "Pyramids: Pacal", the name of a room of the same game,
    and the learn page's "Pacal" said nothing of what it was: a screen reader's list of
    windows named three pages of a game alike. Each now says what it is for."""
    from pyramids.core import game_manifest

    page = opened(browser, server, size, lang)
    for game in ("pacal", "temple", "mahjongg", "pacal-solo"):
        title = _(game_manifest(game).display_title, lang=lang)
        page.goto(f"{server.base}/learn/{game}")
        assert page.title() == _("How to play: {game}", lang=lang, game=title)
        page.goto(f"{server.base}/tutorial/{game}")
        page.wait_for_selector("body[data-ready='true']")
        assert page.title() == _("Tutorial: {game}", lang=lang, game=title)
        assert page.title() != _("Pyramids: {game}", lang=lang, game=title)
    assert not page.errors, page.errors
    page.context.close()


HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
    .map((heading) => [Number(heading.tagName[1]), heading.textContent.trim()])"""


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_the_learn_pages_have_one_h1_and_no_skipped_heading_level(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """The learn pages had two h1 headings (the header's "Pyramids" and the rules'
    title) where every other page has one, the header's, and its sections as h2: a
    screen reader's list of headings put the page beside the site. The rules' title
    is now an h2 under the header's h1, its sections h3, with no level skipped."""
    from pyramids.core import game_manifest

    page = opened(browser, server, size, lang)
    for path in ("/learn", "/learn/pacal", "/learn/temple", "/learn/mahjongg",
                 "/learn/pacal-solo"):
        page.goto(f"{server.base}{path}")
        headings = page.evaluate(HEADINGS)
        levels = [level for level, _text in headings]
        assert levels.count(1) == 1 and headings[0] == [1, "Pyramids"], (path, headings)
        assert levels[1] == 2, (path, headings)
        assert all(later - earlier <= 1 for earlier, later in zip(levels, levels[1:],
                                                                  strict=False)), headings
        if path != "/learn":
            assert len(headings) > 5 and levels.count(2) == 1, (path, headings)
            # The title is read first, then the ways on: the tutorial and a real game.
            first = page.evaluate("[...document.querySelector('main').children]"
                                  ".slice(0, 2).map((node) => node.tagName + '.' + node.className)")
            assert first == ["H2.", "P.tutorial-links"], (path, first)
    page.goto(f"{server.base}/learn/temple")
    title = page.locator("main.learn-page h2").first.text_content()
    assert title == _(game_manifest("temple").display_title, lang=lang)
    assert not page.errors, page.errors
    page.context.close()
