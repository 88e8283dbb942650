"""What a player can do about their own account: change the password (every other
login ends) and delete the account (its ratings, history and sessions go, the name is
free again, and the games others played with it stay theirs)."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
import sqlalchemy as sa

from pyramids.web.storage import normalize_url
from tests.web.conftest import Client, ServerThread
from tests.web.test_accounts import (
    PASSWORD,
    RANKED_CLOCK,
    browser,
    code_of,
    csrf,
    decisive_seed,
    login,
    play_first_legal,
    register,
)
from tests.web.toy import NAME

NEW_PASSWORD = "a much longer passphrase"


def change(client: httpx.Client, password: str, new_password: str) -> httpx.Response:
    return client.post("/api/account/password", headers=csrf(client),
                       json={"password": password, "new_password": new_password})


def delete(client: httpx.Client, password: str) -> httpx.Response:
    return client.post("/api/account/delete", headers=csrf(client), json={"password": password})


def test_a_player_changes_their_password_and_other_logins_end(server: ServerThread) -> None:
    here, elsewhere = browser(server), browser(server)
    assert register(here, "Ana").status_code == 201
    assert login(elsewhere, "Ana").status_code == 200

    nobody = browser(server)
    refused = change(nobody, PASSWORD, NEW_PASSWORD)
    assert refused.status_code == 401 and code_of(refused) == "not_logged_in"
    refused = here.post("/api/account/password",
                        json={"password": PASSWORD, "new_password": NEW_PASSWORD})
    assert refused.status_code == 403 and code_of(refused) == "csrf"
    refused = change(here, "not my password", NEW_PASSWORD)
    assert refused.status_code == 403 and code_of(refused) == "wrong_password"
    assert "current password is wrong" in refused.json()["error"]["message"]
    refused = change(here, PASSWORD, "short")
    assert refused.status_code == 400 and code_of(refused) == "bad_password"
    # Nothing changed by the refusals: the old password and both logins still work.
    assert elsewhere.get("/api/account").json()["account"]["name"] == "Ana"
    assert login(browser(server), "Ana", PASSWORD).status_code == 200

    changed = change(here, PASSWORD, NEW_PASSWORD)
    assert changed.status_code == 200, changed.text
    assert changed.json()["account"]["name"] == "Ana"
    assert NEW_PASSWORD not in changed.text
    assert here.get("/api/account").json()["account"]["name"] == "Ana"  # still logged in
    assert elsewhere.get("/api/account").json() == {"account": None}  # logged out
    assert code_of(login(browser(server), "Ana", PASSWORD)) == "bad_login"
    assert login(browser(server), "Ana", NEW_PASSWORD).status_code == 200


def test_a_player_deletes_their_account(
    db_url: str, start_server: Callable[..., ServerThread], clients: list[Client]
) -> None:
    server = start_server(db_url, seeds=iter([decisive_seed()]))
    ana, bo = browser(server), browser(server)
    register(bo, "Bo")
    register(ana, "Ana")  # the latest account: SQLite gives its id to the next one
    created = server.http.post("/api/rooms", json={"game": NAME, "ranked": True,
                                                    "time_control": RANKED_CLOCK}).json()
    room_id, host = created["room"]["id"], created["host_token"]
    tokens = [person.post(f"/api/rooms/{room_id}/seats", json={"name": "?"},
                          headers=csrf(person)).json()["token"] for person in (ana, bo)]
    server.http.post(f"/api/rooms/{room_id}/start", json={"token": host})
    seats = [Client(server.ws_base, room_id, token) for token in tokens]
    clients.extend(seats)
    play_first_legal(seats)
    board = server.http.get(f"/api/leaderboard/{NAME}").json()["players"]
    assert sorted(row["name"] for row in board) == ["Ana", "Bo"]

    refused = delete(ana, "not my password")
    assert refused.status_code == 403 and code_of(refused) == "wrong_password"
    assert ana.get("/api/account").json()["account"]["name"] == "Ana"

    deleted = delete(ana, PASSWORD)
    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {"account": None}
    assert ana.get("/api/account").json() == {"account": None}
    assert code_of(login(browser(server), "Ana")) == "bad_login"
    board = server.http.get(f"/api/leaderboard/{NAME}").json()["players"]
    assert [row["name"] for row in board] == ["Bo"]
    # Bo's game is still Bo's, with the rating it gave.
    bo_account = bo.get("/api/account").json()["account"]
    assert [game["room"] for game in bo_account["games"]] == [room_id]
    assert bo_account["ratings"][NAME]["games"] == 1

    # The name is free, and whoever takes it next starts afresh: no games, no rating
    # (SQLite may give the new account the deleted one's id).
    newcomer = browser(server)
    assert register(newcomer, "Ana", NEW_PASSWORD).status_code == 201
    fresh = newcomer.get("/api/account").json()["account"]
    assert fresh["games"] == [] and fresh["ratings"] == {}
    engine = sa.create_engine(normalize_url(db_url))
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT COUNT(*) FROM rated_games WHERE "
                                          "account_id NOT IN (SELECT id FROM accounts)")
                                  ).scalar_one() == 0
        assert connection.execute(sa.text("SELECT COUNT(*) FROM sessions WHERE account_id "
                                          "NOT IN (SELECT id FROM accounts)")).scalar_one() == 0
    engine.dispose()


def test_a_ranked_game_still_rates_the_others_after_a_player_deleted_their_account(
    db_url: str,
) -> None:
    from pyramids.web.accounts import AccountStore
    from pyramids.web.rooms import Room, RoomSettings
    from pyramids.web.storage import Storage

    storage = Storage(db_url)
    storage.migrate()
    room = Room.create("rated2", NAME, {}, 3, "host", RoomSettings(ranked=True))
    storage.create_room(room)
    store = AccountStore(storage.engine)
    ana, bo = store.create("Ana", "$argon2id$x"), store.create("Bo", "$argon2id$y")
    assert isinstance(ana, int) and isinstance(bo, int)
    store.delete_account(ana)  # during the game
    changes = store.rate_game("rated2", NAME, [(0, ana, None), (1, bo, None)], [-1.0, 1.0])
    assert set(changes) == {1} and changes[1][1] > 1500
    assert store.ratings_of(ana) == {}
    assert store.ratings_of(bo)[NAME]["games"] == 1
    storage.dispose()


@pytest.mark.parametrize("path", ["/api/account/password", "/api/account/delete"])
def test_self_service_refuses_unknown_fields(server: ServerThread, path: str) -> None:
    ana = browser(server)
    register(ana, "Ana")
    refused = ana.post(path, headers=csrf(ana), json={"password": PASSWORD, "name": "Bo"})
    assert refused.status_code == 400
    assert ana.get("/api/account").json()["account"]["name"] == "Ana"
