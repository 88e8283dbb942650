"""Tune Pacal's `sharp` policy (the `hard` level) against `greedy`, and the planner
(the `expert` level) against `sharp`.

    python benchmarks/pacal_sharp.py --games 400 --seed 101 OWN_HAND=2.5 THEIR_HAND=2.3
    python benchmarks/pacal_sharp.py --games 100 --seed 303 --agent planner:rollouts=24 \
        --opponent sharp CANDIDATES=3

plays `games` matches of `sharp` (or `--agent`, any agent setting, made with the
seed `g + 1000000` in match `g`) against `greedy` (or `--opponent sharp`), seats
alternating, on deals `seed * 100000 + g // 2` (each deal played from both seats),
with the named constants of `pyramids.agents.greedy.pacal` (or, failing that, of
`pyramids.agents.pacal_planning`) set for the run, and prints the matches and
rounds won with their 95% Wilson intervals, how the rounds ended, and the tested
seat's CPU milliseconds a move. The rounds won are the finer measure: a match is
several rounds. Use seeds other than the final runs' (docs/agents.md, `sharp` and
the planner).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from typing import Any

from pyramids.agents import make_agent, pacal_planning, parse_setting
from pyramids.agents.greedy import pacal
from pyramids.core import Rng, load
from pyramids.sim.stats import wilson_interval

OPPONENTS = {"greedy": pacal.choose, "sharp": pacal.sharp_choose}


def _ending(reason: str) -> str:
    if "picked card" in reason:
        return "the loser could not place the card it picked"
    if "returned card" in reason:
        return "the loser could not place its returned card"
    if "both pyramids" in reason:
        return "both complete, the smaller spread"
    if "completed" in reason:
        return "completed the pyramid first"
    return "neither complete after the last cards"


def play(games: int, seed: int, agent: str | None = None,
         opponent: str = "greedy") -> dict[str, Any]:
    game = load("pacal")
    other = OPPONENTS[opponent]
    matches = 0
    rounds = collections.Counter[str]()
    endings = collections.Counter[str]()
    seconds, moves = 0.0, 0
    for g in range(games):
        state = game.new_initial_state(seed * 100_000 + g // 2)
        tested_seat = g % 2
        rng = Rng(g)
        tested = _chooser(agent, g, rng)
        seen = 0
        while not state.is_terminal():
            player = state.current_player
            if player == tested_seat:
                started = time.process_time()
                action = tested(state)
                seconds += time.process_time() - started
                moves += 1
            else:
                action = other(state, rng)
            state.apply_action(action)
            last = state.view(None)["last_round"]
            if last is not None and last["round"] != seen:
                seen = last["round"]
                winner = last["winner"]
                side = ("draw" if winner is None else "tested" if winner == tested_seat
                        else "opponent")
                rounds[side] += 1
                label = "drawn" if winner is None else f"{side} won"
                endings[f"{label}: {_ending(last['reason'])}"] += 1
        matches += state.returns()[tested_seat] > 0
    played = sum(rounds.values())
    return {
        "matches": matches,
        "games": games,
        "match_ci": wilson_interval(matches, games),
        "rounds": dict(rounds),
        "round_rate": rounds["tested"] / played,
        "round_ci": wilson_interval(rounds["tested"], played),
        "endings": dict(sorted(endings.items())),
        "ms_per_move": 1000 * seconds / max(1, moves),
    }


def _chooser(agent: str | None, match: int, rng: Rng) -> Any:
    """The tested seat: `sharp` on the match's shared generator, or an agent setting."""
    if agent is None:
        return lambda state: pacal.sharp_choose(state, rng)
    name, options = parse_setting(agent)
    return make_agent(name, seed=match + 1_000_000, **options).step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--agent", help="an agent setting to test instead of sharp")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="greedy")
    parser.add_argument("constants", nargs="*",
                        help="NAME=VALUE for greedy/pacal.py or pacal_planning.py")
    args = parser.parse_args(argv)
    for item in args.constants:
        name, _, text = item.partition("=")
        module = pacal if hasattr(pacal, name) else pacal_planning
        old = getattr(module, name)  # an unknown name fails loudly
        value = text.lower() in ("1", "true") if isinstance(old, bool) else type(old)(text)
        setattr(module, name, value)
    result = play(args.games, args.seed, args.agent, args.opponent)
    low, high = result["match_ci"]
    rlow, rhigh = result["round_ci"]
    tested = args.agent or "sharp"
    print(f"{' '.join(args.constants) or 'defaults'}: {tested} won {result['matches']} of "
          f"{result['games']} matches ({100 * result['matches'] / result['games']:.1f}%, "
          f"95% CI {100 * low:.1f}-{100 * high:.1f}%) against {args.opponent}, "
          f"rounds {result['rounds']} "
          f"({100 * result['round_rate']:.1f}%, {100 * rlow:.1f}-{100 * rhigh:.1f}%), "
          f"{result['ms_per_move']:.2f} ms CPU a move ({tested})")
    for ending, count in result["endings"].items():
        print(f"  {ending}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
