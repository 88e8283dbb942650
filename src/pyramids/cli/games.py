"""`pyramids play`, `bots`, `simulate`, `rules` and `replay`.

Every bad input (an unknown game, option, value or agent, a malformed record)
ends in one line that says what was wrong and what is allowed, and exit code 2.
"""

from __future__ import annotations

import json
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import typer

from pyramids.cli.common import (
    ADDRESS_HELP,
    BACKEND_HELP,
    LANG_HELP,
    apply_language,
    changed_options,
    clock_agents,
    clock_note,
    progress,
    require_extra,
    said_when_stopped,
    user_errors,
    wrap_cells,
)
from pyramids.cli.plain import echo, play_plain, read_stdin_line
from pyramids.core import (
    Game,
    GameRecord,
    OptionError,
    PyramidsError,
    RecordError,
    State,
    game_manifest,
)
from pyramids.core.errors import N_, PluralWords
from pyramids.play.boards import parse_game_number, practice_options
from pyramids.play.i18n import _, current_language, format_number, ngettext, words_text
from pyramids.play.learn import ENGLISH_ONLY, learn_page_in, learn_text
from pyramids.play.movelog import record_log
from pyramids.play.option_words import changed_options_words
from pyramids.play.render import render_view, terminal_width
from pyramids.play.results import result_lines, seat_label, seat_name
from pyramids.play.rules import rules_text
from pyramids.play.session import (
    Session,
    can_seat,
    check_seat_names,
    fresh_seed,
    load_game,
    new_session,
    parse_options,
    parse_seats,
    resume_session,
)
from pyramids.sim.backends import make_backend
from pyramids.sim.play import play_series
from pyramids.sim.results import check_results_apart
from pyramids.sim.stats import wilson_interval
from pyramids.sim.tables import check_csv_targets, simulate_table, write_csv

PLAYERS_HELP = "Number of players, where the game has a players option."


def play(
    game: str | None = typer.Argument(None, help="The game: see `pyramids games`."),
    vs: str | None = typer.Option(
        None, "--vs", help="Agent for the other seats: a level (easy, medium, hard, "
        "expert: see `pyramids bots`), an agent's name or a setting (mcts:iterations=200). "
        "Default: medium."
    ),
    seats: str | None = typer.Option(
        None, "--seats", help="Every seat, comma-separated: human or an agent name or setting."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed (a fresh one is shown if omitted)."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="Game option key=value."),
    players: int | None = typer.Option(None, "--players", help=PLAYERS_HELP),
    plain: bool = typer.Option(
        False, "--plain", help="Line prompts instead of the full-screen app."
    ),
    save: Path | None = typer.Option(None, "--save", help="Save the game to this record file."),
    resume: Path | None = typer.Option(None, "--resume", help="Go on with a saved record file."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
    game_number: str | None = typer.Option(
        None, "--game-number",
        help="Play the deal a game number names: a board and a deal, e.g. turtle-4821 "
        "(the board's other options at their defaults).",
    ),
) -> None:
    """Play a game in the terminal, against agents or other people at the same keyboard."""
    apply_language(lang)
    with user_errors():
        if game_number is not None:
            if game is None or resume is not None or seed is not None or option \
                    or players is not None:
                raise PyramidsError(N_(
                    "--game-number needs the game's name and sets the board, the deal and "
                    "the options itself: leave out --seed, --option, --players and --resume"
                ))
            number = parse_game_number(game, game_number)
            option = [f"{key}={value}" for key, value in practice_options(game, number).items()]
            seed = number.deal
        session = _make_session(game, vs, seats, seed, option, players, save, resume)
        if session.save_path is not None:
            session.save_to(session.save_path, resume)
        name = session.game.name
        if not plain and find_spec("textual") is not None and not at_a_terminal():
            # The full-screen app needs a terminal: piped input gets line prompts.
            typer.echo(_("Not at a terminal: playing at line prompts (as with --plain)."))
            plain = True
        if plain:
            typer.echo(_("{game}, seed {seed}", game=_(game_manifest(name).display_title),
                         seed=session.seed))
            typer.echo(_("seats: {seats}", seats=", ".join(
                seat_label(seat, session.seats) for seat in range(len(session.seats)))))
            changed = changed_options_words(session.game)
            if changed:
                typer.echo(_("options: {options}", options="; ".join(changed)))
            typer.echo(_("Type 'help' for commands."))
            play_plain(session, read_stdin_line, echo, lambda: learn_text(name))
            return
        with require_extra("tui", N_("the full-screen app (or play with --plain)")):
            from pyramids.tui.app import run_play_app
        run_play_app(session)


def at_a_terminal() -> bool:
    """A person at a terminal, not a pipe or a script."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _make_session(
    game: str | None,
    vs: str | None,
    seats: str | None,
    seed: int | None,
    option: list[str] | None,
    players: int | None,
    save: Path | None,
    resume: Path | None,
) -> Session:
    if resume is not None:
        if option or players is not None or seed is not None:
            raise PyramidsError(
                N_("--resume takes the game, options and seed from the record")
            )

        def seats_for(saved: Game) -> list[str] | None:
            if game is not None and game != saved.name:
                raise PyramidsError(
                    N_("{file} is a {saved} game, not {game}; leave out the game name"),
                    file=resume, saved=saved.name, game=game,
                )
            # Read before the record's own seats are made: a bot the record names that
            # cannot be made here is replaced, not a reason to refuse the game.
            if seats is None and vs is None:
                return None
            return parse_seats(saved, seats, vs)

        return resume_session(resume, seats_for, save_path=save or resume)
    if game is None:
        from pyramids.core import game_names

        raise PyramidsError(
            N_("name a game (allowed: {allowed}) or give --resume FILE"),
            allowed=", ".join(game_names()),
        )
    loaded = load_game(game, parse_options(option), players)
    seat_names = parse_seats(loaded, seats, vs)
    return new_session(loaded, seat_names, fresh_seed() if seed is None else seed, save)


def simulate(
    game: str = typer.Argument(..., help="The game: see `pyramids games`."),
    agents: str = typer.Option(
        "random", "--agents",
        help="Agents by seat, comma-separated names or settings (mcts:iterations=200); "
        "one fills every seat."
    ),
    games: int = typer.Option(100, "--games", "-n", min=1, help="How many games."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole series."),
    players: int | None = typer.Option(None, "--players", help=PLAYERS_HELP),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="Game option key=value."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    workers: int = typer.Option(1, "--workers", "-w", help="Worker processes."),
    backend: str = typer.Option("local", "--backend", help=BACKEND_HELP),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    csv: Path | None = typer.Option(
        None, "--csv", help="Also write the figures to this CSV file, one row a seat."
    ),
    force: bool = typer.Option(False, "--force", help="Replace the --csv file if it exists."),
    results: Path | None = typer.Option(
        None, "--results", help="Keep each finished game in this file (JSON lines); run "
        "again with the same settings, only the games the file lacks are played."
    ),
) -> None:
    """Play agents against each other and count wins, draws and game length."""
    from pyramids.sim.arena import as_read, file_digests, read_option_files

    with user_errors():
        options = parse_options(option)
        # The files the options name (a layout) are read once, here: the game is loaded
        # from this content, and a results file records its SHA-256.
        files = read_option_files(options)
        with as_read(files):
            loaded = load_game(game, options, players)
        names = [name.strip() for name in agents.split(",") if name.strip()]
        if not names:  # as arena says it, not "got 0 agents:" with nothing after
            raise OptionError(N_("--agents needs at least one agent"))
        if len(names) == 1:
            names *= loaded.num_players
        if can_seat(loaded, len(names)):
            raise OptionError(
                N_("{game} has {count}; got {got}: {agents} (for a table of {given}, give "
                   "--players {given} too)"),
                game=game, count=PluralWords("{count} seat", "{count} seats",
                                             loaded.num_players),
                got=PluralWords("{count} agent", "{count} agents", len(names)),
                agents=", ".join(names), given=len(names))
        check_seat_names(names, allow_human=False)
        # Before the games, not after: figures kept in a file are not written over unasked.
        check_csv_targets([] if csv is None else [csv], force)
        check_results_apart(results, [] if csv is None else [csv], "--csv")
        solo = loaded.num_players == 1
        runner = make_backend(backend, workers, address)
        with said_when_stopped(results), \
                progress(games, as_json, _("{game} simulate", game=game)) as advance:
            summary = play_series(loaded, names, games, seed, keep_finals=solo,
                                  backend=runner, on_done=advance, results_file=results,
                                  on_note=lambda words: typer.echo(words_text(words), err=True),
                                  files=file_digests(files))
        report: dict[str, Any] = summary.to_dict()
        report["clock_agents"] = clock_agents(names)
        if solo:
            report["win_rate"] = summary.wins[0] / summary.games
            report["ci95"] = list(wilson_interval(summary.wins[0], summary.games))
            draws_won = [
                count
                for returns, view in summary.finals
                if returns[0] > 0 and (count := solo_draw_count(view)) is not None
            ]
            report["mean_draws_won"] = sum(draws_won) / len(draws_won) if draws_won else None
        if csv is not None:
            write_csv(csv, *simulate_table(report))
    if as_json:
        typer.echo(json.dumps(report))
        return
    typer.echo(_("{game} ({options}): {games} games, seed {seed}", game=report["game"],
                 options=changed_options(report["game"], report["options"]),
                 games=format_number(report["games"]), seed=report["seed"]))
    for seat in range(len(names)):
        typer.echo("  " + ngettext("{seat}: {count} win", "{seat}: {count} wins",
                                   report["wins"][seat], seat=seat_label(seat, names)))
    if solo:
        # As arena and balance give it: a percentage with its 95% Wilson interval.
        rate = f"{100 * report['win_rate']:.1f}%"
        low, high = (f"{100 * bound:.1f}" for bound in report["ci95"])
        typer.echo("  " + _("losses: {losses}", losses=report["losses"]))
        typer.echo("  " + _("win rate: {rate} (95% CI {low}-{high}%)", rate=rate, low=low,
                            high=high))
        if report["mean_draws_won"] is not None:
            mean_draws = f"{report['mean_draws_won']:.2f}"
            typer.echo("  " + _("mean draws in won games: {draws}", draws=mean_draws))
    else:
        typer.echo("  " + _("draws: {draws}", draws=report["draws"]))
        if report["losses"]:  # a team's losses (co-op): every seat lost
            typer.echo("  " + _("games every seat lost: {losses}", losses=report["losses"]))
    mean_actions = f"{report['mean_actions']:.1f}"
    typer.echo("  " + _("mean actions per game: {actions}", actions=mean_actions))
    clock_note(report["clock_agents"], typer.echo)
    if csv is not None:
        typer.echo(_("wrote {path}", path=csv))


def solo_draw_count(view: dict[str, Any]) -> int | None:
    """The number of cards drawn, from the view's standard outcome block (None: not a figure)."""
    outcome = view.get("outcome") or {}
    draws = outcome.get("figures", {}).get("draws")
    return None if draws is None else int(draws)


def rules(
    game: str = typer.Argument(..., help="The game: see `pyramids games`."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
    reference: bool = typer.Option(
        False, "--reference", help="The rules as implemented, for developers (English)."
    ),
) -> None:
    """Print a game's learn page: about, components, rules, strategy, FAQ, our decisions.

    At a terminal the page is laid out to its width (headings, lists, bold); piped
    (`> pacal.md`) it is the page's Markdown as written."""
    apply_language(lang)
    with user_errors():
        page, written_in = (rules_text(game), "en") if reference else learn_page_in(game)
    # Said on stderr: a page piped to a file stays the page as written.
    if reference and current_language() != "en":
        typer.echo(_("The reference rules are in English only; without --reference, the "
                     "learn page is in your language."), err=True)
    elif written_in != current_language():
        typer.echo(_(ENGLISH_ONLY), err=True)
    if not at_a_terminal():
        typer.echo(page)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console()
    with console.capture() as captured:
        console.print(Markdown(page))
    typer.echo("\n".join(line.rstrip() for line in captured.get().splitlines()))


def replay(
    file: Path = typer.Argument(..., help="A game record (saved by play --save)."),
    step: bool = typer.Option(False, "--step", help="Wait for Enter before each move."),
    tui: bool = typer.Option(False, "--tui", help="Step through it in the full-screen app."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
) -> None:
    """Replay a saved game, move by move, and show the result."""
    apply_language(lang)
    with user_errors():
        record = GameRecord.load_file(file)
        try:
            states = record.replay()
        except RecordError as error:  # which file, as for a record that does not read
            raise RecordError(N_("{path}: {problem}"), path=str(file), problem=error) from None
        # Each move in words, as a spectator reads it (no hand is shown).
        entries = record_log(record, follow=[None], states=states).for_audience(None)
    if tui:
        with require_extra("tui", N_("the full-screen replay")):
            from pyramids.tui.app import run_replay_app
        run_replay_app(record)
        return
    players = record.players or ["?"] * states[0].game.num_players  # who is not recorded
    typer.echo(_("{game}, seed {seed}", game=_(game_manifest(record.game).display_title),
                 seed=record.seed))
    defaults = load_game(record.game, {}).options
    changed = {key: value for key, value in record.options.items()
               if key not in defaults or defaults[key] != value}
    if changed:  # as typed after --option
        typer.echo(_("options: {options}", options=", ".join(
            f"{key}={value}" for key, value in sorted(changed.items()))))
    typer.echo(_("seats: {seats}", seats=", ".join(
        seat_label(seat, players) for seat in range(len(players)))))
    for number, (before, entry) in enumerate(zip(states, entries, strict=False), start=1):
        if step:
            typer.echo(render_view(record.game, before.view(None)))
            typer.echo(_("[Enter for the next move, q to stop] "), nl=False)
            answer = read_stdin_line()
            if answer is None or answer.strip().lower() in ("q", "quit"):
                typer.echo("")
                return
        lines = [line.text() for line in entry.lines]
        typer.echo(f"{number:4}. " + " ".join(lines))
    final = states[-1]
    typer.echo(render_view(record.game, final.view(None)))
    _echo_outcome(final, players)


def _echo_outcome(final: State, players: list[str]) -> None:
    if final.is_terminal():
        for line in result_lines(final, players):
            typer.echo(line)
    else:
        typer.echo(_("The record stops before the end ({count} moves played).",
                     count=len(final.history())))


def bots(
    game: str | None = typer.Argument(None, help="One game (default: every game)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    lang: str | None = typer.Option(None, "--lang", help=LANG_HELP),
) -> None:
    """The bot levels to play against: what each is like and its setting in each game."""
    from pyramids.agents import agent_names
    from pyramids.agents.levels import LEVELS, level_description, level_settings
    from pyramids.core import game_names

    apply_language(lang)
    with user_errors():
        names = [game_manifest(game).name] if game is not None else game_names()
    others = [name for name in agent_names() if name not in LEVELS]
    if as_json:
        typer.echo(json.dumps({
            "games": {name: {level: _level_json(name, level) for level in LEVELS}
                      for name in names},
            "other_agents": others,
        }, indent=2, ensure_ascii=False))
        return
    for index, name in enumerate(names):
        if index:
            typer.echo("")
        typer.echo(_("Bot levels in {game}:", game=_(game_manifest(name).display_title)))
        for level in LEVELS:
            # The level as typed, then in the reader's words.
            typer.echo(f"  {level} · {seat_name(level)}")
            typer.echo(wrap_cells("      " + _(level_description(level, name)),
                                  min(terminal_width(), 100), indent=6))
            for line in _settings_lines(level_settings(name, level)):
                typer.echo("      " + line)
    typer.echo("")
    typer.echo(_("Play one with --vs LEVEL or --seats (play), or --agents (arena, simulate)."))
    typer.echo(wrap_cells(_("Other agents, with options (docs/agents.md): {agents}",
                            agents=", ".join(others)), min(terminal_width(), 100)))


def _level_json(game: str, level: str) -> dict[str, Any]:
    from pyramids.agents.levels import level_description, level_settings

    settings = level_settings(game, level)
    return {"setting": settings[min(settings)],
            "settings_by_players": {str(fewest): setting for fewest, setting in settings.items()},
            "description": _(level_description(level, game))}


def _settings_lines(settings: dict[int, str]) -> list[str]:
    """A level's setting, or one line a table size where it has several:
    'setting (1 player): determinized', 'setting (2 or more players): mcts:...'."""
    if len(settings) == 1:
        return [_("setting: {setting}", setting=next(iter(settings.values())))]
    fewest = list(settings)
    lines = []
    for index, (low, setting) in enumerate(settings.items()):
        high = fewest[index + 1] - 1 if index + 1 < len(fewest) else None
        if high is None:
            tables = _("{count} or more players", count=low)
        elif high == low:
            tables = ngettext("{count} player", "{count} players", low)
        else:
            tables = _("{low} to {high} players", low=low, high=high)
        lines.append(_("setting ({tables}): {setting}", setting=setting, tables=tables))
    return lines


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("bots")(bots)
    app.command("simulate")(simulate)
    app.command("rules")(rules)
    app.command("replay")(replay)


__all__ = ["register", "solo_draw_count"]
