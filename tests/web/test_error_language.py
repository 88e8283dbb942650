"""The server refuses in its client's language: an engine's reasons reach a Korean
client in Korean, over HTTP (`Accept-Language` or the language cookie) and over
the room socket (the language it joined with).

In-process server (FastAPI's TestClient on a fresh SQLite file).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="needs the web extra (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402

from pyramids.web.accounts import CSRF_COOKIE  # noqa: E402
from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.chat import MAX_CHAT_LENGTH  # noqa: E402
from pyramids.web.limits import ServerLimits  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'rooms.db'}", limits=ServerLimits.relaxed(),
                     draw_seed=lambda: 7)
    with TestClient(app) as running:
        yield running


def _refusal(response: Any) -> str:
    assert response.status_code == 400, response.text
    message: str = response.json()["error"]["message"]
    return message


def test_a_bad_option_is_refused_in_the_language_the_client_reads(client: TestClient) -> None:
    body = {"game": "pacal", "options": {"rounds_to_win": 0}}
    refused = client.post("/api/rooms", json=body)
    english = _refusal(refused)
    assert english == "Rounds to win (0) is too small; allowed: a whole number from 1 to 99"
    # A client that sends keys reads them too, beside the words.
    assert refused.json()["error"]["message_keys"] == (
        "rounds_to_win=0 is too small; allowed: an integer >= 1 and <= 99")
    korean = _refusal(client.post("/api/rooms", json=body,
                                  headers={"Accept-Language": "ko-KR,ko;q=0.9"}))
    assert korean == "이기는 데 필요한 라운드 (0)은 너무 작습니다. 허용: 1부터 99까지의 정수"
    client.cookies.set("pyramids_lang", "ko")
    assert _refusal(client.post("/api/rooms", json=body,
                                headers={"Accept-Language": "en"})) == korean


def test_an_illegal_move_is_refused_in_korean_over_the_room_socket(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "pacal"}).json()
    room, host = created["room"]["id"], created["host_token"]
    tokens = [client.post(f"/api/rooms/{room}/seats", json={"name": name}).json()["token"]
              for name in ("Ana", "Bo")]
    assert client.post(f"/api/rooms/{room}/start", json={"token": host}).status_code == 200
    refused = []
    for token in tokens:
        with client.websocket_connect(f"/ws/rooms/{room}") as socket:
            socket.send_json({"type": "join", "token": token, "lang": "ko"})
            state = socket.receive_json()
            while state["type"] != "state":
                state = socket.receive_json()
            if not state["your_turn"]:
                continue
            # Pacal opens with an offer, so a decline is refused with what to do.
            socket.send_json({"type": "action", "action": "decline",
                              "move_number": state["move_number"]})
            error = socket.receive_json()
            while error["type"] != "error":
                error = socket.receive_json()
            refused.append((error["code"], error["message"]))
    # The reason alone: the page made the move with a click, and a move's action string
    # (Mahjongg's names tiles by number) is not for players.
    korean = "손의 카드 두 장을 제안해야 합니다 ('offer A B')"
    assert refused == [("illegal_action", korean)]


def _said(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]["message"]
    return message


KOREAN = {"Accept-Language": "ko"}


def _csrf(client: TestClient) -> dict[str, str]:
    assert client.get("/api/account").status_code == 200  # sets the CSRF cookie
    return {"X-CSRF-Token": client.cookies[CSRF_COOKIE]}


def test_account_refusals_are_in_the_language_the_client_reads(client: TestClient) -> None:
    csrf = _csrf(client)

    def register(name: str, password: str, headers: dict[str, str], status: int) -> str:
        answer = client.post("/api/account/register", json={"name": name, "password": password},
                             headers={**csrf, **headers})
        return _said(answer, status)

    assert register("A", "long enough", {}, 400) == "an account name has at least 2 characters"
    assert register("A", "long enough", KOREAN, 400) == "계정 이름은 2자 이상입니다"
    assert register("Ana", "short", {}, 400) == "a password has 8 to 256 characters"
    assert register("Ana", "short", KOREAN, 400) == "비밀번호는 8자에서 256자 사이입니다"
    made = client.post("/api/account/register", json={"name": "Ana", "password": "long enough"},
                       headers=csrf)
    assert made.status_code == 201, made.text
    assert register("ana", "long enough", {}, 409) == (
        "the name 'ana' already has an account; log in, or choose another name")
    assert register("ana", "long enough", KOREAN, 409) == (
        "'ana' 이름의 계정이 이미 있습니다. 로그인하거나 다른 이름을 고르세요")
    # Without the CSRF header: refused in the reader's language too.
    refused = client.post("/api/account/login", json={"name": "Ana", "password": "x" * 8},
                          headers=KOREAN)
    assert _said(refused, 403).startswith("X-CSRF-Token 헤더가 없거나 틀렸습니다")


def test_room_refusals_are_in_the_language_the_client_reads(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "pacal"}).json()
    room, host = created["room"]["id"], created["host_token"]
    body = {"token": host, "seat": 1, "agent": "nobody"}
    english = _said(client.post(f"/api/rooms/{room}/agents", json=body), 400)
    assert english.startswith("unknown agent 'nobody'; allowed agents: ") and "random" in english
    korean = _said(client.post(f"/api/rooms/{room}/agents", json=body, headers=KOREAN), 400)
    assert korean == english.replace("unknown agent", "알 수 없는 에이전트").replace(
        "allowed agents", "가능한 에이전트")

    start = {"token": host}
    assert _said(client.post(f"/api/rooms/{room}/start", json=start), 409) == (
        f"room {room} cannot start: seats 1, 2 are still open; take them or give them to agents")
    assert _said(client.post(f"/api/rooms/{room}/start", json=start, headers=KOREAN), 409) == (
        f"{room} 방을 시작할 수 없습니다: 1, 2번 자리가 아직 비어 있습니다. "
        "자리에 앉거나 에이전트에게 주세요")

    assert _said(client.get("/api/rooms/nowhere"), 404) == "no room 'nowhere'"
    assert _said(client.get("/api/rooms/nowhere", headers=KOREAN), 404) == "'nowhere' 방이 없습니다"
    # The server's own checks of a request's fields, too.
    unknown = {"game": "pacal", "players": 3}
    assert _refusal(client.post("/api/rooms", json=unknown)) == (
        "bad request: unknown field 'players'")
    assert _refusal(client.post("/api/rooms", json=unknown, headers=KOREAN)) == (
        "잘못된 요청: 알 수 없는 필드 'players'")
    # A field of the wrong type or out of bounds, or missing: words, not pydantic's English.
    for body, english, korean in [
        ({"game": 5}, "game: should be text", "game: 문자열 형식이어야 합니다"),
        ({"game": "pacal", "seed": True}, "seed: should be a whole number or text",
         "seed: 정수 또는 문자열 형식이어야 합니다"),
        ({"game": "pacal", "bot_delay_seconds": 99}, "bot_delay_seconds: at most 10",
         "bot_delay_seconds: 10 이하여야 합니다"),
        ({}, "game: required", "game: 필수 항목입니다"),
        ([1], "the body: should be a JSON object", "본문: JSON 객체 형식이어야 합니다"),
    ]:
        assert _refusal(client.post("/api/rooms", json=body)) == f"bad request: {english}"
        assert _refusal(client.post("/api/rooms", json=body, headers=KOREAN)) == (
            f"잘못된 요청: {korean}")



def test_a_body_not_sent_as_json_is_told_so_not_called_the_wrong_shape(
    client: TestClient,
) -> None:
    """A good JSON body sent as text/plain was told "should be a JSON object"."""
    plain = {"Content-Type": "text/plain"}
    said = _refusal(client.post("/api/rooms", content='{"game": "pacal"}', headers=plain))
    assert said == ("the body should be JSON, sent with Content-Type: application/json "
                    "(this one came as text/plain)")
    assert "application/json" in _refusal(client.post("/api/rooms",
                                                      content='{"game": "pacal"}',
                                                      headers=plain | KOREAN))
    assert _refusal(client.post("/api/rooms")).endswith("(this one came without a type)")
    # The same body as JSON makes the room.
    made = client.post("/api/rooms", content='{"game": "pacal"}',
                       headers={"Content-Type": "application/json; charset=utf-8"})
    assert made.status_code == 201


def test_a_method_an_address_does_not_take_is_told_which_it_takes(client: TestClient) -> None:
    refused = client.delete("/api/games")
    assert refused.status_code == 405 and refused.headers["allow"] == "GET"
    assert refused.json()["error"] == {
        "code": "method_not_allowed",
        "message": "DELETE is not allowed at /api/games; it takes GET"}


def _socket_error(socket: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "error":
            return message


def test_socket_refusals_are_in_the_language_the_client_joined_with(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "pacal"}).json()["room"]["id"]
    said = {}
    for lang in ("en", "ko"):
        with client.websocket_connect(f"/ws/rooms/{room}") as socket:
            socket.send_json({"type": "join", "lang": lang})
            socket.send_json({"type": "chat", "text": "x" * (MAX_CHAT_LENGTH + 1)})
            error = _socket_error(socket)
            assert error["code"] == "chat_too_long"
            said[lang] = error["message"]
    length = MAX_CHAT_LENGTH + 1
    assert said == {
        "en": f"a chat message has at most {MAX_CHAT_LENGTH} characters; this one has {length}",
        "ko": f"채팅 메시지는 최대 {MAX_CHAT_LENGTH}자입니다. 이 메시지는 {length}자입니다",
    }


def test_before_joining_the_socket_refuses_in_the_language_of_the_page(
    client: TestClient,
) -> None:
    room = client.post("/api/rooms", json={"game": "pacal"}).json()["room"]["id"]
    for headers, expected in (({}, "a message is a JSON object with a 'type'"),
                              (KOREAN, "메시지는 'type'이 있는 JSON 객체입니다")):
        with client.websocket_connect(f"/ws/rooms/{room}", headers=headers) as socket:
            socket.send_json([1, 2])
            error = _socket_error(socket)
            assert (error["code"], error["message"]) == ("bad_message", expected)


# Two English words or more in a row (spaces or colons between): a sentence left in
# English, where the words around it are Korean.
ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{2,}(?:[ :]+[A-Za-z]{2,})+")


@pytest.mark.parametrize("text", ["{oops", '{"type": "join"', "[1, 2", '{"type": "chat"}}'])
def test_a_socket_message_that_is_no_json_is_told_where_in_korean(
    client: TestClient, text: str
) -> None:
    """The refusal gave Python's parser's English ("Expecting value: line 1 column 2
    (char 1)") inside the Korean sentence; it says where the text broke, in words."""
    room = client.post("/api/rooms", json={"game": "pacal"}).json()["room"]["id"]
    said = {}
    for lang, headers in (("en", {}), ("ko", KOREAN)):
        with client.websocket_connect(f"/ws/rooms/{room}", headers=headers) as socket:
            socket.send_text(text)
            error = _socket_error(socket)
            assert error["code"] == "bad_json", error
            said[lang] = error["message"]
    assert re.fullmatch(r"not valid JSON: it breaks off or is malformed at line 1, "
                        r"column \d+", said["en"]), said
    assert not ENGLISH_WORDS.search(said["ko"]), said["ko"]
    assert f"1행 {said['en'].split()[-1]}열" in said["ko"], said
