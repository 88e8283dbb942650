"""Load benchmark of the multiplayer server (a measurement, not a test).

Starts `pyramids serve` as a subprocess on loopback with a fresh SQLite file (or
`--db URL`), opens `--games` rooms, each a person seat driven by this script
against a `random` bot, and plays them concurrently over WebSockets for
`--duration` seconds. A client "thinks" `--think` seconds (jittered) before each
move, like a person. Reported: action round-trip latency (sending an action
until the state message with that action applied arrives) as p50/p95/p99/max,
actions per second, and how many games were held open at once. A finished game
is replaced by a new one, so the number of games stays constant. Measuring
begins once every game is held (at most three times the nominal ramp-up of
`--games / --ramp + 2` seconds) and lasts `--duration` less that nominal ramp-up,
so set-up requests queued in the ramp-up are not counted as moves' round trips.

    python benchmarks/server_load.py --games 500 --duration 60
    python benchmarks/server_load.py --games 200 --game temple --duration 30
    python benchmarks/server_load.py --memory 1000   # memory per waiting room, by game
    python benchmarks/server_load.py --games 500 --chat 0.3 --clock move:120
    python benchmarks/server_load.py --games 10 --game temple --agent expert --bot-processes 2

`--bot-processes N` is passed to `pyramids serve` (0, the default here: bots think
in threads); the server's CPU counts its bot processes too.

`--chat P`: before each move a player also writes a chat message with chance P
(everyone at the table receives it). `--clock KIND:SECONDS[:INCREMENT]`: every
room has that turn clock (`move:120`: two minutes a move; `bank:300:10`), so the
server times every turn and sends the clock in every state.

`--memory N` instead opens N waiting rooms of each game (with its default
options, and Mahjongg's three modes) and reports the server's resident memory
per room (Linux /proc), and how long a restart takes to answer after them.

`--processes N` (with `--db postgresql://...`): the same load on 1, 2, ... N
`pyramids serve --cluster` processes sharing that database, one report each.
Each game is made over HTTP on one process and played over the WebSocket of the
next, so with two or more processes every move crosses between them (commit under
the room's lock, NOTIFY, catch-up) and both race for the bot's lease.

    python benchmarks/server_load.py --db postgresql://u:p@127.0.0.1/db --processes 2

Bounded: at most `--games` (<= 2000) games and `--duration` (<= 600) seconds,
loopback only. The target is 500 concurrent games with p95 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from pyramids.web.collector import settle_collector

MAX_GAMES = 2000
# Messages the simulated players do not read (the move log, the chat), by how they begin.
SKIPPED = ('{"type":"log"', '{"type":"chat"')
MAX_DURATION = 600.0
# The ramp-up waits for every game at most this many times its nominal time.
RAMP_LIMIT_FACTOR = 3
RELAXED = ["--rooms-per-client", "100000", "--waiting-rooms", "100000",
           "--http-per-second", "100000", "--http-burst", "100000",
           "--rooms-created-per-minute", "100000", "--sockets-per-client", "100000",
           "--messages-per-second", "100000", "--message-burst", "100000",
           "--max-connections", "100000"]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    games_finished: int = 0
    chats: int = 0
    errors: list[str] = field(default_factory=list)
    connected: int = 0
    peak_connected: int = 0
    measuring: bool = False
    measured_seconds: float = 0.0
    ramp_seconds: float = 0.0
    # When the players stop (moved on once every game is held).
    stop_at: float = float("inf")
    server_cpu_seconds: float | None = None
    client_cpu_seconds: float = 0.0

    def connect(self) -> None:
        self.connected += 1
        self.peak_connected = max(self.peak_connected, self.connected)

    def disconnect(self) -> None:
        self.connected -= 1


def cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU time of a process and of its living children (the bot
    processes), from Linux /proc, or None where unknown."""
    own = None if pid is None else _process_cpu(pid)
    if pid is None or own is None:
        return None
    return own + sum(_process_cpu(child) or 0.0 for child in child_pids(pid))


def _process_cpu(pid: int) -> float | None:
    """One process's user plus system CPU time; None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child_pids(pid: int) -> list[int]:
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += [int(n) for n in (task / "children").read_text().split()]
        except OSError:
            continue
    return children


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db_url: str, port: int, log: Path, sqlite_sync: str,
                 cluster: bool = False, bot_processes: int = 0) -> subprocess.Popen[bytes]:
    # Every simulated player comes from this one address: lift the per-client limits.
    command = [sys.executable, "-m", "pyramids.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db_url, "--sqlite-sync", sqlite_sync,
               "--log-level", "warning", "--bot-processes", str(bot_processes), *RELAXED,
               *(["--cluster"] if cluster else [])]
    process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited; see {log}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"the server did not start; see {log}")


def time_control(text: str | None) -> dict[str, Any] | None:
    """`move:120` or `bank:300:10` as the server's time control."""
    if not text:
        return None
    kind, _, rest = text.partition(":")
    seconds, _, increment = rest.partition(":")
    control: dict[str, Any] = {"kind": kind, "seconds": float(seconds)}
    if increment:
        control["increment"] = float(increment)
    return control


async def new_game(
    http: httpx.AsyncClient, game: str, agent: str, clock: dict[str, Any] | None = None
) -> tuple[str, str]:
    body: dict[str, Any] = {"game": game}
    if clock is not None:
        body["time_control"] = clock
    made = await http.post("/api/rooms", json=body)
    if made.status_code != 201:
        raise RuntimeError(f"could not make a room: {made.text}")
    created = made.json()
    room_id, host = created["room"]["id"], created["host_token"]
    seated = await http.post(f"/api/rooms/{room_id}/seats", json={"name": "load", "seat": 0})
    token = seated.json()["token"]
    for seat in created["room"]["open_seats"][1:]:  # every other seat a bot (Temple: 3)
        await http.post(f"/api/rooms/{room_id}/agents",
                        json={"token": host, "seat": seat, "agent": agent})
    started = await http.post(f"/api/rooms/{room_id}/start", json={"token": host})
    if started.status_code != 200:
        raise RuntimeError(f"could not start a room: {started.text}")
    return room_id, token


async def receive_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        text = await ws.recv()
        if isinstance(text, str) and text.startswith(SKIPPED):
            continue  # this client reads only states and errors: not worth parsing
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            return message
        if message["type"] == "error" and not message["code"].startswith("chat_"):
            raise RuntimeError(f"{message['code']}: {message['message']}")


async def play_one_game(
    ws_base: str, room_id: str, token: str, think: float, rng: random.Random,
    tally: Tally, chat: float = 0.0,
) -> bool:
    """Play until the game ends (True) or time is up (False)."""
    async with connect(f"{ws_base}/ws/rooms/{room_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        tally.connect()
        try:
            state = await receive_state(ws)
            while True:
                while not (state["your_turn"] or state["status"] == "finished"):
                    state = await receive_state(ws)
                if state["status"] == "finished":
                    return True
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if time.monotonic() > tally.stop_at:
                    return False
                number = state["move_number"]
                if chat and rng.random() < chat:
                    await ws.send(json.dumps({"type": "chat", "text": f"move {number}, gl hf"}))
                    tally.chats += 1
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "move_number": number,
                                          "action": rng.choice(state["legal_actions"])}))
                state = await receive_state(ws)
                while state["move_number"] <= number:
                    state = await receive_state(ws)
                if tally.measuring:
                    tally.latencies.append(time.perf_counter() - sent)
                tally.actions += 1
        finally:
            tally.disconnect()


async def player(
    index: int, https: list[httpx.AsyncClient], ws_bases: list[str],
    args: argparse.Namespace, tally: Tally,
) -> None:
    # With several processes the room is made on one and played on the next.
    http = https[index % len(https)]
    ws_base = ws_bases[(index + 1) % len(ws_bases)]
    rng = random.Random(index)
    await asyncio.sleep(index / args.ramp)
    while time.monotonic() < tally.stop_at:
        try:
            room_id, token = await new_game(http, args.game, args.agent,
                                            time_control(args.clock))
            finished = await play_one_game(
                ws_base, room_id, token, args.think, rng, tally, args.chat
            )
        except Exception as error:  # count, report and go on with a new game
            tally.errors.append(f"{type(error).__name__}: {error}")
            await asyncio.sleep(1)
            continue
        if finished:
            tally.games_finished += 1


def resident_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise SystemExit("no VmRSS in /proc: --memory needs Linux")


MEMORY_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("pacal", {}), ("pacal-solo", {}), ("temple", {}),
    ("mahjongg", {}), ("mahjongg", {"mode": "time-attack"}),
    ("mahjongg", {"mode": "coop", "players": 2}),
]


def measure_memory(args: argparse.Namespace) -> None:
    """Resident memory per waiting room, game by game, on one server; then a restart."""
    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{Path(folder) / 'memory.db'}"
        port = free_port()
        log = Path(folder) / "server.log"
        server = start_server(db_url, port, log, "normal")
        rows = []
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                known = {game["name"] for game in http.get("/api/games").json()["games"]}
                for game, options in MEMORY_GAMES:
                    if game not in known:
                        continue
                    before = resident_bytes(server.pid)
                    started = time.perf_counter()
                    for _ in range(args.memory):
                        made = http.post("/api/rooms", json={"game": game, "options": options})
                        if made.status_code != 201:
                            raise SystemExit(f"could not make a room: {made.text}")
                    seconds = time.perf_counter() - started
                    grown = resident_bytes(server.pid) - before
                    label = game + (f" {options}" if options else "")
                    rows.append((label, grown, seconds))
                    print(f"{label:45s} +{grown / 2**20:7.1f} MB for {args.memory} rooms: "
                          f"{grown / args.memory / 1024:6.1f} KB a room "
                          f"({seconds / args.memory * 1000:.1f} ms to make one)")
        finally:
            server.kill()
            server.wait(10)
        restarted_at = time.perf_counter()
        again = start_server(db_url, port, log, "normal")
        answered = time.perf_counter() - restarted_at
        try:
            print(f"restart with {args.memory * len(rows)} waiting rooms stored: first answer "
                  f"after {answered:.1f} s (rooms are loaded when asked for); resident "
                  f"{resident_bytes(again.pid) / 2**20:.0f} MB")
        finally:
            again.kill()
            again.wait(10)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def total_cpu_seconds(pids: list[int]) -> float | None:
    times = [cpu_seconds(pid) for pid in pids]
    return None if not times or None in times else sum(t for t in times if t is not None)


async def run(args: argparse.Namespace, ports: list[int], server_pids: list[int]) -> Tally:
    tally = Tally()
    limits = httpx.Limits(max_connections=100)
    warmup = args.games / args.ramp + 2
    # Measured for as long as the nominal warm-up leaves of --duration, from when
    # every game is held (the ramp-up may take longer than its nominal time when the
    # server answers the set-up requests slowly; it is capped, and reported).
    measured = args.duration - min(warmup, args.duration / 2)
    started = time.monotonic()
    ramp_limit = started + max(warmup, RAMP_LIMIT_FACTOR * warmup)
    tally.stop_at = ramp_limit + measured
    https = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30, limits=limits)
             for port in ports]
    ws_bases = [f"ws://127.0.0.1:{port}" for port in ports]
    try:
        players = [
            asyncio.create_task(player(i, https, ws_bases, args, tally))
            for i in range(args.games)
        ]
        await asyncio.sleep(min(warmup, args.duration / 2))
        while tally.connected < args.games and time.monotonic() < ramp_limit:
            await asyncio.sleep(0.2)
        tally.ramp_seconds = time.monotonic() - started
        # This client's own collector must not stop it while moves are in flight (its
        # pauses would be counted as the server's): tuned as the server's is, freezing
        # what the ramp-up made.
        settle_collector()
        tally.stop_at = stop_at = time.monotonic() + measured
        tally.measuring = True
        print(f"measuring: {tally.connected} games connected after {tally.ramp_seconds:.0f} s "
              "of ramp-up")
        server_before, client_before = total_cpu_seconds(server_pids), time.process_time()
        while time.monotonic() < stop_at:
            await asyncio.sleep(min(5, max(0.0, stop_at - time.monotonic())))
            print(f"  t={time.monotonic() - started:5.0f}s  games={tally.connected}  "
                  f"actions={tally.actions}  errors={len(tally.errors)}")
        server_after = total_cpu_seconds(server_pids)
        if server_before is not None and server_after is not None:
            tally.server_cpu_seconds = server_after - server_before
        tally.client_cpu_seconds = time.process_time() - client_before
        await asyncio.wait(players, timeout=30)
        for task in players:
            task.cancel()
    finally:
        for http in https:
            await http.aclose()
    tally.measured_seconds = measured
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each move")
    parser.add_argument("--ramp", type=float, default=50.0, help="new games per second")
    parser.add_argument("--game", default="pacal")
    parser.add_argument("--agent", default="random")
    parser.add_argument("--bot-processes", type=int, default=0,
                        help="the server's worker processes for searching bots (0: threads)")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--sqlite-sync", default="full", choices=("full", "normal"))
    parser.add_argument("--port", type=int, default=None,
                        help="use a server already running on this loopback port")
    parser.add_argument("--chat", type=float, default=0.0,
                        help="chance a player writes a chat message before each move")
    parser.add_argument("--clock", default=None,
                        help="a turn clock in every room: move:SECONDS or bank:SECONDS:INCREMENT")
    parser.add_argument("--memory", type=int, default=0,
                        help="measure memory per waiting room with this many rooms a game")
    parser.add_argument("--processes", type=int, default=0,
                        help="measure 1..N `serve --cluster` processes on the --db PostgreSQL")
    args = parser.parse_args()
    if args.memory:
        measure_memory(args)
        return
    args.games = max(1, min(args.games, MAX_GAMES))
    args.duration = max(5.0, min(args.duration, MAX_DURATION))
    if args.processes:
        if not (args.db or "").startswith(("postgresql://", "postgres://")):
            raise SystemExit("--processes needs --db postgresql://...: the processes share it")
        if not 1 <= args.processes <= 8:
            raise SystemExit("--processes is 1 to 8")
        for count in range(1, args.processes + 1):
            tally, server_log = measure(args, count)
            report(args, tally, server_log, f"{count} cluster process"
                   + ("es" if count > 1 else ""))
        return

    if args.port is not None:
        tally, server_log = asyncio.run(run(args, [args.port], [])), ""
    else:
        tally, server_log = measure(args, 0)
    report(args, tally, server_log, "one process")


def measure(args: argparse.Namespace, processes: int) -> tuple[Tally, str]:
    """Start the server (`processes` cluster processes; 0: one plain one), run the load."""
    with tempfile.TemporaryDirectory() as folder:
        db_url = args.db or f"sqlite:///{Path(folder) / 'load.db'}"
        ports = [free_port() for _ in range(max(1, processes))]
        logs = [Path(folder) / f"server{index}.log" for index in range(len(ports))]
        servers = []
        try:
            for port, log in zip(ports, logs, strict=True):
                servers.append(start_server(db_url, port, log, args.sqlite_sync,
                                            cluster=processes > 0,
                                            bot_processes=args.bot_processes))
            tally = asyncio.run(run(args, ports, [server.pid for server in servers]))
        finally:
            for server in servers:
                server.kill()
                server.wait(10)
        return tally, "".join(log.read_text(errors="replace") for log in logs if log.exists())


def report(args: argparse.Namespace, tally: Tally, server_log: str, label: str) -> None:
    latencies = [value * 1000 for value in tally.latencies]
    print(f"\n[{label}] game {args.game} vs {args.agent}; {args.games} games requested, "
          f"think {args.think}s,"
          f" db {'sqlite ' + args.sqlite_sync if args.db is None else args.db.split('@')[-1]}")
    print(f"chat {args.chat:g} a move ({tally.chats} messages sent), clock "
          f"{args.clock or 'none'}")
    print(f"peak concurrent games held: {tally.peak_connected} (measuring began after "
          f"{tally.ramp_seconds:.0f} s of ramp-up, nominally {args.games / args.ramp + 2:.0f} s)")
    print(f"games finished (replaced by new ones): {tally.games_finished}")
    print(f"client errors: {len(tally.errors)}" +
          (f" (first: {tally.errors[0]})" if tally.errors else ""))
    if latencies:
        print(f"measured person actions: {len(latencies)} "
              f"({len(latencies) / tally.measured_seconds:.0f}/s, bot moves come on top)")
        print(f"round trip ms: p50 {statistics.median(latencies):.1f}  "
              f"p95 {percentile(latencies, 0.95):.1f}  p99 {percentile(latencies, 0.99):.1f}  "
              f"max {max(latencies):.1f}")
        if tally.server_cpu_seconds is not None:
            per_action = tally.server_cpu_seconds / len(latencies) * 1000
            print(f"server CPU while measuring: {tally.server_cpu_seconds:.1f} s "
                  f"({tally.server_cpu_seconds / tally.measured_seconds:.0%} of one core; "
                  f"{per_action:.2f} ms per person action with its bot replies)")
        print(f"client CPU while measuring: {tally.client_cpu_seconds:.1f} s")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.1f} at the end")
    if "Traceback" in server_log:
        print("server log has tracebacks:\n" + server_log[-3000:])


if __name__ == "__main__":
    main()
