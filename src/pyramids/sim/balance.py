"""A designer's balance report: seat win rates, game length and stalls, per player count.

One agent (by default `greedy`) takes every seat, so any difference between the
seats comes from the rules, not from the players. For each player count the
report gives each seat's win rate with its 95% Wilson interval, the length of
the games in actions (and in rounds where the game's final view shows a
`round`), and how often a game ended at its `max_rounds` cap instead of
finishing. It writes `report.md`, `balance.json` and PNG plots (matplotlib's
Agg backend, so no display is needed).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pyramids.agents import make_agent, thinks_by_clock
from pyramids.core import load
from pyramids.core.files import write_text_atomically
from pyramids.sim.arena import (
    AgentSpec,
    ArenaJob,
    GameLoader,
    GameResult,
    resolve_game,
    run_games,
    summarize,
)
from pyramids.sim.backends import Backend
from pyramids.sim.stats import wilson_interval


def hit_round_cap(metrics: dict[str, float]) -> bool:
    """Did the game end at its round cap rather than by its own end? (`outcome.capped`)"""
    return bool(metrics.get("capped"))


def _describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "mean": statistics.fmean(ordered),
        "median": statistics.median(ordered),
        "min": ordered[0],
        "max": ordered[-1],
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
    }


def player_count_figures(results: Sequence[GameResult], labels: Sequence[str]) -> dict[str, Any]:
    summary = summarize(results, labels, elo_prior_games=1.0)
    rounds = [r.metrics["rounds"] for r in results if "rounds" in r.metrics]
    capped = sum(1 for r in results if hit_round_cap(r.metrics))
    lo, hi = wilson_interval(capped, len(results))
    no_winner = sum(
        1 for r in results
        if len(r.returns) > 1 and sum(1 for x in r.returns if x == max(r.returns)) > 1
    )
    return {
        "games": len(results),
        "seats": summary["seats"],
        "length_actions": _describe([r.length for r in results]),
        "length_rounds": _describe(rounds),
        "capped": capped,
        "capped_rate": capped / len(results) if results else 0.0,
        "capped_ci95": [lo, hi],
        "shared_wins": no_winner,
        "lengths": [r.length for r in results],
        "rounds": rounds,
    }


def run_balance(
    game_name: str,
    games: int,
    players: Sequence[int | None],
    agent: str = "greedy",
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    loader: GameLoader = load,
    on_done: Callable[[int], None] | None = None,
    backend: Backend | None = None,
) -> dict[str, Any]:
    """The report's figures for each player count (None: the game's default)."""
    spec = AgentSpec(agent, agent)
    by_count: dict[str, Any] = {}
    chosen_options: dict[str, Any] = {}
    for count in players:
        game, chosen = resolve_game(game_name, options, count, loader)
        chosen_options = game.options
        job = ArenaJob(game_name, chosen, (spec,), seed, loader)
        results = run_games(job, games, workers, on_done, backend)
        by_count[str(game.num_players)] = player_count_figures(results, [agent])
    return {
        "game": game_name,
        "agent": agent,
        "seed": seed,
        "games_per_count": games,
        "options": {k: v for k, v in chosen_options.items() if k != "players"},
        "by_players": by_count,
        "thinks_by_clock": thinks_by_clock(make_agent(agent, seed=seed)),
    }


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def report_markdown(report: dict[str, Any], plots: Sequence[str]) -> str:
    game = report["game"]
    lines = [
        f"# Balance report: {game}",
        "",
        f"Every seat played by `{report['agent']}`; {report['games_per_count']} games per "
        f"player count; arena seed {report['seed']}. Options: "
        + (", ".join(f"`{k}={v}`" for k, v in sorted(report["options"].items())) or "defaults")
        + ".",
        "",
        "Reproduce: `pyramids balance "
        f"{game} --games {report['games_per_count']} --players "
        + ",".join(report["by_players"])
        + f" --agent {report['agent']} --seed {report['seed']}`"
        + (f" (`{report['agent']}` thinks by the clock, so the seed does not replay its games: "
           "a rerun gives other figures; an agent with a budget of iterations repeats them)"
           if report.get("thinks_by_clock") else ""),
        "",
        "## Seat win rates",
        "",
        "A seat wins when it alone has the highest score; a shared top counts as no win.",
        "A fair game gives each seat about 1/P.",
        "",
        "| players | seat | games | wins | win rate | 95% CI | fair share |",
        "|---|---|---|---|---|---|---|",
    ]
    for count, figures in report["by_players"].items():
        for seat in figures["seats"]:
            lo, hi = seat["ci95"]
            lines.append(
                f"| {count} | {seat['seat'] + 1} | {seat['games']} | {seat['wins']} | "
                f"{_percent(seat['win_rate'])} | {_percent(lo)} to {_percent(hi)} | "
                f"{_percent(1 / int(count))} |"
            )
    lines += [
        "",
        "## Game length",
        "",
        "| players | mean actions | median | p90 | max | mean rounds | median | p90 | max |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for count, figures in report["by_players"].items():
        a = figures["length_actions"]
        r = figures["length_rounds"]
        rounds = (
            f"{r['mean']:.1f} | {r['median']:g} | {r['p90']:g} | {r['max']:g}"
            if r else "- | - | - | -"
        )
        lines.append(
            f"| {count} | {a['mean']:.1f} | {a['median']:g} | {a['p90']:g} | {a['max']:g} | "
            f"{rounds} |"
        )
    lines += [
        "",
        "## Games stopped by the round cap",
        "",
        "| players | games | ended at max_rounds | rate | 95% CI | shared wins |",
        "|---|---|---|---|---|---|",
    ]
    for count, figures in report["by_players"].items():
        lo, hi = figures["capped_ci95"]
        lines.append(
            f"| {count} | {figures['games']} | {figures['capped']} | "
            f"{_percent(figures['capped_rate'])} | {_percent(lo)} to {_percent(hi)} | "
            f"{figures['shared_wins']} |"
        )
    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    lines += ["", "## Findings", "", *findings(report), ""]
    return "\n".join(lines)


def findings(report: dict[str, Any]) -> list[str]:
    """Plain statements of what looks unsound, from the figures alone."""
    notes = []
    for count, figures in report["by_players"].items():
        fair = 1 / int(count)
        for seat in figures["seats"]:
            lo, hi = seat["ci95"]
            if lo > fair or hi < fair:
                side = "ahead of" if lo > fair else "behind"
                notes.append(
                    f"- {count} players: seat {seat['seat'] + 1} wins "
                    f"{_percent(seat['win_rate'])} (95% CI {_percent(lo)} to {_percent(hi)}), "
                    f"clearly {side} the fair {_percent(fair)}."
                )
        if figures["capped"]:
            notes.append(
                f"- {count} players: {figures['capped']} of {figures['games']} games "
                f"({_percent(figures['capped_rate'])}) stalled until the max_rounds cap."
            )
    if not notes:
        notes.append(
            "- No seat differs from its fair share beyond the 95% intervals, and no game "
            "hit the round cap, at this sample size."
        )
    return notes


def write_plots(report: dict[str, Any], out: Path) -> list[str]:
    """PNG plots of seat win rates and game lengths; the file names written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    counts = list(report["by_players"])
    fig, axes = plt.subplots(1, len(counts), figsize=(3.2 * len(counts) + 1, 3.2), squeeze=False)
    for ax, count in zip(axes[0], counts, strict=True):
        seats = report["by_players"][count]["seats"]
        rates = [s["win_rate"] for s in seats]
        errors = [
            [s["win_rate"] - s["ci95"][0] for s in seats],
            [s["ci95"][1] - s["win_rate"] for s in seats],
        ]
        ax.bar([str(s["seat"] + 1) for s in seats], rates, yerr=errors, capsize=3, color="#b8860b")
        ax.axhline(1 / int(count), color="black", linestyle="--", linewidth=1)
        ax.set_title(f"{count} players")
        ax.set_xlabel("seat")
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel("win rate (95% CI)")
    fig.suptitle(f"{report['game']}: seat win rates (dashed: fair share)")
    fig.tight_layout()
    path = out / "seat_win_rates.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path.name)

    use_rounds = all(report["by_players"][c]["rounds"] for c in counts)
    key, unit = ("rounds", "rounds") if use_rounds else ("lengths", "actions")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for count in counts:
        ax.hist(report["by_players"][count][key], bins=30, alpha=0.5, label=f"{count} players")
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title(f"{report['game']}: game length")
    fig.tight_layout()
    path = out / "game_length.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path.name)
    return written


def write_report(report: dict[str, Any], out: Path) -> Path:
    """Write report.md, balance.json and the plots into `out`; the report's path."""
    out.mkdir(parents=True, exist_ok=True)
    plots = write_plots(report, out)
    saved = {
        **report,
        "by_players": {
            count: {k: v for k, v in figures.items() if k not in ("lengths", "rounds")}
            for count, figures in report["by_players"].items()
        },
    }
    write_text_atomically(out / "balance.json", json.dumps(saved, indent=2, sort_keys=True) + "\n")
    path = out / "report.md"
    write_text_atomically(path, report_markdown(report, plots))
    return path
