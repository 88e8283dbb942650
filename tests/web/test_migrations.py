"""A database made by an older server still loads: the migrations keep every room."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from importlib import resources

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from pyramids.web.rooms import hash_token
from pyramids.web.storage import normalize_url
from tests.web.conftest import Client, ServerThread
from tests.web.toy import NAME


def upgrade_to(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location",
                           str(resources.files("pyramids.web") / "migrations"))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    command.upgrade(config, revision)


def test_a_revision_0001_database_keeps_its_rooms(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    upgrade_to(db_url, "0001")
    engine = sa.create_engine(normalize_url(db_url))
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO rooms (id, game, options, seed, host_token_hash, settings, status, "
            "result, created_at, updated_at) VALUES ('old1', :game, '{}', '7', :host, "
            "'{}', 'playing', NULL, :now, :now)"), {"game": NAME, "host": hash_token("h"),
                                                  "now": now})
        for seat, name in ((0, "Ana"), (1, "Bo")):
            connection.execute(sa.text(
                "INSERT INTO seats (room_id, seat, kind, name, agent, token_hash) VALUES "
                "('old1', :seat, 'person', :name, NULL, :token)"),
                {"seat": seat, "name": name, "token": hash_token(f"t{seat}")})
    engine.dispose()

    server = start_server(db_url)
    room = server.http.get("/api/rooms/old1").json()["room"]
    assert room["status"] == "playing" and [s["name"] for s in room["seats"]] == ["Ana", "Bo"]
    assert room["fairness"] == {"commitment": None, "practice": False, "server_dealt": True}
    assert room["unlisted"] is False
    ana = Client(server.ws_base, "old1", "t0")
    state = ana.until(lambda m: m["type"] == "state")
    assert state["seat"] == 0 and state["status"] == "playing" and state["view"]
    ana.close()
