"""The bots' ratings on the players' Glicko-2 scale, from an arena round robin.

    nice -n 10 python benchmarks/bot_ratings.py --game pacal --agents random,easy,medium,hard \
        --games 96 --workers 2
    nice -n 10 python benchmarks/bot_ratings.py --game temple --agents random,easy,medium,hard \
        --players 2 --games 96 --workers 2

Runs `pyramids arena --json` (seats rotated, every deal played by every lineup) and
turns its Bradley-Terry Elo (the same 400-log10 scale as Glicko's ratings) into
fixed bot ratings: shifted so that `medium` is 1500, where a new player starts
(a newcomer is presumed as strong as the medium bot, whom the lobby offers first),
with a deviation from how much the arena games tell about each bot (Glicko-2's
variance of its games against the others, at the fitted ratings). The result is
merged into src/pyramids/web/bot_ratings.json, which the server reads
(`pyramids.web.ratings.bot_ratings`); commit it with the command you ran.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "pyramids" / "web" / "bot_ratings.json"
ANCHOR = "medium"
ANCHOR_RATING = 1500.0
Q = math.log(10) / 400


def deviation(rating: float, opponents: list[tuple[float, int]]) -> float:
    """Glicko's deviation after `games` against opponents known exactly: 1/sqrt(d^-2)."""
    information = 0.0
    for other, games in opponents:
        expected = 1 / (1 + 10 ** ((other - rating) / 400))
        information += games * Q * Q * expected * (1 - expected)
    return 350.0 if information <= 0 else min(350.0, 1 / math.sqrt(information))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--game", required=True)
    parser.add_argument("--agents", default="random,easy,medium,hard")
    parser.add_argument("--games", type=int, default=96)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dry-run", action="store_true", help="print, do not write the data")
    args = parser.parse_args()
    pyramids = str(Path(sys.executable).with_name("pyramids"))
    command = [pyramids, "arena", args.game, "--agents", args.agents,
               "--games", str(args.games), "--workers", str(args.workers),
               "--seed", str(args.seed), "--json"]
    if args.players:
        command += ["--players", str(args.players)]
    print("running:", " ".join(command[1:]), file=sys.stderr)
    summary = json.loads(subprocess.run(command, check=True, capture_output=True,
                                        text=True).stdout)
    agents = summary["agents"]
    elo = {name: float(figures["elo"]) for name, figures in agents.items()
           if figures.get("elo") is not None}
    shift = ANCHOR_RATING - elo.get(ANCHOR, sum(elo.values()) / len(elo))
    games_each = {name: figures["games"] for name, figures in agents.items()}
    others = len(elo) - 1
    rated = {}
    for name, value in elo.items():
        opponents = [(elo[other] + shift, games_each[name] // max(1, others))
                     for other in elo if other != name]
        rating = value + shift
        rated[name] = {"rating": round(rating, 1),
                       "deviation": round(deviation(rating, opponents), 1),
                       "volatility": 0.06, "games": games_each[name]}
    print(json.dumps(rated, indent=2))
    if args.dry_run:
        return
    data = json.loads(DATA.read_text()) if DATA.exists() else {"games": {}}
    data["games"][args.game] = rated
    data.setdefault("commands", {})[args.game] = "python benchmarks/bot_ratings.py " + " ".join(
        sys.argv[1:])
    DATA.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    print(f"wrote {DATA.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
