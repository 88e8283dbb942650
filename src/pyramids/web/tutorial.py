"""Tutorials in the browser: the page `/tutorial/<game>` and its stateless JSON API.

The server runs the tutorial (`pyramids.play.tutorial.TutorialRun`, the same
steps the terminal teaches); the page keeps only the learner's entries: the
moves accepted so far, and `null` for each step read and gone past. Every
request replays them from the tutorial's fixed seed, so the server keeps no
session and a client can change nothing but its own moves:

    POST /api/tutorial/<game>
    {"moves": ["offer 2 28", null, ...],   # the learner's accepted entries so far
     "attempt": "place F10" | null,        # a move to try now
     "go_on": false,                       # go past a step that teaches no move
     "lang": "ko"}                         # optional; else the cookie or Accept-Language

The answer holds the step's text (translated), what to look at (`highlight`),
the learner's view only (`state.view(learner)`, never another seat's), the
legal moves, the feedback of the attempt (`accepted`, `message`: the step's
hint when refused; the state is then unchanged) and the new `moves` to keep.
After the last step the learner plays on to the end of the game: any legal move
is accepted, and the other seats are played by `finish_against`, an agent made
with the tutorial's seed, so the replay draws the same replies every time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from pyramids.agents import make_agent
from pyramids.core import PyramidsError, State, game_manifest, manifests
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import UnknownLanguageError, _, check_language, words_text
from pyramids.play.results import agent_words
from pyramids.play.tutorial import HUMAN, Tutorial, TutorialRun, tutorial_for
from pyramids.web.language import unknown_language
from pyramids.web.learn import page_language
from pyramids.web.limits import Turns
from pyramids.web.rooms import RoomError

# A whole game fits well under this; the body limit (16 KB) comes first anyway.
MAX_ENTRIES = 1_000
MAX_MOVE_CHARS = 64
# The other seats' moves in one replay, at most (a runaway agent must not hold a worker).
MAX_REPLAY_MOVES = 20_000
# One address's requests are answered one at a time (each replays every entry it
# sends in the engine pool: a third of a second of CPU for 1,000 Mahjongg entries, so
# ten a second from one address queued more work than the threads that also play
# the rooms' moves could do); this many more wait their turn, then one is refused.
WAITING_PER_ADDRESS = 8
TUTORIAL_RETRY_SECONDS = 1.0
T = TypeVar("T")


class TutorialRequest(BaseModel):
    # strict: "0" is not a seat number, "yes" not true (nothing a client sends is coerced)
    model_config = ConfigDict(extra="forbid", strict=True)

    moves: list[str | None] = Field(default_factory=list, max_length=MAX_ENTRIES)
    attempt: str | None = Field(default=None, max_length=MAX_MOVE_CHARS)
    go_on: bool = False
    lang: str | None = Field(default=None, max_length=16)


def tutorial_games() -> list[str]:
    """The registered games that ship a tutorial, in the manifests' order."""
    return [m.name for m in manifests() if m.tutorial is not None and tutorial_for(m.name)]


def find_tutorial(game: str) -> Tutorial:
    tutorial = tutorial_for(game) if len(game) <= 64 else None
    if tutorial is None:
        raise RoomError(
            "unknown_tutorial",
            Words(N_("no tutorial for game '{game}'; tutorials: {tutorials}"), game=game[:64],
                  tutorials=", ".join(tutorial_games()) or Words(N_("none"))),
            404,
        )
    return tutorial


class Replay:
    """A tutorial run replayed from the learner's entries, then one more request on it."""

    def __init__(self, tutorial: Tutorial, lang: str) -> None:
        self.tutorial = tutorial
        self.lang = lang
        self.run = TutorialRun(tutorial, lang)
        self.entries: list[str | None] = []
        self.others: list[dict[str, Any]] = []
        self._agent = make_agent(tutorial.finish_against, seed=tutorial.seed)
        self._bot_moves = 0

    @property
    def state(self) -> State:
        return self.run.state

    @property
    def learner(self) -> int:
        return self.tutorial.learner

    def replay(self, entries: list[str | None]) -> None:
        """Replay what the learner did before; a step the tutorial would refuse is a 400."""
        for number, entry in enumerate(entries, start=1):
            problem = self._refusal(entry)
            if problem is not None:
                # `problem` is already in the tutorial's language.
                raise RoomError(
                    "bad_moves",
                    Words(N_("moves[{index}] = {entry} does not replay ({problem}); send only "
                             "the entries this API returned (a move, or null for a step gone "
                             "past)"),
                          index=number - 1, entry="null" if entry is None else f"'{entry}'",
                          problem=problem),
                )

    def _refusal(self, entry: str | None) -> str | None:
        """Do one entry; None when done, else why it was refused (nothing changed)."""
        run = self.run
        if not run.finished:
            if entry is None:
                if run.waits_for_move():
                    return _("Play the move this step asks for.", lang=self.lang)
                run.go_on()
            else:
                feedback = run.attempt(entry)
                if not feedback.accepted:
                    return feedback.message
        else:
            if entry is None:
                return _("The steps are done: play a move.", lang=self.lang)
            if self.state.is_terminal():
                return _("The game is over.", lang=self.lang)
            try:
                self.state.apply_string(entry)
            except PyramidsError as error:
                return words_text(error, self.lang)
        self.entries.append(entry)
        if entry is not None:
            self.others = []
        self._play_others()
        return None

    def _play_others(self) -> None:
        """After the steps, the other seats move until the learner's turn or the end."""
        if not self.run.finished:
            return
        state = self.state
        while not state.is_terminal() and state.current_player != self.learner:
            if self._bot_moves >= MAX_REPLAY_MOVES:
                raise RoomError("too_long", Words(N_("this game is too long to replay here")),
                                409)
            seat = state.current_player
            action = self._agent.step(state)
            text = state.action_to_string(action)
            state.apply_action(action)
            self._bot_moves += 1
            self.others.append({"seat": seat, "action": text})

    def attempt(self, move: str) -> dict[str, Any]:
        during_steps = not self.run.finished
        problem = self._refusal(move)
        if problem is None:
            return {"accepted": True,
                    "message": _("Well done.", lang=self.lang) if during_steps else ""}
        return {"accepted": False, "message": problem}

    def go_on(self) -> dict[str, Any]:
        problem = self._refusal(None)
        return {"accepted": problem is None, "message": problem or ""}

    def _seat(self, index: int, agent: str) -> dict[str, Any]:
        """A seat as a room's state message has it: the other seats are bots, named as
        the pages name a room's bots ("Greedy rule (bot)", with its seat where two bots
        play the same), by the agent the learner finishes against."""
        seat: dict[str, Any] = {"seat": index, "connected": True}
        if index == self.learner:
            # The renderers add "(you)" to the learner's seat themselves.
            return {**seat, "kind": "person",
                    "name": _("seat {number}", lang=self.lang, number=index + 1)}
        bot = _(agent_words(agent), lang=self.lang)
        others = [other for other in self.tutorial.seats_for_finish() if other != HUMAN]
        name = (_("{bot} (bot, seat {number})", lang=self.lang, bot=bot, number=index + 1)
                if others.count(agent) > 1 else _("{bot} (bot)", lang=self.lang, bot=bot))
        return {**seat, "kind": "agent", "agent": agent, "name": name}

    def answer(self, feedback: dict[str, Any] | None) -> dict[str, Any]:
        run, state, tutorial = self.run, self.state, self.tutorial
        step = run.step
        terminal = state.is_terminal()
        learner_to_move = not terminal and state.current_player == self.learner
        playing_on = run.finished
        # Legal moves only where the learner may move: a step that teaches one, or the
        # game after the steps; a step to read offers none (the page shows Next).
        legal = state.legal_action_strings() if learner_to_move and (
            playing_on or run.waits_for_move()) else []
        seats = [self._seat(index, agent) for index, agent in
                 enumerate(tutorial.seats_for_finish())]
        return {
            "game": tutorial.game,
            "title": _(tutorial.title, lang=self.lang),
            "lang": self.lang,
            "seat": self.learner,
            "seats": seats,
            "step": min(run.index + 1, len(tutorial.steps)),
            "steps": len(tutorial.steps),
            "say": run.text(),
            "waits_for_move": run.waits_for_move(),
            "last_step": not playing_on and run.index == len(tutorial.steps) - 1,
            "playing_on": playing_on,
            "highlight": list(step.highlight) if step is not None else [],
            "finish_against": tutorial.finish_against,
            "view": state.view(self.learner),
            "legal_actions": legal,
            "current_player": None if terminal else state.current_player,
            "your_turn": learner_to_move,
            "finished": terminal,
            "result": {"returns": state.returns()} if terminal else None,
            "others": self.others,
            "moves": self.entries,
            "feedback": feedback,
        }


def tutorial_answer(tutorial: Tutorial, body: TutorialRequest, lang: str) -> dict[str, Any]:
    """The whole request, off the event loop: replay, then the attempt or going on."""
    if body.attempt is not None and body.go_on:
        raise RoomError("bad_request", Words(N_("send either 'attempt' (a move) or 'go_on': "
                                               "true, not both")))
    for number, entry in enumerate(body.moves):
        if entry is not None and len(entry) > MAX_MOVE_CHARS:
            raise RoomError("bad_moves", Words(N_("moves[{index}] is too long; a move has at "
                                                  "most {most} characters"),
                                               index=number, most=MAX_MOVE_CHARS))
    replay = Replay(tutorial, lang)
    replay.replay(body.moves)
    feedback = None
    if body.attempt is not None:
        feedback = replay.attempt(body.attempt)
    elif body.go_on:
        feedback = replay.go_on()
    return replay.answer(feedback)


async def _off_loop(request: Request, function: Callable[..., T], *args: Any) -> T:
    hub = getattr(request.app.state, "hub", None)
    if hub is not None:
        result: T = await hub.run_engine(function, *args)
        return result
    return await asyncio.to_thread(function, *args)


def mount_tutorials(app: FastAPI, static_page: Callable[[str, Request], Response]) -> None:
    """The tutorial pages and their API on `app` (called by `mount_pages`, which serves
    a page of its static folder with `static_page`)."""
    from pyramids.web.app import client_of  # the app module calls this: it is loaded

    asking = Turns(WAITING_PER_ADDRESS, lambda: RoomError("rate_limited", Words(N_(
        "too many tutorial requests at once from your address; send the next once an "
        "answer has come")), 429, retry_after=TUTORIAL_RETRY_SECONDS))

    @app.get("/tutorial", include_in_schema=False)
    async def tutorial_index(request: Request) -> Response:
        return static_page("tutorial.html", request)

    @app.get("/tutorial/{game}", include_in_schema=False)
    async def tutorial_page(game: str, request: Request) -> Response:
        if len(game) > 64 or tutorial_for(game) is None:
            # A page for a person: the name as typed, in words, not the API's list of keys.
            raise RoomError("unknown_tutorial", Words(N_("There is no tutorial for “{name}”."),
                                                      name=game[:64]), 404)
        return static_page("tutorial.html", request)

    @app.get("/api/tutorial", include_in_schema=False)
    async def list_tutorials(request: Request) -> dict[str, Any]:
        lang = page_language(request)
        found = []
        for name in tutorial_games():
            tutorial = find_tutorial(name)
            found.append({"game": name,
                          "game_title": _(game_manifest(name).display_title, lang=lang),
                          "title": _(tutorial.title, lang=lang)})
        return {"lang": lang, "tutorials": found}

    @app.post("/api/tutorial/{game}", include_in_schema=False)
    async def tutorial_step(game: str, body: TutorialRequest, request: Request) -> dict[str, Any]:
        tutorial = find_tutorial(game)
        try:
            lang = check_language(body.lang) if body.lang else page_language(request)
        except UnknownLanguageError:
            raise RoomError("unknown_language", unknown_language(body.lang or "")) from None
        async with asking.turn(client_of(request.scope)):
            return await _off_loop(request, tutorial_answer, tutorial, body, lang)


__all__ = ["TutorialRequest", "find_tutorial", "mount_tutorials", "tutorial_answer",
           "tutorial_games"]
