"""`pyramids solve mahjongg`: the full-information verdict on a deal.

The deal is the one `pyramids play mahjongg` starts from with the same layout,
seed and deal option: `Rng(seed)` handed to `deal_solvable` or `deal_random`,
as `MahjonggGame.new_initial_state(seed)` does. Bad input ends in one line on
stderr and exit code 2.
"""

from __future__ import annotations

import json

import typer

from pyramids.cli.common import fail
from pyramids.core.errors import PyramidsError
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import deal_random, deal_solvable
from pyramids.games.mahjongg.solver import solve
from pyramids.play.i18n import words_text

DEALS = ("solvable", "random")

solve_app = typer.Typer(
    help="Decide deals with full information (every face known).", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(solve_app, name="solve")




@solve_app.command("mahjongg")
def solve_mahjongg(
    layout: str = typer.Option(
        "turtle", "--layout", help="A shipped layout name or a .pyr / KMahjongg .layout file."
    ),
    seed: int = typer.Option(0, "--seed", help="The deal's seed (as for `pyramids play`)."),
    deal: str = typer.Option("solvable", "--deal", help="solvable or random."),
    pantheon_pairs: bool = typer.Option(
        True, "--pantheon-pairs/--no-pantheon-pairs", help="Ra matches Horus, Anubis Isis."
    ),
    node_limit: int | None = typer.Option(
        None, "--node-limit", help="Stop after this many positions (verdict: unknown)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Whether the deal can be cleared, and a clearing sequence when it can."""
    if deal not in DEALS:
        fail(f"--deal {deal!r}: allowed are {', '.join(DEALS)}")
    if node_limit is not None and node_limit < 1:
        fail(f"--node-limit {node_limit}: give a positive number of positions")
    try:
        board = load_layout(layout)
        rng = Rng(seed)
        if deal == "solvable":
            faces = deal_solvable(board, rng, pantheon_pairs)
        else:
            faces = deal_random(board, rng)
    except PyramidsError as error:
        fail(words_text(error))
    result = solve(board.geometry, faces, pantheon_pairs=pantheon_pairs, node_limit=node_limit)
    moves = [f"match {a} {b}" for a, b in result.moves]
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "layout": board.name,
                    "seed": seed,
                    "deal": deal,
                    "pantheon_pairs": pantheon_pairs,
                    "solvable": result.solvable,
                    "moves": moves,
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
        return
    verdict = {True: "solvable", False: "unsolvable", None: "unknown (node limit reached)"}
    typer.echo(f"{board.name} seed {seed} deal={deal}: {verdict[result.solvable]}")
    typer.echo(f"nodes: {result.nodes}, seconds: {result.seconds:.3f}")
    if result.solvable:
        typer.echo("moves: " + ", ".join(moves))
