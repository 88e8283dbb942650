"""`pyramids serve` on the command line (the restart test runs it for real)."""

from __future__ import annotations

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
