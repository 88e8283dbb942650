"""What the move log costs a move: random games played with and without it.

    python benchmarks/movelog.py [--games 20] [--seed 0]

For each game, the same random games (same seeds, same moves) are played twice:
with `state.apply_action` alone, and through `MoveLog.record`, which reads every
audience's view (each seat and the spectators) and tells the move to each. It
prints the milliseconds a move costs each way, the difference (what the server
adds to a move for its log), and the cost of putting an entry into words.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from pyramids.core import load
from pyramids.play.movelog import MoveLog

GAMES = (("pacal", {}), ("pacal-solo", {}), ("temple", {"players": 4}),
         ("mahjongg", {"players": 2}))


def moves_of(game: str, options: dict[str, object], seed: int) -> list[int]:
    state = load(game, **options).new_initial_state(seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_terminal() and len(moves) < 2000:
        action = rng.choice(state.legal_actions())
        moves.append(action)
        state.apply_action(action)
    return moves


def measure(game: str, options: dict[str, object], games: int, seed: int) -> None:
    plays = [(seed + n, moves_of(game, options, seed + n)) for n in range(games)]
    total = sum(len(moves) for _seed, moves in plays)
    started = time.perf_counter()
    for deal, moves in plays:
        state = load(game, **options).new_initial_state(deal)
        for action in moves:
            state.apply_action(action)
    plain = time.perf_counter() - started
    logs = []
    started = time.perf_counter()
    for deal, moves in plays:
        state = load(game, **options).new_initial_state(deal)
        log = MoveLog(game)
        for action in moves:
            actor, text = state.current_player, state.action_to_string(action)
            log.record(state, actor, text, False, partial(state.apply_action, action))
        logs.append(log)
    logged = time.perf_counter() - started
    started = time.perf_counter()
    worded = 0
    for log in logs:
        for audience in log.entries:
            worded += len(log.as_json(audience, "ko"))
    wording = time.perf_counter() - started
    print(f"{game:<11} {total:>7} moves  plain {1000 * plain / total:7.3f} ms  "
          f"logged {1000 * logged / total:7.3f} ms  log adds {1000 * (logged - plain) / total:7.3f}"
          f" ms a move  words {1000 * wording / worded:6.3f} ms an entry")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for game, options in GAMES:
        measure(game, options, args.games, args.seed)


if __name__ == "__main__":
    main()
