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
        room = create_from_lobby(page, server, "toy-nim", {"stones": 6}, ["me", "bot:random"])
        page.wait_for_selector("#game .raw-view")
        assert page.inner_text("#game .raw-view").startswith("Pile: ")
        assert '"to_move"' not in page.inner_text("#game")
        while not finished(page):
            before = move_number(page)
            page.click("#game .actions button >> nth=0")
            wait_turn_or_end(page, before)
        assert page.inner_text("#game .raw-view").startswith("Pile: (empty)")
        # The replay draws each step as the room did (it showed the view's JSON).
        page.goto(f"{server.base}/replay/{room}#step=0")
        page.wait_for_selector(".replay-board .raw-view")
        assert page.inner_text(".replay-board .raw-view >> nth=0") == "Pile: oooooo (6 stones)"
        assert "to_move" not in page.inner_text("main")
        # A Korean page draws it in Korean, from Nim's own catalogue (it was English).
        page.goto(f"{server.base}/play/{room}?lang=ko")
        page.wait_for_function("() => document.documentElement.lang === 'ko'")
        page.wait_for_selector("#game .raw-view")
        assert page.inner_text("#game .raw-view") == "더미: (비어 있음) (돌 0개)"
        page.goto(f"{server.base}/replay/{room}#step=0")
        page.wait_for_selector(".replay-board .raw-view")
        assert page.inner_text(".replay-board .raw-view >> nth=0") == "더미: oooooo (돌 6개)"
    finally:
        server.stop()


def test_nims_own_renderer_names_the_pile_in_the_pages_language(
        plugin_site: Path, page: Any, tmp_path: Path) -> None:  # noqa: F811
    server = PageServer(f"sqlite:///{tmp_path / 'rooms.db'}")
    try:
        room = create_from_lobby(page, server, "toy-nim", {"stones": 6}, ["me", "bot:random"])
        page.wait_for_selector("#game .nim-pile")
        assert page.get_attribute("#game .nim-pile", "aria-label") == "6 stones"
        page.goto(f"{server.base}/play/{room}?lang=ko")
        page.wait_for_function("() => document.documentElement.lang === 'ko'")
        page.wait_for_selector("#game .nim-pile")
        assert page.get_attribute("#game .nim-pile", "aria-label") == "돌 6개"
    finally:
        server.stop()


def test_a_plugin_game_without_any_drawing_shows_words_not_its_keys(
        plugin_site: Path, page: Any, tmp_path: Path) -> None:  # noqa: F811
    """Without a text_renderer either, the room page showed the raw view ("to_move": 0,
    a seat counted from 0) and the replay page did too: both now say in words that the
    game has no drawing, and the room's moves are buttons named by their words."""
    registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                        web_renderer=None, text_renderer=None)
    server = PageServer(f"sqlite:///{tmp_path / 'rooms.db'}")
    words = "Nim has no drawing of its board here; follow the game by its moves."
    try:
        room = create_from_lobby(page, server, "toy-nim", {"stones": 6}, ["me", "bot:random"])
        page.wait_for_selector("#game .no-drawing")
        assert page.inner_text("#game .no-drawing") == words
        shown = page.inner_text("#game")
        for internal in ("to_move", "stones", "outcome", "{"):
            assert internal not in shown, shown
        group = page.locator("#game [role='group']")
        assert group.get_attribute("aria-label") == "Your moves:"
        while not finished(page):
            before = move_number(page)
            assert page.locator("#game .actions button >> nth=0").inner_text().startswith("take ")
            page.click("#game .actions button >> nth=0")
            wait_turn_or_end(page, before)
        page.goto(f"{server.base}/replay/{room}")
        page.wait_for_selector(".replay-board .no-drawing")
        assert "stones" not in page.inner_text("main")
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


def test_a_plugin_s_learn_page_is_in_the_reader_s_language(
        plugin_site: Path, page: Any, tmp_path: Path) -> None:  # noqa: F811
    """/learn/toy-nim?lang=ko showed Nim's English rules under a Korean header: a plugin
    had no page per language. Its rules.ko.md is now the Korean page; the language
    switch leads to the English one; a plugin without a Korean page shows English
    with a line in Korean saying so."""
    server = PageServer(f"sqlite:///{tmp_path / 'rooms.db'}")
    try:
        page.goto(f"{server.base}/learn?lang=ko")
        page.click("main a:has-text('님')")
        page.wait_for_selector("main h2")
        assert page.inner_text("main h2") == "님"
        assert "상대에게 4의 배수만큼 돌을 남기세요." in page.inner_text("main")
        assert page.locator("main em").count() == 0  # no note: the page is Korean
        page.click("nav.languages a[hreflang=en]")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        assert page.inner_text("main h2") == "Nim"
        assert "leave your opponent a multiple of four stones" in page.inner_text("main")
        registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                            learn_page=None)
        page.goto(f"{server.base}/learn/toy-nim?lang=ko")
        assert page.inner_text("main h2") == "Nim"
        assert page.inner_text("main em") == ("이 페이지는 아직 한국어로 옮겨지지 않아 영어로 "
                                              "보여 드립니다.")
        assert "leave your opponent a multiple of four stones" in page.inner_text("main")
    finally:
        server.stop()
