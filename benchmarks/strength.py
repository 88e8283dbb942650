"""How strong the agents are: the figures docs/agents.md reports.

    python benchmarks/strength.py                       # every check, modest samples
    python benchmarks/strength.py --only pacal-mcts --games 40 --workers 2
    python benchmarks/strength.py --scale 0.25          # a quick look (fewer games)
    python benchmarks/strength.py --json

Each check runs the arena (seats rotated, every seed derived from --seed and the
game number, so a rerun gives the same games) and prints win rates with 95%
Wilson intervals next to the target. The MCTS checks give mcts an iteration
budget (`MCTS` for Pacal, `TEMPLE_MCTS` for Temple), which makes them
reproducible; on this machine that thinks no longer a move than the default
time budget, and the printed ms/move says so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from pyramids.core import load
from pyramids.sim.arena import (
    ArenaJob,
    parse_agents,
    resolve_game,
    run_arena,
    run_games,
    seconds_per_move,
    summarize,
)
from pyramids.sim.stats import wilson_interval

MCTS = "mcts:iterations=60"
TEMPLE_MCTS = "mcts:iterations=300"


def _rate(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return (f"{100 * row['win_rate']:5.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%, "
            f"{row['wins']}W {row['draws']}D {row['losses']}L of {row['games']})")


def head_to_head(game: str, agents: str, focus: str, games: int, workers: int, seed: int,
                 target: float, players: int | None = None,
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    summary = run_arena(game, agents, games, workers=workers, seed=seed, players=players,
                        options=options)
    row = summary["agents"][focus]
    return {
        "game": game,
        "agents": agents,
        "players": summary["players"],
        "options": summary["options"],
        "focus": focus,
        "result": row,
        "target": target,
        "met": row["win_rate"] > target,
        "ms_per_move": {k: round(1000 * v, 2) for k, v in summary["seconds_per_move"].items()},
        "elo": {k: v["elo"] for k, v in summary["agents"].items()},
    }


def solo(game: str, agents: str, games: int, workers: int, seed: int,
         options: dict[str, Any] | None = None, length_key: str = "draws") -> dict[str, Any]:
    """Each agent alone on the same `games` deals: win rate and the mean of `length_key`
    (e.g. Pacal solo draws) over the games it won."""
    specs = parse_agents(agents)
    resolved, chosen = resolve_game(game, options, None)
    job = ArenaJob(game, chosen, tuple(specs), seed, load)
    results = run_games(job, games * len(specs), workers)
    summary = summarize(results, [s.label for s in specs])
    rows = {}
    for spec in specs:
        mine = [r for r in results if r.seats[0] == spec.label]
        won = [r for r in mine if r.returns[0] > 0]
        lengths = [r.metrics[length_key] for r in won if length_key in r.metrics]
        every = [r.metrics[length_key] for r in mine if length_key in r.metrics]
        lo, hi = wilson_interval(len(won), len(mine))
        rows[spec.label] = {
            "games": len(mine),
            "wins": len(won),
            "win_rate": len(won) / len(mine),
            "ci95": [lo, hi],
            f"mean_{length_key}": statistics.fmean(every) if every else None,
            f"mean_{length_key}_when_won": statistics.fmean(lengths) if lengths else None,
        }
    # Paired: on how many deals each agent won where the other lost.
    won_deals = {spec.label: {r.deal for r in results
                              if r.seats[0] == spec.label and r.returns[0] > 0}
                 for spec in specs}
    paired = {}
    for i, first in enumerate(specs):
        for second in specs[i + 1:]:
            a, b = won_deals[first.label], won_deals[second.label]
            paired[f"{first.label} vs {second.label}"] = {
                f"only {first.label}": len(a - b), f"only {second.label}": len(b - a),
                "sign_test_z": _sign_z(len(a - b), len(b - a))}
    speeds = seconds_per_move(results)
    return {"game": game, "options": resolved.options, "agents": rows, "paired": paired,
            "elo": {k: v["elo"] for k, v in summary["agents"].items()},
            "ms_per_move": {k: round(1000 * v, 2) for k, v in speeds.items()}}


def _sign_z(only_first: int, only_second: int) -> float:
    """The sign test's z on the deals exactly one of two agents won (0 if none)."""
    split = only_first + only_second
    return round((only_first - only_second) / split**0.5, 2) if split else 0.0


def checks(scale: float, games: int | None = None, mcts: str | None = None
           ) -> dict[str, Callable[[int, int], dict[str, Any]]]:
    def n(base: int) -> int:
        return games if games else max(2, round(base * scale))

    pacal_mcts = mcts or MCTS
    temple_mcts = mcts or TEMPLE_MCTS

    return {
        "pacal-greedy": lambda w, s: head_to_head(
            "pacal", "greedy,random", "greedy", n(100), w, s, target=0.90),
        "pacal-mcts": lambda w, s: head_to_head(
            "pacal", f"{pacal_mcts},greedy", pacal_mcts, n(30), w, s, target=0.65),
        "pacal-solo": lambda w, s: solo("pacal-solo", "random,greedy,planner", n(200), w, s),
        "temple-mcts": lambda w, s: head_to_head(
            "temple", f"{temple_mcts},greedy", temple_mcts, n(16), w, s, target=0.50,
            players=4),
        "mahjongg-solo": lambda w, s: solo(
            "mahjongg", "greedy,planner", n(30), w, s, options={"layout": "turtle"},
            length_key="tiles_left"),
        "mahjongg-greedy": lambda w, s: head_to_head(
            "mahjongg", "greedy,random", "greedy", n(20), w, s, target=0.5, players=2),
    }


def print_check(name: str, figures: dict[str, Any], seconds: float) -> None:
    print(f"== {name} ({seconds:.0f} s)")
    if "result" in figures:
        target = figures["target"]
        verdict = "met" if figures["met"] else "NOT met"
        print(f"   {figures['focus']} in {figures['game']} ({figures['players']} players, "
              f"agents {figures['agents']}): {_rate(figures['result'])}; "
              f"target > {100 * target:.0f}%: {verdict}")
    else:
        for label, row in figures["agents"].items():
            extra = ", ".join(f"{k} {v:.2f}" for k, v in row.items()
                              if k.startswith("mean_") and v is not None)
            lo, hi = row["ci95"]
            print(f"   {label:10} wins {row['wins']}/{row['games']} = "
                  f"{100 * row['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
                  f"{'; ' + extra if extra else ''}")
    for pair, counts in figures.get("paired", {}).items():
        print(f"   paired {pair}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"   ms/move: {figures['ms_per_move']}; Elo: {figures['elo']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only these checks (repeatable)")
    parser.add_argument("--games", type=int, help="games for every chosen check")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the default samples")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mcts", help=f"the mcts agent (default {MCTS} for Pacal, "
                                       f"{TEMPLE_MCTS} for Temple)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    available = checks(args.scale, args.games, args.mcts)
    chosen = args.only or list(available)
    unknown = [c for c in chosen if c not in available]
    if unknown:
        parser.error(f"unknown check(s) {unknown}; allowed: {', '.join(available)}")
    results = {}
    for name in chosen:
        run = available[name]
        started = time.perf_counter()
        figures = run(args.workers, args.seed)
        figures["seconds"] = round(time.perf_counter() - started, 1)
        results[name] = figures
        if not args.json:
            print_check(name, figures, figures["seconds"])
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
