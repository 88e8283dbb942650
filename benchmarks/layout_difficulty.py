"""Measured difficulty of every shipped Mahjongg layout, written to `blueprints/difficulty.json`.

    nice -n 10 python benchmarks/layout_difficulty.py                 # every layout, default sample
    nice -n 10 python benchmarks/layout_difficulty.py --deals 300 --games 50 --workers 2
    python benchmarks/layout_difficulty.py --layout great-sphinx --layout turtle
    python benchmarks/layout_difficulty.py --show                     # print the stored figures

For each layout, two samples, every random choice from a recorded seed:

- **random deals**: `deal_random(layout, Rng(seed))` for seeds `--first-seed`,
  +1, ... (`--deals` of them), each decided by the all-seeing solver
  (`solver.solve`, every face known) within `--node-limit` positions: how many
  are solvable, unsolvable and undecided, and the solver's median nodes;
- **solvable deals** (what a game deals): `deal_solvable_with_order` from the
  same seeds: the solver's median nodes to clear one, and, along the clearing
  each deal was built with, the mean number of free tiles and of matching free
  pairs before each move (the inputs of the solve-time model,
  `blueprints/difficulty.py`);
- **bot clear rates**: for each level (easy, medium, hard, expert;
  `agents/levels.py`) `--games` one-player Standard Expedition games with the
  game's default options (`deal=solvable`, 2 scarab tokens), game `i` from seed
  `--first-game-seed + i` for both the deal and the bot. The bots play from a
  player's view, so face-down tiles stay hidden from them. Stored: games and
  clears per level.

Results are merged into the data file layout by layout (a run with `--layout`
replaces only those), together with the sample sizes, seeds and budgets used,
so the file always says how it was made. The file is package data: the layout
list, `docs/layouts.md` and the tests read it. Wilson intervals and tiers are
computed when read (`blueprints/difficulty.py`), not stored.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, cast

from pyramids.agents.levels import LEVELS, LevelAgent
from pyramids.core.registry import load
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import layout_names, load_layout
from pyramids.games.mahjongg.blueprints.difficulty import (
    CALIBRATION,
    DATA_FILE,
    derive,
    difficulty_table,
    estimated_minutes,
    read_data,
)
from pyramids.games.mahjongg.deal import deal_random, deal_solvable_with_order
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.solver import solve
from pyramids.games.mahjongg.state import MahjonggState
from pyramids.games.mahjongg.tiles import match_classes
from pyramids.sim.play import play_game

# The measured fields of a record; all others are derived (`difficulty.derive`).
RAW_KEYS = ("tiles", "layers", "moves", "face_down", "random_deals", "solvable_deals", "bots",
            "seconds", "settings")
ACTIONS_PER_TILE = 3
DEFAULTS = {
    "deals": 30,
    "first_seed": 0,
    "node_limit": 1000,
    "games": 10,
    # The expert once was MCTS at some 30 times the others' cost a game, and got 3.
    # Since 2026-12-02 it is `determinized` (the solver's clearing where every face
    # shows), about as dear as the others on most layouts: the same sample.
    "expert_games": 10,
    "first_game_seed": 1000,
}


def path_figures(geometry: Geometry, faces: list[int], moves: list[tuple[int, int]]
                 ) -> tuple[float, float]:
    """Mean free tiles and mean matching free pairs before each move of a clearing."""
    classes = match_classes()
    present = geometry.all_mask
    free_counts: list[int] = []
    pair_counts: list[int] = []
    for a, b in moves:
        free = geometry.free_tiles(present)
        free_counts.append(len(free))
        per_class: dict[int, int] = {}
        for tile in free:
            key = classes[faces[tile]]
            per_class[key] = per_class.get(key, 0) + 1
        pair_counts.append(sum(n * (n - 1) // 2 for n in per_class.values()))
        present &= ~((1 << a) | (1 << b))
    return statistics.fmean(free_counts), statistics.fmean(pair_counts)


def measure_random_deals(name: str, deals: int, first_seed: int, node_limit: int
                         ) -> dict[str, Any]:
    """How many random deals the all-seeing solver proves solvable or not."""
    layout = load_layout(name)
    geometry = layout.geometry
    verdicts = {"deals": deals, "solvable": 0, "unsolvable": 0, "undecided": 0}
    nodes: list[int] = []
    for seed in range(first_seed, first_seed + deals):
        result = solve(geometry, deal_random(layout, Rng(seed)), node_limit=node_limit)
        nodes.append(result.nodes)
        verdict = {True: "solvable", False: "unsolvable", None: "undecided"}[result.solvable]
        verdicts[verdict] += 1
    return {**verdicts, "median_nodes": statistics.median(nodes)}


def measure_solvable_deals(name: str, deals: int, first_seed: int, node_limit: int
                           ) -> dict[str, Any]:
    """The deals players get (`deal=solvable`): solver nodes, and what a clearing shows.

    Along the clearing each deal is built with, before each move: the free
    tiles and the matching pairs among them (what a player scans for a move).
    """
    layout = load_layout(name)
    geometry = layout.geometry
    nodes: list[int] = []
    undecided = 0
    free_means: list[float] = []
    pair_means: list[float] = []
    for seed in range(first_seed, first_seed + deals):
        deal = deal_solvable_with_order(layout, Rng(seed))
        faces = list(deal.faces)
        result = solve(geometry, faces, node_limit=node_limit)
        nodes.append(result.nodes)
        undecided += result.solvable is None
        free_mean, pair_mean = path_figures(geometry, faces, list(deal.order))
        free_means.append(free_mean)
        pair_means.append(pair_mean)
    return {
        "deals": deals,
        "median_nodes": statistics.median(nodes),
        "undecided": undecided,
        "mean_free_tiles": round(statistics.fmean(free_means), 2),
        "mean_free_pairs": round(statistics.fmean(pair_means), 2),
    }


def measure_bots(name: str, games: int, expert_games: int, first_game_seed: int,
                 levels: tuple[str, ...] = LEVELS) -> dict[str, dict[str, int]]:
    game = load("mahjongg", layout=name)
    # A game that needs more actions than this is a bot going round in circles
    # (an expert that searched undo could repeat a match and its undo); it counts
    # as not cleared.
    max_actions = ACTIONS_PER_TILE * load_layout(name).size
    found = {}
    for level in levels:
        count = expert_games if level == "expert" else games
        clears = stalled = 0
        for seed in range(first_game_seed, first_game_seed + count):
            try:
                state = play_game(game, [LevelAgent(level, seed=seed)], seed=seed,
                                  max_actions=max_actions)
            except RuntimeError:
                stalled += 1
                continue
            clears += not cast(MahjonggState, state).present
        found[level] = {"games": count, "clears": clears, "stalled": stalled}
    return found


def measure_levels(name: str, settings: dict[str, Any], levels: tuple[str, ...]
                   ) -> dict[str, dict[str, int]]:
    """Only the bot clears of `levels` (after a level's setting changed)."""
    return measure_bots(name, settings["games"], settings["expert_games"],
                        settings["first_game_seed"], levels)


def measure(name: str, settings: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    layout = load_layout(name)
    record: dict[str, Any] = {
        "tiles": layout.size,
        "layers": layout.layers,
        "moves": layout.size // 2,
        "face_down": len(layout.face_down),
        "random_deals": measure_random_deals(
            name, settings["deals"], settings["first_seed"], settings["node_limit"]
        ),
        "solvable_deals": measure_solvable_deals(
            name, settings["deals"], settings["first_seed"], settings["node_limit"]
        ),
        "bots": measure_bots(name, settings["games"], settings["expert_games"],
                             settings["first_game_seed"]),
    }
    record["seconds"] = round(time.perf_counter() - started, 1)
    return record


def calibrate(data: dict[str, Any]) -> tuple[float, float, float]:
    """The model constants that best fit the source's table (least squares on logarithms).

    A grid search (the constants are few and the fit is cheap): seconds per
    move 0-60 by 0.5, seconds per free tile 0-5 by 0.1, retry weight 0-4 by 0.1.
    """
    records = [(data["layouts"][name], (low + high) / 2)
               for name, (low, high) in CALIBRATION.items()]
    best: tuple[float, float, float, float] | None = None
    for move_step in range(0, 121):
        for free_step in range(0, 51):
            for retry_step in range(0, 41):
                constants = (move_step / 2, free_step / 10, retry_step / 10)
                error = 0.0
                for record, target in records:
                    minutes = estimated_minutes(record, *constants)
                    if minutes <= 0:
                        error = math.inf
                        break
                    error += math.log(minutes / target) ** 2
                if best is None or error < best[0]:
                    best = (error, *constants)
    assert best is not None
    return best[1], best[2], best[3]


def derive_all(data: dict[str, Any]) -> None:
    """Store every record's derived figures (tier, estimated time, shares) beside it."""
    for record in data["layouts"].values():
        for key in list(record):
            if key not in RAW_KEYS:
                del record[key]
        record.update(derive(record))


def write_data(path: Path, data: dict[str, Any]) -> None:
    derive_all(data)
    data["layouts"] = dict(sorted(data["layouts"].items()))
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    temporary.replace(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--layout", action="append", help="a layout name (default: all)")
    parser.add_argument("--deals", type=int, default=DEFAULTS["deals"])
    parser.add_argument("--first-seed", type=int, default=DEFAULTS["first_seed"])
    parser.add_argument("--node-limit", type=int, default=DEFAULTS["node_limit"],
                        help="positions the solver may search on one deal (then: undecided)")
    parser.add_argument("--games", type=int, default=DEFAULTS["games"],
                        help="games per bot level")
    parser.add_argument("--expert-games", type=int, default=DEFAULTS["expert_games"],
                        help="games for the expert level (the costly one)")
    parser.add_argument("--first-game-seed", type=int, default=DEFAULTS["first_game_seed"])
    parser.add_argument("--level", action="append", choices=LEVELS, dest="levels",
                        help="measure only this level's bot clears again, keeping the rest "
                             "of each stored record (repeatable)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--output", type=Path, default=DATA_FILE)
    parser.add_argument("--show", action="store_true", help="print the stored figures")
    parser.add_argument("--calibrate", action="store_true",
                        help="fit the solve-time model to the source's table and print it")
    parser.add_argument("--derive", action="store_true",
                        help="measure nothing; store the derived figures again (after a "
                             "change of the model)")
    args = parser.parse_args()
    if args.show:
        for row in difficulty_table(read_data(args.output)):
            print(json.dumps(row))
        return 0
    if args.calibrate:
        data = read_data(args.output)
        constants = calibrate(data)
        print("SECONDS_PER_MOVE = {}\nSECONDS_PER_FREE_TILE = {}\nRETRY_WEIGHT = {}".format(
            *constants))
        for name, (low, high) in CALIBRATION.items():
            minutes = estimated_minutes(data["layouts"][name], *constants)
            inside = "inside" if low <= minutes <= high else "OUTSIDE"
            print(f"{name:16} {minutes:5.1f} min  (source {low}-{high}: {inside})")
        return 0
    if args.derive:
        data = read_data(args.output)
        write_data(args.output, data)
        return 0
    # The four blueprints the solve-time model is calibrated on go first.
    names = args.layout or sorted(layout_names(), key=lambda n: (n not in CALIBRATION, n))
    unknown = sorted(set(names) - set(layout_names()))
    if unknown:
        parser.error(f"unknown layout(s) {', '.join(unknown)}; see `pyramids layout list`")
    settings = {
        "deals": args.deals,
        "first_seed": args.first_seed,
        "node_limit": args.node_limit,
        "games": args.games,
        "expert_games": args.expert_games,
        "first_game_seed": args.first_game_seed,
        "actions_per_tile": ACTIONS_PER_TILE,
    }
    data = read_data(args.output) if args.output.exists() else {"layouts": {}}
    sample = {
        "deals": "deal_random(layout, Rng(seed)) and deal_solvable_with_order(layout, "
                 "Rng(seed)) for seed in first_seed .. first_seed + deals - 1",
        "games": "one-player standard games, default options, seed first_game_seed + i "
                 "for the deal and the bot, per level; a game past "
                 f"{ACTIONS_PER_TILE} actions a tile is stalled, not cleared",
        "command": "nice -n 10 python benchmarks/layout_difficulty.py "
                   f"--deals {args.deals} --node-limit {args.node_limit} --games {args.games} "
                   f"--expert-games {args.expert_games}",
    }
    data.setdefault("sample", sample)
    if args.levels:
        return measure_levels_again(args.output, data, names, settings, tuple(args.levels),
                                    args.workers)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = {pool.submit(measure, name, settings): name for name in names}
        for future in as_completed(futures):
            name = futures[future]
            record = future.result()
            record["settings"] = settings
            data["layouts"][name] = record
            data["sample"] = sample
            write_data(args.output, data)
            deals = record["random_deals"]
            clears = " ".join(f"{level} {b['clears']}/{b['games']}"
                              for level, b in record["bots"].items())
            print(f"{name:30} unsolvable {deals['unsolvable']}/{args.deals} "
                  f"undecided {deals['undecided']} nodes {deals['median_nodes']}  "
                  f"{clears}  ({record['seconds']} s)", flush=True)
    return 0


def measure_levels_again(path: Path, data: dict[str, Any], names: list[str],
                         settings: dict[str, Any], levels: tuple[str, ...],
                         workers: int) -> int:
    """`--level`: the given levels' clears measured again on stored layouts; the
    record's other figures, and the other levels', stay as they were."""
    missing = [name for name in names if name not in data["layouts"]]
    if missing:
        print(f"not measured yet: {', '.join(missing)}; measure them whole first "
              "(without --level)", file=sys.stderr)
        return 2
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(measure_levels, name, settings, levels): name for name in names}
        for future in as_completed(futures):
            name = futures[future]
            record = data["layouts"][name]
            found = future.result()
            record["bots"].update(found)
            record["settings"] = {**record.get("settings", {}),
                                  **{key: settings[key] for key in
                                     ("first_game_seed", "actions_per_tile")},
                                  **({"expert_games": settings["expert_games"]}
                                     if "expert" in levels else {}),
                                  **({"games": settings["games"]}
                                     if set(levels) - {"expert"} else {})}
            write_data(path, data)
            clears = " ".join(f"{level} {b['clears']}/{b['games']}" for level, b in found.items())
            print(f"{name:30} {clears}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
