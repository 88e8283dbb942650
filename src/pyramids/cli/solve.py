"""`pyramids solve mahjongg`: the full-information verdict on a deal.

The deal is the one `pyramids play mahjongg` starts from with the same seed and
options: game options are given as every other command takes them, `-o
key=value` (`--option`), parsed and checked by the same code
(`pyramids.play.session.parse_options`, then the game's option specs), so a bad
key or value gets the same words. The options that decide the deal are
`layout`, `deal` and `pantheon_pairs`; the others are checked and change
nothing here. The layout is `turtle` unless `--layout` or `-o layout=...` names
another. The flags this command had before `-o`, `--deal` and
`--pantheon-pairs/--no-pantheon-pairs`, still work (hidden from the help): each
is the same as its option, and a flag and an option that disagree are refused.
Bad input ends in one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from pyramids.cli.common import user_errors
from pyramids.core import load
from pyramids.core.errors import N_, OptionError
from pyramids.core.options import Option
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.solver import solve
from pyramids.play.i18n import _
from pyramids.play.session import parse_options

GAME = "mahjongg"
#: What `solve mahjongg` plays when neither --layout nor -o layout= names a layout.
DEFAULT_LAYOUT = "turtle"

solve_app = typer.Typer(
    help="Decide deals with full information (every face known).", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(solve_app, name="solve")


def with_flag(options: dict[str, Any], specs: dict[str, Option], name: str, flag: str,
              value: Any) -> None:
    """Put a flag's value into `options` as the option `name` it stands for; a flag and
    an `-o` of that option that say different things are refused (neither wins unsaid)."""
    if value is None:
        return
    if name in options and specs[name].coerce(GAME, options[name]) != value:
        raise OptionError(N_("{flag} and the option {option}={value} disagree; give one of "
                             "them"), flag=flag, option=name, value=options[name])
    options.setdefault(name, value)


@solve_app.command("mahjongg")
def solve_mahjongg(
    layout: str | None = typer.Option(
        None, "--layout", help="A shipped layout name or a .pyr / KMahjongg .layout file "
        f"(the same as -o layout=...; default {DEFAULT_LAYOUT})."
    ),
    seed: int = typer.Option(0, "--seed", help="The deal's seed (as for `pyramids play`)."),
    option: list[str] | None = typer.Option(
        None, "--option", "-o", help="Game option key=value, as for `pyramids play mahjongg`: "
        "deal=solvable or random, pantheon_pairs=true or false, layout=NAME or FILE."
    ),
    deal: str | None = typer.Option(None, "--deal", hidden=True, help="Same as -o deal=..."),
    pantheon_pairs: bool | None = typer.Option(
        None, "--pantheon-pairs/--no-pantheon-pairs", hidden=True,
        help="Same as -o pantheon_pairs=true or false."
    ),
    node_limit: int | None = typer.Option(
        None, "--node-limit", help="Stop after this many positions (verdict: unknown)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Whether the deal can be cleared, and a clearing sequence when it can."""
    with user_errors():
        options = parse_options(option)
        specs = {spec.name: spec for spec in load(GAME).option_specs}
        with_flag(options, specs, "layout", f"--layout {layout}", layout)
        with_flag(options, specs, "deal", f"--deal {deal}", deal)
        with_flag(options, specs, "pantheon_pairs",
                  "--pantheon-pairs" if pantheon_pairs else "--no-pantheon-pairs",
                  pantheon_pairs)
        options.setdefault("layout", DEFAULT_LAYOUT)
        if node_limit is not None and node_limit < 1:
            raise OptionError(N_("--node-limit must be at least 1, got {limit}"),
                              limit=node_limit)
        game = load(GAME, **options)
        assert isinstance(game, MahjonggGame)
        # The faces of the game's own first state: the deal `play` starts from.
        faces = game.new_initial_state(seed).faces
    chosen = game.options
    board = game.layout
    result = solve(board.geometry, faces, pantheon_pairs=chosen["pantheon_pairs"],
                   node_limit=node_limit)
    moves = [f"match {a} {b}" for a, b in result.moves]
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "layout": board.name,
                    "seed": seed,
                    "deal": chosen["deal"],
                    "pantheon_pairs": chosen["pantheon_pairs"],
                    "solvable": result.solvable,
                    "moves": moves,
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
        return
    # Every line a person reads is a catalogue message (`--lang ko` translates it); the
    # moves stay in the notation `play` takes (`match 12 34`), and --json keeps its keys.
    verdict = {True: _("solvable"), False: _("unsolvable"),
               None: _("unknown (node limit reached)")}
    typer.echo(_("{layout} seed {seed} deal={deal}: {verdict}", layout=board.name, seed=seed,
                 deal=chosen["deal"], verdict=verdict[result.solvable]))
    seconds = f"{result.seconds:.3f}"
    typer.echo(_("nodes: {nodes}, seconds: {seconds}", nodes=result.nodes, seconds=seconds))
    if result.solvable:
        typer.echo(_("moves: {moves}", moves=", ".join(moves)))
