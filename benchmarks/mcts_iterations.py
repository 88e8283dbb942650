"""How many iterations a clock-budgeted `mcts` reaches a move on this machine.

    python benchmarks/mcts_iterations.py temple --players 4 --games 1 --seed 900

plays `games` games with the same `mcts` setting (default: plain `mcts`, which
thinks `DEFAULT_TIME` seconds a move) in every seat, on deals `seed + g`, and
prints the iterations its searches made: mean, median, quartiles, and the mean
over each third of the game (the searches get cheaper as the game nears its end,
so a clock buys more of them late). A move with one legal action is not searched
(at any budget), so it is counted apart and left out of the figures.

A run against "today's `mcts`" (issue #19) gives it the mean as a fixed
`iterations=N`: an iteration budget replays exactly from its seed and does not
weaken when the machine is busy, which a clock does. Run this on a free core;
the figure is this machine's, and docs/agents.md says which one a run used.
"""

from __future__ import annotations

import argparse
import statistics

from pyramids.agents import MctsAgent, make_agent, parse_setting
from pyramids.core import load


def iterations_by_move(game_name: str, setting: str, players: int | None, games: int,
                       seed: int) -> list[list[int]]:
    """The iterations of every move, game by game, in move order (0 for a move with
    one legal action, which `mcts` plays without a search)."""
    options = {"players": players} if players else {}
    game = load(game_name, **options)
    name, agent_options = parse_setting(setting)
    runs: list[list[int]] = []
    for g in range(games):
        state = game.new_initial_state(seed + g)
        agents = [make_agent(name, seed=g * 100 + seat, **agent_options)
                  for seat in range(game.num_players)]
        counts: list[int] = []
        while not state.is_terminal():
            agent = agents[state.current_player]
            if not isinstance(agent, MctsAgent):
                raise SystemExit(f"{setting!r} is not an mcts setting")
            state.apply_action(agent.step(state))
            counts.append(agent.last_iterations)
        runs.append(counts)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("game")
    parser.add_argument("--agent", default="mcts", help="an mcts setting (default: mcts)")
    parser.add_argument("--players", type=int, help="seats, for games with a player count")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args()
    runs = iterations_by_move(args.game, args.agent, args.players, args.games, args.seed)
    searched = [[count for count in run if count] for run in runs]
    every = [count for run in searched for count in run]
    forced = sum(len(run) for run in runs) - len(every)
    if len(every) < 2:
        raise SystemExit("too few searched moves to measure: play more games")
    quartiles = statistics.quantiles(every, n=4)
    print(f"{args.agent} in {args.game}: {len(every)} searched moves in {len(runs)} "
          f"game(s) ({forced} more had one legal move); iterations a searched move: mean "
          f"{statistics.mean(every):.0f}, median {statistics.median(every):.0f}, "
          f"quartiles {quartiles[0]:.0f} to {quartiles[2]:.0f}, most {max(every)}")
    thirds = []
    for part in range(3):
        counts = [count for run in searched
                  for count in run[part * len(run) // 3:(part + 1) * len(run) // 3]]
        thirds.append(f"{statistics.mean(counts):.0f}" if counts else "-")
    print("mean by third of the game (opening, middle, end): " + ", ".join(thirds))


if __name__ == "__main__":
    main()
