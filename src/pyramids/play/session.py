"""A game between people and agents: the game, the seats, the state, saving.

`pyramids play` builds one before any interface starts; the line-prompt player
and the Textual app share it. Bad input raises a
`PyramidsError` whose message says what is allowed; the commands turn it into
a one-line error and exit code 2.
"""

from __future__ import annotations

import secrets
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramids.agents import Agent, agent_names, make_agent, make_agent_from_setting, parse_setting
from pyramids.core import (
    Game,
    GameRecord,
    OptionError,
    PyramidsError,
    RecordError,
    Rng,
    State,
    find_manifest,
    game_manifest,
    load,
    manifests,
)
from pyramids.core.errors import N_, PluralWords
from pyramids.core.files import os_reason
from pyramids.core.options import check_players_agree
from pyramids.play.i18n import language_option
from pyramids.play.movelog import Words, table_names

HUMAN = "human"


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """`["key=value", ...]` as a dict; the game's option specs validate the values."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(N_("option '{pair}' is not key=value (for example --option "
                                 "players=3)"), pair=pair)
        name = key.strip()
        if name in options and options[name] != value.strip():
            raise OptionError(N_("option {name} is given twice ({first} and {second}); give it "
                                 "once"), name=name, first=options[name], second=value.strip())
        options[name] = value.strip()
    return options


def load_game(name: str, options: dict[str, Any], players: int | None = None) -> Game:
    """The game with `options`; `players` sets the game's `players` option where it has one."""
    if players is not None:
        option = game_manifest(name).players_option
        if option is None:
            game = load(name, **options)
            if game.num_players == players:
                return game  # already its count (pacal --players 2), as the arena takes it
            with_option = ", ".join(m.name for m in manifests() if m.players_option) or "none"
            raise OptionError(
                N_("{name} has no players option: it has {count}; games with a players "
                   "option: {games}"),
                name=name, count=PluralWords("{count} seat", "{count} seats",
                                             game.num_players),
                games=with_option,
            )
        check_players_agree(options, option, players)
        options = {**options, option: players}
    return load(name, **options)


def can_seat(game: Game, count: int) -> bool:
    """Whether the game's players option (its manifest's `players_option`) allows a
    table of `count`, so that an error about a seat count can say `--players`."""
    manifest = find_manifest(game.name)
    name = manifest.players_option if manifest is not None else None
    spec = next((spec for spec in game.option_specs if spec.name == name), None)
    if spec is None or count == game.num_players:
        return False
    return ((spec.minimum is None or count >= spec.minimum)
            and (spec.maximum is None or count <= spec.maximum))


#: The bots a person meets without choosing: the medium level, as in the lobby
#: (random moves teach nothing about the game).
DEFAULT_OPPONENT = "medium"


def parse_seats(game: Game, seats: str | None, vs: str | None) -> list[str]:
    """One name per seat: `human` or an agent name.

    `--seats` lists every seat; `--vs AGENT` makes seat 0 a person and the other
    seats that agent; neither means a person against `DEFAULT_OPPONENT` (every
    seat a person in a one-player game).
    """
    if seats is not None and vs is not None:
        raise OptionError(N_("give either --seats or --vs, not both"))
    if seats is not None:
        names = [name.strip() for name in seats.split(",") if name.strip()]
        if len(names) != game.num_players:
            if can_seat(game, len(names)):
                raise OptionError(
                    N_("{game} has {count}; --seats gave {given}: {seats} (for a table of "
                       "{given}, give --players {given} too)"),
                    game=game.name, count=PluralWords("{count} seat", "{count} seats",
                                                      game.num_players),
                    given=len(names), seats=seats,
                )
            example = ",".join([HUMAN] + [DEFAULT_OPPONENT] * (game.num_players - 1))
            raise OptionError(
                N_("{game} has {count}; --seats gave {given}: {seats} (for example "
                   "--seats {example})"),
                game=game.name, count=PluralWords("{count} seat", "{count} seats",
                                                  game.num_players),
                given=len(names), seats=seats, example=example,
            )
    else:
        if vs is not None and not vs.strip():
            raise OptionError(N_("--vs needs a level or an agent, for example --vs {example} "
                                 "(see `pyramids bots`)"), example=DEFAULT_OPPONENT)
        names = [HUMAN] + [(vs or DEFAULT_OPPONENT).strip()] * (game.num_players - 1)
    check_seat_names(names)
    return names


def check_seat_names(names: list[str], allow_human: bool = True) -> None:
    """Each seat is `human` (where allowed) or an agent setting, a name with optional
    `:key=value` options (`mcts:iterations=200`); a bad one raises OptionError."""
    allowed = agent_names()
    for text in names:
        if text == HUMAN and allow_human:
            continue
        name, options = parse_setting(text)
        if allow_human and name not in allowed:
            raise OptionError(N_("unknown seat {name}; allowed: {allowed}"),
                              name=repr(name), allowed=", ".join([HUMAN, *allowed]))
        # Made once here so that an unknown agent or a bad option is refused before the
        # game starts (make_agent says which agents and options are allowed).
        make_agent(name, seed=0, **options)


def fresh_seed() -> int:
    """A seed for a game the user gave none for; it is shown and saved, so it can be replayed."""
    return secrets.randbits(31)


@dataclass
class Session:
    """A game being played by people and agents."""

    game: Game
    seats: list[str]
    seed: int | str | None
    state: State
    agents: dict[int, Agent] = field(default_factory=dict)
    save_path: Path | None = None

    @property
    def human_seats(self) -> list[int]:
        return [seat for seat, name in enumerate(self.seats) if name == HUMAN]

    def is_human_turn(self) -> bool:
        return not self.state.is_terminal() and self.seats[self.state.current_player] == HUMAN

    def agent_action(self) -> int:
        return self.agents[self.state.current_player].step(self.state)

    def record(self) -> GameRecord:
        return GameRecord.from_state(self.state, players=self.seats)

    def log_names(self) -> dict[int, str | Words]:
        """The move log's names for this table's seats (`seat_log_names`)."""
        return seat_log_names(self.seats)

    def save(self, path: Path | None = None) -> Path | None:
        """Save as a GameRecord (atomically) to `path` or `save_path`; the path saved to."""
        target = path or self.save_path
        if target is None:
            return None
        self.record().save_file(target)
        return target


    def save_to(self, target: Path, own: Path | None = None) -> Path:
        """Start saving to `target`, saving now, so that a file that cannot be written is
        said before moves a person would lose. Refused (nothing written) when `target` is
        a folder or holds another saved game (`own`: the file that already holds this
        game, the one it was resumed from): a person's record is never written over."""
        if target.is_dir():
            raise PyramidsError(N_("cannot save the game to {path}: it is a folder; give a "
                                   "file name, for example {example}"),
                                path=str(target), example=str(target / "game.json"))
        if target.exists() and (own is None or target.resolve() != own.resolve()):
            if not holds_a_record(target):  # --resume would only say it is no game
                raise PyramidsError(N_("{path} already exists and is not a saved game: saving "
                                       "would write over it; choose another file"),
                                    path=str(target))
            raise PyramidsError(N_("{path} already exists, and saving would write over it: go "
                                   "on with that game with --resume {path}, or choose another "
                                   "file"), path=str(target))
        try:
            self.save(target)
        except OSError as error:
            raise PyramidsError(N_("cannot save the game to {path}: {reason}"),
                                path=str(target), reason=os_reason(error)) from None
        self.save_path = target
        return target


def holds_a_record(path: Path) -> bool:
    """`path` reads as a game record (whether or not its moves replay)."""
    try:
        GameRecord.load_file(path)
    except PyramidsError:
        return False
    return True


def seat_log_names(seats: list[str]) -> dict[int, str | Words]:
    """The move log's names for a table's seats (`human` or an agent each), for
    `Words.text(names=...)`, as the browser's log names them: bots by their level or
    rule, "Medium (bot)" ("Medium (bot, seat 3)" where two seats hold one bot). People
    have no names here: the reader's own seat reads "you", another person's "seat 2"."""
    return table_names({}, {seat: name for seat, name in enumerate(seats) if name != HUMAN})


def free_save_path(game: str, seed: object, folder: Path = Path(".")) -> Path:
    """`pyramids-GAME-SEED.json` in `folder`, or with `-2`, `-3`... before `.json` when a
    file (another game, maybe this deal played before) already has that name."""
    stem = f"pyramids-{game}-{seed}"
    candidate, number = folder / f"{stem}.json", 1
    while candidate.exists():
        number += 1
        candidate = folder / f"{stem}-{number}.json"
    return candidate


def new_session(
    game: Game,
    seats: list[str],
    seed: int | str | None,
    save_path: Path | None = None,
) -> Session:
    if len(seats) != game.num_players:
        raise OptionError(N_("{game} has {count}; {given} were given"), game=game.name,
                          count=PluralWords("{count} seat", "{count} seats", game.num_players),
                          given=len(seats))
    state = game.new_initial_state(seed)
    return Session(game, seats, seed, state, _make_agents(seats, seed), save_path)


def resume_session(
    path: Path,
    seats: list[str] | Callable[[Game], list[str] | None] | None = None,
    save_path: Path | None = None,
) -> Session:
    """The session a record file saved, replayed to its last position.

    The seats are the record's players unless `seats` is given: the names, or a
    function of the record's game that gives them (`--seats` and `--vs` are read
    for the game the file holds).
    """
    record = GameRecord.load_file(path)
    try:
        state = record.final_state()
    except RecordError as error:  # which file, as for a record that does not read
        raise RecordError(N_("{path}: {problem}"), path=str(path), problem=error) from None
    game = state.game
    if callable(seats):
        seats = seats(game)
    names = seats or record.players or [HUMAN] * game.num_players
    if len(names) != game.num_players:
        raise OptionError(
            N_("{path}: the record names {given} player(s), the game has {count}"),
            path=str(path), given=len(names), count=game.num_players,
        )
    try:
        check_seat_names(names)
    except PyramidsError as error:
        if seats:
            raise
        # A bot this install cannot make (an option of an older version, an extra no
        # longer installed) would otherwise keep the saved game from going on at all.
        raise OptionError(N_("{path}: {problem}; to go on with the game, seat its players "
                             "again with --seats or --vs"), path=str(path),
                          problem=error) from None
    return Session(game, names, record.seed, state, _make_agents(names, record.seed), save_path)


def _make_agents(seats: list[str], seed: int | str | None) -> dict[int, Agent]:
    # Each agent gets its own seed derived from the game's, so a replay of the same
    # seed with the same seats plays the same agent moves.
    seeds = Rng(f"agents:{seed}")
    agents: dict[int, Agent] = {}
    for seat, name in enumerate(seats):
        agent_seed = seeds.next_u64() >> 1
        if name != HUMAN:
            agents[seat] = make_agent_from_setting(name, seed=agent_seed)
    return agents


def resume_command(path: Path | str) -> str:
    """The command that resumes the game saved at `path`, in the language it was
    played in where that is not the environment's; the path quoted where a shell
    needs it (a space), so that the command pastes as it reads."""
    return f"pyramids play --resume {shlex.quote(str(path))}{language_option()}"


def replay_command(path: Path | str) -> str:
    """The command that replays the finished game saved at `path`, in its language."""
    return f"pyramids replay {shlex.quote(str(path))}{language_option()}"


__all__ = [
    "HUMAN",
    "PyramidsError",
    "Session",
    "check_seat_names",
    "fresh_seed",
    "load_game",
    "new_session",
    "parse_options",
    "parse_seats",
    "replay_command",
    "resume_command",
    "resume_session",
    "seat_log_names",
]
