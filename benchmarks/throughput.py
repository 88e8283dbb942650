"""Random self-play throughput through the public API, per registered game.

    python benchmarks/throughput.py                 # every game, defaults, ~3 s each
    python benchmarks/throughput.py --game pacal --seconds 10
    python benchmarks/throughput.py --option players=2 --game temple
    python benchmarks/throughput.py --env           # also the RL adapters, per game
    python benchmarks/throughput.py --env --floor   # and PettingZoo's protocol alone
    python benchmarks/throughput.py --env --opponents greedy  # and Gymnasium against bots

With `--env`, each game is also stepped through the adapters that serve it
(the `rl` and `openspiel` extras): the PettingZoo AEC env (observe + step,
masked random actions), the Gymnasium env for one-player games, and the
OpenSpiel game (legal_actions + apply_action, no observation). Each figure is
env steps per second beside the native one, and the ratio native/adapter. With
`--opponents SETTING` the Gymnasium env of each multi-player game is stepped too
(`gym-vs-opponents`): a random learner at seat 0 against that agent at the other
seats (`gymnasium.make(id, opponents=SETTING)`); its steps are the learner's
(`env.step` calls), and its native figure is a loop of the same games (the
learner's random moves, the same agents seeded as the env seeds them). The
native and adapter loops run in interleaved bursts on the same deals, timed in
CPU seconds of the process, so a change in the machine's load during the run
touches them alike (on a shared machine the absolute figures still move; the
ratios are the figure to quote).

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

#: The Gymnasium env of a multi-player game against `--opponents`, and the native
#: loop that plays its games (its cost's baseline).
GYM_VS_OPPONENTS = "gym-vs-opponents"
NATIVE_VS_OPPONENTS = "native-vs-opponents"


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
    # The int8 mask read as booleans: NumPy's nonzero is several times faster on a
    # bool array (2.2 against 0.5 microseconds for Pacal's 1,286 actions), and this
    # is the random agent's cost, not the adapter's.
    return rng.choice(mask.view(bool).nonzero()[0].tolist())


class _Loop:
    """One way of stepping a game, run in bursts: `burst(seconds)` plays whole episodes
    (seeded `seed`, `seed + 1`, ..) for a time, `play(episodes)` a number of them, and
    both count steps and time."""

    def __init__(self, episode, seed: int) -> None:
        self.episode = episode
        self.next_seed = seed
        self.steps = 0
        self.seconds = 0.0

    def burst(self, seconds: float) -> None:
        # CPU time of this process: on a shared machine, wall time also counts the
        # moments another process had the core, which land on one loop or another.
        start = time.process_time()
        while time.process_time() - start < seconds:
            self.steps += self.episode(self.next_seed)
            self.next_seed += 1
        self.seconds += time.process_time() - start

    def play(self, episodes: int) -> None:
        start = time.process_time()
        for _ in range(episodes):
            self.steps += self.episode(self.next_seed)
            self.next_seed += 1
        self.seconds += time.process_time() - start

    @property
    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def _env_loops(name: str, options: dict[str, object], seed: int,
               floor: bool = False, opponents: str | None = None) -> dict[str, _Loop]:
    """The native loop and one per adapter that serves this game (missing extras skip).

    Each loop draws its actions from its own generator seeded alike, and the legal
    actions come in ascending order natively and from a mask, so every loop plays
    the same games move for move: the same work (for Mahjongg, the same solver
    calls) behind each figure."""
    game = pyramids.load(name, **options)

    def native(deal: int, rng: random.Random = random.Random(seed)) -> int:
        state = game.new_initial_state(deal)
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    loops = {"native": _Loop(native, seed)}
    try:
        import pyramids.rl as rl
    except ImportError:
        return loops
    rl.encoder_for(game)  # the layout probe is paid once per process, not per step
    env = rl.env(name, **options)

    def pettingzoo(deal: int, rng: random.Random = random.Random(seed)) -> int:
        env.reset(seed=deal)
        steps = 0
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(_masked_choice(rng, observation["action_mask"]))
                steps += 1
        return steps

    loops["pettingzoo"] = _Loop(pettingzoo, seed)
    if floor:
        # The same loop with the observation vector replaced by a preallocated array
        # (the env's own mask, legality check, dictionaries and agent order kept): what
        # PettingZoo's protocol and the masked choice cost alone, the floor any
        # encoder adds to.
        import numpy as np

        bare = rl.env(name, **options)
        vector = np.zeros(bare.encoder.size, dtype=np.float32)
        bare._update = lambda state, canvas: vector

        def protocol(deal: int, rng: random.Random = random.Random(seed)) -> int:
            bare.reset(seed=deal)
            steps = 0
            for _agent in bare.agent_iter():
                observation, _, terminated, truncated, _ = bare.last()
                if terminated or truncated:
                    bare.step(None)
                else:
                    bare.step(_masked_choice(rng, observation["action_mask"]))
                    steps += 1
            return steps

        loops["pettingzoo-floor"] = _Loop(protocol, seed)
    if game.num_players > 1 and opponents:
        loops[NATIVE_VS_OPPONENTS] = _Loop(_native_against(game, opponents, seed), seed)
    if game.num_players == 1 or opponents:
        import gymnasium

        against = {"opponents": opponents} if game.num_players > 1 else {}
        genv = gymnasium.make(rl.env_id(name), **options, **against).unwrapped

        def gym(deal: int, rng: random.Random = random.Random(seed)) -> int:
            _, info = genv.reset(seed=deal)
            done, steps = False, 0
            while not done:
                _, _, done, _, info = genv.step(_masked_choice(rng, info["action_mask"]))
                steps += 1
            return steps

        loops["gymnasium" if game.num_players == 1 else GYM_VS_OPPONENTS] = _Loop(gym, seed)
    try:
        import pyspiel

        import pyramids.openspiel as po
    except ImportError:
        return loops
    # OpenSpiel wants typed parameters: the values as the game parsed them. The loops
    # play deals from `seed` on, past the default 10,000 chance outcomes in a fast game
    # (the chance node refuses an outcome outside them), so every deal is one.
    parameters = {k: game.options[k] for k in options}
    spiel_game = pyspiel.load_game(po.short_name(name), {**parameters, "deals": 2**31 - 1})

    def openspiel(deal: int, rng: random.Random = random.Random(seed)) -> int:
        state = spiel_game.new_initial_state()
        state.apply_action(deal)
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    loops["openspiel"] = _Loop(openspiel, seed)
    return loops


def _native_against(game, opponents: str, seed: int):
    """The native loop of the Gymnasium env against `opponents`: the learner's random
    moves at seat 0 (its steps counted) and the same agents at the other seats,
    reseeded each deal as the env reseeds them, so both play the same games."""
    from pyramids.agents import make_agent_from_setting, reseed_agent
    from pyramids.rl.gym_env import opponent_seed

    agents = [None] + [make_agent_from_setting(opponents)
                       for _ in range(game.num_players - 1)]

    def native(deal: int, rng: random.Random = random.Random(seed)) -> int:
        for seat in range(1, game.num_players):
            reseed_agent(agents[seat], opponent_seed(deal, seat))
        state = game.new_initial_state(deal)
        steps = 0
        while not state.is_terminal():
            player = state.current_player
            if player == 0:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
            else:
                state.apply_action(agents[player].step(state))
        return steps

    return native


def measure_env(name: str, options: dict[str, object], seconds: float,
                seed: int = 0, bursts: int = 6, floor: bool = False,
                opponents: str | None = None) -> dict[str, float]:
    """Steps per second natively and through each adapter, measured in interleaved bursts.

    Each loop runs `bursts` times, in turn with the others, so a machine whose
    load changes during the run slows all of them alike and the ratios stay fair.
    A burst is the same episodes for every loop (as many as the native loop plays
    in `seconds / bursts`, timed once beforehand on other deals), and the loops
    play them move for move alike: every figure counts the same work, which
    matters where episodes differ much in cost (Mahjongg's solver calls)."""
    loops = _env_loops(name, options, seed, floor, opponents)
    native = measure(name, options, min(0.5, seconds / bursts), seed + 10**6)
    episodes = max(1, round(native["games_per_second"] * seconds / bursts))
    for _ in range(bursts):
        for loop in loops.values():
            loop.play(episodes)
    return {label: loop.rate for label, loop in loops.items()}


def parse_option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--game", action="append", help="game name (repeatable; default all)")
    parser.add_argument("--option", action="append", type=parse_option, default=[])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--env", action="store_true",
                        help="also env steps/s through the PettingZoo, Gymnasium and OpenSpiel "
                        "adapters")
    parser.add_argument("--floor", action="store_true",
                        help="with --env: also PettingZoo's loop with a preallocated "
                        "observation (the protocol's own cost)")
    parser.add_argument("--opponents", metavar="SETTING",
                        help="with --env: also the Gymnasium env of each multi-player "
                        "game, a random learner against this agent at the other seats "
                        "(a level, an agent name or a setting such as "
                        "mcts:iterations=200)")
    args = parser.parse_args()
    names = args.game or pyramids.game_names()
    results = [measure(name, dict(args.option), args.seconds) for name in names]
    if args.env:
        for result in results:
            figures = measure_env(result["game"], dict(args.option), args.seconds,
                                  floor=args.floor, opponents=args.opponents)
            native = figures.pop("native")
            against = figures.pop(NATIVE_VS_OPPONENTS, None)
            baselines = dict.fromkeys(figures, native)
            if against is not None:
                # Gymnasium's games against bots are this loop's, natively with the same bots.
                baselines[GYM_VS_OPPONENTS] = against
            result["env_native_steps_per_second"] = round(native)
            result["env_steps_per_second"] = {k: round(v) for k, v in figures.items()}
            result["env_baseline_steps_per_second"] = {k: round(v)
                                                       for k, v in baselines.items()}
            result["env_cost"] = {k: round(baselines[k] / v, 2) for k, v in figures.items()}
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
        print(f"\n{'game':12} {'adapter':16} {'steps/s':>10} {'native':>10} "
              f"{'cost (native/adapter)':>22}")
        for r in results:
            for adapter, rate in r["env_steps_per_second"].items():
                native = r["env_baseline_steps_per_second"][adapter]
                print(f"{r['game']:12} {adapter:16} {rate:>10,} {native:>10,} "
                      f"{r['env_cost'][adapter]:>21}x")


if __name__ == "__main__":
    main()
