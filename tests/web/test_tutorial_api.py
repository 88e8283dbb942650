"""The tutorial API (`POST /api/tutorial/<game>`): replayed by the server, never trusting the page.

The page sends back only the learner's entries; every answer is checked against
the same tutorial replayed here through the engine: the refused move changes
nothing, the view is the learner's only, and each tutorial is played to the end
of a real game (the other seats by the tutorial's agent).
"""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="needs the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from pyramids.play.i18n import _  # noqa: E402
from pyramids.play.tutorial import TutorialRun, tutorial_for  # noqa: E402
from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.limits import ServerLimits  # noqa: E402
from pyramids.web.pages import mount_pages  # noqa: E402
from pyramids.web.tutorial import MAX_ENTRIES  # noqa: E402
from tests.web.conftest import TIMEOUT  # noqa: E402

TUTORIALS = ("pacal", "pacal-solo", "temple", "mahjongg")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("tutorial")
    app = mount_pages(create_app(f"sqlite:///{folder / 'rooms.db'}",
                                 limits=ServerLimits.relaxed()))
    with TestClient(app) as test_client:
        yield test_client


def ask(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/tutorial/{game}", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(client: TestClient, game: str, body: Any, status: int = 400) -> str:
    response = client.post(f"/api/tutorial/{game}", json=body)
    assert response.status_code == status, response.text
    message: str = response.json()["error"]["message"]
    return message


def through_the_steps(client: TestClient, game: str, lang: str = "en") -> dict[str, Any]:
    """Follow every step as a learner would: the taught move, or Next."""
    tutorial = tutorial_for(game)
    assert tutorial is not None
    answer = ask(client, game, lang=lang)
    for step in tutorial.steps:
        assert answer["say"] == _(step.say, lang=lang)
        assert answer["highlight"] == list(step.highlight)
        if step.expect is not None:
            assert answer["waits_for_move"]
            assert step.expect in answer["legal_actions"]
            answer = ask(client, game, moves=answer["moves"], attempt=step.expect, lang=lang)
            assert answer["feedback"]["accepted"], answer["feedback"]
        else:
            assert not answer["waits_for_move"] and answer["legal_actions"] == []
            answer = ask(client, game, moves=answer["moves"], go_on=True, lang=lang)
            assert answer["feedback"] == {"accepted": True, "message": ""}
    assert answer["playing_on"] and not answer["finished"]
    return answer


def test_a_wrong_move_is_refused_with_the_hint_and_changes_nothing(client: TestClient) -> None:
    tutorial = tutorial_for("pacal")
    assert tutorial is not None
    at_offer = ask(client, "pacal", moves=[None])
    taught = tutorial.steps[1]
    assert at_offer["waits_for_move"] and taught.expect == "offer 2 28" and taught.hint
    wrong = next(move for move in at_offer["legal_actions"] if move != taught.expect)
    for lang in ("en", "ko"):
        answer = ask(client, "pacal", moves=[None], attempt=wrong, lang=lang)
        assert answer["feedback"] == {"accepted": False, "message": _(taught.hint, lang=lang)}
        assert answer["moves"] == [None], "a refused move is not kept"
        assert answer["view"] == at_offer["view"], "a refused move changes nothing"
        assert answer["step"] == at_offer["step"]
    # Not even a legal move: the same hint, nothing changed.
    answer = ask(client, "pacal", moves=[None], attempt="place F99")
    assert answer["feedback"]["accepted"] is False and answer["view"] == at_offer["view"]
    # Next on a step that teaches a move is refused too.
    answer = ask(client, "pacal", moves=[None], go_on=True, lang="ko")
    assert answer["feedback"] == {"accepted": False,
                                  "message": _("Play the move this step asks for.", lang="ko")}
    assert answer["moves"] == [None]


def test_the_answer_holds_the_learners_view_and_never_another_seats_hand(
    client: TestClient,
) -> None:
    for game in ("pacal", "temple"):
        tutorial = tutorial_for(game)
        assert tutorial is not None
        run = TutorialRun(tutorial)
        answer = ask(client, game)
        while not run.finished:
            assert answer["view"] == json.loads(json.dumps(run.state.view(tutorial.learner)))
            text = json.dumps(answer)
            for seat in range(len(tutorial.seats)):
                if seat == tutorial.learner:
                    continue
                other = run.state.view(seat)
                assert answer["view"] != json.loads(json.dumps(other))
                hidden = json.dumps(other.get("hand"))
                assert other.get("hand") and hidden not in text, (
                    f"{game}: seat {seat}'s hand is in the answer")
            if run.waits_for_move():
                move = run.step.expect  # type: ignore[union-attr]
                assert move is not None
                run.attempt(move)
                answer = ask(client, game, moves=answer["moves"], attempt=move)
            else:
                run.go_on()
                answer = ask(client, game, moves=answer["moves"], go_on=True)


@pytest.mark.parametrize("game", TUTORIALS)
def test_each_tutorial_is_taught_in_korean_then_played_to_the_end(
    client: TestClient, game: str
) -> None:
    answer = through_the_steps(client, game, lang="ko")
    tutorial = tutorial_for(game)
    assert tutorial is not None
    assert answer["title"] == _(tutorial.title, lang="ko") != tutorial.title
    moves = 0
    while not answer["finished"]:
        assert answer["your_turn"], "after the steps the others move by themselves"
        legal = answer["legal_actions"]
        # A learner who plays quickly: decline or pass when offered, else the first move.
        quick = [move for move in legal if move in ("decline", "pass", "swap pass")]
        move = quick[0] if quick else legal[0]
        answer = ask(client, game, moves=answer["moves"], attempt=move, lang="ko")
        assert answer["feedback"]["accepted"], answer["feedback"]
        moves += 1
        assert moves < 400, "the game must end"
    assert answer["result"]["returns"] and answer["legal_actions"] == []
    after = ask(client, game, moves=answer["moves"], attempt=legal[0])
    assert after["feedback"]["accepted"] is False
    assert after["moves"] == answer["moves"]


def test_bad_requests_say_what_is_allowed(client: TestClient) -> None:
    message = refused(client, "chess", {}, 404)
    assert "no tutorial for game 'chess'" in message and "pacal-solo" in message
    assert client.get("/tutorial/chess").status_code == 404
    assert client.get("/tutorial/pacal").status_code == 200
    assert "allowed: en, ko" in refused(client, "pacal", {"lang": "fr"})
    assert "not both" in refused(client, "pacal", {"attempt": "pass", "go_on": True})
    assert "does not replay" in refused(client, "pacal", {"moves": ["offer 9 38"]})
    assert "unknown field" in refused(client, "pacal", {"seed": 3})
    too_many = {"moves": [None] * (MAX_ENTRIES + 1)}
    assert "moves" in refused(client, "pacal", too_many)
    listed = client.get("/api/tutorial", params={"lang": "ko"}).json()
    assert {entry["game"] for entry in listed["tutorials"]} == set(TUTORIALS)


def test_the_lobby_and_learn_pages_link_the_tutorials(client: TestClient) -> None:
    lobby = (Path(__file__).resolve().parents[2] / "src/pyramids/web/static/lobby.html")
    assert 'href="/tutorial"' in lobby.read_text(encoding="utf-8")
    for game in TUTORIALS:
        page = client.get(f"/learn/{game}", params={"lang": "ko"}).text
        assert f'href="/tutorial/{game}"' in page
        assert _("Try the tutorial", lang="ko") in page


def test_a_browser_asking_for_a_missing_page_gets_a_page_not_json(client: TestClient) -> None:
    """/learn/nogame, /tutorial/nogame and /nosuchpage showed the API's JSON to a person;
    a browser (Accept: text/html) gets a page in its language with the way back, while
    the API and other clients keep their JSON."""
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    english = {"lang": "en"}  # other tests here leave the Korean cookie
    for path in ("/learn/nogame", "/tutorial/nogame", "/nosuchpage"):
        page = client.get(path, headers=browser, params=english)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "Page not found" in page.text and 'href="/"' in page.text
        assert '{"error"' not in page.text
    assert "There is no game “nogame” here." in client.get("/learn/nogame", headers=browser,
                                                            params=english).text
    assert "There is nothing at /nosuchpage." in client.get("/nosuchpage", headers=browser,
                                                             params=english).text
    korean = client.get("/nosuchpage", headers=browser, params={"lang": "ko"})
    assert "페이지를 찾을 수 없습니다" in korean.text and 'lang="ko"' in korean.text
    # The API, and a client that does not ask for a page, keep the JSON answer.
    assert client.get("/api/nosuch", headers=browser).json()["error"]["code"] == "not_found"
    assert client.get("/nosuchpage").json()["error"]["code"] == "not_found"
    assert client.get("/learn/nogame").json()["error"]["code"] == "unknown_game"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_learn_index_names_each_tutorial_link_by_its_game(client: TestClient,
                                                               lang: str) -> None:
    """The index's four links all read "Try the tutorial": a screen reader's list of links
    said the same name four times. Each now names its game, in the page's language."""
    from pyramids.core import game_manifest

    page = client.get("/learn", params={"lang": lang}).text
    links = dict(re.findall(r'<a class="tutorial-link" href="/tutorial/([\w-]+)">([^<]*)</a>',
                            page))
    assert set(links) == set(TUTORIALS)
    for game, name in links.items():
        title = _(game_manifest(game).display_title, lang=lang)
        assert name == html.escape(_("Try the {game} tutorial", lang=lang, game=title))
    assert len(set(links.values())) == len(links)
    if lang == "ko":
        assert all(re.search("[가-힣]", name) for name in links.values())
        assert links["pacal"] == "파칼 튜토리얼 해 보기"
    else:
        assert links["pacal-solo"] == "Try the Pacal solo tutorial"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_tutorial_names_its_other_seats_as_the_bots_who_play_them(
        client: TestClient, lang: str) -> None:
    """The other seats read "Seat 2", "Seat 3"; a room names a bot seat by who plays it
    ("Greedy rule (bot)", with its seat where two bots are alike). The tutorial's seats
    now say the same, by the bot the learner finishes against, with its agent for the
    pages (which name it in the reader's language)."""
    bot = _("Greedy rule", lang=lang)
    pacal = ask(client, "pacal", lang=lang)["seats"]
    assert [seat["kind"] for seat in pacal] == ["person", "agent"]
    assert pacal[1]["agent"] == "greedy"
    assert pacal[1]["name"] == _("{bot} (bot)", lang=lang, bot=bot)
    temple = ask(client, "temple", lang=lang)["seats"]
    assert [seat.get("agent") for seat in temple] == [None, "greedy", "greedy"]
    assert [seat["name"] for seat in temple[1:]] == [
        _("{bot} (bot, seat {number})", lang=lang, bot=bot, number=number)
        for number in (2, 3)]
    assert "agent" not in ask(client, "mahjongg", lang=lang)["seats"][0]


def test_one_address_has_its_tutorial_requests_answered_one_at_a_time(
        db_url: str, start_server: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each request replays every entry it sends: 1,000 Mahjongg entries took a third of
    a second of CPU in the engine pool, and one address sending ten a second (within
    its request rate) queued more work there than the threads that also play the
    rooms' moves could do, without end. An address's requests now wait for each other,
    a few at most: the next is refused, saying so, with a wait."""
    from pyramids.web import tutorial as module

    gate = threading.Event()
    counted = threading.Lock()
    answering = most = 0
    original = module.tutorial_answer

    def held(*args: Any) -> dict[str, Any]:
        nonlocal answering, most
        with counted:
            answering += 1
            most = max(most, answering)
        try:
            gate.wait(TIMEOUT)
            return original(*args)
        finally:
            with counted:
                answering -= 1

    monkeypatch.setattr(module, "tutorial_answer", held)
    monkeypatch.setattr(module, "WAITING_PER_ADDRESS", 2, raising=False)
    server = start_server(db_url, pages=True)
    asked = 6
    pool = ThreadPoolExecutor(asked)
    try:
        answers = [pool.submit(server.http.post, "/api/tutorial/pacal", json={})
                   for _ in range(asked)]
        # Nothing is answered while the gate is shut: one request is in the engine, two
        # wait their turn, and the rest are refused at once.
        finished = as_completed(answers, timeout=TIMEOUT)
        refused_now = [next(finished).result() for _ in range(asked - 3)]
    finally:
        gate.set()
        done = [answer.result(TIMEOUT) for answer in answers]
        pool.shutdown()
    assert [answer.status_code for answer in refused_now] == [429] * (asked - 3)
    assert refused_now[0].json()["error"]["code"] == "rate_limited"
    assert "too many tutorial requests at once" in refused_now[0].json()["error"]["message"]
    assert int(refused_now[0].headers["Retry-After"]) >= 1
    assert sorted(answer.status_code for answer in done) == [200] * 3 + [429] * (asked - 3)
    assert most == 1
