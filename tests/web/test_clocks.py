"""Turn clocks: the arithmetic of time per move and banks, and the server keeping them
with a fake clock (a time-out needs no waiting): the bot takes the turn, or the game
is adjourned; the clock survives a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.web.clocks import ClockError, FakeClock, TimeControl, TurnClock
from tests.web.conftest import Client, ServerThread
from tests.web.toy import NAME

T0 = 1_000_000.0

# -- the arithmetic -----------------------------------------------------------------


def test_a_time_per_move_restarts_for_each_seat_and_ignores_the_time_taken() -> None:
    clock = TurnClock.new(TimeControl("move", 120), 2)
    clock.start_turn(0, T0)
    assert clock.deadline() == T0 + 120
    assert clock.remaining(T0 + 20) == [100.0, 120.0]
    clock.after_move(0, 1, T0 + 30)
    assert clock.seat == 1 and clock.deadline() == T0 + 150
    assert not clock.overdue(T0 + 149.9) and clock.overdue(T0 + 150)


def test_a_bank_pays_the_time_taken_and_earns_the_increment() -> None:
    clock = TurnClock.new(TimeControl("bank", 60, increment=5), 2)
    clock.start_turn(0, T0)
    clock.after_move(0, 1, T0 + 20)  # seat 0: 60 - 20 + 5
    assert clock.banks == [45.0, 60.0] and clock.deadline() == T0 + 20 + 60
    clock.after_move(1, 0, T0 + 50)  # seat 1: 60 - 30 + 5
    assert clock.banks == [45.0, 35.0] and clock.deadline() == T0 + 50 + 45


def test_a_turn_of_several_moves_by_one_seat_is_timed_once() -> None:
    clock = TurnClock.new(TimeControl("bank", 60, increment=5), 2)
    clock.start_turn(0, T0)
    clock.after_move(0, 0, T0 + 10)
    clock.after_move(0, 0, T0 + 20)
    assert clock.seat == 0 and clock.deadline() == T0 + 60  # no increment yet
    clock.after_move(0, 1, T0 + 30)
    assert clock.banks[0] == 35.0


def test_after_a_time_out_the_bot_plays_the_turn_untimed_and_the_bank_stays_empty() -> None:
    clock = TurnClock.new(TimeControl("bank", 30, increment=2, on_timeout="bot"), 2)
    clock.start_turn(0, T0)
    assert clock.overdue(T0 + 30)
    clock.time_out(T0 + 30)
    assert clock.overtime and clock.deadline() is None and clock.banks[0] == 0.0
    assert clock.timeouts == [1, 0] and clock.remaining(T0 + 31)[0] == 0.0
    clock.after_move(0, 0, T0 + 40)  # the bot goes on with the turn
    assert clock.overtime
    clock.after_move(0, 1, T0 + 41)
    assert not clock.overtime and clock.banks == [2.0, 30.0] and clock.deadline() == T0 + 71


def test_an_adjourned_clock_waits_for_the_late_seat_then_starts_the_next() -> None:
    clock = TurnClock.new(TimeControl("move", 60, on_timeout="adjourn"), 3)
    clock.start_turn(2, T0)
    clock.time_out(T0 + 60)
    assert clock.adjourned and clock.deadline() is None and not clock.overdue(T0 + 10**6)
    clock.after_move(2, 0, T0 + 5000)
    assert not clock.adjourned and clock.seat == 0 and clock.deadline() == T0 + 5060


def test_the_game_over_stops_the_clock() -> None:
    clock = TurnClock.new(TimeControl("move", 60), 2)
    clock.start_turn(1, T0)
    clock.after_move(1, None, T0 + 3)
    assert clock.seat is None and clock.deadline() is None


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"kind": "hourglass", "seconds": 60}, "allowed: none, move, bank"),
        ({"kind": "move", "seconds": 1}, "from 5 to"),
        ({"kind": "move", "seconds": 60, "increment": 3}, "belongs to a bank"),
        ({"kind": "bank", "seconds": 60, "increment": -1}, "increment is from 0"),
        ({"kind": "bank", "seconds": "60"}, "number of seconds"),
        ({"kind": "move", "seconds": float("inf")}, "seconds is a number of seconds"),  # 1e999
        ({"kind": "bank", "seconds": 60, "increment": float("nan")}, "number of seconds"),
        ({"kind": "move", "seconds": 60, "on_timeout": "forfeit"}, "allowed: bot, adjourn"),
        ({"kind": "move", "seconds": 60, "colour": "red"}, "unknown time control field"),
        ("two minutes", "is an object"),
    ],
)
def test_a_bad_time_control_says_what_is_allowed(data: Any, says: str) -> None:
    with pytest.raises(ClockError, match=says):
        TimeControl.from_dict(data)


turn = st.tuples(st.integers(0, 2), st.floats(0, 200), st.booleans())


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(["move", "bank"]),
    seconds=st.floats(5, 300),
    increment=st.floats(0, 30),
    turns=st.lists(turn, max_size=30),
)
def test_clock_invariants_over_random_games(
    kind: str, seconds: float, increment: float, turns: list[tuple[int, float, bool]]
) -> None:
    """Banks never go negative, a bank is never more than its start plus the increments
    earned, and a saved clock reads back the same."""
    control = TimeControl(kind, seconds, increment if kind == "bank" else 0.0)
    clock = TurnClock.new(control, 3)
    now = T0
    clock.start_turn(0, now)
    turns_ended = [0, 0, 0]
    for next_seat, taken, late in turns:
        now += taken
        mover = clock.seat
        assert mover is not None
        if late and clock.overdue(now):
            clock.time_out(now)
        before = clock.seat
        clock.after_move(mover, next_seat, now)
        if before != next_seat or clock.adjourned:
            turns_ended[mover] += 1
        for seat, bank in enumerate(clock.banks):
            assert bank >= 0
            if kind == "bank":
                assert bank <= seconds + increment * turns_ended[seat] + 1e-6
        assert TurnClock.from_dict(clock.to_dict()) == clock


# -- the server keeps the time ---------------------------------------------------------


def create(server: ServerThread, **body: Any) -> tuple[str, str]:
    response = server.http.post("/api/rooms", json={"game": NAME, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["room"]["id"], data["host_token"]


def sit(server: ServerThread, room_id: str, name: str, seat: int) -> str:
    response = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": name, "seat": seat})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def begin(server: ServerThread, room_id: str, host: str) -> None:
    assert server.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200


def state_where(client: Client, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return client.until(lambda m: m.get("type") == "state" and check(m))


def test_a_time_out_hands_the_move_to_the_bot(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, host = create(server, time_control={"kind": "move", "seconds": 60},
                           takeover_agent="random")
    ana = sit(server, room_id, "Ana", 0)
    bo = sit(server, room_id, "Bo", 1)
    begin(server, room_id, host)
    first = Client(server.ws_base, room_id, ana)
    second = Client(server.ws_base, room_id, bo)
    clients += [first, second]
    shown = state_where(first, lambda m: m["status"] == "playing")
    assert shown["clock"]["seat"] == 0 and shown["clock"]["deadline"] == T0 + 60
    assert shown["clock"]["remaining"] == [60.0, 60.0]
    clock.advance(59)
    clock.advance(2)  # Ana is connected but lets her minute pass
    moved = state_where(second, lambda m: m["move_number"] >= 1)
    assert moved["last_move"]["seat"] == 0 and moved["last_move"]["by_bot"] is True
    assert moved["clock"]["seat"] == 1 and moved["clock"]["timeouts"] == [1, 0]
    assert moved["clock"]["deadline"] == T0 + 61 + 60
    # Bo answers in time; Ana's clock runs again and she moves herself.
    second.send({"type": "action", "action": moved["legal_actions"][0], "move_number": 1})
    mine = state_where(first, lambda m: m["move_number"] == 2)
    assert mine["your_turn"] and mine["clock"]["seat"] == 0


def test_a_time_out_adjourns_the_game_when_the_room_says_so(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, host = create(server, time_control={"kind": "bank", "seconds": 30,
                                                 "increment": 5, "on_timeout": "adjourn"})
    ana = sit(server, room_id, "Ana", 0)
    sit(server, room_id, "Bo", 1)
    begin(server, room_id, host)
    first = Client(server.ws_base, room_id, ana)
    clients.append(first)
    state_where(first, lambda m: m["status"] == "playing")
    clock.advance(31)
    adjourned = state_where(first, lambda m: m["clock"]["adjourned"])
    assert adjourned["move_number"] == 0 and adjourned["your_turn"]
    assert adjourned["clock"]["deadline"] is None and adjourned["clock"]["remaining"][0] == 0
    clock.advance(3600)  # nothing happens while adjourned: no bot moved
    first.send({"type": "action", "action": adjourned["legal_actions"][0], "move_number": 0})
    resumed = state_where(first, lambda m: m["move_number"] == 1)
    assert resumed["clock"]["seat"] == 1 and not resumed["clock"]["adjourned"]
    assert resumed["clock"]["deadline"] == T0 + 31 + 3600 + 30
    assert resumed["clock"]["remaining"][0] == 5.0  # the empty bank plus the increment


def test_the_clock_survives_a_restart(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, host = create(server, time_control={"kind": "bank", "seconds": 100,
                                                 "increment": 10})
    ana = sit(server, room_id, "Ana", 0)
    bo = sit(server, room_id, "Bo", 1)
    begin(server, room_id, host)
    first = Client(server.ws_base, room_id, ana)
    shown = state_where(first, lambda m: m["status"] == "playing")
    clock.advance(40)
    first.send({"type": "action", "action": shown["legal_actions"][0], "move_number": 0})
    before = state_where(first, lambda m: m["move_number"] == 1)["clock"]
    assert before["remaining"] == [70.0, 100.0] and before["deadline"] == T0 + 140
    first.close()
    server.stop()

    clock.advance(20)  # the restart takes time: it counts
    again = start_server(db_url, clock=clock)
    second = Client(again.ws_base, room_id, bo)
    clients.append(second)
    after = state_where(second, lambda m: m["move_number"] == 1)["clock"]
    assert after["deadline"] == T0 + 140 and after["remaining"] == [70.0, 80.0]
    clock.advance(80)
    timed_out = state_where(second, lambda m: m["move_number"] >= 2)
    assert timed_out["last_move"] == {"seat": 1, "action": timed_out["last_move"]["action"],
                                      "by_bot": True}


def test_the_server_refuses_a_bad_time_control(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    server = start_server(db_url)
    response = server.http.post("/api/rooms", json={
        "game": NAME, "time_control": {"kind": "move", "seconds": 2}})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_time_control" and "from 5 to" in error["message"]
    assert server.http.get("/api/rooms?status=waiting").json()["rooms"] == []
