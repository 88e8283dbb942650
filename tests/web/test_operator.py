"""The server's operator closes a room (an abusive table, a stuck game) with the
secret of `--admin-token-file`; nobody else can, and a server without one has no
operator API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import pyramids.web.app as web_app
from pyramids.cli.main import app as cli
from pyramids.web.limits import ServerLimits
from tests.web.toy import NAME

TOKEN = "an-operator-secret-of-more-than-32-characters"


def playing_room(client: TestClient) -> str:
    created = client.post("/api/rooms", json={"game": NAME}).json()
    room, host = created["room"]["id"], created["host_token"]
    for name in ("Ana", "Bo"):
        assert client.post(f"/api/rooms/{room}/seats", json={"name": name}).status_code == 201
    assert client.post(f"/api/rooms/{room}/start", json={"token": host}).status_code == 200
    return str(room)


def test_the_operator_closes_a_room_in_play(tmp_path: Path) -> None:
    app = web_app.create_app(f"sqlite:///{tmp_path / 'op.db'}", admin_token=TOKEN,
                             limits=ServerLimits.relaxed())
    with TestClient(app) as client:
        room = playing_room(client)
        path = f"/api/admin/rooms/{room}/close"
        for headers in ({}, {"Authorization": "Bearer not-the-token"},
                        {"Authorization": TOKEN}):
            refused = client.post(path, headers=headers)
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"]["code"] == "bad_operator_token"
        assert client.get(f"/api/rooms/{room}").json()["room"]["status"] == "playing"

        closed = client.post(path, headers={"Authorization": f"Bearer {TOKEN}"})
        assert closed.status_code == 200, closed.text
        summary = closed.json()["room"]
        assert summary["status"] == "aborted" and summary["result"] is None
        assert "seed" in summary["fairness"]  # over: the deal can be checked
        assert client.get(f"/api/rooms/{room}").json()["room"]["status"] == "aborted"
        again = client.post(path, headers={"Authorization": f"Bearer {TOKEN}"})
        assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
        unknown = client.post("/api/admin/rooms/nosuchroom/close",
                              headers={"Authorization": f"Bearer {TOKEN}"})
        assert unknown.status_code == 404


def test_a_server_without_an_operator_token_has_no_operator_api(tmp_path: Path) -> None:
    app = web_app.create_app(f"sqlite:///{tmp_path / 'op.db'}", limits=ServerLimits.relaxed())
    with TestClient(app) as client:
        room = playing_room(client)
        refused = client.post(f"/api/admin/rooms/{room}/close",
                              headers={"Authorization": "Bearer "})
        assert refused.status_code == 404
        assert refused.json()["error"]["code"] == "no_operator"
        assert "--admin-token-file" in refused.json()["error"]["message"]
        assert client.get(f"/api/rooms/{room}").json()["room"]["status"] == "playing"


def test_serve_reads_the_operator_token_from_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[dict[str, Any]] = []
    monkeypatch.setattr(web_app, "create_app",
                        lambda *args, **settings: made.append(settings) or FastAPI())
    monkeypatch.setattr(uvicorn, "run", lambda app, **settings: None)
    db = f"sqlite:///{tmp_path / 'p.db'}"
    short, good = tmp_path / "short.token", tmp_path / "good.token"
    short.write_text("tooshort\n")
    good.write_text(TOKEN + "\n")
    runner = CliRunner()
    refused = runner.invoke(cli, ["serve", "--db", db, "--admin-token-file", str(short)])
    assert refused.exit_code == 2 and "at least 32 characters" in refused.output
    missing = runner.invoke(cli, ["serve", "--db", db, "--admin-token-file",
                                  str(tmp_path / "none")])
    assert missing.exit_code == 2 and "cannot read the operator token file" in missing.output
    assert made == []
    assert runner.invoke(cli, ["serve", "--db", db, "--admin-token-file",
                               str(good)]).exit_code == 0
    assert runner.invoke(cli, ["serve", "--db", db]).exit_code == 0
    assert [settings["admin_token"] for settings in made] == [TOKEN, None]
