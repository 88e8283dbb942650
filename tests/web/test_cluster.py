"""Several `pyramids serve --cluster` processes on one PostgreSQL database.

Real parts: each server is its own process (its own event loop) on its own
loopback port, against the PostgreSQL of PYRAMIDS_TEST_POSTGRES_URL; the clients
are real WebSocket clients. The checks: a move made on one process reaches a
client of the other within 100 ms; a process killed with SIGKILL mid-game loses
nothing, and the game goes on through the other with every move stored once; a
bot moves exactly once per turn while two processes race to play it; the operator's
mute and ban, and Play here, asked of one process hold for sockets on the other.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from pyramids.core import GameRecord, State
from pyramids.web.cluster import (
    PAYLOAD_LIMIT,
    Behind,
    notice_payload,
    parse_notice,
    presence_payloads,
)
from pyramids.web.cluster import Cluster as ClusterLink
from pyramids.web.rooms import Room, RoomSettings, hash_token, new_room_id
from pyramids.web.storage import Storage, StoredAction, normalize_url
from tests.web.conftest import POSTGRES_ENV, Client, empty_postgres, postgres_test_url
from tests.web.test_accounts import login, register
from tests.web.test_play_here import claim
from tests.web.test_play_here import sit as sit_account
from tests.web.toy import NAME

ROOT = Path(__file__).resolve().parents[2]
COUNT_DIR_ENV = "PYRAMIDS_TEST_BOT_COUNT_DIR"
# The toy game and the counting bot exist only in tests: the server process registers them.
LAUNCH = "from tests.web.test_cluster import launch; launch()"
CROSSING_SECONDS = 0.1
OPERATOR_TOKEN = "the cluster's operator secret, thirty-two characters or more"


class CountingAgent:
    """Plays the first legal action and notes, in a file of its process, each move it
    computed: summed over the processes, the bot moves computed."""

    name = "counting"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed

    def step(self, state: State) -> int:
        folder = Path(os.environ[COUNT_DIR_ENV])
        with (folder / f"{os.getpid()}.txt").open("a") as notes:
            notes.write(f"{len(getattr(state, 'moves', ()))}\n")
        return state.legal_actions()[0]


def launch() -> None:
    """`pyramids` with the test game and agent registered (run in the server process)."""
    from pyramids.agents import register_agent
    from pyramids.cli.main import main
    from tests.web.toy import register_toy

    register_toy()
    register_agent("counting", CountingAgent)
    main()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ClusterProcess:
    """`pyramids serve --cluster` in its own process on a free loopback port."""

    def __init__(self, db_url: str, log: Path, count_dir: Path, operator_token: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "serve", "--cluster", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", db_url, "--log-level", "warning",
             "--http-burst", "1000", "--http-per-second", "1000",
             "--rooms-created-per-minute", "1000", "--admin-token-file", str(operator_token)],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, COUNT_DIR_ENV: str(count_dir)},
        )
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if self.http.get("/api/games", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)  # no shutdown code runs
            self.process.wait(10)

    def close(self) -> None:
        self.kill()
        self.http.close()
        self.log.close()


@pytest.fixture(scope="module")
def postgres_url() -> str:
    url = postgres_test_url()
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is not set (scripts/start-postgres.sh prints one)")
    empty_postgres(url)
    Storage(url).migrate()  # once, up front (the processes would take turns at it)
    return url


class Cluster:
    """Two server processes for the module's tests; one a test killed comes back."""

    def __init__(self, url: str, folder: Path) -> None:
        self.url = url
        self.folder = folder
        self.count_dir = folder / "bot-moves"
        self.count_dir.mkdir()
        self.operator_token = folder / "operator-token"
        self.operator_token.write_text(OPERATOR_TOKEN)
        self.processes = [self._start(name) for name in ("a", "b")]
        for process in self.processes:
            process.wait_ready()

    def _start(self, name: str) -> ClusterProcess:
        return ClusterProcess(self.url, self.folder / f"{name}.log", self.count_dir,
                              self.operator_token)

    def running(self) -> list[ClusterProcess]:
        for index, process in enumerate(self.processes):
            if process.process.poll() is not None:
                process.close()
                self.processes[index] = self._start("ab"[index])
                self.processes[index].wait_ready()
        return self.processes

    def close(self) -> None:
        for process in self.processes:
            process.close()


@pytest.fixture(scope="module")
def cluster(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    started = Cluster(postgres_url, tmp_path_factory.mktemp("cluster"))
    yield started
    started.close()


@pytest.fixture
def two_processes(cluster: Cluster) -> list[ClusterProcess]:
    return list(cluster.running())


def stored_actions(url: str, room_id: str) -> list[tuple[int, int, str, bool]]:
    engine = sa.create_engine(normalize_url(url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(sa.text(
                "SELECT number, seat, action, by_bot FROM actions WHERE room_id = :room "
                "ORDER BY number"), {"room": room_id}).all()
    finally:
        engine.dispose()
    return [(row.number, row.seat, row.action, bool(row.by_bot)) for row in rows]


def new_room(server: ClusterProcess, **body: Any) -> tuple[str, str]:
    created = server.http.post("/api/rooms", json={"game": NAME, **body})
    assert created.status_code == 201, created.text
    return created.json()["room"]["id"], created.json()["host_token"]


def sit(server: ClusterProcess, room_id: str, name: str, seat: int) -> str:
    taken = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": name, "seat": seat})
    assert taken.status_code == 201, taken.text
    token: str = taken.json()["token"]
    return token


def crossing_time(mover: Client, watcher: Client, action: str, number: int) -> float:
    """Seconds from sending a move on one process to its state on the other."""
    sent = time.monotonic()
    mover.send({"type": "action", "action": action, "move_number": number})
    watcher.state_at_least(number + 1)
    return time.monotonic() - sent


# -- without PostgreSQL -------------------------------------------------------------


def test_notices_round_trip_and_anything_else_is_ignored() -> None:
    payload = notice_payload("room1", "move", "abc")
    notice = parse_notice(payload)
    assert notice is not None
    assert (notice.room_id, notice.reason, notice.origin) == ("room1", "move", "abc")
    for junk in ("", "not json", "[]", json.dumps({"room": "r", "reason": "drop tables",
                                                    "origin": "x"}),
                 json.dumps({"room": 5, "reason": "move", "origin": "x"})):
        assert parse_notice(junk) is None
    with pytest.raises(ValueError, match="allowed: move, room"):
        notice_payload("room1", "anything", "abc")
    banned = parse_notice(notice_payload("", "ban", "abc", account=7))
    assert banned is not None and (banned.reason, banned.account) == ("ban", 7)
    for account in (None, 0, -1, True, "7", 1.5):
        data = {"room": "", "reason": "ban", "origin": "x", "account": account}
        assert parse_notice(json.dumps(data)) is None, account


def test_presence_is_sent_in_parts_under_the_payload_limit() -> None:
    rooms = {f"room{index:05d}": [index % 2, 1] for index in range(1500)}
    payloads = presence_payloads("origin", rooms)
    assert len(payloads) > 1
    assert all(len(payload) <= PAYLOAD_LIMIT for payload in payloads)
    heard: dict[str, tuple[int, ...]] = {}
    for payload in payloads:
        notice = parse_notice(payload)
        assert notice is not None and notice.reason == "presence" and notice.presence
        heard.update(notice.presence)
    assert heard == {room: tuple(seats) for room, seats in rooms.items()}
    assert parse_notice(presence_payloads("o", {})[0]) is not None
    wrong_seats: list[Any] = [{"r": [True]}, {"r": [-1]}, {"r": "0"}, {"r": [0.5]}]
    for bad in wrong_seats:
        assert parse_notice(notice_payload("", "presence", "o", bad)) is None


def test_bot_rooms_watched_are_sent_in_parts_and_bad_ones_ignored() -> None:
    """`watching` notices: by address digest, the bot rooms watched on the sender; an
    address's rooms never split between parts; anything malformed is dropped whole."""
    from pyramids.web.cluster import address_key, watching_payloads

    watching = {address_key(f"10.0.{i // 256}.{i % 256}"): [f"room{i:04d}", "shared"]
                for i in range(600)}
    payloads = watching_payloads("origin", watching)
    assert len(payloads) > 1 and all(len(payload) <= PAYLOAD_LIMIT for payload in payloads)
    heard: dict[str, tuple[str, ...]] = {}
    for payload in payloads:
        notice = parse_notice(payload)
        assert notice is not None and notice.reason == "watching" and notice.watching
        assert not set(notice.watching) & set(heard)
        heard.update(notice.watching)
    assert heard == {key: tuple(rooms) for key, rooms in watching.items()}
    assert "10.0." not in "".join(payloads)
    gone = parse_notice(watching_payloads("o", {"k": []})[0])
    assert gone is not None and gone.watching == {"k": ()}
    for bad in ({"k": "room"}, {"k": [1]}, {"k": [""]}, {"k" * 65: ["r"]}, ["k"]):
        payload = json.dumps({"room": "", "reason": "watching", "origin": "o",
                              "watching": bad})
        assert parse_notice(payload) is None, bad


def test_cluster_mode_refuses_sqlite(tmp_path: Path) -> None:
    from pyramids.cli.main import app
    from pyramids.web.app import create_app

    with pytest.raises(ValueError, match="PostgreSQL"):
        create_app(f"sqlite:///{tmp_path / 'one.db'}", cluster=True)
    result = CliRunner().invoke(app, ["serve", "--cluster", "--db",
                                      f"sqlite:///{tmp_path / 'one.db'}"])
    assert result.exit_code != 0
    assert "PostgreSQL" in result.output
    assert not (tmp_path / "one.db").exists()


# -- one link to PostgreSQL, no server ------------------------------------------------


def test_a_commit_behind_the_stored_actions_writes_nothing_and_returns_them(
    postgres_url: str,
) -> None:
    storage = Storage(postgres_url)
    link = ClusterLink(storage, lambda notice: None)
    try:
        room = Room.create(new_room_id(), NAME, {}, 7, hash_token("host"), RoomSettings())
        storage.create_room(room)
        first, second = room.state.legal_action_strings()[:2]
        link._commit(StoredAction(room.id, 1, 0, first, False))
        # A second process that had not seen move 1 tries to commit its own move 1.
        with pytest.raises(Behind) as behind:
            link._commit(StoredAction(room.id, 1, 0, second, False))
        assert behind.value.missing == [(1, 0, first, False)]
        with pytest.raises(Behind):  # nor can it skip ahead
            link._commit(StoredAction(room.id, 3, 0, second, False))
        assert storage.actions_after(room.id, 0) == [(1, 0, first, False)]
        # The bot lease: one holder at a time, across connections (processes).
        other = ClusterLink(storage, lambda notice: None)
        try:
            assert link._lease_and_read(room.id, 0) == [(1, 0, first, False)]
            assert other._lease_and_read(room.id, 1) is None
            link._lease("pg_advisory_unlock", room.id)
            assert other._lease_and_read(room.id, 1) == []
        finally:
            other._close_lease()
    finally:
        link._close_lease()
        storage.dispose()


# -- two processes ----------------------------------------------------------------


def test_moves_cross_processes_and_a_kill_9_loses_nothing(
    two_processes: list[ClusterProcess], clients: list[Client], postgres_url: str,
) -> None:
    first, second = two_processes
    room_id, host = new_room(first)
    tokens = [sit(first, room_id, "Ana", 0), sit(second, room_id, "Bo", 1)]
    ana = Client(first.ws_base, room_id, tokens[0])
    bo = Client(second.ws_base, room_id, tokens[1])
    watcher = Client(second.ws_base, room_id)
    clients.extend([ana, bo, watcher])
    # Seats taken on the other process reach this one's sockets too, and a seat
    # connected to the other process shows connected here.
    assert ana.until(lambda m: m.get("type") == "state" and m["seats"][1]["kind"] == "person"
                     and m["seats"][1]["connected"])
    assert first.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    sent: list[str] = []
    crossings = []
    for number, (mover, other) in enumerate([(ana, bo), (bo, ana)]):
        action = mover.state_at_least(number)["legal_actions"][-1]
        crossings.append(crossing_time(mover, other, action, number))
        sent.append(action)
    assert max(crossings) < CROSSING_SECONDS, crossings
    assert watcher.state_at_least(2)["move_number"] == 2

    # Ana's next move goes to the first process, which is killed at once: the move
    # was either committed (and stands) or not (and she sends it again), never twice.
    action = ana.state_at_least(2)["legal_actions"][-1]
    ana.send({"type": "action", "action": action, "move_number": 2})
    first.kill()
    ana.close()
    ana = Client(second.ws_base, room_id, tokens[0])
    clients.append(ana)
    resumed = ana.state_at_least(2)
    if resumed["move_number"] == 2:
        assert resumed["your_turn"]
        ana.send({"type": "action", "action": action, "move_number": 2})
    sent.append(action)
    action = bo.state_at_least(3)["legal_actions"][-1]
    bo.send({"type": "action", "action": action, "move_number": 3})
    sent.append(action)
    final = ana.state_at_least(4)
    assert final["status"] == "finished"

    stored = stored_actions(postgres_url, room_id)
    assert [(number, seat, text) for number, seat, text, _ in stored] == [
        (1, 0, sent[0]), (2, 1, sent[1]), (3, 0, sent[2]), (4, 1, sent[3])]
    record = second.http.get(f"/api/rooms/{room_id}/record")
    assert record.status_code == 200, record.text
    assert len(GameRecord.from_json(record.text).replay()) == len(stored) + 1
    summary = second.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert summary["status"] == "finished" and summary["move_number"] == 4


def test_chat_and_an_abort_reach_the_other_process(
    two_processes: list[ClusterProcess], clients: list[Client],
) -> None:
    first, second = two_processes
    room_id, host = new_room(first)
    watcher = Client(second.ws_base, room_id)
    clients.append(watcher)
    watcher.until(lambda m: m.get("type") == "state")
    token = sit(first, room_id, "Ana", 0)
    # The second process held the room with seat 0 open: the seat is Ana's all the same.
    late = second.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Eve", "seat": 0})
    assert late.status_code == 409 and late.json()["error"]["code"] == "seat_taken"
    ana = Client(first.ws_base, room_id, token)
    clients.append(ana)
    assert watcher.until(lambda m: m.get("type") == "chat_history")["messages"] == []
    ana.send({"type": "chat", "text": "hello from the first process"})
    heard = watcher.until(lambda m: m.get("type") == "chat")
    assert heard["message"]["text"] == "hello from the first process"
    assert heard["message"]["name"] == "Ana"
    assert first.http.post(f"/api/rooms/{room_id}/abort",
                           json={"token": host}).status_code == 200
    assert watcher.until(lambda m: m.get("type") == "state" and m["status"] == "aborted")


def test_the_operator_closing_a_room_on_one_process_says_so_on_the_other(
    two_processes: list[ClusterProcess], clients: list[Client],
) -> None:
    """The other process reads how the game ended with its status: a player there
    reads that the server's operator closed it, not that its host ended it."""
    first, second = two_processes
    room_id, host = new_room(first)
    tokens = [sit(first, room_id, name, seat) for seat, name in enumerate(("Ana", "Bo"))]
    assert first.http.post(f"/api/rooms/{room_id}/start",
                           json={"token": host}).status_code == 200
    bo = Client(second.ws_base, room_id, tokens[1])
    clients.append(bo)
    bo.until(lambda m: m.get("type") == "state" and m["status"] == "playing")
    closed = first.http.post(f"/api/admin/rooms/{room_id}/close",
                             headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"})
    assert closed.status_code == 200, closed.text
    told = bo.until(lambda m: m.get("type") == "state" and m["status"] == "aborted")
    assert told["ended"] == closed.json()["room"]["ended"]
    assert told["ended"]["reason"] == "operator" and told["ended"]["words"] is not None


def test_a_bot_moves_once_a_turn_with_two_processes_racing(
    two_processes: list[ClusterProcess], clients: list[Client], postgres_url: str,
    cluster: Cluster,
) -> None:
    first, second = two_processes
    for notes in cluster.count_dir.glob("*.txt"):
        notes.unlink()
    rooms = []
    for _ in range(4):
        room_id, host = new_room(first)
        for seat in (0, 1):
            given = first.http.post(f"/api/rooms/{room_id}/agents",
                                    json={"token": host, "seat": seat, "agent": "counting"})
            assert given.status_code == 200, given.text
        # A spectator on each process: both hold the room, both run its bot task.
        watchers = [Client(server.ws_base, room_id) for server in two_processes]
        clients.extend(watchers)
        for watcher in watchers:
            watcher.until(lambda m: m.get("type") == "state"
                          and all(s["kind"] == "agent" for s in m["seats"]))
        rooms.append((room_id, host, watchers))
    for room_id, host, _ in rooms:
        assert second.http.post(f"/api/rooms/{room_id}/start",
                                json={"token": host}).status_code == 200
    for _, _, watchers in rooms:
        for watcher in watchers:
            # Four rooms' bots on two processes, each move behind the other's lock: on a
            # loaded 2-core machine the 10 s of one message's wait ran out (2026-12-08).
            assert watcher.state_at_least(4, timeout=60)["status"] == "finished"
    for room_id, _, _ in rooms:
        stored = stored_actions(postgres_url, room_id)
        assert [number for number, *_ in stored] == [1, 2, 3, 4]
        assert all(by_bot for *_, by_bot in stored)
    computed = [
        int(line) for notes in cluster.count_dir.glob("*.txt")
        for line in notes.read_text().split()
    ]
    # Every bot move was computed by one process only: as many as were stored.
    assert sorted(computed) == sorted([0, 1, 2, 3] * len(rooms))


def test_a_person_on_the_other_process_is_not_taken_over(
    two_processes: list[ClusterProcess], clients: list[Client],
) -> None:
    first, second = two_processes
    room_id, host = new_room(first, bot_takeover_seconds=0.3)
    tokens = [sit(first, room_id, "Ana", 0), sit(first, room_id, "Bo", 1)]
    ana = Client(first.ws_base, room_id, tokens[0])
    bo = Client(second.ws_base, room_id, tokens[1])
    clients.extend([ana, bo])
    ana.until(lambda m: m.get("type") == "state" and m["seats"][1]["connected"])
    assert first.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    action = ana.state_at_least(0)["legal_actions"][-1]
    ana.send({"type": "action", "action": action, "move_number": 0})
    assert bo.state_at_least(1)["your_turn"]
    # Bo thinks: connected to the second process, he is never away on the first.
    quiet_until = time.monotonic() + 1.0
    while (left := quiet_until - time.monotonic()) > 0:
        try:
            ana.recv(left)
        except TimeoutError:
            break
    assert ana.last_state is not None and ana.last_state["move_number"] == 1
    bo.close()
    # Gone from every process: after the takeover delay a bot plays his seat.
    moved = ana.state_at_least(2)
    assert moved["last_move"]["seat"] == 1 and moved["last_move"]["by_bot"]


def test_a_player_on_the_other_process_finds_the_rematch(
    two_processes: list[ClusterProcess], clients: list[Client],
) -> None:
    """Ana's page starts the rematch on the first process; Bo's page asks the second,
    which must know it too (it was once kept in the first process's memory only)."""
    first, second = two_processes
    room_id, host = new_room(first, unlisted=True)
    tokens = [sit(first, room_id, "Ana", 0), sit(first, room_id, "Bo", 1)]
    seats = [Client(first.ws_base, room_id, tokens[0]), Client(second.ws_base, room_id, tokens[1])]
    clients.extend(seats)
    seats[0].until(lambda m: m.get("type") == "state" and m["seats"][1]["connected"])
    assert first.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    moves = 0
    while (state := seats[0].state_at_least(moves))["status"] != "finished":
        mover = seats[state["current_player"]]
        action = mover.state_at_least(moves)["legal_actions"][0]
        mover.send({"type": "action", "action": action, "move_number": moves})
        moves += 1
    seats[1].state_at_least(moves)

    rematch, rematch_host = new_room(first, unlisted=True)
    told = first.http.post(f"/api/pages/rematch/{room_id}",
                           json={"token": tokens[0], "room": rematch, "room_token": rematch_host})
    assert told.status_code == 200, told.text
    found = second.http.post(f"/api/pages/rematch/{room_id}/find", json={"token": tokens[1]})
    assert found.status_code == 200 and found.json() == {"room": rematch}, found.text


# -- accounts across processes (the operator's ban and mute, Play here) ---------------


def device(server: ClusterProcess) -> httpx.Client:
    """A browser of its own (cookie jar, CSRF cookie) talking to one process."""
    client = httpx.Client(base_url=server.base, timeout=10)
    assert client.get("/api/account").json() == {"account": None}
    return client


def operator(server: ClusterProcess, name: str, what: str, value: bool) -> httpx.Response:
    field = {"mute": "muted", "ban": "banned"}[what]
    return server.http.post(f"/api/admin/accounts/{name}/{what}", json={field: value},
                            headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"})


def chat_answer(client: Client, text: str) -> dict[str, Any]:
    client.send({"type": "chat", "text": text})
    return client.until(lambda m: m.get("type") == "error" or (
        m.get("type") == "chat" and m["message"]["text"] == text))


def test_the_operators_mute_and_ban_on_one_process_hold_on_the_other(
    two_processes: list[ClusterProcess], clients: list[Client],
) -> None:
    """Cleo plays through the first process; the operator asks the second. The mute is
    read from the shared database at her next chat line; the ban reaches the first
    process as a notice, which closes her seat socket there at once."""
    first, second = two_processes
    cleo, dara = device(first), device(first)
    assert register(cleo, "Cleo").status_code == 201
    assert register(dara, "Dara").status_code == 201
    room_id, host = new_room(first)
    tokens = [sit_account(cleo, room_id, 0), sit_account(dara, room_id, 1)]
    assert first.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    seated = Client(first.ws_base, room_id, tokens[0])
    other = Client(second.ws_base, room_id, tokens[1])
    clients.extend([seated, other])
    seated.state_at_least(0)
    other.state_at_least(0)
    assert chat_answer(seated, "hello")["type"] == "chat"

    muted = operator(second, "Cleo", "mute", True)
    assert muted.status_code == 200, muted.text
    refused = chat_answer(seated, "spam")
    assert refused["type"] == "error" and refused["code"] == "chat_muted"
    assert "spam" not in [m["text"] for m in
                          first.http.get(f"/api/rooms/{room_id}/chat").json()["messages"]]

    banned = operator(second, "Cleo", "ban", True)
    assert banned.status_code == 200, banned.text
    told = seated.error()
    assert told["code"] == "banned" and "banned from this server" in told["message"]
    with pytest.raises(ConnectionClosed):
        seated.recv(10)
    assert seated.ws.close_code == 4403
    # Her session is over on every process, and her seat token opens nothing on either.
    assert cleo.get("/api/account").json() == {"account": None}
    for server in (first, second):
        again = Client(server.ws_base, room_id, tokens[0])
        clients.append(again)
        assert again.error()["code"] == "banned"
    # Dara plays on and sees her away.
    state = other.until(lambda m: m.get("type") == "state" and not m["seats"][0]["connected"])
    assert state["status"] == "playing"


def test_play_here_on_one_process_moves_the_seat_from_the_other(
    two_processes: list[ClusterProcess], clients: list[Client],
) -> None:
    """Esme's laptop plays her seat through the first process; her phone, logged in on
    the second, takes it with Play here. The laptop is told in words and watches; the
    phone plays with the same hand; the laptop's old token opens nothing on either."""
    first, second = two_processes
    laptop = device(first)
    assert register(laptop, "Esme").status_code == 201
    room_id, host = new_room(first)
    old_token = sit_account(laptop, room_id, 0)
    sit(first, room_id, "Finn", 1)
    assert first.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    old = Client(first.ws_base, room_id, old_token)
    clients.append(old)
    hand = old.state_at_least(0)["view"]["hand"]

    phone = device(second)
    assert login(phone, "Esme").status_code == 200
    moved = claim(phone, room_id, 0)
    assert moved.status_code == 200, moved.text
    new_token = moved.json()["token"]
    told = old.error()
    assert told["code"] == "seat_moved" and "another device" in told["message"]
    watching = old.until(lambda m: m.get("type") == "state" and m["seat"] is None)
    assert "hand" not in watching["view"] and watching["legal_actions"] == []

    here = Client(second.ws_base, room_id, new_token)
    clients.append(here)
    mine = here.state_at_least(0)
    assert mine["seat"] == 0 and mine["view"]["hand"] == hand and mine["your_turn"]
    here.send({"type": "action", "action": hand[0], "move_number": 0})
    assert here.state_at_least(1)["view"]["hand"] == hand[1:]
    assert "hand" not in old.state_at_least(1)["view"]
    for server in (first, second):
        stale = Client(server.ws_base, room_id, old_token)
        clients.append(stale)
        assert stale.error()["code"] == "bad_token"
