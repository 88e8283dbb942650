"""Fit the Pacal solo completion model of the `lookahead` policy, and measure it.

    python benchmarks/pacal_solo_value.py fit --deals 20000 --seed 1 --lookahead-deals 3000
    python benchmarks/pacal_solo_value.py compare --deals 1000 --seed 7 lookahead greedy

`fit` plays seeded Pacal solo games through the engine, records every position
after a placement (its `shape_features`) with whether that game completed the
pyramid, and fits a logistic regression (Newton's method, a small ridge) to those
outcomes: `--deals` games played by `greedy` (deals `seed * 10**6 + i`), then, if
`--lookahead-deals` is given, that many more played by `lookahead` with the weights
just fitted (deals from `seed * 10**6 + 500000`), and a second fit on both, the
lookahead positions weighted `--lookahead-weight` times. It prints the weights
in the form `CHANCE_WEIGHTS` takes (paste them into
`src/pyramids/agents/greedy/pacal_lookahead.py`). Needs NumPy (the `rl` or `dev`
extra).

`compare` plays the named policies (`greedy`, `lookahead`, or any agent setting
such as `planner:rollouts=24`) on the same deals (`seed * 10**6 + i`) and prints
each one's completion rate with its 95% Wilson interval, the deals exactly one of
each two completed with the sign test's z, and CPU milliseconds a move.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

from pyramids.agents import make_agent, parse_setting
from pyramids.agents.greedy import pacal
from pyramids.agents.greedy.pacal_lookahead import CHANCE_WEIGHTS, lookahead_choose, shape_features
from pyramids.core import Rng, State, load
from pyramids.sim.stats import wilson_interval

Chooser = Callable[[State, Rng], int]


def _positions(choose: Chooser, deals: range) -> tuple[list[list[float]], list[float]]:
    game = load("pacal-solo")
    features: list[list[float]] = []
    outcomes: list[float] = []
    for deal in deals:
        state = game.new_initial_state(deal)
        rng = Rng(deal)
        rows = []
        while not state.is_terminal():
            state.apply_action(choose(state, rng))
            fields = state.view(0)["pyramid"]
            pyramid = pacal.pyramid_from_view(fields)
            if all(pyramid[0]):
                break
            # The position as the player left it: the card drawn since (which the
            # view shows, or which ended the game) was still to come.
            unseen = set(range(1, pacal.HIGHEST + 1)) - pacal.used_values([fields])
            rows.append(shape_features(pyramid, pacal.availability(unseen)))
        completed = float(state.returns()[0] > 0)
        features += rows
        outcomes += [completed] * len(rows)
    return features, outcomes


def fit(features: Any, outcomes: Any, weights: Any = None, ridge: float = 1e-3,
        rounds: int = 50) -> Any:
    import numpy as np

    x = np.asarray(features, dtype=float)
    y = np.asarray(outcomes, dtype=float)
    sample = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (sample * (p - y)) + ridge * w
        hessian = (x * (sample * p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _weights_text(w: Any) -> str:
    return "(\n    " + ", ".join(f"{v:.4f}" for v in w) + ",\n)"


def run_fit(deals: int, seed: int, lookahead_deals: int, lookahead_weight: float) -> None:
    import numpy as np

    from pyramids.agents.greedy import pacal_lookahead

    base = seed * 10**6
    x, y = _positions(pacal.choose, range(base, base + deals))
    print(f"greedy: {deals} games, {len(y)} positions, completed {np.mean(y):.3f} of positions")
    w = fit(x, y)
    print("fitted on greedy games:", _weights_text(w))
    if lookahead_deals:
        pacal_lookahead.CHANCE_WEIGHTS = tuple(float(v) for v in w)
        start = base + 500_000
        lx, ly = _positions(lookahead_choose, range(start, start + lookahead_deals))
        print(f"lookahead: {lookahead_deals} games, {len(ly)} positions, "
              f"completed {np.mean(ly):.3f} of positions")
        sample = [1.0] * len(y) + [lookahead_weight] * len(ly)
        w = fit(x + lx, y + ly, sample)
        print("fitted on both:", _weights_text(w))
    print("CHANCE_WEIGHTS =", _weights_text(w))


def _chooser(name: str, seed: int) -> tuple[Chooser, Any]:
    if name == "greedy":
        return pacal.choose, None
    if name == "lookahead":
        return lookahead_choose, None
    agent_name, options = parse_setting(name)
    agent = make_agent(agent_name, seed=seed, **options)
    return (lambda state, rng: agent.step(state)), agent


def run_compare(names: list[str], deals: int, seed: int) -> None:
    game = load("pacal-solo")
    base = seed * 10**6
    results: dict[str, list[bool]] = {}
    for name in names:
        chooser, _ = _chooser(name, seed)
        completed: list[bool] = []
        seconds, moves = 0.0, 0
        for deal in range(base, base + deals):
            state = game.new_initial_state(deal)
            rng = Rng(deal)
            while not state.is_terminal():
                started = time.process_time()
                action = chooser(state, rng)
                seconds += time.process_time() - started
                moves += 1
                state.apply_action(action)
            completed.append(state.returns()[0] > 0)
        results[name] = completed
        wins = sum(completed)
        low, high = wilson_interval(wins, deals)
        print(f"{name}: completed {wins} of {deals} ({100 * wins / deals:.1f}%, "
              f"95% CI {100 * low:.1f}-{100 * high:.1f}%), "
              f"{1000 * seconds / max(moves, 1):.2f} ms a move (CPU)", flush=True)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            only_a = sum(x and not y for x, y in zip(results[a], results[b], strict=True))
            only_b = sum(y and not x for x, y in zip(results[a], results[b], strict=True))
            z = (only_a - only_b) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
            print(f"{a} alone {only_a}, {b} alone {only_b}: sign test z = {z:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    sub = parser.add_subparsers(dest="command", required=True)
    fit_parser = sub.add_parser("fit", allow_abbrev=False)
    fit_parser.add_argument("--deals", type=int, default=20000)
    fit_parser.add_argument("--seed", type=int, default=1)
    fit_parser.add_argument("--lookahead-deals", type=int, default=0)
    fit_parser.add_argument("--lookahead-weight", type=float, default=3.0)
    compare_parser = sub.add_parser("compare", allow_abbrev=False)
    compare_parser.add_argument("--deals", type=int, default=1000)
    compare_parser.add_argument("--seed", type=int, default=7)
    compare_parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    if args.command == "fit":
        run_fit(args.deals, args.seed, args.lookahead_deals, args.lookahead_weight)
    else:
        run_compare(args.names, args.deals, args.seed)


if __name__ == "__main__":
    print("current CHANCE_WEIGHTS:", CHANCE_WEIGHTS)
    main()
