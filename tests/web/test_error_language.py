"""The server refuses in its client's language: an engine's reasons reach a Korean
client in Korean, over HTTP (`Accept-Language` or the language cookie) and over
the room socket (the language it joined with).

In-process server (FastAPI's TestClient on a fresh SQLite file).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="needs the web extra (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402

from pyramids.web.app import create_app  # noqa: E402
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
    english = _refusal(client.post("/api/rooms", json=body))
    assert english == "option rounds_to_win=0 is too small; allowed: an integer >= 1 and <= 99"
    korean = _refusal(client.post("/api/rooms", json=body,
                                  headers={"Accept-Language": "ko-KR,ko;q=0.9"}))
    assert korean == "옵션 rounds_to_win=0은(는) 너무 작습니다. 허용: 1 이상 99 이하의 정수"
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
    korean = "'decline' 수는 둘 수 없습니다: 손의 카드 두 장을 제안해야 합니다 ('offer A B')"
    assert refused == [("illegal_action", korean)]
