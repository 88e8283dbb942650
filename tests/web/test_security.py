"""The server as an attacker probes it: each finding of issue #15, reproduced and refused.

Deals: a client cannot choose the seed of a game with hidden information, every
room shows a commitment that the revealed seed and salt open at the end. Limits:
rooms, requests, sockets and messages per address answer 429 / a close with a
reason. Files: no option value makes the server open a file. Lifecycles: leave,
kick, abort, expiry, bot-only rooms that wait for a watcher. Integrity: the
server keeps the time-attack clock, a double submit applies once. Malformed
input gets 400s, never 500s.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import threading
import time
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from pyramids.cli.main import app as cli
from pyramids.core import GameRecord, game_names
from pyramids.web import bots
from pyramids.web.hub import Hub
from pyramids.web.limits import ServerLimits, json_too_deep
from pyramids.web.rooms import Room, RoomError, RoomSettings, hash_token, verify_commitment
from pyramids.web.serving import header_deadline_protocol
from pyramids.web.ws import CLOSE_TOO_MANY
from tests.web.conftest import TIMEOUT, Client, ServerThread
from tests.web.test_server import create_room, error_of, start, take_seat
from tests.web.toy import NAME

HAS_MAHJONGG = "mahjongg" in game_names()
HAS_PACAL = "pacal" in game_names()


def play_toy_to_the_end(server: ServerThread, room_id: str, tokens: list[str]) -> list[Client]:
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    moves = 0
    while True:
        state = seats[0].state_at_least(moves)
        if state["status"] == "finished":
            return seats
        mover = seats[state["current_player"]]
        mine = mover.state_at_least(moves)
        mover.send({"type": "action", "action": mine["legal_actions"][0], "move_number": moves})
        moves += 1


# -- 1. the deal: server-owned, committed, revealed -----------------------------------


def test_a_client_cannot_choose_the_deal_of_a_game_with_hidden_information(
    server: ServerThread,
) -> None:
    games = [NAME] + (["pacal"] if HAS_PACAL else [])
    for game in games:
        response = server.http.post("/api/rooms", json={"game": game, "seed": 42})
        assert response.status_code == 400, response.text
        error = error_of(response)
        assert error["code"] == "seed_not_allowed"
        assert "one-player practice" in error["message"]
    assert server.http.get("/api/rooms").json()["rooms"] == []  # nothing was made


def test_the_commitment_shown_at_the_start_opens_with_the_seed_revealed_at_the_end(
    server: ServerThread, clients: list[Client], tmp_path: Path
) -> None:
    room_id, host = create_room(server)
    shown = server.http.get(f"/api/rooms/{room_id}").json()["room"]["fairness"]
    assert shown["server_dealt"] is True and len(shown["commitment"]) == 64
    assert "seed" not in shown and "salt" not in shown
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    seats = play_toy_to_the_end(server, room_id, tokens)
    clients.extend(seats)
    final = seats[0].state_at_least(4)
    assert final["fairness"]["commitment"] == shown["commitment"]
    response = server.http.get(f"/api/rooms/{room_id}/record")
    record = response.json()
    fairness = record["fairness"]
    assert verify_commitment(shown["commitment"], record["seed"], fairness["salt"])
    assert not verify_commitment(shown["commitment"], record["seed"] + 1, fairness["salt"])
    replayed = GameRecord.from_json(response.text).final_state()
    assert replayed.view(0) == final["view"]  # the full replay from the revealed seed

    saved = tmp_path / "record.json"
    saved.write_text(response.text)
    verified = CliRunner().invoke(cli, ["verify-room", str(saved)])
    assert verified.exit_code == 0 and "commitment verified" in verified.output
    record["seed"] = record["seed"] + 1
    saved.write_text(json.dumps(record))
    forged = CliRunner().invoke(cli, ["verify-room", str(saved)])
    assert forged.exit_code == 1 and "MISMATCH" in forged.output


def test_two_rooms_get_different_secret_deals(server: ServerThread) -> None:
    # Two rooms never share a commitment: seeds come from the server's secrets.
    commitments = {create_room(server)[0] for _ in range(3)}
    shown = {server.http.get(f"/api/rooms/{room}").json()["room"]["fairness"]["commitment"]
             for room in commitments}
    assert len(shown) == 3


@pytest.mark.skipif(not HAS_PACAL, reason="pacal-solo is not registered")
def test_a_practice_deal_is_for_one_player_only_and_unranked(server: ServerThread) -> None:
    room_id, _ = create_room(server, "pacal-solo", seed=42)
    room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["fairness"]["practice"] is True and room["fairness"]["server_dealt"] is False
    ranked, _ = create_room(server, "pacal-solo")
    assert server.http.get(f"/api/rooms/{ranked}").json()["room"]["fairness"]["server_dealt"]
    for seed in ("true", str(2**70), '"\\ud800"', json.dumps("x" * 101), "[1]"):
        body = '{"game": "pacal-solo", "seed": ' + seed + "}"  # a lone surrogate, too
        response = server.http.post("/api/rooms", content=body.encode(),
                                    headers={"content-type": "application/json"})
        assert response.status_code == 400, (seed, response.text)


def test_bot_seeds_are_server_secrets_not_the_room_id(monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[int] = []

    def make_agent(name: str, seed: int) -> Any:
        given.append(seed)
        return type("Agent", (), {"name": name})()

    monkeypatch.setattr(bots, "make_agent", make_agent)

    class Live:
        def __init__(self) -> None:
            self.agents: dict[int, Any] = {}
            self.room = type("R", (), {"id": "SameRoomId"})()

    for _ in range(5):
        bots._agent_for(Live(), 0, "random")  # type: ignore[arg-type]
    assert len(set(given)) == 5  # the same room id and seat: five different seeds


# -- 2. rooms are limited, expire, and are loaded only on demand ----------------------


def test_rooms_per_address_and_new_rooms_per_minute_answer_429(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    server = start_server(db_url, ServerLimits.relaxed(rooms_per_client=2))
    first, host = create_room(server)
    create_room(server)
    refused = server.http.post("/api/rooms", json={"game": NAME})
    assert refused.status_code == 429 and error_of(refused)["code"] == "too_many_rooms"
    # The first room was made a moment ago: it can expire only after the idle limit.
    idle = ServerLimits.relaxed().waiting_room_idle_seconds
    assert idle - 60 <= int(refused.headers["retry-after"]) <= idle
    # At the limit, a bad request still hears its own fault, and a solitaire game
    # (it starts at once, it never waits) is not refused.
    seeded = server.http.post("/api/rooms", json={"game": NAME, "seed": 7})
    assert error_of(seeded)["code"] == "seed_not_allowed"
    solitaire = server.http.post("/api/solitaire", json={
        "game": "mahjongg", "name": "Ana", "board": "giza-step-ramp"})
    assert solitaire.status_code == 201, solitaire.text
    # A one-seat room is counted apart: rooms waiting for friends never stop a solo game.
    solo = server.http.post("/api/rooms", json={"game": "pacal-solo"})
    assert solo.status_code == 201, solo.text
    abort = server.http.post(f"/api/rooms/{first}/abort", json={"token": host})
    assert abort.status_code == 200 and abort.json()["room"]["status"] == "aborted"
    create_room(server)  # an aborted room no longer counts

    burst = start_server(db_url, ServerLimits.relaxed(rooms_created_per_minute=2))
    create_room(burst)
    create_room(burst)
    refused = burst.http.post("/api/rooms", json={"game": NAME})
    assert refused.status_code == 429 and error_of(refused)["code"] == "rate_limited"
    assert "Retry-After" in refused.headers


def test_http_requests_past_the_rate_answer_429_with_retry_after(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    server = start_server(db_url, ServerLimits.relaxed(http_per_second=0.5, http_burst=5))
    answers = [server.http.get("/api/games").status_code for _ in range(8)]
    assert answers[:5] == [200] * 5 and 429 in answers[5:]
    refused = server.http.get("/api/rooms")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "at most 0.5 a second" in error_of(refused)["message"]



def test_socket_openings_count_against_the_request_rate(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    """Opening a socket costs the server as a request does (and joining a room it has
    not loaded, a database read on the thread every move is stored on), but socket
    openings were not counted: a client could open and close sockets without end."""
    server = start_server(db_url, ServerLimits.relaxed(http_per_second=0.5, http_burst=4))
    url = f"{server.ws_base}/ws/rooms/NoSuchRoom"
    for _ in range(4):
        with connect(url, open_timeout=TIMEOUT) as socket_:
            socket_.send(json.dumps({"type": "join"}))
            assert json.loads(socket_.recv(timeout=TIMEOUT))["code"] == "unknown_room"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=TIMEOUT)
    answer = refused.value.response
    assert answer.status_code == 429 and int(answer.headers["Retry-After"]) >= 1
    assert "at most 0.5 a second" in json.loads(answer.body or b"{}")["error"]["message"]
    assert server.http.get("/api/games").status_code == 429  # one count for both

def test_a_waiting_room_expires_and_is_not_loaded_again(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    limits = ServerLimits.relaxed(waiting_room_idle_seconds=0.3)
    server = start_server(db_url, limits)
    room_id, _ = create_room(server)
    deadline = time.monotonic() + TIMEOUT
    while server.http.get(f"/api/rooms/{room_id}").json()["room"]["status"] == "waiting":
        assert time.monotonic() < deadline, "the room did not expire"
        time.sleep(0.05)
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["status"] == "expired"
    assert server.http.get("/api/rooms").json()["rooms"] == []
    taken = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Ana"})
    assert taken.status_code == 409 and error_of(taken)["code"] == "room_closed"
    listed = server.http.get("/api/rooms", params={"status": "expired"}).json()["rooms"]
    assert [room["id"] for room in listed] == [room_id]  # archived, not deleted


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_a_waiting_mahjongg_room_holds_under_50_kb() -> None:
    def make(number: int) -> Room:
        return Room.create(f"r{number}", "mahjongg", {}, number, hash_token("h"), RoomSettings())

    keep = [make(0)]  # the shared tables (layout, action space) exist once, before
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    keep += [make(number) for number in range(1, 21)]
    per_room = (tracemalloc.get_traced_memory()[0] - before) / 20
    tracemalloc.stop()
    assert per_room < 50_000, f"{per_room:.0f} bytes a waiting room"


# -- 3. no files from clients ---------------------------------------------------------


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_no_option_value_makes_the_server_open_a_file(
    server: ServerThread, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    secret = "SECRET_KEY=hunter2-do-not-show"
    (tmp_path / ".env").write_text(secret)
    (tmp_path / "notes").write_text(secret)
    for value in (".env", "notes", "./notes", "../notes", "x.layout", "a\\b", str(tmp_path)):
        response = server.http.post(
            "/api/rooms", json={"game": "mahjongg", "options": {"layout": value}}
        )
        assert response.status_code == 400, (value, response.text)
        assert error_of(response)["code"] == "bad_option"
        assert "hunter2" not in response.text and "SECRET" not in response.text


def test_unknown_option_names_are_refused_not_a_server_error(server: ServerThread) -> None:
    for key in ("name", "self", "layout_object", "__class__"):
        response = server.http.post("/api/rooms", json={"game": NAME, "options": {key: 1}})
        assert response.status_code == 400, (key, response.text)
        assert "allowed options" in error_of(response)["message"]


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_the_solver_budget_is_capped_by_the_server(server: ServerThread) -> None:
    response = server.http.post(
        "/api/rooms", json={"game": "mahjongg", "options": {"solver_nodes": 10_000_000}}
    )
    assert response.status_code == 400
    assert "at most 20000" in error_of(response)["message"]
    # The game list tells clients the same range (not the engine's 1e+07).
    games = server.http.get("/api/games").json()["games"]
    [mahjongg] = [game for game in games if game["name"] == "mahjongg"]
    [budget] = [option for option in mahjongg["options"] if option["name"] == "solver_nodes"]
    assert budget["allowed"] == "a whole number from 1 to 20,000"


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
@pytest.mark.parametrize("budget", ["10000000", " 10000000", 10_000_000.0])
def test_the_solver_budget_cap_holds_for_a_number_sent_as_text_or_a_float(
    server: ServerThread, budget: Any
) -> None:
    """The game reads "10000000" and 1e7 as the whole number 10,000,000, so the cap is
    checked on that number: a room and a solitaire game on a board alike (every view
    would have run the solver up to 500 times the server's budget)."""
    room = server.http.post("/api/rooms", json={"game": "mahjongg",
                                                "options": {"solver_nodes": budget}})
    assert room.status_code == 400, room.text
    assert error_of(room)["message_keys"] == (
        "solver_nodes=10000000 is over this server's limit; allowed: at most 20000")
    board = server.http.post("/api/solitaire", json={
        "game": "mahjongg", "name": "Ana", "board": "turtle",
        "options": {"solver_nodes": budget}})
    assert board.status_code == 400, board.text
    assert "at most 20000" in error_of(board)["message"]
    # Within the cap, text still reads as its number.
    fits = server.http.post("/api/rooms", json={"game": "mahjongg",
                                                "options": {"solver_nodes": "20000"}})
    assert fits.status_code == 201, fits.text
    assert fits.json()["room"]["options"]["solver_nodes"] == 20_000


@pytest.mark.parametrize("game", ["pacal", "temple"])
def test_the_round_cap_holds_for_a_number_sent_as_text(server: ServerThread, game: str) -> None:
    if game not in game_names():
        pytest.skip(f"{game} is not registered")
    response = server.http.post("/api/rooms", json={"game": game,
                                                    "options": {"max_rounds": "999"}})
    assert response.status_code == 400, response.text
    assert "over this server's limit" in error_of(response)["message"]


@pytest.mark.parametrize(("game", "most"), [("pacal", 150), ("temple", 400)])
def test_the_rounds_a_game_may_last_keep_it_inside_the_move_cap(
    server: ServerThread, game: str, most: int
) -> None:
    """A first-to-99 Pacal match with the library's 999 rounds took 9,000 to 9,800 moves:
    the move cap would have cut a game played by its rules. The server narrows the round
    caps so that every game fits, and says so before the game starts."""
    if game not in {entry["name"] for entry in server.http.get("/api/games").json()["games"]}:
        pytest.skip(f"{game} is not registered")
    too_many = server.http.post("/api/rooms", json={"game": game,
                                                    "options": {"max_rounds": most + 1}})
    assert too_many.status_code == 400
    assert error_of(too_many)["message"] == (
        f"Most rounds ({most + 1}) is over this server's limit; allowed: at most {most}")
    assert error_of(too_many)["message_keys"] == (
        f"max_rounds={most + 1} is over this server's limit; allowed: at most {most}")
    fits = server.http.post("/api/rooms", json={"game": game, "options": {"max_rounds": most}})
    assert fits.is_success, fits.text
    games = server.http.get("/api/games").json()["games"]
    [entry] = [entry for entry in games if entry["name"] == game]
    [rounds] = [option for option in entry["options"] if option["name"] == "max_rounds"]
    assert rounds["allowed"] == f"a whole number from 1 to {most}"
    assert server.http.get("/api/limits").json()["game_option_maximum"][game] == {
        "max_rounds": most}


# -- 4. engine work off the event loop ------------------------------------------------


def test_a_slow_view_in_one_room_does_not_hold_up_another(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_id, slow_host = create_room(server)
    slow_tokens = [take_seat(server, slow_id, "S1"), take_seat(server, slow_id, "S2")]
    release = threading.Event()
    building = threading.Event()
    original = Room.message_for

    def slow_message(self: Room, seat: int | None, connected: dict[int, bool],
                     view: dict[str, Any] | None = None) -> Any:
        if self.id == slow_id and self.status == "playing" and self.actions:
            building.set()
            release.wait(TIMEOUT)  # like a solver that thinks for seconds
        return original(self, seat, connected, view)

    monkeypatch.setattr(Room, "message_for", slow_message)
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    slow = Client(server.ws_base, slow_id, slow_tokens[0])
    clients.extend([*seats, slow])
    start(server, slow_id, slow_host)
    start(server, room_id, host)
    first = slow.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    if not first["your_turn"]:
        slow.close()
        slow = Client(server.ws_base, slow_id, slow_tokens[1])
        clients.append(slow)
        first = slow.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    slow.send({"type": "action", "action": first["legal_actions"][0], "move_number": 0})
    assert building.wait(TIMEOUT)
    try:
        for move in range(4):  # the other room plays on while that view is built
            state = seats[0].state_at_least(move)
            mover = seats[state["current_player"]]
            mine = mover.state_at_least(move)
            mover.send({"type": "action", "action": mine["legal_actions"][0],
                        "move_number": move})
            seats[0].state_at_least(move + 1)
        assert not release.is_set()
    finally:
        release.set()
    assert slow.state_at_least(1)["move_number"] == 1


def test_a_quick_games_moves_are_made_on_the_loop_and_others_in_the_pool(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pacal declares its engine quick: its checks, moves and views skip the worker
    # pool (a hand-off costs more than the work); the toy game declares nothing.
    handed: list[tuple[str, str]] = []
    original = Hub.run_engine

    async def recording(self: Hub, function: Callable[..., Any], *args: Any) -> Any:
        handed.append((getattr(function, "__name__", "?"), repr(args[:1])))
        return await original(self, function, *args)

    monkeypatch.setattr(Hub, "run_engine", recording)
    played = {}
    for game in ("pacal", NAME):
        room_id, host = create_room(server, game)
        tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
        seats = [Client(server.ws_base, room_id, token) for token in tokens]
        clients.extend(seats)
        start(server, room_id, host)
        handed.clear()
        for move in range(2):
            state = seats[0].state_at_least(move)
            mover = seats[state["current_player"]]
            mine = mover.state_at_least(move)
            mover.send({"type": "action", "action": mine["legal_actions"][0],
                        "move_number": move})
            assert seats[0].state_at_least(move + 1)["move_number"] == move + 1
        played[game] = {name for name, _ in handed}
    assert not played["pacal"] & {"_check", "_messages"}
    assert {"_check", "_messages"} <= played[NAME]
    rooms = [Room.create("r", game, {}, 1, "h", RoomSettings())
             for game in ("pacal", "pacal-solo", "temple", "mahjongg", NAME)]
    assert [Hub.engine_inline(room) for room in rooms] == [True, True, True, False, False]


def test_a_quick_bot_in_a_quick_game_moves_on_the_loop_a_searching_one_in_a_thread(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: dict[str, set[str]] = {}
    original = bots._step

    def recording(agent: Any, snapshot: Any) -> Any:
        threads.setdefault(agent.name, set()).add(threading.current_thread().name)
        return original(agent, snapshot)

    monkeypatch.setattr(bots, "_step", recording)
    for agent in ("random", "hard", "mcts"):
        room_id, host = create_room(server, "pacal")
        token = take_seat(server, room_id, "Ana", seat=1)
        response = server.http.post(f"/api/rooms/{room_id}/agents",
                                    json={"token": host, "seat": 0, "agent": agent})
        assert response.status_code == 200, response.text
        ana = Client(server.ws_base, room_id, token)
        clients.append(ana)
        start(server, room_id, host)
        bot_moves = 0
        while bot_moves < 2:  # Ana answers until the bot has moved twice
            state = ana.until(lambda m: m["type"] == "state" and m["your_turn"])
            bot_moves += bool(state["last_move"] and state["last_move"]["by_bot"])
            ana.send({"type": "action", "action": state["legal_actions"][0],
                      "move_number": state["move_number"]})
        ana.close()
    assert not any(name.startswith("pyramids-bot") for name in threads["random"])
    assert not any(name.startswith("pyramids-bot") for name in threads["hard"])
    assert all(name.startswith("pyramids-bot") for name in threads["mcts"])


# -- 6. seats, lifecycles, sockets and messages ---------------------------------------


def test_leave_kick_and_abort(server: ServerThread, clients: list[Client]) -> None:
    room_id, host = create_room(server)
    ana = take_seat(server, room_id, "Ana")
    bo = take_seat(server, room_id, "Bo")
    left = server.http.post(f"/api/rooms/{room_id}/leave", json={"token": ana})
    assert left.status_code == 200 and left.json()["room"]["open_seats"] == [0]
    again = server.http.post(f"/api/rooms/{room_id}/leave", json={"token": ana})
    assert again.status_code == 403
    not_host = server.http.post(f"/api/rooms/{room_id}/kick", json={"token": bo, "seat": 1})
    assert not_host.status_code == 403 and error_of(not_host)["code"] == "not_host"
    watcher = Client(server.ws_base, room_id, bo)
    clients.append(watcher)
    watcher.recv()
    kicked = server.http.post(f"/api/rooms/{room_id}/kick", json={"token": host, "seat": 1})
    assert kicked.status_code == 200 and kicked.json()["room"]["open_seats"] == [0, 1]
    assert watcher.error()["code"] == "seat_freed"
    assert watcher.until(lambda m: m["type"] == "state")["seat"] is None
    tokens = [take_seat(server, room_id, "Cy"), take_seat(server, room_id, "Di")]
    start(server, room_id, host)
    late = server.http.post(f"/api/rooms/{room_id}/leave", json={"token": tokens[0]})
    assert late.status_code == 409 and error_of(late)["code"] == "already_started"
    aborted = server.http.post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert aborted.status_code == 200
    room = aborted.json()["room"]
    assert room["status"] == "aborted" and "seed" in room["fairness"]
    assert verify_commitment(room["fairness"]["commitment"], room["fairness"]["seed"],
                             room["fairness"]["salt"])


def test_a_room_only_bots_play_waits_for_a_watcher(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, host = create_room(server)
    for seat in (0, 1):
        server.http.post(f"/api/rooms/{room_id}/agents",
                         json={"token": host, "seat": seat, "agent": "random"})
    start(server, room_id, host)
    time.sleep(0.5)
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["move_number"] == 0
    watcher = Client(server.ws_base, room_id)
    clients.append(watcher)
    assert watcher.until(lambda m: m["type"] == "state" and m["status"] == "finished")


def test_sockets_per_address_and_messages_per_second_are_limited(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    limits = ServerLimits.relaxed(sockets_per_client=2, messages_per_second=0.5,
                                  message_burst=3)
    server = start_server(db_url, limits)
    room_id, _ = create_room(server)
    first, second = Client(server.ws_base, room_id), Client(server.ws_base, room_id)
    clients.extend([first, second])
    first.recv()
    second.recv()
    third = Client(server.ws_base, room_id, join=False)
    clients.append(third)
    error = third.error()
    assert error["code"] == "too_many_connections" and "limit is 2" in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        third.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_MANY

    for _ in range(4):
        first.send({"type": "ping"})
    answers = [first.until(lambda m: m["type"] in ("pong", "error")) for _ in range(4)]
    assert [a["type"] for a in answers[:2]] == ["pong", "pong"]
    assert answers[-1]["code"] == "rate_limited"


def test_a_socket_from_another_sites_page_is_refused(server: ServerThread) -> None:
    url = f"{server.ws_base}/ws/rooms/anything"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="https://evil.example", open_timeout=TIMEOUT)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    host = server.ws_base.removeprefix("ws://")
    with connect(url, origin=f"http://{host}", open_timeout=TIMEOUT) as own:  # type: ignore[arg-type]
        own.send(json.dumps({"type": "ping"}))
        assert json.loads(own.recv(timeout=TIMEOUT)) == {"type": "pong"}


# -- 7. game integrity ------------------------------------------------------------------


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_two_undos_for_one_state_apply_once(server: ServerThread, clients: list[Client]) -> None:
    room_id, host = create_room(server, "mahjongg")
    token = take_seat(server, room_id, "Ana")
    ana = Client(server.ws_base, room_id, token)
    clients.append(ana)
    start(server, room_id, host)
    state = ana.state_at_least(0)
    match = next(a for a in state["legal_actions"] if a.startswith("match"))
    ana.send({"type": "action", "action": match, "move_number": 0})
    ana.state_at_least(1)
    ana.send({"type": "action", "action": "undo", "move_number": 1})
    ana.send({"type": "action", "action": "undo", "move_number": 1})
    assert ana.error()["code"] == "stale"
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["move_number"] == 2


def mahjongg_alone(server: ServerThread, clients: list[Client],
                   options: dict[str, Any] | None = None) -> tuple[Client, dict[str, Any]]:
    """A started one-player Mahjongg room: Ana's client and her first state."""
    room_id, host = create_room(server, "mahjongg", options=options or {})
    ana = Client(server.ws_base, room_id, take_seat(server, room_id, "Ana"))
    clients.append(ana)
    start(server, room_id, host)
    return ana, ana.state_at_least(0)


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_the_server_keeps_the_time_attack_clock(
    server: ServerThread, clients: list[Client]
) -> None:
    ana, state = mahjongg_alone(server, clients, {"mode": "time-attack",
                                                  "time_limit_seconds": 2})
    ana.send({"type": "action", "action": "clock 1", "move_number": 0})
    refused = ana.error()
    assert refused["code"] == "server_clock"
    # Nobody moves: the server itself ends the game when the time is up.
    over = ana.until(lambda m: m["type"] == "state" and m["status"] == "finished")
    assert over["view"]["time_left"] == 0
    assert over["last_move"]["action"] == "clock 2"
    assert state["view"]["time_left"] == 2


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_a_refused_move_in_a_timed_game_does_not_move_the_clock(
    server: ServerThread, clients: list[Client]
) -> None:
    """A bad message must not make the server store and broadcast a clock move (nor
    push the move number on, which would make the player's next move stale)."""
    ana, state = mahjongg_alone(server, clients, {"mode": "time-attack",
                                                  "time_limit_seconds": 60})
    room_id = state["room"]
    time.sleep(1.2)  # a whole second gone by: a move now would first tell the time
    for bad in ("garbage", "match 0 0", "pass pass"):
        ana.send({"type": "action", "action": bad, "move_number": state["move_number"]})
        assert ana.error()["code"] == "illegal_action"
    room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["move_number"] == state["move_number"] == 0
    # A legal move still tells the time first, then is played.
    pair = next(action for action in state["legal_actions"] if action.startswith("match"))
    ana.send({"type": "action", "action": pair, "move_number": 0})
    moved = ana.until(lambda m: m["type"] == "state" and m["move_number"] == 2)
    assert moved["last_move"]["action"] == pair


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_a_refused_pair_is_told_by_its_faces_not_by_tile_numbers(
    server: ServerThread, clients: list[Client]
) -> None:
    ana, state = mahjongg_alone(server, clients)
    free = [tile["id"] for tile in state["view"]["tiles"] if tile.get("free")]
    legal = set(state["legal_actions"])
    # Two free tiles that do not match (not every two faces that differ: seasons match).
    first, second = next((a, b) for a in free for b in free if a < b
                         and f"match {a} {b}" not in legal and f"match {b} {a}" not in legal)
    ana.send({"type": "action", "action": f"match {first} {second}", "move_number": 0})
    refused = ana.error()
    assert refused["code"] == "illegal_action"
    assert refused["message"].endswith("do not match"), refused
    # Not "the move 'match 12 40' is illegal: ...": no action string, no tile numbers.
    assert "match" not in refused["message"].replace("do not match", "")
    assert "'" not in refused["message"] and "illegal" not in refused["message"]


def test_the_seat_to_move_is_told_why_each_favor_is_off(
    server: ServerThread, clients: list[Client]
) -> None:
    """A disabled Undo or Hint said nothing: the state message names why, as Words the
    page translates; only the seat to move gets them."""
    _ana, state = mahjongg_alone(server, clients)
    assert state["your_turn"]
    off = state["unavailable"]
    assert off["undo"] == {"msgid": "there is nothing to undo", "values": {}}
    assert "undo" not in state["legal_actions"]
    assert not set(off) & set(state["legal_actions"])


def test_a_finished_room_serves_its_record_without_replaying(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    seats = play_toy_to_the_end(server, room_id, tokens)
    for seat in seats:
        seat.close()

    def no_replay(*_args: Any, **_kwargs: Any) -> Room:
        raise AssertionError("replayed")

    monkeypatch.setattr(Room, "restore", no_replay)
    for _ in range(3):
        assert server.http.get(f"/api/rooms/{room_id}/record").status_code == 200
        assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["status"] == "finished"


# -- 8. malformed input, headers, schema, database file ----------------------------------


def test_deep_json_is_refused_not_a_server_error(
    server: ServerThread, clients: list[Client]
) -> None:
    deep = "[" * 2000 + "]" * 2000
    response = server.http.post("/api/rooms", content=deep.encode(),
                                headers={"content-type": "application/json"})
    assert response.status_code == 400 and "nested too deeply" in error_of(response)["message"]
    room_id, _ = create_room(server)
    client = Client(server.ws_base, room_id)
    clients.append(client)
    client.recv()
    client.send('{"type": "ping", "x": ' + deep + "}")
    error = client.error()
    assert error["code"] == "bad_json" and "nested too deeply" in error["message"]
    assert json_too_deep('{"a": "[[[[[["}', 2) is False


def test_security_headers_and_a_schema_that_says_400(server: ServerThread) -> None:
    response = server.http.get("/api/games")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    schema = server.http.get("/openapi.json").json()
    for path in schema["paths"].values():
        for operation in path.values():
            assert "422" not in operation["responses"]
    assert "400" in schema["paths"]["/api/rooms"]["post"]["responses"]
    # No page that needs a CDN's scripts, which the policy above forbids.
    for page in ("/docs", "/redoc"):
        assert server.http.get(page).status_code == 404


def test_the_sqlite_file_is_readable_by_its_owner_only(server: ServerThread, db_url: str) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("a SQLite file")
    path = db_url.removeprefix("sqlite:///")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_an_unlisted_room_is_found_only_by_its_address(server: ServerThread) -> None:
    hidden, _ = create_room(server, unlisted=True)
    listed, _ = create_room(server)
    assert [room["id"] for room in server.http.get("/api/rooms").json()["rooms"]] == [listed]
    room = server.http.get(f"/api/rooms/{hidden}").json()["room"]
    assert room["unlisted"] is True and room["status"] == "waiting"
    take_seat(server, hidden, "Ana")  # whoever has the link may sit


def test_a_game_nobody_watches_is_adjourned_and_resumes_as_it_was(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, ServerLimits.relaxed(adjourn_after_seconds=0.2))
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    ana = Client(server.ws_base, room_id, tokens[0])
    state = ana.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    ana.close()
    hub = server.app.state.hub
    deadline = time.monotonic() + TIMEOUT
    while room_id in hub.rooms:  # put away from memory, still in the database
        assert time.monotonic() < deadline, "the room was not adjourned"
        time.sleep(0.05)
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["status"] == "playing"
    back = Client(server.ws_base, room_id, tokens[0])
    clients.append(back)
    resumed = back.until(lambda m: m["type"] == "state")
    assert resumed["view"] == state["view"] and resumed["move_number"] == 0


def test_a_connection_that_sends_its_headers_too_slowly_is_closed(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, http=header_deadline_protocol(0.3))
    host, port = server.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=TIMEOUT) as slow:
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # and no more
        began = time.monotonic()
        assert slow.recv(1024) == b""  # closed by the server
        assert time.monotonic() - began < TIMEOUT
    # Whole requests and sockets are served as before.
    assert server.http.get("/api/games").status_code == 200
    room_id, _ = create_room(server)
    watcher = Client(server.ws_base, room_id)
    clients.append(watcher)
    assert watcher.recv()["type"] == "state"


# -- 9. how far a game may grow, how large an answer may be ---------------------------


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_a_game_cannot_grow_without_end_by_undoing_and_matching_again(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """A pair and its undo, again and again: every move is a stored row, memory in the
    room and time when it is restored or replayed, so a room holds at most
    `max_moves_per_room` moves; the move past it ends the game (aborted), saying why."""
    server = start_server(db_url, ServerLimits.relaxed(max_moves_per_room=6))
    ana, state = mahjongg_alone(server, clients)
    room_id = state["room"]
    pair = next(action for action in state["legal_actions"] if action.startswith("match"))
    for number in range(6):
        ana.send({"type": "action", "action": "undo" if number % 2 else pair,
                  "move_number": number})
        assert ana.state_at_least(number + 1)["status"] == "playing"
    ana.send({"type": "action", "action": pair, "move_number": 6})
    refused = ana.error()
    assert refused["code"] == "too_many_moves"
    assert "reached 6 moves" in refused["message"] and "without a result" in refused["message"]
    assert "aborted" not in refused["message"]  # an internal status, not words
    over = ana.last_state  # everyone is sent the game's end; the mover also hears why
    assert over is not None and over["status"] == "aborted" and over["move_number"] == 6
    assert "seed" in over["fairness"]  # over: the deal may be checked now
    room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["status"] == "aborted" and room["move_number"] == 6
    assert server.http.get(f"/api/rooms/{room_id}/record").status_code == 200


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_a_replay_too_large_is_refused_before_it_is_built(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay holds every seat's view at every step: a game of many moves (undo after
    undo) would make one request build gigabytes. Past `MAX_REPLAY_BYTES` it is
    refused, from an estimate, before any step is built; the record still answers."""
    from pyramids.web import replay

    room_id, host = create_room(server, "mahjongg")
    ana = Client(server.ws_base, room_id, take_seat(server, room_id, "Ana"))
    clients.append(ana)
    start(server, room_id, host)
    state = ana.state_at_least(0)
    pair = next(action for action in state["legal_actions"] if action.startswith("match"))
    for number in range(4):
        ana.send({"type": "action", "action": "undo" if number % 2 else pair,
                  "move_number": number})
        ana.state_at_least(number + 1)
    aborted = server.http.post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert aborted.status_code == 200, aborted.text
    built: list[int] = []
    original = replay.replay_answer

    def counting(record: dict[str, Any], lang: str) -> dict[str, Any]:
        built.append(1)
        return original(record, lang)

    monkeypatch.setattr(replay, "replay_answer", counting)
    monkeypatch.setattr(replay, "MAX_REPLAY_BYTES", 60_000, raising=False)  # 5 steps of 18 KB
    refused = server.http.get(f"/api/rooms/{room_id}/replay")
    assert refused.status_code == 409, refused.text
    error = error_of(refused)
    assert error["code"] == "replay_too_large"
    assert "4 moves" in error["message"] and f"/api/rooms/{room_id}/record" in error["message"]
    assert built == []
    assert server.http.get(f"/api/rooms/{room_id}/record").status_code == 200
    monkeypatch.setattr(replay, "MAX_REPLAY_BYTES", 32_000_000)
    answer = server.http.get(f"/api/rooms/{room_id}/replay")
    assert answer.status_code == 200 and len(answer.json()["steps"]) == 5


def test_a_replay_is_written_off_the_event_loop(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay's JSON (megabytes for a long game) is written in the engine pool, not
    on the loop every room shares."""
    from pyramids.web import replay

    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    clients.extend(play_toy_to_the_end(server, room_id, tokens))
    threads: set[str] = set()

    class Recording:
        loads = staticmethod(json.loads)

        @staticmethod
        def dumps(*args: Any, **kwargs: Any) -> str:
            threads.add(threading.current_thread().name)
            return json.dumps(*args, **kwargs)

    monkeypatch.setattr(replay, "json", Recording)
    assert server.http.get(f"/api/rooms/{room_id}/replay").status_code == 200
    assert threads and all(name.startswith("pyramids-engine") for name in threads), threads


def test_a_score_tables_options_nested_deeply_are_refused_not_a_server_error(
    server: ServerThread,
) -> None:
    deep = "[" * 1200 + "]" * 1200  # past the parser's recursion limit
    response = server.http.get("/api/scores/mahjongg/giza-step-ramp", params={"options": deep})
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["code"] == "bad_option" and "nested too deeply" in error["message"]
    plain = server.http.get("/api/scores/mahjongg/giza-step-ramp",
                            params={"options": '{"pantheon_pairs": false}'})
    assert plain.status_code == 200 and plain.json()["variant"] == "pantheon_pairs=False"


@pytest.mark.skipif(not HAS_PACAL, reason="pacal is not registered")
def test_a_late_joiners_long_move_log_is_caught_up_off_the_event_loop(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pacal's moves and views are made on the loop (a quick engine), but a socket that
    joins a long match has the whole log replayed and worded for it (a 99-round match:
    5,000 moves, about 250 ms): a client joining again and again would stop every
    room. Past `INLINE_LOG_WORK` that work goes to the engine pool."""
    from pyramids.play.movelog import MoveLog
    from pyramids.web import movelog

    room_id, host = create_room(server, "pacal")
    for seat in (0, 1):
        server.http.post(f"/api/rooms/{room_id}/agents",
                         json={"token": host, "seat": seat, "agent": "random"})
    start(server, room_id, host)
    watcher = Client(server.ws_base, room_id)
    clients.append(watcher)
    moves = watcher.until(lambda m: m["type"] == "state" and m["status"] == "finished")
    assert moves["move_number"] > 20
    watcher.close()
    hub = server.app.state.hub
    # The server lets the finished room go once it has seen the watcher leave; forget it
    # only then, or the room still held would be kept with its log already worded.
    deadline = time.monotonic() + 10
    while room_id in hub.rooms and time.monotonic() < deadline:
        time.sleep(0.01)
    assert room_id not in hub.rooms
    hub.over_rooms.clear()  # read again, as after a restart
    threads: list[str] = []
    original = MoveLog.catch_up

    def recording(self: MoveLog, audience: Any) -> None:
        if not self.is_current(audience):
            threads.append(threading.current_thread().name)
        original(self, audience)

    monkeypatch.setattr(MoveLog, "catch_up", recording)
    monkeypatch.setattr(movelog, "INLINE_LOG_WORK", 20, raising=False)
    late = Client(server.ws_base, room_id)
    clients.append(late)
    assert late.until(lambda m: m["type"] == "log")["reset"] is True
    assert threads and all(name.startswith("pyramids-engine") for name in threads), threads


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_time_attack_time_runs_on_while_the_game_is_put_away(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """A time-attack player who closed the page until the game was adjourned (put
    away from memory) got back every second since their last move: the loaded game's
    clock started again from the time last told, so closing and reopening the page
    stopped the clock. The seconds away count, as they do while the page is open."""
    server = start_server(db_url, ServerLimits.relaxed(adjourn_after_seconds=0.2))
    room_id, host = create_room(server, "mahjongg", options={"mode": "time-attack",
                                                              "time_limit_seconds": 4})
    token = take_seat(server, room_id, "Ana")
    start(server, room_id, host)
    started = time.monotonic()
    ana = Client(server.ws_base, room_id, token)
    assert ana.state_at_least(0)["view"]["time_left"] == 4
    ana.close()
    hub = server.app.state.hub
    while room_id in hub.rooms:
        assert time.monotonic() - started < 3, "the room was not adjourned in time"
        time.sleep(0.05)
    time.sleep(max(0.0, started + 4.2 - time.monotonic()))  # the time is up meanwhile
    back = Client(server.ws_base, room_id, token)
    clients.append(back)
    # Before: the game went on with all 4 seconds left and ended 4 seconds later.
    over = back.until(lambda m: m["type"] == "state" and m["status"] == "finished", timeout=2)
    assert over["view"]["time_left"] == 0


@pytest.mark.skipif(not HAS_PACAL, reason="pacal is not registered")
def test_watching_a_finished_game_again_and_again_replays_it_once(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each socket that joined a finished room nobody was watching had the whole game
    replayed for it from the database (a long Pacal match: a few hundred ms of the
    server's CPU), and socket openings cost nothing: a client opening and closing
    sockets in a loop kept the server busy. A finished game never changes, so the
    latest ones read stay loaded."""
    room_id, host = create_room(server, "pacal")
    for seat in (0, 1):
        server.http.post(f"/api/rooms/{room_id}/agents",
                         json={"token": host, "seat": seat, "agent": "random"})
    start(server, room_id, host)
    watcher = Client(server.ws_base, room_id)
    finished = watcher.until(lambda m: m["type"] == "state" and m["status"] == "finished")
    watcher.close()
    hub = server.app.state.hub
    deadline = time.monotonic() + TIMEOUT
    while room_id in hub.rooms:  # nobody watches it now: put away
        assert time.monotonic() < deadline
        time.sleep(0.02)
    restored: list[str] = []
    original = Room.restore

    def counting(**data: Any) -> Room:
        restored.append(data["room_id"])
        return original(**data)

    monkeypatch.setattr(Room, "restore", counting)
    for _ in range(3):
        again = Client(server.ws_base, room_id)
        clients.append(again)
        seen = again.until(lambda m: m["type"] == "state")
        assert seen["view"] == finished["view"] and seen["status"] == "finished"
        again.close()
    assert len(restored) <= 1, restored  # before: once a socket


@pytest.mark.skipif(not HAS_MAHJONGG, reason="mahjongg is not registered")
def test_daily_deals_started_at_once_by_one_account_rank_one_game(
    server: ServerThread,
) -> None:
    """Only an account's first daily game of the day ranks; the server asked whether the
    account had one yet, and stored the new one only after making its room, so starts
    sent at once were each the first: each ranked, and the best of them stood."""
    from tests.web.test_accounts import browser, csrf, register

    ana = browser(server)
    assert register(ana, "Ana").status_code == 201
    starts = 4
    with ThreadPoolExecutor(starts) as pool:
        answers = list(pool.map(
            lambda _: ana.post("/api/solitaire", json={"game": "mahjongg", "name": "Ana",
                                                       "daily": True}, headers=csrf(ana)),
            range(starts)))
    assert all(answer.status_code == 201 for answer in answers), answers[0].text
    kinds = sorted(answer.json()["kind"] for answer in answers)
    assert kinds == ["daily"] + ["retry"] * (starts - 1), kinds


def test_one_address_has_one_replay_made_at_a_time(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay is every seat's view at every step: a long Pacal match took over 3 s of
    the server's CPU and 8 MB, so only a few fit among the answers kept. Asking for
    several long games' replays at once, again and again, kept every engine thread
    (the ones that play Mahjongg's moves) busy. An address now waits for its replay
    before the next is made for it; a request meanwhile is refused with a wait."""
    from pyramids.web import replay

    rooms = []
    for _ in range(2):
        room_id, host = create_room(server)
        tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
        start(server, room_id, host)
        clients.extend(play_toy_to_the_end(server, room_id, tokens))
        rooms.append(room_id)
    made = replay.replay_text

    def slow(*args: Any) -> str:
        time.sleep(0.5)  # as a long match's replay takes
        return made(*args)

    monkeypatch.setattr(replay, "replay_text", slow)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda room: server.http.get(f"/api/rooms/{room}/replay"),
                                rooms))
    assert sorted(answer.status_code for answer in answers) == [200, 429]
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert int(refused.headers["Retry-After"]) >= 1
    assert error_of(refused)["code"] == "rate_limited"
    later = rooms[answers.index(refused)]
    assert server.http.get(f"/api/rooms/{later}/replay").status_code == 200  # after the first


def test_one_address_opening_many_rooms_holds_one_place_in_the_loading_line(
    db_url: str, start_server: Callable[..., ServerThread], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room not in memory is loaded by replaying its game (a one-player Mahjongg room
    of 10,000 moves, undone and played again: about 2 s of CPU), one room at a time on
    the whole server, and only the 16 latest rooms that are over stay loaded. Asking
    for more rooms than that in turn (`GET /api/rooms/{id}/chat` needs no token), one
    address lined up one load after another ahead of everyone else's, without end. Now
    an address's loads wait for each other, and a few at most: another address's load
    comes next, and one past the few is refused with a wait."""
    from pyramids.web import hub as hub_module

    first = start_server(db_url)
    rooms = []
    for _ in range(4):
        room_id, host = create_room(first)
        assert first.http.post(f"/api/rooms/{room_id}/abort",
                               json={"token": host}).status_code == 200
        rooms.append(room_id)
    monkeypatch.setattr(hub_module, "LOADS_WAITING_PER_ADDRESS", 1, raising=False)
    server = start_server(db_url)  # a restart: none of the rooms is in its memory
    hub = server.app.state.hub
    loop = hub._loop
    gate = threading.Event()
    restored: list[str] = []
    original = Room.restore

    def held(**data: Any) -> Room:
        restored.append(data["room_id"])
        if len(restored) == 1:
            gate.wait(TIMEOUT)
        return original(**data)

    monkeypatch.setattr(Room, "restore", held)

    def load(room_id: str, address: str) -> Any:
        return asyncio.run_coroutine_threadsafe(hub.get(room_id, address), loop)

    try:
        loads = [load(rooms[0], "192.0.2.1")]
        deadline = time.monotonic() + TIMEOUT
        while not restored and time.monotonic() < deadline:
            time.sleep(0.01)
        loads += [load(rooms[1], "192.0.2.1"), load(rooms[2], "192.0.2.1"),
                  load(rooms[3], "198.51.100.7")]
        # Once the loop has begun each of them (each stops at its first wait).
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result(TIMEOUT)
        with pytest.raises(RoomError) as refused:
            loads[2].result(TIMEOUT)
        assert refused.value.status == 429 and refused.value.code == "rate_limited"
        assert refused.value.retry_after is not None and refused.value.retry_after > 0
    finally:
        gate.set()
    for index in (0, 1, 3):
        assert loads[index].result(TIMEOUT).room.id == rooms[index]
    assert restored == [rooms[0], rooms[3], rooms[1]]


def test_one_address_watches_a_bounded_number_of_rooms_only_bots_play(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """A room only bots play runs while a socket watches it: one address with many
    sockets kept as many bot rooms thinking and took the bot workers from everyone's
    games. It watches at most `bot_rooms_watched_per_client` of them at once, told so
    in words; rooms with a person at the table are not counted."""
    server = start_server(db_url, ServerLimits.relaxed(bot_rooms_watched_per_client=2))

    def bot_room(started: bool = True) -> tuple[str, str]:
        room_id, host = create_room(server, bot_delay_seconds=10)
        for seat in (0, 1):
            given = server.http.post(f"/api/rooms/{room_id}/agents",
                                     json={"token": host, "seat": seat, "agent": "random"})
            assert given.status_code == 200, given.text
        if started:
            start(server, room_id, host)
        return room_id, host

    def watch(room_id: str) -> Client:
        watcher = Client(server.ws_base, room_id)
        clients.append(watcher)
        return watcher

    rooms = [bot_room() for _ in range(3)]
    first, _second = (watch(room_id) for room_id, _ in rooms[:2])
    first.until(lambda m: m["type"] == "state")
    _second.until(lambda m: m["type"] == "state")
    again = watch(rooms[0][0])  # the same room again: counted once
    again.until(lambda m: m["type"] == "state")
    third = watch(rooms[2][0])
    error = third.error()
    assert error["code"] == "too_many_bot_rooms"
    assert "already watch 2 games that only bots play" in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        third.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_MANY
    # A room with a person at the table is watched as ever.
    people, _ = create_room(server)
    watch(people).until(lambda m: m["type"] == "state")
    # A room of bots cannot be started under a watcher already at the limit.
    waiting, host = bot_room(started=False)
    watch(waiting).until(lambda m: m["type"] == "state")  # waiting: it runs nothing yet
    refused = server.http.post(f"/api/rooms/{waiting}/start", json={"token": host})
    assert refused.status_code == 429 and error_of(refused)["code"] == "too_many_bot_rooms"
    # Watching one no more frees a place.
    first.close()
    again.close()
    time.sleep(0.2)
    watch(rooms[2][0]).until(lambda m: m["type"] == "state")


class WatchingRecorder:
    """A cluster link that only notes the `watching` notices this process would send."""

    def __init__(self) -> None:
        self.watching: list[dict[str, list[str]]] = []

    async def read(self, function: Callable[..., Any], *args: Any) -> Any:
        return function(*args)

    def notify_watching(self, watching: dict[str, list[str]]) -> None:
        self.watching.append(watching)

    def notify(self, room_id: str, reason: str) -> None:
        pass

    def notify_presence(self, presence: dict[str, list[int]]) -> None:
        pass


def bot_rooms(server: ServerThread, count: int) -> list[str]:
    """Rooms only bots play, started (slow bots: they keep playing through the test)."""
    made = []
    for _ in range(count):
        room_id, host = create_room(server, bot_delay_seconds=10)
        for seat in (0, 1):
            given = server.http.post(f"/api/rooms/{room_id}/agents",
                                     json={"token": host, "seat": seat, "agent": "random"})
            assert given.status_code == 200, given.text
        start(server, room_id, host)
        made.append(room_id)
    return made


def test_bot_rooms_watched_on_other_cluster_processes_count_toward_the_limit(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """In a cluster each process hears which bot rooms an address watches on the others
    (`watching`, by a digest of the address): with N processes the limit stays the
    limit, not N times it. A room watched here and elsewhere counts once; what another
    process said lapses when it stops saying it (it may have died)."""
    from pyramids.web.cluster import PRESENCE_TTL_SECONDS, Notice, address_key

    server = start_server(db_url, ServerLimits.relaxed(bot_rooms_watched_per_client=2))
    hub = server.app.state.hub
    here, elsewhere, third = bot_rooms(server, 3)
    key = address_key("127.0.0.1")

    def heard(rooms: tuple[str, ...]) -> None:
        notice = Notice("", "watching", "another-process", watching={key: rooms})
        hub._loop.call_soon_threadsafe(hub._on_notice, notice)
        time.sleep(0.1)

    def watch(room_id: str) -> Client:
        watcher = Client(server.ws_base, room_id)
        clients.append(watcher)
        return watcher

    heard((elsewhere, "a room only bots play on the other process"))
    refused = watch(here).error()
    assert refused["code"] == "too_many_bot_rooms"
    assert "already watch 2 games that only bots play" in refused["message"]
    # The room being joined, watched elsewhere too, is not counted against itself.
    heard((here, elsewhere))
    watching_here = watch(here)
    watching_here.until(lambda m: m["type"] == "state")
    assert watch(third).error()["code"] == "too_many_bot_rooms"
    # The other process watches nothing any more: places are free.
    heard(())
    watching_third = watch(third)
    watching_third.until(lambda m: m["type"] == "state")
    # What a process stopped saying lapses.
    watching_here.close()
    watching_third.close()
    heard(("another", "yet another"))
    assert watch(elsewhere).error()["code"] == "too_many_bot_rooms"
    assert (("another-process", key) in hub.remote_watching)
    rooms, _ = hub.remote_watching[("another-process", key)]
    hub.remote_watching[("another-process", key)] = (rooms, time.monotonic()
                                                     - PRESENCE_TTL_SECONDS - 1)
    watch(elsewhere).until(lambda m: m["type"] == "state")


def test_a_process_tells_the_others_the_bot_rooms_an_address_watches(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """Each watch and each leave of a room only bots play is told (the address as a
    digest, never itself); a room with a person at the table is not."""
    from pyramids.web.cluster import address_key

    server = start_server(db_url, ServerLimits.relaxed(bot_rooms_watched_per_client=2))
    hub = server.app.state.hub
    (room_id,) = bot_rooms(server, 1)
    people, _ = create_room(server)
    recorder = WatchingRecorder()
    hub.cluster = recorder
    try:
        watcher = Client(server.ws_base, room_id)
        clients.append(watcher)
        watcher.until(lambda m: m["type"] == "state")
        person_room = Client(server.ws_base, people)
        clients.append(person_room)
        person_room.until(lambda m: m["type"] == "state")
        watcher.close()
        deadline = time.monotonic() + TIMEOUT
        while len(recorder.watching) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        hub.cluster = None
    key = address_key("127.0.0.1")
    assert recorder.watching == [{key: [room_id]}, {key: []}]
    assert "127.0.0.1" not in json.dumps(recorder.watching)
