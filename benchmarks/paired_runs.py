"""Two solo arena runs on the same deals, compared deal by deal.

    python benchmarks/paired_runs.py benchmarks/runs/mahjongg-pt-hidden-built-seed19.jsonl \
        benchmarks/runs/mahjongg-pt-hidden-expert-seed19.jsonl

Each file is what `pyramids arena GAME --agents ONE --seed S --results FILE` writes for
a one-player game. The runs must share the game, its options and the seed, so deal
`d` is the same deal in both. Printed: each run's wins over the deals both finished
(a 95% Wilson interval), the deals exactly one of them won, the sign test's z on
those, and each agent's mean seconds a move (wall clock, as the arena records it).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from pyramids.sim.stats import wilson_interval


def read_run(path: Path) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The arena header and the finished games by deal of one results file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise SystemExit(f"{path}: empty; expected an arena results file")
    header = json.loads(lines[0]).get("arena")
    if not header:
        raise SystemExit(f"{path}: the first line is no arena header")
    games: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            game = json.loads(line)["game"]
        except (ValueError, KeyError):
            if number == len(lines):
                break  # the run was stopped while writing its last line
            raise SystemExit(f"{path}, line {number}: not an arena result") from None
        if len(game["seats"]) != 1:
            raise SystemExit(f"{path}: a game of {len(game['seats'])} seats; "
                             "this compares one-player runs")
        games[game["deal"]] = game
    return header, games


def compare(first: Path, second: Path) -> dict[str, Any]:
    head_a, games_a = read_run(first)
    head_b, games_b = read_run(second)
    for key in ("game", "options", "seed"):
        if head_a[key] != head_b[key]:
            raise SystemExit(f"the runs differ in {key} ({head_a[key]!r} and {head_b[key]!r}): "
                             "their deals are not the same")
    deals = sorted(set(games_a) & set(games_b))
    won_a = {d for d in deals if games_a[d]["returns"][0] > 0}
    won_b = {d for d in deals if games_b[d]["returns"][0] > 0}
    only_a, only_b = len(won_a - won_b), len(won_b - won_a)
    split = only_a + only_b
    rows = []
    for games, won in ((games_a, won_a), (games_b, won_b)):
        label = games[deals[0]]["seats"][0] if deals else "?"
        seconds = sum(games[d]["seconds"][label] for d in deals)
        moves = sum(games[d]["moves"][label] for d in deals)
        rows.append({"agent": label, "won": len(won),
                     "ci95": wilson_interval(len(won), len(deals)),
                     "ms_per_move": 1000 * seconds / max(1, moves)})
    return {"deals": len(deals), "runs": rows, "only_first": only_a, "only_second": only_b,
            "sign_test_z": (only_a - only_b) / math.sqrt(split) if split else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args()
    figures = compare(args.first, args.second)
    deals = figures["deals"]
    print(f"{deals} deals finished in both runs")
    for row in figures["runs"]:
        lo, hi = row["ci95"]
        print(f"  {row['agent']}: won {row['won']} ({row['won'] / max(1, deals):.1%}, "
              f"95% CI {lo:.1%}-{hi:.1%}), {row['ms_per_move']:.0f} ms a move")
    first, second = (row["agent"] for row in figures["runs"])
    print(f"  won by {first} only: {figures['only_first']}; by {second} only: "
          f"{figures['only_second']}; sign test z = {figures['sign_test_z']:.2f}")


if __name__ == "__main__":
    main()
