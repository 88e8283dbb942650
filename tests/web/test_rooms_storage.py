"""Rooms rebuilt from storage: exact replays, and tampered rows refused without harm."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa

from pyramids.web.rooms import FINISHED, PLAYING, Room, RoomError, RoomSettings, hash_token
from pyramids.web.storage import Storage, StoredAction, normalize_url
from tests.web.conftest import Client, ServerThread
from tests.web.test_server import create_room, error_of, start, take_seat
from tests.web.toy import NAME


def new_room(seed: int = 3) -> Room:
    return Room.create("r1", NAME, {}, seed, hash_token("host"), RoomSettings())


def test_a_stored_room_replays_to_the_same_state(db_url: str) -> None:
    storage = Storage(db_url)
    storage.migrate()
    storage.migrate()  # a second upgrade finds nothing to do
    room = new_room()
    room.take_seat("Ana")
    room.give_to_agent(1, "random", ["random"])
    storage.create_room(room)
    for seat in room.seats:
        storage.save_seat(room.id, seat)
    room.start()
    storage.save_status(room.id, room.status, None)
    while room.status == PLAYING:
        seat = room.state.current_player
        action = room.check_action(seat, room.state.legal_action_strings()[-1])
        text = room.state.action_to_string(action)
        storage.append_actions(
            [StoredAction(room.id, len(room.actions) + 1, seat, text, seat == 1)]
        )
        room.apply(seat, action, by_bot=seat == 1)
    storage.save_status(room.id, room.status, room.result())

    loaded = storage.load_room(room.id)
    assert loaded is not None
    assert loaded.status == FINISHED
    assert loaded.state.to_json() == room.state.to_json()
    assert loaded.record().to_dict() == room.record().to_dict()
    assert [s.public() for s in loaded.seats] == [s.public() for s in room.seats]
    assert loaded.seat_of("nobody") is None
    assert storage.load_room("missing") is None
    # A duplicate action number is refused by the database, and nothing is added.
    with pytest.raises(sa.exc.IntegrityError):
        storage.append_actions([StoredAction(room.id, 1, 0, "play amber", False)])
    reloaded = storage.load_room(room.id)
    assert reloaded is not None and reloaded.actions == room.actions
    storage.dispose()


def test_restore_refuses_an_action_that_does_not_replay() -> None:
    room = new_room()
    seats = room.seats
    legal = room.state.legal_action_strings()
    with pytest.raises(RoomError, match="stored action 2"):
        Room.restore("r1", NAME, {}, 3, "h", RoomSettings(), seats, PLAYING,
                     [(0, legal[0], False), (1, legal[0], False)])
    with pytest.raises(RoomError, match="not its turn"):
        Room.restore("r1", NAME, {}, 3, "h", RoomSettings(), seats, PLAYING,
                     [(1, legal[0], False)])


def test_a_tampered_room_is_refused_and_the_others_play_on(
    db_url: str, start_server: Callable[..., ServerThread]
) -> None:
    first = start_server(db_url)
    rooms = []
    for _ in range(2):
        room_id, host = create_room(first)
        take_seat(first, room_id, "Ana")
        take_seat(first, room_id, "Bo")
        start(first, room_id, host)
        rooms.append(room_id)
    first.stop()

    engine = sa.create_engine(normalize_url(db_url))
    with engine.begin() as connection:
        connection.execute(
            sa.text("INSERT INTO actions (room_id, number, seat, action, by_bot, created_at) "
                    "VALUES (:room, 1, 0, 'play nothing', false, CURRENT_TIMESTAMP)"),
            {"room": rooms[0]},
        )
    engine.dispose()

    second = start_server(db_url)
    # Its summary comes from the stored rows; playing it needs the replay, refused.
    watcher = Client(second.ws_base, rooms[0])
    error = watcher.error()
    assert error["code"] == "broken_room"
    assert "stored action 1 ('play nothing')" in error["message"]
    watcher.close()
    broken = second.http.post(f"/api/rooms/{rooms[0]}/seats", json={"name": "Cy"})
    assert broken.status_code == 500 and error_of(broken)["code"] == "broken_room"
    fine = second.http.get(f"/api/rooms/{rooms[1]}")
    assert fine.status_code == 200 and fine.json()["room"]["status"] == "playing"
    player = Client(second.ws_base, rooms[1])
    assert player.state_at_least(0)["status"] == "playing"
    player.close()


def test_an_illegal_move_is_refused_with_the_engines_reason() -> None:
    room = Room.create("r2", "pacal", {}, 5, hash_token("host"), RoomSettings())
    room.take_seat("Ana")
    room.take_seat("Bo")
    room.start()
    seat = room.state.current_player
    before = room.state.to_json()
    hand = room.state.view(seat)["hand"]
    with pytest.raises(RoomError) as refused:
        room.check_action(seat, "place F1")  # the offer comes first
    assert refused.value.code == "illegal_action"
    # The reason alone (the page made the move; an action string is not for players).
    assert refused.value.message == "you must offer two of your hand cards ('offer A B')"
    missing = next(v for v in range(1, 51) if v not in hand)
    with pytest.raises(RoomError, match=f"card {missing} is not in"):
        room.check_action(seat, f"offer {min(hand)} {missing}" if missing > min(hand)
                          else f"offer {missing} {min(hand)}")
    assert room.state.to_json() == before
