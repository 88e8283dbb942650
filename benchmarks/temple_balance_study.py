"""Temple of Inscriptions: why the seats are uneven, which rules and option values even
them, whether skill still wins from every seat, and whether any setting stalls.

    python benchmarks/temple_balance_study.py why --players 4 --games 600
    python benchmarks/temple_balance_study.py sweep --players 2,3,4,5 --games 600 \\
        --setting "start_rule=rotate" --setting "start_rule=leader_last,cards_per_level=9"
    python benchmarks/temple_balance_study.py mcts --players 4 --games 25 --iterations 300
    python benchmarks/temple_balance_study.py stalls --players 2,3,4,5 --games 200
    python benchmarks/temple_balance_study.py sweep --players 4 --games 600 --backend ray

`--workers N` runs the games in N local processes; `--backend ray` (with
`--address` or RAY_ADDRESS) on a Ray cluster. Every backend prints the same
figures for the same seed.

Every seat is played by the `greedy` agent (the same one everywhere, so any
difference between the seats comes from the rules). The games are played
through the public API (`pyramids.load`, `legal_actions`/`apply_action`/`view`)
with `make_agent`; nothing in the engine is changed. Game `i` of a run uses deal
seed `seed * 1_000_003 + i` and agent seeds derived from it, so a run is
reproducible.

`why` prints, for one setting and player count:
- each seat's win rate (95% Wilson interval) and mean final score;
- where the points come from: per seat, the treasure earned on levels 1-3, 4-6
  and 7-9, the summons paid, and the jewels held at the end;
- who summons and who completes each of the levels 7, 8 and 9 (by seat, and by
  position relative to the round's start player);
- how many rounds each seat starts, and each seat's win rate by the number of
  rounds the game lasted (the start player moves one seat a round, so the
  length decides who starts the round in which the big levels are built).

`sweep` prints, for each setting and player count, the table the balance note
uses: games, each seat's win rate with its 95% interval, a chi-square test of
"every seat wins equally often", mean rounds, levels built and the share of
games stopped by the `max_rounds` cap; then each row's win rates by position
counted from the start player of the game's last round (the round that builds
levels 7-9): the luck of the place within one game. A setting is `key=value`
pairs joined by commas ("" for the defaults); only existing options are allowed.

`mcts` puts one `mcts` (a fixed number of iterations a move, so a run replays)
among greedy players, `--games` games in each seat in turn, and prints its win
rate per seat and per position in the last round.

`stalls` plays `--games` greedy games of every setting of `stall_settings` (each
option's boundaries one at a time, a grid of scarce decks, and settings drawn at
random from the option ranges) at each player count, and counts how the games
ended: level 9 built, the level could never be built, no progress, or the
`max_rounds` cap. Settings the option check refuses are counted, not played.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pyramids
from pyramids.agents import make_agent
from pyramids.core import Rng
from pyramids.sim.backends import BACKENDS, Backend, make_backend, run_indexed
from pyramids.sim.stats import chi2_sf
from pyramids.sim.stats import wilson_interval as wilson

LEVELS = 9
HIGH_LEVELS = (7, 8, 9)
BANDS = ((1, 3), (4, 6), (7, 9))


def seat_uniformity(wins: list[int]) -> tuple[float, float]:
    """Chi-square statistic and p-value of 'the sole wins are spread evenly over the seats'."""
    total = sum(wins)
    if total == 0:
        return (0.0, 1.0)
    expected = total / len(wins)
    stat = sum((w - expected) ** 2 / expected for w in wins)
    return stat, chi2_sf(stat, len(wins) - 1)


@dataclass
class LevelRecord:
    level: int
    round: int
    start_player: int
    summoner: int
    completer: int
    earned: list[int]


@dataclass
class GameFigures:
    players: int
    winner: int | None
    rounds: int
    built: int
    capped: bool
    ended_by: str
    last_start: int  # the start player of the game's last (decisive) round
    scores: list[int]
    jewels: list[int]
    summons: list[int]
    paid: list[int]
    starts: list[int]
    levels: list[LevelRecord] = field(default_factory=list)


def play(options: dict[str, Any], seed: int, mcts_seat: int | None = None,
         mcts_iterations: int = 300) -> GameFigures:
    """One game, greedy in every seat but `mcts_seat` (mcts with a fixed iteration
    budget there), with the figures the study needs read from the views."""
    game = pyramids.load("temple", **options)
    n = game.num_players
    agents = [make_agent("greedy", seed=seed * 8 + seat) if seat != mcts_seat
              else make_agent("mcts", seed=seed * 8 + seat, iterations=mcts_iterations)
              for seat in range(n)]
    state = game.new_initial_state(seed)
    summons, paid, starts = [0] * n, [0] * n, [0] * n
    levels: list[LevelRecord] = []
    last_round = 0
    summoner = -1
    while not state.is_terminal():
        before = state.view(None)
        if before["round"] != last_round:
            last_round = before["round"]
            starts[before["start_player"]] += 1
        seat = state.current_player
        action = agents[seat].step(state)
        text = state.action_to_string(action)
        state.apply_action(action)
        if text == "summon":
            summoner = seat
            summons[seat] += 1
            paid[seat] += before["treasure"][seat] > 0
        after = state.view(None)
        if after["built"] > before["built"]:
            earned = [a - b for a, b in zip(after["treasure"], before["treasure"], strict=True)]
            levels.append(LevelRecord(before["level"], before["round"], before["start_player"],
                                      summoner, seat, earned))
    final = state.view(None)
    winners = final["winners"]
    return GameFigures(
        players=n,
        winner=winners[0] if len(winners) == 1 else None,
        rounds=final["round"],
        built=final["built"],
        capped=final["ended_by"] == "max_rounds",
        ended_by=final["ended_by"],
        last_start=final["start_player"],
        scores=final["scores"],
        jewels=final["jewels"],
        summons=summons,
        paid=paid,
        starts=starts,
        levels=levels,
    )


# Where the games run (`--backend`, `--workers`, `--address`); results are the same on each.
BACKEND = Backend()

PlayJob = tuple[dict[str, Any], int, "int | None", int]
"""Options, the first game's seed, the mcts seat (or None) and its iterations."""


def play_job(job: PlayJob, index: int) -> GameFigures:
    options, first_seed, mcts_seat, iterations = job
    return play(options, first_seed + index, mcts_seat=mcts_seat, mcts_iterations=iterations)


def run(options: dict[str, Any], games: int, seed: int) -> list[GameFigures]:
    return run_indexed(play_job, (options, seed * 1_000_003, None, 300), games, BACKEND)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def seat_rates(figures: list[GameFigures]) -> list[tuple[int, float, float, float]]:
    n = figures[0].players
    wins = Counter(f.winner for f in figures if f.winner is not None)
    return _rates(wins, n, len(figures))


def position_rates(figures: list[GameFigures]) -> list[tuple[int, float, float, float]]:
    """Win rates by position relative to the start player of the game's last round
    (position 1: that round's start player), the round where the big levels are built."""
    n = figures[0].players
    wins = Counter((f.winner - f.last_start) % n for f in figures if f.winner is not None)
    return _rates(wins, n, len(figures))


def spread(rates: list[tuple[int, float, float, float]]) -> float:
    """Best minus worst win rate, in percentage points."""
    return 100 * (max(r for _, r, _, _ in rates) - min(r for _, r, _, _ in rates))


def _rates(wins: Counter[int], n: int, games: int) -> list[tuple[int, float, float, float]]:
    out = []
    for seat in range(n):
        lo, hi = wilson(wins[seat], games)
        out.append((wins[seat], wins[seat] / games, lo, hi))
    return out


# ---- why ---------------------------------------------------------------------------------


def why(options: dict[str, Any], games: int, seed: int) -> None:
    figures = run(options, games, seed)
    n = figures[0].players
    print(f"## why: {n} players, {games} greedy games, options {options or 'defaults'}\n")
    rounds = [f.rounds for f in figures]
    print(f"rounds: mean {statistics.fmean(rounds):.2f}, distribution "
          f"{dict(sorted(Counter(rounds).items()))}; capped {sum(f.capped for f in figures)}\n")

    print("### Seats: wins, score and where the points come from (means per game)\n")
    print("| seat | win rate (95% CI) | score | earned L1-3 | L4-6 | L7-9 | summons "
          "(paid) | jewels at end | rounds started |")
    print("|---|---|---|---|---|---|---|---|---|")
    rates = seat_rates(figures)
    for seat in range(n):
        band = []
        for lo, hi in BANDS:
            band.append(statistics.fmean(
                sum(r.earned[seat] for r in f.levels if lo <= r.level <= hi) for f in figures))
        _, rate, lo, hi = rates[seat]
        print(f"| {seat + 1} | {pct(rate)} ({pct(lo)}-{pct(hi)}) | "
              f"{statistics.fmean(f.scores[seat] for f in figures):.1f} | "
              f"{band[0]:.1f} | {band[1]:.1f} | {band[2]:.1f} | "
              f"{statistics.fmean(f.summons[seat] for f in figures):.2f} "
              f"({statistics.fmean(f.paid[seat] for f in figures):.2f}) | "
              f"{statistics.fmean(f.jewels[seat] for f in figures):.2f} | "
              f"{statistics.fmean(f.starts[seat] for f in figures):.2f} |")

    print("\n### The big levels: who summons, who completes, who earns\n")
    print("Shares over the games; 'rel. start' is the seat counted from the round's start "
          "player (1 = the start player).\n")
    header = " | ".join(f"seat {s + 1}" for s in range(n))
    rel = " | ".join(f"rel. {s + 1}" for s in range(n))
    print(f"| level | what | {header} | {rel} |")
    print("|---|---|" + "---|" * (2 * n))
    for level in HIGH_LEVELS:
        recs = [r for f in figures for r in f.levels if r.level == level]
        if not recs:
            continue
        for what, pick in (("summoner", lambda r: r.summoner),
                           ("completer", lambda r: r.completer)):
            by_seat = Counter(pick(r) for r in recs)
            by_rel = Counter((pick(r) - r.start_player) % n for r in recs)
            cells = [pct(by_seat[s] / len(recs)) for s in range(n)]
            cells += [pct(by_rel[s] / len(recs)) for s in range(n)]
            print(f"| {level} | {what} | " + " | ".join(cells) + " |")
        earned = [statistics.fmean(r.earned[s] for r in recs) for s in range(n)]
        earned_rel = [statistics.fmean(r.earned[(r.start_player + s) % n] for r in recs)
                      for s in range(n)]
        print(f"| {level} | mean earned | " + " | ".join(f"{e:.2f}" for e in earned + earned_rel)
              + " |")
    print()
    print("### Level 9: the round it is built in and its start player\n")
    l9 = [r for f in figures for r in f.levels if r.level == LEVELS]
    print("| round of level 9 | games | start player of that round (seat: share) |")
    print("|---|---|---|")
    for rnd, count in sorted(Counter(r.round for r in l9).items()):
        starts = Counter(r.start_player for r in l9 if r.round == rnd)
        cells = ", ".join(f"{s + 1}: {pct(starts[s] / count)}" for s in range(n))
        print(f"| {rnd} | {count} | {cells} |")
    print("\n### Win rate by game length (rounds)\n")
    print("| rounds | games | " + " | ".join(f"seat {s + 1}" for s in range(n)) + " |")
    print("|---|---|" + "---|" * n)
    for rnd, count in sorted(Counter(rounds).items()):
        if count < 20:
            continue
        subset = [f for f in figures if f.rounds == rnd]
        w = Counter(f.winner for f in subset)
        print(f"| {rnd} | {count} | " + " | ".join(pct(w[s] / count) for s in range(n)) + " |")
    print("\n### Treasure earned per round, by seat (mean per game)\n")
    top = max(rounds)
    print("| round | start player (most often) | levels built in it | " +
          " | ".join(f"seat {s + 1}" for s in range(n)) + " |")
    print("|---|---|---|" + "---|" * n)
    for rnd in range(1, top + 1):
        recs = [r for f in figures for r in f.levels if r.round == rnd]
        if not recs:
            continue
        cells = [sum(r.earned[s] for r in recs) / games for s in range(n)]
        first = Counter(r.start_player for r in recs).most_common(1)[0][0]
        print(f"| {rnd} | {first + 1} | {len(recs) / games:.2f} | "
              + " | ".join(f"{c:.2f}" for c in cells) + " |")
    print("\n### Earnings by position relative to the round's start player (all levels)\n")
    print("| levels | " + " | ".join(f"rel. {s + 1}" for s in range(n)) + " |")
    print("|---|" + "---|" * n)
    for lo, hi in BANDS:
        recs = [r for f in figures for r in f.levels if lo <= r.level <= hi]
        cells = [statistics.fmean(r.earned[(r.start_player + s) % n] for r in recs)
                 for s in range(n)]
        print(f"| {lo}-{hi} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")


# ---- sweep -------------------------------------------------------------------------------


def parse_setting(text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, _, value = item.partition("=")
        value = value.strip()
        options[key.strip()] = int(value) if value.lstrip("-").isdigit() else value
    return options


def label(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def sweep_row(options: dict[str, Any], players: int, games: int, seed: int) -> dict[str, Any]:
    chosen = {**options, "players": players}
    figures = run(chosen, games, seed)
    rates = seat_rates(figures)
    stat, p = seat_uniformity([w for w, *_ in rates])
    positions = position_rates(figures)
    pos_stat, pos_p = seat_uniformity([w for w, *_ in positions])
    fair = 1 / players
    return {
        "setting": label(options),
        "players": players,
        "games": games,
        "seats": rates,
        "outside": sum(1 for _, _, lo, hi in rates if lo > fair or hi < fair),
        "worst_gap": max(abs(r - fair) for _, r, _, _ in rates) * 100,
        "chi2": stat,
        "p": p,
        "positions": positions,
        "position_spread": spread(positions),
        "position_p": pos_p,
        "rounds": statistics.fmean(f.rounds for f in figures),
        "rounds_max": max(f.rounds for f in figures),
        "built": statistics.fmean(f.built for f in figures),
        "capped": sum(f.capped for f in figures) / len(figures),
        "endings": Counter(f.ended_by for f in figures),
        "shared": sum(f.winner is None for f in figures),
    }


def _cells(rates: list[tuple[int, float, float, float]]) -> str:
    return "; ".join(f"{s + 1}: {pct(r)} ({pct(lo)}-{pct(hi)})"
                     for s, (_, r, lo, hi) in enumerate(rates))


def print_row(row: dict[str, Any]) -> None:
    print(f"| {row['setting']} | {row['players']} | {row['games']} | {_cells(row['seats'])} | "
          f"{row['worst_gap']:.1f} | {row['outside']} | {_p(row['p'])} | "
          f"{row['rounds']:.1f} (max {row['rounds_max']}) | "
          f"{row['built']:.2f} | {pct(row['capped'])} | {row['shared']} |", flush=True)


def print_position_row(row: dict[str, Any]) -> None:
    others = {k: v for k, v in row["endings"].items() if k != "level 9 built"}
    print(f"| {row['setting']} | {row['players']} | {row['games']} | "
          f"{_cells(row['positions'])} | {row['position_spread']:.1f} | "
          f"{_p(row['position_p'])} | {dict(others) or '-'} |", flush=True)


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def sweep(settings: list[str], players: list[int], games: int, seed: int) -> None:
    rows = []
    print("| setting | players | games | seat win rates (95% CI) | worst seat's gap to fair "
          "(points) | seats outside fair CI | chi-square p | mean rounds | levels built | "
          "capped | shared wins |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for text in settings:
        options = parse_setting(text)
        for count in players:
            row = sweep_row(options, count, games, seed)
            rows.append(row)
            print_row(row)
    print("\nWin rates by position from the start player of the last round (1: that round's "
          "start player; the round that builds levels 7-9):\n")
    print("| setting | players | games | position win rates (95% CI) | spread best-worst "
          "(points) | chi-square p | games not ending with level 9 |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print_position_row(row)


# ---- mcts among greedy -------------------------------------------------------------------


def mcts_check(options: dict[str, Any], players: int, per_seat: int, seed: int,
               iterations: int) -> None:
    """One mcts (fixed iterations) among greedy, `per_seat` games in each seat in turn."""
    chosen = {**options, "players": players}
    fair = 1 / players
    print(f"\n## one mcts (iterations={iterations}) among {players - 1} greedy, "
          f"{per_seat} games a seat, options {label(chosen)}, seed {seed}\n")
    print("| mcts seat | games | mcts wins | win rate (95% CI) | fair | above fair? |")
    print("|---|---|---|---|---|---|")
    all_figures: list[tuple[int, GameFigures]] = []
    for seat in range(players):
        job = (chosen, seed * 1_000_003 + seat * 10_007, seat, iterations)
        figures = run_indexed(play_job, job, per_seat, BACKEND)
        all_figures += [(seat, f) for f in figures]
        wins = sum(f.winner == seat for f in figures)
        lo, hi = wilson(wins, per_seat)
        verdict = "yes (whole CI)" if lo > fair else ("point only" if wins / per_seat > fair
                                                      else "no")
        print(f"| {seat + 1} | {per_seat} | {wins} | {pct(wins / per_seat)} "
              f"({pct(lo)}-{pct(hi)}) | {pct(fair)} | {verdict} |", flush=True)
    games = len(all_figures)
    wins = sum(f.winner == seat for seat, f in all_figures)
    lo, hi = wilson(wins, games)
    print(f"| all | {games} | {wins} | {pct(wins / games)} ({pct(lo)}-{pct(hi)}) | "
          f"{pct(fair)} | |")
    print("\nmcts by its position from the start player of the last round:\n")
    print("| position | games | mcts wins | win rate (95% CI) |")
    print("|---|---|---|---|")
    for position in range(players):
        subset = [(seat, f) for seat, f in all_figures
                  if (seat - f.last_start) % players == position]
        won = sum(f.winner == seat for seat, f in subset)
        lo, hi = wilson(won, len(subset))
        rate = won / len(subset) if subset else 0.0
        print(f"| {position + 1} | {len(subset)} | {won} | {pct(rate)} ({pct(lo)}-{pct(hi)}) |",
              flush=True)


# ---- stalls over the option ranges -------------------------------------------------------

# The boundaries of every option's range and values between, one option at a time
# from the defaults (max_rounds stays at its default: the cap is what is measured).
ONE_AT_A_TIME: dict[str, tuple[Any, ...]] = {
    "cards_per_level": (1, 2, 3, 4, 5, 6, 9, 15, 50),
    "jewels": (0, 1, 2, 3, 4, 6, 8, 12, 30, 100),
    "start_treasure": (0, 1, 1000),
    "start_hand": (0, 1, 6, 10, 30),
    "swap_size": (0, 1, 2, 10),
    "start_rule": ("rotate", "lot", "poorest"),
}
# Scarce decks, where stalls come from, crossed with hands and swap zones.
SCARCE_GRID: dict[str, tuple[Any, ...]] = {
    "cards_per_level": (1, 2, 4),
    "jewels": (0, 2, 8),
    "start_hand": (0, 3),
    "swap_size": (0, 10),
}
RANGES: dict[str, tuple[int, int]] = {
    "cards_per_level": (1, 50), "jewels": (0, 100), "start_treasure": (0, 1000),
    "start_hand": (0, 30), "swap_size": (0, 10),
}


def stall_settings(random_settings: int, seed: int) -> list[dict[str, Any]]:
    """The settings of the stall sweep: one option at a time, the scarce grid, and
    `random_settings` drawn uniformly from the option ranges (with `seed`)."""
    settings: list[dict[str, Any]] = [{}]
    for key, values in ONE_AT_A_TIME.items():
        settings += [{key: value} for value in values]
    keys = list(SCARCE_GRID)
    grid: list[dict[str, Any]] = [{}]
    for key in keys:
        grid = [{**g, key: v} for g in grid for v in SCARCE_GRID[key]]
    settings += grid
    draw = Rng(seed)
    for _ in range(random_settings):
        setting: dict[str, Any] = {k: draw.randint(lo, hi) for k, (lo, hi) in RANGES.items()}
        setting["start_rule"] = draw.choice(ONE_AT_A_TIME["start_rule"])
        settings.append(setting)
    return settings


def stalls(players: list[int], games: int, seed: int, random_settings: int) -> None:
    """Every setting of `stall_settings` at each player count: refused, or how its games end."""
    accepted = refused = worst = 0
    endings: Counter[str] = Counter()
    capped_settings: list[str] = []
    print("| setting | players | games | level 9 built | level cannot be built | "
          "no progress | max_rounds |")
    print("|---|---|---|---|---|---|---|")
    for options in stall_settings(random_settings, seed):
        for count in players:
            chosen = {**options, "players": count}
            try:
                pyramids.load("temple", **chosen)
            except pyramids.OptionError:
                refused += 1
                continue
            accepted += 1
            figures = run(chosen, games, seed)
            ended = Counter(f.ended_by for f in figures)
            endings.update(ended)
            worst = max(worst, ended["max_rounds"])
            if ended["max_rounds"] or ended["level 9 built"] < games:
                print(f"| {label(options)} | {count} | {games} | {ended['level 9 built']} | "
                      f"{ended['level cannot be built']} | {ended['no progress']} | "
                      f"{ended['max_rounds']} |", flush=True)
            if ended["max_rounds"]:
                capped_settings.append(f"{label(options)} ({count} players)")
    print(f"\n{accepted} accepted settings x player counts ({accepted * games} games), "
          f"{refused} refused by the option check. Endings: {dict(endings)}.")
    print(f"Most games of one setting ended by the max_rounds cap: {worst} of {games}; "
          f"settings with any: {capped_settings or 'none'}.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0], allow_abbrev=False)
    parser.add_argument("mode", choices=("why", "sweep", "mcts", "stalls"))
    parser.add_argument("--players", default="4", help="player counts, e.g. 2,3,4,5")
    parser.add_argument("--games", type=int, default=600,
                        help="games per row (mcts: games per seat)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setting", action="append", default=None,
                        help='options as "key=value,key=value" ("" for the defaults); repeat')
    parser.add_argument("--iterations", type=int, default=300, help="mcts: iterations a move")
    parser.add_argument("--random-settings", type=int, default=40,
                        help="stalls: settings drawn at random from the option ranges")
    parser.add_argument("--backend", default="local", choices=BACKENDS,
                        help="where the games run: local processes or a Ray cluster")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--address", default=None,
                        help="Ray cluster (default: $RAY_ADDRESS, else a local instance)")
    args = parser.parse_args()
    global BACKEND
    BACKEND = make_backend(args.backend, args.workers, args.address)
    counts = [int(p) for p in args.players.split(",")]
    settings = args.setting if args.setting is not None else [""]
    started = time.perf_counter()
    if args.mode == "why":
        for text in settings:
            for count in counts:
                why({**parse_setting(text), "players": count}, args.games, args.seed)
    elif args.mode == "sweep":
        sweep(settings, counts, args.games, args.seed)
    elif args.mode == "mcts":
        for text in settings:
            for count in counts:
                mcts_check(parse_setting(text), count, args.games, args.seed, args.iterations)
    else:
        stalls(counts, args.games, args.seed, args.random_settings)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
