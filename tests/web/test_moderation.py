"""The operator mutes an account's chat or bans an account (`--admin-token-file`):
a muted account still plays but writes nothing, seated or watching; a banned account
cannot log in, its sessions end, its seat sockets are closed and refused; a wrong
operator token, or no such account, changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pyramids.web.accounts import SESSION_COOKIE
from pyramids.web.app import create_app
from pyramids.web.limits import ServerLimits
from tests.web.conftest import TIMEOUT, Client, UvicornThread
from tests.web.test_accounts import PASSWORD, browser, code_of, csrf, login, register
from tests.web.test_play_here import claim, sit

TOKEN = "an operator secret of at least thirty-two characters"
OPERATOR = {"Authorization": f"Bearer {TOKEN}"}


class OperatedServer(UvicornThread):
    def __init__(self, db_url: str) -> None:
        self.app = create_app(db_url, limits=ServerLimits.relaxed(), admin_token=TOKEN)
        super().__init__(self.app)
        self.http = httpx.Client(base_url=self.base, timeout=TIMEOUT)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[OperatedServer]:
    running = OperatedServer(f"sqlite:///{tmp_path / 'moderated.db'}")
    yield running
    running.http.close()
    running.stop()


class CookieClient(Client):
    """A room socket opened by a logged-in browser: it carries the session cookie."""

    def __init__(self, ws_base: str, room_id: str, cookie: str) -> None:  # noqa: D107
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(
            f"{ws_base}/ws/rooms/{room_id}", open_timeout=TIMEOUT,
            additional_headers={"Cookie": f"{SESSION_COOKIE}={cookie}"}))
        self.received: list[str] = []
        self.last_state: dict[str, Any] | None = None
        self._split: list[dict[str, Any]] = []
        self.send({"type": "join"})


def playing(server: OperatedServer, ana: httpx.Client, bo: httpx.Client) -> tuple[str, str, str]:
    made = server.http.post("/api/rooms", json={"game": "toy-hidden"}).json()
    room_id = made["room"]["id"]
    tokens = sit(ana, room_id, 0), sit(bo, room_id, 1)
    started = server.http.post(f"/api/rooms/{room_id}/start", json={"token": made["host_token"]})
    assert started.status_code == 200, started.text
    return room_id, tokens[0], tokens[1]


def chat_answer(client: Client, text: str) -> dict[str, Any]:
    """The chat message as broadcast, or the refusal."""
    client.send({"type": "chat", "text": text})
    return client.until(lambda m: m.get("type") == "error" or (
        m.get("type") == "chat" and m["message"]["text"] == text))


def mute(server: OperatedServer, name: str, muted: bool = True,
         headers: dict[str, str] | None = None) -> httpx.Response:
    return server.http.post(f"/api/admin/accounts/{name}/mute", json={"muted": muted},
                            headers=OPERATOR if headers is None else headers)


def ban(server: OperatedServer, name: str, banned: bool = True,
        headers: dict[str, str] | None = None) -> httpx.Response:
    return server.http.post(f"/api/admin/accounts/{name}/ban", json={"banned": banned},
                            headers=OPERATOR if headers is None else headers)


def test_a_muted_account_plays_on_but_writes_nothing(server: OperatedServer) -> None:
    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, ana_token, bo_token = playing(server, ana, bo)
    seated = Client(server.ws_base, room_id, ana_token)
    other = Client(server.ws_base, room_id, bo_token)
    watching = CookieClient(server.ws_base, room_id, ana.cookies[SESSION_COOKIE])
    stranger = Client(server.ws_base, room_id)
    try:
        hand = seated.state_at_least(0)["view"]["hand"]
        assert chat_answer(seated, "hello")["type"] == "chat"

        # Refused, nothing changed: a wrong token, an unknown account.
        for refused, status, code in (
                (mute(server, "Ana", headers={"Authorization": "Bearer nope"}), 403,
                 "bad_operator_token"),
                (mute(server, "Ana", headers={}), 403, "bad_operator_token"),
                (mute(server, "Nobody"), 404, "unknown_account")):
            assert refused.status_code == status and code_of(refused) == code, refused.text
        assert chat_answer(seated, "still here")["type"] == "chat"

        muted = mute(server, "ana")  # any case
        assert muted.status_code == 200, muted.text
        assert muted.json() == {"account": {"name": "Ana", "chat_muted": True,
                                            "banned": False}}
        for socket in (seated, watching):  # seated, or watching with her login
            refused = chat_answer(socket, "spam")
            assert refused["type"] == "error" and refused["code"] == "chat_muted"
            assert "operator has muted your chat" in refused["message"]
        assert chat_answer(other, "hi Ana")["type"] == "chat"
        assert chat_answer(stranger, "hi all")["type"] == "chat"
        history = server.http.get(f"/api/rooms/{room_id}/chat").json()["messages"]
        assert "spam" not in [message["text"] for message in history]
        # She plays on.
        seated.send({"type": "action", "action": hand[0], "move_number": 0})
        assert seated.state_at_least(1)["view"]["hand"] == hand[1:]

        unmuted = mute(server, "Ana", muted=False)
        assert unmuted.json()["account"]["chat_muted"] is False
        assert chat_answer(seated, "sorry")["type"] == "chat"
    finally:
        for socket in (seated, other, watching, stranger):
            socket.close()


def test_a_banned_account_is_out_until_the_ban_is_lifted(server: OperatedServer) -> None:
    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    phone = browser(server)
    assert login(phone, "Ana").status_code == 200
    room_id, ana_token, bo_token = playing(server, ana, bo)
    seated = Client(server.ws_base, room_id, ana_token)
    other = Client(server.ws_base, room_id, bo_token)
    try:
        seated.state_at_least(0)
        assert code_of(ban(server, "Ana", headers={"Authorization": "Bearer x"})) == (
            "bad_operator_token")
        assert ana.get("/api/account").json()["account"]["name"] == "Ana"

        banned = ban(server, "Ana")
        assert banned.status_code == 200, banned.text
        assert banned.json()["account"] == {"name": "Ana", "chat_muted": False, "banned": True}
        told = seated.error()
        assert told["code"] == "banned" and "banned from this server" in told["message"]
        with pytest.raises(ConnectionClosed):
            seated.recv()
        assert seated.ws.close_code == 4403
        # Every session is over; nothing done with a login works.
        for device in (ana, phone):
            assert device.get("/api/account").json() == {"account": None}
            assert claim(device, room_id, 0).status_code == 401
        new_room = server.http.post("/api/rooms", json={"game": "toy-hidden"}).json()
        taken = ana.post(f"/api/rooms/{new_room['room']['id']}/seats", json={"name": "x"},
                         headers=csrf(ana))
        assert taken.status_code == 401 and code_of(taken) == "not_logged_in"
        # Nor by name, under the account's own name.
        guest = server.http.post(f"/api/rooms/{new_room['room']['id']}/seats",
                                 json={"name": "Ana"})
        assert code_of(guest) == "name_taken"
        # The password is right, but the account is banned: said only to who knows it.
        refused = login(ana, "Ana")
        assert refused.status_code == 403 and code_of(refused) == "banned"
        assert code_of(login(ana, "Ana", "a wrong password")) == "bad_login"
        assert ana.get("/api/account").json() == {"account": None}
        # Its seat token opens nothing now.
        again = Client(server.ws_base, room_id, ana_token)
        assert again.error()["code"] == "banned"
        again.close()
        # The others play on; Bo sees Ana away.
        state = other.until(lambda m: m.get("type") == "state"
                            and not m["seats"][0]["connected"])
        assert state["status"] == "playing"

        lifted = ban(server, "Ana", banned=False)
        assert lifted.json()["account"]["banned"] is False
        assert login(ana, "Ana", PASSWORD).status_code == 200
        back = Client(server.ws_base, room_id, ana_token)
        assert back.state_at_least(0)["seat"] == 0
        back.close()
    finally:
        seated.close()
        other.close()


def test_without_an_operator_token_there_is_no_moderation(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    app = create_app(f"sqlite:///{tmp_path / 'plain.db'}")
    with TestClient(app) as client:
        for path, body in (("mute", {"muted": True}), ("ban", {"banned": True})):
            refused = client.post(f"/api/admin/accounts/Ana/{path}", json=body,
                                  headers=OPERATOR)
            assert refused.status_code == 404 and code_of(refused) == "no_operator"


class NoticeRecorder:
    """A cluster link that only notes what this process would tell the others."""

    def __init__(self) -> None:
        self.bans: list[int] = []

    async def read(self, function: Any, *args: Any) -> Any:
        return function(*args)

    def notify_ban(self, account_id: int) -> None:
        self.bans.append(account_id)

    def notify(self, room_id: str, reason: str) -> None:
        pass

    def notify_presence(self, presence: dict[str, list[int]]) -> None:
        pass


def banned_elsewhere(server: OperatedServer, name: str) -> int:
    """Ban `name` as another process of a cluster would: stored in the shared
    database, this process not asked. The account's id."""
    from pyramids.web.accounts import AccountStore

    found = AccountStore(server.app.state.hub.storage.engine).sanction(name, None, True)
    assert found is not None
    return found[0]


def test_a_ban_on_another_server_process_closes_the_seat_sockets_here(
    server: OperatedServer,
) -> None:
    """In a cluster the operator's ban is answered by one process; the others hear it
    (`ban`, with the account) and close that account's seat sockets at once, as the one
    asked did, not only when they reconnect. The other players stay."""
    from pyramids.web.cluster import Notice

    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, ana_token, bo_token = playing(server, ana, bo)
    seated = Client(server.ws_base, room_id, ana_token)
    other = Client(server.ws_base, room_id, bo_token)
    try:
        seated.state_at_least(0)
        other.state_at_least(0)
        account = banned_elsewhere(server, "Ana")
        hub = server.app.state.hub
        hub._loop.call_soon_threadsafe(hub._on_notice, Notice("", "ban", "elsewhere",
                                                              account=account))
        told = seated.error()
        assert told["code"] == "banned" and "banned from this server" in told["message"]
        with pytest.raises(ConnectionClosed):
            seated.recv()
        assert seated.ws.close_code == 4403
        state = other.until(lambda m: m.get("type") == "state"
                            and not m["seats"][0]["connected"])
        assert state["status"] == "playing"
    finally:
        seated.close()
        other.close()


def test_a_ban_is_told_to_the_other_server_processes(server: OperatedServer) -> None:
    """The process the operator asked tells the others, with the account banned; a ban
    lifted, or a mute, tells them nothing (each process reads those when it needs them)."""
    ana = browser(server)
    assert register(ana, "Ana").status_code == 201
    hub = server.app.state.hub
    recorder = NoticeRecorder()
    hub.cluster = recorder
    try:
        assert ban(server, "Ana").status_code == 200
        assert ban(server, "Ana", banned=False).status_code == 200
        assert mute(server, "Ana").status_code == 200
    finally:
        hub.cluster = None
    from pyramids.web.accounts import AccountStore

    found = AccountStore(hub.storage.engine).find("Ana")
    assert found is not None and recorder.bans == [found[0]]


def test_after_lost_notices_a_process_closes_the_seats_of_accounts_banned_meanwhile(
    server: OperatedServer,
) -> None:
    """A notice sent while a process's listener was reconnecting is lost; the resync
    that follows asks the database whether the accounts seated here are banned."""
    from pyramids.web.cluster import RESYNC, Notice

    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, ana_token, bo_token = playing(server, ana, bo)
    seated = Client(server.ws_base, room_id, ana_token)
    other = Client(server.ws_base, room_id, bo_token)
    try:
        seated.state_at_least(0)
        banned_elsewhere(server, "Ana")
        hub = server.app.state.hub

        async def no_new_moves(live: Any, known: Any = None) -> bool:
            return False  # (reading other processes' moves needs PostgreSQL; none were made)

        hub._catch_up = no_new_moves
        hub._loop.call_soon_threadsafe(hub._on_notice, Notice("", RESYNC, ""))
        assert seated.error()["code"] == "banned"
        with pytest.raises(ConnectionClosed):
            seated.recv()
        other.state_at_least(0)
    finally:
        seated.close()
        other.close()


def test_a_move_sent_before_the_ban_notice_arrives_is_refused_and_changes_nothing(
    server: OperatedServer,
) -> None:
    """In a cluster a ban stored by another process reaches this one by a notice; a
    banned player's move that comes first is checked against the database, refused in
    words, and the game stays as it was. Simulated: the ban is written to the shared
    database and no notice arrives here."""
    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, ana_token, bo_token = playing(server, ana, bo)
    hub = server.app.state.hub
    assert hub.check_bans_on_move is False  # one process closes a ban's sockets itself
    hub.check_bans_on_move = True  # as every process of a cluster does
    seated = Client(server.ws_base, room_id, ana_token)
    other = Client(server.ws_base, room_id, bo_token)
    try:
        state = seated.state_at_least(0)
        first = other.state_at_least(0)
        if not state["your_turn"]:  # Bo moves first: then it is Ana's turn
            other.send({"type": "action", "action": first["legal_actions"][0],
                        "move_number": 0})
            state = seated.state_at_least(1)
        assert state["your_turn"]
        number = state["move_number"]
        # Banned in the shared database; the notice never comes to this process.
        banned_elsewhere(server, "Ana")
        seated.send({"type": "action", "action": state["legal_actions"][0],
                     "move_number": number})
        told = seated.error()
        assert told["code"] == "banned" and told["message"] == (
            "this account is banned from this server by its operator: it cannot log in or "
            "play here")
        with pytest.raises(ConnectionClosed):
            seated.recv()
        assert seated.ws.close_code == 4403
        room = server.http.get(f"/api/rooms/{room_id}").json()["room"]
        assert room["move_number"] == number and room["status"] == "playing"
        state = other.until(lambda m: m.get("type") == "state"
                            and not m["seats"][0]["connected"])
        assert state["move_number"] == number and state["status"] == "playing"
    finally:
        seated.close()
        other.close()


def test_with_the_ban_check_a_player_not_banned_moves_as_ever(server: OperatedServer) -> None:
    ana, bo = browser(server), browser(server)
    assert register(ana, "Ana").status_code == 201
    assert register(bo, "Bo").status_code == 201
    room_id, ana_token, bo_token = playing(server, ana, bo)
    server.app.state.hub.check_bans_on_move = True
    seats = [Client(server.ws_base, room_id, ana_token), Client(server.ws_base, room_id, bo_token)]
    try:
        for number in range(2):
            mover = next(seat for seat in seats if seat.state_at_least(number)["your_turn"])
            mover.send({"type": "action", "move_number": number,
                        "action": mover.state_at_least(number)["legal_actions"][0]})
            assert seats[0].state_at_least(number + 1)["move_number"] == number + 1
    finally:
        for seat in seats:
            seat.close()
