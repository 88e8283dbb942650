"""What `view(player)` returns in Mahjongg Pyramids (see rules.md).

Tiles carry their board position (`x`, `y`, layer `z`) and, when face up, their
face; a face-down tile shows None for every face field. Seats are numbered from
0 in the data (interfaces show them from 1).
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired only
# from evaluated annotations (Python 3.11).
from typing import Literal, NotRequired, TypedDict

from pyramids.core.views import Outcome


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
    faces: NotRequired[list[str]]
    pair_points: NotRequired[int]
    doubled: NotRequired[bool]
    streak_bonus: NotRequired[int]
    capstone_bonus: NotRequired[int]
    vaults_unlocked: NotRequired[list[int]]
    vault_bonus: NotRequired[int]
    points: NotRequired[int]
    pairs: NotRequired[list[list[int]]]
    #: Face-down tiles a structural shift turned up (a capstone's removal).
    settled: NotRequired[list[int]]
    #: Time attack: the quick-pair and layer bonuses, and the layers emptied.
    speed_bonus: NotRequired[int]
    layer_bonus: NotRequired[int]
    layers_emptied: NotRequired[list[int]]
    #: An undo: tokens of undone favors that stay spent (`undo_refunds_favors` off).
    tokens_kept_spent: NotRequired[int]


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
    winners: list[int]
    returns: list[float]
    scores: list[int]
    token_bonus: list[int]
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
    tiles: list[TileView]
    tiles_left: int
    tiles_total: int
    scores: list[int]
    #: One shared pool in co-op (an int), else one count per seat.
    tokens: int | list[int]
    bank: int
    streaks: list[int]
    doubling: list[int]
    capstones: list[CapstoneView]
    vaults: list[VaultView]
    passes: int
    shifted: int | None
    last_move: LastMove | None
    team_score: NotRequired[int]
    time_left: NotRequired[int]
    elapsed: NotRequired[int]
    barque: NotRequired[BarqueView]
    #: Only for the seat to move, after paying for Ra Sight or a hint:
    sight_pairs: NotRequired[list[list[int]]]
    hint: NotRequired[list[int]]
    unsolvable: NotRequired[bool]
    result: NotRequired[MahjonggResult]
    outcome: Outcome | None
