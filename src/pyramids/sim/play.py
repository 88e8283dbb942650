"""Playing games between agents: one game, or a series with a summary.

The arena, the balance reports and `pyramids simulate` share this loop. Every
random choice comes from the seed given: game `i` of a series uses seeds drawn
from `Rng(seed)`, so the same seed replays the same series.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyramids.agents import Agent, make_agent_from_setting
from pyramids.core import Game, OptionError, Rng, State
from pyramids.core.errors import N_, PluralWords, Words
from pyramids.sim.backends import Backend, run_indexed
from pyramids.sim.results import (
    ResultsFormat,
    numbers_only,
    play_kept,
    read_results_file,
    results_writer,
)

DEFAULT_MAX_ACTIONS = 100_000

Observer = Callable[[State, int, int], None]
"""Called as `observer(state_before, seat, action)` before each action is applied."""


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int | str | None = 0,
    *,
    state: State | None = None,
    observer: Observer | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> State:
    """Play `game` from `seed` (or from `state`, which is changed) to its end; the final state.

    `agents[seat]` chooses for each seat. A game longer than `max_actions` is a
    fault in an engine, not a result, so it raises.
    """
    if len(agents) != game.num_players:
        raise OptionError(
            N_("{game} needs {count} agent(s), got {got}"),
            game=game.name, count=game.num_players, got=len(agents),
        )
    if state is None:
        state = game.new_initial_state(seed)
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        seat = state.current_player
        action = agents[seat].step(state)
        if observer is not None:
            observer(state, seat, action)
        state.apply_action(action)
    if state.is_terminal():
        return state
    raise RuntimeError(f"{game.name}: no end after {max_actions} actions from seed {seed!r}")


def shared_result(returns: Sequence[float]) -> str | None:
    """'win' or 'loss' when every seat has the same non-zero return: one player's
    result, or a team's (Mahjongg's Co-op); None otherwise."""
    if len(set(returns)) != 1 or returns[0] == 0:
        return None
    return "win" if returns[0] > 0 else "loss"


def winner_of(returns: Sequence[float]) -> int | None:
    """The seat with the strictly highest return, or None when the top is shared (a draw).

    A one-player game is won when its return is positive.
    """
    if len(returns) == 1:
        return 0 if returns[0] > 0 else None
    best = max(returns)
    top = [seat for seat, value in enumerate(returns) if value == best]
    return top[0] if len(top) == 1 else None


@dataclass
class SeriesSummary:
    """What `play_series` counts. `draws` counts games with no single winner.

    In a one-player game a game not won is a loss, not a draw. A team's result
    (every seat the same non-zero return, as in a co-op game) is a win for every
    seat, or a loss (`losses`), not a draw.

    `losses` is a count of games, not of seats: the games that every seat lost
    together (alone: the games not won). In a game where one seat wins and the
    others lose it stays 0, which reads as "no one lost", so `to_dict` gives it
    also as `games_every_seat_lost`; `losses` stays for the scripts that read it.
    """

    game: str
    options: dict[str, Any]
    agents: list[str]
    seed: int | str | None
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    losses: int = 0
    total_actions: int = 0
    returns_total: list[float] = field(default_factory=list)
    finals: list[tuple[list[float], dict[str, Any]]] = field(default_factory=list, repr=False)

    @property
    def mean_actions(self) -> float:
        return self.total_actions / self.games if self.games else 0.0

    @property
    def mean_returns(self) -> list[float]:
        return [total / self.games if self.games else 0.0 for total in self.returns_total]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "games_every_seat_lost": self.losses,
            "mean_actions": self.mean_actions,
            "mean_returns": self.mean_returns,
        }


@dataclass(frozen=True)
class SeriesJob:
    """A series fixed before any game is played: game `i` uses `seeds[i]` alone."""

    game: Game
    agent_names: tuple[str, ...]
    seeds: SeriesSeeds
    """Per game: the deal's seed, then each seat's agent seed."""
    keep_finals: bool = False


SeriesSeeds = tuple[tuple[int, tuple[int, ...]], ...]


def series_seeds(seed: int | str | None, games: int, seats: int) -> SeriesSeeds:
    """The seeds of a series, drawn from `Rng(seed)` in order: deal, then each seat's agent."""
    seeds = Rng(seed)
    table = []
    for _ in range(games):
        game_seed = seeds.next_u64() >> 1
        table.append((game_seed, tuple(seeds.next_u64() >> 1 for _ in range(seats))))
    return tuple(table)


def play_series_game(
    job: SeriesJob, index: int
) -> tuple[list[float], int, dict[str, Any] | None]:
    """Game `index` of a series: its returns, its length and (if kept) the final spectator view."""
    game_seed, agent_seeds = job.seeds[index]
    agents = [make_agent_from_setting(name, seed=agent_seed)
              for name, agent_seed in zip(job.agent_names, agent_seeds, strict=True)]
    final = play_game(job.game, agents, game_seed)
    return final.returns(), len(final.history()), final.view(None) if job.keep_finals else None


def play_series(
    game: Game,
    agent_names: Sequence[str],
    games: int,
    seed: int | str | None = 0,
    *,
    keep_finals: bool = False,
    backend: Backend | None = None,
    on_done: Callable[[int], None] | None = None,
    results_file: Path | None = None,
    on_note: Callable[[Words], None] | None = None,
    files: dict[str, dict[str, str]] | None = None,
) -> SeriesSummary:
    """Play `games` games with fresh agents each game; count wins, draws and length.

    With `keep_finals`, the returns and spectator view of every final state are
    kept in `finals` (for game-specific statistics such as the solo draw count).
    The games run on `backend` (default: one after another in this process);
    every backend gives the same summary.

    With `results_file`, each game is added to the file as it finishes, and the
    games the file already holds for this series are read back, not played again
    (`pyramids.sim.results`; `on_note` hears of a line it dropped): a stopped run
    goes on where it was, with the figures of one uninterrupted run. `files`: the
    digests of the files the game's options name, as the game was loaded with them
    (`pyramids.sim.arena.file_digests`), which the file's header records.
    """
    if len(agent_names) != game.num_players:
        raise OptionError(
            N_("{game} has {count}; got {got}: {agents}"), game=game.name,
            count=PluralWords("{count} seat", "{count} seats", game.num_players),
            got=PluralWords("{count} agent", "{count} agents", len(agent_names)),
            agents=", ".join(agent_names),
        )
    summary = SeriesSummary(
        game=game.name,
        options=game.options,
        agents=list(agent_names),
        seed=seed,
        wins=[0] * game.num_players,
        returns_total=[0.0] * game.num_players,
    )
    job = SeriesJob(game, tuple(agent_names), series_seeds(seed, games, game.num_players),
                    keep_finals)
    if results_file is None:
        outcomes = run_indexed(play_series_game, job, games, backend, on_done)
    else:
        form = series_results_format(job, seed, files)
        done = {index: outcome for index, outcome in
                read_results_file(results_file, form, on_note).items() if index < games}
        with results_writer(results_file, form, adding=len(done) < games) as keep:
            outcomes = play_kept(
                play_series_game, job, games, done,
                lambda index, outcome: keep({"index": index, "returns": outcome[0],
                                             "length": outcome[1], "final": outcome[2]}),
                backend, on_done)
    for returns, length, view in outcomes:
        summary.games += 1
        summary.total_actions += length
        for seat, value in enumerate(returns):
            summary.returns_total[seat] += value
        shared = shared_result(returns)
        winner = winner_of(returns)
        if shared == "win":
            for seat in range(game.num_players):
                summary.wins[seat] += 1
        elif shared == "loss" or winner is None and game.num_players == 1:
            summary.losses += 1
        elif winner is not None:
            summary.wins[winner] += 1
        else:
            summary.draws += 1
        if view is not None:
            summary.finals.append((returns, view))
    return summary


SeriesOutcome = tuple[list[float], int, dict[str, Any] | None]


def series_results_format(job: SeriesJob, seed: int | str | None,
                          files: dict[str, dict[str, str]] | None = None,
                          ) -> ResultsFormat[int, SeriesOutcome]:
    """A series' results file (`pyramids simulate --results`): a header of what fixes
    its games (the game, its options, the agents by seat, the seed, the content of the
    files its options name; `finals` where final views are kept), then a line a game:
    its index, returns, length and final view (null where not kept)."""
    game = job.game
    header: dict[str, Any] = {"game": game.name, "options": game.options,
                              "agents": list(job.agent_names), "seed": seed}
    if job.keep_finals:
        header["finals"] = True
    if files:
        header["files"] = files

    def decode(data: Any) -> tuple[int, SeriesOutcome]:
        index, returns, length, final = (data["index"], data["returns"], data["length"],
                                         data["final"])
        if not (isinstance(index, int) and not isinstance(index, bool) and index >= 0
                and isinstance(length, int) and isinstance(returns, list)
                and len(returns) == game.num_players and numbers_only(returns)
                and (isinstance(final, dict) if job.keep_finals else final is None)):
            raise ValueError("not a series result")
        return index, ([float(r) for r in returns], length, final)

    return ResultsFormat("simulate", header, decode)
