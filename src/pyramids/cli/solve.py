"""`pyramids solve mahjongg`: the full-information verdict on a deal.

The deal is the one `pyramids play mahjongg` starts from with the same seed and
options: game options are given as every other command takes them, `-o
key=value` (`--option`), parsed and checked by the same code
(`pyramids.play.session.parse_options`, then the game's option specs), so a bad
key or value gets the same words. The options that decide the deal are
`layout`, `deal` and `pantheon_pairs`; `players=1` and a mode played alone
(`standard`, `time-attack`) are taken too, since the solver clears a board one
player clears. Every other option (a table of several players, a co-op, the
rules of play and scoring, `solver_nodes`, which `--node-limit` is here) is
refused, naming what is taken: accepted, it would read as if the verdict were
for that game. Without `--layout` or `-o layout=...` the board is the one `play`
deals by default: the mode's own (Pharaoh's Tomb for the Standard Expedition).
A clearing is printed pair by pair, each tile by its face, its place (layer,
row, column) and the letters `play --plain` draws under it; `--json`
keeps the engine's moves and adds the same in `pairs`. The flags this command
had before `-o`, `--deal` and `--pantheon-pairs/--no-pantheon-pairs`, still
work (hidden from the help): each is the same as its option, and a flag and an
option that disagree are refused.
Bad input ends in one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from pyramids.cli.common import user_errors
from pyramids.core import load
from pyramids.core.errors import N_, OptionError, Words
from pyramids.core.options import Option
from pyramids.games.mahjongg.explain import face_words, tile_place
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.solver import solve
from pyramids.games.mahjongg.tiles import FACES
from pyramids.play.i18n import _, words_text
from pyramids.play.session import parse_options
from pyramids.play.text.mahjongg import tile_label

GAME = "mahjongg"
#: The options that decide the deal the solver clears.
DEAL_OPTIONS = ("layout", "deal", "pantheon_pairs")
#: The modes played alone: the solver clears a board one player clears (`mode` only
#: chooses the board where `layout=auto` leaves it to the mode).
ALONE_MODES = ("standard", "time-attack")
#: What `solve mahjongg` takes, in the words its refusals give.
TAKEN = Words(N_("layout, deal, pantheon_pairs, mode=standard or time-attack, players=1"))

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


def check_solved_options(options: dict[str, Any], specs: dict[str, Option]) -> None:
    """Refuse an option the solver does not use, or one that makes a game it does not
    solve (a table of several players): accepted, it would read as if the verdict were
    for that game. Each value is checked by its own option first, in the words every
    command gives; an unknown name is left to the game, which lists the options."""
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None or name in DEAL_OPTIONS:
            continue
        typed = spec.coerce(GAME, value)
        if name == "players" and typed != 1:
            raise OptionError(N_("solve mahjongg clears a board played alone, not by {count} "
                                 "players; give players=1 or leave it out"), count=typed)
        if name == "mode" and typed not in ALONE_MODES:
            raise OptionError(N_("solve mahjongg clears a board played alone: mode={mode} is "
                                 "played by several players; give mode=standard or "
                                 "time-attack, or leave it out"), mode=typed)
        if name == "solver_nodes":
            # The game's budget for hints; this command's own budget is its flag.
            raise OptionError(N_("the option solver_nodes is the budget of the game's hints; "
                                 "the budget of solve mahjongg is --node-limit N"))
        if name not in ("players", "mode"):
            raise OptionError(N_("the option {option} changes play or scoring, not the deal, "
                                 "so solve mahjongg does not use it; it takes: {allowed}"),
                              option=name, allowed=TAKEN)


def tile_words(layout: Layout, faces: list[int], tile: int) -> Words:
    """A tile of the clearing as a person finds it: its face and its place."""
    return Words(N_("{face} ({place})"), face=face_words(FACES[faces[tile]].name),
                 place=tile_place(layout, tile))


def pair_entry(layout: Layout, faces: list[int], pair: tuple[int, int]) -> dict[str, Any]:
    """A pair of the clearing for --json: the move typed with the letters `play --plain`
    draws under the tiles, and each tile's id, letters, face and layout coordinates."""
    return {
        "move": " ".join(["match", *(tile_label(tile) for tile in pair)]),
        "tiles": [{"id": tile, "letters": tile_label(tile), "face": FACES[faces[tile]].name,
                   "x": layout.positions[tile][0], "y": layout.positions[tile][1],
                   "layer": layout.positions[tile][2]} for tile in pair],
    }


@solve_app.command("mahjongg")
def solve_mahjongg(
    layout: str | None = typer.Option(
        None, "--layout", help="A shipped layout name or a .pyr / KMahjongg .layout file "
        "(the same as -o layout=...; by default the board `play` deals: the mode's own)."
    ),
    seed: int = typer.Option(0, "--seed", help="The deal's seed (as for `pyramids play`)."),
    option: list[str] | None = typer.Option(
        None, "--option", "-o", help="Game option key=value, as for `pyramids play mahjongg`: "
        "deal=solvable or random, pantheon_pairs=true or false, layout=NAME or FILE; also "
        "players=1 and mode=standard or time-attack (the solver clears boards played alone; "
        "other options are refused)."
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
        check_solved_options(options, specs)
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
                    # The engine's action strings, as before; `pairs` has them as a
                    # person finds them.
                    "moves": moves,
                    "pairs": [pair_entry(board, faces, pair) for pair in result.moves],
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
        return
    # Every line a person reads is a catalogue message (`--lang ko` translates it); the
    # tiles are named by their faces and places, and by the letters `play --plain` draws
    # under them (a tile's number is found on no board), and --json keeps its keys.
    verdict = {True: _("solvable"), False: _("unsolvable"),
               None: _("unknown (node limit reached)")}
    typer.echo(_("{layout} seed {seed} deal={deal}: {verdict}", layout=board.name, seed=seed,
                 deal=chosen["deal"], verdict=verdict[result.solvable]))
    seconds = f"{result.seconds:.3f}"
    typer.echo(_("nodes: {nodes}, seconds: {seconds}", nodes=result.nodes, seconds=seconds))
    if result.solvable:
        typer.echo(_("A clearing, pair by pair: the move with the letters play --plain draws "
                     "under the tiles, then each tile's face and place (layer 1 is the "
                     "bottom; rows from the top and columns from the left, counted in tiles "
                     "over the whole board; rows 3-4: across two rows)."))
        width = len(str(len(result.moves)))
        for number, pair in enumerate(result.moves, 1):
            move = " ".join(["match", *(tile_label(tile) for tile in pair)])
            first, second = (words_text(tile_words(board, faces, tile)) for tile in pair)
            typer.echo(f"{number:>{width}}. {move}: "
                       + _("{first} and {second}", first=first, second=second))
