"""A ranked room's seat that lets its clock run out on three turns in a row forfeits
the game ([ours], docs/server.md): a losing player who stops moving cannot stretch a
rated game over hours. Played end to end on a real two-seat game (Pacal: the toy game
has only two turns a seat) with a fake clock of 10 s a move, so no test waits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from pyramids.play.i18n import gettext
from pyramids.web.clocks import FakeClock, TimeControl, TurnClock
from tests.web.conftest import Client, ServerThread
from tests.web.test_accounts import browser, csrf, login, register

T0 = 1_000_000.0
SECONDS = 10
CLOCK = {"kind": "move", "seconds": SECONDS, "on_timeout": "bot"}
GAME = "pacal"
# The time-outs in a row that forfeit (`clocks.RANKED_STALL_TIMEOUTS`; written out, the
# rule players are told).
RANKED_STALL_TIMEOUTS = 3
ANA, BO = 0, 1


def is_state(message: dict[str, Any]) -> bool:
    return message.get("type") == "state"


def open_room(server: ServerThread, ranked: bool) -> tuple[str, list[str], list[Any]]:
    """A two-seat Pacal room with Ana in seat 1 and Bo in seat 2, started: its id, the
    seat tokens and (ranked) the players' logged-in browsers."""
    people: list[Any] = []
    if ranked:
        people = [browser(server), browser(server)]
        for person, name in zip(people, ("Ana", "Bo"), strict=True):
            assert register(person, name).status_code in (200, 201)
    created = server.http.post("/api/rooms", json={"game": GAME, "ranked": ranked,
                                                    "time_control": CLOCK})
    assert created.status_code == 201, created.text
    room_id, host = created.json()["room"]["id"], created.json()["host_token"]
    tokens = []
    for seat, name in ((ANA, "Ana"), (BO, "Bo")):
        client = people[seat] if ranked else server.http
        taken = client.post(f"/api/rooms/{room_id}/seats", json={"name": name, "seat": seat},
                            headers=csrf(client) if ranked else None)
        assert taken.status_code == 201, taken.text
        tokens.append(taken.json()["token"])
    assert server.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code \
        == 200
    return room_id, tokens, people


def to_anas_turn(bo: Client, number: int = 0) -> dict[str, Any]:
    """Bo plays his turns (his first legal move each time) until Ana is to move, or the
    game is over; the state then."""
    while True:
        state = bo.state_at_least(number)
        if state["status"] != "playing" or state["current_player"] == ANA:
            return state
        bo.send({"type": "action", "action": state["legal_actions"][0],
                 "move_number": state["move_number"]})
        number = state["move_number"] + 1


def ana_times_out(bo: Client, clock: FakeClock, state: dict[str, Any]) -> dict[str, Any]:
    """Ana, to move in `state`, lets her 10 s pass: the state once her turn is over (the
    bot played it) or the game is."""
    assert state["current_player"] == ANA and state["status"] == "playing"
    number = state["move_number"]
    clock.advance(SECONDS + 1)
    return bo.until(lambda m: is_state(m) and (
        m["status"] != "playing" or (m["move_number"] > number and m["current_player"] != ANA)))


def ana_plays_her_turn(ana: Client, state: dict[str, Any]) -> dict[str, Any]:
    """Ana makes every move of her turn herself; the state once it is over."""
    while state["status"] == "playing" and state["current_player"] == ANA:
        number = state["move_number"]
        ana.send({"type": "action", "action": state["legal_actions"][0], "move_number": number})
        state = ana.state_at_least(number + 1)
    return state


def ratings(people: list[httpx.Client]) -> list[float]:
    return [person.get("/api/account").json()["account"]["ratings"][GAME]["rating"]
            for person in people]


def check_forfeit_told(server: ServerThread, room_id: str, ended: dict[str, Any]) -> None:
    """Ana's forfeit on time, as every client, the room's status and its replay say it."""
    assert {key: ended[key] for key in ("reason", "seat", "timeouts")} == {
        "reason": "timeouts", "seat": ANA, "timeouts": RANKED_STALL_TIMEOUTS}
    words = ended["words"]
    assert words["msgid"].startswith("{name} (seat {seat}) let the clock run out on {count} ")
    assert words["values"] == {"name": "Ana", "seat": 1, "count": RANKED_STALL_TIMEOUTS}
    # The page words it in the reader's language from the catalogue.
    assert gettext(words["msgid"], "en", **words["values"]).startswith(
        "Ana (seat 1) let the clock run out on 3 turns in a row, so they forfeit")
    assert gettext(words["msgid"], "ko", **words["values"]).startswith(
        "Ana(1번 자리)님이 3턴 연속으로")
    room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["status"] == "aborted" and room["ended"]["seat"] == ANA
    assert room["ended"]["words"] == words
    replay = server.http.get(f"/api/rooms/{room_id}/replay")
    assert replay.status_code == 200, replay.text
    assert replay.json()["record"]["ended"]["words"] == words
    assert replay.json()["record"]["result"] is None


def test_three_time_outs_in_a_row_forfeit_a_ranked_game_and_rate_it(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, tokens, people = open_room(server, ranked=True)
    ana, bo = Client(server.ws_base, room_id, tokens[ANA]), Client(server.ws_base, room_id,
                                                                     tokens[BO])
    watcher = Client(server.ws_base, room_id)
    clients += [ana, bo, watcher]
    state = to_anas_turn(bo)
    for missed in range(1, RANKED_STALL_TIMEOUTS):
        state = ana_times_out(bo, clock, state)
        # The bot played her turn: that is no move of her own, the count goes on.
        assert state["status"] == "playing" and state["last_move"]["by_bot"] is True
        assert state["clock"]["stalled"] == [missed, 0]
        state = to_anas_turn(bo, state["move_number"])
    # On her third turn Ana sends what is not a legal move: none of it stops the count.
    number = state["move_number"]
    ana.send({"type": "action", "action": "no such move", "move_number": number})
    assert ana.error()["code"] == "illegal_action"
    legal = ana.state_at_least(number)["legal_actions"][0]
    ana.send({"type": "action", "action": legal, "move_number": number - 1})
    assert ana.error()["code"] == "stale"
    ana.send({"type": "chat", "text": "still here"})
    over = ana_times_out(bo, clock, state)
    assert over["status"] == "aborted" and over["move_number"] == number  # no bot move
    for client in (ana, bo, watcher):  # everyone in the room is told
        told = client.last_state
        if told is None or told["status"] != "aborted":
            told = client.until(lambda m: is_state(m) and m["status"] == "aborted")
        assert told["ended"] == over["ended"]
    check_forfeit_told(server, room_id, over["ended"])
    # Rated as Ana's loss to Bo.
    ana_rating, bo_rating = ratings(people)
    assert ana_rating < 1500 < bo_rating
    [game] = people[ANA].get("/api/account").json()["account"]["games"]
    assert game["status"] == "aborted" and game["ended"]["seat"] == ANA
    assert game["rating_after"] < game["rating_before"]


def test_a_move_of_her_own_between_time_outs_starts_the_count_again(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, tokens, people = open_room(server, ranked=True)
    ana, bo = Client(server.ws_base, room_id, tokens[ANA]), Client(server.ws_base, room_id,
                                                                     tokens[BO])
    clients += [ana, bo]
    state = to_anas_turn(bo)
    for _ in range(2):  # two time-outs, a move of her own, two time-outs: never three
        for _ in range(RANKED_STALL_TIMEOUTS - 1):
            state = to_anas_turn(bo, ana_times_out(bo, clock, state)["move_number"])
        assert state["status"] == "playing"
        assert state["clock"]["stalled"] == [RANKED_STALL_TIMEOUTS - 1, 0]
        state = ana_plays_her_turn(ana, ana.state_at_least(state["move_number"]))
        assert state["status"] == "playing" and state["clock"]["stalled"] == [0, 0]
        state = to_anas_turn(bo, state["move_number"])
    assert state["status"] == "playing"
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["ended"] is None
    # Nobody was rated: the game goes on.
    assert all(person.get("/api/account").json()["account"]["ratings"] == {}
               for person in people)


def test_an_unranked_room_never_forfeits(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, tokens, _ = open_room(server, ranked=False)
    bo = Client(server.ws_base, room_id, tokens[BO])
    clients.append(bo)
    state = to_anas_turn(bo)
    for missed in range(1, RANKED_STALL_TIMEOUTS + 3):
        state = ana_times_out(bo, clock, state)
        assert state["status"] == "playing" and state["last_move"]["by_bot"] is True
        assert state["clock"]["stalled"] == [missed, 0]  # counted, never forfeited
        assert state["ended"] is None
        state = to_anas_turn(bo, state["move_number"])


def test_a_restart_mid_count_keeps_the_count(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    clock = FakeClock(T0)
    server = start_server(db_url, clock=clock)
    room_id, tokens, _ = open_room(server, ranked=True)
    bo = Client(server.ws_base, room_id, tokens[BO])
    state = to_anas_turn(bo)
    for _ in range(RANKED_STALL_TIMEOUTS - 1):
        state = to_anas_turn(bo, ana_times_out(bo, clock, state)["move_number"])
    assert state["clock"]["stalled"] == [RANKED_STALL_TIMEOUTS - 1, 0]
    bo.close()
    server.stop()

    again = start_server(db_url, clock=clock)
    bo = Client(again.ws_base, room_id, tokens[BO])
    clients.append(bo)
    state = bo.state_at_least(state["move_number"])
    assert state["clock"]["stalled"] == [RANKED_STALL_TIMEOUTS - 1, 0]
    over = ana_times_out(bo, clock, state)
    assert over["status"] == "aborted"
    check_forfeit_told(again, room_id, over["ended"])
    people = [browser(again), browser(again)]
    for person, name in zip(people, ("Ana", "Bo"), strict=True):
        assert login(person, name).status_code == 200
    ana_rating, bo_rating = ratings(people)
    assert ana_rating < 1500 < bo_rating


def test_the_clock_counts_time_outs_in_a_row_until_an_own_move() -> None:
    clock = TurnClock.new(TimeControl("move", SECONDS), 2)
    now = T0
    clock.start_turn(ANA, now)
    for missed in (1, 2):
        now += SECONDS
        clock.time_out(now)
        clock.after_move(ANA, BO, now)  # the bot's move for her: the count goes on
        assert clock.stalled == [missed, 0]
        clock.after_move(BO, ANA, now, own=True)
    assert clock.stalled == [2, 0] and clock.timeouts == [2, 0]
    assert TurnClock.from_dict(clock.to_dict()) == clock  # stored with the clock
    clock.after_move(ANA, BO, now, own=True)
    assert clock.stalled == [0, 0] and clock.timeouts == [2, 0]
    # A clock stored before the count reads as nobody stalled.
    old = {key: value for key, value in clock.to_dict().items() if key != "stalled"}
    assert TurnClock.from_dict(old).stalled == [0, 0]
