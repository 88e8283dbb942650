"""How often a Mahjongg level gives up with a pair on the board: its moves made while
a pair is legal that are a pass or a favor (tokens, hints, sight, undo), and the
games a pass ended with a pair legal.

    python benchmarks/mahjongg_slips.py --level medium --players 2 --games 40
    python benchmarks/mahjongg_slips.py --level easy --layout giza-step-ramp --games 30

Game `i` is dealt with seed `i`; seat `s` is the level seeded `10 i + s`, so a run
replays exactly. Run it on a checkout before a change and after, to compare.
"""

from __future__ import annotations

import argparse

from pyramids.agents import LEVELS, make_agent
from pyramids.core import load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--level", choices=LEVELS, default="medium")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--layout", default="pharaohs-tomb")
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    game = load("mahjongg", players=args.players, layout=args.layout)
    with_a_pair = passes = favors = ended_by_a_pass = cleared = 0
    for seed in range(args.games):
        state = game.new_initial_state(seed)
        agents = [make_agent(args.level, seed=10 * seed + s) for s in range(args.players)]
        last_pass_with_a_pair = False
        while not state.is_terminal():
            pair = any(state.action_to_string(a).startswith("match ")
                       for a in state.legal_actions())
            action = agents[state.current_player].step(state)
            name = state.action_to_string(action)
            last_pass_with_a_pair = pair and name == "pass"
            if pair and name == "pass":
                passes += 1
            elif pair and not (name.startswith("match ") or name == "finish"):
                favors += 1
            with_a_pair += pair
            state.apply_action(action)
        ended_by_a_pass += last_pass_with_a_pair
        cleared += state.view(None)["tiles_left"] == 0
    print(f"{args.level}, {args.players} seat(s), {args.layout}, {args.games} games: "
          f"{with_a_pair} moves with a pair legal, of them {passes} passes and {favors} "
          f"favors; {ended_by_a_pass} games ended by a pass with a pair legal; "
          f"{cleared} cleared")


if __name__ == "__main__":
    main()
