"""A plugin game without a board of its own in the terminal app: it is drawn as its
`text_renderer` draws it for `play --plain` (docs/adding-a-game.md), not as the raw
fields of its view ("to move: 0", a seat counted from 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
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
