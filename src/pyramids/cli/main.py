"""The `pyramids` command. Each group of commands lives in its own module.

A module in `COMMAND_MODULES` defines `register(app)` and adds its commands;
the interfaces stay independent of each other and import only what they use.
"""

from __future__ import annotations

import importlib

import typer

COMMAND_MODULES = (
    "pyramids.cli.games",  # play, simulate, rules, replay
    "pyramids.cli.tutorial",  # tutorial
    "pyramids.cli.arena",  # arena, balance
    "pyramids.cli.layout",  # layout info/show/validate
    "pyramids.cli.solve",  # solve
    "pyramids.cli.serve",  # serve
)

app = typer.Typer(
    name="pyramids",
    help="Play, simulate and study Pacal, Temple of Inscriptions and Mahjongg Pyramids.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def installed_version() -> str:
    """The installed package's version (figures and reports name it)."""
    from importlib import metadata

    try:
        return metadata.version("pyramids")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"pyramids {installed_version()}")
        raise typer.Exit()


@app.callback()
def root(
    lang: str | None = typer.Option(None, "--lang", help="Language: en or ko (default: LANG)."),
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Play, simulate and study Pacal, Temple of Inscriptions and Mahjongg Pyramids."""
    from pyramids.cli.common import apply_language

    apply_language(lang)


@app.command("games")
def list_games() -> None:
    """List the registered games."""
    from pyramids.cli.common import wrap_cells
    from pyramids.core import game_entry, game_names
    from pyramids.play.i18n import _
    from pyramids.play.render import terminal_width

    width = terminal_width()
    for name in game_names():
        # A long summary wraps under itself, not under the game's name.
        typer.echo(wrap_cells(f"{name:12} {_(game_entry(name).summary)}", width, indent=13))


def _register_commands() -> None:
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        module.register(app)


_register_commands()


def main() -> None:
    # Mistakes on the command line in the reader's language (pyramids.cli.usage).
    from pyramids.cli.usage import main as run_main

    run_main(app)


if __name__ == "__main__":
    main()
