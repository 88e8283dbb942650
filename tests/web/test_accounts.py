"""Accounts: passwords only as argon2 hashes (never stored or logged in clear), session
cookies that act for their own account only, CSRF refused without the token, login
limits, ranked rooms (accounts only, server deals) and ratings after a ranked game."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from pyramids.core import load
from pyramids.web.accounts import CSRF_COOKIE, LOGIN_ATTEMPTS, SESSION_COOKIE
from pyramids.web.ratings import Rating
from pyramids.web.storage import normalize_url
from tests.web.conftest import TIMEOUT, Client, ServerThread
from tests.web.toy import NAME

PASSWORD = "correct horse battery staple"
# A ranked room needs a turn clock whose time-out lets the bot move (`ranked_needs_clock`).
RANKED_CLOCK = {"kind": "move", "seconds": 120, "on_timeout": "bot"}
RANKED = {"ranked": True, "time_control": RANKED_CLOCK}


def browser(server: ServerThread) -> httpx.Client:
    """A client with its own cookie jar, holding the CSRF cookie (as a page would)."""
    client = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    assert client.get("/api/account").json() == {"account": None}
    assert client.cookies.get(CSRF_COOKIE)
    return client


def csrf(client: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies[CSRF_COOKIE]}


def register(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/register", json={"name": name, "password": password},
                       headers=csrf(client))


def login(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/login", json={"name": name, "password": password},
                       headers=csrf(client))


def code_of(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


def test_a_password_is_never_stored_or_logged_in_clear(
    server: ServerThread, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ana = browser(server)
    made = register(ana, "Ana")
    assert made.status_code == 201, made.text
    assert made.json()["account"]["name"] == "Ana"
    assert PASSWORD not in made.text
    assert code_of(login(browser(server), "Ana", "wrong password!")) == "bad_login"
    assert login(browser(server), "ana", PASSWORD).status_code == 200  # any case

    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "account 1 registered" in logged or "registered" in logged
    assert PASSWORD not in logged and "wrong password!" not in logged
    engine = sa.create_engine(normalize_url(db_url))
    with engine.connect() as connection:
        stored = connection.execute(sa.text("SELECT password_hash FROM accounts")).scalar_one()
        sessions = connection.execute(sa.text("SELECT token_hash FROM sessions")).scalars().all()
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert ana.cookies[SESSION_COOKIE] not in sessions  # only its SHA-256 is kept
    if db_url.startswith("sqlite"):
        path = Path(sa.engine.make_url(db_url).database or "")
        for file in path.parent.glob(path.name + "*"):
            assert PASSWORD.encode() not in file.read_bytes()


def test_the_session_cookie_is_httponly_and_samesite(server: ServerThread) -> None:
    ana = browser(server)
    made = register(ana, "Ana")
    cookie = next(value for value in made.headers.get_list("set-cookie")
                  if value.startswith(SESSION_COOKIE + "="))
    flags = {part.strip().lower() for part in cookie.split(";")}
    assert "httponly" in flags and "samesite=lax" in flags
    assert "secure" not in flags  # plain http here; https pages get Secure


@pytest.mark.parametrize("problem", ["no header", "wrong header", "other origin"])
def test_csrf_is_refused_without_the_token(server: ServerThread, problem: str) -> None:
    ana = browser(server)
    headers = {"no header": {}, "wrong header": {"X-CSRF-Token": "forged"},
               "other origin": {**csrf(ana), "Origin": "https://evil.example"}}[problem]
    refused = ana.post("/api/account/register", json={"name": "Ana", "password": PASSWORD},
                       headers=headers)
    assert refused.status_code == 403 and code_of(refused) == "csrf"
    assert ana.get("/api/account").json() == {"account": None}
    assert register(ana, "Ana").status_code == 201  # nothing was made: the name is free
    # A seat taken on the strength of the session cookie needs the token too.
    room = server.http.post("/api/rooms", json={"game": NAME, **RANKED}).json()
    room_id = room["room"]["id"]
    forged = ana.post(f"/api/rooms/{room_id}/seats", json={"name": "x"}, headers=headers)
    assert forged.status_code == 403 and code_of(forged) == "csrf"
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["open_seats"] == [0, 1]
    logout = ana.post("/api/account/logout", headers=headers)
    assert logout.status_code == 403
    assert ana.get("/api/account").json()["account"]["name"] == "Ana"


def test_a_session_acts_only_for_its_own_account(server: ServerThread) -> None:
    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room = server.http.post("/api/rooms", json={"game": NAME, **RANKED}).json()
    room_id = room["room"]["id"]
    # Ana asks for a seat under Bo's name: she sits as herself.
    taken = ana.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"}, headers=csrf(ana))
    assert taken.status_code == 201, taken.text
    assert taken.json()["room"]["seats"][0] == {"seat": 0, "kind": "person", "name": "Ana",
                                                "look": "ana", "account": True}
    again = ana.post(f"/api/rooms/{room_id}/seats", json={"name": "Ana"}, headers=csrf(ana))
    assert again.status_code == 409 and code_of(again) == "already_seated"
    # A cookie changed by one character is nobody's.
    stolen = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    token = ana.cookies[SESSION_COOKIE]
    stolen.cookies.set(SESSION_COOKIE, token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert stolen.get("/api/account").json() == {"account": None}
    # Logging out ends Ana's session only; her old cookie is dead afterwards.
    assert ana.post("/api/account/logout", headers=csrf(ana)).status_code == 200
    replay = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    replay.cookies.set(SESSION_COOKIE, token)
    assert replay.get("/api/account").json() == {"account": None}
    assert bo.get("/api/account").json()["account"]["name"] == "Bo"


def test_nobody_plays_by_name_as_an_account_or_as_a_bot(server: ServerThread) -> None:
    """Playing by name (no login), a person may not take an account's name (any case,
    any spacing) nor a name that reads like a bot's seat; in a room or at solitaire."""
    zed = browser(server)
    assert register(zed, "Zed Star").status_code == 201
    room_id = server.http.post("/api/rooms", json={"game": NAME}).json()["room"]["id"]
    # "Zеd Star" with a Cyrillic е reads exactly as the account's name; "Medium (bot"
    # reads like a bot's seat though it does not end in a bracket.
    for name, code in (("zed  star", "name_taken"), ("random (bot)", "bad_name"),
                       ("Ana (you)", "bad_name"), ("Medium (bot", "bad_name"),
                       ("Z\u0435d Star", "bad_name"), ("Ann\uff08bot\uff09", "bad_name"),
                       ("Ann [x]", "bad_name"), ("\uff3aed Star", "bad_name"),
                       # The move log names people: a name may not read as its seat words.
                       ("Seat 1", "bad_name"), ("you", "bad_name"), ("2번 자리", "bad_name"),
                       ("Spectator", "bad_name"), ("나", "bad_name")):
        refused = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": name})
        assert code_of(refused) == code, refused.text
        assert "choose another name" in refused.json()["error"]["message"]
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["open_seats"] == [0, 1]
    # The account's holder, logged in, sits under it; another name is fine by name.
    mine = zed.post(f"/api/rooms/{room_id}/seats", json={"name": "Zed Star"},
                    headers=csrf(zed))
    assert mine.status_code == 201, mine.text
    other = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Zed Stars"})
    assert other.status_code == 201, other.text
    if "mahjongg" in [game["name"] for game in server.http.get("/api/games").json()["games"]]:
        solitaire = server.http.post("/api/solitaire", json={
            "game": "mahjongg", "name": "ZED STAR", "board": "giza-step-ramp"})
        assert code_of(solitaire) == "name_taken"


def test_names_and_passwords_are_checked(server: ServerThread) -> None:
    ana = browser(server)
    assert code_of(register(ana, "Ana", "short")) == "bad_password"
    assert code_of(register(ana, "x")) == "bad_name"
    assert code_of(register(ana, "random (bot)")) == "bad_name"
    # Letters of two alphabets that look alike: "Аna" with a Cyrillic А.
    mixed = register(ana, "\u0410na")
    assert code_of(mixed) == "bad_name"
    assert mixed.json()["error"]["message"].startswith(
        "a player name may not mix Cyrillic and Latin letters")
    # A name the move log would read as a seat's words ("Seat 2 offered ...").
    seat = register(ana, "seat  2")
    assert code_of(seat) == "bad_name"
    assert seat.json()["error"]["message"] == (
        "'seat 2' reads as the pages' own words for a seat ('you', 'seat 2', 'spectator'); "
        "choose another name")
    assert code_of(register(ana, "당신")) == "bad_name"
    assert register(browser(server), "Seattle").status_code == 201
    # One alphabet is fine, and so is Hangul beside Latin (they do not look alike).
    assert register(browser(server), "\u0410\u043d\u044f").status_code == 201  # Аня
    assert register(browser(server), "Ana 김").status_code == 201
    assert register(ana, "Ana").status_code == 201
    taken = register(browser(server), "ANA")
    assert taken.status_code == 409 and code_of(taken) == "name_taken"


def test_a_name_that_looks_like_an_accounts_name_is_refused(server: ServerThread) -> None:
    """Letters of one alphabet can still pass for another name: "Веа", all Cyrillic,
    reads as "Bea"; "BiII" (capital i) as "Bill". Neither an account nor a guest may
    take such a name; a name that only shares letters is fine."""
    assert register(browser(server), "Bea").status_code == 201
    assert register(browser(server), "Bill").status_code == 201
    for name, account in (("\u0412\u0435\u0430", "Bea"), ("BiII", "Bill"),
                          ("\uff22ea", None)):
        refused = register(browser(server), name)
        assert refused.status_code in (400, 409), refused.text
        message = refused.json()["error"]["message"]
        if account is not None:  # (full-width letters are refused for what they are)
            assert code_of(refused) == "name_taken"
            assert message == (f"'{name}' looks like '{account}', the name of an account, so "
                               "one could pass for the other; choose another name")
    room_id = server.http.post("/api/rooms", json={"game": NAME}).json()["room"]["id"]
    guest = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "\u0412\u0435\u0430"})
    assert code_of(guest) == "name_taken" and "looks like 'Bea'" in guest.json()["error"]["message"]
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["open_seats"] == [0, 1]
    # Cyrillic "Анна" looks like no Latin name here ("н" is not "H"), and "Bean" is another name.
    for name in ("\u0410\u043d\u043d\u0430", "Bean"):  # (registrations are limited an hour)
        seated = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": name})
        assert seated.status_code == 201, seated.text


def test_failed_logins_are_limited(server: ServerThread) -> None:
    assert register(browser(server), "Ana").status_code == 201
    mallory = browser(server)
    for _ in range(LOGIN_ATTEMPTS):
        assert code_of(login(mallory, "Ana", "guess guess")) == "bad_login"
    limited = login(mallory, "Ana", PASSWORD)  # even the right password, for now
    assert limited.status_code == 429 and code_of(limited) == "rate_limited"
    assert int(limited.headers["Retry-After"]) > 0
    assert SESSION_COOKIE not in mallory.cookies



def test_guesses_sent_at_once_are_limited_as_if_sent_one_by_one(server: ServerThread) -> None:
    """The limit counted a failed login once its password check was over, so guesses
    sent together all passed the check before the first had failed: a dozen sent at
    once were a dozen guesses, not the five the limit allows."""
    assert register(browser(server), "Ana").status_code == 201
    mallory = browser(server)
    guesses = 3 * LOGIN_ATTEMPTS
    with ThreadPoolExecutor(guesses) as pool:
        answers = list(pool.map(lambda n: login(mallory, "Ana", f"guess {n:04}"),
                                range(guesses)))
    codes = sorted(code_of(answer) for answer in answers)
    assert codes.count("bad_login") == LOGIN_ATTEMPTS, codes
    assert codes.count("rate_limited") == guesses - LOGIN_ATTEMPTS, codes

def test_a_ranked_room_refuses_a_chosen_seed_and_people_without_accounts(
    server: ServerThread,
) -> None:
    chosen = server.http.post("/api/rooms", json={"game": NAME, **RANKED, "seed": 7})
    assert chosen.status_code == 400 and code_of(chosen) == "seed_not_allowed"
    assert "can never be ranked" in chosen.json()["error"]["message"]
    room_id = server.http.post("/api/rooms", json={"game": NAME, **RANKED}).json()[
        "room"]["id"]
    anonymous = server.http.post(f"/api/rooms/{room_id}/seats", json={"name": "Ana"})
    assert anonymous.status_code == 403 and code_of(anonymous) == "account_required"
    summary = server.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert summary["ranked"] is True and summary["open_seats"] == [0, 1]


def test_a_ranked_room_needs_a_clock_whose_time_out_lets_the_bot_move(
    server: ServerThread,
) -> None:
    """Without a clock, or with one that adjourns, a losing player who stays connected
    could stall for ever: the game would never count, and the host cannot end it since
    nobody is away. A ranked room's clock hands a late turn to the bot, so it ends."""
    adjourning = {**RANKED_CLOCK, "on_timeout": "adjourn"}
    for clock in (None, {"kind": "none"}, adjourning, {"kind": "bank", "seconds": 300,
                                                       "on_timeout": "adjourn"}):
        refused = server.http.post("/api/rooms", json={"game": NAME, "ranked": True,
                                                       "time_control": clock})
        assert refused.status_code == 400 and code_of(refused) == "ranked_needs_clock", clock
        assert refused.json()["error"]["message"] == (
            "a ranked game counts for ratings, so a player who stops moving must not hold "
            "it up for ever: give it a turn clock whose time-out lets the bot move, e.g. "
            '"time_control": {"kind": "move", "seconds": 120, "on_timeout": "bot"}, or make '
            "the room unranked")
    korean = server.http.post("/api/rooms?lang=ko", json={"game": NAME, "ranked": True})
    assert code_of(korean) == "ranked_needs_clock"
    assert "time_control" in korean.json()["error"]["message"]
    assert "ranked game" not in korean.json()["error"]["message"]
    # Unranked, any clock or none is the players' choice.
    for clock in (None, adjourning):
        unranked = server.http.post("/api/rooms", json={"game": NAME, "time_control": clock})
        assert unranked.status_code == 201, unranked.text
    for clock in (RANKED_CLOCK, {"kind": "bank", "seconds": 300, "increment": 10}):
        ranked = server.http.post("/api/rooms", json={"game": NAME, "ranked": True,
                                                      "time_control": clock})
        assert ranked.status_code == 201, ranked.text
        assert ranked.json()["room"]["time_control"]["on_timeout"] == "bot"


def test_a_ranked_room_refuses_a_clock_long_enough_to_stall_it(server: ServerThread) -> None:
    """A losing player who stops moving makes each of their turns last the whole clock
    before the bot moves for them: a ranked room's clock is at most 5 minutes a move, or
    a bank of 30 minutes plus 30 s a move. Refused in words (what was asked, what is
    allowed), nothing made; unranked, a long clock stays the players' choice."""
    before = server.http.get("/api/rooms").json()["rooms"]
    for clock in ({"kind": "move", "seconds": 301}, {"kind": "move", "seconds": 86_400},
                  {"kind": "bank", "seconds": 1_801},
                  {"kind": "bank", "seconds": 900, "increment": 31}):
        refused = server.http.post("/api/rooms", json={
            "game": NAME, "ranked": True, "time_control": {**clock, "on_timeout": "bot"}})
        assert refused.status_code == 400 and code_of(refused) == "ranked_clock_too_long", clock
        message = refused.json()["error"]["message"]
        assert "at most 300 s a move" in message and "at most 1800 s plus at most 30 s" \
            in message, message
        assert f"'seconds': {clock['seconds']}" in message, message
    assert server.http.get("/api/rooms").json()["rooms"] == before
    korean = server.http.post("/api/rooms?lang=ko", json={
        "game": NAME, "ranked": True,
        "time_control": {"kind": "move", "seconds": 3_600, "on_timeout": "bot"}})
    assert code_of(korean) == "ranked_clock_too_long"
    assert "300" in korean.json()["error"]["message"]
    assert "ranked game" not in korean.json()["error"]["message"]
    for clock in ({"kind": "move", "seconds": 300}, {"kind": "bank", "seconds": 1_800,
                                                    "increment": 30}):
        fits = server.http.post("/api/rooms", json={
            "game": NAME, "ranked": True, "time_control": {**clock, "on_timeout": "bot"}})
        assert fits.status_code == 201, fits.text
    unranked = server.http.post("/api/rooms", json={
        "game": NAME, "time_control": {"kind": "move", "seconds": 86_400}})
    assert unranked.status_code == 201, unranked.text
    assert server.http.get("/api/games").json()["ranked_clock"] == {
        "move_seconds": 300, "bank_seconds": 1_800, "increment": 30}


def test_a_ranked_room_stored_with_a_long_clock_keeps_it(
    db_url: str, start_server: Callable[..., ServerThread],
) -> None:
    """A ranked room made before the bound keeps its settings: it is read back, seated
    and started as it was (the bound is checked only when a room is made)."""
    server = start_server(db_url)
    made = server.http.post("/api/rooms", json={"game": NAME, **RANKED})
    room_id, host = made.json()["room"]["id"], made.json()["host_token"]
    long_clock = {"kind": "move", "seconds": 3_600.0, "increment": 0.0, "on_timeout": "bot"}
    engine = sa.create_engine(normalize_url(db_url))
    with engine.begin() as connection:  # as a room stored before the bound
        settings = connection.execute(sa.text(
            "SELECT settings FROM rooms WHERE id = :id"), {"id": room_id}).scalar_one()
        settings = json.loads(settings) if isinstance(settings, str) else settings
        settings["time_control"] = long_clock
        connection.execute(sa.text("UPDATE rooms SET settings = :s WHERE id = :id"),
                           {"s": json.dumps(settings), "id": room_id})
    engine.dispose()
    server.stop()
    again = start_server(db_url)
    room = again.http.get(f"/api/rooms/{room_id}").json()["room"]
    assert room["ranked"] is True and room["time_control"] == long_clock
    players = [browser(again), browser(again)]
    for seat, (client, name) in enumerate(zip(players, ("Ana", "Bo"), strict=True)):
        assert register(client, name).status_code == 201
        taken = client.post(f"/api/rooms/{room_id}/seats", json={"name": name, "seat": seat},
                            headers=csrf(client))
        assert taken.status_code == 201, taken.text
    started = again.http.post(f"/api/rooms/{room_id}/start", json={"token": host})
    assert started.status_code == 200, started.text
    assert started.json()["room"]["time_control"] == long_clock


def test_a_ranked_mahjongg_table_needs_the_fair_turn_order(server: ServerThread) -> None:
    """In seat order the first seat wins 62 to 92% of Mahjongg games between equal bots:
    a rating would measure who sat first. A ranked table plays `turn_order=behind`."""
    if server.http.get("/api/games").status_code != 200 or "mahjongg" not in {
            game["name"] for game in server.http.get("/api/games").json()["games"]}:
        pytest.skip("mahjongg is not registered")
    refused = server.http.post("/api/rooms", json={
        "game": "mahjongg", **RANKED, "options": {"players": 2}})
    assert refused.status_code == 400 and code_of(refused) == "ranked_unfair_options"
    assert refused.json()["error"]["message"] == (
        "a ranked Mahjongg table needs Turn order “Lowest score moves next”: with “In seat "
        "order” the first seat wins most games between equal players. Choose Turn order "
        "“Lowest score moves next”, or make the room unranked")
    rooms_before = server.http.get("/api/rooms").json()["rooms"]
    fair = server.http.post("/api/rooms", json={
        "game": "mahjongg", **RANKED,
        "options": {"players": 2, "turn_order": "behind"}})
    assert fair.status_code == 201, fair.text
    assert fair.json()["room"]["options"]["turn_order"] == "behind"
    # Unranked, seat order is the players' choice; co-op has no first-seat race.
    for options in ({"players": 2}, {"players": 2, "mode": "coop"}):
        unranked = server.http.post("/api/rooms", json={"game": "mahjongg", "options": options})
        assert unranked.status_code == 201, unranked.text
    coop = server.http.post("/api/rooms", json={
        "game": "mahjongg", **RANKED, "options": {"players": 2, "mode": "coop"}})
    assert coop.status_code == 201, coop.text
    assert len(rooms_before) + 4 == len(server.http.get("/api/rooms").json()["rooms"])


def test_the_server_says_which_options_a_ranked_room_takes(server: ServerThread) -> None:
    """The lobby asks, when "ranked" is ticked, and chooses them for the player: the
    rule the refusal above applies, so that whatever it answers is never refused."""
    if "mahjongg" not in {game["name"] for game in server.http.get("/api/games").json()["games"]}:
        pytest.skip("mahjongg is not registered")

    def ask(game: str, options: dict[str, object]) -> dict[str, object]:
        answer = server.http.post(f"/api/games/{game}/ranked-options", json={"options": options})
        assert answer.status_code == 200, answer.text
        told: dict[str, object] = answer.json()["options"]
        return told

    for options in ({"players": 2}, {"players": 4, "turn_order": "round"},
                    {"players": 3, "turn_order": "behind"}):
        assert ask("mahjongg", options) == {"turn_order": "behind"}
        fixed = server.http.post("/api/rooms", json={
            "game": "mahjongg", **RANKED,
            "options": {**options, **ask("mahjongg", options)}})
        assert fixed.status_code == 201, fixed.text
    # Alone, or in co-op (no first-seat race; 'behind' is not even allowed there), or
    # a game without such a rule: the player's choices stand.
    for game, options in (("mahjongg", {}), ("mahjongg", {"mode": "coop", "players": 2}),
                          (NAME, {})):
        assert ask(game, options) == {}
    bad = server.http.post("/api/games/mahjongg/ranked-options",
                           json={"options": {"players": "two"}})
    assert bad.status_code == 400


def decisive_seed() -> int:
    """A deal whose game, both seats playing their first legal card, has a winner."""
    for seed in range(100):
        state = load(NAME).new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        if state.returns()[0] != state.returns()[1]:
            return seed
    raise AssertionError("no decisive deal in 100 seeds")


def play_first_legal(clients: list[Client]) -> dict[str, Any]:
    number = 0
    while True:
        for client in clients:
            state = client.state_at_least(number)
            if state["status"] == "finished":
                return state
            if state["your_turn"]:
                client.send({"type": "action", "action": state["legal_actions"][0],
                             "move_number": number})
                number += 1
                break


@pytest.mark.parametrize("ranked", [True, False])
def test_a_ranked_game_moves_both_ratings_and_enters_the_history(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client], ranked: bool
) -> None:
    server = start_server(db_url, seeds=iter([decisive_seed()]))
    ana, bo = browser(server), browser(server)
    register(ana, "Ana")
    register(bo, "Bo")
    created = server.http.post("/api/rooms", json={"game": NAME, "ranked": ranked,
                                                    "time_control": RANKED_CLOCK}).json()
    room_id, host = created["room"]["id"], created["host_token"]
    tokens = []
    for person in (ana, bo):
        taken = person.post(f"/api/rooms/{room_id}/seats", json={"name": "?"},
                            headers=csrf(person))
        assert taken.status_code == 201, taken.text
        tokens.append(taken.json()["token"])
    assert server.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code \
        == 200
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    final = play_first_legal(seats)
    winner = 0 if final["result"]["returns"][0] > 0 else 1

    accounts = [person.get("/api/account").json()["account"] for person in (ana, bo)]
    board = server.http.get(f"/api/leaderboard/{NAME}").json()
    if not ranked:
        assert all(account["ratings"] == {} for account in accounts)
        assert board["players"] == []
        assert accounts[0]["games"][0]["rating_after"] is None
        return
    ratings = [account["ratings"][NAME] for account in accounts]
    assert ratings[winner]["rating"] > 1500 > ratings[1 - winner]["rating"]
    assert all(rating["games"] == 1 and rating["deviation"] < 350 for rating in ratings)
    for account, rating in zip(accounts, ratings, strict=True):
        game = account["games"][0]
        assert game["room"] == room_id and game["rating_before"] == 1500
        assert game["rating_after"] == pytest.approx(rating["rating"])
    assert [row["name"] for row in board["players"]] == [["Ana", "Bo"][winner],
                                                         ["Ana", "Bo"][1 - winner]]


def test_the_leaderboard_of_an_unknown_game_is_refused(server: ServerThread) -> None:
    answer = server.http.get("/api/leaderboard/chess")
    assert answer.status_code == 404 and code_of(answer) == "unknown_game"


def test_a_game_against_a_bot_is_rated_once_against_its_fixed_rating(db_url: str) -> None:
    from pyramids.web.accounts import AccountStore
    from pyramids.web.ratings import bot_rating, update
    from pyramids.web.rooms import Room, RoomSettings
    from pyramids.web.storage import Storage

    storage = Storage(db_url)
    storage.migrate()
    room = Room.create("rated1", NAME, {}, 3, "host", RoomSettings(ranked=True))
    storage.create_room(room)
    store = AccountStore(storage.engine)
    ana = store.create("Ana", "$argon2id$not-a-real-hash")
    assert isinstance(ana, int) and store.create("ANA", "x") == "Ana"
    game = "pacal"  # rated under any name: the bots' table is read by game name
    seats = [(0, ana, None), (1, None, "hard")]
    changes = store.rate_game("rated1", game, seats, [1.0, -1.0])
    hard = bot_rating(game, "hard")
    assert hard.rating > 1500  # measured, not a newcomer's
    expected = update(Rating(), [(hard, 1.0)], clamp=True)
    assert changes == {0: (1500.0, pytest.approx(expected.rating))}
    assert store.rate_game("rated1", game, seats, [1.0, -1.0]) == {}  # once only
    rating = store.ratings_of(ana)[game]
    assert rating["games"] == 1 and rating["rating"] == pytest.approx(expected.rating)
    storage.dispose()


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from pyramids.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'https.db'}")
    with TestClient(app, base_url="https://pyramids.example") as client:
        client.get("/api/account")
        made = client.post("/api/account/register", json={"name": "Ana", "password": PASSWORD},
                           headers={"X-CSRF-Token": client.cookies[CSRF_COOKIE]})
        assert made.status_code == 201, made.text
        cookie = next(value for value in made.headers.get_list("set-cookie")
                      if value.startswith(SESSION_COOKIE + "="))
        flags = {part.strip().lower() for part in cookie.split(";")}
        assert {"secure", "httponly", "samesite=lax"} <= flags


def test_a_ranked_game_in_play_ends_only_once_a_player_has_left(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """A player who leaves a game for good held it up for ever (the page offered the
    host no way to end it); ending a ranked game must not be an escape from a loss."""
    import time

    from pyramids.web.limits import ServerLimits

    server = start_server(db_url, ServerLimits.relaxed(ranked_end_away_seconds=0.5))
    ana, bo = browser(server), browser(server)
    register(ana, "Ana")
    register(bo, "Bo")
    created = server.http.post("/api/rooms", json={"game": NAME, **RANKED}).json()
    room_id, host = created["room"]["id"], created["host_token"]
    tokens = [person.post(f"/api/rooms/{room_id}/seats", json={"name": "?"},
                          headers=csrf(person)).json()["token"] for person in (ana, bo)]
    assert server.http.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code \
        == 200
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    for seat in seats:
        seat.until(lambda m: m["type"] == "state")
    end = {"token": host}
    refused = server.http.post(f"/api/rooms/{room_id}/abort", json=end)
    assert refused.status_code == 409 and code_of(refused) == "ranked_in_play"
    assert server.http.get(f"/api/rooms/{room_id}").json()["room"]["status"] == "playing"
    seats[1].close()  # Bo leaves
    time.sleep(0.3)
    early = server.http.post(f"/api/rooms/{room_id}/abort", json=end)
    assert early.status_code == 409 and code_of(early) == "ranked_in_play"
    time.sleep(0.4)
    ended = server.http.post(f"/api/rooms/{room_id}/abort", json=end)
    assert ended.status_code == 200 and ended.json()["room"]["status"] == "aborted"
    # Bo, who left, forfeits: the game counts as Ana's win.
    ratings = [person.get("/api/account").json()["account"]["ratings"][NAME]["rating"]
               for person in (ana, bo)]
    assert ratings[0] > 1500 > ratings[1]


def test_a_host_who_plays_cannot_walk_away_from_a_ranked_loss(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    """The host may end a ranked game once a player has been away long enough, and
    the game counted for nobody: a host who also played could close the page while
    losing, wait, and end it with no rating change. The seat away forfeits, whoever's."""
    import time

    from pyramids.web.limits import ServerLimits

    server = start_server(db_url, ServerLimits.relaxed(ranked_end_away_seconds=0.3))
    ana, bo = browser(server), browser(server)
    register(ana, "Ana")
    register(bo, "Bo")
    created = ana.post("/api/rooms", json={"game": NAME, **RANKED},
                       headers=csrf(ana)).json()
    room_id, host = created["room"]["id"], created["host_token"]
    tokens = [person.post(f"/api/rooms/{room_id}/seats", json={"name": "?"},
                          headers=csrf(person)).json()["token"] for person in (ana, bo)]
    assert ana.post(f"/api/rooms/{room_id}/start", json={"token": host}).status_code == 200
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    for seat in seats:
        seat.until(lambda m: m["type"] == "state")
    seats[0].close()  # Ana, the host, walks away; Bo stays
    time.sleep(0.5)
    ended = ana.post(f"/api/rooms/{room_id}/abort", json={"token": host})
    assert ended.status_code == 200 and ended.json()["room"]["status"] == "aborted"
    accounts = [person.get("/api/account").json()["account"] for person in (ana, bo)]
    assert accounts[0]["ratings"][NAME]["rating"] < 1500 < accounts[1]["ratings"][NAME]["rating"]
    [game] = accounts[0]["games"]
    assert game["room"] == room_id and game["status"] == "aborted"
    assert game["rating_after"] < game["rating_before"]


def test_a_guesser_cannot_lock_the_owner_out_of_their_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five failed logins locked a name for everyone, the right password too: anyone
    could keep any player out. A name's failures now count per address, and the
    bound over every address together still lets in an address the account logged
    in from before."""
    from fastapi.testclient import TestClient

    from pyramids.web import accounts
    from pyramids.web.app import create_app

    monkeypatch.setattr(accounts, "LOGIN_ATTEMPTS_PER_NAME", 2 * LOGIN_ATTEMPTS)
    app = create_app(f"sqlite:///{tmp_path / 'rooms.db'}")

    def person(address: str) -> TestClient:
        client = TestClient(app, client=(address, 50_000))
        client.get("/api/account")  # the CSRF cookie, as a page's first call sets it
        return client

    def log_in(client: TestClient, password: str) -> Any:
        return client.post("/api/account/login", json={"name": "Ana", "password": password},
                           headers={"X-CSRF-Token": client.cookies[CSRF_COOKIE]})

    with TestClient(app):
        home = person("10.0.0.1")
        made = home.post("/api/account/register", json={"name": "Ana", "password": PASSWORD},
                         headers={"X-CSRF-Token": home.cookies[CSRF_COOKIE]})
        assert made.status_code == 201, made.text
        mallory = person("10.6.6.6")
        for _ in range(LOGIN_ATTEMPTS):
            assert code_of(log_in(mallory, "guess guess")) == "bad_login"
        refused = log_in(mallory, PASSWORD)
        assert refused.status_code == 429 and code_of(refused) == "rate_limited"
        assert "for this name from your address" in refused.json()["error"]["message"]
        # Ana, on the road (an address she never used), is not locked out by him.
        travelling = log_in(person("10.0.0.2"), PASSWORD)
        assert travelling.status_code == 200, travelling.text

        # Guesses from many addresses are bounded too: a new address waits then...
        accomplice = person("10.6.6.7")
        for _ in range(LOGIN_ATTEMPTS):
            assert code_of(log_in(accomplice, "guess guess")) == "bad_login"
        stranger = log_in(person("10.9.9.9"), PASSWORD)
        assert stranger.status_code == 429 and code_of(stranger) == "rate_limited"
        message = stranger.json()["error"]["message"]
        assert "from many addresses" in message and "logged in from before" in message
        # ...but where Ana logged in before, she still gets in.
        for address in ("10.0.0.1", "10.0.0.2"):
            assert log_in(person(address), PASSWORD).status_code == 200
