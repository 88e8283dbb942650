"""The replay viewer of finished games: every step, every seat's view, the log, the proof.

`GET /api/rooms/{id}/replay?lang=ko` answers only for a game that is over
(finished, or aborted: ended without a result): then the seed is public, so every seat's
hidden information may be shown. For a room still waiting or playing it is
refused (`not_finished`, 409) and nothing of the game is sent.

The answer holds the game record (the format `pyramids replay` reads, with the
`fairness` block), whether the revealed seed and salt open the commitment shown
from the start (`fairness.verified`), and one step per state, the start first:
the move that led to it (seat and action string), the move log's lines as a
spectator reads them (`lines`) and each seat's own lines where they say more
(`private`), and every seat's view (`views`). The page at `/replay/{id}` steps
through them; its address is the link to share.

The work (replaying the game, building every view, writing the JSON) runs in the
engine pool; the latest answers are kept for a while, since a replay never
changes. One address has one replay made at a time (`rate_limited` meanwhile): a
long match's takes seconds of CPU, and the engine threads also play the games. An
answer is every seat's view at every step, so its size grows with the moves: a game
whose replay would be larger than `MAX_REPLAY_BYTES` (estimated from the first
step's views before anything else is built) is refused (`replay_too_large`, 409);
its record still holds every move.
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from pyramids.core import GameRecord, PyramidsError
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import negotiate
from pyramids.play.movelog import replay_log, table_names
from pyramids.web.names import name_look
from pyramids.web.pages import static_page
from pyramids.web.rooms import RoomError, Seat, plain_text, verify_commitment

KEPT_REPLAYS = 16
# The answers kept, in all (a large one is made again when asked for).
KEPT_REPLAY_BYTES = 64_000_000
# The largest replay answer made. An ordinary game's is far smaller: 0.2 MB for a Pacal
# match, 0.5 MB for Temple, 0.6 MB for one-player Mahjongg, 2.5 MB with four players.
MAX_REPLAY_BYTES = 32_000_000
# The wait told to an address that asks for a replay while one is being made for it
# (a long match's takes a few seconds of the server's CPU: one address, one at a time).
REPLAY_RETRY_SECONDS = 2.0


def estimated_size(game_record: GameRecord) -> int:
    """About how many bytes the replay of a record takes: every seat's view of the first
    state (the largest, as a rule: later ones have fewer tiles or cards), once a step."""
    first = dataclasses.replace(game_record, actions=[], result=None).replay()[0]
    views = sum(len(json.dumps(first.view(seat), separators=(",", ":")))
                for seat in range(first.game.num_players))
    return views * (len(game_record.actions) + 1)


def replay_text(record: dict[str, Any], lang: str, room_id: str = "ROOM") -> str:
    """(In the engine pool.) The replay answer as JSON text; refused (`replay_too_large`)
    before it is built when it would be larger than `MAX_REPLAY_BYTES`."""
    try:
        size = estimated_size(GameRecord.from_json(json.dumps(record)))
    except PyramidsError as error:
        raise RoomError("broken_room", Words(N_("this game no longer replays: {problem}"),
                                             problem=error), 500) from None
    if size > MAX_REPLAY_BYTES:
        raise RoomError(
            "replay_too_large",
            Words(N_("the replay of this game would be about {size} MB ({moves} moves), over "
                     "this server's limit of {most} MB; the game's record (GET "
                     "/api/rooms/{room}/record) holds every move"),
                  size=f"{size / 1e6:.0f}", moves=len(record.get("actions") or ()),
                  most=f"{MAX_REPLAY_BYTES / 1e6:g}", room=room_id[:40]),
            409,
        )
    return json.dumps(replay_answer(record, lang), separators=(",", ":"))


def replay_answer(record: dict[str, Any], lang: str) -> dict[str, Any]:
    """The replay of a finished game's record (as `Storage.record` gives it)."""
    try:
        game_record = GameRecord.from_json(json.dumps(record))
        states = game_record.replay()
    except PyramidsError as error:
        raise RoomError("broken_room", Words(N_("this game no longer replays: {problem}"),
                                             problem=error), 500) from None
    seats = states[0].game.num_players
    moves = [(before.current_player, text, False)
             for before, text in zip(states, game_record.actions, strict=False)]
    log = replay_log(states[0].clone(), moves)
    agents = record.get("agents") or [None] * seats
    # People by their names and bots by their level, as the live log named them (an
    # open seat reads as one).
    names = table_names({seat: name for seat, name in enumerate(game_record.players)
                         if seat < seats and agents[seat] is None
                         and name != Seat(seat).display_name()},
                        {seat: agent for seat, agent in enumerate(agents)
                         if seat < seats and agent}, name_look)
    public = log.as_json(None, lang, names=names)
    own = {seat: log.as_json(seat, lang, names=names) for seat in range(seats)}
    steps = []
    for number, state in enumerate(states):
        step: dict[str, Any] = {
            "number": number,
            "seat": None,
            "action": None,
            "lines": [],
            "private": {},
            "views": [state.view(seat) for seat in range(seats)],
        }
        if plain_text(game_record.game, step["views"][0]) is not None:
            # A game drawn by its text_renderer alone (a plugin's): as a room shows it.
            step["texts"] = [plain_text(game_record.game, view, lang)
                             for view in step["views"]]
        if number > 0:
            seat, text, _by_bot = moves[number - 1]
            step.update(seat=seat, action=text, lines=public[number - 1]["lines"])
            for other in range(seats):
                lines = own[other][number - 1]["lines"]
                if lines != step["lines"]:
                    step["private"][str(other)] = lines
        steps.append(step)
    fairness = dict(record.get("fairness") or {})
    commitment, salt = fairness.get("commitment"), fairness.get("salt")
    fairness["verified"] = (
        None if commitment is None or salt is None
        else verify_commitment(commitment, fairness.get("seed"), salt)
    )
    return {
        "game": game_record.game,
        "players": game_record.players,
        "agents": record.get("agents") or [None] * len(game_record.players),
        "record": record,
        "fairness": fairness,
        "steps": steps,
    }


def mount_replay(app: FastAPI) -> None:
    """The replay API and page on `app` (made by `create_app`)."""
    from pyramids.web.app import ERRORS, client_of  # the app module calls this: it is loaded
    kept: OrderedDict[tuple[str, str], str] = OrderedDict()
    kept_bytes = 0
    # The addresses a replay is being made for: one at a time each.
    making: set[str] = set()

    @app.get("/api/rooms/{room_id}/replay", responses=ERRORS)
    async def replay(room_id: str, request: Request, lang: str | None = None) -> Response:
        hub = request.app.state.hub
        language = negotiate(lang)
        # Refuses rooms not over (`not_finished`), before anything of the game is read.
        record = await hub.record(room_id)
        nonlocal kept_bytes
        key = (room_id, language)
        text = kept.get(key)
        if text is None:
            client = client_of(request.scope)
            if client in making:
                raise RoomError("rate_limited", Words(N_(
                    "the replay you asked for before is still being made; ask for the next "
                    "once it has come")), 429, retry_after=REPLAY_RETRY_SECONDS)
            making.add(client)
            try:
                text = await hub.run_engine(replay_text, record, language, room_id)
            finally:
                making.discard(client)
            if key not in kept:
                kept[key] = text
                kept_bytes += len(text)
            while kept and (len(kept) > KEPT_REPLAYS or kept_bytes > KEPT_REPLAY_BYTES):
                kept_bytes -= len(kept.popitem(last=False)[1])
        if key in kept:
            kept.move_to_end(key)
        return Response(text, media_type="application/json")

    @app.get("/replay/{room_id}", include_in_schema=False)
    async def replay_page(room_id: str, request: Request) -> Response:
        return static_page("replay.html", request)


__all__ = ["MAX_REPLAY_BYTES", "estimated_size", "mount_replay", "replay_answer", "replay_text"]
