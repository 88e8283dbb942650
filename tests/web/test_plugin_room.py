"""A plugin game with a `text_renderer` but no browser renderer of its own: the room
page shows its plain-text drawing, as `play --plain` does, not the raw view's fields
("to_move": 0, a seat counted from 0). The server sends that drawing as `text`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramids.core import game_manifest, registry
from tests.core.test_plugins import plugin_site  # noqa: F401
from tests.core.test_summit_plugin import summit_site  # noqa: F401
from tests.web.conftest import Client, ServerThread
from tests.web.test_server import create_room, start, take_seat


@pytest.fixture
def text_only_nim(plugin_site: Path) -> Iterator[str]:  # noqa: F811
    """toy-nim as a designer's first draft: a text renderer, no web renderer."""
    registry._REGISTRY["toy-nim"] = dataclasses.replace(game_manifest("toy-nim"),
                                                        web_renderer=None)
    yield "toy-nim"


def test_a_plugin_without_a_web_renderer_is_shown_as_its_text(
        text_only_nim: str, server: ServerThread, clients: list[Client]) -> None:
    room_id, host = create_room(server, game=text_only_nim, options={"stones": 5})
    token = take_seat(server, room_id, "Ana", seat=0)
    server.http.post(f"/api/rooms/{room_id}/agents", json={"token": host, "seat": 1})
    ana = Client(server.ws_base, room_id, token)
    clients.append(ana)
    start(server, room_id, host)
    state = ana.until(lambda m: m["type"] == "state" and m["your_turn"])
    assert state["text"] == "Pile: ooooo (5 stones)"
    # Each page shows it in its own language (it was English on a Korean page).
    assert state["texts"] == {"en": "Pile: ooooo (5 stones)", "ko": "더미: ooooo (돌 5개)"}
    assert state["view"]["stones"] == 5  # the view still comes, for scripts


def test_a_game_with_its_own_renderer_gets_no_text(
        plugin_site: Path, server: ServerThread, clients: list[Client]) -> None:  # noqa: F811
    room_id, host = create_room(server, game="toy-nim")
    token = take_seat(server, room_id, "Ana", seat=0)
    server.http.post(f"/api/rooms/{room_id}/agents", json={"token": host, "seat": 1})
    ana = Client(server.ws_base, room_id, token)
    clients.append(ana)
    start(server, room_id, host)
    state = ana.until(lambda m: m["type"] == "state" and m["your_turn"])
    assert "text" not in state


def test_a_hidden_hand_plugin_plays_to_the_end_against_bots(
        summit_site: Path, server: ServerThread, clients: list[Client]) -> None:  # noqa: F811
    """examples/pyramids-summit, the designer's walk: three seats, two bots, a bad move
    refused in words, then the game played out; Ana's page shows her hand, never the
    bots' cards."""
    room_id, host = create_room(server, game="summit", options={"players": 3})
    token = take_seat(server, room_id, "Ana", seat=0)
    for seat in (1, 2):
        added = server.http.post(f"/api/rooms/{room_id}/agents",
                                 json={"token": host, "seat": seat, "agent": "easy"})
        assert added.status_code in (200, 201), added.text
    ana = Client(server.ws_base, room_id, token)
    clients.append(ana)
    start(server, room_id, host)
    refused = False
    for _ in range(40):
        state = ana.until(lambda m: m["type"] == "state"
                          and (m["your_turn"] or m["status"] == "finished"))
        if state["status"] == "finished":
            break
        view = state["view"]
        assert "Your hand: " + " ".join(map(str, view["hand"])) in state["text"]
        assert set(view) == {"game", "height", "steps", "hand_sizes", "stone", "deck_size",
                             "to_move", "hand", "outcome"}
        if not refused:
            ana.send({"type": "action", "action": "play 42",
                      "move_number": state["move_number"]})
            error = ana.until(lambda m: m["type"] == "error")
            assert "play 42" in error["message"] and "'play N' (1..9)" in error["message"]
            refused = True
        ana.send({"type": "action", "action": state["legal_actions"][0],
                  "move_number": state["move_number"]})
    assert state["status"] == "finished" and refused
    assert state["view"]["outcome"]["winners"]
