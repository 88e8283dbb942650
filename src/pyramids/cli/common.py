"""What every command shares: a user's mistake is one line on stderr and exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any, NoReturn

import typer

from pyramids.core import PyramidsError, load
from pyramids.play.i18n import UnknownLanguageError, _, set_language, words_text

USAGE_ERROR = 2


def fail(message: str) -> NoReturn:
    typer.echo(_("error: {problem}", problem=message), err=True)
    raise typer.Exit(USAGE_ERROR)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the package's errors (and bad values) into a one-line message and exit 2."""
    try:
        yield
    except (PyramidsError, ValueError) as error:
        # Options named as the user typed them (`-o turn_order=behind`), not in words.
        fail(words_text(error, keys=True).replace("\n", " "))


@contextmanager
def require_extra(extra: str, feature: str) -> Iterator[None]:
    """Imports inside this block need the optional extra `extra`; a missing one is one line.

    The core install (`pip install pyramids`) has the engines, agents and plain
    play; the terminal app, the server and the plots come with extras. `feature`
    is a catalogue message (mark it with `N_`).
    """
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name and error.name.split(".")[0] == "pyramids":
            raise
        fail(_("{feature} needs the '{extra}' extra (missing module {module}); "
               "install it with: pip install 'pyramids[{extra}]'",
               feature=_(feature), extra=extra, module=repr(error.name)))


LANG_HELP = "Language of what players read: en or ko (default: from LANG)."


def apply_language(lang: str | None) -> None:
    """Use `lang` for every message of this command (None: keep LANG's choice)."""
    if lang is None:
        return
    try:
        set_language(lang)
    except UnknownLanguageError as error:
        fail(str(error))


BACKEND_HELP = "Where the games run: local (worker processes on this machine) or ray."
ADDRESS_HELP = "The Ray cluster to join (default: $RAY_ADDRESS, else a local Ray instance)."


@contextmanager
def progress(total: int, quiet: bool, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on the terminal (nothing when `quiet`); yields `advance(n)`.

    Quiet, the command's stdout is one JSON object: whatever else prints there while
    the games run goes to stderr (Ray prints a worker's death to stdout from a thread
    of its own, and `--json > run.json` would no longer parse)."""
    if quiet:
        with redirect_stdout(sys.stderr):
            yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        transient=True,
        # Nothing is drawn to a pipe or a file, but Rich still wrote an empty line there:
        # `simulate ... > run.txt` began with a blank line.
        disable=not Console().is_terminal,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


@contextmanager
def said_when_stopped(results: Path | None) -> Iterator[None]:
    """Ctrl-C while the games run: say where the finished games are and how to go on
    (the command then ends as a stopped one does, exit code 130)."""
    try:
        yield
    except KeyboardInterrupt:
        if results is not None:
            typer.echo(_("stopped: the games that finished are kept in {path}; give the same "
                         "command again to go on from them", path=results), err=True)
        else:
            typer.echo(_("stopped: no game was kept; with --results FILE, a stopped run goes "
                         "on where it was when given again"), err=True)
        raise


def wrap_cells(line: str, width: int, indent: int = 2) -> str:
    """`line` broken at spaces to fit `width` terminal cells, the lines after the
    first indented by `indent` (a terminal would break a long description mid-word).

    Cells, not characters: a Korean syllable takes two. A word wider than the line
    stays whole on a line of its own.
    """
    from rich.cells import cell_len as cells

    lines: list[str] = []
    body = line.lstrip(" ")
    current = line[:len(line) - len(body)]  # a leading indent stays on the first line
    for word in body.split(" "):
        candidate = f"{current} {word}" if current.strip() else current + word
        if current.strip() and cells(candidate) > width:
            lines.append(current)
            current = " " * indent + word
        else:
            current = candidate
    lines.append(current)
    return "\n".join(lines)


def clock_agents(settings: Iterable[str]) -> list[str]:
    """The agent settings (`mcts`, `mcts:time=2`) that think by the clock."""
    from pyramids.agents import make_agent_from_setting, thinks_by_clock

    return [setting for setting in dict.fromkeys(settings)
            if thinks_by_clock(make_agent_from_setting(setting))]


def clock_note(agents: list[str], say: Callable[[str], Any]) -> None:
    """After a report: the agents that think by the clock make its figures unrepeatable
    from the seed (a designer who runs it again gets other figures, and should know why)."""
    if agents:
        say(_("Thinking by the clock: {agents}. The seed does not replay their games, so "
              "these figures differ from run to run and from machine to machine; for figures "
              "that repeat, give a budget of iterations (mcts:iterations=300).",
              agents=", ".join(agents)))


def changed_options(game: str, options: dict[str, Any]) -> str:
    """The options set away from the game's defaults, `mode=coop, players=2`, or
    "defaults" in words: a report's header (its JSON keeps them all)."""
    defaults = load(game).options
    changed = ", ".join(f"{key}={value}" for key, value in sorted(options.items())
                        if defaults.get(key) != value)
    return changed or _("defaults")
