"""The replay viewer of finished games: every step, every seat's view, the log, the proof.

`GET /api/rooms/{id}/replay?lang=ko` answers only for a game that is over
(finished, or aborted by its host): then the seed is public, so every seat's
hidden information may be shown. For a room still waiting or playing it is
refused (`not_finished`, 409) and nothing of the game is sent.

The answer holds the game record (the format `pyramids replay` reads, with the
`fairness` block), whether the revealed seed and salt open the commitment shown
from the start (`fairness.verified`), and one step per state, the start first:
the move that led to it (seat and action string), the move log's lines as a
spectator reads them (`lines`) and each seat's own lines where they say more
(`private`), and every seat's view (`views`). The page at `/replay/{id}` steps
through them; its address is the link to share.

The work (replaying the game, building every view) runs in the engine pool;
the latest answers are kept for a while, since a replay never changes.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response

from pyramids.core import GameRecord, PyramidsError
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import negotiate
from pyramids.play.movelog import distinct_names, replay_log
from pyramids.web.names import name_look
from pyramids.web.pages import static_page
from pyramids.web.rooms import RoomError, Seat, verify_commitment

KEPT_REPLAYS = 16


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
    # People by their names, as the live log named them (an open seat reads as one).
    names = distinct_names({seat: name for seat, name in enumerate(game_record.players)
                            if seat < seats and agents[seat] is None
                            and name != Seat(seat).display_name()}, name_look)
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
    from pyramids.web.app import ERRORS  # the app module calls this: it is loaded
    kept: OrderedDict[tuple[str, str], str] = OrderedDict()

    @app.get("/api/rooms/{room_id}/replay", responses=ERRORS)
    async def replay(room_id: str, request: Request, lang: str | None = None) -> Response:
        hub = request.app.state.hub
        language = negotiate(lang)
        # Refuses rooms not over (`not_finished`), before anything of the game is read.
        record = await hub.record(room_id)
        key = (room_id, language)
        text = kept.get(key)
        if text is None:
            answer = await hub.run_engine(replay_answer, record, language)
            text = json.dumps(answer, separators=(",", ":"))
            kept[key] = text
            while len(kept) > KEPT_REPLAYS:
                kept.popitem(last=False)
        kept.move_to_end(key)
        return Response(text, media_type="application/json")

    @app.get("/replay/{room_id}", include_in_schema=False)
    async def replay_page(room_id: str, request: Request) -> Response:
        return static_page("replay.html", request)


__all__ = ["mount_replay", "replay_answer"]
