"""Chat in a room: players and spectators, limits kept by the server, stored with the room."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from pyramids.web.chat import CHAT_BURST, MAX_CHAT_LENGTH, clean_chat_text
from pyramids.web.rooms import RoomError
from tests.web.conftest import Client, ServerThread
from tests.web.test_server import create_room, start, take_seat


def _chat(client: Client) -> dict[str, Any]:
    message = client.until(lambda m: m.get("type") == "chat")
    found: dict[str, Any] = message["message"]
    return found


def _history(client: Client) -> dict[str, Any]:
    return client.until(lambda m: m.get("type") == "chat_history")


def _error(client: Client) -> dict[str, Any]:
    return client.until(lambda m: m.get("type") == "error")


def _room(server: ServerThread) -> tuple[str, str, list[str]]:
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    return room_id, host, tokens


def test_players_and_spectators_talk_and_markup_stays_text(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, _host, tokens = _room(server)
    ana = Client(server.ws_base, room_id, tokens[0])
    watcher = Client(server.ws_base, room_id)
    clients += [ana, watcher]
    assert _history(ana)["messages"] == []
    _history(watcher)
    script = "<script>alert('hi')</script> &amp; <b>bold</b>"
    ana.send({"type": "chat", "text": script})
    for client in (ana, watcher):
        message = _chat(client)
        assert message["text"] == script  # kept as written; pages show it as text
        assert message["seat"] == 0 and message["name"] == "Ana"
    watcher.send({"type": "chat", "text": "  good   luck\n both  "})
    message = _chat(ana)
    assert message == {**message, "seat": None, "name": None, "text": "good luck both"}
    history = server.http.get(f"/api/rooms/{room_id}/chat").json()
    assert [m["text"] for m in history["messages"]] == [script, "good luck both"]
    assert [m["number"] for m in history["messages"]] == [1, 2]



def test_two_who_open_a_room_that_is_over_read_each_other(
    server: ServerThread, clients: list[Client]
) -> None:
    """A room that was over and unwatched was read anew for each socket that joined
    it, each on its own copy: one visitor's message never reached the other."""
    room_id, host, tokens = _room(server)
    assert server.http.post(f"/api/rooms/{room_id}/abort",
                            json={"token": host}).status_code == 200
    ana, watcher = Client(server.ws_base, room_id, tokens[0]), Client(server.ws_base, room_id)
    clients += [ana, watcher]
    _history(ana)
    _history(watcher)
    ana.send({"type": "chat", "text": "we can play again later"})
    assert _chat(watcher)["text"] == "we can play again later"

def test_length_and_content_are_checked() -> None:
    assert clean_chat_text("a" * MAX_CHAT_LENGTH) == "a" * MAX_CHAT_LENGTH
    for text, code in (("", "chat_empty"), ("   \n ", "chat_empty"),
                       ("a" * (MAX_CHAT_LENGTH + 1), "chat_too_long"),
                       (None, "bad_chat"), (42, "bad_chat"), ("bell\x07", "bad_chat"),
                       ("\ud800", "bad_chat")):
        with pytest.raises(RoomError) as refused:
            clean_chat_text(text)
        assert refused.value.code == code


def test_limits_refuse_with_clear_errors_and_store_nothing(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, _host, tokens = _room(server)
    ana = Client(server.ws_base, room_id, tokens[0])
    clients.append(ana)
    _history(ana)
    ana.send({"type": "chat", "text": "x" * (MAX_CHAT_LENGTH + 1)})
    error = _error(ana)
    assert error["code"] == "chat_too_long" and str(MAX_CHAT_LENGTH) in error["message"]
    ana.send({"type": "chat", "text": "   "})
    assert _error(ana)["code"] == "chat_empty"
    for number in range(CHAT_BURST):
        ana.send({"type": "chat", "text": f"message {number}"})
        assert _chat(ana)["text"] == f"message {number}"
    ana.send({"type": "chat", "text": "one too many"})
    error = _error(ana)
    assert error["code"] == "chat_rate_limited" and "wait" in error["message"]
    texts = [m["text"] for m in server.http.get(f"/api/rooms/{room_id}/chat").json()["messages"]]
    assert texts == [f"message {number}" for number in range(CHAT_BURST)]


def test_the_host_mutes_spectators_and_players_still_talk(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, host, tokens = _room(server)
    ana = Client(server.ws_base, room_id, tokens[0])
    watcher = Client(server.ws_base, room_id)
    clients += [ana, watcher]
    _history(watcher)
    refused = server.http.post(f"/api/rooms/{room_id}/chat/mute",
                               json={"token": tokens[0], "muted": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    answer = server.http.post(f"/api/rooms/{room_id}/chat/mute",
                              json={"token": host, "muted": True})
    assert answer.status_code == 200 and answer.json() == {"spectators_muted": True}
    settings = watcher.until(lambda m: m.get("type") == "chat_settings")
    assert settings["spectators_muted"] is True
    watcher.send({"type": "chat", "text": "let me speak"})
    error = _error(watcher)
    assert error["code"] == "chat_muted" and "host" in error["message"]
    ana.send({"type": "chat", "text": "players may"})
    assert _chat(watcher)["text"] == "players may"
    server.http.post(f"/api/rooms/{room_id}/chat/mute", json={"token": host, "muted": False})
    watcher.send({"type": "chat", "text": "thanks"})
    assert ana.until(lambda m: m.get("type") == "chat"
                     and m["message"]["text"] == "thanks")["message"]["seat"] is None


def test_chat_and_mute_survive_a_restart(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    first = start_server(db_url)
    room_id, host, tokens = _room(first)
    start(first, room_id, host)
    ana = Client(first.ws_base, room_id, tokens[0])
    _history(ana)
    ana.send({"type": "chat", "text": "before the restart"})
    _chat(ana)
    first.http.post(f"/api/rooms/{room_id}/chat/mute", json={"token": host, "muted": True})
    ana.close()
    first.stop()

    second = start_server(db_url)
    bo = Client(second.ws_base, room_id, tokens[1])
    clients.append(bo)
    history = _history(bo)
    assert [m["text"] for m in history["messages"]] == ["before the restart"]
    assert history["messages"][0]["name"] == "Ana" and history["spectators_muted"] is True
    bo.send({"type": "chat", "text": "after"})
    assert _chat(bo)["number"] == 2


def test_a_number_another_server_process_took_is_not_lost_or_refused(
    server: ServerThread, db_url: str, clients: list[Client]
) -> None:
    # In cluster mode every process holding the room numbers its chat; a message the
    # other process stored first, unheard of here, takes the number this one meant.
    import sqlalchemy as sa

    from pyramids.web.chat import ChatMessage, ChatStore

    room_id, _host, tokens = _room(server)
    ana = Client(server.ws_base, room_id, tokens[0])
    clients.append(ana)
    assert _history(ana)["messages"] == []
    engine = sa.create_engine(db_url)
    try:
        ChatStore(engine).append(room_id, ChatMessage(1, 1, "Bo", "from the other process",
                                                      datetime.now(UTC)))
    finally:
        engine.dispose()
    ana.send({"type": "chat", "text": "hello"})
    heard = [_chat(ana), _chat(ana)]
    assert [(m["number"], m["text"]) for m in heard] == [(1, "from the other process"),
                                                         (2, "hello")]
    history = server.http.get(f"/api/rooms/{room_id}/chat").json()
    assert [(m["number"], m["text"]) for m in history["messages"]] == [
        (1, "from the other process"), (2, "hello")]


def test_spectators_cannot_silence_the_players(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room's chat budget was shared: a few spectator sockets, each within its own
    limit, used it up and the players' messages were refused; spectators could also
    fill the room's chat to its end. Players and spectators now have budgets apart,
    and the chat's last messages are kept for the players."""
    from pyramids.web import chat

    room_id, _host, tokens = _room(server)
    ana = Client(server.ws_base, room_id, tokens[0])
    spectators = [Client(server.ws_base, room_id) for _ in range(7)]
    clients += [ana, *spectators]
    for client in (ana, *spectators):
        _history(client)

    def answer(client: Client, text: str) -> dict[str, Any]:
        return client.until(lambda m: m.get("type") == "error" or (
            m.get("type") == "chat" and m["message"]["text"] == text))

    # The chat's last messages are the players'.
    with monkeypatch.context() as small:
        small.setattr(chat, "MAX_ROOM_CHAT", 3)
        small.setattr(chat, "PLAYERS_CHAT_RESERVE", 2)
        spectators[0].send({"type": "chat", "text": "hello"})
        assert answer(spectators[0], "hello")["type"] == "chat"
        spectators[0].send({"type": "chat", "text": "fill it up"})
        full = _error(spectators[0])
        assert full["code"] == "chat_full" and "kept for the players" in full["message"]
        ana.send({"type": "chat", "text": "good luck"})
        assert answer(ana, "good luck")["type"] == "chat"

    refused = None
    for round_number in range(CHAT_BURST):  # each spectator within its own limit
        for index, spectator in enumerate(spectators[1:]):
            text = f"spam {round_number} {index}"
            spectator.send({"type": "chat", "text": text})
            reply = answer(spectator, text)
            if reply["type"] == "error":
                refused = reply
                break
        if refused is not None:
            break
    assert refused is not None and refused["code"] == "chat_rate_limited"
    assert "spectators of this room" in refused["message"]
    ana.send({"type": "chat", "text": "still here"})
    assert answer(ana, "still here")["type"] == "chat"
