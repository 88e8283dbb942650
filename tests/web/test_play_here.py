"""Play here: a logged-in player who opens their game on a second device (or after
clearing the browser) plays their seat there. The seat gets a new token; the old
device's token holds nothing any more and its page watches, told so in words. Only the
account that holds the seat may do it; a seat taken by name, another account, a
visitor who is not logged in and a forged request are refused, and the seat's hidden
cards only ever go to the device that holds it."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.web.conftest import TIMEOUT, Client, ServerThread
from tests.web.test_accounts import browser, code_of, csrf, login, register
from tests.web.test_server import create_room, start, take_seat

CLOSE_BAD_TOKEN = 4403


def claim(client: httpx.Client, room_id: str, seat: int | None = None,
          headers: dict[str, str] | None = None) -> httpx.Response:
    body: dict[str, Any] = {} if seat is None else {"seat": seat}
    return client.post(f"/api/rooms/{room_id}/seats/claim", json=body,
                       headers=csrf(client) if headers is None else headers)


def sit(client: httpx.Client, room_id: str, seat: int) -> str:
    taken = client.post(f"/api/rooms/{room_id}/seats", json={"name": "x", "seat": seat},
                        headers=csrf(client))
    assert taken.status_code == 201, taken.text
    token: str = taken.json()["token"]
    return token


def hidden_cards_in(texts: list[str], hidden: list[str]) -> set[str]:
    """The cards of `hidden` (none of them played yet) named anywhere in these messages:
    a state's view, its legal actions, its text, a log entry."""
    words = {word for text in texts
             for word in re.findall(r"[a-z]+", json.dumps(json.loads(text)).lower())}
    return set(hidden) & words


def test_the_account_plays_its_seat_on_a_second_device(
    server: ServerThread, clients: list[Client]
) -> None:
    first, bo = browser(server), browser(server)
    assert register(first, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, host = create_room(server)
    old_token = sit(first, room_id, 0)
    bo_token = sit(bo, room_id, 1)
    start(server, room_id, host)
    old = Client(server.ws_base, room_id, old_token)
    clients.append(old)
    hand = old.state_at_least(0)["view"]["hand"]
    assert len(hand) == 4
    bo_socket = Client(server.ws_base, room_id, bo_token)
    clients.append(bo_socket)
    bo_socket.state_at_least(0)

    # The second device: Ana logs in; until she chooses Play here, she only watches.
    second = browser(server)
    assert login(second, "Ana").status_code == 200
    watching = Client(server.ws_base, room_id)
    clients.append(watching)
    assert "hand" not in watching.state_at_least(0)["view"]
    moved = claim(second, room_id, 0)
    assert moved.status_code == 200, moved.text
    assert moved.json()["seat"] == 0
    new_token = moved.json()["token"]
    assert new_token != old_token
    assert old_token not in moved.text and host not in moved.text

    # The old device is told in words, and from then on it watches: no hand, no moves.
    told = old.error()
    assert told["code"] == "seat_moved"
    assert "another device" in told["message"] and "watches" in told["message"]
    after = old.until(lambda m: m.get("type") == "state" and m["seat"] is None)
    assert "hand" not in after["view"] and after["legal_actions"] == []
    seen_before = len(old.received)
    old.send({"type": "action", "action": hand[0], "move_number": 0})
    assert old.error()["code"] == "spectator"

    # The new device plays the seat, with the same hand.
    here = Client(server.ws_base, room_id, new_token)
    clients.append(here)
    mine = here.state_at_least(0)
    assert mine["seat"] == 0 and mine["view"]["hand"] == hand and mine["your_turn"]
    here.send({"type": "action", "action": hand[0], "move_number": 0})
    assert here.state_at_least(1)["view"]["hand"] == hand[1:]
    # Nothing the old device received since it lost the seat names a card in the hand.
    old.state_at_least(1)
    assert hidden_cards_in(old.received[seen_before:], hand[1:]) == set()
    assert hidden_cards_in(watching.received, hand[1:]) == set()
    assert hidden_cards_in(bo_socket.received, hand[1:]) == set()
    assert hidden_cards_in(here.received, hand[1:]) == set(hand[1:])  # the holder's own

    # The old token opens nothing: a socket joining with it is refused and closed.
    stale = Client(server.ws_base, room_id, old_token)
    clients.append(stale)
    refused = stale.error()
    assert refused["code"] == "bad_token"
    with pytest.raises(ConnectionClosed):  # the server closes it
        stale.recv(timeout=TIMEOUT)
    assert stale.ws.close_code == CLOSE_BAD_TOKEN
    # Nor may it start another takeover: only a login moves a seat.
    anonymous = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    assert anonymous.post(f"/api/rooms/{room_id}/seats/claim",
                          json={"seat": 0, "token": old_token}).status_code == 400

    # The first device may take it back the same way (the newest device plays).
    back = claim(first, room_id)
    assert back.status_code == 200, back.text
    assert here.error()["code"] == "seat_moved"
    again = Client(server.ws_base, room_id, back.json()["token"])
    clients.append(again)
    assert again.state_at_least(1)["view"]["hand"] == hand[1:]


def test_only_the_account_that_holds_the_seat_may_play_it_elsewhere(
    server: ServerThread, clients: list[Client]
) -> None:
    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, host = create_room(server)
    ana_token = sit(ana, room_id, 0)
    guest_token = take_seat(server, room_id, "Gus", 1)  # by name, without an account
    start(server, room_id, host)
    holder = Client(server.ws_base, room_id, ana_token)
    guest = Client(server.ws_base, room_id, guest_token)
    clients.extend([holder, guest])
    hand = holder.state_at_least(0)["view"]["hand"]
    guest_hand = guest.state_at_least(0)["view"]["hand"]

    nobody = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    forged_origin = {**csrf(ana), "Origin": "https://evil.example"}
    refusals = [
        (claim(bo, room_id, 0), 403, "not_your_seat", "another player's account"),
        (claim(bo, room_id), 403, "not_your_seat", "holds no seat"),
        (claim(ana, room_id, 1), 403, "guest_seat", "without an account"),
        (claim(bo, room_id, 1), 403, "guest_seat", "without an account"),
        (claim(nobody, room_id, 0, headers={}), 401, "not_logged_in", "log in"),
        (claim(ana, room_id, 0, headers={}), 403, "csrf", "X-CSRF-Token"),
        (claim(ana, room_id, 0, headers={"X-CSRF-Token": "forged"}), 403, "csrf",
         "X-CSRF-Token"),
        (claim(ana, room_id, 0, headers=forged_origin), 403, "csrf", "another site"),
        (claim(ana, room_id, 2), 400, "bad_seat", "seats are 1 to 2"),
        (claim(ana, "nosuchroom", 0), 404, "unknown_room", "nosuchroom"),
    ]
    for response, status, code, words in refusals:
        assert response.status_code == status, response.text
        assert code_of(response) == code, response.text
        assert words in response.json()["error"]["message"], response.text
        assert "token" not in response.json()
    # A string for a seat, a token in place of a login: bad input, nothing changed.
    for body in ({"seat": "0"}, {"seat": 0, "token": guest_token}):
        wrong = ana.post(f"/api/rooms/{room_id}/seats/claim", json=body, headers=csrf(ana))
        assert wrong.status_code == 400 and code_of(wrong) == "bad_request", wrong.text

    # Nothing moved: both seats play on with their own tokens, nobody was told to watch.
    holder.send({"type": "action", "action": hand[0], "move_number": 0})
    guest.state_at_least(1)
    guest.send({"type": "action", "action": guest_hand[0], "move_number": 1})
    assert holder.state_at_least(2)["view"]["hand"] == hand[1:]
    assert not [text for text in holder.received + guest.received
                if '"seat_moved"' in text]
    assert hidden_cards_in(holder.received, guest_hand[1:]) == set()


def test_play_here_in_a_waiting_room_and_after_the_game(
    server: ServerThread, clients: list[Client]
) -> None:
    ana = browser(server)
    assert register(ana, "Ana").status_code == 201
    room_id, host = create_room(server)
    sit(ana, room_id, 0)
    sit(ana, room_id, 1)  # an unranked room: one account may hold both seats
    which = claim(ana, room_id)
    assert which.status_code == 400 and code_of(which) == "which_seat"
    assert "seats 1, 2" in which.json()["error"]["message"]
    moved = claim(ana, room_id, 1)
    assert moved.status_code == 200 and moved.json()["seat"] == 1
    # Before the start, the new token is the seat's: it leaves the seat with it.
    left = server.http.post(f"/api/rooms/{room_id}/leave", json={"token": moved.json()["token"]})
    assert left.status_code == 200, left.text
    assert code_of(claim(ana, room_id, 1)) == "not_your_seat"  # open now
    aborted = server.http.post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert aborted.status_code == 200, aborted.text
    over = claim(ana, room_id, 0)
    assert over.status_code == 409 and code_of(over) == "game_over"


def test_a_claimed_seat_keeps_its_new_token_after_a_restart(
    db_url: str, start_server: Any, clients: list[Client]
) -> None:
    server = start_server(db_url)
    first = browser(server)
    assert register(first, "Ana").status_code == 201
    room_id, host = create_room(server)
    old_token = sit(first, room_id, 0)
    take_seat(server, room_id, "Gus", 1)
    start(server, room_id, host)
    second = browser(server)
    assert login(second, "Ana").status_code == 200
    new_token = claim(second, room_id, 0).json()["token"]
    server.stop()
    again = start_server(db_url)
    here = Client(again.ws_base, room_id, new_token)
    clients.append(here)
    assert here.state_at_least(0)["seat"] == 0
    stale = Client(again.ws_base, room_id, old_token)
    clients.append(stale)
    assert stale.error()["code"] == "bad_token"


def test_a_seat_moved_on_another_server_process_is_told_the_same(
    server: ServerThread, clients: list[Client]
) -> None:
    """In a cluster, Play here may be answered by another process: this one hears the
    room changed, reloads it, and tells the old device `seat_moved` (not that its seat
    was freed), which then watches."""
    from pyramids.web.cluster import Notice
    from pyramids.web.rooms import hash_token

    ana = browser(server)
    assert register(ana, "Ana").status_code == 201
    room_id, host = create_room(server)
    old_token = sit(ana, room_id, 0)
    take_seat(server, room_id, "Gus", 1)
    start(server, room_id, host)
    old = Client(server.ws_base, room_id, old_token)
    clients.append(old)
    old.state_at_least(0)
    hub = server.app.state.hub
    account_id = hub.rooms[room_id].room.seats[0].account_id
    new_token = "a seat token another process gave"
    assert hub.storage.move_seat_token(room_id, 0, account_id, hash_token(old_token),
                                       hash_token(new_token))
    async def no_new_moves(live: Any, known: Any = None) -> bool:
        return False  # (reading other processes' moves needs PostgreSQL; none were made)

    hub._catch_up = no_new_moves
    hub._loop.call_soon_threadsafe(hub._on_notice, Notice(room_id, "room", "elsewhere"))
    assert old.error()["code"] == "seat_moved"
    assert "hand" not in old.until(lambda m: m.get("type") == "state"
                                   and m["seat"] is None)["view"]
    here = Client(server.ws_base, room_id, new_token)
    clients.append(here)
    assert here.state_at_least(0)["seat"] == 0
    # The token the database no longer holds is refused by the other process too.
    assert not hub.storage.move_seat_token(room_id, 0, account_id, hash_token(old_token),
                                           hash_token("again"))
