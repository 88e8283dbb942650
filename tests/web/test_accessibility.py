"""Every player can play: the games by keyboard alone, what screen readers hear, the
display options, and an axe-core audit of every page in both languages and both themes.

Runs the real server and Debian's Chromium as tests/web/test_browser.py does (its
fixtures are reused). No test here clicks: rooms are made through the page's own
`createRoom` and every move is a key press. With PYRAMIDS_SCREENSHOTS=1 the screenshots
docs/screenshots/web-contrast.png and web-large.png are refreshed.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

import pytest

from tests.web import test_browser as _browser_tests
from tests.web.test_browser import (
    SCREENSHOTS,
    PageServer,
    finished,
    legal_actions,
    move_number,
    wait_turn_or_end,
)

# The real server with its pages, Chromium and a fresh page: test_browser.py's fixtures.
server = _browser_tests.server
browser = _browser_tests.browser
page = _browser_tests.page

axe_playwright = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="needs axe-playwright-python (pip install -e '.[dev]')",
)

pytestmark = [pytest.mark.browser]

KEY_LIMIT = 250


# -- driving the pages by keyboard --------------------------------------------------------


def start_room(page: Any, server: PageServer, game: str, options: dict[str, Any],
               seats: list[dict[str, str]], name: str = "Ada") -> str:
    """Create a room with the page's own code (no form, no click) and open it."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    room = str(page.evaluate(
        "async (setup) => (await import('/static/setup.js')).createRoom(setup)",
        {"game": game, "options": options, "seats": seats, "bot_delay_seconds": 0,
         "name": name},
    ))
    page.goto(f"{server.base}/play/{room}")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    return room


def focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate(
        "(sel) => { const a = document.activeElement; return !!a && a.matches(sel); }", selector
    ))


def press_until(page: Any, key: str, selector: str, limit: int = KEY_LIMIT) -> None:
    """Press `key` until the focused element matches `selector`."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {selector}")


def into_board(page: Any) -> None:
    """Tab from wherever the focus is to the board's one tab stop."""
    if not focused(page, "[data-nav]"):
        press_until(page, "Tab", "svg.board [data-nav]", limit=80)


def choose(page: Any, selector: str) -> None:
    """Move along the board with the right arrow to `selector`, then press Enter."""
    into_board(page)
    press_until(page, "ArrowRight", selector)
    page.keyboard.press("Enter")


def wait_move(page: Any, before: int) -> None:
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)


def tile_ids(page: Any, selector: str) -> list[int]:
    ids: list[int] = page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => Number(n.dataset.id))"
    )
    return ids


def announcements(page: Any) -> list[str]:
    lines: list[str] = page.eval_on_selector_all(
        "#announcer p", "nodes => nodes.map(n => n.textContent)"
    )
    return lines


# -- Mahjongg -------------------------------------------------------------------------------


def test_mahjongg_giza_step_ramp_is_cleared_by_keyboard_alone(
    page: Any, server: PageServer
) -> None:
    start_room(page, server, "mahjongg", {"layout": "giza-step-ramp"}, [{"kind": "me"}])
    page.wait_for_selector("svg.board .tile")
    assert page.locator(".tile").count() == 72
    # One tab stop on the board; every free tile is named with its face, state and layer.
    into_board(page)
    assert page.locator("svg.board [data-nav][tabindex='0']").count() == 1
    names = page.eval_on_selector_all(
        ".tile[data-free='true']", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    assert names and all(re.fullmatch(r".+, free, layer \d(, .+)?", name) for name in names)
    assert not any(re.search(r"\btile \d", name) for name in names), "no tile ids read out"
    assert page.locator(".tile.blocked[data-nav]").count() == 0, "blocked tiles are not stops"
    text = page.inner_text("#board-text")
    assert "Free tiles by row" in text
    shortcuts = page.inner_text("#shortcuts")
    assert "Hint" in shortcuts and "Ra Sight" in shortcuts and "Esc" in shortcuts

    escaped = False
    while not finished(page):
        before = move_number(page)
        legal = legal_actions(page)
        if "finish" in legal:
            page.keyboard.press("f")
            wait_move(page, before)
            continue
        if len(tile_ids(page, ".tile.hinted")) < 2:
            page.keyboard.press("h")
            wait_move(page, before)
            before = move_number(page)
        first, second = tile_ids(page, ".tile.hinted")[:2]
        choose(page, f".tile[data-id='{first}']")
        page.wait_for_selector(f".tile.selected[data-id='{first}']")
        assert page.get_attribute(f".tile[data-id='{first}']", "aria-pressed") == "true"
        if not escaped:
            # Escape drops the chosen tile; choose it again.
            page.keyboard.press("Escape")
            page.wait_for_selector(".tile.selected", state="detached")
            page.keyboard.press("Enter")
            page.wait_for_selector(f".tile.selected[data-id='{first}']")
            escaped = True
        choose(page, f".tile[data-id='{second}']")
        wait_move(page, before)
    page.wait_for_selector("#over:not([hidden])")
    assert "The monument is cleared!" in page.inner_text("#over")


# -- Pacal ------------------------------------------------------------------------------------


def pacal_key_move(page: Any) -> str:
    """One move by keys: arrows to a card or field, Enter; O offers, D declines."""
    legal = legal_actions(page)
    assert legal, "the page shows no legal action on our turn"
    offers = [action for action in legal if action.startswith("offer ")]
    if offers:
        _, low, high = offers[len(offers) // 2].split()
        for chosen in (low, high):
            choose(page, f".hand [data-card='{chosen}']")
            page.wait_for_selector(f".hand .selected[data-card='{chosen}']")
        assert page.get_attribute(f".hand [data-card='{low}']", "aria-pressed") == "true"
        page.keyboard.press("o")
        return f"offer {low} {high}"
    picks = [action for action in legal if action.startswith("pick ")]
    if picks:
        choose(page, f"[data-action='{picks[0]}']")
        return picks[0]
    places = [action for action in legal if action.startswith("place ")]
    if places:
        card = int(page.get_attribute(".to-place", "data-card") or "0")
        best = min(places, key=lambda action: abs(card - (52.5 - 5 * int(action[7:]))))
        choose(page, f".field.legal[data-action='{best}']")
        return best
    assert "decline" in legal
    page.keyboard.press("d")
    return "decline"


def test_a_pacal_match_is_played_by_keyboard_alone_and_the_bot_is_announced(
    page: Any, server: PageServer
) -> None:
    """A whole match (first to one round) against a bot, every move by keys."""
    start_room(page, server, "pacal", {"rounds_to_win": 1, "max_rounds": 2},
               [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    wait_turn_or_end(page, -1)
    # Every field of both pyramids is a stop on the board, named with its state.
    assert page.locator(".field[data-nav]").count() == 20
    label = page.get_attribute(".pyramid[data-owner='1'] .field[data-field='4']", "aria-label")
    assert label == "F4: empty"
    hand = page.get_attribute(".hand", "aria-label") or ""
    assert re.fullmatch(r"your hand: \d+(, \d+)+", hand)
    into_board(page)
    heard: list[str] = []
    while not finished(page):
        before = move_number(page)
        made = pacal_key_move(page)
        wait_turn_or_end(page, before)
        said = announcements(page)
        if made.startswith("offer ") and not heard and not finished(page):
            # The bot picked one of our two cards: the live region says which.
            _, low, high = made.split()
            heard = said
            assert any(re.fullmatch(rf"Greedy rule \(bot\): picks ({low}|{high})", line)
                       for line in said), said
    assert heard, "the bot's pick of our offer was announced"
    page.wait_for_selector("#over:not([hidden])")
    outcome = page.inner_text("#over")
    # The bot's win in the third person, the reader's own in the second.
    assert re.search(r"Greedy rule \(bot\) wins the match \d–\d\.|You win the match \d–\d\."
                     r"|The match is drawn\.", outcome), outcome
    assert "(you)" not in outcome.split(".")[0]
    page.wait_for_function(
        "() => [...document.querySelectorAll('#announcer p')]"
        ".some(p => p.textContent.startsWith('Game over.'))"
    )


def test_pacal_solo_names_its_table_and_its_pyramid_apart(page: Any, server: PageServer) -> None:
    """The solo board and the pyramid in it were both groups named "Your pyramid": a
    screen reader said the name twice on the way in, the table's parts unnamed."""
    start_room(page, server, "pacal-solo", {}, [{"kind": "me"}])
    tree = page.locator("#game").aria_snapshot()
    assert tree.count('group "Your pyramid"') == 1, tree
    assert 'group "Pacal table"' in tree


def test_enter_on_a_watchers_board_says_they_are_watching(
    page: Any, browser: Any, server: PageServer
) -> None:
    """A watcher walks the board by keyboard as a player does; Enter on a card said "It
    is not your turn.", as if their turn would come."""
    room = start_room(page, server, "pacal", {},
                      [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    context = browser.new_context()
    try:
        watcher = context.new_page()
        watcher.goto(f"{server.base}/play/{room}")
        watcher.wait_for_selector("#game:not([hidden]) svg.board")
        watcher.wait_for_selector("#spectating")
        into_board(watcher)
        watcher.keyboard.press("Enter")
        watcher.wait_for_selector("#message:not([hidden])")
        assert watcher.inner_text("#message") == "You are watching this game."
    finally:
        context.close()


# -- Temple ----------------------------------------------------------------------------------


def test_a_temple_round_is_played_by_keyboard_alone(page: Any, server: PageServer) -> None:
    start_room(page, server, "temple", {"players": 2, "max_rounds": 1},
               [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    wait_turn_or_end(page, -1)
    into_board(page)
    swapped = False
    deadline = time.monotonic() + 60
    while not finished(page):
        assert time.monotonic() < deadline, "the Temple round did not end"
        before = move_number(page)
        legal = legal_actions(page)
        swaps = [action for action in legal if action.startswith("swap ") and action != "swap pass"]
        if swaps and not swapped:
            _, kind, slot = swaps[0].split()
            choose(page, f".hand [data-kind='{kind}']")
            page.wait_for_selector(f".hand .selected[data-kind='{kind}']")
            choose(page, f".swap-zone [data-action='swap {kind} {slot}']")
            swapped = True
        elif "swap pass" in legal:
            page.keyboard.press("k")
        elif "summon" in legal:
            page.keyboard.press("s")
        else:
            sets = [action for action in legal if action.startswith("set ")]
            if sets:
                best = max(sets, key=lambda action: sum(int(n) for n in action.split()[1:]))
                press_until(page, "Tab", f"[data-action='{best}']", limit=80)
                page.keyboard.press("Enter")
            else:
                assert "pass" in legal, legal
                page.keyboard.press("p")
        wait_turn_or_end(page, before)
    assert swapped
    page.wait_for_selector("#over:not([hidden])")
    assert "Scores (treasure + jewels)" in page.inner_text("#over")
    said = " ".join(announcements(page))
    assert "Greedy rule (bot): " in said or "Game over." in said


# -- the axe-core audit ----------------------------------------------------------------------

SERIOUS = {"serious", "critical"}


def serious_violations(page: Any, where: str) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands."""
    results = axe_playwright.Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [node["target"] for node in violation["nodes"][:4]]
            found.append(f"{where}: {violation['id']} ({violation['impact']}) "
                         f"{violation['help']}: {targets}")
    return found


@pytest.fixture
def themed(browser: Any, server: PageServer, request: pytest.FixtureRequest) -> Any:
    """A page in the requested language and theme, as a player who chose them sees it."""
    lang, theme = request.param
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.add_cookies([{"name": "pyramids_lang", "value": lang, "url": server.base}])
    settings = json.dumps({"contrast": theme == "contrast"})
    context.add_init_script(
        f"try {{ localStorage.setItem('pyramids.lang', '{lang}');"
        f" localStorage.setItem('pyramids.display', '{settings}'); }} catch (e) {{}}"
    )
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened, lang, theme
    context.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


@pytest.mark.parametrize(
    "themed",
    [("en", "plain"), ("en", "contrast"), ("ko", "plain"), ("ko", "contrast")],
    indirect=True, ids=["en-plain", "en-contrast", "ko-plain", "ko-contrast"],
)
def test_axe_finds_no_serious_violation_on_any_page(themed: Any, server: PageServer) -> None:
    page, lang, theme = themed
    found: list[str] = []
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == lang
    contrast = page.evaluate("document.body.classList.contains('theme-contrast')")
    assert contrast == (theme == "contrast")
    found += serious_violations(page, "lobby")
    page.click("#display-options summary")
    found += serious_violations(page, "lobby with the display menu open")

    games: list[tuple[str, dict[str, Any], list[dict[str, str]]]] = [
        ("pacal", {"rounds_to_win": 1}, [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}]),
        ("temple", {"players": 2}, [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}]),
        ("mahjongg", {"layout": "giza-step-ramp"}, [{"kind": "me"}]),
    ]
    for game, options, seats in games:
        start_room(page, server, game, options, seats)
        wait_turn_or_end(page, -1)
        found += serious_violations(page, f"{game} in play")
    # The end of the game: give up the Mahjongg game (the last room) by keyboard.
    page.focus("[data-action='pass']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#over:not([hidden])")
    found += serious_violations(page, "end of game")

    for path in ["/learn", "/learn/pacal", "/learn/temple", "/learn/mahjongg"]:
        page.goto(server.base + path)
        if theme == "contrast":
            page.evaluate("document.body.classList.add('theme-contrast')")
        found += serious_violations(page, path)
    for path in ["/account", "/leaderboard"]:
        page.goto(server.base + path)
        page.wait_for_selector("body[data-ready=true]")
        found += serious_violations(page, path)
    assert not found, "\n".join(found)


# -- display options ---------------------------------------------------------------------------


def shoot(page: Any, name: str) -> None:
    image = page.screenshot(full_page=True)
    assert image[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("PYRAMIDS_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / f"web-{name}.png").write_bytes(image)


def test_display_options_are_remembered_and_change_the_boards(
    page: Any, server: PageServer
) -> None:
    start_room(page, server, "pacal", {"rounds_to_win": 1},
               [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    wait_turn_or_end(page, -1)
    width_before = page.locator("svg.board").bounding_box()["width"]
    page.click("#display-options summary")
    page.check("#display-contrast")
    assert page.evaluate("document.body.classList.contains('theme-contrast')")
    face = page.eval_on_selector(".card-face", "node => getComputedStyle(node).fill")
    assert face == "rgb(255, 255, 255)", "cards are plain white in high contrast"
    page.click("#display-options summary")
    page.reload()
    page.wait_for_selector("#game:not([hidden]) svg.board")
    assert page.evaluate("document.body.classList.contains('theme-contrast')"), "remembered"
    assert page.is_checked("#display-contrast")
    shoot(page, "contrast-pacal")

    start_room(page, server, "mahjongg", {"layout": "giza-step-ramp"}, [{"kind": "me"}])
    page.keyboard.press("h")
    page.wait_for_selector(".tile.hinted")
    # The hinted pair is said in words, on the page and to a screen reader.
    page.wait_for_selector("#hint-pair")
    said = page.inner_text("#hint-pair")
    assert said.startswith("Hint: match ") and "(layer " in said
    assert said in page.inner_text("#announcer")
    shoot(page, "contrast-mahjongg")

    page.click("#display-options summary")
    page.uncheck("#display-contrast")
    page.check("#display-large")
    page.check("#display-reduce")
    page.click("#display-options summary")
    assert "large" in page.evaluate("document.body.className").split()
    large = page.eval_on_selector(".tile-label", "node => getComputedStyle(node).fontSize")
    assert large == "19px"
    transition = page.eval_on_selector(".turn", "node => getComputedStyle(node).transitionDuration")
    assert transition in ("0s", "0s, 0s"), "no motion when reduced motion is chosen"
    assert page.locator("svg.board").bounding_box()["width"] >= width_before
    shoot(page, "large-mahjongg")


def test_large_tiles_on_a_phone_keep_a_fingers_width_and_scroll_sideways(
    browser: Any, server: PageServer
) -> None:
    """On a phone a Mahjongg tile was about 24 by 30 px, under a finger's width, even
    with "Large tiles and cards": now large tiles keep their drawn size (44 px wide) and
    the board scrolls sideways, inside its box; the page itself does not."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    start_room(phone, server, "mahjongg", {"layout": "turtle"}, [{"kind": "me"}])
    small = phone.locator(".tile").first.bounding_box()
    assert small is not None and small["width"] < 40  # fitted to the screen by default
    phone.click("#display-options summary")
    phone.check("#display-large")
    tile = phone.locator(".tile").first.bounding_box()
    assert tile is not None and tile["width"] >= 40, tile
    scroll = phone.eval_on_selector(".board-scroll", "n => [n.scrollWidth, n.clientWidth]")
    assert scroll[0] > scroll[1], "the board scrolls sideways in its box"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
