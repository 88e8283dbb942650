"""The replay viewer's API: only for games that are over; every hand shown; the proof checked."""

from __future__ import annotations

import json
from typing import Any

from pyramids.core import GameRecord
from pyramids.web.replay import replay_answer
from pyramids.web.rooms import commitment_of
from tests.web.conftest import Client, ServerThread
from tests.web.test_server import create_room, start, take_seat


def _finished_pacal(server: ServerThread) -> str:
    """A one-round Pacal match between two bots, played to the end."""
    room_id, host = create_room(server, "pacal", options={"rounds_to_win": 1, "max_rounds": 1})
    for seat in (0, 1):
        answer = server.http.post(f"/api/rooms/{room_id}/agents",
                                  json={"token": host, "seat": seat, "agent": "random"})
        assert answer.status_code == 200, answer.text
    start(server, room_id, host)
    watcher = Client(server.ws_base, room_id)
    try:
        watcher.until(lambda m: m.get("type") == "state" and m["status"] == "finished", 60)
    finally:
        watcher.close()
    return room_id


def test_the_replay_is_refused_until_the_game_is_over(
    server: ServerThread, clients: list[Client]
) -> None:
    room_id, host = create_room(server)
    tokens = [take_seat(server, room_id, "Ana"), take_seat(server, room_id, "Bo")]
    waiting = server.http.get(f"/api/rooms/{room_id}/replay")
    assert waiting.status_code == 409
    assert waiting.json()["error"]["code"] == "not_finished"
    start(server, room_id, host)
    ana = Client(server.ws_base, room_id, tokens[0])
    clients.append(ana)
    ana.state_at_least(0)
    playing = server.http.get(f"/api/rooms/{room_id}/replay")
    assert playing.status_code == 409
    assert "over" in playing.json()["error"]["message"]
    assert "steps" not in playing.text and "seed" not in playing.json()["error"]
    assert server.http.get("/api/rooms/nosuchroom/replay").status_code == 404


def test_a_finished_game_replays_with_every_hand_and_a_checked_deal(
    server: ServerThread,
) -> None:
    room_id = _finished_pacal(server)
    answer = server.http.get(f"/api/rooms/{room_id}/replay")
    assert answer.status_code == 200, answer.text
    replay = answer.json()
    # Both seats were bots: the page names them by agent in the reader's language.
    assert replay["agents"] == ["random", "random"]
    assert replay["players"] == ["random (bot)", "random (bot)"]
    record = GameRecord.from_json(server.http.get(f"/api/rooms/{room_id}/record").text)
    states = record.replay()
    steps = replay["steps"]
    assert len(steps) == len(record.actions) + 1
    for step, state in zip(steps, states, strict=True):
        # Every seat's own view at every step: both hands, as the engine replays them.
        assert step["views"] == [state.view(0), state.view(1)]
    assert all("hand" in view for step in steps for view in step["views"])
    assert [step["action"] for step in steps[1:]] == record.actions
    assert all(step["lines"] for step in steps[1:])
    fairness = replay["fairness"]
    assert fairness["verified"] is True
    assert fairness["commitment"] == commitment_of(fairness["seed"], fairness["salt"])
    # The download is the record `pyramids replay` reads.
    assert GameRecord.from_json(json.dumps(replay["record"])).actions == record.actions
    page = server.http.get(f"/replay/{room_id}")
    assert page.status_code == 200 and "replay.js" in page.text


def test_the_replay_names_people_as_the_live_log_did(server: ServerThread) -> None:
    room_id = _finished_pacal(server)
    record: dict[str, Any] = server.http.get(f"/api/rooms/{room_id}/record").json()
    # The same game as if a person named Ana had held the first seat.
    record["players"][0], record["agents"][0] = "Ana", None
    lines = [line for step in replay_answer(record, "en")["steps"] for line in step["lines"]]
    assert any(line.startswith("Ana ") for line in lines)
    # The bot by its level, as the page's scores and turn line name it (it said "Seat 2").
    assert any(line.startswith("Random moves (bot) ") for line in lines)
    assert not any(line.startswith(("Seat 1 ", "Seat 2 ")) for line in lines)
    korean = [line for step in replay_answer(record, "ko")["steps"] for line in step["lines"]]
    assert any(line.startswith("무작위 수 (봇)") for line in korean), korean[:4]
    assert not any("2번 자리" in line for line in korean)
    # Two seats of one bot: each with its seat, as the page tells them apart.
    record["players"][0], record["agents"][0] = "random (bot)", "random"
    lines = [line for step in replay_answer(record, "en")["steps"] for line in step["lines"]]
    assert any(line.startswith("Random moves (bot, seat 1) ") for line in lines)
    assert any(line.startswith("Random moves (bot, seat 2) ") for line in lines)


def test_the_replay_speaks_korean_and_a_forged_seed_fails_the_check(
    server: ServerThread,
) -> None:
    room_id = _finished_pacal(server)
    korean = server.http.get(f"/api/rooms/{room_id}/replay", params={"lang": "ko"}).json()
    assert any("자리" in line for step in korean["steps"] for line in step["lines"])
    record: dict[str, Any] = server.http.get(f"/api/rooms/{room_id}/record").json()
    forged = {**record, "fairness": {**record["fairness"], "salt": "0" * 32}}
    assert replay_answer(forged, "en")["fairness"]["verified"] is False
