"""What `view(player)` returns in Mahjongg Pyramids (see rules.md).

Tiles carry their board position (`x`, `y`, layer `z`) and, when face up, their
face; a face-down tile shows None for every face field. Seats are numbered from
0 in the data (interfaces show them from 1).
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired only
# from evaluated annotations (Python 3.11).
from math import comb
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pyramids.core.views import PER_SEAT, Capacity, Outcome

# The capacities of the lists (`Capacity`), from the layout and the options: the
# game object carries the layout, its capstones, vaults and layers.


def _tiles(game: Any) -> int:
    return int(game.layout.size)


def _pairs_of_all_tiles(game: Any) -> int:
    return int(game.layout.size) // 2


def _matching_pairs(game: Any) -> int:
    """The pairs a board could offer at once: every two tiles of a match class, over
    the layout's tile set, as if all were free."""
    from pyramids.games.mahjongg.tiles import tile_set  # the views module stays light

    counts: dict[int, int] = {}
    for face in tile_set(game.layout.size):
        klass = game.classes[face]
        counts[klass] = counts.get(klass, 0) + 1
    return sum(comb(count, 2) for count in counts.values())


def _settling_tiles(game: Any) -> int:
    """The face-down tiles a structural shift can turn up: those of every capstone's
    zone (none when `structural_shifts` is off)."""
    reach = 0
    for zone in game.settle_zones:
        reach |= zone
    return bin(reach).count("1")


def _capstones(game: Any) -> int:
    return len(game.capstone_ids)


def _vaults(game: Any) -> int:
    return len(game.vault_ids)


def _layers(game: Any) -> int:
    return len(game.layer_masks)


TILES = Capacity(_tiles)
TWO = Capacity(2)
#: Two tile ids.
Pair = Annotated[list[int], TWO]


class TileView(TypedDict):
    id: int
    x: int
    y: int
    z: int
    face: str | None
    face_index: int | None
    group: str | None
    short: str | None
    free: bool
    shifted: NotRequired[bool]
    capstone: NotRequired[bool]
    vault: NotRequired[bool]


class CapstoneView(TypedDict):
    id: int
    removed_by: int | None
    on_board: bool


class VaultView(TypedDict):
    id: int
    state: Literal["locked", "unlocked", "forfeited"]
    by: int | None


class LastMove(TypedDict):
    """The last move and, for a pair, what it earned."""

    player: int
    action: str
    #: A pair: the faces of its two tiles, as the view names faces (public: both were
    #: free and face up when taken).
    faces: NotRequired[Annotated[list[str], TWO]]
    pair_points: NotRequired[int]
    doubled: NotRequired[bool]
    streak_bonus: NotRequired[int]
    capstone_bonus: NotRequired[int]
    vaults_unlocked: NotRequired[Annotated[list[int], Capacity(_vaults)]]
    vault_bonus: NotRequired[int]
    points: NotRequired[int]
    #: `finish`: every pair it took.
    pairs: NotRequired[Annotated[list[Pair], Capacity(_pairs_of_all_tiles)]]
    #: Face-down tiles a structural shift turned up (a capstone's removal).
    settled: NotRequired[Annotated[list[int], Capacity(_settling_tiles)]]
    #: Time attack: the quick-pair and layer bonuses, and the layers emptied.
    speed_bonus: NotRequired[int]
    layer_bonus: NotRequired[int]
    layers_emptied: NotRequired[Annotated[list[int], Capacity(_layers)]]
    #: An undo: tokens of undone favors that stay spent (`undo_refunds_favors` off, or
    #: `undo_keeps_peeks_paid` and the moves taken back showed a face-down tile).
    tokens_kept_spent: NotRequired[int]
    #: An undo that keeps tokens spent because the moves it took back showed
    #: something of a face-down tile (`undo_keeps_peeks_paid`).
    face_down_shown: NotRequired[bool]


class BarqueView(TypedDict):
    """The Solar Barque time track of time attack (see `barque`)."""

    space: int  # 0 = start; `spaces` = sunset
    spaces: int
    space_seconds: int
    spaces_left: int
    #: "real": the interface reports the time; "turns": each action takes its seconds.
    clock: Literal["real", "turns"]
    #: The elapsed second until which the next pair is a quick pair, and its bonus.
    quick_until: int
    quick_bonus: int
    #: What emptying a layer is worth now.
    layer_bonus: int


class MahjonggResult(TypedDict):
    """Mahjongg's own end-of-game details (the standard block is `outcome`)."""

    reason: str
    cleared: bool
    winners: Annotated[list[int], PER_SEAT]
    returns: Annotated[list[float], PER_SEAT]
    scores: Annotated[list[int], PER_SEAT]
    token_bonus: Annotated[list[int], PER_SEAT]
    team_won: NotRequired[bool]
    time_left: NotRequired[int]
    time_score: NotRequired[int]


class MahjonggView(TypedDict):
    game: Literal["mahjongg"]
    mode: Literal["standard", "time-attack", "coop"]
    layout: str
    players: int
    phase: Literal["play", "over"]
    current_player: int
    tiles: Annotated[list[TileView], TILES]
    tiles_left: int
    tiles_total: int
    scores: Annotated[list[int], PER_SEAT]
    #: One shared pool in co-op (an int), else one count per seat.
    tokens: int | Annotated[list[int], PER_SEAT]
    bank: int
    streaks: Annotated[list[int], PER_SEAT]
    doubling: Annotated[list[int], PER_SEAT]
    capstones: Annotated[list[CapstoneView], Capacity(_capstones)]
    vaults: Annotated[list[VaultView], Capacity(_vaults)]
    passes: int
    shifted: int | None
    last_move: LastMove | None
    team_score: NotRequired[int]
    time_left: NotRequired[int]
    elapsed: NotRequired[int]
    barque: NotRequired[BarqueView]
    #: Only for the seat to move, after paying for Ra Sight or a hint:
    sight_pairs: NotRequired[Annotated[list[Pair], Capacity(_matching_pairs)]]
    hint: NotRequired[Pair]
    unsolvable: NotRequired[bool]
    result: NotRequired[MahjonggResult]
    outcome: Outcome | None
