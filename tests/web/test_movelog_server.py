"""The move log over the room socket: each client gets its own audience's entries."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from pyramids.core import load
from pyramids.play.movelog import MoveLog
from tests.web.conftest import TIMEOUT, Client, ServerThread
from tests.web.test_server import create_room, start, take_seat

SEED = 4242


def _logs(client: Client, moves: int) -> list[dict[str, Any]]:
    """Every log entry `client` was sent, up to move `moves`, in order (from all it
    received so far, then from what comes)."""
    entries: list[dict[str, Any]] = []

    def take(message: dict[str, Any]) -> None:
        nonlocal entries
        if message.get("type") == "log":
            entries = ([] if message["reset"] else entries) + message["entries"]

    for text in list(client.received):
        take(json.loads(text))
    while not entries or entries[-1]["number"] < moves:
        take(client.recv())
    return entries


def test_each_seat_and_spectator_reads_its_own_log_in_its_language(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, seeds=itertools.repeat(SEED))
    room_id, host = create_room(server, "pacal")
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    spectator = Client(server.ws_base, room_id, join=False)
    spectator.send({"type": "join", "lang": "ko"})
    clients += [*seats, spectator]

    state = load("pacal").new_initial_state(SEED)
    expected = MoveLog("pacal")
    public: set[int] = set()
    moves = 0
    while moves < 12:
        message = seats[0].state_at_least(moves)
        mover = seats[message["current_player"]]
        legal = mover.state_at_least(moves)["legal_actions"]
        action = legal[len(legal) // 2]
        mover.send({"type": "action", "action": action, "move_number": moves})
        actor = state.current_player
        expected.record(state, actor, action, False,
                        lambda a=action: state.apply_action(state.string_to_action(a)))
        seen = state.view(None)
        public |= {card for pyramid in seen["pyramids"] for field in pyramid for card in field}
        public |= set(seen["offer"] or []) | {card for card in seen["to_place"] if card}
        moves += 1
    hidden_only = (set(state.view(0)["hand"]) | set(state.view(1)["hand"])) - public

    for audience, client, lang in ((0, seats[0], "en"), (1, seats[1], "en"),
                                   (None, spectator, "ko")):
        received = _logs(client, moves)
        # People are named by their names, as their seat chips name them.
        assert received == expected.as_json(audience, lang, names={0: "Ana", 1: "Bo"})
    ana_text = " ".join(line for entry in _logs(seats[0], moves) for line in entry["lines"])
    assert "Bo " in ana_text and "You " in ana_text
    assert "Ana" not in ana_text and "Seat" not in ana_text
    # Every card a spectator's log names was public: on a pyramid, offered or to place.
    spectator_text = " ".join(line for entry in _logs(Client(server.ws_base, room_id), moves)
                              for line in entry["lines"])
    named = {int(number) for number in re.findall(r"(?<![A-Za-z\d])(\d+)(?!\d)",
                                                    re.sub(r"[Ss]eat \d|F\d+", "", spectator_text))}
    assert named and named <= public
    assert not named & hidden_only


def test_a_restored_room_replays_its_log(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    first = start_server(db_url, seeds=itertools.repeat(SEED))
    room_id, host = create_room(first, "pacal")
    tokens = [take_seat(first, room_id, "Ana"), take_seat(first, room_id, "Bo")]
    start(first, room_id, host)
    ana = Client(first.ws_base, room_id, tokens[0])
    bo = Client(first.ws_base, room_id, tokens[1])
    for moves in range(3):
        message = ana.state_at_least(moves)
        mover = (ana, bo)[message["current_player"]]
        legal = mover.state_at_least(moves)["legal_actions"]
        mover.send({"type": "action", "action": legal[0], "move_number": moves})
    before = _logs(ana, 3)
    ana.close()
    bo.close()
    first.stop()

    second = start_server(db_url)
    again = Client(second.ws_base, room_id, tokens[0])
    clients.append(again)
    after = _logs(again, 3)
    assert [entry["lines"] for entry in after] == [entry["lines"] for entry in before]
    assert len(after) == 3


def test_a_spectator_and_a_player_who_join_later_read_the_whole_log(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """The server words moves only for the audiences connected; a spectator who comes
    late, and a player who was connected only for their own moves, are caught up and
    read exactly what a log that followed everyone says."""
    server = start_server(db_url, seeds=itertools.repeat(SEED))
    room_id, host = create_room(server, "pacal")
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    ana = Client(server.ws_base, room_id, tokens[0])
    clients.append(ana)
    state = load("pacal").new_initial_state(SEED)
    expected = MoveLog("pacal")
    for moves in range(10):
        seat = ana.state_at_least(moves)["current_player"]
        if seat == 0:
            action = ana.state_at_least(moves)["legal_actions"][0]
            ana.send({"type": "action", "action": action, "move_number": moves})
        else:  # Bo comes for his move only
            bo = Client(server.ws_base, room_id, tokens[1])
            clients.append(bo)
            action = bo.state_at_least(moves)["legal_actions"][0]
            bo.send({"type": "action", "action": action, "move_number": moves})
            bo.state_at_least(moves + 1)
            bo.close()
        expected.record(state, state.current_player, action, False,
                        lambda a=action: state.apply_action(state.string_to_action(a)))
    ana.state_at_least(10)
    spectator = Client(server.ws_base, room_id, join=False)
    spectator.send({"type": "join", "lang": "ko"})
    bo = Client(server.ws_base, room_id, tokens[1])
    clients += [spectator, bo]
    names = {0: "Ana", 1: "Bo"}
    assert _logs(spectator, 10) == expected.as_json(None, "ko", names=names)
    assert _logs(bo, 10) == expected.as_json(1, "en", names=names)
    assert _logs(ana, 10) == expected.as_json(0, "en", names=names)


def test_a_moves_log_entry_travels_inside_its_state_message(
    server: ServerThread, clients: list[Client]
) -> None:
    # One frame a move for each socket: the state message carries its log update.
    room_id, host = create_room(server, "pacal")
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients += seats
    first = seats[0].state_at_least(0)
    mover = seats[first["current_player"]]
    legal = mover.state_at_least(0)["legal_actions"]
    mover.send({"type": "action", "action": legal[0], "move_number": 0})
    for client in seats:
        frames = []
        while not frames or json.loads(frames[-1]).get("move_number") != 1:
            frames.append(client.ws.recv(timeout=TIMEOUT))
        moved = json.loads(frames[-1])
        assert moved["type"] == "state"
        assert moved["log"]["reset"] is True  # the first entries this socket gets
        assert [entry["number"] for entry in moved["log"]["entries"]] == [1]
        assert moved["log"]["entries"][0]["lines"]
        assert not any(json.loads(frame)["type"] == "log" for frame in frames[:-1]
                       if '"number":1,' in frame)
