"""One-player games on a shipped board: the chooser's data, best scores, game numbers
and the daily deal (docs/server.md, "Solitaire").

- `GET /api/games/{game}/boards`: the boards a game ships, with what a chooser
  draws (`pyramids.play.boards`); a game without boards answers an empty list.
- `POST /api/solitaire`: start a one-player game and take its seat, from exactly one
  of `board` (the server draws the deal: it counts on the board's table),
  `game_number` (practice: the player chose the deal, so it counts nowhere) or
  `daily: true` (the day's deal, which the server derives from the UTC date and a
  secret it drew once and keeps in the database: the same for everyone that day,
  unknown before it, chosen by no client). Only players logged in to an account
  play it that day; the day's table counts each one's first daily game of the day,
  later ones are kept as `retry` and count nowhere. Whoever has played the deal
  through knows it, and a name costs nothing: a deal played by name before logging
  in would be known when it ranked. Once the day is over its game number is told
  (`GET /api/daily/{game}`), and anyone may practise it.
- `GET /api/solitaire/{room}`: what kind of game a room is, its result once over,
  and its game number when the player may know it (practice, or once it is over:
  the room reveals its seed then anyway).
- `GET /api/scores/{game}/{board}`: the board's table for a rules variant (the
  `options` query, JSON); `GET /api/daily/{game}`: a day's table (`day` query),
  and the day's game number once the day is over.

The server's clock times the games (`Hub.clock`); clients send no times or results.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from pyramids.core import PyramidsError, load
from pyramids.core.errors import N_, Words
from pyramids.play.boards import (
    BoardError,
    board_names,
    board_option_of,
    boards,
    daily_game_number,
    find_board,
    game_number_of,
    parse_game_number,
    practice_options,
    variant_text,
)
from pyramids.play.i18n import _, negotiate, words_text
from pyramids.play.moves import is_clock_move
from pyramids.web.accounts import check_guest_name, seat_account
from pyramids.web.hub import Hub
from pyramids.web.limits import Buckets, json_too_deep, retry_after
from pyramids.web.rooms import FINISHED, Room, RoomError, RoomSettings
from pyramids.web.solitaire_storage import (
    DAILY,
    PRACTICE,
    RANKED,
    SolitaireGame,
    SolitaireRecords,
)

DAILY_SECRET = "daily-deal"


class StartSolitaire(BaseModel):
    # strict: "0" is not a seat number, "yes" not true (nothing a client sends is coerced)
    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=64)
    name: str = Field(max_length=200)
    board: str | None = Field(default=None, max_length=200)
    game_number: str | None = Field(default=None, max_length=200)
    daily: bool = False
    options: dict[str, Any] = Field(default_factory=dict)
    # The language of the answer's messages (any text: unknown ones get English).
    lang: str | None = Field(default=None, max_length=40)


def board_error(error: BoardError, code: str, lang: str | None = None,
                game: str | None = None) -> RoomError:
    """The refusal of a board or game number: in `lang` when the request named one,
    else in the language the client reads (the error handler translates it). An
    unknown board (`game` given) also lists every board: what is allowed."""
    words = error.words
    if game is not None and code == "bad_board":
        words = Words(N_("{problem}; the boards: {allowed}"), problem=words,
                      allowed=", ".join(board_names(game)))
    return RoomError(code, words if lang is None else words_text(words, lang))


def _no_boards(game: str) -> Words:
    return Words(N_("{game} has no boards to choose from"), game=game)


def _options_object() -> Words:
    return Words(N_("options is a JSON object of game options"))


def now_of(hub: Hub) -> float:
    clock = getattr(hub, "clock", None)
    return clock.now() if clock is not None else time.time()


def translated(entry: dict[str, Any], lang: str) -> dict[str, Any]:
    shown = dict(entry)
    shown["title"] = _(entry["title"], lang=lang)
    if entry["tier"]:
        shown["tier"] = _(entry["tier"], lang=lang)
    if entry["description"]:
        shown["description"] = _(entry["description"], lang=lang)
    return shown


def parse_day(text: str | None, today: date) -> date:
    """A day a client asks about: ISO `YYYY-MM-DD`, not after today (UTC)."""
    if text is None:
        return today
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise RoomError("bad_day", Words(N_("a day is written YYYY-MM-DD, not '{text}'"),
                                         text=text[:40]))
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise RoomError("bad_day", Words(N_("there is no day {text}: check the month and the "
                                            "day of the month"), text=text)) from None
    if day > today:
        raise RoomError("bad_day", Words(N_("{day} has not come yet; the latest day is {today} "
                                            "(UTC)"), day=day.isoformat(),
                                         today=today.isoformat()))
    return day


def mount_solitaire(
    app: FastAPI,
    check_options: Callable[[str, dict[str, Any]], None],
    room_creations: Buckets,
    today: Callable[[], date] | None = None,
) -> None:
    """Add the solitaire endpoints to `app` (made by `create_app`). `check_options`
    refuses options a client may not give; `today` fixes the date (tests)."""
    from pyramids.web.app import ERRORS  # the app module calls this: it is loaded

    def hub_of(request: Request) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    def records_of(hub: Hub) -> SolitaireRecords:
        return SolitaireRecords(hub.storage.engine)

    def today_of(hub: Hub) -> date:
        if today is not None:
            return today()
        return datetime.fromtimestamp(now_of(hub), UTC).date()

    def daily_number(hub: Hub, game: str, day: date) -> Any:
        async def derive() -> Any:
            secret = await hub.run_db(records_of(hub).secret, DAILY_SECRET)
            return daily_game_number(secret, game, day, board_names(game))
        return derive()

    @app.get("/api/games/{game}/boards", responses=ERRORS)
    async def list_boards(game: str, lang: str | None = None) -> dict[str, Any]:
        language = negotiate(lang)
        return {
            "game": game,
            "option": board_option_of(game),
            "boards": [translated(entry, language) for entry in boards(game)],
        }

    @app.post("/api/solitaire", status_code=201, responses=ERRORS)
    async def start_solitaire(body: StartSolitaire, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        chosen = [body.board is not None, body.game_number is not None, body.daily]
        if sum(chosen) != 1:
            raise RoomError("bad_request", Words(N_(
                "give exactly one of 'board' (a deal the server draws), 'game_number' "
                "(practice) or 'daily': true")))
        # A logged-in player plays under the account's name; by name, nobody takes an
        # account's name or a bot's mark.
        account = await seat_account(request)
        if account is None:
            if body.daily:
                raise RoomError("account_required", Words(N_(
                    "today's deal ranks on the day's table, and whoever has played it knows "
                    "every tile, so it is played only logged in to an account, one game that "
                    "counts a day; log in to play it, or practise an earlier day's deal by "
                    "its game number")), 403)
            await check_guest_name(request, body.name)
        wait = room_creations.take(request.client.host if request.client else "")
        if wait > 0:
            raise RoomError("rate_limited", Words(N_("too many new games from one address; "
                                                     "try again in {seconds} s"),
                                                  seconds=retry_after(wait)),
                            429, retry_after=wait)
        option = board_option_of(body.game)
        if option is None:
            raise RoomError("no_boards", _no_boards(body.game))
        seed: int | None = None
        server_seed: int | None = None
        day: date | None = None
        try:
            if body.game_number is not None:
                if body.options:
                    raise RoomError("bad_request", Words(N_(
                        "a game number sets the whole game: give no 'options' with it")))
                number = parse_game_number(body.game, body.game_number)
                options, seed, kind = practice_options(body.game, number), number.deal, PRACTICE
            elif body.daily:
                if body.options:
                    raise RoomError("bad_request", Words(N_(
                        "the daily deal is played with the usual rules: give no 'options' "
                        "with it")))
                day = today_of(hub)
                number = await daily_number(hub, body.game, day)
                options, server_seed = practice_options(body.game, number), number.deal
                # `retry` when the account already has the day's ranking game: the
                # database decides as the game is stored (`SolitaireRecords.add`).
                kind = DAILY
            else:
                board = find_board(body.game, body.board)["name"]
                options = {**body.options, option: board}
                check_options(body.game, options)
                kind = RANKED
        except BoardError as error:
            code = "bad_game_number" if body.game_number is not None else "bad_board"
            raise board_error(error, code, negotiate(body.lang) if body.lang else None,
                              body.game) from None
        game = load(body.game, **options)
        if game.num_players != 1:
            raise RoomError("not_solitaire", Words(N_(
                "{game} with these options has {seats} seats; solitaire games have one"),
                game=body.game, seats=game.num_players))
        live, host_token = await hub.create_room(
            body.game, options, seed, RoomSettings(), request.client.host if request.client
            else "", unlisted=True, server_seed=server_seed,
            # Everyone plays the day's deal: its seed is told only when the day is over.
            sealed_until=None if day is None else day_end(day),
            starts_at_once=True,
        )
        seat, token = await hub.take_seat(live, body.name, 0, account)
        started = datetime.fromtimestamp(now_of(hub), UTC)
        entry = SolitaireGame(
            room_id=live.room.id, game=body.game, board=options[option],
            variant=variant_text(game), kind=kind, day=day, player=seat.name or body.name,
            started_at=started,
        )
        kind = await hub.run_db(records_of(hub).add, entry)
        await hub.start_room(live, host_token)
        return {
            "room": live.room.summary(), "seat": seat.index, "token": token,
            "host_token": host_token, "kind": kind, "board": entry.board,
            "game_number": str(number) if kind == PRACTICE else None,
        }

    @app.get("/api/solitaire/{room_id}", responses=ERRORS)
    async def solitaire_game(room_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        entry = await hub.run_db(records_of(hub).get, room_id)
        if entry is None:
            raise RoomError("not_solitaire", Words(N_("room {room} is not a solitaire game"),
                                                   room=room_id[:40]), 404)
        answer = entry.public()
        number = None
        if entry.kind == PRACTICE or entry.finished_at is not None:
            summary = await hub_of(request).summary(room_id)
            seed = summary["fairness"].get("seed")  # absent while a daily deal is sealed
            found = None if seed is None else game_number_of(
                load(entry.game, **summary["options"]), seed)
            number = None if found is None else str(found)
        answer["game_number"] = number
        return answer

    @app.get("/api/scores/{game}/{board}", responses=ERRORS)
    async def board_scores(game: str, board: str, request: Request,
                           options: str | None = None) -> dict[str, Any]:
        hub = hub_of(request)
        try:
            name = find_board(game, board)["name"]
        except BoardError as error:
            raise board_error(error, "bad_board", game=game) from None
        chosen: Any = {}
        if options:
            # Checked before parsing, as bodies and socket messages are: deep nesting
            # would reach the recursive parser's limit (a server error).
            depth = hub.limits.max_json_depth
            if json_too_deep(options, depth):
                raise RoomError("bad_option", Words(N_("JSON nested too deeply; at most {most} "
                                                       "levels"), most=depth))
            try:
                chosen = json.loads(options)
            except (ValueError, RecursionError):
                raise RoomError("bad_option", _options_object()) from None
        if not isinstance(chosen, dict):
            raise RoomError("bad_option", _options_object())
        option = board_option_of(game)
        assert option is not None  # find_board found a board
        try:
            variant = variant_text(load(game, **{**chosen, option: name}))
        except PyramidsError as error:
            raise RoomError("bad_option", error.words) from None
        table = await hub.run_db(records_of(hub).table, game, RANKED, name, variant)
        return {"game": game, "board": name, "variant": variant, "scores": table}

    @app.get("/api/daily/{game}", responses=ERRORS)
    async def daily_scores(game: str, request: Request, day: str | None = None,
                           lang: str | None = None) -> dict[str, Any]:
        hub = hub_of(request)
        if board_option_of(game) is None:
            raise RoomError("no_boards", _no_boards(game))
        today = today_of(hub)
        asked = parse_day(day, today)
        number = await daily_number(hub, game, asked)
        entry = find_board(game, number.board)
        table = await hub.run_db(records_of(hub).table, game, DAILY, None, None, asked)
        return {
            "game": game, "day": asked.isoformat(), "today": today.isoformat(),
            "board": translated(entry, negotiate(lang)), "scores": table,
            # A day over is practice for anyone: its rooms reveal the seed by now anyway.
            "game_number": str(number) if asked < today else None,
        }


def day_end(day: date) -> datetime:
    """When a day's daily deal may be told: the next midnight, UTC."""
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), UTC)


def attach_solitaire(hub: Hub) -> None:
    """Record each solitaire game's result when its room finishes (server time)."""
    records = SolitaireRecords(hub.storage.engine)

    async def on_finish(room: Room) -> None:
        if room.status != FINISHED:
            return
        outcome = await hub.run_engine(room.state.outcome)
        if outcome is None:
            return
        moves = sum(1 for text in room.actions if not is_clock_move(text))
        finished = datetime.fromtimestamp(now_of(hub), UTC)
        await hub.run_db(records.finish, room.id, finished, 0 in outcome["winners"],
                         float(outcome["scores"][0]), moves)

    hub.finish_hooks.append(on_finish)
