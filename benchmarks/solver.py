"""The full-information Mahjongg solver on random deals: verdicts, time, nodes.

    python benchmarks/solver.py                          # 2000 random Turtle deals
    python benchmarks/solver.py --deals 200 --layout turtle --time-limit 10
    python benchmarks/solver.py --deals 200 --without transposition
    python benchmarks/solver.py --deals 100 --compare    # each speed-up turned off in turn

Deals are `deal_random(layout, Rng(seed))` for seeds `--first-seed`, +1, ... (the
deal `pyramids play mahjongg --seed S` starts from with `deal=random`). Each is
solved on one core with `--node-limit` / `--time-limit` as budget (a deal that
runs out counts as undecided). Printed: deals decided, the unsolvable share with
a 95% Wilson interval (reference: 2.95% of 10,000,000 Turtle deals, de Bondt),
median / p90 / p99 / max milliseconds per deal (wall time), nodes per deal and
microseconds per node, then the median, p99 and total CPU time of this process
(which other work on a loaded machine does not inflate).
`--implementation python|compiled` picks the solver (default: $PYRAMIDS_SOLVER,
else the compiled core when it is built; both give the same answers).
`--without NAME` turns off one speed-up of `SolverOptions` (repeatable);
`--compare` runs the same deals once with all speed-ups and once without each.
`--workers N` solves N deals at a time in local processes, `--backend ray` (with
`--address` or RAY_ADDRESS) on a Ray cluster; verdicts and node counts are the
same on every backend (with `--node-limit` as the only budget, exactly; a
`--time-limit` cap can end a starved deal sooner).
`--standard-tiles` deals the classic 36 groups of four identical tiles instead
of this game's set, for comparison with the published share (this game's wild
seasons and elements, six each, and pantheon pairs of eight make fewer deals
unsolvable).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from dataclasses import dataclass, fields, replace

from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import deal_random
from pyramids.games.mahjongg.solver import (
    IMPLEMENTATIONS,
    SolverOptions,
    choose_implementation,
    solve,
    solve_classes,
)
from pyramids.sim.backends import BACKENDS, Backend, make_backend, run_indexed

SPEED_UPS = [f.name for f in fields(SolverOptions)]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    if not trials:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class DealJob:
    """What every deal of a run shares; deal `i` is seed `first_seed + i`."""

    layout_name: str
    first_seed: int
    options: SolverOptions
    node_limit: int | None
    time_limit: float | None
    standard_tiles: bool
    implementation: str | None


def solve_deal(job: DealJob, index: int) -> tuple[float, float, int, bool | None]:
    """Deal `index` of a run: wall and CPU milliseconds, nodes and the verdict."""
    seed = job.first_seed + index
    layout = load_layout(job.layout_name)
    if job.standard_tiles:
        # The classic set: groups of four identical tiles, shuffled by the seed.
        groups = [tile // 4 for tile in range(layout.size)]
        Rng(seed).shuffle(groups)
        start, cpu_start = time.perf_counter(), time.process_time()
        result = solve_classes(
            layout.geometry, groups, node_limit=job.node_limit, time_limit=job.time_limit,
            options=job.options, implementation=job.implementation,
        )
    else:
        faces = deal_random(layout, Rng(seed))
        start, cpu_start = time.perf_counter(), time.process_time()
        result = solve(
            layout.geometry, faces, node_limit=job.node_limit, time_limit=job.time_limit,
            options=job.options, implementation=job.implementation,
        )
    return ((time.perf_counter() - start) * 1000, (time.process_time() - cpu_start) * 1000,
            result.nodes, result.solvable)


def run(
    layout_name: str,
    deals: int,
    first_seed: int,
    options: SolverOptions,
    node_limit: int | None,
    time_limit: float | None,
    label: str,
    progress: bool,
    standard_tiles: bool = False,
    implementation: str | None = None,
    backend: Backend | None = None,
) -> dict[str, object]:
    job = DealJob(layout_name, first_seed, options, node_limit, time_limit, standard_tiles,
                  implementation)
    finished = 0

    def count(n: int) -> None:
        nonlocal finished
        before, finished = finished, finished + n
        if progress and finished // 100 > before // 100:
            print(f"  ... {finished} deals", flush=True)

    rows = run_indexed(solve_deal, job, deals, backend, count)
    times = [row[0] for row in rows]
    # (the CPU time of the process that solved the deal: what other load does not inflate)
    cpu_times = [row[1] for row in rows]
    nodes = [row[2] for row in rows]
    unsolvable = [first_seed + i for i, row in enumerate(rows) if row[3] is False]
    undecided = [first_seed + i for i, row in enumerate(rows) if row[3] is None]
    decided = deals - len(undecided)
    low, high = wilson(len(unsolvable), decided)
    return {
        "label": label,
        "layout": layout_name,
        "deals": deals,
        "first_seed": first_seed,
        "decided": decided,
        "unsolvable": len(unsolvable),
        "unsolvable_share": len(unsolvable) / decided if decided else None,
        "unsolvable_ci95": [round(low, 4), round(high, 4)],
        "median_ms": round(statistics.median(times), 2),
        "p90_ms": round(percentile(times, 0.90), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
        "total_s": round(sum(times) / 1000, 1),
        "cpu_median_ms": round(statistics.median(cpu_times), 2),
        "cpu_p99_ms": round(percentile(cpu_times, 0.99), 2),
        "cpu_total_s": round(sum(cpu_times) / 1000, 1),
        "implementation": choose_implementation(implementation),
        "median_nodes": statistics.median(nodes),
        "p99_nodes": percentile([float(n) for n in nodes], 0.99),
        "max_nodes": max(nodes),
        # Time per node over all deals: the search's cost, apart from its luck.
        "us_per_node": round(1000 * sum(times) / max(1, sum(nodes)), 1),
        "unsolvable_seeds": unsolvable,
        "undecided_seeds": undecided,
    }


def show(row: dict[str, object]) -> None:
    share = row["unsolvable_share"]
    share_text = "n/a" if share is None else f"{100 * float(share):.2f}%"  # type: ignore[arg-type]
    low, high = row["unsolvable_ci95"]  # type: ignore[misc]
    print(
        f"{row['label']:24} decided {row['decided']}/{row['deals']}  "
        f"unsolvable {row['unsolvable']} ({share_text}, 95% CI {100 * low:.2f}-{100 * high:.2f}%)  "
        f"ms median {row['median_ms']} p90 {row['p90_ms']} p99 {row['p99_ms']} "
        f"max {row['max_ms']}  nodes median {row['median_nodes']} p99 {row['p99_nodes']} "
        f"max {row['max_nodes']}  {row['us_per_node']} us/node  total {row['total_s']} s"
    )
    print(
        f"{'':24} {row['implementation']} solver; CPU time: median {row['cpu_median_ms']} ms "
        f"p99 {row['cpu_p99_ms']} ms total {row['cpu_total_s']} s"
    )
    if row["undecided_seeds"]:
        print(f"{'':24} undecided seeds: {row['undecided_seeds']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--layout", default="turtle")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--node-limit", type=int, default=None)
    parser.add_argument(
        "--time-limit", type=float, default=60.0, help="seconds per deal (default 60)"
    )
    parser.add_argument("--without", action="append", default=[], choices=SPEED_UPS)
    parser.add_argument("--compare", action="store_true", help="also without each speed-up")
    parser.add_argument(
        "--standard-tiles", action="store_true",
        help="36 groups of four identical tiles (the set of the published 2.95%%) instead of "
        "this game's tiles (whose wild seasons, elements and pantheon pairs match more freely)",
    )
    parser.add_argument(
        "--implementation", choices=IMPLEMENTATIONS, default=None,
        help="the solver to time (default: $PYRAMIDS_SOLVER, else compiled when built)",
    )
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="where the deals are solved: local processes or a Ray cluster")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes (each deal still runs on one core)")
    parser.add_argument("--address", default=None,
                        help="Ray cluster (default: $RAY_ADDRESS, else a local instance)")
    args = parser.parse_args()
    backend = make_backend(args.backend, args.workers, args.address)
    base = replace(SolverOptions(), **{name: False for name in args.without})
    runs = [("all on" if not args.without else "without " + ",".join(args.without), base)]
    if args.compare:
        runs += [(f"without {name}", replace(base, **{name: False})) for name in SPEED_UPS
                 if getattr(base, name)]
    for label, options in runs:
        row = run(
            args.layout, args.deals, args.first_seed, options, args.node_limit,
            args.time_limit, label, args.progress, args.standard_tiles, args.implementation,
            backend,
        )
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            show(row)


if __name__ == "__main__":
    main()
