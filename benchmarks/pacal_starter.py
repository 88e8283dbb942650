"""Does starting a Pacal round help? And what does each `start_rule` do to a match?

    python benchmarks/pacal_starter.py --matches 400 --seed 7 --agent greedy
    python benchmarks/pacal_starter.py --matches 400 --seed 7 --agent hard --rule loser

For each start rule (`loser`, the rules' default; `winner`; `rotate`), plays
`--matches` matches of the agent setting against itself (match `g`: deal seed
`seed * 100000 + g`, the two agents seeded `2g` and `2g + 1`) and prints, with
95% Wilson intervals:

- how often a round's starter wins it, of the rounds someone won (the same for
  every rule: who starts does not change how a round is played, only who starts);
- how often the loser of round 1 comes back to take the match, of the matches
  someone won (where the rule matters: if starting is a handicap, `loser` hands
  it to the player who is behind);
- the mean number of rounds a match takes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pyramids.agents import make_agent_from_setting
from pyramids.core import load
from pyramids.sim.stats import wilson_interval

RULES = ("loser", "winner", "rotate")


def play(rule: str, agent: str, matches: int, seed: int) -> dict[str, float]:
    game = load("pacal", start_rule=rule)
    starter_wins = decided_rounds = comebacks = decided_matches = 0
    rounds: list[int] = []
    for number in range(matches):
        state = game.new_initial_state(seed * 100_000 + number)
        seats = [make_agent_from_setting(agent, seed=2 * number + offset) for offset in (0, 1)]
        view = state.view(None)
        round_number, starter, first_loser = view["round"], view["starting_player"], None
        while not state.is_terminal():
            state.apply_action(seats[state.current_player].step(state))
            view = state.view(None)
            if view["round"] == round_number and not state.is_terminal():
                continue
            winner = view["last_round"]["winner"]
            if winner is not None:
                decided_rounds += 1
                starter_wins += winner == starter
                if first_loser is None:
                    first_loser = 1 - winner
            round_number, starter = view["round"], view["starting_player"]
        rounds.append(view["round"])
        champion = view["winner"]
        if champion is not None and first_loser is not None:
            decided_matches += 1
            comebacks += champion == first_loser
    return {"starter_wins": starter_wins, "decided_rounds": decided_rounds,
            "comebacks": comebacks, "decided_matches": decided_matches,
            "mean_rounds": statistics.fmean(rounds)}


def share(wins: int, trials: int) -> str:
    low, high = wilson_interval(wins, trials)
    return f"{wins} of {trials} ({100 * wins / trials:.1f}%, {100 * low:.1f}-{100 * high:.1f}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--agent", default="greedy", help="an agent setting (greedy, hard, ...)")
    parser.add_argument("--rule", choices=RULES, action="append",
                        help="one rule (repeat for more); default: all three")
    args = parser.parse_args()
    print(f"pacal, {args.agent} against itself, {args.matches} matches a rule, seed {args.seed}")
    print("| start_rule | starter wins the round | round-1 loser takes the match "
          "| mean rounds | seconds |")
    print("|---|---|---|---|---|")
    for rule in args.rule or RULES:
        started = time.perf_counter()
        figures = play(rule, args.agent, args.matches, args.seed)
        print(f"| `{rule}` | {share(figures['starter_wins'], figures['decided_rounds'])} "
              f"| {share(figures['comebacks'], figures['decided_matches'])} "
              f"| {figures['mean_rounds']:.2f} | {time.perf_counter() - started:.0f} |")


if __name__ == "__main__":
    main()
