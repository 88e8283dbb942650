"""Greedy Mahjongg Pyramids, from the strategy notes: work top-down, open up the
board, track the four tiles of a kind, and (with opponents) take points first.

From the view's tile list (position, face when face up, free flag) the agent
scores each legal `match A B`:
- **top-down**: the higher the pair, the better (removing high tiles unblocks
  the most tiles below);
- **opening**: each tile the removal frees counts, found with the free-tile
  rule of the rules page (nothing on top; left or right side open);
- **quad tracking**: when the other tiles of the kind are buried, clearing the
  free pair now is safe; when they are free too, any pairing is fine; a pair
  that leaves the last two of a kind with one lying on the other is avoided
  (they could never both be freed);
- **points**: with opponents the pair's points (group value times elevation,
  capstone bonus) come first; alone, clearing the board is all that counts and
  points only break ties.
`finish` (every tile free) is always taken. With no pair, it spends tokens on an
Anubis shift that makes a match, then a reshuffle, then a Tile Reveal (a face
seen may make a shift useful next); otherwise it passes. At a table a seat that
is not ahead never passes while it can take a pair: the leader would pass back,
and every seat passing in a round ends the game.
"""

from __future__ import annotations

import math
from typing import Any

from pyramids.agents.greedy import best_by
from pyramids.core import Rng, State
from pyramids.core.errors import N_

GROUP_POINTS = {"suit": 100, "deity": 250, "season": 300, "element": 300, "royal": 500}
PANTHEON = {"Ra": "Ra-Horus", "Horus": "Ra-Horus", "Anubis": "Anubis-Isis", "Isis": "Anubis-Isis"}
CAPSTONE_POINTS = 1000
Tile = dict[str, Any]


def match_key(tile: Tile, pantheon_pairs: bool = True) -> str | None:
    """The class a face matches within (None for a face-down tile)."""
    face, group = tile.get("face"), tile.get("group")
    if face is None:
        return None
    if group in ("season", "element"):
        return str(group)
    if group == "deity" and pantheon_pairs:
        return PANTHEON.get(face, face)
    return str(face)


def _overlaps(a: Tile, b: Tile) -> bool:
    return abs(a["x"] - b["x"]) <= 1 and abs(a["y"] - b["y"]) <= 1


class Board:
    """The present tiles of a view, with the free-tile rule."""

    def __init__(self, tiles: list[Tile]) -> None:
        self.tiles = {t["id"]: t for t in tiles}
        self.layers: dict[int, list[Tile]] = {}
        for tile in tiles:
            self.layers.setdefault(tile["z"], []).append(tile)

    def above(self, tile: Tile, gone: set[int]) -> list[Tile]:
        return [t for t in self.layers.get(tile["z"] + 1, ())
                if t["id"] not in gone and _overlaps(t, tile)]

    def below(self, tile: Tile) -> list[Tile]:
        return [t for t in self.layers.get(tile["z"] - 1, ()) if _overlaps(t, tile)]

    def side(self, tile: Tile, dx: int, gone: set[int]) -> list[Tile]:
        return [t for t in self.layers.get(tile["z"], ())
                if t["id"] not in gone and t["x"] == tile["x"] + dx
                and abs(t["y"] - tile["y"]) <= 1]

    def is_free(self, tile: Tile, gone: set[int]) -> bool:
        if self.above(tile, gone):
            return False
        return not self.side(tile, -2, gone) or not self.side(tile, 2, gone)

    def freed_by(self, removed: set[int]) -> int:
        """How many tiles not free now become free when `removed` leave the board."""
        candidates: dict[int, Tile] = {}
        for tile_id in removed:
            tile = self.tiles[tile_id]
            for near in self.below(tile) + self.side(tile, -2, set()) + self.side(tile, 2, set()):
                if near["id"] not in removed:
                    candidates[near["id"]] = near
        return sum(1 for t in candidates.values()
                   if not t.get("free") and self.is_free(t, removed))

    def lies_on(self, upper: Tile, lower: Tile) -> bool:
        """Whether `upper` is on top of `lower`, directly or through a column of tiles."""
        frontier = [upper]
        seen = set()
        while frontier:
            tile = frontier.pop()
            for under in self.below(tile):
                if under["id"] == lower["id"]:
                    return True
                if under["id"] not in seen:
                    seen.add(under["id"])
                    frontier.append(under)
        return False


def choose(state: State, rng: Rng) -> int:
    scores = action_scores(state)
    return best_by(sorted(scores), scores.__getitem__, rng)


def action_scores(state: State) -> dict[int, float]:
    me = state.current_player
    view = state.view(me)
    names = {action: state.action_to_string(action) for action in state.legal_actions()}
    board = Board(view["tiles"])
    pantheon = bool(state.game.options.get("pantheon_pairs", True))
    alone = view.get("players", 1) == 1 or view.get("mode") == "coop"
    by_key: dict[str, list[Tile]] = {}
    for tile in view["tiles"]:
        key = match_key(tile, pantheon)
        if key is not None:
            by_key.setdefault(key, []).append(tile)
    matches = [a for a, n in names.items() if n.startswith("match ")]
    scores: dict[int, float] = {}
    for action, name in names.items():
        if name == "finish":
            scores[action] = 1e9
        elif name.startswith("match "):
            scores[action] = _pair_score(name, board, by_key, pantheon, alone)
        elif name == "reshuffle" and not matches:
            scores[action] = -10.0
        elif name == "pass":
            scores[action] = -20.0
            if matches and not alone and not _leads(view, me):
                # Behind, a pass lets the leader end the game by passing back.
                scores[action] = -1e5
        elif name.startswith("shift ") and not matches:
            scores[action] = _shift_score(name, board, by_key, pantheon)
        elif name.startswith("reveal ") and not matches:
            scores[action] = -15.0
        else:
            scores[action] = -1e6  # hints, sight and undo only end the streak
    return scores


#: A score at or below this is a move the rule never plays while another is legal:
#: hints, Ra Sight and undo, a favor while a pair is free, at a table a pass behind.
UNTHINKABLE = -1e5


def slip_moves(state: State, scores: dict[int, float]) -> list[int]:
    """The moves a slip (`greedy:mistakes=...`) may go to: a plausible mistake is another
    pair, or with no pair another favor; never a pass (alone one pass ends the game,
    and a person with a pair in sight does not give up the turn), nor a move the rule
    treats as unthinkable (tokens spent on a favor while a pair is free, hints, sight,
    undo)."""
    return [action for action in state.legal_actions()
            if scores.get(action, -1e18) > UNTHINKABLE
            and state.action_to_string(action) != "pass"]


def _leads(view: dict[str, Any], seat: int) -> bool:
    """Whether `seat` has more points than every other seat."""
    scores = view["scores"]
    return all(scores[seat] > score for other, score in enumerate(scores) if other != seat)


def _pair_score(name: str, board: Board, by_key: dict[str, list[Tile]], pantheon: bool,
                alone: bool) -> float:
    _, first, second = name.split()
    a, b = board.tiles[int(first)], board.tiles[int(second)]
    removed = {a["id"], b["id"]}
    height = max(a["z"], b["z"])
    structure = 10.0 * height + 6.0 * board.freed_by(removed)
    structure += 3.0 * (len(board.side(a, -2, set())) + len(board.side(a, 2, set()))
                        + len(board.side(b, -2, set())) + len(board.side(b, 2, set())))
    key = match_key(a, pantheon)
    rest = [t for t in by_key.get(key or "", ()) if t["id"] not in removed]
    if len(rest) == 2 and (board.lies_on(rest[0], rest[1]) or board.lies_on(rest[1], rest[0])):
        structure -= 200.0  # the last two of the kind could never both be free
    elif rest and all(not t.get("free") for t in rest):
        structure += 8.0  # the others are buried: this free pair will not be needed later
    elif len(rest) == 2 and all(t.get("free") for t in rest):
        structure += 4.0  # all four free: any pairing works
    points = GROUP_POINTS.get(str(a.get("group")), 100) * (height + 1)
    if a.get("capstone") or b.get("capstone"):
        points += CAPSTONE_POINTS
    if alone:
        return structure + points / 1000.0
    return points / 10.0 + structure


def _shift_score(name: str, board: Board, by_key: dict[str, list[Tile]], pantheon: bool) -> float:
    tile = board.tiles.get(int(name.split()[1]))
    if tile is None:
        return -1e6
    key = match_key(tile, pantheon)
    partners = [t for t in by_key.get(key or "", ()) if t["id"] != tile["id"] and t.get("free")]
    return -5.0 if partners else -1e6


# ----- a position's value for search (mcts cuts its rollouts short with it) -------------

SEARCH_GAMES = ("mahjongg",)
SEARCH_WIDTH = 4
# Undo takes a search back where it was: between "match" and "undo" a search can
# go round forever (the expert bot did); hints and Ra Sight only cost the streak.
UNSEARCHED = frozenset({"undo", "hint", "sight"})
ROLLOUT_DEPTH = 8
SCORE_SCALE = 500.0


def evaluate_state(state: State) -> list[float]:
    """Estimated returns: alone or in co-op, the share of the board cleared; against
    opponents, a softmax of the scores (the winner +1, the others -1)."""
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    view = state.view(None)
    players = state.game.num_players
    if players == 1 or view.get("mode") == "coop":
        cleared = 1.0 - view["tiles_left"] / max(1, view["tiles_total"])
        return [2.0 * cleared - 1.0] * players
    scores = view["scores"]
    top = max(scores)
    weights = [math.exp((s - top) / SCORE_SCALE) for s in scores]
    total = sum(weights)
    return [2.0 * w / total - 1.0 for w in weights]


# ----- named levels (pyramids.agents.levels; figures in docs/agents.md) -----------------

# expert, alone: perfect-information Monte Carlo with the exact solver on sampled faces of
# the face-down tiles (agents/determinized.py; the solver's clearing when every face
# shows). At a table: information-set MCTS with this module's rollouts and leaf values.
DIFFICULTY = {
    "easy": "greedy:mistakes=0.5",
    # At a table the others' pairs hide a few slips: there medium slips twice as often.
    "medium": {1: "greedy:mistakes=0.15", 2: "greedy:mistakes=0.3"},
    "hard": "greedy",
    "expert": {1: "determinized", 2: "mcts:iterations=100"},
}

#: Where this game's levels play otherwise than `LEVEL_DESCRIPTIONS` in
#: `pyramids.agents.levels` says: `medium` is the rule with a few slips.
LEVEL_DESCRIPTIONS = {
    "medium": N_("Plays the rules of thumb, one move at a time, and slips now and then."),
    "expert": N_("The strongest: alone it weighs the faces it cannot see; at a table it "
                 "searches the others' replies, under a second a move."),
}
