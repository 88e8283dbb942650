"""Random self-play throughput through the public API, per registered game.

    python benchmarks/throughput.py                 # every game, defaults, ~3 s each
    python benchmarks/throughput.py --game pacal --seconds 10
    python benchmarks/throughput.py --option players=2 --game temple

It plays random games (legal_actions + apply_action, the loop an agent or an RL
trainer runs) on one core for a fixed wall time and prints actions/s and games/s.
The random choice uses Python's `random` so that the figure is the engine's.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import pyramids


def measure(name: str, options: dict[str, object], seconds: float, seed: int = 0) -> dict:
    game = pyramids.load(name, **options)
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state(seed + games)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "options": options,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(actions / elapsed),
        "games_per_second": round(games / elapsed, 2),
        "mean_actions": round(actions / max(games, 1), 1),
    }


def parse_option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game name (repeatable; default all)")
    parser.add_argument("--option", action="append", type=parse_option, default=[])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = args.game or pyramids.game_names()
    results = [measure(name, dict(args.option), args.seconds) for name in names]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'game':12} {'actions/s':>10} {'games/s':>9} {'mean len':>9} {'games':>7}")
    for r in results:
        print(
            f"{r['game']:12} {r['actions_per_second']:>10,} {r['games_per_second']:>9} "
            f"{r['mean_actions']:>9} {r['games']:>7}"
        )


if __name__ == "__main__":
    main()
