"""`pyramids serve` on the command line (the restart test runs it for real)."""

from __future__ import annotations

from typer.testing import CliRunner

from pyramids.cli.main import app


def test_serve_lists_its_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--sqlite-sync", "--rooms-per-client",
                   "--http-per-second", "--sockets-per-client", "--messages-per-second",
                   "--max-json-depth", "--waiting-room-idle-seconds", "--header-seconds",
                   "--allowed-origin"):
        assert option in result.output


def test_serve_refuses_an_unknown_sqlite_mode_before_starting() -> None:
    result = CliRunner().invoke(app, ["serve", "--sqlite-sync", "sometimes"])
    assert result.exit_code != 0
    assert "allowed: full, normal" in result.output
