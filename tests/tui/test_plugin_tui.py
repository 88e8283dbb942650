"""A plugin game without a board of its own in the terminal app: it is drawn as its
`text_renderer` draws it for `play --plain` (docs/adding-a-game.md), not as the raw
fields of its view ("to move: 0", a seat counted from 0)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import game_manifest, load, registry  # noqa: E402
from pyramids.play.render import no_drawing  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from pyramids.tui.board import MoveButton  # noqa: E402
from tests.core.test_plugins import plugin_site  # noqa: E402, F401
from tests.core.test_summit_plugin import summit_site  # noqa: E402, F401
from tests.tui.helpers import LARGE, play_first_move_by_list, screen_lines, settle  # noqa: E402


async def test_a_plugin_game_is_drawn_by_its_text_renderer(plugin_site: Path) -> None:  # noqa: F811
    session = new_session(load("toy-nim", stones=5), ["human", "greedy"], 1)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        screen = "\n".join(screen_lines(app))
        assert "Pile: ooooo (5 stones)" in screen
        assert "to move: 0" not in screen
        await play_first_move_by_list(pilot, app)  # take 1, and greedy answers
        await settle(pilot, app)
        left = session.state.view(0)["stones"]
        assert left < 4
        assert f"({left} stones)" in "\n".join(screen_lines(app))


async def test_a_plugin_game_without_a_text_drawing_says_so_in_words(
        plugin_site: Path) -> None:  # noqa: F811
    """Without a `text_renderer` the board was an outline of the view's internal keys
    ("to move: 0", "outcome: -"); it now says in words that the game has no drawing,
    and its legal moves are buttons named by their words, which play the move."""
    registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                        text_renderer=None)
    session = new_session(load("toy-nim", stones=5), ["human", "greedy"], 1)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        screen = "\n".join(screen_lines(app))
        assert no_drawing("toy-nim") in screen
        assert "Nim has no drawing of its board" in screen
        for internal in ("to move", "stones:", "outcome"):
            assert internal not in screen, screen
        buttons = {button.move: button for button in app.query(MoveButton)}
        assert list(buttons) == ["take 1", "take 2", "take 3"]
        await pilot.click(buttons["take 1"])
        await settle(pilot, app)
        assert session.state.history_strings()[0] == "take 1"
        # The bot answered; the keyboard is on the first move's button: Enter plays it.
        played = len(session.state.history())
        assert played == 2 and isinstance(app.focused, MoveButton), app.focused
        assert app.focused.move == session.state.legal_action_strings()[0]
        await pilot.press("enter")
        await settle(pilot, app)
        assert session.state.history_strings()[2] == "take 1"


async def test_a_hidden_hand_plugin_shows_the_players_own_hand_only(
        summit_site: Path) -> None:  # noqa: F811
    """examples/pyramids-summit in the terminal app: the player's hand, the others'
    hand sizes, never their cards."""
    session = new_session(load("summit", players=3), ["human", "greedy", "greedy"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        screen = "\n".join(screen_lines(app))
        state = session.state
        assert "Your hand: " + " ".join(map(str, state.hands[0])) in screen
        assert "Seat 2: step 0 of 5, 3 cards in hand" in screen
        await play_first_move_by_list(pilot, app)  # a card, and both bots answer
        await settle(pilot, app)
        assert len(session.state.history()) == 3
        screen = "\n".join(screen_lines(app))
        assert "Your hand: " + " ".join(map(str, session.state.hands[0])) in screen


@pytest.mark.parametrize("korean_page", [True, False])
async def test_f1_shows_a_plugin_s_korean_page_or_says_it_is_english(
        plugin_site: Path, korean_page: bool) -> None:  # noqa: F811
    """F1 showed Nim's English rules.md to a Korean player. It now shows rules.ko.md;
    a plugin without one shows its English page with a line in Korean saying so."""
    from pyramids.play.i18n import set_language
    from pyramids.tui.app import HelpScreen

    if not korean_page:
        registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                            learn_page=None)
    set_language("ko")
    try:
        app = PlayApp(new_session(load("toy-nim", stones=5), ["human", "greedy"], 1),
                      agent_delay=0)
        async with app.run_test(size=LARGE) as pilot:
            await settle(pilot, app)
            await pilot.press("f1")
            await settle(pilot, app)
            assert isinstance(app.screen, HelpScreen)
            tabs = [str(tab.label) for tab in app.screen.query("Tab")]
            page = app.screen.query_one("#help-1 Markdown").source
    finally:
        set_language(None)
    if korean_page:
        assert tabs == ["키", "님"]
        assert "상대에게 4의 배수만큼 돌을 남기세요." in page
        assert "영어로" not in page
    else:
        assert tabs == ["키", "Nim"]
        assert page.startswith("*이 페이지는 아직 한국어로 옮겨지지 않아 영어로 보여 드립니다.*")
        assert "leave your opponent a multiple of four stones" in page
