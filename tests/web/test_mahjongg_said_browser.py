"""What a screen reader hears of Mahjongg's glows and warnings, in English and Korean.

Ra Sight lights every pair of the turn, as a hint lights one; the hint's pair was said
in the live region and Ra Sight's pairs were not: a player on a screen reader paid a
token and heard nothing. The warning that the board can no longer be cleared was a
status region made anew at each drawing of the panel (each tile chosen, each Escape):
said at every redraw, or never. Each is now said once, when it comes.

Runs the real server and Debian's Chromium as tests/web/test_browser.py does (its
fixtures are reused); every move is a key press.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import pytest

from pyramids.core import load
from pyramids.play.i18n import _
from pyramids.play.session import new_session
from tests.web import test_browser as _browser_tests
from tests.web.test_accessibility import announcements, choose, into_board, start_room
from tests.web.test_browser import (
    PageServer,
    move_number,
    open_practice_deal,
    opened_page,
    wait_turn_or_end,
)

server = _browser_tests.server
browser = _browser_tests.browser

pytestmark = [pytest.mark.browser]

UNCLEARABLE = ("⚠ The board can no longer be cleared by matching alone: try a favor, undo, "
               "or give up.")


@pytest.fixture
def page_in(browser: Any, server: PageServer) -> Iterator[Any]:
    """page_in(lang) -> a fresh page in that language; none may raise."""
    with contextlib.ExitStack() as pages:
        yield lambda lang: pages.enter_context(opened_page(browser, server.base, lang=lang))


def said(page: Any, start: str) -> list[str]:
    return [line for line in announcements(page) if line.startswith(start)]


def redraw_by_keys(page: Any) -> None:
    """Choose the focused tile and drop it again: the panel is drawn twice."""
    into_board(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("svg.board .tile.selected")
    page.keyboard.press("Escape")
    page.wait_for_selector("svg.board .tile.selected", state="detached")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_ra_sight_says_its_pairs_once(page_in: Any, server: PageServer, lang: str) -> None:
    page = page_in(lang)
    start_room(page, server, "mahjongg", {"layout": "giza-step-ramp", "players": 2},
               [{"kind": "me"}, {"kind": "bot", "agent": "greedy"}])
    wait_turn_or_end(page, -1)
    into_board(page)
    page.keyboard.press("r")
    page.wait_for_selector("svg.board .tile.hinted")
    head = _("Ra Sight: {pairs}", lang=lang, pairs="")
    page.wait_for_function("(head) => [...document.querySelectorAll('#announcer p')]"
                           ".some((p) => p.textContent.startsWith(head))", arg=head)
    lines = said(page, head)
    assert len(lines) == 1, lines
    # Every lit tile is named in words, with its layer, as the hint's pair is.
    faces: list[str] = page.eval_on_selector_all(
        "svg.board .tile.hinted", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    for label in faces:
        face = label.split(",")[0].removeprefix(_("unselect {tile}", lang=lang, tile=""))
        assert face in lines[0], (face, lines[0])
    assert not re.search(r"\b\d+-\d+\b|tile-", lines[0])
    redraw_by_keys(page)
    assert said(page, head) == lines


def test_the_unclearable_warning_is_said_once(page_in: Any, server: PageServer) -> None:
    # The deal of the Pharaoh's Tomb number 7, where matching tiles 50 and 142 first
    # leaves a board no sequence of pairs clears (tests/tui/test_mahjongg_tui.py).
    session = new_session(load("mahjongg", layout="pharaohs-tomb"), ["human"], 7)
    spoiler = session.state.game.state_from_json(session.state.to_json())
    spoiler.apply_string("match 50 142")
    assert spoiler.view(0).get("unsolvable")
    page = page_in("ko")
    open_practice_deal(page, server.base, "pharaohs-tomb-7")
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    before = move_number(page)
    for tile in (50, 142):
        choose(page, f"svg.board .tile[data-id='{tile}']")
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
    warning = _(UNCLEARABLE, lang="ko")
    page.wait_for_function("(line) => document.getElementById('game').textContent.includes(line)",
                           arg=warning)
    page.wait_for_function("(line) => [...document.querySelectorAll('#announcer p')]"
                           ".some((p) => p.textContent === line)", arg=warning)
    redraw_by_keys(page)
    assert announcements(page).count(warning) == 1
    assert page.locator("#game [role=status]").count() == 0


def test_favor_keys_on_the_bots_turn_say_so_and_anubis_shift_says_what_to_choose(
    page_in: Any, server: PageServer
) -> None:
    """R, A or S while the other seat is to move did nothing and said nothing (a click
    on the same buttons said whose turn it is); A on one's own turn put Anubis Shift on
    and said nothing, the keyboard staying on a tile away from its button."""
    page = page_in("en")
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    # The bot moves first, after its thinking pause: the reader's keys come in it.
    room = page.evaluate(
        "async (setup) => (await import('/static/setup.js')).createRoom(setup)",
        {"game": "mahjongg", "options": {"layout": "giza-step-ramp", "players": 2},
         "seats": [{"kind": "bot", "agent": "greedy"}, {"kind": "me"}],
         "bot_delay_seconds": 8, "name": "Ada"})
    page.goto(f"{server.base}/play/{room}")
    page.wait_for_selector("#game:not([hidden]) svg.board .tile")
    into_board(page)
    for key in ("r", "a", "s"):
        page.evaluate("() => { document.getElementById('message').hidden = true; }")
        page.keyboard.press(key)
        page.wait_for_selector("#message:not([hidden])")
        assert page.get_attribute("body", "data-your-turn") == "false", "the bot was too quick"
        assert page.inner_text("#message") == "It is not your turn.", key
    assert move_number(page) == 0
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'", timeout=20_000)
    into_board(page)
    page.keyboard.press("a")
    page.wait_for_selector("[data-key='button-shift'][aria-pressed='true']")
    lift = "Anubis Shift: choose a blocked tile to lift."
    assert announcements(page).count(lift) == 1


READING_ORDER = """() => {
  const items = [...document.querySelectorAll('#game svg.board [data-nav]')];
  const order = (node) => node.dataset.order === undefined ? Infinity : Number(node.dataset.order);
  return items.map((node, index) => ({ node, index }))
    .sort((a, b) => order(a.node) - order(b.node) || a.index - b.index)
    .map(({ node }) => ({ key: node.dataset.key,
                          open: node.getAttribute('aria-disabled') !== 'true' }));
}"""


def test_after_a_match_the_keyboard_stays_where_the_pair_was(
    page_in: Any, server: PageServer
) -> None:
    """The matched tiles go, and the keyboard with them: it went back to the monument's
    first tile, far from where the player was. It goes to the next tile in reading order."""
    page = page_in("en")
    start_room(page, server, "mahjongg", {"layout": "giza-step-ramp"}, [{"kind": "me"}])
    page.wait_for_selector("svg.board .tile")
    into_board(page)
    keys = [item["key"] for item in page.evaluate(READING_ORDER)]
    pairs = [action.split()[1:] for action in _browser_tests.legal_actions(page)
             if action.startswith("match ")]
    place = {tile: keys.index(f"tile-{tile}") for pair in pairs for tile in pair}
    # A pair away from the first tile, its later tile followed by another.
    first, second = next(sorted(pair, key=place.__getitem__) for pair in pairs
                         if min(place[tile] for tile in pair) > 0
                         and max(place[tile] for tile in pair) < len(keys) - 1)
    before = move_number(page)
    choose(page, f"svg.board .tile[data-id='{first}']")
    choose(page, f"svg.board .tile[data-id='{second}']")
    page.wait_for_function("(n) => Number(document.body.dataset.moveNumber) > n", arg=before)
    page.wait_for_selector(f"svg.board .tile[data-id='{second}']", state="detached")
    after = {item["key"]: item["open"] for item in page.evaluate(READING_ORDER)}
    following = keys[keys.index(f"tile-{second}") + 1:]
    expected = next(key for key in following if after.get(key))
    assert page.evaluate("document.activeElement.dataset.key") == expected
    assert expected != keys[0]
