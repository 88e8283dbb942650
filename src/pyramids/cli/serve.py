"""`pyramids serve`: the multiplayer server (rooms, seats, bots) over HTTP and WebSockets.

`pyramids verify-room RECORD.json` checks a finished room's record: that the
revealed seed and salt open the commitment shown during the game, and that the
game replays from that seed to the recorded result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer

from pyramids.cli.common import fail, require_extra, user_errors
from pyramids.core.errors import N_
from pyramids.play.i18n import _

_D = {  # the defaults of ServerLimits, repeated so that --help needs no web extra
    "rooms_per_client": 10,
    "waiting_rooms": 1000,
    "waiting_room_idle_seconds": 3600.0,
    "adjourn_after_seconds": 600.0,
    "http_per_second": 10.0,
    "http_burst": 60,
    "rooms_created_per_minute": 20,
    "sockets_per_client": 20,
    "bot_rooms_watched_per_client": 4,
    "messages_per_second": 10.0,
    "message_burst": 30,
    "max_json_depth": 16,
    "max_moves_per_room": 10_000,
    "keep_alive_seconds": 5.0,
    "max_connections": 2000,
    "header_seconds": 10.0,
}


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: str = typer.Option(
            "sqlite:///pyramids.db",
            help="Database URL: a SQLite file (sqlite:///path.db, created readable by its "
            "owner only) or postgresql://USER:PASS@HOST/DB.",
        ),
        sqlite_sync: str = typer.Option(
            "full",
            help="SQLite only: 'full' flushes every commit to disk (survives power loss); "
            "'normal' survives a crash of the server but not of the machine, and is faster.",
        ),
        # Off unless given: a "--no-..." twin would only widen the help's option column,
        # cutting other options' names and help short at 80 to 100 columns.
        cluster: bool = typer.Option(
            False, "--cluster",
            help="Several `pyramids serve` processes share this PostgreSQL database (behind "
            "a load balancer): moves are serialised and fanned out across them with "
            "LISTEN/NOTIFY, bots move once. PostgreSQL only; see docs/server.md.",
        ),
        log_level: str = typer.Option("info", help="critical, error, warning, info or debug."),
        allow_file_options: bool = typer.Option(
            False, "--allow-file-options",
            help="Let clients name files on this machine as option values (Mahjongg layout "
            "files). Only for a server you alone use.",
        ),
        rooms_per_client: int = typer.Option(
            _D["rooms_per_client"], min=1, help="Rooms waiting to start one address may hold."
        ),
        waiting_rooms: int = typer.Option(
            _D["waiting_rooms"], min=1, help="Rooms waiting to start on the whole server."
        ),
        waiting_room_idle_seconds: float = typer.Option(
            _D["waiting_room_idle_seconds"], min=1,
            help="A waiting room nobody changed or watched this long expires (archived).",
        ),
        adjourn_after_seconds: float = typer.Option(
            _D["adjourn_after_seconds"], min=1,
            help="A game nobody is connected to this long is put away from memory; it "
            "resumes as it was when someone opens it.",
        ),
        http_per_second: float = typer.Option(
            _D["http_per_second"], min=0.01,
            help="HTTP requests a second per address (after a burst); past it: 429.",
        ),
        http_burst: int = typer.Option(_D["http_burst"], min=1,
                                       help="HTTP requests one address may send at once."),
        rooms_created_per_minute: int = typer.Option(
            _D["rooms_created_per_minute"], min=1, help="New rooms a minute per address."
        ),
        sockets_per_client: int = typer.Option(
            _D["sockets_per_client"], min=1, help="Open WebSockets per address."
        ),
        bot_rooms_watched: int = typer.Option(
            _D["bot_rooms_watched_per_client"], min=1,
            help="Games only bots play that one address may watch at once (they run while "
            "watched)."
        ),
        messages_per_second: float = typer.Option(
            _D["messages_per_second"], min=0.01,
            help="WebSocket messages a second per socket (after a burst); past it: "
            "'rate_limited'.",
        ),
        message_burst: int = typer.Option(_D["message_burst"], min=1,
                                          help="Messages one socket may send at once."),
        max_json_depth: int = typer.Option(
            _D["max_json_depth"], min=2, help="Deepest JSON nesting accepted."
        ),
        moves_per_room: int = typer.Option(
            _D["max_moves_per_room"], min=100,
            help="Moves one game may hold; the move past it ends the game (aborted). Only "
            "moves that repeat without end (a one-player undo) come near it.",
        ),
        keep_alive_seconds: float = typer.Option(
            _D["keep_alive_seconds"], min=0.1,
            help="Idle HTTP connections are closed after this many seconds (slow clients).",
        ),
        max_connections: int = typer.Option(
            _D["max_connections"], min=1,
            help="Connections served at once; past it new ones get 503.",
        ),
        header_seconds: float = typer.Option(
            _D["header_seconds"], min=0.1,
            help="A connection whose request headers are not all in within this many "
            "seconds is closed (slowloris).",
        ),
        bot_processes: int | None = typer.Option(
            None, min=0, show_default=False,
            help="Worker processes for the moves of bots that search (mcts, planners); "
            "0: they think in threads of the server process. Default: the CPUs, at most 4.",
        ),
        forwarded_allow_ips: str = typer.Option(
            "", show_default=False,
            help="Behind a reverse proxy: the proxy addresses (comma-separated IPs or "
            "networks, e.g. 127.0.0.1 or 10.0.0.0/8) whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed. Default: none, every client is the address "
            "that connects, and a client cannot forge another address with a header.",
        ),
        admin_token_file: Path | None = typer.Option(
            None, show_default=False,
            help="A file holding the operator's secret (at least 32 characters) for the "
            "operator API: POST /api/admin/rooms/ID/close with 'Authorization: Bearer' "
            "and the secret. Default: no operator API.",
        ),
        allowed_origin: list[str] = typer.Option(
            [], help="A page origin (https://example.org) whose pages may open sockets, "
            "besides this server's own; repeatable; '*' allows any.",
        ),
    ) -> None:
        """Serve games to browsers: open http://127.0.0.1:8000/ (docs/server.md: the API).

        The HTTP and WebSocket protocol and the limits (a body 16 KiB, a socket
        message 4 KiB) are in docs/server.md."""
        with require_extra("web", N_("pyramids serve")):
            import uvicorn

            from pyramids.web.app import create_app
            from pyramids.web.limits import ServerLimits
            from pyramids.web.serving import header_deadline_protocol
            from pyramids.web.storage import (
                NEWER_SCHEMA,
                SQLITE_SYNC_MODES,
                newer_schema,
                shown_url,
            )
            from pyramids.web.ws import MAX_MESSAGE_BYTES

        if sqlite_sync not in SQLITE_SYNC_MODES:
            allowed = ", ".join(SQLITE_SYNC_MODES)
            raise typer.BadParameter(
                f"{sqlite_sync!r}; allowed: {allowed}", param_hint="--sqlite-sync"
            )
        if cluster and not db.startswith(("postgresql://", "postgres://",
                                          "postgresql+psycopg://")):
            raise typer.BadParameter(
                f"{db!r}: cluster mode needs a PostgreSQL database every process shares "
                "(postgresql://user:password@host/dbname); SQLite serves one process",
                param_hint="--cluster",
            )
        admin_token = None
        if admin_token_file is not None:
            try:
                admin_token = admin_token_file.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as error:
                fail(_("cannot read the operator token file {path}: {problem}",
                       path=admin_token_file, problem=getattr(error, "strerror", None) or error))
            if len(admin_token) < 32:
                fail(_("the operator token in {path} is too short: it needs at least 32 "
                       "characters (for example: python -c \"import secrets; "
                       "print(secrets.token_urlsafe(32))\")", path=admin_token_file))
        newer = newer_schema(db)
        if newer:
            fail(_(NEWER_SCHEMA, db=shown_url(db), revisions=", ".join(newer)))
        limits = ServerLimits(
            rooms_per_client=rooms_per_client,
            waiting_rooms=waiting_rooms,
            waiting_room_idle_seconds=waiting_room_idle_seconds,
            adjourn_after_seconds=adjourn_after_seconds,
            http_per_second=http_per_second,
            http_burst=http_burst,
            rooms_created_per_minute=rooms_created_per_minute,
            sockets_per_client=sockets_per_client,
            bot_rooms_watched_per_client=bot_rooms_watched,
            messages_per_second=messages_per_second,
            message_burst=message_burst,
            max_json_depth=max_json_depth,
            max_moves_per_room=moves_per_room,
            keep_alive_seconds=keep_alive_seconds,
            max_connections=max_connections,
            header_seconds=header_seconds,
            allowed_origins=tuple(allowed_origin),
        )
        if bot_processes is None:
            bot_processes = min(4, os.cpu_count() or 1)
        app = create_app(db, sqlite_sync, allow_file_options=allow_file_options, limits=limits,
                         cluster=cluster, bot_processes=bot_processes, admin_token=admin_token)
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
            # Slow or idle clients: idle keep-alive connections close, and past
            # `max_connections` new connections are refused (503) instead of queued.
            timeout_keep_alive=max(1, round(keep_alive_seconds)),
            limit_concurrency=max_connections,
            http=header_deadline_protocol(header_seconds),
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            # A client's address (the per-address limits) comes from X-Forwarded-For
            # only when the operator names the proxy: uvicorn would otherwise believe
            # any connection from 127.0.0.1 (or FORWARDED_ALLOW_IPS), so a local tunnel
            # that passes headers through would let a client forge its address.
            proxy_headers=bool(forwarded_allow_ips.strip()),
            forwarded_allow_ips=forwarded_allow_ips.strip() or None,
        )

    @app.command("verify-room")
    def verify(
        record: Path = typer.Argument(..., help="A room's record: GET /api/rooms/ID/record."),
    ) -> None:
        """Check a server game's fairness: its seed opens the commitment, and it replays.

        The revealed seed and salt open the commitment shown during the game, and
        the game replays from that seed."""
        from pyramids.core import PyramidsError
        from pyramids.core.records import read_record_file
        from pyramids.play.i18n import _, ngettext, words_text
        from pyramids.web.rooms import commitment_of

        with user_errors():
            game_record, data = read_record_file(record)
        fairness = data.get("fairness")
        if not isinstance(fairness, dict) or not fairness.get("commitment"):
            fail(_("{path}: no commitment in this record (it is not from a server room, or "
                   "the room is older than commitments)", path=record))
        seed, salt = data.get("seed"), fairness.get("salt")
        # The seed as the record writes it (JSON: 42, "abc"), not as Python would.
        shown_seed = json.dumps(seed)
        if not isinstance(salt, str):
            fail(_("{path}: the salt is not revealed; the game is not over", path=record))
        if commitment_of(seed, salt) != fairness["commitment"]:
            typer.echo(_("{path}: MISMATCH: seed {seed} and the salt do not open the "
                         "commitment {commitment}", path=record, seed=shown_seed,
                         commitment=fairness["commitment"]))
            raise typer.Exit(1)
        try:
            states = game_record.replay()
        except PyramidsError as error:
            typer.echo(_("{path}: the commitment holds, but the game does not replay: "
                         "{problem}", path=record, problem=words_text(error)))
            raise typer.Exit(1) from None
        moves = ngettext("{count} move replays", "{count} moves replay", len(states) - 1)
        if fairness.get("practice"):
            typer.echo(_("{path}: commitment verified (practice: the seed was chosen by the "
                         "player; unranked): the deal was fixed before the first move (seed "
                         "{seed}); {moves}", path=record, seed=shown_seed, moves=moves))
        else:
            typer.echo(_("{path}: commitment verified: the deal was fixed before the first "
                         "move (seed {seed}); {moves}", path=record, seed=shown_seed,
                         moves=moves))
