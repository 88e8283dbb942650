"""Durability: `pyramids serve` as a real process, killed with SIGKILL mid-game and restarted.

Every action a client has seen broadcast was committed first, so after the kill
the restarted server replays the room from its seed and actions, the seats
reconnect with their tokens and the game goes on.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pyramids.core import GameRecord, game_names
from pyramids.web.rooms import verify_commitment
from tests.web.conftest import Client
from tests.web.toy import NAME

ROOT = Path(__file__).resolve().parents[2]
# The toy game is registered only in tests, so the server process registers it first.
LAUNCH = (
    "from tests.web.toy import register_toy; register_toy(); "
    "from pyramids.cli.main import main; main()"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    def __init__(self, db_url: str, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--db", db_url, "--log-level", "warning"],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}; see {log}")
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {log}")
            time.sleep(0.1)
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def kill(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.kill()  # SIGKILL: no shutdown code runs
            self.process.wait(10)
        self.log.close()


@pytest.fixture
def processes() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for process in started:
        process.kill()


GAMES = [pytest.param(NAME, 2, 2, id=NAME)] + (
    [pytest.param("pacal", 8, 8, id="pacal")] if "pacal" in game_names() else []
)


@pytest.mark.parametrize(("game", "moves_before", "moves_after"), GAMES)
def test_game_goes_on_after_kill_9(
    db_url: str, tmp_path: Path, processes: list[ServerProcess], clients: list[Client],
    game: str, moves_before: int, moves_after: int,
) -> None:
    server = ServerProcess(db_url, tmp_path / "server.log")
    processes.append(server)
    created = server.http.post("/api/rooms", json={"game": game}).json()
    room_id, host = created["room"]["id"], created["host_token"]
    commitment = created["room"]["fairness"]["commitment"]
    tokens = [
        server.http.post(f"/api/rooms/{room_id}/seats", json={"name": name}).json()["token"]
        for name in ("Ana", "Bo")
    ]
    assert server.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    played: list[str] = []

    def play(count: int) -> None:
        # The server alone knows the seed: the test follows the seats' own messages.
        for _ in range(count):
            moves = len(played)
            states = [seat.state_at_least(moves) for seat in seats]
            if states[0]["status"] == "finished":
                return
            mover = next(seat for seat, state in zip(seats, states, strict=True)
                         if state["your_turn"])
            action = mover.state_at_least(moves)["legal_actions"][-1]
            mover.send({"type": "action", "action": action, "move_number": moves})
            played.append(action)
            for seat in seats:
                seat.state_at_least(moves + 1)

    play(moves_before)
    seen = [seat.state_at_least(moves_before)["view"] for seat in seats]
    server.kill()  # right after the last move was broadcast
    for seat in seats:
        seat.close()

    again = ServerProcess(db_url, tmp_path / "server.log")
    processes.append(again)
    seats = [Client(again.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    for number, seat in enumerate(seats):
        state = seat.recv()
        assert state["move_number"] == moves_before and state["status"] == "playing"
        assert state["view"] == seen[number]
        assert state["fairness"]["commitment"] == commitment and "seed" not in state["fairness"]
    wrong = Client(again.ws_base, room_id, "not-a-token")
    clients.append(wrong)
    assert wrong.error()["code"] == "bad_token"

    play(moves_after)
    final = seats[0].state_at_least(len(played))
    if final["status"] != "finished":
        assert final["status"] == "playing"
        return
    response = again.http.get(f"/api/rooms/{room_id}/record")
    record = GameRecord.from_json(response.text)
    assert record.actions == played
    assert verify_commitment(commitment, record.seed, response.json()["fairness"]["salt"])
    replica = record.final_state()
    assert final["view"] == json.loads(json.dumps(replica.view(0)))
    assert record.result == final["result"] == {"returns": replica.returns()}
