"""Temple of Inscriptions: why the seats are uneven, and which option values even them.

    python benchmarks/temple_balance_study.py why --players 4 --games 600
    python benchmarks/temple_balance_study.py sweep --players 2,3,4,5 --games 600 \\
        --setting "" --setting "cards_per_level=9" --setting "start_treasure=10"

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
games stopped by the `max_rounds` cap. A setting is `key=value` pairs joined by
commas ("" for the defaults); only existing options are allowed.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pyramids
from pyramids.agents import make_agent

Z95 = 1.959963984540054
LEVELS = 9
HIGH_LEVELS = (7, 8, 9)
BANDS = ((1, 3), (4, 6), (7, 9))


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` degrees of freedom (closed forms)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    for k in range(1, (df - 1) // 2 + 1):
        total += math.exp(-half + (k - 0.5) * math.log(half) - math.lgamma(k + 0.5))
    return total


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
    scores: list[int]
    jewels: list[int]
    summons: list[int]
    paid: list[int]
    starts: list[int]
    levels: list[LevelRecord] = field(default_factory=list)


def play(options: dict[str, Any], seed: int) -> GameFigures:
    """One all-greedy game, with the figures the study needs read from the views."""
    game = pyramids.load("temple", **options)
    n = game.num_players
    agents = [make_agent("greedy", seed=seed * 8 + seat) for seat in range(n)]
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
        capped=final["built"] < LEVELS,
        scores=final["scores"],
        jewels=final["jewels"],
        summons=summons,
        paid=paid,
        starts=starts,
        levels=levels,
    )


def run(options: dict[str, Any], games: int, seed: int) -> list[GameFigures]:
    return [play(options, seed * 1_000_003 + i) for i in range(games)]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def seat_rates(figures: list[GameFigures]) -> list[tuple[int, float, float, float]]:
    n = figures[0].players
    wins = Counter(f.winner for f in figures if f.winner is not None)
    out = []
    for seat in range(n):
        lo, hi = wilson(wins[seat], len(figures))
        out.append((wins[seat], wins[seat] / len(figures), lo, hi))
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
    print("| round | start player | levels built in it | " +
          " | ".join(f"seat {s + 1}" for s in range(n)) + " |")
    print("|---|---|---|" + "---|" * n)
    for rnd in range(1, top + 1):
        recs = [r for f in figures for r in f.levels if r.round == rnd]
        if not recs:
            continue
        cells = [sum(r.earned[s] for r in recs) / games for s in range(n)]
        print(f"| {rnd} | {(rnd - 1) % n + 1} | {len(recs) / games:.2f} | "
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
        options[key.strip()] = int(value)
    return options


def label(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def sweep_row(options: dict[str, Any], players: int, games: int, seed: int) -> dict[str, Any]:
    chosen = {**options, "players": players}
    figures = run(chosen, games, seed)
    rates = seat_rates(figures)
    stat, p = seat_uniformity([w for w, *_ in rates])
    fair = 1 / players
    return {
        "setting": label(options),
        "players": players,
        "games": games,
        "seats": rates,
        "outside": sum(1 for _, _, lo, hi in rates if lo > fair or hi < fair),
        "chi2": stat,
        "p": p,
        "rounds": statistics.fmean(f.rounds for f in figures),
        "rounds_max": max(f.rounds for f in figures),
        "built": statistics.fmean(f.built for f in figures),
        "capped": sum(f.capped for f in figures) / len(figures),
        "shared": sum(f.winner is None for f in figures),
    }


def print_row(row: dict[str, Any]) -> None:
    seats = "; ".join(f"{s + 1}: {pct(r)} ({pct(lo)}-{pct(hi)})"
                      for s, (_, r, lo, hi) in enumerate(row["seats"]))
    print(f"| {row['setting']} | {row['players']} | {row['games']} | {seats} | "
          f"{row['outside']} | {row['p']:.3f} | {row['rounds']:.1f} (max {row['rounds_max']}) | "
          f"{row['built']:.2f} | {pct(row['capped'])} | {row['shared']} |", flush=True)


def sweep(settings: list[str], players: list[int], games: int, seed: int) -> None:
    print("| setting | players | games | seat win rates (95% CI) | seats outside fair CI | "
          "chi-square p | mean rounds | levels built | capped | shared wins |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for text in settings:
        options = parse_setting(text)
        for count in players:
            print_row(sweep_row(options, count, games, seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("mode", choices=("why", "sweep"))
    parser.add_argument("--players", default="4", help="player counts, e.g. 2,3,4,5")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setting", action="append", default=None,
                        help='options as "key=value,key=value" ("" for the defaults); repeat')
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    settings = args.setting if args.setting is not None else [""]
    started = time.perf_counter()
    if args.mode == "why":
        for text in settings:
            for count in counts:
                why({**parse_setting(text), "players": count}, args.games, args.seed)
    else:
        sweep(settings, counts, args.games, args.seed)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
