"""A database that cannot be written (a full disk, a read-only file): the players are
told in words and may send again, the operator reads one line saying what to do, and
the games in play go on once the database is writable again."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest
import sqlalchemy as sa

from tests.web.conftest import Client, ServerThread
from tests.web.toy import NAME


def full_disk(*_args: Any, **_kwargs: Any) -> None:
    raise sa.exc.OperationalError("INSERT INTO actions", {},
                                  sqlite3.OperationalError("database or disk is full"))


def operator_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records
            if "the database cannot be written" in record.getMessage()]


def test_a_full_disk_refuses_a_new_room_in_words(
    server: ServerThread, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = server.app.state.hub.storage
    monkeypatch.setattr(storage, "create_room", full_disk)
    refused = server.http.post("/api/rooms", json={"game": NAME})
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"]["code"] == "storage_unavailable"
    assert "cannot save anything right now" in refused.json()["error"]["message"]
    assert refused.headers["Retry-After"] == "30"
    lines = operator_lines(caplog)
    assert lines and "database or disk is full" in lines[0].getMessage()
    assert "free disk space" in lines[0].getMessage()
    assert lines[0].exc_info is None  # one line, no traceback
    monkeypatch.undo()
    assert server.http.post("/api/rooms", json={"game": NAME}).status_code == 201


def test_a_move_refused_for_a_full_disk_can_be_sent_again(
    server: ServerThread, clients: list[Client], caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = server.http.post("/api/rooms", json={"game": NAME}).json()
    room, host = created["room"]["id"], created["host_token"]
    tokens = [server.http.post(f"/api/rooms/{room}/seats", json={"name": name}).json()["token"]
              for name in ("Ana", "Bo")]
    server.http.post(f"/api/rooms/{room}/start", json={"token": host})
    seats = [Client(server.ws_base, room, token) for token in tokens]
    clients.extend(seats)
    states = [seat.until(lambda m: m.get("type") == "state" and m["status"] == "playing")
              for seat in seats]
    mover, state = next((seat, state) for seat, state in zip(seats, states, strict=True)
                        if state["your_turn"])
    move = {"type": "action", "action": state["legal_actions"][0], "move_number": 0}

    writer = server.app.state.hub.writer
    monkeypatch.setattr(writer, "commit", full_disk)
    mover.send(move)
    error = mover.until(lambda m: m.get("type") == "error")
    assert error["code"] == "storage_unavailable"
    assert "nothing was changed" in error["message"]
    assert operator_lines(caplog)
    assert server.http.get(f"/api/rooms/{room}").json()["room"]["move_number"] == 0

    monkeypatch.undo()  # space freed: the same move goes through
    mover.send(move)
    moved = mover.until(lambda m: m.get("type") == "state" and m["move_number"] == 1)
    assert moved["last_move"]["action"] == move["action"]
