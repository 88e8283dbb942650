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


def test_accounts_of_a_revision_0005_database_get_their_looks(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    """Accounts made before names had looks get them on upgrade: a new name that
    looks like one of theirs is refused, and two old ones that look alike both stay."""
    upgrade_to(db_url, "0005_accounts_ratings")
    engine = sa.create_engine(normalize_url(db_url))
    now = datetime.now(UTC)
    with engine.begin() as connection:
        for name in ("Bea", "B\u0435a"):  # the second with a Cyrillic е, from before
            connection.execute(sa.text(
                "INSERT INTO accounts (name, name_key, password_hash, created_at) VALUES "
                "(:name, :key, 'not-a-hash', :now)"), {"name": name, "key": name.casefold(),
                                                     "now": now})
    engine.dispose()

    server = start_server(db_url)
    engine = sa.create_engine(normalize_url(db_url))
    with engine.connect() as connection:
        looks = connection.execute(sa.text("SELECT name, name_look FROM accounts")).all()
    engine.dispose()
    assert sorted(looks) == [("Bea", "bea"), ("B\u0435a", "bea")]
    room_id = server.http.post("/api/rooms", json={"game": NAME}).json()["room"]["id"]
    # "Веа", all Cyrillic, reads as "Bea": a guest may not play under it.
    refused = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "\u0412\u0435\u0430"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_taken"
