"""A database made by an older server still loads: the migrations keep every room."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from pyramids.web.rooms import hash_token
from pyramids.web.storage import Storage, normalize_url
from tests.web.conftest import POSTGRES_ENV, Client, ServerThread, postgres_test_url
from tests.web.toy import NAME


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location",
                           str(resources.files("pyramids.web") / "migrations"))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


def upgrade_to(url: str, revision: str) -> None:
    command.upgrade(alembic_config(url), revision)


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


# -- migrating at once --------------------------------------------------------------

MIGRATING_AT_ONCE = 6
START_AFTER_SECONDS = 4.0
ROOT = Path(__file__).resolve().parents[2]
MIGRATE = """
import sys, time
from pyramids.web.storage import Storage
storage = Storage(sys.argv[1])
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
storage.migrate()
"""


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def fresh_databases(request: pytest.FixtureRequest,
                    tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Makes fresh, empty databases: SQLite files, or PostgreSQL schemas of their own
    (the other tests' tables in `public` are neither seen nor touched)."""
    if request.param == "sqlite":
        made = iter(range(1_000))
        yield lambda: f"sqlite:///{tmp_path / f'fresh{next(made)}.db'}"
        return
    url = postgres_test_url()
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set (scripts/start-postgres.sh prints one)")
    admin = sa.create_engine(normalize_url(url))
    schemas: list[str] = []

    def fresh() -> str:
        schema = f"migrate_{secrets.token_hex(6)}"
        with admin.begin() as connection:
            connection.execute(sa.text(f"CREATE SCHEMA {schema}"))
        schemas.append(schema)
        only = sa.engine.make_url(normalize_url(url)).update_query_dict(
            {"options": f"-csearch_path={schema}"})
        return only.render_as_string(hide_password=False)

    yield fresh
    with admin.begin() as connection:
        for schema in schemas:
            connection.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
    admin.dispose()


def schema_of(url: str) -> dict[str, Any]:
    """Every table with its columns and indexes, and the rows of `alembic_version`."""
    engine = sa.create_engine(normalize_url(url))
    try:
        with engine.connect() as connection:
            seen = sa.inspect(connection)
            tables = {
                table: (sorted(column["name"] for column in seen.get_columns(table)),
                        sorted(str(index["name"]) for index in seen.get_indexes(table)))
                for table in seen.get_table_names()
            }
            versions = connection.execute(
                sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    finally:
        engine.dispose()
    return {"tables": tables, "versions": sorted(versions)}


def test_servers_starting_together_on_a_fresh_database_migrate_it_once(
    fresh_databases: Callable[[], str],
) -> None:
    """`serve --cluster` starts several processes on one database at once; each runs
    the migrations. They take turns: none fails, and the schema is whole, with one
    `alembic_version` row per head, as after a single upgrade."""
    alone = fresh_databases()
    Storage(alone).migrate()
    expected = schema_of(alone)
    heads = ScriptDirectory.from_config(alembic_config(alone)).get_heads()
    assert expected["versions"] == sorted(heads) and len(heads) > 1
    assert {"rooms", "seats", "actions", "alembic_version"} <= set(expected["tables"])

    # Processes, as servers are (Alembic's context is global to a process): each
    # imports, then waits for the same moment to migrate.
    together = fresh_databases()
    moment = time.time() + START_AFTER_SECONDS
    processes = [
        subprocess.Popen([sys.executable, "-c", MIGRATE, together, str(moment)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for _ in range(MIGRATING_AT_ONCE)
    ]
    said = [process.communicate(timeout=120)[0] for process in processes]
    assert [process.returncode for process in processes] == [0] * MIGRATING_AT_ONCE, said
    assert schema_of(together) == expected


@pytest.mark.postgres
def test_each_parallel_worker_has_a_postgresql_database_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two workers on one database emptied each other's tables mid-test (11 tests failed
    the first time the suite ran in parallel): a worker's URL names a database of its
    own, made on first use, beside the one given, and the given one is left alone."""
    import os

    given = os.environ.get(POSTGRES_ENV)
    if not given:
        pytest.skip(f"{POSTGRES_ENV} is not set (scripts/start-postgres.sh prints one)")
    worker = f"gwcheck{secrets.token_hex(3)}"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    own = postgres_test_url()
    assert own is not None
    base = sa.engine.make_url(given)
    made = sa.engine.make_url(own)
    assert made.database == f"{base.database}_{worker}"
    assert made.set(database=base.database) == base  # the same server, user and password
    admin = sa.create_engine(normalize_url(given), isolation_level="AUTOCOMMIT")
    try:
        storage = Storage(own)  # a server's storage opens it and makes its tables there
        storage.migrate()
        assert storage.count_status("playing") == 0
        storage.dispose()
        with admin.connect() as connection:
            names = set(connection.execute(sa.text("SELECT datname FROM pg_database")).scalars())
            assert made.database in names and base.database in names
            assert postgres_test_url() == own  # made once; asked again, the same
            connection.execute(sa.text(f'DROP DATABASE "{made.database}" WITH (FORCE)'))
    finally:
        admin.dispose()
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert postgres_test_url() == given  # one process: the database given
