"""Game records: a JSON file with game, options, seed, actions, players and result.

A record replays exactly: load the game with its options, start from the seed,
apply the action strings in order. Reading a record validates every field and
every action, so a malformed or tampered file raises `RecordError` naming what
is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramids.core.api import State
from pyramids.core.errors import N_, IllegalActionError, PluralWords, PyramidsError, RecordError
from pyramids.core.files import os_reason, write_text_atomically
from pyramids.core.options import Option, with_legacy
from pyramids.core.registry import game_manifest, load

RECORD_FORMAT = "pyramids-record"
RECORD_VERSION = 1


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any]
    seed: int | str | None
    actions: list[str]
    players: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(cls, state: State, players: list[str] | None = None) -> GameRecord:
        result = None
        if state.is_terminal():
            result = {"returns": state.returns()}
        return cls(
            game=state.game.name,
            options=state.game.options,
            seed=state.seed,
            actions=state.history_strings(),
            players=list(players or []),
            result=result,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "players": self.players,
            "actions": self.actions,
            "result": self.result,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        return cls._from_object(_record_object(text))

    @classmethod
    def _from_object(cls, data: dict[str, Any]) -> GameRecord:
        """The record a JSON object holds (what `_record_object` read), every field checked."""
        if "seed" not in data:
            # A record always writes its seed (null for a game without one): without the
            # key it would replay another deal and fail at a move, misleadingly.
            raise RecordError(N_("game record: 'seed' is missing (an integer, a string or "
                                 "null)"))
        game = data.get("game")
        options = data.get("options", {})
        seed = data.get("seed")
        actions = data.get("actions")
        players = data.get("players", [])
        result = data.get("result")
        if not isinstance(game, str):
            raise RecordError(N_("game record: 'game' must be a game name"))
        if not isinstance(options, dict):
            raise RecordError(N_("game record: 'options' must be an object"))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise RecordError(N_("game record: 'seed' must be an integer, a string or null"))
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError(N_("game record: 'actions' must be a list of action strings"))
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(N_("game record: 'players' must be a list of names"))
        if result is not None and not isinstance(result, dict):
            raise RecordError(N_("game record: 'result' must be an object or null"))
        return cls(game, options, seed, actions, players, result)

    @classmethod
    def load_file(cls, path: str | Path) -> GameRecord:
        return read_record_file(path)[0]

    def save_file(self, path: str | Path) -> None:
        """Write atomically (`write_text_atomically`): a crash never leaves half a record,
        and a record already there is replaced whole or not at all. OSError when the
        file cannot be written (nothing left behind)."""
        write_text_atomically(Path(path), self.to_json() + "\n")

    def replay(self) -> list[State]:
        """Every state of the game, the initial one first. Raises `RecordError` on a bad step."""
        try:
            game = load(self.game, **with_legacy(_option_specs(self.game), self.options))
        except PyramidsError as error:
            raise RecordError(N_("game record: {problem}"), problem=error) from None
        if self.players and len(self.players) != game.num_players:
            raise RecordError(N_("game record: {game} has {seats}, but the record names "
                                 "{given}"), game=self.game,
                              seats=PluralWords("{count} seat", "{count} seats",
                                                game.num_players),
                              given=PluralWords("{count} player", "{count} players",
                                                len(self.players)))
        state = game.new_initial_state(self.seed)
        states = [state.clone()]
        for number, text in enumerate(self.actions, start=1):
            try:
                state.apply_action(state.string_to_action(text))
            except IllegalActionError as error:
                raise RecordError(N_("game record: move {number} ('{move}'): {problem}"),
                                  number=number, move=text, problem=error) from None
            states.append(state.clone())
        if self.result is not None and not state.is_terminal():
            # A finished game's moves that stop early: its seed or moves were changed.
            raise RecordError(N_("game record: it says the game ended, but its {count} moves "
                                 "stop before the end; its seed or moves do not belong "
                                 "together"), count=len(self.actions))
        if self.result is not None and state.is_terminal():
            recorded = self.result.get("returns")
            if recorded is not None and [float(r) for r in recorded] != state.returns():
                raise RecordError(N_("game record: the result it records is not the one its "
                                     "moves give; its result, seed or moves were changed"))
        return states

    def final_state(self) -> State:
        return self.replay()[-1]


def _record_object(text: str) -> dict[str, Any]:
    """A record's JSON object: RecordError where the text is no record of this version."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(N_("not a game record: the JSON breaks off or is malformed at "
                             "line {line}, column {column}"),
                          line=error.lineno, column=error.colno) from None
    except (TypeError, ValueError) as error:
        raise RecordError(N_("not a game record: invalid JSON ({problem})"),
                          problem=str(error)) from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise RecordError(
            N_("not a game record: expected an object with format '{format}'"),
            format=RECORD_FORMAT)
    if "version" not in data:
        raise RecordError(N_("game record: 'version' is missing; supported: {supported}"),
                          supported=RECORD_VERSION)
    if data["version"] != RECORD_VERSION:
        # As the file writes it (JSON), not as Python would: "2", null, 2.5.
        raise RecordError(N_("unsupported record version {version}; supported: {supported}"),
                          version=json.dumps(data["version"]), supported=RECORD_VERSION)
    return data


def read_record_file(path: str | Path) -> tuple[GameRecord, dict[str, Any]]:
    """A record file's record and its JSON object, which holds the fields a record does
    not keep (a server room's `fairness`); a RecordError names the file and what is
    wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(N_("cannot read game record {path}: {problem}"), path=str(path),
                          problem=os_reason(error)) from None
    except UnicodeDecodeError:
        raise RecordError(N_("{path} is not a game record: a record is JSON text (UTF-8), "
                             "and this file is not text"), path=str(path)) from None
    try:
        data = _record_object(text)
        return GameRecord._from_object(data), data
    except RecordError as error:
        raise RecordError(N_("{path}: {problem}"), path=str(path), problem=error) from None


def _option_specs(game: str) -> tuple[Option, ...]:
    specs: tuple[Option, ...] = getattr(game_manifest(game).factory, "option_specs", ())
    return specs
