"""CPU time a move of one agent (a named level or any setting), one process, one core.

    python benchmarks/level_cpu.py temple hard --players 2 --games 20 --seed 71
    python benchmarks/level_cpu.py temple mcts:iterations=40 --players 4 --games 12

plays `games` games of `game` with the agent in one seat (rotated over the seats)
and `greedy` in the others (alone in a one-player game), on deals
`seed * 100000 + g // players`, and prints the agent's CPU milliseconds a move
(`time.process_time`, so other jobs on the machine slow it little) and its wins
(against the fair share), with a 95% Wilson interval.
It is the measure of the issue's "`hard` at most 50 ms a move on one core"
(docs/agents.md, the targets table); the arena's own figures are wall clock.
"""

from __future__ import annotations

import argparse
import time

from pyramids.agents import make_agent, parse_setting
from pyramids.core import load
from pyramids.sim.play import winner_of
from pyramids.sim.stats import wilson_interval


def measure(game_name: str, setting: str, players: int | None, games: int,
            seed: int) -> dict[str, float]:
    options = {"players": players} if players else {}
    game = load(game_name, **options)
    seats = game.num_players
    name, agent_options = parse_setting(setting)
    wins = moves = 0
    seconds = 0.0
    for g in range(games):
        state = game.new_initial_state(seed * 100_000 + g // seats)
        seat = g % seats
        tested = make_agent(name, seed=g, **agent_options)
        others = make_agent("greedy", seed=g + 1_000_000)
        while not state.is_terminal():
            if state.current_player == seat:
                started = time.process_time()
                action = tested.step(state)
                seconds += time.process_time() - started
                moves += 1
            else:
                action = others.step(state)
            state.apply_action(action)
        wins += winner_of(state.returns()) == seat
    low, high = wilson_interval(wins, games)
    return {"players": seats, "games": games, "wins": wins, "low": low, "high": high,
            "ms_per_move": 1000 * seconds / max(1, moves)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("game")
    parser.add_argument("agent", help="a level (easy..expert) or an agent setting")
    parser.add_argument("--players", type=int, help="seats, for games with a player count")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=71)
    args = parser.parse_args()
    figures = measure(args.game, args.agent, args.players, args.games, args.seed)
    seats = int(figures["players"])
    table = "alone" if seats == 1 else f"{seats} players, greedy in the other seats"
    share = "" if seats == 1 else f", fair share {1 / seats:.0%}"
    print(f"{args.agent} in {args.game} ({table}): {figures['ms_per_move']:.1f} ms CPU "
          f"a move; won {figures['wins']} of {args.games} "
          f"({figures['low']:.1%}-{figures['high']:.1%}{share})")


if __name__ == "__main__":
    main()
