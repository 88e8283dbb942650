"""How much Mahjongg's structural shifts and Tile Reveal ease a monument, measured
with the `hard` bot (greedy), which reads only the faces a player sees.

    nice -n 10 python benchmarks/mahjongg_shifts.py                 # 100 deals
    nice -n 10 python benchmarks/mahjongg_shifts.py --deals 30 --layout great-zenith

The same deals (seeds 0..N-1, `deal=solvable`, one player, standard mode) are
played four ways: structural shifts off and on, each with the Tile Reveal favor
off and on. It prints the clear rate of each with its Wilson 95% interval, how
many pairs were removed while face-down tiles remained, and how many tiles the
shifts and the reveals turned up. Every deal can be cleared by the all-seeing
solver either way: the rules only change what the bot knows (rules page).
"""

from __future__ import annotations

import argparse
import json
import time

import pyramids
from pyramids.agents.greedy.mahjongg import choose
from pyramids.core.rng import Rng
from pyramids.sim.stats import wilson_interval

SETTINGS = (
    ("shifts off, reveal off", {"structural_shifts": False, "reveal_favor": False}),
    ("shifts on, reveal off", {"structural_shifts": True, "reveal_favor": False}),
    ("shifts off, reveal on", {"structural_shifts": False, "reveal_favor": True}),
    ("shifts on, reveal on", {"structural_shifts": True, "reveal_favor": True}),
)


def play(options: dict[str, object], seed: int) -> dict[str, int]:
    game = pyramids.load("mahjongg", **options)
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    settled = revealed = 0
    while not state.is_terminal():
        action = choose(state, rng)
        text = state.action_to_string(action)
        state.apply_action(action)
        revealed += text.startswith("reveal ")
        settled += len((getattr(state, "last_move", None) or {}).get("settled", ()))
    cleared = int(state.returns()[0] > 0)  # one player: +1 exactly when cleared
    return {"cleared": cleared, "settled": settled, "revealed": revealed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--layout", default="great-zenith")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    baseline: list[int] = []
    for label, setting in SETTINGS:
        start = time.perf_counter()
        totals = {"cleared": 0, "settled": 0, "revealed": 0}
        cleared = []
        for seed in range(args.deals):
            outcome = play({"layout": args.layout, **setting}, seed)
            cleared.append(outcome["cleared"])
            for key, value in outcome.items():
                totals[key] += value
        baseline = baseline or cleared
        # Paired with the first setting on the same deals (the discordant deals).
        gained = sum(1 for now, then in zip(cleared, baseline, strict=True) if now > then)
        lost = sum(1 for now, then in zip(cleared, baseline, strict=True) if now < then)
        low, high = wilson_interval(totals["cleared"], args.deals)
        rows.append({"setting": label, "deals": args.deals, **totals, "gained": gained,
                     "lost": lost,
                     "clear_rate": totals["cleared"] / args.deals, "ci95": [low, high],
                     "seconds": round(time.perf_counter() - start, 1)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{args.layout}, {args.deals} deals, hard bot (greedy), deal=solvable")
    for row in rows:
        low, high = row["ci95"]
        print(f"  {row['setting']:24} cleared {row['cleared']:4} ({row['clear_rate']:.1%}, "
              f"CI {low:.1%}-{high:.1%}); tiles settled {row['settled']}, "
              f"revealed {row['revealed']}; against the first: +{row['gained']} "
              f"-{row['lost']} deals; {row['seconds']} s")


if __name__ == "__main__":
    main()
