"""What a sixth walk through the browser pages found, in a real Chromium (Debian's), on a
desktop and a phone, in English and Korean: the Pacal solo learn page, terminal
commands shown to browser readers, a silent Enter on the boards, the keys line on
touch phones, and a language menu that switched on an arrow key."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import re
from typing import Any

import pytest

from pyramids.games.pacal.pyramid import why_not
from pyramids.play.i18n import _, words_text
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    TIMEOUT_MS,
    PageServer,
    browser,
    create_from_lobby,
    legal_actions,
    move_number,
    pytestmark,
    server,
    wait_turn_or_end,
)

SIZES = {"desktop": {"width": 1200, "height": 860}, "phone": {"width": 360, "height": 740}}


def opened(browser: Any, server: PageServer, lang: str, size: str = "desktop",
           touch: bool = False) -> Any:
    context = browser.new_context(viewport=SIZES[size], has_touch=touch, is_mobile=touch)
    context.add_cookies([{"name": "pyramids_lang", "value": lang, "url": server.base}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


# -- 3. Enter on a field that cannot take the card says why ---------------------------

FIELDS = """() => [...document.querySelectorAll('.field')].map((node) => [
    Number(node.dataset.field), node.querySelector('title').textContent])"""


def _solo_pyramid(page: Any, lang: str) -> tuple[list[int], list[int]]:
    """The visible and covered values of the ten fields, read from the fields' names."""
    visible, covered = [0] * 10, [0] * 10
    for field, label in page.evaluate(FIELDS):
        numbers = [int(n) for n in re.findall(r"\d+", label)][1:]
        if len(numbers) == 1:
            visible[field - 1] = numbers[0]
        elif len(numbers) == 2:
            # "F3: 40 covering 38" in English; "F3: 38 위에 40" in Korean.
            top, under = numbers if lang == "en" else numbers[::-1]
            visible[field - 1], covered[field - 1] = top, under
    return visible, covered


def _enter_on_filled_fields(page: Any, server: PageServer, lang: str) -> int:
    """Play a solo game by keyboard; after each placement press Enter again on the field
    just filled, where it cannot take the next card: how many times that was said."""
    create_from_lobby(page, server, "pacal-solo", {}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    said = 0
    for _turn in range(12):
        wait_turn_or_end(page, -1)
        if page.evaluate("document.body.dataset.status === 'finished'"):
            break
        before = move_number(page)
        legal = legal_actions(page)
        action = legal[len(legal) // 2]  # a field in the middle: the game lasts
        field = int(action.split()[1][1:])
        page.focus(f".field[data-action='{action}']")
        page.keyboard.press("Enter")
        wait_turn_or_end(page, before)
        if page.evaluate("document.body.dataset.status === 'finished'"):
            break
        focused = page.evaluate("document.activeElement.dataset.field || ''")
        assert focused == str(field), "the focus stays on the field just filled"
        if f"place F{field}" in legal_actions(page):
            continue  # the new card may cover it: Enter places it, as before
        card = int(page.get_attribute(".to-place", "data-card") or "0")
        visible, covered = _solo_pyramid(page, lang)
        reason = why_not(visible, covered, field - 1, card)
        assert reason is not None
        expected = words_text(reason, lang)
        expected = expected[0].upper() + expected[1:]
        now = move_number(page)
        page.keyboard.press("Enter")
        page.wait_for_selector("#message:not([hidden])")
        assert page.text_content("#message") == expected
        assert page.get_attribute("#message", "role") == "alert"
        assert move_number(page) == now, "nothing was sent"
        said += 1
        if said >= 2:
            break
    return said


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_enter_on_the_field_just_filled_says_why_it_takes_no_card(
    browser: Any, server: PageServer, lang: str
) -> None:
    """After a placement by keyboard the focus stays on the field just filled; Enter
    there did nothing and said nothing. It now says why, in the rules' words, where the
    other refusals are said (the page's alert line), and the game is unchanged."""
    page = opened(browser, server, lang)
    said = 0
    for _game in range(6):  # a deal may be lost before the case comes up: a new one
        said += _enter_on_filled_fields(page, server, lang)
        if said:
            break
    assert said, "no filled field was met that could not take the next card"
    assert not page.errors, page.errors
    page.context.close()


def test_enter_on_the_board_when_it_is_not_your_turn_says_so(
    browser: Any, server: PageServer
) -> None:
    """A Pacal match: Enter on a field of the other player's pyramid, or on any item
    while the other player moves, said nothing; it now says why."""
    page = opened(browser, server, "en")
    create_from_lobby(page, server, "pacal", {}, ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    # The other player's pyramid: your cards go in your own.
    page.focus(".field[data-owner='1'][data-field='1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#message:not([hidden])")
    words = page.text_content("#message") or ""
    assert words.startswith("That is ") and words.endswith(
        "pyramid: your cards go in your own."), words
    # Our own field while offering: there is no card to place yet.
    if any(action.startswith("offer ") for action in legal_actions(page)):
        page.focus(".field[data-owner='0'][data-field='1']")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.getElementById('message').textContent.startsWith('There is no card')")
    assert not page.errors, page.errors
    page.context.close()


def test_temple_s_swap_zone_says_to_choose_a_card_first(
    browser: Any, server: PageServer
) -> None:
    """Temple: Enter on a swap zone slot before a hand card is chosen did nothing."""
    page = opened(browser, server, "ko")
    create_from_lobby(page, server, "temple", {}, ["me", "bot:greedy", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(page, -1)
    if not any(a.startswith("swap ") and a != "swap pass" for a in legal_actions(page)):
        pytest.skip("no swap offered on the first turn of this deal")
    page.focus("[data-slot='1']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#message:not([hidden])")
    assert page.text_content("#message") == _("First choose the card of your hand to give.",
                                              lang="ko")
    assert not page.errors, page.errors
    page.context.close()


def test_mahjongg_s_free_tile_says_what_anubis_shift_waits_for(
    browser: Any, server: PageServer, tmp_path: Any
) -> None:
    """Mahjongg: with Anubis Shift pressed, Enter on a free tile did nothing (the shift
    waits for a blocked tile); it now says what to choose."""
    from tests.web.test_browser import SMALL_LAYOUT, with_seed

    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    page = opened(browser, server, "ko")
    with_seed(page, 0)
    create_from_lobby(page, server, "mahjongg",
                      {"layout": str(layout), "deal": "random", "start_tokens": 5}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    wait_turn_or_end(page, -1)
    assert any(action.startswith("shift ") for action in legal_actions(page))
    page.click("[data-key='button-shift']")
    page.focus(".tile[data-free='true'][data-nav]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#message:not([hidden])")
    assert page.text_content("#message") == _("Anubis Shift: choose a blocked tile to lift.",
                                              lang="ko")
    assert not page.errors, page.errors
    page.context.close()


# -- 4. The keys line is for keyboards ------------------------------------------------


@pytest.mark.parametrize(("size", "touch"), [("desktop", False), ("phone", True)])
def test_the_keys_line_shows_with_a_keyboard_and_not_on_a_touch_phone(
    browser: Any, server: PageServer, size: str, touch: bool
) -> None:
    """"Keys: arrows…" showed on phones, where there are no keys to press: it took room
    and said nothing of use. It is hidden on a touch screen without a pointer that hovers,
    and kept on a desktop."""
    page = opened(browser, server, "en", size, touch)
    create_from_lobby(page, server, "pacal-solo", {}, ["me"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    page.wait_for_selector("#shortcuts", state="attached")
    assert page.is_visible("#shortcuts") is (not touch)
    assert not page.errors, page.errors
    page.context.close()


# -- 5. The language menu changes only on a choice ----------------------------------


@pytest.mark.parametrize(("start", "other"), [("en", "ko"), ("ko", "en")])
def test_the_language_switch_changes_only_when_a_language_is_chosen(
    browser: Any, server: PageServer, start: str, other: str
) -> None:
    """The language menu was a <select> that switched on `change`: the first arrow key
    on it reloaded the page in the other language, so a keyboard or screen-reader user
    could not read the choices. It is now a link per language: Tab reaches it, arrows
    change nothing, and Enter on the other language switches."""
    page = opened(browser, server, start)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    switch = page.locator("header .language-switch")
    assert switch.get_attribute("aria-label") == _("Language", lang=start)
    assert page.locator("header select").count() == 0
    current = switch.locator("[aria-current='true']")
    assert current.get_attribute("lang") == start
    page.focus("header a[href='/']")
    for _step in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.hreflang || ''") == other:
            break
    else:
        pytest.fail("Tab never reached the other language")
    for key in ("ArrowDown", "ArrowUp", "ArrowDown"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.lang") == start
    page.keyboard.press("Enter")
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=other)
    page.wait_for_selector("body[data-ready=true]")
    assert page.text_content("#create-title") == _("New room", lang=other)
    assert not page.errors, page.errors
    page.context.close()


# -- 1. Pacal solo's learn page is the solo rules ------------------------------------

HEADINGS = """() => [...document.querySelectorAll('main h2, main h3, main h4')]
    .map((heading) => heading.textContent.trim())"""


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ko")])
def test_the_pacal_solo_learn_page_is_the_solo_game_s_own(
    browser: Any, server: PageServer, size: str, lang: str
) -> None:
    """/learn/pacal-solo showed the whole Pacal page, headed "Pacal", the solo rules far
    down under "Solo mode": a player who opened the solo game's page read the match's
    offers and rounds first. It is now the solo game's own page, titled as the
    catalogue names the game, and links the two-player rules (and they link back)."""
    from pyramids.core import game_manifest

    page = opened(browser, server, lang, size)
    page.goto(f"{server.base}/learn/pacal-solo")
    solo = _(game_manifest("pacal-solo").display_title, lang=lang)
    pacal = _(game_manifest("pacal").display_title, lang=lang)
    headings = page.evaluate(HEADINGS)
    assert headings[0] == solo == ("Pacal solo" if lang == "en" else "파칼 솔로")
    # The solo game's rules, not the match's: no offers, picks or rounds to read through.
    assert _("Offer", lang=lang) not in " ".join(headings), headings
    assert not any(word in heading for heading in headings
                   for word in ("round", "라운드", "Solo mode", "솔로 모드")), headings
    text = page.inner_text("main")
    assert "offer 12 37" not in text and "pyramids play pacal --vs" not in text
    assert "pacal-solo" in text  # how to start it
    link = page.locator("p.tutorial-links a.related-link")
    assert link.text_content() == _("How to play: {game}", lang=lang, game=pacal)
    link.click()
    page.wait_for_url(re.compile(r"/learn/pacal\?"))
    assert page.evaluate(HEADINGS)[0] == pacal
    back = page.locator("p.tutorial-links a.related-link")
    assert back.text_content() == _("How to play: {game}", lang=lang, game=solo)
    # Temple and Mahjongg have no other game in their box: no such link.
    page.goto(f"{server.base}/learn/temple")
    assert page.locator("a.related-link").count() == 0
    assert not page.errors, page.errors
    page.context.close()


# -- 2. Terminal commands are labelled as such ----------------------------------------

COMMANDS = """() => [...document.querySelectorAll('main code')]
    .filter((code) => /^(pyramids |--)/.test(code.textContent))
    .map((code) => {
        const block = code.closest('li, p, td') || code.parentElement;
        const range = document.createRange();
        range.setStart(block, 0);
        range.setEndBefore(code);
        return [code.textContent, range.toString()];
    })"""

TERMINAL = {"en": "in the terminal", "ko": "터미널에서"}
BROWSER = {"en": "In the browser", "ko": "브라우저에서"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_learn_pages_show_browser_readers_the_browser_s_way(
    browser: Any, server: PageServer, lang: str
) -> None:
    """The learn pages told browser readers to type `pyramids play temple --players 3
    --vs greedy`. Each page now says how to start a game in the browser first, and every
    terminal command it still shows is said to be for the terminal, in the same line."""
    from pyramids.core import manifests

    page = opened(browser, server, lang)
    for manifest in manifests():
        page.goto(f"{server.base}/learn/{manifest.name}")
        commands = page.evaluate(COMMANDS)
        unlabelled = [command for command, before in commands
                      if TERMINAL[lang] not in before.lower()]
        assert not unlabelled, (manifest.name, unlabelled)
        if manifest.name not in ("pacal", "pacal-solo", "temple", "mahjongg"):
            continue  # a test's toy game: no start to tell
        start = page.locator("main li", has_text=BROWSER[lang]).first
        assert start.count(), manifest.name
        assert (start.text_content() or "").strip().startswith(BROWSER[lang]), manifest.name
    assert not page.errors, page.errors
    page.context.close()
