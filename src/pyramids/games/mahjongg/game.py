"""The Mahjongg Pyramids game: options, the layout and dealing.

Options (rules page, "Options"): `layout`, `mode`, `players`, `deal`,
`pantheon_pairs`, and every number the project decided (**[ours]**), each with
the default of the rules page. Cross-option checks: time attack is for one
player, co-op for 2 to 4, the bank must cover the starting tokens.

Hints, the unsolvable warning and the Sandstorm Reshuffle are in `advice`
(`game.advice`), which holds the solver's verdicts for this game's layout.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from pyramids.core.api import Game
from pyramids.core.errors import N_, LayoutError, OptionError, OptionRef
from pyramids.core.files import file_as_read
from pyramids.core.options import Option
from pyramids.core.rng import Rng
from pyramids.games.mahjongg import barque, blueprints, modes, settling
from pyramids.games.mahjongg import deal as dealing
from pyramids.games.mahjongg.actions import ActionSpace
from pyramids.games.mahjongg.advice import Advice
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.scoring import ScoreRules
from pyramids.games.mahjongg.state import MahjonggState
from pyramids.games.mahjongg.tiles import match_classes

AUTO = "auto"
# The blueprint each mode plays when `layout=auto` (the seed's pairings).
MODE_LAYOUTS = {
    modes.STANDARD: "pharaohs-tomb",
    modes.TIME_ATTACK: "great-zenith",
    modes.COOP: "twin-pyramids-of-dahshur",
}

OPTIONS: tuple[Option, ...] = (
    Option("layout", AUTO, str,
           "the monument: a blueprint, or a layout file (.pyr or KMahjongg .layout); by "
           "default the mode's own board (Pharaoh's Tomb for a Standard Expedition, Great "
           "Zenith Pyramid for the Time Attack, Twin Pyramids of Dahshur for the Co-op)"),
    Option("mode", modes.STANDARD, str,
           "Standard Expedition (alone or against others), Pharaoh's Time Attack (alone, "
           "against the clock) or Architect Co-op (a team)", choices=modes.MODES),
    Option("players", 1, int, "number of players (Time Attack: 1; Co-op: 2 to 4)",
           minimum=1, maximum=4),
    Option("turn_order", modes.TURNS_ROUND, str,
           "who moves next in the Standard Expedition: round (the next seat, as the "
           "rules say) or behind (after a pair the player with the lowest score, which "
           "takes away most of the first seat's advantage; after a pass the next seat)",
           choices=modes.TURN_ORDERS, ours=True,
           legacy=modes.TURNS_ROUND),  # games saved before the option: seat order
    Option("deal", "solvable", str, "solvable (at least one way to clear the board exists) or "
           "random",
           choices=("solvable", "random")),
    Option("pantheon_pairs", True, bool, "Ra matches Horus and Anubis matches Isis",
           ours=True),
    Option("bank", 20, int, "scarab tokens in the game (the bank before dealing)",
           minimum=0, maximum=1000),
    Option("start_tokens", 2, int, "tokens each player starts with (co-op: into the pool)",
           minimum=0, maximum=100),
    Option("capstone_bonus", 1000, int, "points for removing a capstone", minimum=0,
           maximum=1_000_000),
    Option("capstone_double_pairs", 3, int,
           "the remover's next pairs whose pair points a capstone doubles", minimum=0,
           maximum=1000, ours=True),
    Option("vault_bonus", 750, int, "points for unlocking a burial vault", minimum=0,
           maximum=1_000_000),
    Option("vault_tokens", 1, int, "tokens from the bank for unlocking a vault", minimum=0,
           maximum=100, ours=True),
    Option("token_end_bonus", 200, int, "points per unused token at the end", minimum=0,
           maximum=1_000_000),
    Option("streak_step", 20, int, "flawless streak: points per pair of streak",
           minimum=0, maximum=1_000_000, ours=True),
    Option("streak_cap", 10, int, "flawless streak: the most steps counted", minimum=0,
           maximum=1000, ours=True),
    Option("time_limit_seconds", 900, int, "time attack: the time limit", minimum=1,
           maximum=7200),
    Option("time_token_bonus_seconds", 30, int, "time attack: seconds per unused token",
           minimum=0, maximum=86_400),
    Option("clock", barque.REAL, str,
           "Time Attack: real time (the app or the server counts the seconds) or turns "
           "(each move takes a set number of seconds, for play without a real clock)",
           choices=barque.CLOCKS, ours=True, legacy=barque.REAL),
    Option("turn_seconds", 10, int, "Time Attack counted in turns: the seconds each move "
           "takes",
           minimum=1, maximum=3600, ours=True, legacy=10),
    Option("barque_space_seconds", 60, int,
           "time attack: the seconds of one space of the Solar Barque track (the last "
           "space is sunset)", minimum=1, maximum=3600, ours=True, legacy=60),
    Option("speed_pair_seconds", 10, int,
           "time attack: a pair at most this many seconds after the previous one (or the "
           "start) is a quick pair", minimum=0, maximum=7200, ours=True, legacy=10),
    Option("speed_pair_bonus", 50, int, "time attack: points for a quick pair", minimum=0,
           maximum=1_000_000, ours=True, legacy=0),
    Option("speed_layer_bonus", 50, int,
           "time attack: points for emptying a layer, per track space the barque has "
           "still to sail to sunset", minimum=0, maximum=1_000_000, ours=True, legacy=0),
    Option("sight_cost", 1, int, "tokens for Ra Sight", minimum=0, maximum=100),
    Option("shift_cost", 1, int, "tokens for Anubis Shift", minimum=0, maximum=100,
           ours=True),
    Option("reshuffle_cost", 3, int, "tokens for a Sandstorm Reshuffle", minimum=1,
           maximum=100),
    Option("reveal_favor", True, bool,
           "the Tile Reveal favor: a token turns one face-down tile face up", ours=True,
           legacy=False),
    Option("reveal_cost", 1, int, "tokens for a Tile Reveal", minimum=1, maximum=100,
           ours=True, legacy=1),
    Option("structural_shifts", True, bool,
           "removing a capstone settles the monument: the face-down tiles beneath it, and "
           "those within the settling reach beside it, turn face up", ours=True,
           legacy=False),
    Option("settle_reach", 1, int,
           "structural shifts: how many tiles beside the capstone's footprint the "
           "settling reaches", minimum=0, maximum=50, ours=True, legacy=1),
    Option("undo_refunds_favors", True, bool,
           "one-player modes: an undo restores the exact earlier state, the tokens of the "
           "favors it takes back included (off: a favor's tokens always stay spent)",
           ours=True, legacy=True),
    Option("undo_keeps_peeks_paid", True, bool,
           "one-player modes, where an undo gives favor tokens back: when the moves it takes back "
           "showed anything of a face-down tile (turned one face up, or shuffled hidden "
           "faces), the tokens of the favors it takes back stay spent, so a favor and its "
           "undo cannot show face-down tiles for free (off: every undo refunds)",
           ours=True, legacy=False),
    Option("finish_saves_vaults", True, bool,
           "finish: its pairs go in the order that opens the most locked vaults (off: "
           "pairs holding a vault go last in the order of their tiles' numbers)",
           ours=True, legacy=False),
    Option("warn_unsolvable", True, bool,
           "one-player modes: the view says when the solver proves the board lost",
           ours=True),
    Option("solver_nodes", 1000, int,
           "the solver's node budget for hints and the unsolvable warning", minimum=1,
           maximum=10_000_000, ours=True),
)


@lru_cache(maxsize=64)
def shared_action_space(tiles: int, clock_limit: int | None, reveal: bool) -> ActionSpace:
    """One ActionSpace per layout size, clock and favor set, shared by every game of
    that shape (its table of pairs is large: 10,296 for 144 tiles); it never changes."""
    return ActionSpace(tiles, clock_limit, reveal)


@lru_cache(maxsize=64)
def _cached_layout(name: str, stamp: float) -> Layout:
    return blueprints.load_layout(name)


@lru_cache(maxsize=16)
def _layout_as_read(name: str, content: bytes) -> Layout:
    return blueprints.load_layout(name, content)


def load_layout(name: str) -> Layout:
    """A blueprint by name or a layout file by path (files reread when changed), or the
    file's content as a run read it at its start (`pyramids.core.files.files_as_read`:
    every game of an arena or a balance run is played on one version of the file)."""
    content = file_as_read(name)
    if content is not None:
        return _layout_as_read(name, content)
    stamp = os.path.getmtime(name) if os.path.isfile(name) else 0.0
    return _cached_layout(name, stamp)


class MahjonggGame(Game):
    name: ClassVar[str] = "mahjongg"
    option_specs = OPTIONS
    #: The option that names a shipped board: choosers offer `boards()` for it.
    board_option: ClassVar[str] = "layout"

    @staticmethod
    def boards() -> tuple[dict[str, Any], ...]:
        """Every shipped layout as a chooser draws it (`catalogue.board_entries`)."""
        from pyramids.games.mahjongg.catalogue import board_entries

        return board_entries()

    def __init__(self, layout_object: Layout | None = None, **options: Any) -> None:
        """`layout_object` plays a Layout built in code (tests, puzzles) under the name
        given as the `layout` option; records of such games replay only with it."""
        self._layout_object = layout_object
        super().__init__(**options)

    def _check_options(self) -> None:
        options = self._options
        mode = options["mode"]
        problem = (modes.players_problem(mode, options["players"])
                   or modes.turn_order_problem(mode, options["turn_order"]))
        if problem:
            raise OptionError(problem)
        needed = options["start_tokens"] * options["players"]
        if needed > options["bank"]:
            raise OptionError(
                N_("{bank} cannot give {tokens} to each of {players}; allowed: {bank_name} "
                   "at least {players_name} × {tokens_name} = {needed}"),
                bank=OptionRef("bank", options["bank"]),
                players=OptionRef("players", options["players"]),
                tokens=OptionRef("start_tokens", options["start_tokens"]),
                bank_name=OptionRef("bank"), players_name=OptionRef("players"),
                tokens_name=OptionRef("start_tokens"), needed=needed)
        if self._layout_object is not None:
            layout = self._layout_object
        else:
            name = options["layout"]
            if name == AUTO:
                name = MODE_LAYOUTS[mode]
            try:
                layout = load_layout(name)
            except LayoutError as error:
                raise OptionError(N_("{layout}: {problem}"), problem=error,
                                  layout=OptionRef("layout", options["layout"],
                                                   literal=True)) from None
        if layout.size < 2 or layout.size % 2:
            raise OptionError(
                N_("{layout} has {tiles} tiles; a board needs a positive even number"),
                layout=OptionRef("layout", layout.name, literal=True), tiles=layout.size)
        self.layout = layout
        self.geometry: Geometry = layout.geometry
        self.mode: str = mode
        self.shared_pool = modes.shares_pool(mode)
        self.solo = modes.is_solo(mode, options["players"])
        self.can_finish = self.solo or self.shared_pool
        self.capstone_ids: tuple[int, ...] = tuple(sorted(layout.capstones))
        self.vault_ids: tuple[int, ...] = tuple(sorted(layout.vaults))
        geometry = self.geometry
        # The tiles whose freedom a removal can change: under it and beside it.
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            geometry.below[t] + geometry.left[t] + geometry.right[t] for t in range(layout.size)
        )
        self.classes = match_classes(options["pantheon_pairs"])
        timed = mode == modes.TIME_ATTACK
        # With clock=turns the engine keeps the time, so there are no `clock S` moves.
        self.turn_clock = timed and options["clock"] == barque.TURNS
        clock = options["time_limit_seconds"] if timed and not self.turn_clock else None
        self.actions = shared_action_space(layout.size, clock, options["reveal_favor"])
        self.track = barque.Track(
            limit=options["time_limit_seconds"],
            space_seconds=options["barque_space_seconds"],
            quick_seconds=options["speed_pair_seconds"],
            quick_bonus=options["speed_pair_bonus"],
            layer_bonus=options["speed_layer_bonus"],
        ) if timed else None
        layers: dict[int, int] = {}
        for tile, (_, _, z) in enumerate(geometry.positions):
            layers[z] = layers.get(z, 0) | 1 << tile
        self.layer_masks: tuple[int, ...] = tuple(layers.get(z, 0) for z in range(max(layers) + 1))
        # What removing each capstone turns face up (structural shifts), if anything.
        self.settle_zones: tuple[int, ...] = tuple(
            settling.settle_zone(geometry, tile, options["settle_reach"])
            if options["structural_shifts"] else 0
            for tile in self.capstone_ids
        )
        self.score_rules = ScoreRules(
            capstone_bonus=options["capstone_bonus"],
            capstone_double_pairs=options["capstone_double_pairs"],
            vault_bonus=options["vault_bonus"],
            token_end_bonus=options["token_end_bonus"],
            streak_step=options["streak_step"],
            streak_cap=options["streak_cap"],
        )
        self.advice = Advice(self.geometry, options["pantheon_pairs"], options["solver_nodes"],
                             solvable_deals=options["deal"] == "solvable")

    def __eq__(self, other: object) -> bool:
        # The options name a layout, but a file can change and a layout built in
        # code has any name: two games are the same only on the same board.
        return (
            isinstance(other, MahjonggGame)
            and super().__eq__(other)
            and _board_of(other.layout) == _board_of(self.layout)
        )

    def __hash__(self) -> int:
        return hash((super().__hash__(), _board_of(self.layout)))

    @property
    def num_players(self) -> int:
        return int(self._options["players"])

    def returns_kind(self) -> str:
        return modes.returns_kind(self.mode, self.num_players)

    def outcome_figures(self) -> tuple[str, ...]:
        # `viewing.build_outcome`: the time left only against the clock.
        if self.mode == modes.TIME_ATTACK:
            return ("cleared", "tiles_left", "time_left")
        return ("cleared", "tiles_left")

    @property
    def num_distinct_actions(self) -> int:
        return self.actions.size

    def deal(self, rng: Rng) -> list[int]:
        if self._options["deal"] == "solvable":
            dealt = dealing.deal_solvable_with_order(self.layout, rng,
                                                     self._options["pantheon_pairs"])
            # The deal's clearing, kept for the unsolvable warning (see advice).
            self.advice.keep_clearing(dealt.faces, self.geometry.all_mask, dealt.order)
            return list(dealt.faces)
        return dealing.deal_random(self.layout, rng)

    def new_initial_state(self, seed: int | str | None = None) -> MahjonggState:
        rng = Rng(seed)
        state = MahjonggState(self, seed, self.deal(rng))
        state.rng = rng
        return state

    def state_with_faces(
        self, faces: Sequence[int], seed: int | str | None = None
    ) -> MahjonggState:
        """A state with the faces given (tests, puzzles); it does not replay from its seed."""
        if len(faces) != self.layout.size:
            raise ValueError(f"need {self.layout.size} faces, got {len(faces)}")
        state = MahjonggState(self, seed, list(faces))
        state.rng = Rng(seed)
        return state

    def _state_from_dict(self, data: dict[str, Any]) -> MahjonggState:
        return MahjonggState.from_dict(self, data)


def _board_of(layout: Layout) -> tuple[object, ...]:
    """What makes two layouts the same board: positions and markers, not names or text."""
    return (layout.positions, layout.capstones, layout.vaults, layout.face_down)
