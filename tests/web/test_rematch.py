"""Where a finished room's rematch is: told to the room's own players, nobody else.

The room page of each player asks the server where the rematch went (a link to it
appears). The rematch may be unlisted and its open seats go to whoever knows its
id, so a spectator or anyone who saw the old room's link must not learn it.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from pyramids.web.storage import normalize_url
from tests.web.conftest import Client, ServerThread
from tests.web.test_security import play_toy_to_the_end
from tests.web.test_server import create_room, error_of, start, take_seat


def finished_room(server: ServerThread, clients: list[Client],
                  **body: object) -> tuple[str, str, list[str]]:
    """A finished two-seat room: its id, host token and the seats' tokens."""
    room_id, host = create_room(server, **body)
    tokens = [take_seat(server, room_id, "Ana", 0), take_seat(server, room_id, "Bo", 1)]
    start(server, room_id, host)
    clients.extend(play_toy_to_the_end(server, room_id, tokens))
    return room_id, host, tokens


def test_only_the_players_of_a_finished_room_learn_where_its_rematch_is(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client],
) -> None:
    server = start_server(db_url, pages=True)
    room_id, host, (ana, bo) = finished_room(server, clients, unlisted=True)
    find = f"/api/pages/rematch/{room_id}/find"
    assert server.http.post(find, json={"token": bo}).json() == {"room": None}

    rematch, rematch_host = create_room(server, unlisted=True)
    told = server.http.post(f"/api/pages/rematch/{room_id}", json={
        "token": ana, "room": rematch, "room_token": rematch_host})
    assert told.status_code == 200 and told.json() == {"room": rematch}
    for token in (ana, bo, host):
        assert server.http.post(find, json={"token": token}).json() == {"room": rematch}

    # A stranger holding a seat elsewhere, a made-up token, none at all: refused in words.
    elsewhere, _ = create_room(server)
    stranger = take_seat(server, elsewhere, "Eve", 0)
    for token in (stranger, "guessed"):
        refused = server.http.post(find, json={"token": token})
        assert refused.status_code == 403 and error_of(refused)["code"] == "bad_token"
        assert "neither this room's host token nor one of its seat tokens" in \
            error_of(refused)["message"]
    refused = server.http.post(find, json={"token": ""})
    assert refused.status_code == 403 and error_of(refused)["code"] == "missing_token"
    # The address alone no longer answers (it did, to anyone).
    assert server.http.get(f"/api/pages/rematch/{room_id}").status_code == 405
    assert rematch not in server.http.get(f"/api/pages/rematch/{room_id}").text
    unknown = server.http.post("/api/pages/rematch/nosuchroom/find", json={"token": ana})
    assert unknown.status_code == 404 and error_of(unknown)["code"] == "unknown_room"

    # Nor may a stranger point the room's players elsewhere; the first rematch stays.
    lure, lure_host = create_room(server)
    refused = server.http.post(f"/api/pages/rematch/{room_id}",
                               json={"token": stranger, "room": lure, "room_token": lure_host})
    assert refused.status_code == 403 and error_of(refused)["code"] == "bad_token"
    again = server.http.post(f"/api/pages/rematch/{room_id}",
                             json={"token": bo, "room": lure, "room_token": lure_host})
    assert again.json() == {"room": rematch}


def test_only_the_host_of_the_new_room_names_it_the_rematch(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client],
) -> None:
    """A player of the finished room could name any room as its rematch (someone else's,
    or the room itself), and the first answer stays for good: the page that made the
    rematch shows its host token."""
    server = start_server(db_url, pages=True)
    room_id, host, (ana, bo) = finished_room(server, clients)
    announce = f"/api/pages/rematch/{room_id}"
    others, others_host = create_room(server)
    for body in ({"token": ana, "room": others},
                 {"token": ana, "room": others, "room_token": ""},
                 {"token": ana, "room": others, "room_token": ana},
                 {"token": ana, "room": others, "room_token": host}):
        refused = server.http.post(announce, json=body)
        assert refused.status_code in (400, 403), (body, refused.text)
        if refused.status_code == 403:
            assert error_of(refused)["code"] == "not_host"
            assert f"only the host of room {others} may name it as the rematch" in \
                error_of(refused)["message"]
    itself = server.http.post(announce, json={"token": ana, "room": room_id,
                                              "room_token": host})
    assert itself.status_code == 400 and error_of(itself)["code"] == "bad_rematch"
    assert server.http.post(f"{announce}/find", json={"token": bo}).json() == {"room": None}
    mine, mine_host = create_room(server)
    told = server.http.post(announce, json={"token": bo, "room": mine, "room_token": mine_host})
    assert told.status_code == 200 and told.json() == {"room": mine}


def test_a_rematch_is_kept_in_the_database(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client],
) -> None:
    """Not in one process's memory: another process on the same database (a cluster's;
    here a restarted server) finds it. tests/web/test_cluster.py checks two live ones."""
    server = start_server(db_url, pages=True)
    room_id, _, (ana, bo) = finished_room(server, clients)
    rematch, rematch_host = create_room(server)
    told = server.http.post(f"/api/pages/rematch/{room_id}", json={
        "token": ana, "room": rematch, "room_token": rematch_host})
    assert told.status_code == 200
    for client in clients:
        client.close()
    clients.clear()
    server.stop()

    engine = sa.create_engine(normalize_url(db_url))
    with engine.connect() as connection:
        stored = connection.execute(sa.text("SELECT rematch FROM rooms WHERE id = :room"),
                                    {"room": room_id}).scalar_one()
    engine.dispose()
    assert stored == rematch
    again = start_server(db_url, pages=True)
    found = again.http.post(f"/api/pages/rematch/{room_id}/find", json={"token": bo})
    assert found.json() == {"room": rematch}


def test_no_rematch_is_announced_before_the_room_is_finished(
    db_url: str, start_server: Callable[..., ServerThread],
) -> None:
    pages = start_server(db_url, pages=True)
    room_id, host = create_room(pages)
    other = create_room(pages)
    other, other_host = other
    refused = pages.http.post(f"/api/pages/rematch/{room_id}", json={
        "token": host, "room": other, "room_token": other_host})
    assert refused.status_code == 409 and error_of(refused)["code"] == "not_finished"
    found = pages.http.post(f"/api/pages/rematch/{room_id}/find", json={"token": host})
    assert found.json() == {"room": None}
