"""A Korean player's walk through every page, in a real Chromium: no English sentence left.

The browser asks for Korean (its language and the language cookie); the walk opens the
lobby, a waiting room, a Pacal match against a bot to its end, a Temple table, Mahjongg
alone (Time Attack too) and the day's deal, the replay, the account, leaderboard, learn
and tutorial pages, and the pages of a room or an address that does not exist. On each,
the words a player reads (the text shown, the page's title, aria-labels, titles,
placeholders and alt texts) are searched for a run of English words, and for internals
(`undefined`, `null`, `[object Object]`): a message left out of the catalogue, or words
built in a script past t().
"""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pyramids.play.i18n import _
from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    SMALL_LAYOUT,
    TIMEOUT_MS,
    PageServer,
    browser,
    create_from_lobby,
    finished,
    move_number,
    opened_page,
    play_mahjongg_to_the_end,
    play_pacal_until,
    pytestmark,
    server,
    temple_move,
    wait_turn_or_end,
)
from tests.web.test_movelog_browser import _finished_room

# What a player reads: the shown text (not code samples, which are typed as they are)
# and the words given to screen readers and tooltips.
READ_TEXT = """() => {
  const parts = [document.title];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (node.matches('code, kbd, pre, script, style, template, [translate=no]')) return;
    if (node.matches('option') ? node.parentElement && node.parentElement.closest('[hidden]')
        : node.checkVisibility && !node.checkVisibility()) return;
    for (const name of ['aria-label', 'aria-description', 'title', 'placeholder', 'alt',
                        'data-off-reason']) {
      if (node.getAttribute(name)) parts.push(node.getAttribute(name));
    }
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  return parts;
}"""

# Latin words a Korean page keeps on purpose: names (the project's, the people's in these
# tests, the bots' ratings' and search methods'), the language switch, units and tile
# letters.
KEPT = {
    "Pyramids", "English", "Ada", "Bea", "MCTS", "OpenSpiel", "UTC", "Elo", "Glicko",
    "KMahjongg", "Enter", "Esc", "Space", "Tab", "Shift",
    "quick", "wandering", "toy", "hidden",  # a bot and a game of these tests (toy.py)
}
# A name of more than one word: a game's published title.
KEPT_RUNS = {"Die Pyramiden des Jaguar"}
# Two or more English words in a row (a word: two letters or more): a phrase or sentence.
ENGLISH_RUN = re.compile(r"\b[A-Za-z][a-z']+(?:[ ,;:-]+[A-Za-z][a-z']+)+\b")
INTERNALS = re.compile(r"\b(?:undefined|null|NaN)\b|\[object \w+\]")


def untranslated(texts: list[str]) -> list[str]:
    """The runs of English words (past the ones kept) and the internals in these texts."""
    found = []
    for text in texts:
        for match in ENGLISH_RUN.finditer(text):
            run = match.group(0)
            # A term in its English form after the Korean, "(Ra Sight, ...)", is a gloss.
            gloss = text[:match.start()].endswith("(")
            if not (gloss or run in KEPT_RUNS or set(re.findall(r"[A-Za-z']+", run)) <= KEPT):
                found.append(f"{run!r} in {text.strip()[:120]!r}")
        found += [f"{word!r} in {text.strip()[:120]!r}" for word in INTERNALS.findall(text)]
    return found


@pytest.fixture
def korean(browser: Any, server: PageServer) -> Iterator[Any]:
    """A page of a browser that asks for Korean."""
    with opened_page(browser, server.base, lang="ko", locale="ko-KR") as opened:
        yield opened


class Reader:
    """Reads each page it is shown and keeps what was left in English, by page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.left: dict[str, list[str]] = {}

    def read(self, where: str) -> None:
        self.page.wait_for_function("() => document.documentElement.lang === 'ko'")
        found = untranslated(self.page.evaluate(READ_TEXT))
        if found:
            self.left.setdefault(where, []).extend(found)

    def open(self, server: PageServer, path: str, ready: str = "body[data-ready=true]") -> None:
        self.page.goto(server.base + path)
        self.page.wait_for_selector(ready)
        self.read(path)

    def check(self) -> None:
        assert not self.left, "English left on the Korean pages:\n" + "\n".join(
            f"{where}: {found}" for where, found in self.left.items())


def test_the_pages_around_the_games_read_korean(korean: Any, server: PageServer) -> None:
    reader = Reader(korean)
    for path in ("/", "/leaderboard", "/account"):
        reader.open(server, path)
    for path in ("/learn", "/learn/pacal", "/learn/temple", "/learn/mahjongg", "/tutorial"):
        reader.open(server, path, "h1")
    for game in ("pacal", "temple", "mahjongg"):
        reader.open(server, f"/tutorial/{game}", "body[data-ready='true']")
    reader.open(server, "/play/nosuchroom", "#to-lobby")
    reader.open(server, "/replay/nosuchroom", "#message:not([hidden])")
    finished = _finished_room(server)
    reader.open(server, f"/replay/{finished}", "#controls:not([hidden])")
    reader.open(server, f"/play/{finished}", "#move-log-list .log-entry")
    korean.goto(server.base + "/no/such/page")
    reader.read("a missing page")
    reader.check()


def test_a_pacal_match_against_a_bot_reads_korean(korean: Any, server: PageServer) -> None:
    reader = Reader(korean)
    create_from_lobby(korean, server, "pacal", {"rounds_to_win": 1, "max_rounds": 2},
                      ["me", "bot:greedy"], name="Ada")
    korean.wait_for_selector("#game:not([hidden]) svg.board")
    wait_turn_or_end(korean, -1)
    reader.read("a Pacal match")
    play_pacal_until(korean, stop_after_moves=8)
    reader.read("a Pacal match, some moves in")
    play_pacal_until(korean)
    korean.wait_for_selector("#over:not([hidden])")
    reader.read("a Pacal match's end")
    reader.check()


def test_temple_and_mahjongg_to_their_ends_read_korean(
    browser: Any, korean: Any, server: PageServer, tmp_path: Path
) -> None:
    reader = Reader(korean)
    room = create_from_lobby(korean, server, "temple", {"players": 3, "max_rounds": 2},
                             ["me", "open", "bot:greedy"], name="Ada")
    korean.wait_for_selector("#waiting:not([hidden])")
    reader.read("a waiting Temple room")
    give = _("Give to a bot", lang="ko")
    korean.click(f"#waiting button:has-text('{give}')")
    korean.wait_for_selector("#start:not([aria-disabled])")
    korean.click("#start")
    korean.wait_for_selector("#game:not([hidden]) svg.board")
    reader.read("a Temple table")
    watcher_context = browser.new_context(locale="ko-KR")
    watcher_context.add_cookies([{"name": "pyramids_lang", "value": "ko", "url": server.base}])
    watcher = Reader(watcher_context.new_page())
    watcher.open(server, f"/play/{room}", "body[data-seat='spectator'] svg.board")
    swapped = [False]
    while not finished(korean):
        before = move_number(korean)
        temple_move(korean, swapped)
        wait_turn_or_end(korean, before)
        if before == 6:
            reader.read("a Temple table, some moves in")
    korean.wait_for_selector("#over:not([hidden])")
    reader.read("a Temple game's end")
    watcher.page.wait_for_selector("#over:not([hidden])")
    watcher.read("a Temple game's end, watched")
    watcher_context.close()
    reader.open(server, f"/replay/{room}", "#controls:not([hidden])")
    korean.click("#back")
    reader.read("a Temple replay, a move back")
    korean.goto(f"{server.base}/play/{room}")
    korean.wait_for_selector("#rematch")
    korean.click("#rematch")
    korean.wait_for_url(lambda url: not url.endswith(f"/play/{room}"))
    korean.wait_for_selector("#waiting:not([hidden]), #game:not([hidden]) svg.board")
    reader.read("a Temple rematch")

    create_from_lobby(korean, server, "mahjongg", {"mode": "time-attack",
                                                   "time_limit_seconds": 4}, ["me"])
    korean.wait_for_selector("#game:not([hidden]) svg.board .tile")
    reader.read("Time Attack")
    korean.wait_for_selector("#over:not([hidden])", timeout=20_000)
    reader.read("Time Attack's end")
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    for mode in ("coop", "standard"):
        create_from_lobby(korean, server, "mahjongg",
                          {"layout": str(layout), "mode": mode, "players": 2},
                          ["me", "bot:greedy"])
        korean.wait_for_selector("#game:not([hidden]) svg.board .tile")
        reader.read(f"Mahjongg ({mode}) against a bot")
        play_mahjongg_to_the_end(korean)
        korean.wait_for_selector("#over:not([hidden])")
        reader.read(f"Mahjongg ({mode}) against a bot, its end")
    reader.check()


def test_an_account_the_lobby_s_games_a_solitaire_deal_and_the_chat_read_korean(
    korean: Any, server: PageServer
) -> None:
    reader = Reader(korean)
    # A login refused, then an account.
    korean.goto(server.base + "/account")
    korean.wait_for_selector("body[data-ready=true]")
    korean.fill("#login-name", "Nobody")
    korean.fill("#login-password", "not the password")
    korean.click("#login button[type=submit]")
    korean.wait_for_selector("#account-error:not([hidden])")
    reader.read("a refused login")
    korean.fill("#register-name", "Ada")
    korean.fill("#register-password", "correct horse battery")
    korean.click("#register button[type=submit]")
    korean.wait_for_selector("#account-title")
    reader.read("the account page")
    # The lobby's form for each game, its options open.
    korean.goto(server.base + "/")
    korean.wait_for_selector("body[data-ready=true]")
    for game in ("pacal", "temple", "mahjongg", "pacal-solo"):
        korean.select_option("#game", game)
        korean.wait_for_selector(f"body[data-options='{game}']")
        for summary in korean.locator("#create details:not([open]) summary").all():
            summary.click()
        reader.read(f"the lobby's {game} form")
        if game == "mahjongg":
            korean.select_option("#option-mode", "coop")
            reader.read("the lobby's co-op form")
            korean.select_option("#option-mode", "standard")
    # A board chosen by its picture, its deal and the board's table; the day's deal.
    korean.select_option("#game", "mahjongg")
    korean.wait_for_selector("body[data-options='mahjongg']")
    korean.click(".board-card[data-board='turtle']")
    korean.wait_for_selector("#board-scores")
    reader.read("the lobby's board chooser")
    korean.click("#create-button")
    korean.wait_for_selector("#solitaire-info:not([hidden])")
    korean.wait_for_selector("#game:not([hidden]) svg.board .tile")
    reader.read("a solitaire deal")
    korean.goto(server.base + "/")
    korean.wait_for_selector("body[data-ready=true]")
    korean.select_option("#game", "mahjongg")
    korean.wait_for_selector("#daily:not([hidden])")
    reader.read("the lobby's daily deal")
    # The chat of a two-player room: a message, and one refused as too long.
    create_from_lobby(korean, server, "pacal", {}, ["me", "bot:greedy"], name="Ada")
    korean.wait_for_selector("#game:not([hidden]) svg.board")
    korean.fill("#chat-input", "hello")
    korean.press("#chat-input", "Enter")
    korean.wait_for_selector("#chat-list .chat-message")
    korean.evaluate("(text) => { const box = document.getElementById('chat-input');"
                    " box.removeAttribute('maxlength'); box.value = text; }", "x" * 3000)
    korean.press("#chat-input", "Enter")
    korean.wait_for_selector("#message:not([hidden]), #chat .error:not([hidden])")
    reader.read("the chat, a message refused")
    korean.goto(f"{server.base}/account")
    korean.wait_for_selector("#account-title")
    reader.read("the account page after a game")
    reader.check()
