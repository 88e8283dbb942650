"""`pyramids serve` on the command line (the restart test runs it for real)."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from typer.testing import CliRunner

import pyramids.web.app as web_app
from pyramids.cli.main import app


def test_serve_lists_its_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--sqlite-sync", "--rooms-per-client",
                   "--http-per-second", "--sockets-per-client", "--messages-per-second",
                   "--max-json-depth", "--waiting-room-idle-seconds", "--header-seconds",
                   "--allowed-origin", "--bot-processes", "--moves-per-room",
                   "--bot-rooms-watched"):
        assert option in result.output


def test_serve_refuses_an_unknown_sqlite_mode_before_starting() -> None:
    result = CliRunner().invoke(app, ["serve", "--sqlite-sync", "sometimes"])
    assert result.exit_code != 0
    assert "allowed: full, normal" in result.output


def test_serve_gives_searching_bots_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[dict[str, Any]] = []

    def create_app(*args: Any, **settings: Any) -> FastAPI:
        made.append(settings)
        return FastAPI()

    monkeypatch.setattr(web_app, "create_app", create_app)
    monkeypatch.setattr(uvicorn, "run", lambda app, **settings: None)
    runner = CliRunner()
    assert runner.invoke(app, ["serve"]).exit_code == 0
    assert runner.invoke(app, ["serve", "--bot-processes", "0"]).exit_code == 0
    assert [settings["bot_processes"] for settings in made] == [
        min(4, os.cpu_count() or 1), 0]
    refused = runner.invoke(app, ["serve", "--bot-processes", "-1"], env={"COLUMNS": "200"})
    assert refused.exit_code != 0 and "--bot-processes" in refused.output
    assert len(made) == 2


def _captured_run(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(web_app, "create_app", lambda *args, **settings: FastAPI())
    monkeypatch.setattr(uvicorn, "run", lambda app, **settings: runs.append(settings))
    return runs


def test_serve_believes_forwarded_addresses_only_from_a_named_proxy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    # uvicorn on its own believes X-Forwarded-For from any connection of 127.0.0.1 (or
    # FORWARDED_ALLOW_IPS): a client through a local tunnel that passes the header on
    # could then pick the address its limits count against.
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    runs = _captured_run(monkeypatch)
    db = f"sqlite:///{tmp_path / 'p.db'}"
    runner = CliRunner()
    assert runner.invoke(app, ["serve", "--db", db]).exit_code == 0
    assert runner.invoke(app, ["serve", "--db", db, "--forwarded-allow-ips",
                               "127.0.0.1,10.0.0.0/8"]).exit_code == 0
    plain, proxied = runs
    assert plain["proxy_headers"] is False
    assert uvicorn.Config(FastAPI(), **plain).proxy_headers is False
    assert proxied["proxy_headers"] is True
    assert proxied["forwarded_allow_ips"] == "127.0.0.1,10.0.0.0/8"
    help_text = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "--forwarded-allow-ips" in help_text


def test_serve_refuses_a_database_a_newer_version_upgraded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import sqlite3

    from pyramids.web.storage import DatabaseTooNew, Storage

    path = tmp_path / "club.db"
    url = f"sqlite:///{path}"
    storage = Storage(url)
    storage.migrate()
    storage.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_from_the_future' "
                           "WHERE version_num LIKE '0009%'")
    before = path.read_bytes()
    runs = _captured_run(monkeypatch)
    result = CliRunner().invoke(app, ["serve", "--db", url])
    assert result.exit_code == 2, result.output
    assert "upgraded by a newer version of pyramids" in result.output
    assert "0099_from_the_future" in result.output
    assert "Traceback" not in result.output
    assert runs == []  # nothing started
    storage = Storage(url)
    with pytest.raises(DatabaseTooNew, match="0099_from_the_future"):
        storage.migrate()
    storage.dispose()
    assert path.read_bytes() == before


def _newer_database(tmp_path: Any) -> tuple[Any, str]:
    """A SQLite database as a newer pyramids left it (a schema revision unknown here)."""
    import sqlite3

    from pyramids.web.storage import Storage

    path = tmp_path / "club.db"
    url = f"sqlite:///{path}"
    storage = Storage(url)
    storage.migrate()
    storage.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_from_the_future' "
                           "WHERE version_num LIKE '0009%'")
    return path, url


def _dump(path: Any) -> list[str]:
    import sqlite3

    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def test_uvicorn_factory_refuses_a_newer_database_in_words(tmp_path: Any) -> None:
    """Started as docs/server.md says (`uvicorn --factory`), the server refused with a
    traceback in uvicorn's log; now with the words `pyramids serve` prints, once, and a
    non-zero exit, before it listens or touches the database."""
    import subprocess
    import sys

    path, url = _newer_database(tmp_path)
    before = _dump(path)
    env = {**os.environ, "PYRAMIDS_DB_URL": url, "PYRAMIDS_LANG": "en", "LANG": "C.UTF-8"}
    ran = subprocess.run(
        [sys.executable, "-m", "uvicorn", "--factory", "pyramids.web.app:app_from_env",
         "--port", "0"],
        env=env, capture_output=True, text=True, timeout=60, check=False)
    log = ran.stdout + ran.stderr
    assert ran.returncode == 2, log
    assert "ERROR:" in log, log
    assert log.count("upgraded by a newer version of pyramids") == 1, log
    assert "0099_from_the_future" in log and "restore a backup" in log
    assert "Traceback" not in log and "DatabaseTooNew" not in log, log
    assert "Uvicorn running" not in log
    assert _dump(path) == before  # nothing migrated or written


def test_a_newer_postgres_database_is_named_without_its_password(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = "postgresql://club:s3cret-Pa55@db.example/pyramids"
    monkeypatch.setenv("PYRAMIDS_DB_URL", url)
    monkeypatch.setattr(web_app, "newer_schema", lambda given: ["0099_from_the_future"])
    monkeypatch.setattr(web_app, "create_app", lambda *args, **kwargs: pytest.fail("started"))
    with pytest.raises(SystemExit) as exited:
        web_app.app_from_env()
    assert exited.value.code == 2
    records = [record.getMessage() for record in caplog.records if record.levelname == "ERROR"]
    assert len(records) == 1 and "0099_from_the_future" in records[0]
    assert "s3cret-Pa55" not in records[0] and "db.example" in records[0]


def test_every_serve_option_is_in_the_operators_guide() -> None:
    import re
    from pathlib import Path

    help_text = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    options = set(re.findall(r"--[a-z][a-z-]+", help_text)) - {"--help"}
    options = {option for option in options if not option.startswith("--no-")}
    guide = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    assert options and not {option for option in options if option not in guide}


def test_serve_help_reads_whole_in_a_100_column_terminal() -> None:
    """Every option's name and words shown whole, none cut with an ellipsis: `--cluster`
    and `--allow-file-options` had a `--no-...` twin (both are off unless given), which
    widened the name column until other names and their help were cut short."""
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "\u2026" not in result.output
    assert "--no-cluster" not in result.output and "--cluster" in result.output
    assert "--waiting-room-idle-seconds" in result.output


def test_a_database_error_in_the_log_never_holds_a_secret_seed(tmp_path: Any) -> None:
    # A full disk or a read-only file fails a statement; the server logs the error, and
    # SQLAlchemy's message would quote the statement's values: the room's seed and salt.
    import sqlalchemy as sa

    from pyramids.web.rooms import Room, RoomSettings
    from pyramids.web.storage import Storage

    storage = Storage(f"sqlite:///{tmp_path / 'club.db'}")
    storage.migrate()
    room = Room.create("dup1", "pacal", {}, 987_654_321_123, "host", RoomSettings(),
                       salt="a-secret-salt-42")
    storage.create_room(room)
    with pytest.raises(sa.exc.IntegrityError) as failed:
        storage.create_room(room)  # the same id again: the insert fails
    storage.dispose()
    assert "INSERT INTO rooms" in str(failed.value)  # the operator still sees what failed
    assert "987654321123" not in str(failed.value)
    assert "a-secret-salt-42" not in str(failed.value)


@pytest.mark.parametrize("proxy", ["", "127.0.0.1"])
def test_a_client_cannot_dodge_the_address_limits_with_a_forwarded_header(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, proxy: str
) -> None:
    # The uvicorn settings `pyramids serve` gives, run for real: 3 requests a burst.
    import httpx

    from pyramids.web.limits import ServerLimits
    from tests.web.conftest import UvicornThread

    runs = _captured_run(monkeypatch)
    argv = ["serve", "--db", f"sqlite:///{tmp_path / 'p.db'}"]
    assert CliRunner().invoke(app, argv + (["--forwarded-allow-ips", proxy] if proxy
                                           else [])).exit_code == 0
    settings = {key: runs[0][key] for key in ("proxy_headers", "forwarded_allow_ips")
                if key in runs[0]}
    monkeypatch.undo()
    limits = dataclasses.replace(ServerLimits.relaxed(), http_per_second=0.01, http_burst=3)
    server = UvicornThread(web_app.create_app(f"sqlite:///{tmp_path / 'q.db'}", limits=limits),
                           **settings)
    try:
        answers = [httpx.get(server.base + "/api/limits",
                             headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                   for n in range(6)]
    finally:
        server.stop()
    if proxy:  # the named proxy's header is believed: six addresses, one request each
        assert answers == [200] * 6
    else:  # one address, whatever the header says
        assert answers == [200, 200, 200, 429, 429, 429]
