"""Interactive tutorials: a fixed deal, short steps that teach, then a real game.

A tutorial is data, shipped by a game as `learn/<game>.tutorial.json` and named
by its manifest (`tutorial`):

    {
      "game": "pacal-solo", "options": {}, "seed": 12,
      "seats": ["human"],                    # the learner's seat is "human"
      "finish_against": "greedy",            # who plays the other seats at the end
      "title": "Your first pyramid",
      "steps": [
        {"say": "Each card you draw must go on a field ...",
         "highlight": ["F7", "F8"],           # what to look at (interface words)
         "expect": "place F7",                # the move taught (an action string)
         "hint": "Put the 49 on F7 ..."},     # shown when another move is tried
        {"say": "Your opponent offers two cards ...",
         "before": ["offer 12 40"]},          # others' moves played before this step
        {"say": "Well done: finish the game against the bot."}
      ]
    }

The `highlight` words name what the boards draw (the terminal app lights them and
the browser marks them; a step's keyboard goes to the first, a button before all):

    F7            Pacal: the learner's field F7
    hand:28       a card of the learner's hand (Pacal: its number; Temple: its kind, L4, J)
    offer:48      Pacal: a card of the offer
    swap:4        Temple: slot 4 of the swap zone
    tile:12       Mahjongg: the tile of id 12
    button:pass   the button that plays the move named after the colon (Temple's
                  button:summon, button:pass, "button:swap pass" (Keep my hand),
                  "button:set 1 1"; Mahjongg's button:sight); every step that teaches a
                  move made by a button names its button, so the keyboard lands on it

A step with `expect` waits for that move and refuses any other with its hint
(the state is unchanged); a step without one waits for the learner to go on.
`before` moves are played first, for the other seats. After the last step the
learner finishes the game from that real position against `finish_against`.
The texts are English message ids: players read them through the catalogue
(`scripts/update_catalogue.py` extracts them), so every tutorial exists in
every language the catalogue has.

`Tutorial.check()` replays a tutorial through the engine: every move must be
legal where it stands. The tests run it for every registered game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pyramids.core import Game, IllegalActionError, PyramidsError, RecordError, State, load
from pyramids.core.errors import N_
from pyramids.core.registry import find_manifest
from pyramids.play.i18n import _

HUMAN = "human"


class TutorialError(RecordError):
    """A tutorial file that is malformed or does not replay; the message says where."""


@dataclass(frozen=True)
class Step:
    say: str
    expect: str | None = None
    hint: str | None = None
    highlight: tuple[str, ...] = ()
    before: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tutorial:
    game: str
    seed: int
    steps: tuple[Step, ...]
    title: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = (HUMAN,)
    finish_against: str = "greedy"

    @property
    def learner(self) -> int:
        return self.seats.index(HUMAN)

    def seats_for_finish(self) -> tuple[str, ...]:
        """The seats when the learner plays on: every other seat is `finish_against`."""
        return tuple(HUMAN if seat == HUMAN else self.finish_against for seat in self.seats)

    def new_game(self) -> Game:
        return load(self.game, **self.options)

    def check(self) -> State:
        """Replay every step through the engine; the position the learner finishes from."""
        state = self.new_game().new_initial_state(self.seed)
        for number, step in enumerate(self.steps, start=1):
            for move in step.before:
                _apply(state, move, number, N_(
                    "{game} tutorial, step {number}: the move played before it, {move}, is "
                    "illegal: {reason}"))
            if step.expect is not None:
                if state.is_terminal() or state.current_player != self.learner:
                    raise TutorialError(N_("{game} tutorial, step {number}: expects {move} "
                                           "but it is not the learner's turn"),
                                        game=self.game, number=number, move=repr(step.expect))
                _apply(state, step.expect, number, N_(
                    "{game} tutorial, step {number}: the expected move {move} is illegal: "
                    "{reason}"))
        if state.is_terminal():
            raise TutorialError(N_("{game} tutorial: the game is over before the learner "
                                   "finishes it; end the steps earlier"), game=self.game)
        return state


def _apply(state: State, move: str, number: int, message: str) -> None:
    try:
        state.apply_string(move)
    except IllegalActionError as error:
        raise TutorialError(message, game=state.game.name, number=number, move=repr(move),
                            reason=error.words) from None


def parse_tutorial(text: str) -> Tutorial:
    """A tutorial from its JSON text; a malformed one raises `TutorialError`."""
    try:
        data = json.loads(text)
        steps = tuple(
            Step(
                say=str(step["say"]),
                expect=step.get("expect"),
                hint=step.get("hint"),
                highlight=tuple(step.get("highlight", ())),
                before=tuple(step.get("before", ())),
            )
            for step in data["steps"]
        )
        tutorial = Tutorial(
            game=str(data["game"]),
            seed=int(data["seed"]),
            steps=steps,
            title=str(data["title"]),
            options=dict(data.get("options", {})),
            seats=tuple(data.get("seats", (HUMAN,))),
            finish_against=str(data.get("finish_against", "greedy")),
        )
    except KeyError as error:
        raise TutorialError(N_("malformed tutorial: {field} is missing"),
                            field=repr(error.args[0])) from None
    except (ValueError, TypeError) as error:
        raise TutorialError(N_("malformed tutorial: {reason}"), reason=str(error)) from None
    if tutorial.seats.count(HUMAN) != 1:
        raise TutorialError(N_("a tutorial has exactly one 'human' seat, the learner"))
    if not steps:
        raise TutorialError(N_("a tutorial needs at least one step"))
    return tutorial


def tutorial_for(game: str) -> Tutorial | None:
    manifest = find_manifest(game)
    if manifest is None or manifest.tutorial is None:
        return None
    text = manifest.tutorial()
    return None if text is None else parse_tutorial(text)


@dataclass
class Feedback:
    accepted: bool
    message: str


class TutorialRun:
    """One learner going through a tutorial; interfaces show `say` and call `attempt`."""

    def __init__(self, tutorial: Tutorial, lang: str | None = None) -> None:
        self.tutorial = tutorial
        self.lang = lang
        self.state = tutorial.new_game().new_initial_state(tutorial.seed)
        self.index = 0
        self._play_before()

    @property
    def step(self) -> Step | None:
        return self.tutorial.steps[self.index] if self.index < len(self.tutorial.steps) else None

    @property
    def finished(self) -> bool:
        """The steps are done: the learner now plays on against `finish_against`."""
        return self.index >= len(self.tutorial.steps)

    def text(self) -> str:
        step = self.step
        return "" if step is None else _(step.say, lang=self.lang)

    def waits_for_move(self) -> bool:
        step = self.step
        return step is not None and step.expect is not None

    def go_on(self) -> None:
        """Past a step that teaches no move."""
        if self.waits_for_move():
            raise PyramidsError(_("Play the move this step asks for.", lang=self.lang))
        self._advance()

    def attempt(self, move: str) -> Feedback:
        """The learner tries `move` (an action string). Only the taught move is accepted."""
        step = self.step
        if step is None or step.expect is None:
            return Feedback(False, _("Read the step, then go on.", lang=self.lang))
        if move != step.expect:
            hint = _(step.hint, lang=self.lang) if step.hint else _(
                "Not this move yet: follow the step.", lang=self.lang)
            return Feedback(False, hint)
        self.state.apply_string(move)
        self._advance()
        return Feedback(True, _("Well done.", lang=self.lang))

    def _advance(self) -> None:
        self.index += 1
        self._play_before()

    def _play_before(self) -> None:
        step = self.step
        if step is not None:
            for move in step.before:
                self.state.apply_string(move)


__all__ = [
    "Feedback",
    "Step",
    "Tutorial",
    "TutorialError",
    "TutorialRun",
    "parse_tutorial",
    "tutorial_for",
]
