"""A game that ends without a result by no choice of its host says who or what ended
it: the server's operator closing the room, or the game reaching the most moves a room
may hold. Every socket, the room's summary, the replay and each player's history carry
`ended` with its words (English and Korean from the catalogue), never the words of a
host ending it; a game its host ends still has none (the page says the host ended it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pyramids.play.i18n import gettext
from pyramids.web.limits import ServerLimits
from pyramids.web.rooms import ended_words
from tests.web.conftest import Client, ServerThread
from tests.web.test_ranked_forfeit import ranked_table
from tests.web.toy import NAME as TOY

TOKEN = "an-operator-secret-of-more-than-32-characters"

OPERATOR = ("The server's operator closed this game: it ended without a result, and nobody "
            "is rated")


def told_everywhere(server: ServerThread, room_id: str, sockets: list[Client],
                    people: list[Any], reason: str) -> dict[str, Any]:
    """`ended` as every socket, the room's summary, the replay and each player's
    history have it (the same everywhere); its words."""
    told = [socket.last_state if socket.last_state and socket.last_state["status"] == "aborted"
            else socket.until(lambda m: m["type"] == "state" and m["status"] == "aborted")
            for socket in sockets]
    ended = told[0]["ended"]
    assert ended is not None and ended["reason"] == reason and ended["words"] is not None
    assert all(message["ended"] == ended for message in told)
    room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["status"] == "aborted" and room["result"] is None and room["ended"] == ended
    replay = server.http.get(f"/api/rooms/{room_id}/replay")
    assert replay.status_code == 200, replay.text
    assert replay.json()["record"]["ended"] == ended
    for person in people:
        [game] = person.get("/api/account").json()["account"]["games"]
        assert game["status"] == "aborted" and game["ended"] == ended
        assert game["rating_after"] == game["rating_before"]  # nobody is rated
    words: dict[str, Any] = ended["words"]
    return words


def test_the_operator_closing_a_game_says_so_not_that_the_host_ended_it(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, admin_token=TOKEN)
    room_id, _host, people, sockets = ranked_table(server, TOY, ["Ana", "Bo"])
    clients.extend(sockets)
    closed = server.http.post(f"/api/admin/rooms/{room_id}/close",
                              headers={"Authorization": f"Bearer {TOKEN}"})
    assert closed.status_code == 200, closed.text
    assert closed.json()["room"]["ended"]["reason"] == "operator"
    words = told_everywhere(server, room_id, sockets, people, "operator")
    assert gettext(words["msgid"], "en", **words["values"]) == OPERATOR
    assert gettext(words["msgid"], "ko", **words["values"]).startswith("서버 운영자가")


def test_a_game_at_the_move_limit_says_it_reached_the_most_moves(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, ServerLimits.relaxed(max_moves_per_room=2))
    room_id, _host, people, sockets = ranked_table(server, TOY, ["Ana", "Bo"])
    clients.extend(sockets)
    for number in range(3):  # the third move is one past the limit
        states = [socket.state_at_least(number) for socket in sockets]
        seat = states[0]["current_player"]
        mover = sockets[seat]
        mover.send({"type": "action", "action": states[seat]["legal_actions"][0],
                    "move_number": number})
    assert mover.error()["code"] == "too_many_moves"
    words = told_everywhere(server, room_id, sockets, people, "move_limit")
    assert words["values"] == {"moves": "2"}
    assert gettext(words["msgid"], "en", **words["values"]) == (
        "This game reached 2 moves, the most a room on this server may hold, so it ended "
        "without a result, and nobody is rated")
    assert "2수" in gettext(words["msgid"], "ko", **words["values"])


def test_a_game_its_host_ends_has_no_other_words(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url)
    made = server.http.post("/api/rooms", json={"game": TOY}).json()
    room_id, host = made["room"]["id"], made["host_token"]
    ended = server.http.post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert ended.status_code == 200, ended.text
    assert ended.json()["room"]["status"] == "aborted" and ended.json()["room"]["ended"] is None


@pytest.mark.parametrize("ended", [
    {"reason": "move_limit"}, {"reason": "move_limit", "moves": "many"},
    {"reason": "move_limit", "moves": True}, {"reason": "move_limit", "moves": -1},
])
def test_a_stored_move_limit_without_a_count_has_no_words(ended: dict[str, Any]) -> None:
    assert ended_words(ended, ["Ana", "Bo"]) is None


def test_the_move_limit_words_write_the_default_limit_with_a_separator() -> None:
    words = ended_words({"reason": "move_limit", "moves": 10_000}, ["Ana"])
    assert words is not None and str(words).startswith("This game reached 10,000 moves,")
