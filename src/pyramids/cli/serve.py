"""`pyramids serve`: the multiplayer server (rooms, seats, bots) over HTTP and WebSockets."""

from __future__ import annotations

import typer

from pyramids.cli.common import require_extra


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: str = typer.Option(
            "sqlite:///pyramids.db",
            help="Database URL: a SQLite file (sqlite:///path.db) or "
            "postgresql://user:password@host/dbname.",
        ),
        sqlite_sync: str = typer.Option(
            "full",
            help="SQLite only: 'full' flushes every commit to disk (survives power loss); "
            "'normal' survives a crash of the server but not of the machine, and is faster.",
        ),
        log_level: str = typer.Option("info", help="critical, error, warning, info or debug."),
        allow_file_options: bool = typer.Option(
            False,
            help="Let clients name files on this machine as option values (Mahjongg layout "
            "files). Only for a server you alone use.",
        ),
    ) -> None:
        """Serve multiplayer games: see docs/server.md for the HTTP and WebSocket protocol."""
        with require_extra("web", "pyramids serve"):
            import uvicorn

            from pyramids.web.app import create_app
            from pyramids.web.storage import SQLITE_SYNC_MODES
            from pyramids.web.ws import MAX_MESSAGE_BYTES

        if sqlite_sync not in SQLITE_SYNC_MODES:
            allowed = ", ".join(SQLITE_SYNC_MODES)
            raise typer.BadParameter(
                f"{sqlite_sync!r}; allowed: {allowed}", param_hint="--sqlite-sync"
            )
        app = create_app(db, sqlite_sync, allow_file_options=allow_file_options)
        try:
            from pyramids.web.pages import mount_pages
        except ModuleNotFoundError as error:  # the browser pages are optional
            if error.name != "pyramids.web.pages":
                raise
        else:
            mount_pages(app)
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level=log_level,
            # Frames a little over our own limit still get a clear error message from
            # the server; far larger ones are cut off by the protocol layer.
            ws_max_size=MAX_MESSAGE_BYTES * 16,
            # State messages are small; compressing each costs more CPU than it saves.
            ws_per_message_deflate=False,
        )
