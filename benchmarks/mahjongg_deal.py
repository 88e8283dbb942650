"""Time of a solvable Mahjongg deal (remove-in-reverse), per shipped layout.

    python benchmarks/mahjongg_deal.py                  # every layout, 200 deals each
    python benchmarks/mahjongg_deal.py --deals 500 --layout turtle
    python benchmarks/mahjongg_deal.py --random         # also time deal_random

For each layout it deals `--deals` times from seeds 0, 1, ... on one core and
prints the median, the 99th percentile and the maximum in milliseconds of the
whole call (target: a 144-tile blueprint under 50 ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import layout_names, load_layout
from pyramids.games.mahjongg.deal import deal_random, deal_solvable


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def measure(name: str, deals: int, solvable: bool = True) -> dict[str, object]:
    layout = load_layout(name)
    layout.geometry  # noqa: B018  (built once per layout, outside the timing)
    deal = deal_solvable if solvable else deal_random
    times = []
    for seed in range(deals):
        start = time.perf_counter()
        deal(layout, Rng(seed))
        times.append((time.perf_counter() - start) * 1000)
    return {
        "layout": name,
        "deal": "solvable" if solvable else "random",
        "tiles": layout.size,
        "deals": deals,
        "median_ms": round(statistics.median(times), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layout", action="append", help="a layout name (default: all)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--random", action="store_true", help="also time deal_random")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args()
    for name in args.layout or layout_names():
        rows = [measure(name, args.deals)]
        if args.random:
            rows.append(measure(name, args.deals, solvable=False))
        for row in rows:
            if args.json:
                print(json.dumps(row))
            else:
                print(
                    f"{row['layout']:26} {row['deal']:8} {row['tiles']:4} tiles  "
                    f"median {row['median_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms  "
                    f"max {row['max_ms']:7.2f} ms"
                )


if __name__ == "__main__":
    main()
