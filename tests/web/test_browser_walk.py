"""What a walk through the pages as a player found, in a real Chromium (Debian's): a
co-op game's end said as the team's, the replay page of a game it cannot show, and the
pages for a game or tutorial that does not exist."""

# The fixtures are those of test_browser.py, imported by name: tests take them as arguments.
# ruff: noqa: F811

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.test_browser import (  # noqa: F401  (pytest fixtures)
    SMALL_LAYOUT,
    PageServer,
    browser,
    create_from_lobby,
    page,
    play_mahjongg_to_the_end,
    pytestmark,
    server,
)


def test_a_co_op_game_ends_won_or_lost_by_the_team_not_drawn(
    page: Any, server: PageServer, tmp_path: Path
) -> None:
    """Co-op gives every seat the same return (+1 or -1): the result line called that
    "a draw" for a lost or a won game, and "Scores: Ada 900." gave the team's score to
    the first seat."""
    layout = tmp_path / "small.pyr"
    layout.write_text(SMALL_LAYOUT, encoding="utf-8")
    create_from_lobby(page, server, "mahjongg",
                      {"layout": str(layout), "mode": "coop", "players": 2},
                      ["me", "bot:greedy"])
    page.wait_for_selector("#game:not([hidden]) svg.board")
    play_mahjongg_to_the_end(page)
    page.wait_for_selector("#over:not([hidden]) #outcomes")
    over = page.inner_text("#over")
    won = "The team wins." in over
    word = "won" if won else "lost"
    assert page.inner_text("#outcomes") == f"Result: Ada: {word}, Greedy rule (bot): {word}", over
    assert "draw" not in over and "Scores:" not in over
    assert "Team score: " in over


def test_a_co_op_loss_on_a_cleared_monument_says_why(page: Any, server: PageServer) -> None:
    """The monument cleared and the team lost, with nothing said of the vault that lost it."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    lines = page.evaluate("""async () => {
        const mahjongg = await import('/static/mahjongg.js');
        const view = { mode: 'coop', players: 2,
            vaults: [{ state: 'unlocked' }, { state: 'forfeited' }],
            result: { reason: 'cleared', team_won: false, scores: [1500], winners: [] } };
        const seats = [{ seat: 0, name: 'Ada', kind: 'person' },
                       { seat: 1, name: 'Bo', kind: 'person' }];
        return mahjongg.outcome(view, { seats, seat: 0 });
    }""")
    assert lines == ["The monument is cleared!",
                     "The team loses: not every burial vault was unlocked.",
                     "Team score: 1,500."], lines


def test_the_end_s_scores_read_with_their_grouping(page: Any, server: PageServer) -> None:
    """The pages said "Team score: 1500." and "Scores: Ada 12000, Bo 900." while the
    terminal app said 1,500: a score a player reads is grouped in the page's language."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    lines = page.evaluate("""async () => {
        const mahjongg = await import('/static/mahjongg.js');
        const temple = await import('/static/temple.js');
        const seats = [{ seat: 0, name: 'Ada', kind: 'person' },
                       { seat: 1, name: 'Bo', kind: 'person' }];
        const versus = { mode: 'competitive', players: 2, vaults: [],
            result: { reason: 'cleared', scores: [12000, 900], winners: [0] } };
        const solo = { mode: 'time-attack', players: 1, vaults: [],
            result: { reason: 'time-up', scores: [1500], winners: [0],
                      time_score: 2750, time_left: 1200 } };
        const end = { scores: [1234, 56], winners: [0], built: 9 };
        return [...mahjongg.outcome(versus, { seats, seat: 0 }),
                ...mahjongg.outcome(solo, { seats, seat: 0 }),
                ...temple.outcome(end, { seats, seat: 0 })];
    }""")
    assert "Scores: Ada 12,000, Bo 900." in lines, lines
    assert "Score: 1,500." in lines, lines
    assert "Time score: 2,750 (1,200 s left)." in lines, lines
    assert "Scores (treasure + jewels): Ada 1,234, Bo 56." in lines, lines


def test_the_replay_of_a_missing_room_shows_no_controls(page: Any, server: PageServer) -> None:
    """The replay's buttons (First, Back, ..., Download the record) and an empty box showed
    under "There is no room": the stylesheet's display: flex beat their hidden attribute."""
    page.goto(server.base + "/replay/nosuchroom")
    page.wait_for_selector("#message:not([hidden])")
    assert "There is no room nosuchroom" in page.inner_text("#message")
    assert not page.is_visible("#controls")
    assert not page.is_visible("#first") and not page.is_visible("#download")
    assert not page.is_visible("#move")


def test_a_missing_game_or_tutorial_page_speaks_words_not_keys(
    page: Any, server: PageServer
) -> None:
    """/learn/chess said "unknown game 'chess'; allowed games: mahjongg, pacal, pacal-solo,
    temple" (a Python repr and the games' keys) to a person; in Korean too."""
    for path, english, korean in (
        ("/learn/chess", "There is no game “chess” here.", "“chess” 게임은 여기 없습니다."),
        ("/tutorial/chess", "There is no tutorial for “chess”.", "“chess”의 튜토리얼은 없습니다."),
    ):
        for lang, words in (("en", english), ("ko", korean)):
            answer = page.goto(f"{server.base}{path}?lang={lang}")
            assert answer.status == 404
            text = page.inner_text("main")
            assert words in text, text
            for internal in ("'chess'", "pacal-solo", "mahjongg, pacal"):
                assert internal not in text, (internal, text)
            assert page.locator("main a[href='/']").count() == 1


def register(page: Any, server: PageServer, name: str) -> None:
    page.goto(server.base + "/account")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#register-name", name)
    page.fill("#register-password", "correct horse battery")
    page.click("#register button[type=submit]")
    page.wait_for_selector("#account-title")


def test_a_logged_in_player_creates_a_room_without_typing_a_name(
    page: Any, server: PageServer
) -> None:
    """Logged in, a player sits as their account, but the lobby's name field stayed empty
    and required: Create room did nothing until a name (then unused) was typed."""
    register(page, server, "Walker")
    page.goto(server.base + "/")
    page.wait_for_selector("#account-name")
    page.wait_for_function("() => document.getElementById('name').value === 'Walker'")
    page.select_option("#game", "pacal")
    page.wait_for_selector("body[data-options='pacal']")
    page.select_option("#seats select[data-seat='1']", "bot:greedy")
    page.click("#create-button")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#game:not([hidden])")
    assert "Walker (you)" in page.inner_text("#status")


def test_the_account_history_says_a_co_op_result_and_opens_rooms_in_words(
    page: Any, server: PageServer
) -> None:
    """The history called a co-op game (the same return to every seat) "drawn", won or
    lost; in Korean its link to the room read "비어 있음" (an empty seat's "open")."""
    def game(room: str, returns: list[float]) -> dict[str, Any]:
        return {"room": room, "game": "mahjongg", "status": "finished", "seat": 0,
                "returns": returns, "rating_before": None, "rating_after": None,
                "finished_at": "2026-01-01T00:00:00+00:00"}

    account = {"account": {"name": "Ana", "ratings": {}, "games": [
        game("lost1", [-1.0, -1.0]), game("won1", [1.0, 1.0]), game("draw1", [0.0, 0.0])]}}
    page.route("**/api/account", lambda route: route.fulfill(json=account))
    for lang, words, link in (("en", ["lost", "won", "drawn"], "Open"),
                              ("ko", ["패배", "승리", "무승부"], "열기")):
        page.goto(f"{server.base}/account?lang={lang}")
        page.wait_for_selector("#history")
        rows = page.eval_on_selector_all(
            "#history tbody tr",
            "rows => rows.map((row) => [...row.cells].map((cell) => cell.innerText))")
        assert [row[1] for row in rows] == words, rows
        assert [row[3] for row in rows] == [link] * 3, rows


def test_a_full_waiting_room_asks_a_visitor_no_name_and_the_host_s_buttons_stand_apart(
    browser: Any, server: PageServer
) -> None:
    """A visitor to a room whose seats are all taken was asked "Your name" with no seat
    to take; the host's Start and Close this room buttons touched."""
    pages = []
    for _ in range(3):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        pages.append(context.new_page())
    host, friend, visitor = pages
    create_from_lobby(host, server, "pacal", {}, ["me", "open"], name="Ada")
    friend.goto(host.url)
    friend.wait_for_selector("[data-take-seat='1']")
    friend.fill("#seat-name", "Bea")
    friend.click("[data-take-seat='1']")
    host.wait_for_selector("#start:not([aria-disabled])")
    # Both boxes measured in one step, once both are drawn: the page redraws when the
    # friend's seat arrives, and a box read between two draws is missing.
    host.wait_for_function("""() => ['#start', '#abort'].every((id) => {
        const found = document.querySelector(id);
        return found && found.getBoundingClientRect().width > 0; })""")
    start, close = host.evaluate("""() => ['#start', '#abort'].map((id) => {
        const box = document.querySelector(id).getBoundingClientRect();
        return {x: box.x, width: box.width}; })""")
    assert close["x"] >= start["x"] + start["width"] + 4, (start, close)
    visitor.goto(host.url)
    visitor.wait_for_selector("#waiting:not([hidden]) .waiting-seats")
    assert "Bea" in visitor.inner_text("#waiting")
    assert visitor.locator("#seat-name").count() == 0
    assert visitor.locator("[data-take-seat]").count() == 0
    for opened in pages:
        opened.context.close()
