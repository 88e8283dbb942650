"""`pyramids arena` (agents against agents, with honest figures) and `pyramids balance`.

Bad input ends in one line saying what was wrong and what is allowed, exit code 2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer

from pyramids.cli.common import (
    ADDRESS_HELP,
    BACKEND_HELP,
    changed_options,
    clock_note,
    progress,
    require_extra,
    said_when_stopped,
    user_errors,
)
from pyramids.core import OptionError, find_manifest, load
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import _, current_language, format_number, ngettext, words_text
from pyramids.play.session import parse_options
from pyramids.sim.backends import make_backend
from pyramids.sim.results import check_results_apart
from pyramids.sim.tables import (
    ARENA_AGENT_COLUMNS,
    ARENA_SEAT_COLUMNS,
    arena_agent_rows,
    arena_seat_rows,
    check_csv_targets,
    seats_csv_path,
    write_csv,
)

# The arena table's columns, catalogue messages (translated when printed).
ARENA_COLUMNS = (N_("agent"), N_("seats played"), N_("W"), N_("D"), N_("L"), N_("win rate"),
                 N_("95% CI"), N_("Elo"), N_("ms/move"))


def _print_table(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(width=200)  # a pipe or a file: no terminal to wrap for
    console.print(_(
        "{game} ({options}): {games} games, {seats}, seed {seed}",
        game=summary["game"], options=changed_options(summary["game"], summary["options"]),
        games=format_number(summary["games"]),
        seats=ngettext("{count} seat", "{count} seats", summary["players"]),
        seed=summary["seed"],
    ))
    table = Table()
    for index, column in enumerate(ARENA_COLUMNS):
        # A narrow terminal (or a pipe's 80 columns) folds an agent's setting onto more
        # lines rather than cutting it (two settings cut to "mcts:iter…" read alike);
        # numbers are never cut.
        if index == 0:
            table.add_column(_(column), justify="left", overflow="fold")
        else:
            table.add_column(_(column), justify="right", no_wrap=True)
    for row in arena_agent_rows(summary):
        # The CSV's figures, with the signs a person reads: 52.3%, 45.1-59.4%, - for none.
        label, played, wins, draws, losses, rate, lo, hi, elo, speed = row
        table.add_row(label, played, wins, draws, losses, f"{rate}%", f"{lo}-{hi}%",
                      elo or "-", speed or "-")
    console.print(table)
    if summary["players"] > 1:
        seats = ", ".join(
            _("seat {seat}: {rate}% (95% CI {low}-{high}%)", seat=seat, rate=rate, low=low,
              high=high)
            for seat, _games, _wins, _draws, _losses, rate, low, high in arena_seat_rows(summary)
        )
        console.print(_("Win rate by seat (all agents): {seats}", seats=seats))
    prior = f"{summary['elo_prior_games']:g}"
    console.print(_(
        "Elo: Bradley-Terry maximum likelihood on pairwise results, mean 1500; virtual "
        "draws added to each pair: {draws}.", draws=prior,
    ))
    clock_note(summary.get("clock_agents", []), console.print)
    if summary["players"] == 1:
        # Alone, agents never meet: say what their pairwise results are.
        console.print(_("One player: every agent plays the same deals; two agents are compared "
                        "deal by deal (a deal both win, or both lose, is a draw)."))


def arena(
    game: str = typer.Argument(..., help="The game: see `pyramids games`."),
    agents: str = typer.Option(
        ..., "--agents", help="Agents, comma-separated; options as name:key=value "
        "(e.g. mcts:iterations=300,greedy). Fewer agents than seats: the last fills the rest."
    ),
    games: int = typer.Option(100, "--games", "-n", help="Number of games."),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    seed: int = typer.Option(0, "--seed", help="Arena seed: every game's seeds derive from it."),
    players: int | None = typer.Option(None, "--players", help="Number of players."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="Game option key=value."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    results: Path | None = typer.Option(
        None, "--results", help="Keep each finished game in this file (JSON lines); run "
        "again with the same settings, the arena plays only the games the file lacks."
    ),
    csv: Path | None = typer.Option(
        None, "--csv", help="Also write the table by agent to this CSV file, and with two "
        "or more seats the win rates by seat beside it (FILE-seats.csv)."
    ),
    force: bool = typer.Option(False, "--force", help="Replace the --csv files if they exist."),
) -> None:
    """A round robin with seats rotated: win rates with 95% intervals and Elo ratings."""
    from pyramids.sim.arena import parse_agents, run_arena

    with user_errors():
        specs = parse_agents(agents)
        if games < 1:
            raise OptionError(N_("--games must be at least 1, got {games}"), games=games)
        runner = make_backend(backend, workers, address)
        options = parse_options(option)
        # Validate the game and options before any game is played.
        from pyramids.sim.arena import resolve_game

        resolved, _chosen = resolve_game(game, options, players, load)
        # Before the games, not after: figures kept in a file are not written over unasked.
        csv_files = [] if csv is None else [csv] + (
            [seats_csv_path(csv)] if resolved.num_players > 1 else [])
        check_csv_targets(csv_files, force)
        check_results_apart(results, csv_files, "--csv")
        with said_when_stopped(results), \
                progress(games, as_json, _("{game} arena", game=game)) as advance:
            summary = run_arena(game, specs, games, seed=seed, players=players,
                                options=options, on_done=advance, backend=runner,
                                results_file=results,
                                on_note=lambda words: typer.echo(words_text(words), err=True))
        if csv is not None:
            write_csv(csv, ARENA_AGENT_COLUMNS, arena_agent_rows(summary))
            if len(csv_files) > 1:
                write_csv(csv_files[1], ARENA_SEAT_COLUMNS, arena_seat_rows(summary))
    if as_json:
        typer.echo(json.dumps(summary, sort_keys=True))
        return
    _print_table(summary)
    for path in csv_files:
        typer.echo(_("wrote {path}", path=path))


def checked_agent(setting: str) -> str:
    """`--agent` as `arena --agents` takes one entry (`mcts:iterations=200`, a level, a
    name), made once here so that a wrong name or option is refused before any game,
    in make_agent's words (which agents, which options are allowed)."""
    from pyramids.agents import make_agent_from_setting

    setting = setting.strip()
    if "," in setting:
        # One agent takes every seat: a list is arena's, and read as one name it would
        # be refused as an unknown agent, as if the names were wrong.
        raise OptionError(N_("--agent '{agent}' names more than one agent; balance plays "
                             "one agent in every seat (for agents against each other, run "
                             "pyramids arena --agents)"), agent=setting)
    make_agent_from_setting(setting)
    return setting


def player_counts(game: str, players: str | None) -> list[int | None]:
    """`--players` as table sizes (None: the game's default), each given once; an entry
    that is empty or not a number is refused with the sizes the game is played with."""
    if not players:
        return [None]
    entries = [entry.strip() for entry in players.split(",")]
    counts = [int(entry) for entry in entries if entry.isascii() and entry.isdigit()]
    if len(counts) == len(entries):
        repeated = next((count for count in counts if counts.count(count) > 1), None)
        if repeated is None:
            return list(counts)
        # Twice the same table played its games twice and reported them once.
        raise OptionError(N_("--players '{players}' names {count} twice; give each table "
                             "size once"), players=players, count=repeated)
    if "" in entries:
        # "2,,3" once played 2 and 3 without a word on the entry that was dropped.
        raise OptionError(N_("--players '{players}' has an empty entry; allowed: {allowed}"),
                          players=players, allowed=table_sizes(game))
    raise OptionError(
        N_("--players '{players}' is not a comma-separated list of table sizes; allowed: "
           "{allowed}"), players=players, allowed=table_sizes(game),
    )


def table_sizes(game: str) -> Words:
    """The table sizes a balance report of `game` can compare, in words, with an example
    list: from the fewest seats (two at least: alone, there are no seats to compare) to
    the most the game has."""
    manifest = find_manifest(game)
    if manifest is None:  # an unknown game is refused here in its own words
        fewest = most = load(game).num_players
    else:
        fewest, most = manifest.players_range()
    fewest = min(max(fewest, 2), most)
    if fewest == most:
        return Words(N_("{game} is played at a table of {count} only"), game=game,
                     count=fewest)
    example = ",".join(str(count) for count in range(fewest, min(most, fewest + 2) + 1))
    return Words(N_("from {fewest} to {most}, comma-separated (e.g. {example})"),
                 fewest=fewest, most=most, example=example)


def balance(
    game: str = typer.Argument(..., help="The game: see `pyramids games`."),
    games: int = typer.Option(200, "--games", "-n", help="Games per player count."),
    players: str | None = typer.Option(
        None, "--players", help="Player counts, comma-separated (e.g. 2,3,4,5); "
        "default: the game's default count."
    ),
    agent: str = typer.Option(
        "greedy", "--agent", help="The agent in every seat: a name, a level (easy, medium, "
        "hard, expert) or a setting, options as name:key=value (e.g. mcts:iterations=200)."
    ),
    out: Path = typer.Option(Path("balance-report"), "--out", help="Folder for the report."),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    seed: int = typer.Option(0, "--seed", help="Seed: every game's seeds derive from it."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="Game option key=value."),
    force: bool = typer.Option(
        False, "--force", help="Replace a report already in the --out folder."
    ),
    results: Path | None = typer.Option(
        None, "--results", help="Keep each finished game in this file (JSON lines); run "
        "again with the same settings, only the games the file lacks are played."
    ),
) -> None:
    """A designer's report: seat win rates per player count, game length, round-cap stalls."""
    from pyramids.sim.balance import (
        PLOTS_IN_ENGLISH_TERMINAL,
        REPORT_WRITES,
        Reader,
        check_report_folder,
        existing_report,
        plot_language,
        run_balance,
        write_report,
    )

    with require_extra("sim", N_("pyramids balance (its plots)")):
        import matplotlib  # noqa: F401  (checked before hours of games, not after)
    with user_errors():
        agent = checked_agent(agent)
        counts = player_counts(game, players)
        if games < 1:
            raise OptionError(N_("--games must be at least 1, got {games}"), games=games)
        runner = make_backend(backend, workers, address)
        options = parse_options(option)
        # Before hours of games: a report a designer kept is not written over unasked.
        if not force and (kept := existing_report(out)) is not None:
            raise OptionError(N_("{path} already holds a balance report ({file}); give --force "
                                 "to replace it, or another --out folder"),
                              path=str(out), file=str(kept))
        from pyramids.sim.arena import resolve_game

        for count in counts:
            resolved, _chosen = resolve_game(game, options, count, load)
            if resolved.num_players == 1:
                raise OptionError(N_(
                    "{game} is played alone: a balance report compares seats; for how often "
                    "an agent wins it, run pyramids simulate {game} --agents {agent}"),
                    game=game, agent=agent)
        # Nor is a run of hours lost to a folder the report cannot be written to.
        check_report_folder(out)
        check_results_apart(results, [out / name for name in REPORT_WRITES], "--out")
        with said_when_stopped(results), \
                progress(games * len(counts), False, _("{game} balance", game=game)) as advance:
            report = run_balance(game, games, counts, agent=agent, seed=seed,
                                 options=options, on_done=advance, backend=runner,
                                 on_note=lambda words: typer.echo(words_text(words), err=True),
                                 results_file=results)
        # In the language of the run's messages (`--lang`, else LANG's).
        lang = current_language()
        path = write_report(report, out, Reader(lang, words_text, format_number))
    if plot_language(lang) != lang:
        # Plots in English rather than boxes where no font here draws the letters: said,
        # in plain words (report.md's note is Markdown).
        typer.echo(_(PLOTS_IN_ENGLISH_TERMINAL), err=True)
    typer.echo(_("wrote {path}", path=path))


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
    app.command("balance")(balance)
