"""The solitaire API: boards for the chooser, best-score tables, game numbers, the daily deal.

In-process server (FastAPI's TestClient on a fresh SQLite file) with the date of
the daily deal injected: the tests never read the wall clock's date.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

pytest.importorskip("fastapi", reason="needs the web extra (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402

from pyramids.core import load  # noqa: E402
from pyramids.play.boards import board_names, daily_game_number  # noqa: E402
from pyramids.web.accounts import CSRF_COOKIE  # noqa: E402
from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.limits import ServerLimits  # noqa: E402
from pyramids.web.solitaire_storage import (  # noqa: E402
    DAILY,
    RANKED,
    SolitaireGame,
    SolitaireRecords,
)
from pyramids.web.storage import Storage  # noqa: E402

GAME = "mahjongg"
SMALL = "giza-step-ramp"


class Server:
    def __init__(self, url: str) -> None:
        self.day = date(2026, 12, 1)
        self.app = create_app(url, limits=ServerLimits.relaxed(), today=lambda: self.day)
        self.client = TestClient(self.app)

    def start(self, client: TestClient | None = None, **body: Any) -> dict[str, Any]:
        """Start a game by name, or logged in as `client`'s account."""
        client = client or self.client
        headers = {} if client is self.client else {"X-CSRF-Token": client.cookies[CSRF_COOKIE]}
        response = client.post("/api/solitaire", json={"game": GAME, **body}, headers=headers)
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def account(self, name: str) -> TestClient:
        """A client of its own (its own cookies), logged in to a new account `name`."""
        client = TestClient(self.app)
        client.get("/api/account")  # sets the CSRF cookie, as a page's first call does
        made = client.post("/api/account/register",
                           json={"name": name, "password": "correct horse battery staple"},
                           headers={"X-CSRF-Token": client.cookies[CSRF_COOKIE]})
        assert made.status_code == 201, made.text
        return client

    def error(self, response: Any) -> dict[str, str]:
        assert response.status_code == 400, response.text
        error: dict[str, str] = response.json()["error"]
        return error

    def first_view(self, started: dict[str, Any]) -> dict[str, Any]:
        with self.client.websocket_connect(f"/ws/rooms/{started['room']['id']}") as socket:
            socket.send_json({"type": "join", "token": started["token"]})
            while True:
                message = socket.receive_json()
                if message["type"] == "state" and message["view"]:
                    view: dict[str, Any] = message["view"]
                    return view

    def play_out(self, started: dict[str, Any], seed: int = 0) -> dict[str, Any]:
        """Random pairs until the game ends (passing when none is left)."""
        chooser = random.Random(seed)
        with self.client.websocket_connect(f"/ws/rooms/{started['room']['id']}") as socket:
            socket.send_json({"type": "join", "token": started["token"]})
            while True:
                message = socket.receive_json()
                if message["type"] != "state":
                    continue
                if message["status"] == "finished":
                    return message
                if not message["your_turn"]:
                    continue
                legal = message["legal_actions"]
                pairs = [action for action in legal if action.startswith("match")]
                socket.send_json({"type": "action", "move_number": message["move_number"],
                                  "action": chooser.choice(pairs) if pairs else "pass"})


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path / 'rooms.db'}")
    with running.client:
        yield running


def rooms_stored(server: Server) -> int:
    engine = server.app.state.hub.storage.engine
    with engine.connect() as connection:
        return int(connection.execute(sa.text("SELECT count(*) FROM rooms")).scalar_one())


# -- the chooser's boards ----------------------------------------------------------


def test_every_shipped_layout_is_offered_with_what_its_picture_needs(server: Server) -> None:
    answer = server.client.get(f"/api/games/{GAME}/boards").json()
    assert answer["option"] == "layout"
    assert [entry["name"] for entry in answer["boards"]] == board_names(GAME)
    for entry in answer["boards"]:
        layout = getattr(load(GAME, layout=entry["name"]), "layout")  # noqa: B009
        assert entry["tiles"] == layout.size == len(entry["positions"])
        assert [tuple(p) for p in entry["positions"]] == list(layout.positions)
        assert set(entry["capstones"]) == set(layout.capstones)
        for x, y, _z in entry["positions"]:
            assert 0 <= x <= entry["width"] - 2 and 0 <= y <= entry["height"] - 2


def test_measured_boards_carry_their_tier_and_figures(server: Server) -> None:
    from pyramids.games.mahjongg.blueprints.difficulty import measured_layouts

    measured = measured_layouts()
    boards = server.client.get(f"/api/games/{GAME}/boards").json()["boards"]
    for entry in boards:
        record = measured.get(entry["name"])
        if record is None:
            assert entry["tier"] == "" and entry["figures"] == {}
        else:
            assert entry["tier"] == record["tier"]
            assert entry["figures"]["estimated_minutes"] == record["estimated_minutes"]
    korean = server.client.get(f"/api/games/{GAME}/boards?lang=ko").json()["boards"]
    assert [entry["tiles"] for entry in korean] == [entry["tiles"] for entry in boards]


def test_a_game_without_boards_offers_none(server: Server) -> None:
    answer = server.client.get("/api/games/pacal/boards").json()
    assert answer == {"game": "pacal", "option": None, "boards": []}
    error = server.error(server.client.get("/api/games/nosuchgame/boards"))
    assert error["code"] == "unknown_game"


@pytest.mark.parametrize("board", ["nope", "../../etc/passwd", "turtle.layout", "TURTLE ", ""])
def test_a_bad_board_name_is_refused_and_nothing_is_made(server: Server, board: str) -> None:
    before = rooms_stored(server)
    error = server.error(server.client.post(
        "/api/solitaire", json={"game": GAME, "name": "Ana", "board": board}))
    assert error["code"] == "bad_board"
    assert "turtle" in error["message"] and SMALL in error["message"]  # what is allowed
    assert rooms_stored(server) == before
    # A path-like name does not even reach the table's route.
    assert server.client.get(f"/api/scores/{GAME}/{board or 'x'}").status_code in (400, 404)


def test_a_start_needs_exactly_one_of_board_number_or_daily(server: Server) -> None:
    for body in ({}, {"board": SMALL, "daily": True},
                 {"board": SMALL, "game_number": f"{SMALL}-1"}):
        error = server.error(server.client.post(
            "/api/solitaire", json={"game": GAME, "name": "Ana", **body}))
        assert error["code"] == "bad_request"
    error = server.error(server.client.post(
        "/api/solitaire", json={"game": "pacal", "name": "Ana", "board": SMALL}))
    assert error["code"] == "no_boards"


def test_options_with_more_than_one_seat_are_not_solitaire(server: Server) -> None:
    error = server.error(server.client.post("/api/solitaire", json={
        "game": GAME, "name": "Ana", "board": SMALL,
        "options": {"mode": "coop", "players": 2}}))
    assert error["code"] == "not_solitaire"


# -- game numbers ----------------------------------------------------------------------


@pytest.mark.parametrize("number", [
    "turtle", "turtle-", "-12", "turtle-1.5", "turtle--3", "turtle-+3", "nope-12",
    "turtle-99999999999999999999", "turtle-9999999999999999999", "../x-1", "",
])
def test_a_bad_game_number_gets_a_clear_error(server: Server, number: str) -> None:
    before = rooms_stored(server)
    error = server.error(server.client.post(
        "/api/solitaire", json={"game": GAME, "name": "Ana", "game_number": number}))
    assert error["code"] == "bad_game_number"
    assert "game number" in error["message"] or "unknown board" in error["message"]
    assert rooms_stored(server) == before


def test_a_game_number_deals_the_engine_s_game_and_is_practice(server: Server) -> None:
    started = server.start(name="Ana", game_number=f" {SMALL.upper()}-4821 ")
    assert started["kind"] == "practice" and started["game_number"] == f"{SMALL}-4821"
    assert started["room"]["fairness"]["practice"] is True
    engine = load(GAME, layout=SMALL).new_initial_state(4821)
    assert server.first_view(started)["tiles"] == engine.view(0)["tiles"]
    server.play_out(started)
    assert server.client.get(f"/api/scores/{GAME}/{SMALL}").json()["scores"] == []
    info = server.client.get(f"/api/solitaire/{started['room']['id']}").json()
    assert info["finished"] and info["kind"] == "practice"
    assert info["game_number"] == f"{SMALL}-4821"


def test_a_ranked_game_counts_and_shows_its_number_only_when_over(server: Server) -> None:
    started = server.start(name="Ana", board=SMALL)
    room = started["room"]["id"]
    assert started["kind"] == "ranked" and started["game_number"] is None
    assert server.client.get(f"/api/solitaire/{room}").json()["game_number"] is None
    final = server.play_out(started)
    outcome = final["view"]["outcome"]
    info = server.client.get(f"/api/solitaire/{room}").json()
    seed = server.client.get(f"/api/rooms/{room}/record").json()["seed"]
    assert info["game_number"] == f"{SMALL}-{seed}"
    table = server.client.get(f"/api/scores/{GAME}/{SMALL}").json()
    assert table["variant"] == ""
    [row] = table["scores"]
    assert row["player"] == "Ana" and row["score"] == outcome["scores"][0]
    assert row["won"] == (0 in outcome["winners"]) and row["seconds"] >= 0
    # Another rules variant has its own table.
    other = server.client.get(f"/api/scores/{GAME}/{SMALL}",
                              params={"options": '{"mode": "time-attack"}'}).json()
    assert other["variant"] == "mode=time-attack" and other["scores"] == []
    assert server.error(server.client.get(
        f"/api/scores/{GAME}/{SMALL}", params={"options": '{"mode": "fast"}'}))


# -- the daily deal ---------------------------------------------------------------------


def test_the_daily_deal_is_the_same_for_everyone_on_a_date_and_not_on_another(
    server: Server,
) -> None:
    ana = server.start(server.account("Ana"), name="Ana", daily=True)
    bo = server.start(server.account("Bo"), name="Bo", daily=True)
    assert ana["kind"] == bo["kind"] == "daily" and ana["board"] == bo["board"]
    assert ana["game_number"] is None  # the deal stays the server's
    assert server.first_view(ana)["tiles"] == server.first_view(bo)["tiles"]
    server.day = date(2026, 12, 2)
    cy = server.start(server.account("Cy"), name="Cy", daily=True)
    assert (cy["board"], server.first_view(cy)["tiles"]) != (
        ana["board"], server.first_view(ana)["tiles"])


def test_the_day_s_table_counts_an_account_s_first_game_only(server: Server) -> None:
    """Whoever has played the daily deal through knows it: only an account's first game
    of the day ranks; the account's later games are `retry`."""
    ana = server.account("Ana")
    # Logged in, the seat and the table carry the account's name, whatever was typed.
    first = server.start(ana, name="somebody else", daily=True)
    again = server.start(ana, name="Ana", daily=True)
    assert (first["kind"], again["kind"]) == ("daily", "retry")
    assert [seat["name"] for seat in first["room"]["seats"]] == ["Ana"]
    server.play_out(again, seed=1)
    assert server.client.get(f"/api/daily/{GAME}").json()["scores"] == []
    server.play_out(first)
    daily = server.client.get(f"/api/daily/{GAME}").json()
    assert [row["player"] for row in daily["scores"]] == ["Ana"]
    assert daily["day"] == "2026-12-01" and daily["board"]["name"] == first["board"]

    # By name, nobody plays under the account's name, in any case.
    taken = server.client.post("/api/solitaire", json={"game": GAME, "name": " ANA ",
                                                        "board": SMALL})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    # The account's holder plays any board under it (this was refused as 'name_taken').
    board = server.start(ana, name="Ana", board=SMALL)
    assert board["kind"] == "ranked" and board["room"]["seats"][0]["name"] == "Ana"


def test_two_processes_on_one_database_rank_an_account_s_daily_game_once(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve --cluster`: an account's daily starts sent at once to two processes on one
    database. Each found none stored yet and both ranked; the database decides now."""
    one, two = Server(db_url), Server(db_url)
    with one.client, two.client:
        ana = one.account("Ana")
        two.client.cookies.update(ana.cookies)  # the same session, on the other process
        both = threading.Barrier(2, timeout=20)
        add = SolitaireRecords.add

        def together(records: SolitaireRecords, entry: SolitaireGame) -> str:
            both.wait()  # neither start is stored before both have looked
            return add(records, entry)

        monkeypatch.setattr(SolitaireRecords, "add", together)

        def start(client: TestClient) -> str:
            body = {"game": GAME, "name": "Ana", "daily": True}
            response = client.post("/api/solitaire", json=body,
                                   headers={"X-CSRF-Token": ana.cookies[CSRF_COOKIE]})
            assert response.status_code == 201, response.text
            kind: str = response.json()["kind"]
            return kind

        with ThreadPoolExecutor(2) as pool:
            kinds = sorted(pool.map(start, (ana, two.client)))
        assert kinds == ["daily", "retry"]
        monkeypatch.undo()
        assert start(two.client) == start(ana) == "retry"
        engine = one.app.state.hub.storage.engine
        with engine.connect() as connection:
            stored = connection.execute(sa.text(
                "SELECT kind, count(*) FROM solitaire_games GROUP BY kind ORDER BY kind")).all()
        assert [tuple(row) for row in stored] == [("daily", 1), ("retry", 3)]


def test_the_migration_keeps_an_account_s_earliest_daily_game_of_a_day(db_url: str) -> None:
    """Databases where two processes both ranked one account's day: the earliest game
    stays `daily`, the others become `retry`, and the rule holds from then on."""
    storage = Storage(db_url)
    storage.migrate()
    start = datetime(2026, 12, 1, 10, tzinfo=UTC)
    games = [  # room, player, day, minutes after `start`
        ("late", "Ana", 1, 5), ("early", "ana", 1, 1), ("later", "ANA", 1, 9),
        ("other day", "Ana", 2, 0), ("Bo", "Bo", 1, 7),
    ]
    with storage.engine.begin() as connection:
        connection.execute(sa.text("DROP INDEX ux_solitaire_one_daily"))
        connection.execute(sa.text("UPDATE alembic_version SET version_num = '0003_best_scores' "
                                   "WHERE version_num = '0009_one_daily'"))
        for room, player, day, minutes in games:
            connection.execute(sa.text(
                "INSERT INTO rooms (id, game, options, seed, host_token_hash, settings, "
                "status, created_at, updated_at) VALUES (:id, 'mahjongg', '{}', '1', 'h', "
                "'{}', 'finished', :now, :now)"), {"id": room, "now": start})
            connection.execute(sa.text(
                "INSERT INTO solitaire_games (room_id, game, board, variant, kind, day, "
                "player, player_key, started_at) VALUES (:room, :game, :board, '', 'daily', "
                ":day, :player, :key, :at)"),
                {"room": room, "game": GAME, "board": SMALL, "day": date(2026, 12, day),
                 "player": player, "key": player.casefold(),
                 "at": start + timedelta(minutes=minutes)})
    storage.migrate()
    records = SolitaireRecords(storage.engine)
    kinds = {room: records.get(room).kind for room, *_rest in games}  # type: ignore[union-attr]
    assert kinds == {"late": "retry", "early": "daily", "later": "retry",
                     "other day": "daily", "Bo": "daily"}
    storage.dispose()


def test_the_daily_deal_stays_sealed_until_the_day_is_over(server: Server) -> None:
    """Everyone plays the same deal today: ending one's game early (or at all) must not
    tell its seed, which names every face-down tile, through any route: the end's
    fairness block, the record, the replay, the game number. Once the day is over the
    seed opens the commitment as any room's does."""
    from pyramids.web.rooms import commitment_of

    server.day = datetime.now(UTC).date()  # the seal is against the real clock
    mallory = server.account("Mallory")
    started = server.start(mallory, name="Mallory", daily=True)
    room = started["room"]["id"]
    aborted = server.client.post(f"/api/rooms/{room}/abort",
                                 json={"token": started["host_token"]})
    assert aborted.status_code == 200, aborted.text
    assert aborted.json()["room"]["status"] == "aborted"
    summary = server.client.get(f"/api/rooms/{room}").json()["room"]
    fairness = summary["fairness"]
    assert summary["status"] == "aborted"
    assert "seed" not in fairness and "seed_text" not in fairness and "salt" not in fairness
    tomorrow = datetime.combine(server.day + timedelta(days=1), datetime.min.time(), UTC)
    assert fairness["sealed_until"] == tomorrow.isoformat()
    for route in (f"/api/rooms/{room}/record", f"/api/rooms/{room}/replay"):
        refused = server.client.get(route)
        assert refused.status_code == 409, refused.text
        error = refused.json()["error"]
        assert error["code"] == "sealed" and "when the day is over" in error["message"]
        assert str(started["room"]["id"]) not in error["message"]
    assert server.client.get(f"/api/solitaire/{room}").json()["game_number"] is None
    with server.client.websocket_connect(f"/ws/rooms/{room}") as socket:
        socket.send_json({"type": "join"})
        message = socket.receive_json()
        while message["type"] != "state":
            message = socket.receive_json()
        assert "seed" not in message["fairness"] and message["fairness"]["sealed_until"]
    # The account's next daily game is the same deal: still nothing to learn from it.
    second = server.start(mallory, name="Mallory", daily=True)
    assert second["kind"] == "retry"

    # The day is over: the seal lifts, and the seed opens the commitment.
    engine = server.app.state.hub.storage.engine
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE rooms SET sealed_until = :past WHERE id = :room"),
                           {"past": datetime.now(UTC) - timedelta(seconds=1), "room": room})
    record = server.client.get(f"/api/rooms/{room}/record")
    assert record.status_code == 200, record.text
    opened = record.json()["fairness"]
    assert opened["seed_text"] == str(opened["seed"]) and "sealed_until" not in opened
    assert commitment_of(opened["seed"], opened["salt"]) == opened["commitment"]


def test_today_s_deal_is_refused_by_name_and_a_day_over_is_practice_for_anyone(
    server: Server,
) -> None:
    """A player who practised the day's deal by name, then logged in, ranked knowing every
    tile: the deal is played that day only logged in. Once the day is over, its game
    number is told (its rooms reveal the seed by then), and anyone practises it."""
    refused = server.client.post("/api/solitaire", json={"game": GAME, "name": "Mallory",
                                                          "daily": True})
    assert refused.status_code == 403, refused.text
    error = refused.json()["error"]
    assert error["code"] == "account_required"
    assert "log in to play it" in error["message"] and "earlier day's deal" in error["message"]
    assert rooms_stored(server) == 0
    today = server.client.get(f"/api/daily/{GAME}").json()
    assert today["game_number"] is None  # the day's deal stays the server's

    server.day = date(2026, 12, 2)
    yesterday = server.client.get(f"/api/daily/{GAME}", params={"day": "2026-12-01"}).json()
    assert yesterday["game_number"].startswith(today["board"]["name"] + "-")
    practice = server.start(name="Mallory", game_number=yesterday["game_number"])
    assert practice["kind"] == "practice" and practice["board"] == today["board"]["name"]
    server.day = date(2026, 12, 1)
    first = server.start(server.account("Bo"), name="Bo", daily=True)
    assert server.first_view(practice)["tiles"] == server.first_view(first)["tiles"]


def test_days_to_come_and_malformed_days_are_refused(server: Server) -> None:
    assert server.error(server.client.get(f"/api/daily/{GAME}?day=2026-12-02"))["code"] \
        == "bad_day"
    assert server.error(server.client.get(f"/api/daily/{GAME}?day=yesterday"))["code"] \
        == "bad_day"
    # Written right, but no such day: said so, not "written wrong".
    no_day = server.error(server.client.get(f"/api/daily/{GAME}?day=2026-02-30"))
    assert no_day == {"code": "bad_day", "message": "there is no day 2026-02-30: check the "
                      "month and the day of the month"}
    past = server.client.get(f"/api/daily/{GAME}?day=2026-11-30").json()
    assert past["day"] == "2026-11-30" and past["scores"] == []


def test_the_daily_deal_depends_on_the_secret_and_the_date() -> None:
    names = board_names(GAME)
    day = date(2026, 12, 1)
    today = daily_game_number(b"one", GAME, day, names)
    assert today == daily_game_number(b"one", GAME, day, names)
    days = {daily_game_number(b"one", GAME, day + timedelta(n), names) for n in range(30)}
    assert len(days) == 30
    assert {daily_game_number(bytes([n]), GAME, day, names) for n in range(30)} != {today}


# -- the tables' order -------------------------------------------------------------------


def test_a_table_ranks_each_name_once_cleared_then_score_then_time(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'scores.db'}")
    storage.migrate()
    records = SolitaireRecords(storage.engine)
    start = datetime(2026, 12, 1, 10, tzinfo=UTC)
    games = [  # player, won, score, seconds
        ("Ana", False, 9000, 100), ("Bo", True, 5000, 300), ("Cy", True, 5000, 200),
        ("Ana", True, 4000, 50), ("Dee", True, 7000, 900), ("bo", True, 5100, 400),
        ("Eve", False, 12000, 10),
    ]
    with storage.engine.begin() as connection:
        for number, _game in enumerate(games):
            connection.execute(sa.text(
                "INSERT INTO rooms (id, game, options, seed, host_token_hash, settings, "
                "status, created_at, updated_at) VALUES (:id, 'mahjongg', '{}', '1', 'h', "
                "'{}', 'finished', :now, :now)"), {"id": f"r{number}", "now": start})
    for number, (player, won, score, seconds) in enumerate(games):
        records.add(SolitaireGame(f"r{number}", GAME, SMALL, "", RANKED, None, player, start))
        assert records.finish(f"r{number}", start + timedelta(seconds=seconds), won, score, 30)
        assert not records.finish(f"r{number}", start, True, 99999, 1)  # once only
    table = records.table(GAME, RANKED, SMALL, "")
    assert [(row["player"], row["score"], row["seconds"]) for row in table] == [
        ("Dee", 7000, 900), ("bo", 5100, 400), ("Cy", 5000, 200), ("Ana", 4000, 50),
        ("Eve", 12000, 10),
    ]
    assert [row["rank"] for row in table] == [1, 2, 3, 4, 5]
    assert records.table(GAME, DAILY) == [] and records.table(GAME, RANKED, "turtle") == []
    storage.dispose()


def test_a_secret_two_processes_draw_at_once_is_the_one_stored_first(db_url: str) -> None:
    """The daily deal's key is drawn on first use: two processes of a cluster found none
    and both stored theirs, and the loser's start failed (a server error)."""
    one, two = Storage(db_url), Storage(db_url)
    one.migrate()
    first = SolitaireRecords(two.engine)
    theirs: list[bytes] = []

    def other_process_first(_connection: Any, _cursor: Any, statement: str,
                            *_rest: Any) -> None:
        if statement.startswith("INSERT INTO server_secrets") and not theirs:
            theirs.append(first.secret("key"))  # stored between our read and our insert

    sa.event.listen(one.engine, "before_cursor_execute", other_process_first)
    mine = SolitaireRecords(one.engine).secret("key")
    assert theirs and mine == theirs[0] == first.secret("key")
    one.dispose()
    two.dispose()
