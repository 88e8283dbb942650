"""A ranked game that ends in a forfeit ([ours], docs/server.md): each forfeiting seat
loses its match to every seat still there, and the seats still there, whose game
among themselves was never played out, are not rated against each other. Played end
to end: four accounts at a Temple table whose host ends the game while one of them is
away, and the two-seat game, rated as it always was. Every page's words say who was
away and how the game counts, in English and Korean."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from pyramids.play.i18n import gettext, ngettext
from pyramids.web.limits import ServerLimits
from pyramids.web.rooms import ended_words
from tests.web.conftest import Client, ServerThread
from tests.web.test_accounts import RANKED, browser, csrf, register
from tests.web.test_play_here import sit
from tests.web.toy import NAME as TOY

AWAY_SECONDS = 0.3
# Worked by hand in tests/web/test_ratings.py: a newcomer (1500, RD 350) who beats one
# newcomer, and one who loses to three.
ONE_WIN = (1662.31, 290.32)
THREE_LOSSES = (1200.37, 227.74)
# One loss to one newcomer: the win's mirror image.
ONE_LOSS = (1337.69, 290.32)


def words_in(words: dict[str, Any], lang: str) -> str:
    """A page's words (`ended.words`) as the catalogue gives them in `lang`."""
    values = {name: value for name, value in words["values"].items() if name != "count"}
    if "plural" in words:
        return ngettext(words["msgid"], words["plural"], words["count"], lang, **values)
    return gettext(words["msgid"], lang, **words["values"])


def ranked_table(server: ServerThread, game: str, names: list[str],
                 options: dict[str, Any] | None = None) -> tuple[str, str, list[httpx.Client],
                                                                  list[Client]]:
    """A ranked room of `game` whose seats the accounts `names` hold in order (the
    first is its host), started, every seat's socket joined: the room id, the host
    token, the players' browsers and their sockets."""
    people = [browser(server) for _ in names]
    for person, name in zip(people, names, strict=True):
        assert register(person, name).status_code == 201
    made = people[0].post("/api/rooms", json={"game": game, "options": options or {},
                                              **RANKED}, headers=csrf(people[0]))
    assert made.status_code == 201, made.text
    room_id, host = made.json()["room"]["id"], made.json()["host_token"]
    tokens = [sit(person, room_id, seat) for seat, person in enumerate(people)]
    started = people[0].post(f"/api/rooms/{room_id}/start", json={"token": host})
    assert started.status_code == 200, started.text
    sockets = [Client(server.ws_base, room_id, token) for token in tokens]
    for socket in sockets:
        socket.until(lambda m: m["type"] == "state")
    return room_id, host, people, sockets


def rating_of(person: httpx.Client, game: str) -> tuple[float, float]:
    rating = person.get("/api/account").json()["account"]["ratings"][game]
    return rating["rating"], rating["deviation"]


def test_at_a_table_of_four_the_one_away_loses_to_each_other_seat_and_nothing_else_counts(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, ServerLimits.relaxed(ranked_end_away_seconds=AWAY_SECONDS))
    names = ["Ana", "Bo", "Cy", "Di"]
    room_id, host, people, sockets = ranked_table(server, "temple", names, {"players": 4})
    clients.extend(sockets)
    sockets[2].close()  # Cy leaves the game for good
    time.sleep(AWAY_SECONDS + 0.2)
    ended = people[0].post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert ended.status_code == 200, ended.text
    room = ended.json()["room"]
    assert room["status"] == "aborted"
    assert {key: room["ended"][key] for key in ("reason", "seats")} == {
        "reason": "away", "seats": [2]}

    # Cy lost to each of the three; Ana, Bo and Di each won one match, against Cy
    # only: not placed first together, which would have rated them against each other.
    for seat, person in enumerate(people):
        expected = THREE_LOSSES if seat == 2 else ONE_WIN
        assert rating_of(person, "temple") == pytest.approx(expected, abs=0.01), names[seat]

    # What everyone reads: who was away, by name and seat (counted from 1), and how it
    # counts; the same on the room, on every socket still there, the replay and the history.
    words = room["ended"]["words"]
    assert words["values"] == {"names": "Cy", "seats": "3", "count": 1}
    english = words_in(words, "en")
    assert english == ("The host ended this ranked game while Cy (seat 3) was away, so they "
                       "forfeit it: it counts as their loss to each player still there, and "
                       "no other match of this game is rated")
    assert words_in(words, "ko").startswith("Cy(3번 자리)님이 자리를 비운 사이 방장이")
    for socket in (sockets[0], sockets[1], sockets[3]):
        told = socket.until(lambda m: m["type"] == "state" and m["status"] == "aborted")
        assert told["ended"]["words"] == words
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["ended"]["words"] == words
    replay = server.http.get(f"/api/rooms/{room_id}/replay").json()
    assert replay["record"]["ended"]["words"] == words
    for seat, person in enumerate(people):
        [game] = person.get("/api/account").json()["account"]["games"]
        assert game["ended"]["words"] == words and game["players"] == names
        assert (game["rating_after"] < game["rating_before"]) == (seat == 2)


def test_a_two_seat_forfeit_is_a_win_and_a_loss_as_before_and_says_so(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, ServerLimits.relaxed(ranked_end_away_seconds=AWAY_SECONDS))
    room_id, host, people, sockets = ranked_table(server, TOY, ["Ana", "Bo"])
    clients.extend(sockets)
    sockets[1].close()  # Bo leaves
    time.sleep(AWAY_SECONDS + 0.2)
    ended = people[0].post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert ended.status_code == 200, ended.text
    assert rating_of(people[0], TOY) == pytest.approx(ONE_WIN, abs=0.01)
    assert rating_of(people[1], TOY) == pytest.approx(ONE_LOSS, abs=0.01)
    words = ended.json()["room"]["ended"]["words"]
    assert words_in(words, "en") == ("The host ended this ranked game while Bo (seat 2) was "
                                     "away, so they forfeit it: it counts as a loss for them "
                                     "and a win for Ana")
    assert words_in(words, "ko").startswith("Bo(2번 자리)님이 자리를 비운 사이 방장이")


def test_the_words_of_each_forfeit_say_who_and_how_it_counts() -> None:
    """Every shape of `Room.ended`, worded (English and Korean from the catalogue);
    a stored value that names no known seat has no words rather than wrong ones."""
    four = ["Ana", "Bo", "Cy", "Di"]
    timeouts = ended_words({"reason": "timeouts", "seat": 1, "timeouts": 3}, four)
    assert timeouts is not None and str(timeouts) == (
        "Bo (seat 2) let the clock run out on 3 turns in a row, so they forfeit this ranked "
        "game: it counts as their loss to each other player, and no other match of this "
        "game is rated")
    assert gettext(timeouts.msgid, "ko", **timeouts.values).startswith(
        "Bo(2번 자리)님이 3턴 연속으로")
    # At two seats the words are those players have read since the rule began.
    two = ended_words({"reason": "timeouts", "seat": 0, "timeouts": 3}, ["Ana", "Bo"])
    assert two is not None and str(two).endswith("a loss for them and a win for everyone "
                                                 "else at the table")
    both = ended_words({"reason": "away", "seats": [0, 3]}, four)
    assert both is not None and str(both) == (
        "The host ended this ranked game while Ana, Di (seats 1, 4) were away, so they "
        "forfeit it: it counts as a loss for each of them to every player still there, and "
        "no other match of this game is rated")
    assert "Ana, Di(1, 4번 자리)" in words_in({"msgid": both.msgid, "plural": both.plural,
                                             "count": 2, "values": both.values}, "ko")
    everyone = ended_words({"reason": "away", "seats": [0, 1]}, ["Ana", "Bo"])
    assert everyone is not None and "not rated" in str(everyone)
    assert gettext(everyone.msgid, "ko") != everyone.msgid
    for bad in ({"reason": "away", "seats": [4]}, {"reason": "away", "seats": []},
                {"reason": "away", "seats": [1, 1]}, {"reason": "away", "seats": "1"},
                {"reason": "timeouts", "seat": 9}, {"reason": "other"}):
        assert ended_words(bad, four) is None, bad
