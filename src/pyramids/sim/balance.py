"""A designer's balance report: seat win rates, game length and stalls, per player count.

One agent (by default `greedy`) takes every seat, so any difference between the
seats comes from the rules, not from the players. For each player count the
report gives each seat's win rate with its 95% Wilson interval, the length of
the games in actions (and in rounds where the game's final view shows a
`round`), and how often a game ended at its `max_rounds` cap instead of
finishing. It writes `report.md`, `balance.json` and PNG plots (matplotlib's
Agg backend, so no display is needed). report.md is in the reader's language
(`pyramids --lang ko balance`), and so are the plots where a font here draws its
letters (`plot_font`); balance.json and the CSV tables stay for programs to read.
"""

from __future__ import annotations

import json
import os
import shlex
import statistics
import tempfile
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pyramids.agents import make_agent_from_setting, parse_setting, thinks_by_clock
from pyramids.core import OptionError, PyramidsError, game_manifest, load
from pyramids.core.errors import N_, PluralWords, Words
from pyramids.core.files import (
    current_umask,
    os_reason,
    probe_writable_folder,
    write_text_atomically,
)
from pyramids.sim.arena import (
    PLAYER_OPTION_NAMES,
    AgentSpec,
    ArenaJob,
    GameLoader,
    GameResult,
    OptionFile,
    as_read,
    changed_files,
    checked_result,
    file_digests,
    play_job,
    read_option_files,
    resolve_game,
    run_games,
    summarize,
)
from pyramids.sim.backends import Backend, make_backend
from pyramids.sim.results import (
    ResultsFormat,
    kept_already,
    read_results_file,
    results_writer,
)
from pyramids.sim.stats import even_spread_test, sidak_z, wilson_interval
from pyramids.sim.tables import Row, csv_text, percent_figure


def _in_english(words: Words, lang: str) -> str:
    return str(words)


def _as_written(value: float, lang: str) -> str:
    return str(value)


@dataclass(frozen=True)
class Reader:
    """Who a report is for: a language, how `Words` read in it and how counts are
    grouped there (`pyramids.play.i18n.words_text` and `format_number`, which the
    command line passes: the catalogue sits beside sim, not below it). English reads
    as the message ids and counts as written, as the reports kept in docs/balance do."""

    lang: str = "en"
    say: Callable[[Words, str], str] = _in_english
    number: Callable[[float, str], str] = _as_written

    def words(self, words: Words) -> str:
        return str(words) if self.lang == "en" else self.say(words, self.lang)

    def count(self, value: float) -> str:
        return str(value) if self.lang == "en" else self.number(value, self.lang)


#: The report in English, as the message ids say it.
ENGLISH = Reader()


def _(message: str, reader: Reader, /, **values: Any) -> str:
    """`message` (a catalogue message id) with its `{name}`s, as `reader` reads it."""
    return reader.words(Words(message, **values))


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
    seat_wins = [seat["wins"] for seat in summary["seats"]]
    statistic, p = even_spread_test(seat_wins)
    return {
        "games": len(results),
        "seats": summary["seats"],
        # What a seat of a fair game wins: the games some seat won, shared equally (a
        # shared top is no seat's win, so with shared wins it is a little under 1/P).
        "fair_share": sum(seat_wins) / (len(seat_wins) * len(results)) if results else 0.0,
        "chi_square": {"statistic": statistic, "df": max(0, len(seat_wins) - 1), "p": p},
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
    on_note: Callable[[Words], None] | None = None,
    results_file: Path | None = None,
) -> dict[str, Any]:
    """The report's figures for each player count (None: the game's default).

    `agent` is a name or a setting as the arena takes one (`mcts:iterations=200`, a
    level such as `hard`); it takes every seat, and is the report's `agent` as given,
    so that its Reproduce line and a results file name the setting, not the bare name.

    A file an option names (`layout=mine.layout`) is read once, before the first
    game: every game of every player count is played with that content (the report
    records its SHA-256), and `on_note` hears of a file that changed meanwhile.

    With `results_file`, each game of every player count is added to the file as it
    finishes, and the games it already holds for these settings are read back, not
    played again (`pyramids.sim.results`): a stopped run goes on where it was, and
    more games or another player count later add to the same file."""
    if games < 1:
        raise OptionError(N_("--games must be at least 1, got {games}"), games=games)
    # The setting is the agent's label, its name and options the spec that every worker
    # (a local process or a Ray task) makes its agents from.
    name, agent_options = parse_setting(agent)
    spec = AgentSpec(agent, name, agent_options)
    by_count: dict[str, Any] = {}
    chosen_options: dict[str, Any] = {}
    by_clock = False
    files = read_option_files(options or {})
    with ExitStack() as stack:
        kept: dict[tuple[int, int], GameResult] = {}
        keep: Callable[[dict[str, Any]], None] | None = None
        if results_file is not None:
            form = balance_results_format(game_name, options or {}, agent, seed, files)
            kept = read_results_file(results_file, form, on_note)
        for count in players:
            with as_read(files):
                game, chosen = resolve_game(game_name, options, count, loader)
            chosen_options = game.options
            # Per table: `planner` plays Mahjongg alone itself, at a table by mcts.
            by_clock = by_clock or thinks_by_clock(
                make_agent_from_setting(agent, seed=seed), game)
            job = ArenaJob(game_name, chosen, (spec,), seed, loader, files)
            if results_file is None:
                results = run_games(job, games, workers, on_done, backend)
            else:
                done = {index: result for (seats, index), result in kept.items()
                        if seats == game.num_players and index < games}
                if keep is None and len(done) < games:
                    # Opened for the first table with games to add: a finished run kept
                    # read-only gives its report again.
                    keep = stack.enter_context(results_writer(results_file, form))
                results = play_job(job, games, done, keep or kept_already,
                                   backend or make_backend("local", workers), on_done)
            by_count[str(game.num_players)] = player_count_figures(results, [agent])
    if on_note is not None:
        for note in changed_files(files):
            on_note(note)
    report: dict[str, Any] = {
        "game": game_name,
        "agent": agent,
        "seed": seed,
        "games_per_count": games,
        "options": {k: v for k, v in chosen_options.items() if k != "players"},
        # As given (`--option` key=value): what the Reproduce line repeats.
        "given_options": {str(k): str(v) for k, v in (options or {}).items()},
        "by_players": by_count,
        "thinks_by_clock": by_clock,
    }
    if files:  # the content played, as an arena's results file records it
        report["files"] = file_digests(files)
    return report


def balance_results_format(game_name: str, options: dict[str, Any], agent: str, seed: int,
                           files: Sequence[OptionFile]) -> ResultsFormat[tuple[int, int],
                                                                         GameResult]:
    """A balance run's results file: a header of the settings that fix its games (the
    game, the options as given, the agent, the seed, the files' contents), then the
    games of every player count as the arena writes them, keyed by (players, index)."""
    header: dict[str, Any] = {"game": game_name, "options": dict(options), "agent": agent,
                              "seed": seed}
    if files:
        header["files"] = file_digests(files)

    def decode(data: Any) -> tuple[tuple[int, int], GameResult]:
        result = checked_result(data, [agent])
        return (len(result.seats), result.index), result

    return ResultsFormat("balance", header, decode)


def _percent(x: float) -> str:
    return f"{percent_figure(x)}%"


#: The chance of a false alarm the findings allow over the whole report.
FINDINGS_ALPHA = 0.05


def reproduce_args(report: dict[str, Any]) -> list[str]:
    """The arguments of `pyramids balance` that play this report's games again: every
    `--option` as given, the player counts, agent and seed (not `--out`, `--workers`
    or the backend, which change where the figures go or how fast, not the figures)."""
    args = [report["game"], "--games", str(report["games_per_count"]),
            "--players", ",".join(report["by_players"]),
            "--agent", report["agent"], "--seed", str(report["seed"])]
    for key, value in sorted(report.get("given_options", {}).items()):
        args += ["--option", f"{key}={value}"]
    return args


def reproduce_command(report: dict[str, Any], lang: str = "en") -> str:
    """`reproduce_args` as one shell command line, quoted where a shell needs it; with
    `--lang` where the report is not in English, so that the rerun reads the same."""
    language = [] if lang == "en" else ["--lang", lang]
    return shlex.join(["pyramids", *language, "balance", *reproduce_args(report)])


def seat_note(report: dict[str, Any], reader: Reader = ENGLISH) -> str | None:
    """What a seat's number means for who plays first, where it is not the turn order
    (the game manifest's `seat_order`), so that "seat 1" is not read as the first player;
    as `reader` reads it."""
    try:
        seat_order = game_manifest(str(report.get("game"))).seat_order
    except PyramidsError:
        return None  # a game not registered here (a report read back elsewhere)
    note = seat_order(dict(report.get("options", {}))) if seat_order else None
    return None if note is None else reader.words(note)


def _has_round_cap(report: dict[str, Any]) -> bool:
    """Does the game have a `max_rounds` cap (or did any game end at one)?"""
    return "max_rounds" in report.get("options", {}) or any(
        figures["capped"] for figures in report["by_players"].values())


def _fair(figures: dict[str, Any], count: str) -> float:
    return float(figures.get("fair_share", 1 / int(count)))


#: The columns of `seat_win_rates.csv`: the report's table of seat win rates.
SEAT_COLUMNS = ("players", "seat", "games", "wins", "win_rate_pct", "ci95_low_pct",
                "ci95_high_pct", "fair_share_pct")
#: The columns of `game_length.csv`: the report's table of game lengths.
LENGTH_COLUMNS = ("players", "actions_mean", "actions_median", "actions_p90", "actions_max",
                  "rounds_mean", "rounds_median", "rounds_p90", "rounds_max")


def seat_table(report: dict[str, Any]) -> list[list[str]]:
    """The report's seat win rates, a row a seat of each player count, as report.md gives
    them without the `%` signs (seats counted from 1); the CSV's rows."""
    rows = []
    for count, figures in report["by_players"].items():
        for seat in figures["seats"]:
            lo, hi = seat["ci95"]
            rows.append([count, str(seat["seat"] + 1), str(seat["games"]), str(seat["wins"]),
                         percent_figure(seat["win_rate"]), percent_figure(lo),
                         percent_figure(hi), percent_figure(_fair(figures, count))])
    return rows


def length_table(report: dict[str, Any]) -> list[list[str | None]]:
    """The report's game lengths, a row a player count: actions, then rounds (None where
    the game's final view shows no `round`); the CSV's rows."""
    rows: list[list[str | None]] = []
    for count, figures in report["by_players"].items():
        row: list[str | None] = [count]
        for key in ("length_actions", "length_rounds"):
            d = figures[key]
            row += ([f"{d['mean']:.1f}", f"{d['median']:g}", f"{d['p90']:g}", f"{d['max']:g}"]
                    if d else [None] * 4)
        rows.append(row)
    return rows


#: The tables written beside report.md, with their columns and rows.
CSV_TABLES: dict[str, tuple[tuple[str, ...], Callable[[dict[str, Any]], Sequence[Row]]]] = {
    "seat_win_rates.csv": (SEAT_COLUMNS, seat_table),
    "game_length.csv": (LENGTH_COLUMNS, length_table),
}


def _files_played(report: dict[str, Any], reader: Reader) -> list[str]:
    """The report's lines on the files its options name: the content its games played."""
    files = report.get("files") or {}
    if not files:
        return []
    return ["", _("Files, as read once at the start of the run (every game played this "
                  "content): {files}.", reader, files=", ".join(
                      f"`{option}` = `{entry['path']}`, SHA-256 `{entry['sha256']}`"
                      for option, entry in sorted(files.items())))]


def _interval(lo: str, hi: str, reader: Reader) -> str:
    return _("{low} to {high}", reader, low=lo, high=hi)


def report_markdown(report: dict[str, Any], plots: Sequence[str],
                    reader: Reader = ENGLISH) -> str:
    """report.md as `reader` reads it: every heading, header and sentence a catalogue
    message; the Reproduce line, options and settings as typed."""
    game = report["game"]
    lines = [
        _("# Balance report: {game}", reader, game=game),
        "",
        _("Every seat played by `{agent}`; {games} games per player count; arena seed "
          "{seed}. Options: {options}.", reader, agent=report["agent"],
          games=reader.count(report["games_per_count"]), seed=report["seed"],
          options=", ".join(f"`{k}={v}`" for k, v in sorted(report["options"].items()))
          or _("defaults", reader)),
        *_files_played(report, reader),
        "",
        _("Reproduce: `{command}`", reader, command=reproduce_command(report, reader.lang))
        + (" " + _("(`{agent}` thinks by the clock, so the seed does not replay its games: "
                   "a rerun gives other figures; an agent with a budget of iterations repeats "
                   "them)", reader, agent=report["agent"])
           if report.get("thinks_by_clock") else ""),
        "",
        _("## Seat win rates", reader),
        "",
        _("A seat wins when it alone has the highest score; a shared top counts as no win.",
          reader),
        _("The fair share is what each seat of a fair game wins: the games that some seat "
          "won, split equally between the seats (1/P when no game ends in a shared top, a "
          "little less when some do).", reader),
    ]
    note = seat_note(report, reader)
    if note:
        lines += ["", note]
    lines += [
        "",
        _("| players | seat | games | wins | win rate | 95% CI | fair share |", reader),
        "|---|---|---|---|---|---|---|",
    ]
    for count, seat, games, wins, rate, lo, hi, fair in seat_table(report):
        interval = _interval(f"{lo}%", f"{hi}%", reader)
        lines.append(f"| {count} | {seat} | {reader.count(int(games))} | "
                     f"{reader.count(int(wins))} | {rate}% | {interval} | {fair}% |")
    lines += [
        "",
        _("## Game length", reader),
        "",
        _("| players | mean actions | median | p90 | max | mean rounds | median | p90 | max |",
          reader),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in length_table(report):
        lines.append("| " + " | ".join("-" if cell is None else cell for cell in row) + " |")
    if _has_round_cap(report):
        lines += [
            "",
            _("## Games stopped by the round cap", reader),
            "",
            _("| players | games | ended at max_rounds | rate | 95% CI | shared wins |", reader),
            "|---|---|---|---|---|---|",
        ]
        for count, figures in report["by_players"].items():
            lo, hi = figures["capped_ci95"]
            lines.append(
                f"| {count} | {reader.count(figures['games'])} | "
                f"{reader.count(figures['capped'])} | {_percent(figures['capped_rate'])} | "
                f"{_interval(_percent(lo), _percent(hi), reader)} | "
                f"{reader.count(figures['shared_wins'])} |"
            )
    else:
        shared = ", ".join(_("{wins} at {count} players", reader,
                             wins=reader.count(figures["shared_wins"]), count=count)
                           for count, figures in report["by_players"].items())
        lines += ["", _("Shared wins (games whose top score was shared): {counts}.", reader,
                        counts=shared)]
    if plots:
        lines += ["", _("## Plots", reader), ""]
        if plot_language(reader.lang) != reader.lang:
            lines += [_(PLOTS_IN_ENGLISH, reader), ""]
        lines += [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    lines += ["", _("## Findings", reader), "", *findings(report, reader), ""]
    return "\n".join(lines)


def findings(report: dict[str, Any], reader: Reader = ENGLISH) -> list[str]:
    """Plain statements of what looks unsound, from the figures alone, as `reader`
    reads them.

    Many seats tested at once would flag some seat by chance alone (at 2 to 5
    players, 14 seats at 95% each: a false alarm in about half of all fair reports).
    So the false alarms allowed over the whole report are 5%: first, per player
    count, Pearson's chi-square test of "the seats' win counts are equal" at
    0.05 / (the number of player counts) (Bonferroni); only where it rejects are
    seats named, those whose Wilson interval, widened for the number of seats in the
    report (Šidák), excludes the fair share."""
    by_players = report["by_players"]
    counts_alpha = FINDINGS_ALPHA / max(1, len(by_players))
    seats_tested = sum(len(figures["seats"]) for figures in by_players.values())
    z = sidak_z(FINDINGS_ALPHA, seats_tested)
    level = _percent(1 - (1 - FINDINGS_ALPHA) ** (1 / max(1, seats_tested)))
    notes = []
    for count, figures in by_players.items():
        fair = _fair(figures, count)
        test = figures.get("chi_square")
        if test is None or test["p"] >= counts_alpha:
            continue
        named = []
        for seat in figures["seats"]:
            lo, hi = wilson_interval(seat["wins"], seat["games"], z)
            if lo > fair or hi < fair:
                values = {"count": count, "seat": seat["seat"] + 1,
                          "rate": _percent(seat["win_rate"]), "seats": reader.count(seats_tested),
                          "interval": _interval(_percent(lo), _percent(hi), reader),
                          "fair": _percent(fair)}
                named.append(
                    _("- {count} players: seat {seat} wins {rate} (interval corrected for "
                      "{seats} seats: {interval}), ahead of the fair {fair}.", reader, **values)
                    if lo > fair else
                    _("- {count} players: seat {seat} wins {rate} (interval corrected for "
                      "{seats} seats: {interval}), behind the fair {fair}.", reader, **values))
        chi_square = {"count": count, "statistic": f"{test['statistic']:.1f}",
                      "df": reader.count(test["df"]), "p": f"{test['p']:.2g}"}
        notes.append(
            _("- {count} players: the seats' wins are uneven (chi-square {statistic}, {df} "
              "degrees of freedom, p = {p}):", reader, **chi_square) if named else
            _("- {count} players: the seats' wins are uneven (chi-square {statistic}, {df} "
              "degrees of freedom, p = {p}); no single seat stands out beyond its corrected "
              "interval.", reader, **chi_square))
        notes += named
    for count, figures in by_players.items():
        if figures["capped"]:
            notes.append(_(
                "- {count} players: {capped} of {games} games ({rate}) stalled until the "
                "max_rounds cap.", reader, count=count, capped=reader.count(figures["capped"]),
                games=reader.count(figures["games"]), rate=_percent(figures["capped_rate"])))
    if not notes:
        notes.append(
            _("- No seat's wins differ from an even spread over the seats beyond chance and "
              "no game hit the round cap, at this sample size.", reader)
            if _has_round_cap(report) else
            _("- No seat's wins differ from an even spread over the seats beyond chance, at "
              "this sample size.", reader))
    counts = reader.words(PluralWords("{count} player count", "{count} player counts",
                                    len(by_players)))
    notes += [
        "",
        _("Test: per player count, Pearson's chi-square test of \"every seat wins equally "
          "often\" (the fair share) at p < {alpha} (0.05 over {counts}); where it rejects, "
          "the seats whose Wilson interval at {level} error each (Šidák: 5% over all {seats} "
          "seats) excludes the fair share are named. A seat outside its plain 95% interval "
          "above is not evidence by itself: with this many seats, one is expected by chance.",
          reader, alpha=format(counts_alpha, ".3g"), counts=counts, level=level,
          seats=reader.count(seats_tested))
        + (" " + _("Some player count has fewer than 5 wins expected a seat: there the "
                   "chi-square test is only a rough guide; play more games.", reader)
           if any(figures.get("fair_share", 1.0) * figures["games"] < 5
                  for figures in by_players.values()) else ""),
    ]
    return notes


#: An option's value longer than this is shortened in a chart's title to its end (a
#: layout file's path to its name), so that the title stays short.
TITLE_VALUE_CHARS = 24


def changed_options(report: dict[str, Any]) -> dict[str, Any]:
    """The report's options that differ from the game's defaults, by name; not the
    player count, which each chart gives per table. Every option where the game is
    not registered here (a report read back elsewhere): its defaults are unknown."""
    options = {key: value for key, value in report.get("options", {}).items()
               if key not in PLAYER_OPTION_NAMES}
    try:
        defaults = load(str(report.get("game"))).options
    except PyramidsError:
        defaults = {}
    return {key: value for key, value in sorted(options.items())
            if key not in defaults or defaults[key] != value}


def _title_value(value: Any) -> str:
    text = str(value)
    if len(text) <= TITLE_VALUE_CHARS:
        return text
    return "…" + text[-(TITLE_VALUE_CHARS - 1):]


def chart_title(report: dict[str, Any], what: str, reader: Reader = ENGLISH) -> str:
    """A chart's title: the game, the options the run changed from the game's defaults
    (`default options` where none), and what the chart shows, so that two charts of
    runs with different `--option`s read differently once saved apart."""
    changed = changed_options(report)
    options = (", ".join(f"{key}={_title_value(value)}" for key, value in changed.items())
               or _("default options", reader))
    return _("{game} ({options}): {what}", reader, game=report["game"], options=options,
             what=what)


#: Letters of each language other than English, to find a font that draws them.
_SAMPLE_LETTERS = {"ko": "한국어 자리별 승률"}
#: The fonts made for each language, best first: taken before any other font that
#: happens to hold the sample letters (a fallback font may draw them poorly).
PREFERRED_FONTS = {"ko": ("Noto Sans CJK KR", "Noto Sans KR", "Source Han Sans KR",
                          "NanumGothic", "NanumBarunGothic", "Malgun Gothic",
                          "Apple SD Gothic Neo", "AppleGothic", "UnDotum", "Baekmuk Gulim",
                          "Noto Sans CJK JP", "Noto Sans CJK SC", "Noto Sans CJK TC")}


def choose_plot_font(fonts: Iterable[tuple[str, str]], lang: str,
                     draws: Callable[[str, str], bool]) -> str | None:
    """Of `fonts` ((name, file) pairs, as matplotlib lists them), the name of the one to
    draw `lang`'s plots with: a font made for the language first (`PREFERRED_FONTS`, in
    that order), else the first that draws every sample letter (`draws(file, letters)`);
    never Last Resort (matplotlib's fallback, a box for every letter). None: no font
    here draws them (nor for English, which matplotlib's own fonts draw)."""
    sample = _SAMPLE_LETTERS.get(lang)
    if sample is None:
        return None
    letters = "".join(sorted(set(sample) - {" "}))
    candidates = [(name, file) for name, file in fonts if not name.startswith("Last Resort")]
    rank = {name: place for place, name in enumerate(PREFERRED_FONTS.get(lang, ()))}
    ordered = sorted(candidates, key=lambda font: rank.get(font[0], len(rank)))
    checked: dict[str, bool] = {}
    for name, file in ordered:
        if file not in checked:
            checked[file] = draws(file, letters)
        if checked[file]:
            return name
    return None


def _draws_letters(file: str, letters: str) -> bool:
    """Whether the font in `file` has a glyph for each of `letters`."""
    from matplotlib.ft2font import FT2Font

    try:
        font = FT2Font(file)
        return all(font.get_char_index(ord(letter)) for letter in letters)
    except (OSError, RuntimeError):
        return False  # a font file that cannot be read


@cache
def plot_font(lang: str) -> str | None:
    """The name of a font that matplotlib knows and that draws `lang`'s letters (Noto
    Sans CJK, Nanum... where installed; `choose_plot_font`); None where there is none
    (nor for English, which matplotlib's own fonts draw): the plots are then in
    English, and the report and the command say so (`PLOTS_IN_ENGLISH`,
    `PLOTS_IN_ENGLISH_TERMINAL`)."""
    if lang not in _SAMPLE_LETTERS:
        return None
    from matplotlib import font_manager

    fonts = [(str(font.name), str(font.fname)) for font in font_manager.fontManager.ttflist]
    return choose_plot_font(fonts, lang, _draws_letters)


#: What the report and `pyramids balance` say when the plots fall back to English.
PLOTS_IN_ENGLISH = N_("The plots' titles, axes and legends are in English: matplotlib found "
                      "no font here that draws this language's letters (install one, such as "
                      "`Noto Sans CJK`, and run again for plots in this language).")
#: The same, as `pyramids balance` prints it in the terminal: plain words, no Markdown
#: (the report's backticks showed as they are).
PLOTS_IN_ENGLISH_TERMINAL = N_("The plots' titles, axes and legends are in English: matplotlib "
                               "found no font here that draws this language's letters (install "
                               "one, such as Noto Sans CJK, and run again for plots in this "
                               "language).")


def plot_language(lang: str) -> str:
    """The language the plots are drawn in for a report in `lang`: English where no
    font here draws `lang`'s letters."""
    return lang if lang == "en" or plot_font(lang) else "en"


def _wrapped(title: str, width_inches: float) -> str:
    """`title` broken at spaces into lines that fit a figure `width_inches` wide."""
    import textwrap

    # About 9 characters an inch at the title's size and the plots' 100 dpi.
    return textwrap.fill(title, width=max(30, int(9 * width_inches)), break_on_hyphens=False,
                         break_long_words=False)


#: The height a title's line takes in a chart, in inches (a chart grows by it for each
#: line after the first, so that a long title does not squeeze the plot).
TITLE_LINE_INCHES = 0.25


def _save_figure(fig: Any, path: Path, title: str) -> None:
    """Save a chart as PNG, whole or not at all (as `write_text_atomically` writes text):
    a plot that fails half-way never replaces one already there. The title is also
    the PNG's own Title: a file saved apart still says what it shows."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png",
                                         dir=path.parent)
    os.close(handle)
    try:
        fig.savefig(temporary, dpi=100, metadata={"Title": title}, format="png")
        os.chmod(temporary, 0o666 & ~current_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_plots(report: dict[str, Any], out: Path, reader: Reader = ENGLISH) -> list[str]:
    """PNG plots of seat win rates and game lengths; the file names written. Their
    titles, axes and legends are in the reader's language where a font here draws its
    letters (`plot_font`), else in English."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if plot_language(reader.lang) != reader.lang:
        reader = ENGLISH
    font = plot_font(reader.lang)
    with plt.rc_context({"font.family": "sans-serif",
                         "font.sans-serif": [font, *plt.rcParams["font.sans-serif"]]}
                        if font else {}):
        return _draw_plots(report, out, reader)


def _draw_plots(report: dict[str, Any], out: Path, reader: Reader) -> list[str]:
    import matplotlib.pyplot as plt

    written = []
    counts = list(report["by_players"])
    width = 3.2 * len(counts) + 1
    title = chart_title(report, _("seat win rates (dashed: fair share)", reader), reader)
    shown = _wrapped(title, width)
    fig, axes = plt.subplots(1, len(counts), squeeze=False, layout="constrained",
                             figsize=(width, 3.2 + TITLE_LINE_INCHES * shown.count("\n")))
    for ax, count in zip(axes[0], counts, strict=True):
        seats = report["by_players"][count]["seats"]
        rates = [s["win_rate"] for s in seats]
        errors = [
            [s["win_rate"] - s["ci95"][0] for s in seats],
            [s["ci95"][1] - s["win_rate"] for s in seats],
        ]
        ax.bar([str(s["seat"] + 1) for s in seats], rates, yerr=errors, capsize=3, color="#b8860b")
        ax.axhline(_fair(report["by_players"][count], count), color="black", linestyle="--",
                   linewidth=1)
        ax.set_title(_("{count} players", reader, count=count))
        ax.set_xlabel(_("seat", reader))
        ax.set_ylim(0, 1)
    axes[0][0].set_ylabel(_("win rate (95% CI)", reader))
    fig.suptitle(shown)
    path = out / "seat_win_rates.png"
    _save_figure(fig, path, title)
    plt.close(fig)
    written.append(path.name)

    use_rounds = all(report["by_players"][c]["rounds"] for c in counts)
    key = "rounds" if use_rounds else "lengths"
    title = chart_title(report, _("game length", reader), reader)
    shown = _wrapped(title, 6)
    fig, ax = plt.subplots(figsize=(6, 3.5 + TITLE_LINE_INCHES * shown.count("\n")),
                           layout="constrained")
    for count in counts:
        ax.hist(report["by_players"][count][key], bins=30, alpha=0.5,
                label=_("{count} players", reader, count=count))
    ax.set_xlabel(_("game length (rounds)", reader) if use_rounds else
                  _("game length (actions)", reader))
    ax.set_ylabel(_("games", reader))
    ax.legend()
    fig.suptitle(shown)
    path = out / "game_length.png"
    _save_figure(fig, path, title)
    plt.close(fig)
    written.append(path.name)
    return written


#: The files that make a folder a balance report (the plots alone are not one).
REPORT_FILES = ("report.md", "balance.json", *CSV_TABLES)
#: Every file a report writes in its folder.
REPORT_WRITES = (*REPORT_FILES, "seat_win_rates.png", "game_length.png")


def existing_report(out: Path) -> Path | None:
    """The report file already in `out`, if any (what `--force` would replace)."""
    return next((out / name for name in REPORT_FILES if (out / name).exists()), None)


_NOT_A_FOLDER = N_("cannot write the report to {path}: {file} is a file, not a folder; give "
                   "--out a folder that can be written, or one that can be made")
_CANNOT_WRITE_REPORT = N_("cannot write the report to {path}: {folder}: {reason}; give --out "
                          "a folder that can be written, or one that can be made")


def check_report_folder(out: Path) -> None:
    """Before any game is played: refuse an `out` the report cannot be written to (a
    file, a path under a file, a folder that cannot be written or made), naming the
    path and what is wrong, rather than lose a long run's figures at its end. It
    changes nothing: the folder is made only when the report is written."""
    folder = out
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the nearest part of the path that is there
    if folder.exists() and not folder.is_dir():
        raise PyramidsError(_NOT_A_FOLDER, path=str(out), file=str(folder))
    try:
        probe_writable_folder(folder)
    except OSError as error:
        raise PyramidsError(_CANNOT_WRITE_REPORT, path=str(out), folder=str(folder),
                            reason=os_reason(error)) from None


def write_report(report: dict[str, Any], out: Path, reader: Reader = ENGLISH) -> Path:
    """Write report.md, balance.json, the CSV tables and the plots into `out`; the
    report's path. report.md is as `reader` reads it (the plots too, where a font here
    draws its letters); balance.json
    and the CSV tables keep their keys and numbers, for programs to read. A folder
    that cannot be written is one line naming it (a PyramidsError), not a traceback;
    each file is written whole or not at all."""
    try:
        return _write_report(report, out, reader)
    except OSError as error:
        if isinstance(error, (NotADirectoryError, FileExistsError)):
            check_report_folder(out)  # names the file in the way, where one is
        where = Path(error.filename) if error.filename else out
        if where.parent == out:  # a file of the report (or its temporary): the folder
            where = out
        raise PyramidsError(_CANNOT_WRITE_REPORT, path=str(out), folder=str(where),
                            reason=os_reason(error)) from None


def _write_report(report: dict[str, Any], out: Path, reader: Reader) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    plots = write_plots(report, out, reader)
    saved = {
        **report,
        "by_players": {
            count: {k: v for k, v in figures.items() if k not in ("lengths", "rounds")}
            for count, figures in report["by_players"].items()
        },
    }
    write_text_atomically(out / "balance.json", json.dumps(saved, indent=2, sort_keys=True) + "\n")
    for name, (columns, rows) in CSV_TABLES.items():
        write_text_atomically(out / name, csv_text(columns, rows(report)))
    path = out / "report.md"
    write_text_atomically(path, report_markdown(report, plots, reader))
    return path
