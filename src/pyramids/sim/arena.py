"""The arena: agents play many games against each other; honest figures come out.

Schedule. With P seats and K named agents:
- K >= P: every group of P agents (in the order named) is a table, and each
  table is played in all P cyclic seat rotations;
- K < P: one table, the named agents then the last one repeated to fill the
  seats (`mcts,greedy` at 4 players is mcts against three greedy), again in all
  P rotations (one agent alone fills every seat: its rotations are one seating,
  so each deal is played once, not P times over as P "independent" games);
- one-player games: each agent plays the same deals alone.
Game `g` plays lineup `g % L` (L lineups) on deal `g // L`, so each deal is
played by every lineup (seat rotation and pairing remove the luck of the deal
from the comparison). Every seed of game `g`, the deal's and each agent's, is
derived from (seed, g) alone: the results do not depend on how many worker
processes run the games, nor in which order they finish.

Outcomes are counted per seat. A seat wins when its return is the single
highest, draws when it shares the highest, and loses otherwise; alone, or when
every seat has the same return (a co-op team's result), a positive return is a
win, zero a draw, a negative one a loss. Pairwise results for Elo compare the
returns of seats held by different agents in the same game (alone: of
different agents on the same deal).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pyramids.agents import Agent, make_agent, thinks_by_clock
from pyramids.core import Game, OptionError, Rng, State, load
from pyramids.core.errors import N_, PluralWords, Words
from pyramids.core.files import files_as_read
from pyramids.core.options import check_players_agree
from pyramids.sim.backends import Backend, make_backend, run_indexed
from pyramids.sim.play import play_game, shared_result
from pyramids.sim.results import (
    ResultsFormat,
    numbers_only,
    play_kept,
    read_results_file,
    results_writer,
)
from pyramids.sim.stats import bradley_terry_elo, wilson_interval

GameLoader = Callable[..., Game]
PLAYER_OPTION_NAMES = ("players", "num_players")
ELO_PRIOR_GAMES = 1.0


@dataclass(frozen=True)
class AgentSpec:
    """One participant: a unique label, the agent's registered name and its options."""

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def make(self, seed: int) -> Agent:
        return make_agent(self.name, seed=seed, **self.options)


def parse_agents(text: str) -> list[AgentSpec]:
    """Agents from `name[:key=value...]` separated by commas, e.g. `mcts:iterations=200,greedy`.

    A name given twice gets labels `name`, `name#2`, ...; options make the label
    `name:key=value` so that two settings of one agent can meet.
    """
    from pyramids.agents import parse_setting, require_agent

    specs: list[AgentSpec] = []
    seen: dict[str, int] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise OptionError(
                N_("--agents '{agents}' has an empty entry; give names separated by commas"),
                agents=text,
            )
        name, options = parse_setting(item)
        require_agent(name)  # unknown names, and plugin agents without their extra
        base = item
        seen[base] = seen.get(base, 0) + 1
        label = base if seen[base] == 1 else f"{base}#{seen[base]}"
        specs.append(AgentSpec(label, name, options))
    if not specs:
        raise OptionError(N_("--agents needs at least one agent"))
    return specs


def lineups(labels: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings of one cycle of the schedule (see the module docstring)."""
    if players < 1:
        raise ValueError("a game has at least one player")
    if not labels:
        raise ValueError("the arena needs at least one agent")
    if players == 1:
        return [(label,) for label in labels]
    if len(labels) >= players:
        tables = [tuple(group) for group in itertools.combinations(labels, players)]
    else:
        tables = [tuple(labels) + (labels[-1],) * (players - len(labels))]
    # dict.fromkeys: rotations that seat the same agents alike are one lineup.
    return list(dict.fromkeys(table[r:] + table[:r] for table in tables for r in range(players)))


def derived_seed(*parts: object) -> int:
    """A 62-bit seed from the arena seed and a game's coordinates."""
    return Rng(":".join(str(p) for p in ("arena", *parts))).next_u64() >> 2


def resolve_game(
    game_name: str,
    options: dict[str, Any] | None,
    players: int | None,
    loader: GameLoader = load,
) -> tuple[Game, dict[str, Any]]:
    """The game with `players` put into whichever player-count option it has."""
    chosen = dict(options or {})
    if players is not None:
        # The option names from the game with its defaults: the options chosen may need
        # the players first (`mode=coop` is for two or more).
        names = [o.name for o in loader(game_name).option_specs]
        option = next((n for n in PLAYER_OPTION_NAMES if n in names), None)
        if option is not None:
            check_players_agree(chosen, option, players)
            chosen[option] = players
        elif (probe := loader(game_name, **chosen)).num_players != players:
            raise OptionError(
                N_("{game} is played by {count} only; --players {players} is not possible"),
                game=game_name, players=players,
                count=PluralWords("{count} player", "{count} players", probe.num_players),
            )
    game = loader(game_name, **chosen)
    return game, chosen


@dataclass
class GameResult:
    index: int
    deal: int
    seats: list[str]
    returns: list[float]
    length: int
    metrics: dict[str, float]
    seconds: dict[str, float]
    moves: dict[str, int]


def terminal_metrics(state: State) -> dict[str, float]:
    """A finished game's figures from its standard `outcome` block (rounds, draws...).

    `capped` is 1 when a safety cap rather than the rules ended the game.
    """
    outcome = state.outcome()
    if outcome is None:
        return {}
    return {**outcome["figures"], "capped": float(outcome["capped"])}


class TimedAgent:
    """An agent that adds up the seconds it spends choosing (for the arena's timings)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.moves = 0

    def step(self, state: State) -> int:
        started = time.perf_counter()
        action = self.agent.step(state)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return action

    def reseed(self, seed: int | None) -> None:
        from pyramids.agents import reseed_agent

        if not reseed_agent(self.agent, seed):
            raise TypeError(f"agent {self.name!r} has no reseed")


@dataclass(frozen=True)
class OptionFile:
    """A file an option names (`layout=mine.layout`), as a run read it at its start."""

    option: str
    value: str  # the option's value, as given
    path: str  # resolved
    content: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()


def read_option_files(options: dict[str, Any]) -> tuple[OptionFile, ...]:
    """Every option whose value names a file, with the file's content read now, once:
    a run's games are all played with this content (`files_as_read`), and its results
    record this content's SHA-256, whatever happens to the file during the run."""
    files = []
    for name, value in sorted(options.items()):
        if not isinstance(value, (str, os.PathLike)) or not str(value):
            continue
        path = Path(value)
        try:
            if not path.is_file():
                continue
            content = path.read_bytes()
        except OSError:
            continue  # unreadable: the game itself says so when it loads the option
        files.append(OptionFile(name, os.fspath(value), str(path.resolve()), content))
    return tuple(files)


def as_read(files: Iterable[OptionFile]) -> AbstractContextManager[None]:
    """The block in which games read `files` as the run read them (`files_as_read`)."""
    return files_as_read({file.value: file.content for file in files})


def changed_files(files: Iterable[OptionFile]) -> list[Words]:
    """A note for each file that is no longer what the run read at its start (edited,
    moved or removed while the games were played): its games used the start's content."""
    notes = []
    for file in files:
        try:
            digest: str | None = hashlib.sha256(Path(file.value).read_bytes()).hexdigest()
            now = str(digest)[:12]
        except OSError as error:  # removed, or no longer readable
            digest, now = None, error.strerror or str(error)
        if digest != file.sha256:
            notes.append(Words(
                N_("{option}={value} changed during the run (SHA-256 {old} at its start, now "
                   "{new}); every game of the run was played with the file as it was at the "
                   "start, not with the change: run again for figures of the changed file"),
                option=file.option, value=file.value, old=file.sha256[:12], new=now))
    return notes


@dataclass(frozen=True)
class ArenaJob:
    """What fixes an arena's games. `files`: the files its options name, read once
    (None: read when the job is made); every game reads them as they were then."""

    game_name: str
    options: dict[str, Any]
    specs: tuple[AgentSpec, ...]
    seed: int
    loader: GameLoader
    files: tuple[OptionFile, ...] | None = None

    def __post_init__(self) -> None:
        if self.files is None:
            object.__setattr__(self, "files", read_option_files(self.options))

    @property
    def option_files(self) -> tuple[OptionFile, ...]:
        return self.files or ()


def play_indexed_game(job: ArenaJob, index: int) -> GameResult:
    """Game number `index` of the arena, which depends on nothing but the job and index."""
    with as_read(job.option_files):
        game = job.loader(job.game_name, **job.options)
    by_label = {spec.label: spec for spec in job.specs}
    table = lineups([s.label for s in job.specs], game.num_players)
    seating = table[index % len(table)]
    deal = index // len(table)
    agents = [TimedAgent(by_label[label].make(derived_seed(job.seed, "agent", index, seat)))
              for seat, label in enumerate(seating)]
    state = play_game(game, agents, derived_seed(job.seed, "deal", deal))
    seconds: dict[str, float] = {}
    moves: dict[str, int] = {}
    for label, agent in zip(seating, agents, strict=True):
        seconds[label] = seconds.get(label, 0.0) + agent.seconds
        moves[label] = moves.get(label, 0) + agent.moves
    return GameResult(
        index=index,
        deal=deal,
        seats=list(seating),
        returns=[float(r) for r in state.returns()],
        length=len(state.history()),
        metrics=terminal_metrics(state),
        seconds=seconds,
        moves=moves,
    )


def run_games(
    job: ArenaJob,
    games: int,
    workers: int = 1,
    on_done: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    results_file: Path | None = None,
    on_note: Callable[[Words], None] | None = None,
) -> list[GameResult]:
    """Play games 0..games-1 in `workers` local processes, or on `backend`; sorted by index.

    With `results_file`, each game is added to the file as it finishes, and the
    games the file already holds for this job are read back, not played again:
    a long run that was stopped goes on where it was (see `read_results`; `on_note`
    hears of a line it dropped)."""
    if games < 1:
        raise OptionError(N_("--games must be at least 1, got {games}"), games=games)
    if backend is None:
        backend = make_backend("local", workers)
    if results_file is None:
        return run_indexed(play_indexed_game, job, games, backend, on_done)
    form = results_format(job)
    done = {index: result for index, result in
            read_results_file(results_file, form, on_note).items() if index < games}
    with results_writer(results_file, form, adding=len(done) < games) as keep:
        return play_job(job, games, done, keep, backend, on_done)


def play_job(
    job: ArenaJob,
    games: int,
    done: dict[int, GameResult],
    keep: Callable[[dict[str, Any]], None],
    backend: Backend | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Games 0..games-1 of `job`: those in `done` as they are, the others played and
    each handed to `keep` (a results file's writer) as it finishes."""
    return play_kept(play_indexed_game, job, games, done,
                     lambda index, result: keep(asdict(result)), backend, on_done)


def job_header(job: ArenaJob) -> dict[str, Any]:
    """What fixes an arena's games: the game, its options, the agents and the seed, and
    the content of any file an option names, as the run read it (`read_option_files`)."""
    header: dict[str, Any] = {
        "game": job.game_name,
        "options": job.options,
        "agents": [[spec.label, spec.name, spec.options] for spec in job.specs],
        "seed": job.seed,
    }
    files = file_digests(job.option_files)
    if files:  # absent where no option names a file: older files' headers still match
        header["files"] = files
    return header


def file_digests(files: Iterable[OptionFile]) -> dict[str, dict[str, str]]:
    """Per option whose value names a file (`layout=mine.layout`): the file's resolved
    path and the SHA-256 of its bytes as the run read them. The option holds the name
    only; a file edited between two runs gives other games under the same name, and a
    results file must not mix the two."""
    return {file.option: {"path": file.path, "sha256": file.sha256} for file in files}


def results_format(job: ArenaJob) -> ResultsFormat[int, GameResult]:
    """An arena's results file: its header, and its games by index."""
    header = job_header(job)
    labels = {spec.label for spec in job.specs}

    def decode(data: Any) -> tuple[int, GameResult]:
        result = checked_result(data, labels)
        return result.index, result

    return ResultsFormat("arena", header, decode)


def read_results(path: Path, job: ArenaJob,
                 on_note: Callable[[Words], None] | None = None) -> dict[int, GameResult]:
    """The games a results file holds for `job`, by index; {} for a missing or empty file.

    A file written for other settings is refused (its games would be wrong for
    these), and so is a malformed line, with its number. A run stopped while writing
    leaves an unfinished last line (no newline at its end, not JSON): it is dropped,
    cut from the end of the file and said to `on_note` (its game is played again),
    but only once the rest shows the file is this arena's; nothing before it is ever
    rewritten. A last line that is whole but lacks its newline gets one, so that the
    next game starts a line of its own (`pyramids.sim.results`)."""
    return read_results_file(path, results_format(job), on_note)


def checked_result(data: Any, labels: Iterable[str]) -> GameResult:
    """A game line's result; ValueError when a field is not what the arena wrote (a
    seat held by an agent not among `labels` included)."""
    result = GameResult(**data)
    numbers = [*result.returns, *result.metrics.values(), *result.seconds.values(),
               *result.moves.values()]
    if not (isinstance(result.index, int) and result.index >= 0
            and isinstance(result.deal, int) and isinstance(result.length, int)
            and isinstance(result.seats, list) and set(result.seats) <= set(labels)
            and len(result.returns) == len(result.seats)
            and numbers_only(numbers)):
        raise ValueError("not an arena result")
    return result


def seat_outcome(returns: Sequence[float], seat: int) -> str:
    """'win', 'draw' or 'loss' for one seat (see the module docstring)."""
    if len(set(returns)) == 1:  # alone, or a team's result shared by every seat
        return shared_result(returns) or "draw"
    mine = returns[seat]
    top = max(returns)
    if mine < top:
        return "loss"
    return "win" if sum(1 for r in returns if r == top) == 1 else "draw"


def pairwise_scores(results: Iterable[GameResult]) -> dict[tuple[str, str], float]:
    """What each agent scored against each other (1 a win, 0.5 a draw), for Elo."""
    scores: dict[tuple[str, str], float] = {}

    def add(a: str, ra: float, b: str, rb: float) -> None:
        if a == b:
            return
        sa = 1.0 if ra > rb else 0.5 if ra == rb else 0.0
        scores[(a, b)] = scores.get((a, b), 0.0) + sa
        scores[(b, a)] = scores.get((b, a), 0.0) + 1.0 - sa

    solo: dict[int, list[GameResult]] = {}
    for result in results:
        if len(result.seats) == 1:
            solo.setdefault(result.deal, []).append(result)
            continue
        for i, j in itertools.combinations(range(len(result.seats)), 2):
            add(result.seats[i], result.returns[i], result.seats[j], result.returns[j])
    for same_deal in solo.values():
        for x, y in itertools.combinations(same_deal, 2):
            add(x.seats[0], x.returns[0], y.seats[0], y.returns[0])
    return scores


def summarize(
    results: Sequence[GameResult],
    labels: Sequence[str],
    elo_prior_games: float = ELO_PRIOR_GAMES,
) -> dict[str, Any]:
    """The arena's figures as JSON-able data (no timings: those vary run to run)."""
    counts = {label: {"wins": 0, "draws": 0, "losses": 0} for label in labels}
    players = len(results[0].seats) if results else 0
    seats = [{"wins": 0, "draws": 0, "losses": 0} for _ in range(players)]
    for result in results:
        for seat, label in enumerate(result.seats):
            outcome = seat_outcome(result.returns, seat)
            key = {"win": "wins", "draw": "draws", "loss": "losses"}[outcome]
            counts[label][key] += 1
            seats[seat][key] += 1
    elo = bradley_terry_elo(labels, pairwise_scores(results), prior_games=elo_prior_games)
    agents: dict[str, Any] = {}
    for label in labels:
        c = counts[label]
        played = c["wins"] + c["draws"] + c["losses"]
        lo, hi = wilson_interval(c["wins"], played)
        returns = [r.returns[s] for r in results for s, lab in enumerate(r.seats) if lab == label]
        agents[label] = {
            "games": played,
            **c,
            "win_rate": c["wins"] / played if played else 0.0,
            "ci95": [lo, hi],
            "mean_return": sum(returns) / len(returns) if returns else 0.0,
            "elo": round(elo[label], 1) if math.isfinite(elo[label]) else None,
        }
    seat_rows = []
    for seat, c in enumerate(seats):
        played = c["wins"] + c["draws"] + c["losses"]
        lo, hi = wilson_interval(c["wins"], played)
        seat_rows.append({"seat": seat, "games": played, **c,
                          "win_rate": c["wins"] / played if played else 0.0, "ci95": [lo, hi]})
    lengths = [r.length for r in results]
    return {
        "games": len(results),
        "players": players,
        "agents": agents,
        "seats": seat_rows,
        "mean_length": sum(lengths) / len(lengths) if lengths else 0.0,
        "elo_prior_games": elo_prior_games,
    }


def seconds_per_move(results: Iterable[GameResult]) -> dict[str, float]:
    spent: dict[str, float] = {}
    moves: dict[str, int] = {}
    for result in results:
        for label, seconds in result.seconds.items():
            spent[label] = spent.get(label, 0.0) + seconds
            moves[label] = moves.get(label, 0) + result.moves.get(label, 0)
    return {label: spent[label] / moves[label] for label in spent if moves[label]}


def run_arena(
    game_name: str,
    agents: Sequence[AgentSpec] | str,
    games: int,
    workers: int = 1,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    loader: GameLoader = load,
    on_done: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    results_file: Path | None = None,
    on_note: Callable[[Words], None] | None = None,
) -> dict[str, Any]:
    """Run an arena and return its summary with `game`, `options`, `seed` added
    (`results_file`, `on_note`: see `run_games`). A file an option names is read once,
    at the start: every game is played with that content, and `on_note` hears of a
    file that changed during the run (`changed_files`)."""
    specs = parse_agents(agents) if isinstance(agents, str) else list(agents)
    # The files the options name are read once, here: every game plays that content.
    files = read_option_files(options or {})
    with as_read(files):
        game, chosen = resolve_game(game_name, options, players, loader)
    job = ArenaJob(game_name, chosen, tuple(specs), seed, loader, files)
    results = run_games(job, games, workers, on_done, backend, results_file, on_note)
    if on_note is not None:
        for note in changed_files(files):
            on_note(note)
    summary = summarize(results, [s.label for s in specs])
    summary.update(
        game=game_name,
        options=game.options,
        seed=seed,
        lineups=[list(x) for x in lineups([s.label for s in specs], game.num_players)],
        seconds_per_move=seconds_per_move(results),
        # Agents whose budget is a time: the seed does not replay their games.
        clock_agents=[spec.label for spec in specs
                      if thinks_by_clock(spec.make(seed), game)],
    )
    return summary


def result_rows(results: Iterable[GameResult]) -> list[dict[str, Any]]:
    return [asdict(r) for r in results]
