"""How strong the agents are: the figures docs/agents.md reports.

    python benchmarks/strength.py                       # every check, modest samples
    python benchmarks/strength.py --only pacal-mcts --games 40 --workers 2
    python benchmarks/strength.py --scale 0.25          # a quick look (fewer games)
    python benchmarks/strength.py --json
    python benchmarks/strength.py --ladder              # the named levels, every game
    python benchmarks/strength.py --ladder --ladder-game pacal --games 200 --workers 2
    python benchmarks/strength.py --ladder --ladder-game temple --ladder-players 2 --games 400
    python benchmarks/strength.py --ladder --ladder-game mahjongg --ladder-layout turtle \
        --hidden-faces --games 500 --expert-games 200 --seed 19   # hidden faces, ceiling
    python benchmarks/strength.py --ladder --ladder-game mahjongg --ladder-players 2 \
        --ladder-layout pharaohs-tomb --games 400 --expert-games 100 --seed 71 --workers 2
    python benchmarks/strength.py --ladder --ladder-game temple --ladder-pairs \
        --games 400 --expert-games 30 --seed 66 --workers 2      # four seats, two a level
    python benchmarks/strength.py --ladder --ladder-game mahjongg --ladder-layout turtle \
        --hidden-faces --games 500 --seed 19 --ladder-levels easy,medium,hard  # no expert

Each check runs the arena (seats rotated, every seed derived from --seed and the
game number, so a rerun gives the same games) and prints win rates with 95%
Wilson intervals next to the target. The MCTS checks give mcts an iteration
budget (`MCTS` for Pacal, `TEMPLE_MCTS` for Temple), which makes them
reproducible; on this machine that thinks no longer a move than the default
time budget, and the printed ms/move says so.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pyramids.agents import LEVELS
from pyramids.agents.levels import level_setting
from pyramids.core import game_manifest, load
from pyramids.sim.arena import (
    ArenaJob,
    derived_seed,
    pairwise_scores,
    parse_agents,
    play_indexed_game,
    resolve_game,
    run_arena,
    run_games,
    seconds_per_move,
    summarize,
)
from pyramids.sim.backends import make_backend, run_indexed
from pyramids.sim.play import winner_of
from pyramids.sim.stats import bradley_terry_elo, wilson_interval

MCTS = "mcts:iterations=60"
TEMPLE_MCTS = "mcts:iterations=300"


def _rate(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return (f"{100 * row['win_rate']:5.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%, "
            f"{row['wins']}W {row['draws']}D {row['losses']}L of {row['games']})")


def head_to_head(game: str, agents: str, focus: str, games: int, workers: int, seed: int,
                 target: float, players: int | None = None,
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    summary = run_arena(game, agents, games, workers=workers, seed=seed, players=players,
                        options=options)
    row = summary["agents"][focus]
    return {
        "game": game,
        "agents": agents,
        "players": summary["players"],
        "options": summary["options"],
        "focus": focus,
        "result": row,
        "target": target,
        "met": row["win_rate"] > target,
        "ms_per_move": {k: round(1000 * v, 2) for k, v in summary["seconds_per_move"].items()},
        "elo": {k: v["elo"] for k, v in summary["agents"].items()},
    }


def solo(game: str, agents: str, games: int, workers: int, seed: int,
         options: dict[str, Any] | None = None, length_key: str = "draws") -> dict[str, Any]:
    """Each agent alone on the same `games` deals: win rate and the mean of `length_key`
    (e.g. Pacal solo draws) over the games it won."""
    specs = parse_agents(agents)
    resolved, chosen = resolve_game(game, options, None)
    job = ArenaJob(game, chosen, tuple(specs), seed, load)
    results = run_games(job, games * len(specs), workers)
    summary = summarize(results, [s.label for s in specs])
    rows = {}
    for spec in specs:
        mine = [r for r in results if r.seats[0] == spec.label]
        won = [r for r in mine if r.returns[0] > 0]
        lengths = [r.metrics[length_key] for r in won if length_key in r.metrics]
        every = [r.metrics[length_key] for r in mine if length_key in r.metrics]
        lo, hi = wilson_interval(len(won), len(mine))
        rows[spec.label] = {
            "games": len(mine),
            "wins": len(won),
            "win_rate": len(won) / len(mine),
            "ci95": [lo, hi],
            f"mean_{length_key}": statistics.fmean(every) if every else None,
            f"mean_{length_key}_when_won": statistics.fmean(lengths) if lengths else None,
        }
    # Paired: on how many deals each agent won where the other lost.
    won_deals = {spec.label: {r.deal for r in results
                              if r.seats[0] == spec.label and r.returns[0] > 0}
                 for spec in specs}
    paired = {}
    for i, first in enumerate(specs):
        for second in specs[i + 1:]:
            a, b = won_deals[first.label], won_deals[second.label]
            paired[f"{first.label} vs {second.label}"] = {
                f"only {first.label}": len(a - b), f"only {second.label}": len(b - a),
                "sign_test_z": _sign_z(len(a - b), len(b - a))}
    speeds = seconds_per_move(results)
    return {"game": game, "options": resolved.options, "agents": rows, "paired": paired,
            "elo": {k: v["elo"] for k, v in summary["agents"].items()},
            "ms_per_move": {k: round(1000 * v, 2) for k, v in speeds.items()}}


def _sign_z(only_first: int, only_second: int) -> float:
    """The sign test's z on the deals exactly one of two agents won (0 if none)."""
    split = only_first + only_second
    return round((only_first - only_second) / split**0.5, 2) if split else 0.0


def checks(scale: float, games: int | None = None, mcts: str | None = None
           ) -> dict[str, Callable[[int, int], dict[str, Any]]]:
    def n(base: int) -> int:
        return games if games else max(2, round(base * scale))

    pacal_mcts = mcts or MCTS
    temple_mcts = mcts or TEMPLE_MCTS

    return {
        "pacal-greedy": lambda w, s: head_to_head(
            "pacal", "greedy,random", "greedy", n(100), w, s, target=0.90),
        "pacal-mcts": lambda w, s: head_to_head(
            "pacal", f"{pacal_mcts},greedy", pacal_mcts, n(30), w, s, target=0.65),
        "pacal-solo": lambda w, s: solo("pacal-solo", "random,greedy,planner", n(200), w, s),
        "temple-mcts": lambda w, s: head_to_head(
            "temple", f"{temple_mcts},greedy", temple_mcts, n(16), w, s, target=0.50,
            players=4),
        "mahjongg-solo": lambda w, s: solo(
            "mahjongg", "greedy,planner", n(30), w, s, options={"layout": "turtle"},
            length_key="tiles_left"),
        "mahjongg-greedy": lambda w, s: head_to_head(
            "mahjongg", "greedy,random", "greedy", n(20), w, s, target=0.5, players=2),
    }


def print_check(name: str, figures: dict[str, Any], seconds: float) -> None:
    print(f"== {name} ({seconds:.0f} s)")
    if "result" in figures:
        target = figures["target"]
        verdict = "met" if figures["met"] else "NOT met"
        print(f"   {figures['focus']} in {figures['game']} ({figures['players']} players, "
              f"agents {figures['agents']}): {_rate(figures['result'])}; "
              f"target > {100 * target:.0f}%: {verdict}")
    else:
        for label, row in figures["agents"].items():
            extra = ", ".join(f"{k} {v:.2f}" for k, v in row.items()
                              if k.startswith("mean_") and v is not None)
            lo, hi = row["ci95"]
            print(f"   {label:10} wins {row['wins']}/{row['games']} = "
                  f"{100 * row['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
                  f"{'; ' + extra if extra else ''}")
    for pair, counts in figures.get("paired", {}).items():
        print(f"   paired {pair}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"   ms/move: {figures['ms_per_move']}; Elo: {figures['elo']}")


# ----- the ladder of named levels ---------------------------------------------------------

#: The games of the ladder: options and matches (or deals) per comparison at scale 1.
LADDER: dict[str, tuple[dict[str, Any], int]] = {
    "pacal": ({}, 100),
    "pacal-solo": ({}, 500),
    "temple": ({"players": 4}, 24),
    "mahjongg": ({"layout": "turtle"}, 100),
}
MIN_ELO_STEP = 100.0


def elo_of(score: float) -> float:
    """The Elo difference that expects `score` (0..1), clipped to +-800."""
    score = min(max(score, 0.01), 0.99)
    return 400.0 * math.log10(score / (1.0 - score))


def level_steps(labels: list[str], scores: dict[tuple[str, str], float]
                ) -> list[dict[str, Any]]:
    """Each level's score against the one below, its Wilson interval and Elo step."""
    steps = []
    for lower, upper in zip(labels, labels[1:], strict=False):
        won = scores.get((upper, lower), 0.0)
        met = won + scores.get((lower, upper), 0.0)
        lo, hi = wilson_interval(won, met)
        rate = won / met if met else 0.5
        step: dict[str, Any] = {
            "lower": lower, "upper": upper, "meetings": met, "score": rate, "ci95": [lo, hi],
            "elo_step": elo_of(rate), "elo_step_ci95": [elo_of(lo), elo_of(hi)]}
        step["met"] = step["elo_step"] >= MIN_ELO_STEP and lo > 0.5
        steps.append(step)
    return steps


def ladder(game: str, games: int, workers: int, seed: int,
           options: dict[str, Any] | None = None,
           expert_games: int | None = None, pairs: bool = False,
           results_dir: Path | None = None,
           levels: list[str] | None = None) -> dict[str, Any]:
    """The four levels of one game: each level against the one below.

    One-player games: every level plays the same deals, compared deal by deal.
    Games of four or more seats: one table of the four levels, seats rotated; or,
    with `pairs` (an even number of seats), each level meets the one below at its
    own tables, half the seats each, alternating, seats rotated.
    Otherwise each level meets the one below in its own arena, seats rotated
    (`expert_games`, when given, sets the matches of the dearest one, expert's).
    The score of a level against the one below counts a win 1 and a draw 1/2 over
    their pairwise meetings (with `pairs`: over the games, which side won); its
    Wilson interval gives the Elo step's interval. With `results_dir`, each arena's
    games are kept in a results file there and a stopped run goes on where it was.
    With `levels` (one-player games), only those levels play: each the very games it
    plays in the run of all four (the same deals, the same seeds), so that a level
    that changed is measured again without the others (the expert's are the dear ones).
    """
    resolved, chosen = resolve_game(game, options, None)
    players = resolved.num_players
    labels = [label for label in LEVELS if levels is None or label in levels]
    results = []
    started = time.perf_counter()
    if pairs and (players < 2 or players % 2):
        raise SystemExit(f"--ladder-pairs needs an even number of seats, not {players}")
    if levels is not None and (players != 1 or expert_games):
        raise SystemExit("--ladder-levels is for one-player games, without --expert-games")
    if levels is not None:
        job = ArenaJob(game, chosen, tuple(parse_agents(",".join(LEVELS))), seed, load)
        wanted = [index for index in range(games * len(LEVELS))
                  if LEVELS[index % len(LEVELS)] in labels]
        results = run_indexed(play_indexed_game, job, games * len(LEVELS),
                              make_backend("local", workers), None, wanted)
    elif pairs:
        for lower, upper in zip(labels, labels[1:], strict=False):
            specs = parse_agents(",".join([lower, upper] * (players // 2)))
            job = ArenaJob(game, chosen, tuple(specs), seed, load)
            count = expert_games if upper == labels[-1] and expert_games else games
            kept = (results_dir / f"{game}-{players}p-{lower}-{upper}-pairs-seed{seed}.jsonl"
                    if results_dir is not None else None)
            results += [as_levels(r) for r in run_games(job, count, workers,
                                                         results_file=kept)]
    elif players == 1 and expert_games and expert_games != games:
        # The expert alone on the first `expert_games` of the same deals (a deal's
        # seed depends only on the seed and its number).
        cheap = parse_agents(",".join(labels[:-1]))
        job = ArenaJob(game, chosen, tuple(cheap), seed, load)
        results = run_games(job, games * len(cheap), workers)
        job = ArenaJob(game, chosen, tuple(parse_agents(labels[-1])), seed, load)
        results += run_games(job, expert_games, workers)
    elif players == 1 or players >= len(labels):
        specs = parse_agents(",".join(labels))
        job = ArenaJob(game, chosen, tuple(specs), seed, load)
        results = run_games(job, games * (len(labels) if players == 1 else players), workers)
    else:
        for lower, upper in zip(labels, labels[1:], strict=False):
            specs = parse_agents(f"{lower},{upper}")
            job = ArenaJob(game, chosen, tuple(specs), seed, load)
            count = expert_games if upper == labels[-1] and expert_games else games
            results += run_games(job, count, workers)
    scores = side_scores(results) if pairs else pairwise_scores(results)
    elo = bradley_terry_elo(labels, scores, prior_games=1.0)
    steps = level_steps(labels, scores)
    speeds = seconds_per_move(results)
    rows = {}
    for label in labels:
        mine = [(r, seat) for r in results for seat, name in enumerate(r.seats)
                if name == label]
        won = sum(1 for r, seat in mine if _seat_wins(r, seat))
        lo, hi = wilson_interval(won, len(mine))
        rows[label] = {"setting": level_setting(game, label, players), "seats": len(mine),
                       "wins": won, "win_rate": won / len(mine) if mine else 0.0,
                       "ci95": [lo, hi], "elo": elo[label],
                       "ms_per_move": round(1000 * speeds.get(label, 0.0), 2)}
        if players == 1:
            clears = [r.metrics.get("tiles_left") == 0 for r, _ in mine
                      if "tiles_left" in r.metrics]
            if clears:
                rows[label]["clear_rate"] = sum(clears) / len(clears)
    figures = {"game": game, "options": chosen, "players": players, "games": games,
               "expert_games": expert_games, "seed": seed, "levels": rows, "steps": steps,
               "tables": "pairs" if pairs else "one" if players >= len(labels) else "arena",
               "seconds": round(time.perf_counter() - started, 1)}
    if game == "mahjongg" and players == 1 and levels is None:
        figures["ceiling"] = mahjongg_ceiling(chosen, games, seed)
    return figures


def as_levels(result: Any) -> Any:
    """A game of `--ladder-pairs` with each seat named by its level (the arena names
    a level's second seat `hard#2`), its seconds and moves added up by level."""
    seats = [label.split("#")[0] for label in result.seats]
    seconds: dict[str, float] = {}
    moves: dict[str, int] = {}
    for label in result.seconds:
        level = label.split("#")[0]
        seconds[level] = seconds.get(level, 0.0) + result.seconds[label]
        moves[level] = moves.get(level, 0) + result.moves.get(label, 0)
    return dataclasses.replace(result, seats=seats, seconds=seconds, moves=moves)


def side_scores(results: list[Any]) -> dict[tuple[str, str], float]:
    """Games between two levels sharing a table: 1 to the level whose seat won, 1/2
    each when seats of both share the win."""
    scores: dict[tuple[str, str], float] = {}
    for result in results:
        first, second = sorted(set(result.seats))
        top = max(result.returns)
        winning = {level for level, r in zip(result.seats, result.returns, strict=True)
                   if r == top}
        share = 0.5 if len(winning) == 2 else 1.0 if first in winning else 0.0
        scores[(first, second)] = scores.get((first, second), 0.0) + share
        scores[(second, first)] = scores.get((second, first), 0.0) + 1.0 - share
    return scores


def mahjongg_ceiling(options: dict[str, Any], games: int, seed: int,
                     node_limit: int = 10_000_000) -> dict[str, Any]:
    """The all-seeing solver on the ladder's deals: how many it clears, faces known."""
    from pyramids.games.mahjongg.solver import solve

    game: Any = load("mahjongg", **options)
    pantheon = bool(game.options.get("pantheon_pairs", True))
    verdicts = [solve(game.geometry, game.new_initial_state(derived_seed(seed, "deal", deal))
                      .faces, pantheon_pairs=pantheon, node_limit=node_limit).solvable
                for deal in range(games)]
    cleared = sum(1 for v in verdicts if v is True)
    lo, hi = wilson_interval(cleared, games)
    return {"deals": games, "cleared": cleared, "undecided": verdicts.count(None),
            "rate": cleared / games, "ci95": [lo, hi], "node_limit": node_limit}


def hidden_faces_layout(name: str) -> str:
    """A blueprint with every tile that has a tile on it face down (the rules' face-down
    tiles, which Great Zenith alone marks): written once as `<name>-hidden.pyr` in the
    temporary directory; its path is the `layout` option."""
    from pyramids.games.mahjongg import blueprints
    from pyramids.games.mahjongg.layout_format import dump_layout

    layout = blueprints.load_layout(name)
    geometry = layout.geometry
    covered = frozenset(t for t in range(layout.size)
                        if not geometry.is_uncovered(t, geometry.all_mask))
    hidden = dataclasses.replace(layout, name=f"{layout.name}-hidden",
                                 face_down=layout.face_down | covered)
    path = Path(tempfile.gettempdir()) / f"{layout.name}-hidden.pyr"
    text = dump_layout(hidden)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return str(path)


def _seat_wins(result: Any, seat: int) -> bool:
    return winner_of(result.returns) == seat


def print_ladder(figures: dict[str, Any]) -> None:
    tables = (", each step at its own tables, half the seats each"
              if figures.get("tables") == "pairs" else "")
    print(f"== ladder: {figures['game']} {figures['options'] or ''} "
          f"({figures['players']} player(s){tables}, {figures['games']} per comparison"
          f"{', expert ' + str(figures['expert_games']) if figures['expert_games'] else ''}, "
          f"seed {figures['seed']}, {figures['seconds']:.0f} s)")
    for label, row in figures["levels"].items():
        lo, hi = row["ci95"]
        clear = (f", cleared {100 * row['clear_rate']:.1f}%" if "clear_rate" in row else "")
        print(f"   {label:7} Elo {row['elo']:6.0f}  wins {row['wins']}/{row['seats']} "
              f"({100 * row['win_rate']:.1f}%, CI {100 * lo:.1f}-{100 * hi:.1f}%){clear}; "
              f"{row['ms_per_move']} ms/move; {row['setting']}")
    if "ceiling" in figures:
        ceiling = figures["ceiling"]
        lo, hi = ceiling["ci95"]
        print(f"   ceiling: the solver on the true faces clears {ceiling['cleared']} of "
              f"{ceiling['deals']} deals ({100 * ceiling['rate']:.1f}%, CI {100 * lo:.1f}-"
              f"{100 * hi:.1f}%; {ceiling['undecided']} undecided)")
    for step in figures["steps"]:
        lo, hi = step["ci95"]
        elo_lo, elo_hi = step["elo_step_ci95"]
        verdict = "met" if step["met"] else "NOT met"
        print(f"   {step['upper']} over {step['lower']}: scores {100 * step['score']:.1f}% "
              f"of {step['meetings']:g} (CI {100 * lo:.1f}-{100 * hi:.1f}%), "
              f"Elo step {step['elo_step']:+.0f} (CI {elo_lo:+.0f} to {elo_hi:+.0f}); "
              f">= {MIN_ELO_STEP:.0f} with the CI above 0: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--only", action="append", help="run only these checks (repeatable)")
    parser.add_argument("--games", type=int, help="games for every chosen check")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the default samples")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mcts", help=f"the mcts agent (default {MCTS} for Pacal, "
                                       f"{TEMPLE_MCTS} for Temple)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ladder", action="store_true",
                        help="the named levels easy..expert of every game, with Elo steps")
    parser.add_argument("--expert-games", type=int,
                        help="ladder: matches of the expert step in two- and three-seat games; "
                             "in one-player games, the expert plays only the first N deals")
    parser.add_argument("--ladder-layout",
                        help="ladder, Mahjongg: the blueprint (default: LADDER's, turtle)")
    parser.add_argument("--hidden-faces", action="store_true",
                        help="ladder, Mahjongg: every tile with a tile on it starts face down")
    parser.add_argument("--ladder-game", action="append",
                        help=f"only these games in the ladder (of {', '.join(LADDER)})")
    parser.add_argument("--ladder-players", type=int,
                        help="ladder, games with a player count (Temple, Mahjongg): play at "
                             "this many "
                             "seats (default: LADDER's; under four, each level meets the one "
                             "below in its own arena)")
    parser.add_argument("--ladder-pairs", action="store_true",
                        help="ladder, games of four or more seats (an even number): each level "
                             "meets the one below at its own tables, half the seats each, "
                             "alternating, instead of one table of the four levels")
    parser.add_argument("--ladder-results", type=Path,
                        help="ladder with --ladder-pairs: keep each step's games in a results "
                             "file in this folder (a stopped run goes on where it was)")
    parser.add_argument("--ladder-levels",
                        help="ladder, one-player games: only these levels (comma-separated), "
                             "each on the games it plays in the run of all four (same deals "
                             "and seeds); the Elo is among them only")
    args = parser.parse_args()
    chosen_levels = args.ladder_levels.split(",") if args.ladder_levels else None
    if chosen_levels and not set(chosen_levels) <= set(LEVELS):
        parser.error(f"--ladder-levels: levels are {', '.join(LEVELS)}")
    if args.ladder:
        chosen_games = args.ladder_game or list(LADDER)
        figures_by_game = {}
        for game in chosen_games:
            options, base = LADDER.get(game, ({}, 50))
            if args.ladder_players and game_manifest(game).players_option:
                options = dict(options, players=args.ladder_players)
            if game == "mahjongg" and (args.ladder_layout or args.hidden_faces):
                name = args.ladder_layout or options["layout"]
                layout = hidden_faces_layout(name) if args.hidden_faces else name
                options = dict(options, layout=layout)
            count = args.games or max(2, round(base * args.scale))
            figures_by_game[game] = ladder(game, count, args.workers, args.seed, options,
                                           args.expert_games, args.ladder_pairs,
                                           args.ladder_results, chosen_levels)
            if not args.json:
                print_ladder(figures_by_game[game])
        if args.json:
            print(json.dumps(figures_by_game, indent=2, sort_keys=True))
        return
    available = checks(args.scale, args.games, args.mcts)
    chosen = args.only or list(available)
    unknown = [c for c in chosen if c not in available]
    if unknown:
        parser.error(f"unknown check(s) {unknown}; allowed: {', '.join(available)}")
    results = {}
    for name in chosen:
        run = available[name]
        started = time.perf_counter()
        figures = run(args.workers, args.seed)
        figures["seconds"] = round(time.perf_counter() - started, 1)
        results[name] = figures
        if not args.json:
            print_check(name, figures, figures["seconds"])
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
