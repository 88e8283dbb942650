"""The server over real HTTP and WebSocket connections, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from pyramids.core import GameRecord, game_names
from pyramids.web import ws as ws_module
from pyramids.web.app import MAX_BODY_BYTES
from pyramids.web.ws import (
    CLOSE_BAD_TOKEN,
    CLOSE_JOIN_TIMEOUT,
    CLOSE_UNKNOWN_ROOM,
    MAX_MESSAGE_BYTES,
)
from tests.web.conftest import SLOW_AGENT_SECONDS, Client, ServerThread
from tests.web.toy import CARDS, NAME, ToyState


def create_room(server: ServerThread, game: str = NAME, **body: Any) -> tuple[str, str]:
    response = server.http.post("/api/rooms", json={"game": game, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["room"]["id"], data["host_token"]


def take_seat(server: ServerThread, room_id: str, name: str, seat: int | None = None) -> str:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    response = server.http.post(f"/api/rooms/{room_id}/seats", json=body)
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def start(server: ServerThread, room_id: str, token: str) -> None:
    response = server.http.post(f"/api/rooms/{room_id}/start", json={"token": token})
    assert response.status_code == 200, response.text


def error_of(response: Any) -> dict[str, str]:
    error: dict[str, str] = response.json()["error"]
    return error


def replayed(server: ServerThread, room_id: str) -> list[ToyState]:
    response = server.http.get(f"/api/rooms/{room_id}/record")
    assert response.status_code == 200, response.text
    states = GameRecord.from_json(response.text).replay()
    return [state for state in states if isinstance(state, ToyState)]


def test_catalogue_lists_games_options_and_agents(server: ServerThread) -> None:
    data = server.http.get("/api/games").json()
    toy = next(game for game in data["games"] if game["name"] == NAME)
    assert toy["num_players"] == 2
    assert "random" in data["agents"]


def test_catalogue_names_options_and_their_choices_in_words(server: ServerThread) -> None:
    """The lobby shows titles ("Rounds to win"), not the engine's names, in the reader's
    language; a request still sends the names and values."""
    from pyramids.core.registry import manifests
    from pyramids.play.option_words import CHOICE_TITLES, OPTION_TITLES

    english = {game["name"]: game for game in server.http.get("/api/games").json()["games"]}
    korean = {game["name"]: game for game in
              server.http.get("/api/games", params={"lang": "ko"}).json()["games"]}
    pacal = {spec["name"]: spec for spec in english["pacal"]["options"]}
    assert pacal["rounds_to_win"]["title"] == "Rounds to win"
    assert pacal["direction"]["choices"] == ["descending", "ascending"]
    assert pacal["direction"]["choice_titles"] == ["Descending", "Ascending (Jaguar)"]
    mode = next(spec for spec in korean["mahjongg"]["options"] if spec["name"] == "mode")
    assert mode["title"] == "모드" and mode["choice_titles"][1] == "파라오의 타임 어택"
    # Every option of every built-in game has its words, and so has every text choice.
    for manifest in manifests():
        if manifest.name not in ("pacal", "pacal-solo", "temple", "mahjongg"):
            continue
        for spec in manifest.factory().option_specs:
            assert spec.name in OPTION_TITLES, spec.name
            if spec.choices and spec.kind is str:
                assert set(map(str, spec.choices)) <= set(CHOICE_TITLES[spec.name]), spec.name
        pairs = zip(english[manifest.name]["options"], korean[manifest.name]["options"],
                    strict=True)
        values = {str(choice) for spec in english[manifest.name]["options"]
                  for choice in spec["choices"] or ()}
        for spec, translated in pairs:
            assert "_" not in spec["title"] and translated["title"] != spec["title"]
            # The description reads in words too: no other option's name, no quoted
            # value, no hyphenated id such as `time-attack` (the lobby shows titles).
            words = set(re.findall(r"[A-Za-z_]+(?:-[A-Za-z]+)*", spec["doc"]))
            ids = [word for word in words if "_" in word or word in values and "-" in word]
            assert not ids and "=" not in spec["doc"], (spec["name"], ids)
            assert not re.search(r"'[a-z_-]+'", spec["doc"]), spec["doc"]  # a quoted value


def test_each_game_offers_the_bots_made_for_it(server: ServerThread) -> None:
    """The Mahjongg solver was offered as a bot for Temple, where it plays greedy."""
    data = server.http.get("/api/games").json()
    games = {game["name"]: game for game in data["games"]}
    assert "determinized" in games["mahjongg"]["agents"]
    assert "determinized" not in games["temple"]["agents"]
    assert "planner" not in games["temple"]["agents"] and "planner" in games["pacal"]["agents"]
    for game in games.values():
        assert {"easy", "medium", "hard", "expert", "random"} <= set(game["agents"])
        assert set(game["agents"]) <= set(data["agents"])


def test_catalogue_says_what_each_level_is_like_in_the_readers_language(
    server: ServerThread,
) -> None:
    from pyramids.agents.levels import LEVEL_DESCRIPTIONS, LEVELS

    english = server.http.get("/api/games").json()["levels"]
    assert english == {level: LEVEL_DESCRIPTIONS[level] for level in LEVELS}
    korean = server.http.get("/api/games", params={"lang": "ko"}).json()["levels"]
    assert list(korean) == list(LEVELS)
    assert korean["hard"] == "강한 수를 곧바로 둡니다."
    assert all(korean[level] != english[level] for level in LEVELS)
    # Each game says what its levels are like there: Mahjongg's medium slips.
    games = {game["name"]: game for game in server.http.get("/api/games").json()["games"]}
    assert games["pacal"]["levels"] == english
    assert games["mahjongg"]["levels"]["medium"].endswith("and slips now and then.")
    assert games["mahjongg"]["levels"]["expert"].endswith("under a second a move.")
    assert games["pacal-solo"]["levels"]["expert"].endswith("and answers at once.")
    own = ("medium", "expert")
    assert {level: text for level, text in games["mahjongg"]["levels"].items()
            if level not in own} == {level: english[level] for level in LEVELS
                                     if level not in own}
    korean_games = server.http.get("/api/games", params={"lang": "ko"}).json()["games"]
    korean_mahjongg = next(game for game in korean_games if game["name"] == "mahjongg")
    assert korean_mahjongg["levels"]["medium"] not in (games["mahjongg"]["levels"]["medium"],
                                                       korean["medium"])


def test_room_creation_is_validated(server: ServerThread) -> None:
    response = server.http.post("/api/rooms", json={"game": "no-such-game"})
    assert response.status_code == 400
    assert error_of(response)["code"] == "unknown_game"
    assert NAME in error_of(response)["message"]  # lists the allowed games

    response = server.http.post("/api/rooms", json={"game": NAME, "options": {"colour": 3}})
    assert response.status_code == 400
    assert "unknown option colour" in error_of(response)["message"]

    if "pacal" in game_names():
        response = server.http.post("/api/rooms", json={"game": "pacal", "options": {"size": 3}})
        assert response.status_code == 400 and error_of(response)["code"] == "bad_option"
        assert "allowed options: Direction, Most rounds, Rounds to win" in (
            error_of(response)["message"]
        )
        assert "allowed options: direction, max_rounds, rounds_to_win" in (
            error_of(response)["message_keys"]
        )
        response = server.http.post(
            "/api/rooms", json={"game": "pacal", "options": {"direction": "sideways"}}
        )
        assert response.status_code == 400
        assert error_of(response)["message"] == (
            "Direction “sideways” is not valid; allowed: one of “Descending”, "
            "“Ascending (Jaguar)”")
        assert error_of(response)["message_keys"] == (
            "direction=sideways is not valid; allowed: one of descending, ascending")
        response = server.http.post(
            "/api/rooms", json={"game": "pacal", "options": {"direction": "ascending"}}
        )
        assert response.status_code == 201
        assert response.json()["room"]["options"]["direction"] == "ascending"

    if "mahjongg" in game_names():
        for path in ["/etc/passwd", "../secret.pyr", "mine.layout"]:
            response = server.http.post(
                "/api/rooms", json={"game": "mahjongg", "options": {"layout": path}}
            )
            assert response.status_code == 400 and error_of(response)["code"] == "bad_option"
            assert "names a file" in error_of(response)["message"]

    response = server.http.post("/api/rooms", json={"game": NAME, "players": 3})
    assert response.status_code == 400
    assert "unknown field 'players'" in error_of(response)["message"]

    response = server.http.post("/api/rooms", json={"game": NAME, "takeover_agent": "oracle"})
    assert response.status_code == 400
    assert "allowed agents: " in error_of(response)["message"]

    response = server.http.post(
        "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert "not valid JSON" in error_of(response)["message"]

    response = server.http.post(
        "/api/rooms",
        content=json.dumps({"game": NAME, "seed": "x" * MAX_BODY_BYTES}).encode(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert str(MAX_BODY_BYTES) in error_of(response)["message"]

    # None of the refused requests made a room.
    made = 1 if "pacal" in game_names() else 0
    assert len(server.http.get("/api/rooms").json()["rooms"]) == made


def test_seats_agents_and_start(server: ServerThread) -> None:
    room_id, host = create_room(server)
    listed = server.http.get("/api/rooms").json()["rooms"]
    assert [room["id"] for room in listed] == [room_id]
    assert "seed" not in listed[0]

    ana = take_seat(server, room_id, "Ana", seat=1)
    response = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo", "seat": 1})
    assert response.status_code == 409 and error_of(response)["code"] == "seat_taken"
    response = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo", "seat": 5})
    # The words count seats from 1, as the pages do; the JSON's `seat` counts from 0.
    assert response.status_code == 400 and error_of(response)["message"] == (
        "there is no seat 6; this room's seats are 1 to 2")
    response = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "  "})
    assert response.status_code == 400 and error_of(response)["code"] == "bad_name"

    response = server.http.post(f"/api/rooms/{room_id}/start", json={"token": host})
    assert response.status_code == 409
    assert "seat 1 is still open; take it or give it to an agent" in error_of(response)["message"]

    # Only the host fills seats with bots and starts: a seat token is not enough.
    for token in ("guess", ana):
        wrong = server.http.post(
            f"/api/rooms/{room_id}/agents", json={"token": token, "seat": 0}
        )
        assert wrong.status_code == 403 and error_of(wrong)["code"] == "not_host"
    early = server.http.post(f"/api/rooms/{room_id}/start", json={"token": ana})
    assert early.status_code == 403 and error_of(early)["code"] == "not_host"
    unknown = server.http.post(
        f"/api/rooms/{room_id}/agents", json={"token": host, "seat": 0, "agent": "oracle"}
    )
    assert unknown.status_code == 400 and "allowed agents: " in error_of(unknown)["message"]
    given = server.http.post(
        f"/api/rooms/{room_id}/agents", json={"token": host, "seat": 0, "agent": "random"}
    )
    assert given.status_code == 200
    assert given.json()["room"]["seats"][0] == {"seat": 0, "kind": "agent", "name": "random (bot)",
                                                "agent": "random"}

    full = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Cy"})
    assert full.status_code == 409 and "full" in error_of(full)["message"]
    assert server.http.get("/api/rooms").json()["rooms"] == []

    start(server, room_id, host)
    again = server.http.post(f"/api/rooms/{room_id}/start", json={"token": host})
    assert again.status_code == 409 and error_of(again)["code"] == "already_started"

    missing = server.http.get("/api/rooms/nope")
    assert missing.status_code == 404 and error_of(missing)["code"] == "unknown_room"
    weird = server.http.get("/api/rooms/" + "%2e" * 40)
    assert weird.status_code == 404
    bad_status = server.http.get("/api/rooms", params={"status": "lost"})
    assert bad_status.status_code == 400 and "allowed: open" in error_of(bad_status)["message"]


def secrets_seen(message: str, state: ToyState, seat: int | None) -> set[str]:
    """Names in `message` that `seat` (None: a spectator) must not know in `state`."""
    hidden = set(CARDS) - {c for played in state.view(None)["played"] for c in played}
    if seat is not None:
        hidden -= set(state.view(seat)["hand"])
    return {name for name in hidden if name in message}


def test_whole_game_sends_each_client_only_what_it_may_see(
    server: ServerThread, clients: list[Client], caplog: pytest.LogCaptureFixture
) -> None:
    for logger in ("pyramids", "uvicorn"):
        caplog.set_level(logging.DEBUG, logger=logger)
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    spectator = Client(server.ws_base, room_id)
    clients.extend([*seats, spectator])
    start(server, room_id, host)

    response = server.http.get(f"/api/rooms/{room_id}/record")
    assert response.status_code == 409 and error_of(response)["code"] == "not_finished"

    moves = 0
    while True:
        state = seats[0].state_at_least(moves)
        if state["status"] == "finished":
            break
        mover = seats[state["current_player"]]
        other = seats[1 - state["current_player"]]
        mine = mover.state_at_least(moves)
        assert mine["your_turn"] and mine["legal_actions"]
        assert other.state_at_least(moves)["legal_actions"] == []

        other.send({"type": "action", "action": mine["legal_actions"][0], "move_number": moves})
        refused = other.error()
        assert refused["code"] == "not_your_turn"
        # Seats as players count them (the log's "Seat 2"), not the protocol's index.
        assert refused["message"] == (
            f"it is not your turn; it is seat {state['current_player'] + 1}'s turn")
        spectator.send({"type": "action", "action": mine["legal_actions"][0],
                        "move_number": moves})
        assert spectator.error()["code"] == "spectator"
        foreign = next(
            f"play {c}" for c in CARDS if f"play {c}" not in mine["legal_actions"]
        )
        mover.send({"type": "action", "action": foreign, "move_number": moves})
        refused = mover.error()
        # The engine's reason, the same for a card elsewhere or undealt (nothing hidden).
        assert refused["code"] == "illegal_action"
        assert refused["message"] == "not a card in the hand of the seat to move"
        mover.send({"type": "action", "action": "dance", "move_number": moves})
        assert "unknown action" in mover.error()["message"]

        mover.send({"type": "action", "action": mine["legal_actions"][-1], "move_number": moves})
        moves += 1
        for client in [*seats, spectator]:
            assert client.state_at_least(moves)["last_move"]["action"] == mine["legal_actions"][-1]

    assert moves == 4
    final = spectator.state_at_least(moves)
    assert final["result"] is not None and final["status"] == "finished"
    seats[0].send({"type": "action", "action": "play amber", "move_number": moves})
    assert seats[0].error()["code"] == "game_over"

    states = replayed(server, room_id)
    assert len(states) == moves + 1
    assert final["result"]["returns"] == states[-1].returns()
    assert states[-1].never_shown(0) and states[-1].never_shown(1)
    never_public = states[-1].never_shown(0) | states[-1].never_shown(1)
    # The server's own log (the test's websockets client logs what it receives).
    logged = "\n".join(
        record.getMessage() for record in caplog.records
        if record.name.startswith(("pyramids", "uvicorn"))
    )
    assert f"room {room_id} finished" in logged  # the server's log was captured
    assert not {card for card in never_public if card in logged}

    # Every message, judged by the state of the game when it was sent.
    for seat, client in [(0, seats[0]), (1, seats[1]), (None, spectator)]:
        kinds = set()
        for text in client.received:
            message = json.loads(text)
            kinds.add(message["type"])
            if message["type"] == "error":
                # An error echoes the client's own action; judge the rest by the first
                # state, when the most was hidden.
                text = re.sub(r"'play \w+'", "", text)
                number = 0
            elif message["type"] == "log":
                # The move log: judged by the state after its latest entry's move.
                number = max(entry["number"] for entry in message["entries"])
            elif message["type"] == "chat_history":
                number = 0
            else:
                number = message["move_number"]
            leaked = secrets_seen(text, states[number], seat)
            assert not leaked, f"seat {seat} was sent {leaked} in {text}"
            if message["type"] == "state":
                assert message["seat"] == seat
                if message["status"] != "waiting":
                    assert message["view"] == states[number].view(seat)
        assert kinds == {"state", "error", "log", "chat_history"}


def test_person_against_a_bot(server: ServerThread, clients: list[Client]) -> None:
    room_id, host = create_room(server)
    token = take_seat(server, room_id, "Ana", seat=1)
    server.http.post(f"/api/rooms/{room_id}/agents", json={"token": host, "seat": 0})
    ana = Client(server.ws_base, room_id, token)
    clients.append(ana)
    start(server, room_id, host)
    while True:
        state = ana.until(lambda m: m["type"] == "state" and (
            m["your_turn"] or m["status"] == "finished"))
        if state["status"] == "finished":
            break
        assert state["last_move"]["seat"] == 0 and state["last_move"]["by_bot"]
        ana.send({"type": "action", "action": state["legal_actions"][0],
                  "move_number": state["move_number"]})
    states = replayed(server, room_id)
    assert len(states) == 5
    record = server.http.get(f"/api/rooms/{room_id}/record").json()
    assert record["players"] == ["random (bot)", "Ana"]
    ana.close()
    summary = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert summary["status"] == "finished" and summary["move_number"] == 4
    finished = server.http.get("/api/rooms", params={"status": "finished"}).json()["rooms"]
    assert finished == [summary]
    assert server.http.get("/api/rooms", params={"status": "playing"}).json()["rooms"] == []


def test_bad_messages_get_errors_and_change_nothing(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    ana = Client(server.ws_base, room_id, join=False)
    clients.append(ana)
    ana.send({"type": "action", "action": "play amber"})
    assert ana.error()["code"] == "not_joined"
    ana.send({"type": "join", "token": tokens[0]})
    assert ana.recv()["type"] == "state"

    bad: list[tuple[Any, str]] = [
        ("{oops", "bad_json"),
        ("[1, 2]", "bad_message"),
        ({"type": "teleport"}, "unknown_type"),
        ({"noType": 1}, "bad_message"),
        ({"type": "action", "move_number": 0}, "bad_action"),
        ({"type": "action", "action": 7, "move_number": 0}, "bad_action"),
        ({"type": "action", "action": "play amber"}, "bad_message"),  # no move_number
        ({"type": "action", "action": "play amber", "move_number": 3}, "stale"),
        ({"type": "action", "action": "play amber", "move_number": "x"}, "bad_message"),
        ({"type": "join", "token": tokens[0]}, "already_joined"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
        (b"\x00\x01", "bad_message"),
        (b"\x00" * (MAX_MESSAGE_BYTES + 1), "too_large"),
    ]
    for message, code in bad:
        ana.send(message)
        error = ana.error()
        assert error["code"] == code, (message, error)
        assert error["message"] and "None" not in error["message"]  # no Python values
    ana.send({"type": "ping"})
    assert ana.until(lambda m: m["type"] != "state") == {"type": "pong"}

    # Far over the protocol limit: the connection is cut, the server lives on.
    huge = Client(server.ws_base, room_id, tokens[1])
    huge.send("y" * (MAX_MESSAGE_BYTES * 64))
    with pytest.raises(ConnectionClosed):
        huge.until(lambda m: False)

    for token, code in [("guess", CLOSE_BAD_TOKEN), (tokens[0] + "x", CLOSE_BAD_TOKEN)]:
        stranger = Client(server.ws_base, room_id, token)
        assert stranger.error()["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            stranger.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code
    lost = Client(server.ws_base, "no-such-room")
    assert lost.error()["code"] == "unknown_room"
    with pytest.raises(ConnectionClosed) as closed:
        lost.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_UNKNOWN_ROOM

    room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["move_number"] == 0 and room["status"] == "playing"
    # The game still plays.
    state = ana.state_at_least(0)
    ana.send({"type": "action", "action": state["legal_actions"][0],
                  "move_number": state["move_number"]})
    assert ana.state_at_least(1)["move_number"] == 1


def test_reconnect_and_bot_takeover(server: ServerThread, clients: list[Client]) -> None:
    room_id, host = create_room(server, bot_takeover_seconds=0.5)
    ana_token = take_seat(server, room_id, "Ana")
    bo_token = take_seat(server, room_id, "Bo")
    ana = Client(server.ws_base, room_id, ana_token)
    bo = Client(server.ws_base, room_id, bo_token)
    clients.extend([ana, bo])
    start(server, room_id, host)
    first = ana.until(lambda m: m["type"] == "state" and m["your_turn"])
    ana.send({"type": "action", "action": first["legal_actions"][0],
              "move_number": first["move_number"]})
    bo.state_at_least(1)
    bo.close()
    began = time.monotonic()
    # Bo is away; after half a second a bot moves for him, and Ana sees it.
    after = ana.until(lambda m: m["type"] == "state" and m["move_number"] == 2)
    assert time.monotonic() - began >= 0.4
    assert after["last_move"] == {"seat": 1, "action": after["last_move"]["action"],
                                  "by_bot": True}
    assert after["seats"][1]["connected"] is False

    back = Client(server.ws_base, room_id, bo_token)
    clients.append(back)
    current = back.recv()
    assert current["type"] == "state" and current["seat"] == 1 and current["move_number"] == 2
    hand = current["view"]["hand"]
    assert len(hand) == 3
    mine = ana.until(lambda m: m["type"] == "state" and m["your_turn"])
    ana.send({"type": "action", "action": mine["legal_actions"][0],
              "move_number": mine["move_number"]})
    turn = back.until(lambda m: m["type"] == "state" and m["your_turn"])
    # Bo is back: no bot moves for him, however long he thinks.
    with pytest.raises(TimeoutError):
        back.until(lambda m: m["type"] == "state" and m["move_number"] > 3, timeout=1.0)
    back.send({"type": "action", "action": turn["legal_actions"][0],
               "move_number": turn["move_number"]})
    assert back.state_at_least(4)["status"] == "finished"


def test_rooms_survive_a_server_restart(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    first = start_server(db_url)
    room_id, host = create_room(first)
    tokens = [take_seat(first, room_id, "Ana"), take_seat(first, room_id, "Bo")]
    waiting_id, _ = create_room(first)
    start(first, room_id, host)
    ana = Client(first.ws_base, room_id, tokens[0])
    state = ana.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    ana.send({"type": "action", "action": state["legal_actions"][0],
                  "move_number": state["move_number"]})
    ana.state_at_least(1)
    before = ana.last_state
    ana.close()
    first.stop()

    second = start_server(db_url)
    assert [room["id"] for room in second.http.get("/api/rooms").json()["rooms"]] == [waiting_id]
    bo = Client(second.ws_base, room_id, tokens[1])
    clients.append(bo)
    state = bo.recv()
    assert before is not None
    assert state["move_number"] == 1 and state["last_move"] == before["last_move"]
    bo.send({"type": "action", "action": state["legal_actions"][0],
             "move_number": state["move_number"]})
    assert bo.state_at_least(2)["move_number"] == 2


def test_a_connection_that_never_joins_is_closed(
    server: ServerThread, clients: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ws_module, "JOIN_TIMEOUT_SECONDS", 0.3)
    room_id, _ = create_room(server)
    idle = Client(server.ws_base, room_id, join=False)
    clients.append(idle)
    error = idle.error()
    assert error["code"] == "join_timeout" and "0.3 seconds" in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        idle.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_JOIN_TIMEOUT
    # A client that joins in time stays.
    watcher = Client(server.ws_base, room_id)
    clients.append(watcher)
    assert watcher.recv()["type"] == "state"
    assert watcher.recv()["type"] == "chat_history"
    with pytest.raises(TimeoutError):
        watcher.recv(timeout=0.6)


def test_random_messages_never_break_the_server(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    start(server, room_id, host)
    ana = Client(server.ws_base, room_id, tokens[0])
    clients.append(ana)
    ana.state_at_least(0)
    ana.until(lambda m: m["type"] == "chat_history")
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=8,
    )
    messages = (
        st.text(max_size=200)
        | json_values.map(json.dumps)
        | st.fixed_dictionaries(
            {"type": st.sampled_from(["join", "action", "ping", "Action", ""])},
            optional={"action": json_values, "token": json_values, "move_number": json_values},
        ).map(json.dumps)
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(message=messages)
    def answered(message: str) -> None:
        before = server.http.get(f"/api/rooms/{room_id}").json()["room"]["move_number"]
        try:
            is_ping = json.loads(message).get("type") == "ping"
        except (ValueError, AttributeError):
            is_ping = False
        ana.send(message)
        ana.send({"type": "ping"})
        replies = [ana.recv()]
        while replies[-1]["type"] != "pong" or (is_ping and len(replies) == 1):
            replies.append(ana.recv())
        # A move also brings its move log entry; the rest answers one to one.
        kinds = [reply["type"] for reply in replies[:-1] if reply["type"] != "log"]
        after = server.http.get(f"/api/rooms/{room_id}").json()["room"]["move_number"]
        # One answer each: an error, a pong, or (a legal move) the new state.
        assert after in (before, before + 1)
        assert kinds == (["state"] if after > before else ["pong"] if is_ping else ["error"])

    answered()
    assert server.http.get("/api/games").status_code == 200


def test_a_thinking_bot_does_not_hold_up_other_rooms(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    start(server, room_id, host)

    slow_room, slow_host = create_room(server)
    for seat in (0, 1):
        server.http.post(f"/api/rooms/{slow_room}/agents",
                         json={"token": slow_host, "seat": seat, "agent": "slow"})
    watcher = Client(server.ws_base, slow_room)
    clients.append(watcher)
    start(server, slow_room, slow_host)
    began = time.monotonic()
    for move in range(4):
        mover = seats[move % 2]
        state = mover.state_at_least(move)
        mover.send({"type": "action", "action": state["legal_actions"][0],
                    "move_number": move})
        seats[0].state_at_least(move + 1)
    # The four moves went through while the slow bot was still thinking.
    assert time.monotonic() - began < SLOW_AGENT_SECONDS
    assert watcher.state_at_least(0)["move_number"] == 0
    moved = watcher.state_at_least(1)
    assert moved["last_move"] == {"seat": 0, "action": moved["last_move"]["action"],
                                  "by_bot": True}
    assert time.monotonic() - began >= SLOW_AGENT_SECONDS * 0.9
