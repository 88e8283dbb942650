"""Fixtures for the server tests: a real server on loopback, against SQLite and PostgreSQL.

Every test that takes `db_url` runs once on a fresh SQLite file and once on
PostgreSQL when PYRAMIDS_TEST_POSTGRES_URL is set (scripts/start-postgres.sh
prints one); PostgreSQL is emptied before each test. The suite runs in parallel
(pytest-xdist): each worker then has a database of its own (`postgres_test_url`).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from websockets.sync.client import ClientConnection, connect

import pyramids.agents.base as agent_registry
import pyramids.core.registry as game_registry
from pyramids.core import State
from pyramids.web.app import create_app
from pyramids.web.limits import ServerLimits
from pyramids.web.pages import mount_pages
from pyramids.web.rooms import new_seed
from pyramids.web.storage import normalize_url
from pyramids.web.ws import MAX_MESSAGE_BYTES
from tests.web.toy import LockedAgent, QuickWanderingAgent, WanderingAgent, toy_entry

POSTGRES_ENV = "PYRAMIDS_TEST_POSTGRES_URL"
TIMEOUT = 10.0


SLOW_AGENT_SECONDS = 1.5


class SlowAgent:
    """Thinks a long time, then plays the first legal action: blocks its thread, no more."""

    name = "slow"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed

    def step(self, state: State) -> int:
        time.sleep(SLOW_AGENT_SECONDS)
        return state.legal_actions()[0]


@pytest.fixture(autouse=True, scope="package")
def _test_game_and_agent() -> Iterator[None]:
    # For the tests of this folder only, and undone after them: a test elsewhere in the
    # same run (every game has a rules page; every agent has settings) would meet them.
    with pytest.MonkeyPatch.context() as patch:
        toy = toy_entry()
        patch.setitem(game_registry._REGISTRY, toy.name, toy)
        for name, factory in (("slow", SlowAgent), ("wandering", WanderingAgent),
                              ("locked", LockedAgent),
                              ("quick-wandering", QuickWanderingAgent)):
            patch.setitem(agent_registry._AGENTS, name, factory)
        yield


def postgres_test_url() -> str | None:
    """The PostgreSQL of these tests (PYRAMIDS_TEST_POSTGRES_URL), or None when unset.

    Under pytest-xdist each worker gets a database of its own beside it (`<name>_gw0`,
    made on first use): the tests empty the tables, and a cluster's processes hear
    every notice of their database, so two workers on one database took each other's
    tables and rooms away. Making it needs the role's CREATEDB, which
    scripts/start-postgres.sh grants."""
    url = os.environ.get(POSTGRES_ENV)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    given = sa.engine.make_url(url)
    own = given.set(database=f"{given.database}_{worker}")
    if worker not in _WORKER_DATABASES:
        admin = sa.create_engine(normalize_url(url), isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as connection:
                found = connection.execute(sa.text(
                    "SELECT 1 FROM pg_database WHERE datname = :name"),
                    {"name": own.database}).first()
                if found is None:
                    try:
                        connection.execute(sa.text(f'CREATE DATABASE "{own.database}"'))
                    except sa.exc.ProgrammingError as error:
                        raise RuntimeError(
                            f"the parallel tests need a database of their own for worker "
                            f"{worker} ({own.database}), and the role of {POSTGRES_ENV} may "
                            "not create one: run scripts/start-postgres.sh (it grants "
                            "CREATEDB), grant it yourself, or run the tests in one process "
                            "(python -m pytest -n 0)") from error
        finally:
            admin.dispose()
        _WORKER_DATABASES.add(worker)
    return own.render_as_string(hide_password=False)


_WORKER_DATABASES: set[str] = set()


def empty_postgres(url: str) -> None:
    engine = sa.create_engine(normalize_url(url))
    with engine.begin() as connection:
        for table in ("rated_games", "ratings", "sessions", "accounts", "solitaire_games",
                      "server_secrets", "chat_messages", "chat_settings", "actions", "seats",
                      "rooms", "alembic_version"):
            connection.execute(sa.text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgresql", marks=pytest.mark.postgres),
    ]
)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rooms.db'}"
    url = postgres_test_url()
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set (scripts/start-postgres.sh prints one)")
    empty_postgres(url)
    return url


class UvicornThread:
    """An ASGI app under uvicorn in a thread, on a free loopback port.

    `wait`: seconds to wait for the start and the stop; `config`: more
    `uvicorn.Config` settings."""

    def __init__(self, app: Any, wait: float = TIMEOUT, **config: Any) -> None:
        self.wait = wait
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **config)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + wait
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(self.wait)


class ServerThread(UvicornThread):
    """The app under uvicorn in a thread, on a free loopback port.

    Every client of a test comes from one address, so the limits are relaxed unless
    a test gives its own; `seeds` fixes the seeds the server draws (for tests that
    follow the hidden state themselves); `pages`: with the browser pages' routes;
    `admin_token`: the operator's secret (`/api/admin/...`)."""

    def __init__(self, db_url: str, limits: ServerLimits | None = None,
                 seeds: Iterator[int] | None = None, http: Any = "auto",
                 clock: Any = None, bot_processes: int = 0, pages: bool = False,
                 admin_token: str | None = None) -> None:
        draw = (lambda: next(seeds)) if seeds is not None else new_seed
        self.app = create_app(db_url, limits=limits or ServerLimits.relaxed(), draw_seed=draw,
                              clock=clock, bot_processes=bot_processes,
                              admin_token=admin_token)
        if pages:
            mount_pages(self.app)
        super().__init__(self.app, ws_max_size=MAX_MESSAGE_BYTES * 16, http=http)
        self.http = httpx.Client(base_url=self.base, timeout=TIMEOUT)

    def stop(self) -> None:
        self.http.close()
        super().stop()


@pytest.fixture
def start_server() -> Iterator[Callable[..., ServerThread]]:
    started: list[ServerThread] = []

    def start(url: str, limits: ServerLimits | None = None,
              seeds: Iterator[int] | None = None, http: Any = "auto",
              clock: Any = None, bot_processes: int = 0, pages: bool = False,
              admin_token: str | None = None) -> ServerThread:
        server = ServerThread(url, limits, seeds, http, clock, bot_processes, pages,
                              admin_token)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def server(db_url: str, start_server: Callable[..., ServerThread]) -> ServerThread:
    return start_server(db_url)


class Client:
    """A WebSocket client of one room that keeps every message it received."""

    def __init__(self, ws_base: str, room_id: str, token: str | None = None,
                 join: bool = True) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"{ws_base}/ws/rooms/{room_id}", open_timeout=TIMEOUT, max_size=2**24,
                    max_queue=None)
        )
        self.received: list[str] = []
        self.last_state: dict[str, Any] | None = None
        self._split: list[dict[str, Any]] = []
        if join:
            self.send({"type": "join", "token": token} if token else {"type": "join"})

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message; a state message's `log` update comes next as a `log`
        message of its own (the browser reads it the same way)."""
        if self._split:
            split = self._split.pop(0)
            self.received.append(json.dumps(split))
            return split
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        message: dict[str, Any] = json.loads(text)
        update = message.pop("log", None) if message.get("type") == "state" else None
        if update is None:
            self.received.append(text)
        else:  # `received` keeps the two apart too, as `recv` returns them
            assert set(update) == {"reset", "entries"}, update
            self._split.append({"type": "log", **update})
            self.received.append(json.dumps(message))
        if message.get("type") == "state":
            self.last_state = message
        return message

    def until(self, predicate: Callable[[dict[str, Any]], bool],
              timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def state_at_least(self, move_number: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The latest state message of a started game at `move_number` or later."""

        def reached(message: dict[str, Any] | None) -> bool:
            return (
                message is not None
                and message.get("type") == "state"
                and message["status"] != "waiting"
                and message["move_number"] >= move_number
            )

        if reached(self.last_state):
            assert self.last_state is not None
            return self.last_state
        return self.until(reached, timeout)

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m.get("type") == "error")

    def close(self) -> None:
        self._stack.close()


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    opened: list[Client] = []
    yield opened
    for client in opened:
        client.close()
