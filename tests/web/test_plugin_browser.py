"""A plugin game with no browser renderer, played in a real Chromium: the room page
shows the game's plain-text drawing (its `text_renderer`, sent as `text`) with one
button a move, and the game is played to its end by clicks."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from pyramids.core import game_manifest, registry
from tests.core.test_plugins import plugin_site  # noqa: F401
from tests.core.test_summit_plugin import summit_site  # noqa: F401
from tests.web.test_browser import (  # noqa: F401
    PageServer,
    browser,
    create_from_lobby,
    finished,
    move_number,
    page,
    wait_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_a_plugin_game_without_a_renderer_is_played_from_its_text(
        plugin_site: Path, page: Any, tmp_path: Path) -> None:  # noqa: F811
    registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                        web_renderer=None)
    server = PageServer(f"sqlite:///{tmp_path / 'rooms.db'}")
    try:
        create_from_lobby(page, server, "toy-nim", {"stones": 6}, ["me", "bot:random"])
        page.wait_for_selector("#game .raw-view")
        assert page.inner_text("#game .raw-view").startswith("Pile: ")
        assert '"to_move"' not in page.inner_text("#game")
        while not finished(page):
            before = move_number(page)
            page.click("#game .actions button >> nth=0")
            wait_turn_or_end(page, before)
        assert page.inner_text("#game .raw-view").startswith("Pile: (empty)")
    finally:
        server.stop()


def test_the_hidden_hand_plugin_is_played_to_its_end_from_its_text(
        summit_site: Path, page: Any, tmp_path: Path) -> None:  # noqa: F811
    """examples/pyramids-summit in the browser: its drawing with the player's hand (the
    view's raw fields never shown), played out by clicks."""
    server = PageServer(f"sqlite:///{tmp_path / 'rooms.db'}")
    try:
        create_from_lobby(page, server, "summit", {"players": 2}, ["me", "bot:random"])
        page.wait_for_selector("#game .raw-view")
        drawing = page.inner_text("#game .raw-view")
        assert drawing.startswith("Stone: ") and "Your hand: " in drawing
        assert '"hand"' not in page.inner_text("#game")
        while not finished(page):
            before = move_number(page)
            page.click("#game .actions button >> nth=0")
            wait_turn_or_end(page, before)
    finally:
        server.stop()
