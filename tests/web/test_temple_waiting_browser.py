"""What a walk through Temple of Inscriptions in the browser found, in a real Chromium
(Debian's), on a desktop by keyboard and a phone by touch, in English and Korean.

Keep my hand, Summon and Pass were left off the page while another seat was to move:
the bar of buttons came and went, and their keys K, S and P said nothing. Now, as the
Mahjongg favors and Pacal's Offer, the buttons of the phase stay in sight, dimmed and
marked `aria-disabled` (in the Tab order), say whose turn it is on hover, to a screen
reader, and in the alert line on a click, a tap, Enter or their key, and send nothing.
Off their phase, the keys say when they may be used.

Also: the live region tells how a round ended and what this seat drew; the players
table fits a phone's replay of five seats; the learn page names the options and bots
as the lobby does; on a phone the alert line stays in sight while shown.
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from typing import Any

import pytest

from pyramids.play.i18n import _
from tests.web.test_accessibility import press_until
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    PageServer,
    browser,
    create_from_lobby,
    legal_actions,
    move_number,
    pytestmark,
    server,
    wait_turn_or_end,
)
from tests.web.test_browser_walk6 import opened
from tests.web.test_unavailable_browser import moves_sent, quiet, said, spy_on_moves


def _turn(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.yourTurn === 'true'"))


def _phase(page: Any) -> str:
    legal = legal_actions(page)
    return "summon" if "summon" in legal else "swap" if "swap pass" in legal else "other"


def _to_mover(pages: list[Any]) -> tuple[Any, Any]:
    """Wait until one of the two pages is to move: (that page, the other)."""
    for _try in range(400):
        for index, page in enumerate(pages):
            if _turn(page) and legal_actions(page):
                other = pages[1 - index]
                other.wait_for_function(
                    "(n) => Number(document.body.dataset.moveNumber) >= n",
                    arg=move_number(page))
                return page, other
        pages[0].wait_for_timeout(30)
    raise AssertionError("neither seat came to move")


def _check_waiting(waiter: Any, mover_name: str, lang: str, phase: str, touch: bool) -> None:
    """The waiting page's buttons of `phase`: dimmed, their reason said every way."""
    why = _("It is {name}'s turn.", lang=lang, name=mover_name)
    keys = {"swap": ["swap-pass"], "summon": ["summon", "pass"]}[phase]
    for key in keys:
        button = waiter.locator(f"#game button[data-key='{key}']")
        button.wait_for()
        assert button.get_attribute("aria-disabled") == "true"
        assert button.get_attribute("disabled") is None
        assert button.get_attribute("data-action") is None
        assert button.get_attribute("title") == why
        assert button.get_attribute("aria-description") == why
        assert float(button.evaluate("(node) => getComputedStyle(node).opacity")) < 1
        quiet(waiter)
        if touch:
            button.tap(force=True)  # forced: Playwright waits for an aria-disabled item
        else:
            button.click(force=True)
        assert said(waiter) == why
    # The keyboard: Tab reaches the dimmed button (in the Tab order); Enter says why.
    waiter.evaluate("document.activeElement && document.activeElement.blur()")
    press_until(waiter, "Tab", f"#game button[data-key='{keys[0]}']", limit=80)
    quiet(waiter)
    waiter.keyboard.press("Enter")
    assert said(waiter) == why
    # Its key says why too (it said nothing).
    waiter.evaluate("document.activeElement && document.activeElement.blur()")
    for letter in {"swap": "k", "summon": "sp"}[phase]:
        quiet(waiter)
        waiter.keyboard.press(letter)
        assert said(waiter) == why


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_temple_s_buttons_stay_dimmed_and_say_whose_turn_it_is(
    browser: Any, server: PageServer, lang: str
) -> None:
    ada = opened(browser, server, lang)
    room = create_from_lobby(ada, server, "temple", {"players": 2}, ["me", "open"], name="Ada")
    bea = opened(browser, server, lang, size="phone", touch=True)
    bea.goto(f"{server.base}/play/{room}")
    bea.wait_for_selector("[data-take-seat='1']")
    bea.fill("#seat-name", "Bea")
    bea.click("[data-take-seat='1']")
    bea.wait_for_selector("body[data-seat='1']")
    ada.wait_for_selector("#start:not([aria-disabled])")
    ada.click("#start")
    for page in (ada, bea):
        page.wait_for_selector("#game:not([hidden]) svg.board")
        spy_on_moves(page)
    names = {id(ada): "Ada", id(bea): "Bea"}
    checked: set[str] = set()
    for _move in range(40):
        mover, waiter = _to_mover([ada, bea])
        phase = _phase(mover)
        if phase in ("swap", "summon") and phase not in checked:
            sent = len(moves_sent(waiter))
            before = move_number(waiter)
            _check_waiting(waiter, names[id(mover)], lang, phase, touch=waiter is bea)
            waiter.wait_for_timeout(200)
            assert len(moves_sent(waiter)) == sent, "a dimmed button sends no move"
            assert move_number(waiter) == before
            checked.add(phase)
        if phase == "summon":
            # On this seat's turn to summon, K (keep the hand) says when it may be used.
            mover.evaluate("document.activeElement && document.activeElement.blur()")
            quiet(mover)
            mover.keyboard.press("k")
            assert said(mover) == _("You can keep your hand only on your turn to swap.",
                                    lang=lang)
        if checked == {"swap", "summon"}:
            break
        # Move on: keep the hand in the swap, pass in the construction, set nothing.
        legal = legal_actions(mover)
        action = next(a for a in ("swap pass", "pass", "set 0 0") if a in legal)
        before = move_number(mover)
        mover.click(f"#game button[data-action='{action}']")
        mover.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                                arg=before)
    assert checked == {"swap", "summon"}
    for page in (ada, bea):
        assert not page.errors, page.errors
        page.context.close()


def _log_lines(page: Any) -> list[str]:
    lines: list[str] = page.evaluate(
        "[...document.querySelectorAll('#move-log-list .log-line')].map((n) => n.textContent)")
    return lines


def _heard(page: Any) -> list[str]:
    heard: list[str] = page.evaluate(
        "[...document.querySelectorAll('#announcer p')].map((n) => n.textContent)")
    return heard


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_screen_reader_hears_how_a_round_of_temple_ended_and_what_was_drawn(
    browser: Any, server: PageServer, lang: str
) -> None:
    """The live region said each move ("sets nothing") but not what it ended: a level
    built or a construction failed, the next round and who begins it, the cards this
    seat drew (the move log said them, out of the way). It says them now, in the move
    log's own words."""
    page = opened(browser, server, lang)
    create_from_lobby(page, server, "temple", {"players": 3},
                      ["me", "bot:greedy", "bot:greedy"], name="Ada")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    begins = _("Round {round} begins; first to play: {seat}.", lang=lang, round=2, seat="\0")
    prefix = begins.split("\0")[0]
    line = ""
    for _move in range(40):
        line = next((text for text in _heard(page) if prefix in text), "")
        if line:
            break
        wait_turn_or_end(page, -1)
        if page.evaluate("document.body.dataset.status === 'finished'"):
            break
        legal = legal_actions(page)
        # Summon level 1 and set into it what the buttons offer most: it is built or fails.
        sets = [a for a in legal if a.startswith("set ")]
        moves = sets[-1:] + [a for a in ("swap pass", "summon", "pass") if a in legal]
        action = moves[0]
        before = move_number(page)
        page.click(f"#game button[data-action='{action}']")
        page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
        page.wait_for_timeout(100)
    assert line, "the new round was never said"
    # Its sentences are the move log's: how level 1 ended, the round, the cards drawn.
    logged = _log_lines(page)
    ends = [_("Level {level} is built.", lang=lang, level=level) for level in range(1, 10)]
    ends += [_("The construction of level {level} failed: every card set goes back to its "
               "owner.", lang=lang, level=level) for level in range(1, 10)]
    # (A round whose last construction ended before everyone passed ends on no result.)
    ended = next((end for end in ends if line.startswith(end)), "")
    assert not ended or ended in logged
    rest = line[len(ended):].strip()
    round_line = next(text for text in logged if text.startswith(prefix))
    assert rest.startswith(round_line)
    drew = rest[len(round_line):].strip()
    assert drew.startswith(_("You drew {cards}.", lang=lang, cards="\0").split("\0")[0])
    assert drew in logged
    assert not page.errors, page.errors
    page.context.close()


def test_temple_s_players_table_fits_a_phone_s_replay_of_five_seats(
    browser: Any, server: PageServer
) -> None:
    """A phone's replay of a finished five-seat game: each seat's players table (five
    columns with Score) was wider than its board, and Score was cut off, to be scrolled
    to sideways; the phone's narrower cells never applied (a later rule overrode them)."""
    page = opened(browser, server, "en")
    room = create_from_lobby(page, server, "temple", {"players": 5, "max_rounds": 1},
                             ["me"] + ["bot:greedy"] * 4, name="Ada")
    page.wait_for_selector("#game:not([hidden]) svg.board")
    for _move in range(40):
        wait_turn_or_end(page, -1)
        if page.evaluate("document.body.dataset.status === 'finished'"):
            break
        legal = legal_actions(page)
        action = next(a for a in ("swap pass", "pass", "set 0 0") if a in legal)
        before = move_number(page)
        page.click(f"#game button[data-action='{action}']")
        page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
    assert page.evaluate("document.body.dataset.status") == "finished"
    page.context.close()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    replay = phone.new_page()
    replay.goto(f"{server.base}/replay/{room}")
    replay.wait_for_selector("table.players th:nth-child(5)")
    tables = replay.evaluate("""() => [...document.querySelectorAll('table.players')].map(
        (table) => [table.getBoundingClientRect().right,
                    table.parentElement.getBoundingClientRect().right])""")
    assert len(tables) == 5
    for right, room_right in tables:
        assert right <= room_right + 0.5, f"the table overflows its board: {right} > {room_right}"
    phone.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_temple_s_learn_page_names_each_option_as_the_lobby_s_form_does(
    browser: Any, server: PageServer, lang: str
) -> None:
    """The learn page listed the options by their code names (`swap_size`, `start_rule`
    with `leader_last`), which the lobby's form never shows (it says "Swap zone size",
    "Who starts each round", "The leader last"): a browser reader could not tell which
    field was meant. Each option and choice is now named as the form names it, the code
    name beside it for the terminal."""
    page = opened(browser, server, lang)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", "temple")
    page.wait_for_selector("body[data-options='temple']")
    fields = page.evaluate("""() => [...document.querySelectorAll('[id^="option-"]')].map(
        (field) => [field.name,
            field.closest('label').querySelector('.option-name').textContent.trim(),
            [...field.querySelectorAll('option')].map((o) => [o.value, o.textContent])])""")
    bots = page.evaluate("""() => [...document.querySelectorAll(
        "#seats select[data-seat='1'] option[value^='bot:']")].map(
        (option) => [option.value.slice(4), option.textContent])""")
    page.goto(f"{server.base}/learn/temple")
    # The computer players are named as the form's seats name them ("Bot: Greedy rule").
    said = page.evaluate("""() => [...document.querySelectorAll('main p code')]
        .filter((code) => !code.textContent.startsWith('pyramids '))
        .map((code) => {
            const range = document.createRange();
            range.setStart(code.closest('p'), 0);
            range.setEndBefore(code);
            return [code.textContent, range.toString().replace(/\\s+/g, ' ')];
        })""")
    named = {agent: words.split(": ", 1)[-1].split("：", 1)[-1] for agent, words in bots}
    told = [(agent, before) for agent, before in said if agent in named]
    assert {agent for agent, _before in told} >= {"greedy", "mcts"}
    for agent, before in told:
        assert before.endswith(f"{named[agent]} ("), (agent, named[agent], before[-60:])
    items = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('main li')]
        .filter((li) => li.querySelector('strong') && li.querySelector('code'))
        .map((li) => [li.querySelector('code').textContent,
                      li.textContent.replace(/\\s+/g, ' ')]))""")
    assert {name for name, _title, _choices in fields} <= set(items)
    for name, title, choices in fields:
        assert items[name].startswith(f"{title} ({name}"), (name, title, items[name])
        for value, words in choices:
            assert f"\u0022{words}\u0022 ({value})" in items[name], (value, words)
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_on_a_phone_the_reason_shows_where_the_player_is_scrolled_to(
    browser: Any, server: PageServer, lang: str
) -> None:
    """On a phone scrolled down to the hand, a tap on the dimmed Keep my hand said why in
    the alert line far above the board, out of sight: the tap seemed to do nothing. The
    line now stays in sight at the top of the screen while shown; a tap puts it away."""
    ada = opened(browser, server, lang)
    room = create_from_lobby(ada, server, "temple", {"players": 2}, ["me", "open"], name="Ada")
    bea = opened(browser, server, lang, size="phone", touch=True)
    bea.goto(f"{server.base}/play/{room}")
    bea.wait_for_selector("[data-take-seat='1']")
    bea.fill("#seat-name", "Bea")
    bea.click("[data-take-seat='1']")
    bea.wait_for_selector("body[data-seat='1']")
    ada.wait_for_selector("#start:not([aria-disabled])")
    ada.click("#start")
    mover, waiter = _to_mover([ada, bea])
    if mover is bea:  # Bea (the phone) keeps her hand first: then she waits for Ada's swap
        before = move_number(bea)
        bea.tap("#game button[data-action='swap pass']")
        bea.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n",
                              arg=before)
        mover, waiter = _to_mover([ada, bea])
    assert waiter is bea and _phase(ada) == "swap"
    name = "Ada"
    button = bea.locator("#game button[data-key='swap-pass'][aria-disabled='true']")
    button.wait_for()
    bea.locator("#game .hand").scroll_into_view_if_needed()
    bea.evaluate("window.scrollBy(0, 400)")
    button.tap(force=True)  # forced: Playwright waits for an aria-disabled item
    assert said(bea) == _("It is {name}'s turn.", lang=lang, name=name)
    top, bottom, height = bea.evaluate("""() => {
        const box = document.getElementById('message').getBoundingClientRect();
        return [box.top, box.bottom, innerHeight]; }""")
    assert bea.evaluate("scrollY") > 300, "the page is scrolled down to the hand"
    assert top >= 0 and bottom <= height, f"the reason is out of sight: {top}..{bottom}"
    bea.tap("#message")
    bea.wait_for_selector("#message", state="hidden")
    for page in (ada, bea):
        assert not page.errors, page.errors
        page.context.close()
