"""What the move log costs a move: random games played with and without it.

    python benchmarks/movelog.py [--games 20] [--seed 0]

For each game, the same random games (same seeds, same moves) are played with
`state.apply_action` alone, through `MoveLog.record` following every audience
(each seat and the spectators: every view read and the move told to each), and
following seat 0 only (what the server does for a person playing bots: it follows
only the audiences with a socket connected). It prints the CPU milliseconds a
move costs without the log and what each log adds, the cost of putting an entry
into words, and what catching up an audience that joins at the end costs (the
spectators' log of the whole game replayed from its start).
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


def play(game: str, options: dict[str, object],
         plays: list[tuple[int, list[int]]], follow: set[int | None] | None | bool
         ) -> tuple[float, list[MoveLog]]:
    """CPU seconds to play `plays`: with no log (`follow` False), a log that follows
    every audience (None) or only `follow`."""
    logs = []
    started = time.process_time()
    for deal, moves in plays:
        state = load(game, **options).new_initial_state(deal)
        if follow is False:
            for action in moves:
                state.apply_action(action)
            continue
        log = MoveLog(game, start=state.clone())
        for action in moves:
            actor, text = state.current_player, state.action_to_string(action)
            log.record(state, actor, text, False, partial(state.apply_action, action),
                       follow=follow)
        logs.append(log)
    return time.process_time() - started, logs


def measure(game: str, options: dict[str, object], games: int, seed: int) -> None:
    plays = [(seed + n, moves_of(game, options, seed + n)) for n in range(games)]
    total = sum(len(moves) for _seed, moves in plays)
    plain, _ = play(game, options, plays, False)
    logged, logs = play(game, options, plays, None)
    one, followed = play(game, options, plays, {0})
    started = time.process_time()
    worded = 0
    for log in logs:
        for audience in log.entries:
            worded += len(log.as_json(audience, "ko"))
    wording = time.process_time() - started
    started = time.process_time()
    for log in followed:
        log.catch_up(None)
    joining = time.process_time() - started

    def per_move(seconds: float) -> str:
        return f"{1000 * seconds / total:6.3f}"

    print(f"{game:<11} {total:>6} moves  plain {per_move(plain)}  every audience "
          f"+{per_move(logged - plain)}  seat 0 only +{per_move(one - plain)} ms a move;  "
          f"words {1000 * wording / worded:5.3f} ms an entry;  a spectator joining at the "
          f"end {1000 * joining / len(followed):6.1f} ms a game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for game, options in GAMES:
        measure(game, options, args.games, args.seed)


if __name__ == "__main__":
    main()
