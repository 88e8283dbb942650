"""Random self-play throughput through the public API, per registered game.

    python benchmarks/throughput.py                 # every game, defaults, ~3 s each
    python benchmarks/throughput.py --game pacal --seconds 10
    python benchmarks/throughput.py --option players=2 --game temple
    python benchmarks/throughput.py --env           # also the RL adapters, per game

With `--env`, each game is also stepped through the adapters that serve it
(the `rl` and `openspiel` extras): the PettingZoo AEC env (observe + step,
masked random actions), the Gymnasium env for one-player games, and the
OpenSpiel game (legal_actions + apply_action, no observation). Each figure is
env steps per second beside the native one, and the ratio native/adapter.

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


def _masked_choice(rng: random.Random, mask) -> int:
    return rng.choice(mask.nonzero()[0].tolist())


def measure_env(name: str, options: dict[str, object], seconds: float,
                seed: int = 0) -> dict[str, float]:
    """Env steps per second through each adapter that serves this game (missing extras skip)."""
    figures: dict[str, float] = {}
    rng = random.Random(seed)
    game = pyramids.load(name, **options)
    try:
        import pyramids.rl as rl
    except ImportError:
        return figures
    rl.encoder_for(game)  # the layout probe is paid once per process, not per step
    env = rl.env(name, **options)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(_masked_choice(rng, observation["action_mask"]))
                steps += 1
        episodes += 1
    figures["pettingzoo"] = steps / (time.perf_counter() - start)
    if game.num_players == 1:
        import gymnasium

        genv = gymnasium.make(rl.env_id(name), **options).unwrapped
        steps = episodes = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, info = genv.reset(seed=seed + episodes)
            done = False
            while not done:
                _, _, done, _, info = genv.step(_masked_choice(rng, info["action_mask"]))
                steps += 1
            episodes += 1
        figures["gymnasium"] = steps / (time.perf_counter() - start)
    try:
        import pyspiel

        import pyramids.openspiel as po
    except ImportError:
        return figures
    spiel_game = pyspiel.load_game(po.short_name(name), options)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = spiel_game.new_initial_state()
        state.apply_action(seed + episodes)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        episodes += 1
    figures["openspiel"] = steps / (time.perf_counter() - start)
    return figures


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
    parser.add_argument("--env", action="store_true",
                        help="also env steps/s through the PettingZoo, Gymnasium and OpenSpiel "
                        "adapters")
    args = parser.parse_args()
    names = args.game or pyramids.game_names()
    results = [measure(name, dict(args.option), args.seconds) for name in names]
    if args.env:
        for result in results:
            figures = measure_env(result["game"], dict(args.option), args.seconds)
            result["env_steps_per_second"] = {k: round(v) for k, v in figures.items()}
            result["env_cost"] = {k: round(result["actions_per_second"] / v, 2)
                                  for k, v in figures.items()}
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'game':12} {'actions/s':>10} {'games/s':>9} {'mean len':>9} {'games':>7}")
    for r in results:
        print(
            f"{r['game']:12} {r['actions_per_second']:>10,} {r['games_per_second']:>9} "
            f"{r['mean_actions']:>9} {r['games']:>7}"
        )
    if args.env:
        print(f"\n{'game':12} {'adapter':11} {'steps/s':>10} {'cost (native/adapter)':>22}")
        for r in results:
            for adapter, rate in r["env_steps_per_second"].items():
                print(f"{r['game']:12} {adapter:11} {rate:>10,} {r['env_cost'][adapter]:>21}x")


if __name__ == "__main__":
    main()
