"""The tutorials and learn pages in a real Chromium, in English and in Korean.

Each tutorial is followed by clicks: the taught move of every step is read from
the tutorial's data and made by clicking what the game's renderer draws for it
(a hand card and the Offer button, a lit field, a tile, a button), a step without
a move by Next; the step text shown must be the catalogue's text in the page's
language. Then the learner plays on to the end of the game. Skipped without
/usr/bin/chromium. With PYRAMIDS_SCREENSHOTS=1 the screenshots
docs/screenshots/web-tutorial-*.png and web-learn-*.png are refreshed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_browser import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, PageServer

playwright_sync = pytest.importorskip("playwright.sync_api")

from pyramids.play.i18n import _, ngettext  # noqa: E402
from pyramids.play.tutorial import tutorial_for  # noqa: E402
from tests.web.test_korean_walk import READ_TEXT, untranslated  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's Chromium at /usr/bin/chromium"),
]

TIMEOUT_MS = 15_000
TUTORIALS = ("pacal", "pacal-solo", "temple", "mahjongg")
# A tile may lie partly under a higher one (drawn up and to the left): click its left edge.
VISIBLE_EDGE = {"x": 6, "y": 30}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PageServer]:
    running = PageServer(f"sqlite:///{tmp_path_factory.mktemp('tutorial') / 'rooms.db'}")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


def open_page(browser: Any, server: PageServer, lang: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    if lang != "en":
        context.add_cookies([{"name": "pyramids_lang", "value": lang, "url": server.base}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.fixture
def pages(browser: Any, server: PageServer) -> Iterator[Any]:
    """open(lang) -> a page in a fresh browser context; no JavaScript error may happen."""
    opened: list[tuple[Any, list[str]]] = []

    def open_in(lang: str) -> Any:
        context, page, errors = open_page(browser, server, lang)
        opened.append((context, errors))
        return page

    yield open_in
    for context, errors in opened:
        context.close()
        assert not errors, f"the page raised JavaScript errors: {errors}"


def screenshot(page: Any, name: str, full_page: bool = True) -> None:
    image = page.screenshot(full_page=full_page)
    assert image[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("PYRAMIDS_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / f"web-{name}.png").write_bytes(image)


def entries(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.entries || 0)"))


def wait_entries(page: Any, count: int) -> None:
    page.wait_for_function(
        "(n) => Number(document.body.dataset.entries) === n"
        " && document.body.dataset.busy !== 'true'",
        arg=count)


def legal_actions(page: Any) -> list[str]:
    return list(page.evaluate("JSON.parse(document.getElementById('game').dataset.legal || '[]')"))


def click_move(page: Any, move: str) -> None:
    """Make `move` by clicking what the renderer draws for it, as a player would."""
    verb, *args = move.split()
    if verb == "offer":
        for card in args:
            page.click(f".hand [data-card='{card}']")
        page.click("#offer-button")
    elif verb == "match":
        for tile in args:
            # The face, not the group: a highlighted tile's glow widens the group's box.
            page.click(f".tile[data-id='{tile}'] .tile-face", position=VISIBLE_EDGE)
    elif verb == "swap" and args != ["pass"]:
        page.click(f".hand [data-kind='{args[0]}']")
        page.click(f"[data-action='{move}']")
    elif verb == "place":
        page.click(f".field.legal[data-action='{move}']")
    else:
        page.click(f"[data-action='{move}']")


def follow_the_steps(page: Any, server: PageServer, game: str, lang: str) -> None:
    tutorial = tutorial_for(game)
    assert tutorial is not None
    page.goto(f"{server.base}/tutorial/{game}")
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.text_content("#tutorial-title") == _(tutorial.title, lang=lang)
    shown = False
    for number, step in enumerate(tutorial.steps, start=1):
        assert page.text_content("#say") == _(step.say, lang=lang), f"step {number}"
        assert page.text_content("#step-count") == _("Step {step} of {steps}", lang=lang,
                                                      step=number, steps=len(tutorial.steps))
        if lang != "en":  # the step's words, the board's and the move log's, translated
            left = untranslated(page.evaluate(READ_TEXT))
            assert not left, f"step {number}: {left}"
        before = entries(page)
        if step.expect is None:
            assert page.is_visible("#next") and legal_actions(page) == []
            page.click("#next")
        else:
            assert not page.is_visible("#next") and step.expect in legal_actions(page)
            for word in step.highlight:
                if word.startswith(("tile:", "F")):
                    assert page.locator(".tutorial-highlight").count() >= 1, word
                if word.startswith("button:"):  # the button of the step's move, lit
                    lit = page.locator(f"button.tutorial-highlight[data-action='{word[7:]}']")
                    assert lit.count() == 1, (number, word)
            if not shown:  # the first taught move, its elements lit
                screenshot(page, f"tutorial-{game}{'' if lang == 'en' else '-' + lang}")
                shown = True
            click_move(page, step.expect)
        wait_entries(page, before + 1)
    assert page.get_attribute("body", "data-playing-on") == "true"


def play_to_the_end(page: Any) -> None:
    """After the steps: quick moves (pass, decline, the first lit field) until the game ends."""
    for _move in range(300):
        if page.get_attribute("body", "data-finished") == "true":
            return
        legal = legal_actions(page)
        assert legal, "the learner has a move until the end"
        quick = [move for move in legal if move in ("pass", "swap pass", "decline")]
        before = entries(page)
        click_move(page, quick[0] if quick else legal[0])
        wait_entries(page, before + 1)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("game", TUTORIALS)
def test_each_tutorial_is_followed_by_clicks(pages: Any, server: PageServer, game: str,
                                             lang: str) -> None:
    page = pages(lang)
    follow_the_steps(page, server, game, lang)
    if lang == "en" or game == "pacal-solo":
        play_to_the_end(page)
        page.wait_for_selector("#over:not([hidden])")
        assert page.text_content("#over h2") == _("Game over", lang=lang)
        assert page.locator("#over .outcome").count() >= 1
        if lang != "en":
            assert not untranslated(page.evaluate(READ_TEXT))


def test_a_wrong_click_shows_the_hint_and_keeps_the_step(pages: Any, server: PageServer) -> None:
    page = pages("ko")
    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None
    page.goto(f"{server.base}/tutorial/pacal-solo")
    page.wait_for_selector("body[data-ready='true']")
    page.click("#next")
    wait_entries(page, 1)
    step = tutorial.steps[1]
    assert step.expect == "place F2" and step.hint
    page.click(".field.legal[data-action='place F9']")
    page.wait_for_selector("#feedback.refused:not([hidden])")
    assert page.text_content("#feedback") == _(step.hint, lang="ko")
    assert entries(page) == 1 and page.text_content("#say") == _(step.say, lang="ko")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_learn_pages_render_and_link_their_tutorial(pages: Any, server: PageServer,
                                                   lang: str) -> None:
    page = pages(lang)
    for game in TUTORIALS:
        page.goto(f"{server.base}/learn/{game}")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("main.learn-page h2").count() >= 1
        link = page.locator(f"a.tutorial-link[href='/tutorial/{game}']")
        assert link.text_content() == _("Try the tutorial", lang=lang)
        # The top of the page: the long rules below would only weigh. Pacal solo has a
        # page of its own (no longer the Pacal page again).
        screenshot(page, f"learn-{game}{'' if lang == 'en' else '-' + lang}", full_page=False)
    page.goto(f"{server.base}/tutorial")
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("#tutorial-list a").count() == len(TUTORIALS)
    assert page.text_content("#index-title") == _("Tutorials", lang=lang)


def test_the_language_choice_is_remembered_across_pages(pages: Any, server: PageServer) -> None:
    page = pages("en")
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.text_content("#create-title") == "New room"
    page.click("nav.language-switch a[hreflang=ko]")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_selector("body[data-ready='true']")
    assert page.text_content("#create-title") == _("New room", lang="ko")
    assert page.text_content("#tutorials-link") == _("Try a tutorial", lang="ko")
    page.click("#tutorials-link")
    page.wait_for_selector("body[data-ready='true']")
    assert page.text_content("#index-title") == _("Tutorials", lang="ko")
    page.goto(server.base + "/learn/temple")
    assert page.locator("html").get_attribute("lang") == "ko"
    # English chosen on a learn page holds on the lobby and the tutorials too.
    page.click("nav.languages a[hreflang='en']")
    page.wait_for_url("**/learn/temple?lang=en")
    assert page.locator("html").get_attribute("lang") == "en"
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.text_content("#create-title") == "New room"
    page.goto(server.base + "/tutorial/temple")
    page.wait_for_selector("body[data-ready='true']")
    assert page.text_content("#next") == "Next"


def press_until_focused(page: Any, key: str, target: str, most: int = 250) -> None:
    """Press `key` until the element matching `target` has the keyboard."""
    for _press in range(most):
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", target):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {target}")


MOVE_KEYS = {"sight": "r"}


@pytest.mark.parametrize("game", ["mahjongg", "pacal", "pacal-solo"])
def test_a_tutorial_is_followed_by_keyboard_alone(pages: Any, server: PageServer,
                                                  game: str) -> None:
    """Tab to Next, Enter; on a step that asks for a move the keyboard is already on what
    it points at, the arrows reach the rest, Enter chooses, and the game's letter keys
    work (O offers, R is Ra Sight) as in a room. Before, no board item could be reached."""
    page = pages("en")
    tutorial = tutorial_for(game)
    assert tutorial is not None
    page.goto(f"{server.base}/tutorial/{game}")
    page.wait_for_selector("body[data-ready='true']")
    for number, step in enumerate(tutorial.steps, start=1):
        before = entries(page)
        if step.expect is None:
            press_until_focused(page, "Tab", "#next", most=40)
            page.keyboard.press("Enter")
            wait_entries(page, before + 1)
            continue
        verb, *args = step.expect.split()
        if verb in MOVE_KEYS:
            page.keyboard.press(MOVE_KEYS[verb])
        else:
            keys = {"match": "tile-{}", "offer": "hand-{}", "pick": "pick-{}",
                    "place": "field-0-{}"}[verb]
            targets = [keys.format(arg.removeprefix("F")) for arg in args]
            focused = page.evaluate("document.activeElement.dataset.key || ''")
            assert focused in targets, f"step {number}: the keyboard is on {focused!r}"
            for target in sorted(targets, key=lambda key: key != focused):
                press_until_focused(page, "ArrowRight", f"#game [data-key='{target}']")
                page.keyboard.press("Enter")
            if verb == "offer":
                page.keyboard.press("o")
        wait_entries(page, before + 1)
    assert page.get_attribute("body", "data-playing-on") == "true"


def test_the_pages_choose_korean_particles_as_the_server_does(pages: Any,
                                                              server: PageServer) -> None:
    from pyramids.play.i18n import korean_particles

    page = pages("ko")
    page.goto(f"{server.base}/tutorial")
    page.wait_for_selector("body[data-ready='true']")
    written = ["2번 자리: 15와(과) 42을(를) 내놓았습니다.", "카드이(가)", "보석이(가)",
               "'37'을(를)", "1,000을(를)", "서울(으)로 집(으)로", "offer이(가)", "7은(는)"]
    read = page.evaluate(
        "async (texts) => { const m = await import('/static/common.js');"
        " return texts.map((text) => m.koreanParticles(text)); }", written)
    assert read == [korean_particles(text) for text in written]
    assert read[0] == "2번 자리: 15와 42를 내놓았습니다."


def focused_key(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.key || null")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_temple_step_that_says_pass_has_the_keyboard_on_pass(
        pages: Any, server: PageServer, lang: str) -> None:
    """Step 3 of the Temple tutorial says "Pass too": Pass is the one lit button and has
    the keyboard (it stayed on the swap zone's slot, Tab's next stop Summon), and Enter
    there passes and goes on; each later step that names its button (keep my hand,
    summon, set, pass after Next) has the keyboard on it, and Enter plays it."""
    tutorial = tutorial_for("temple")
    assert tutorial is not None
    page = pages(lang)
    page.goto(f"{server.base}/tutorial/temple")
    page.wait_for_selector("body[data-ready='true']")
    page.click("#next")
    wait_entries(page, 1)
    click_move(page, "swap L9 4")
    wait_entries(page, 2)
    assert page.text_content("#say") == _(tutorial.steps[2].say, lang=lang)
    lit = page.locator("button.tutorial-highlight")
    assert lit.count() == 1 and lit.get_attribute("data-action") == "pass"
    assert lit.text_content() == _("Pass", lang=lang)
    assert page.locator("button[data-action='summon']").count() == 1  # there, not lit
    assert focused_key(page) == "pass"
    page.keyboard.press("Enter")
    wait_entries(page, 3)
    assert page.get_attribute("body", "data-step") == "4"
    assert focused_key(page) == "swap-pass"
    page.keyboard.press("Enter")
    wait_entries(page, 4)
    assert focused_key(page) == "summon"
    page.keyboard.press("Enter")
    wait_entries(page, 5)
    assert focused_key(page) == "set 1 1"
    page.keyboard.press("Enter")
    wait_entries(page, 6)
    assert page.get_attribute("body", "data-step") == "7"
    page.click("#next")  # a step to read, then one that says Pass: the keyboard on it
    wait_entries(page, 7)
    assert page.text_content("#say") == _(tutorial.steps[7].say, lang=lang)
    assert focused_key(page) == "pass"
    page.keyboard.press("Enter")
    wait_entries(page, 8)
    assert page.get_attribute("body", "data-step") == "9"
    assert page.get_attribute("body", "data-entries") == "8"


def test_start_the_tutorial_again_keeps_the_keyboard_on_the_lesson(
        pages: Any, server: PageServer) -> None:
    """Enter on "Start the tutorial again" at the game's end: the end's box goes, and the
    keyboard, which was on its button, fell to the page's start (document.body); it goes
    to the first step's Next, as after any Next."""
    tutorial = tutorial_for("pacal-solo")
    assert tutorial is not None and tutorial.steps[0].expect is None
    page = pages("en")
    follow_the_steps(page, server, "pacal-solo", "en")
    play_to_the_end(page)
    press_until_focused(page, "Tab", "#again", most=80)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.finished === 'false'"
                           " && document.body.dataset.busy === 'false'")
    assert page.get_attribute("body", "data-step") == "1"
    assert page.evaluate("document.activeElement.id") == "next"
    page.keyboard.press("Enter")
    wait_entries(page, 1)
    assert page.get_attribute("body", "data-step") == "2"


def test_clearing_the_tutorials_monument_leaves_the_keyboard_on_start_again(
        pages: Any, server: PageServer) -> None:
    """The last tiles went with the keyboard on one of them and the board had no item
    left to take it: the keyboard fell to the page's start at the lesson's best end."""
    page = pages("en")
    follow_the_steps(page, server, "mahjongg", "en")
    while page.get_attribute("body", "data-finished") != "true":
        before = entries(page)
        legal = legal_actions(page)
        if "finish" in legal:
            assert page.evaluate("!!document.activeElement.closest('svg.board')")
            page.keyboard.press("f")
            wait_entries(page, before + 1)
            continue
        hinted = [int(tile) for tile in page.eval_on_selector_all(
            ".tile.hinted", "nodes => nodes.map(n => n.dataset.id)")]
        if len(hinted) < 2:
            page.keyboard.press("h")
            wait_entries(page, before + 1)
            continue
        for tile in hinted[:2]:
            if not page.evaluate("!!document.activeElement.closest('svg.board')"):
                press_until_focused(page, "Tab", "#game [data-nav][tabindex='0']", most=80)
            press_until_focused(page, "ArrowRight", f"#game .tile[data-id='{tile}']")
            page.keyboard.press("Enter")
        wait_entries(page, before + 1)
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#game [data-nav]").count() == 0
    assert page.evaluate("document.activeElement.id") == "again"


# The text a screen reader reads in an element: its text less what is aria-hidden.
SPOKEN = """(node) => {
  const walk = (el) => [...el.childNodes].map((child) => child.nodeType === Node.TEXT_NODE
    ? child.textContent : child.getAttribute && child.getAttribute("aria-hidden") === "true"
      ? "" : walk(child)).join("");
  return walk(node);
}"""


def at_temple_step(page: Any, server: PageServer, entries_kept: list[str | None]) -> None:
    """The Temple tutorial opened at the step these kept entries lead to (as a reload does)."""
    page.goto(f"{server.base}/tutorial/temple")
    page.wait_for_selector("body[data-ready='true']")
    page.evaluate("(moves) => sessionStorage.setItem('pyramids.tutorial.temple',"
                  " JSON.stringify(moves))", entries_kept)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    wait_entries(page, len(entries_kept))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_temple_card_counts_are_read_in_words(pages: Any, server: PageServer, lang: str) -> None:
    """The players' known cards and the discard line show "L1×1 L6×1" to the eye; a
    screen reader read that as "L1 times 1 L6 times 1" and now reads the catalogue's
    words, "1 level-1 card, 1 level-6 card", in the page's language."""
    def cards(count: int, level: int) -> str:
        return ngettext("{count} level-{level} card", "{count} level-{level} cards", count,
                        lang=lang, level=level)

    def jewels(count: int) -> str:
        return ngettext("{count} jewel", "{count} jewels", count, lang=lang)

    page = pages(lang)
    # Step 5: seat 3 took an L1 and an L6 from the swap zone, in everyone's sight.
    at_temple_step(page, server, [None, "swap L9 4", "pass", "swap pass"])
    assert page.get_attribute("body", "data-step") == "5"
    known = page.locator("table.players tbody tr[data-seat='2'] td").nth(3)
    words = f"{cards(1, 1)}, {cards(1, 6)}"
    assert known.evaluate(SPOKEN) == words
    assert known.locator("[aria-hidden='true']").text_content() == "L1×1 L6×1"
    assert page.get_by_role("cell", name=words, exact=True).count() == 1
    assert "×" not in page.locator("table.players tbody").evaluate(SPOKEN)
    # Step 7: level 1 built, its cards (four L1 and a jewel pair) on the discard pile.
    at_temple_step(page, server, [None, "swap L9 4", "pass", "swap pass", "summon", "set 1 1"])
    assert page.get_attribute("body", "data-step") == "7"
    none = _("none", lang=lang)
    mine = page.locator("table.players tbody tr[data-seat='0'] td").nth(3)
    assert mine.locator("[aria-hidden='true']").text_content() == "–"
    assert page.get_by_role("cell", name=none, exact=True).count() >= 1
    line = page.locator(".temple-discard")
    assert line.locator("[aria-hidden='true']").text_content() == _(
        "Discard: {discard} · out of the game: {out}", lang=lang, discard="L1×4 J×2", out=none)
    assert line.evaluate(SPOKEN) == _(
        "Discard: {discard} · out of the game: {out}", lang=lang,
        discard=f"{cards(4, 1)}, {jewels(2)}", out=none)
    if lang == "ko":
        assert "레벨 1 카드 4장" in line.evaluate(SPOKEN)
