"""The planner's Mahjongg play: follow a clearing found by the exact solver.

The solver works on a layout's geometry and faces. The planner rebuilds both
from the view alone (the present tiles' positions and faces), so it sees
nothing a player could not: it only plans when every present tile is face up.
"""

from __future__ import annotations

from typing import Any, Protocol

from pyramids.core import IllegalActionError, State


class Planning(Protocol):
    node_limit: int
    _plan: list[int]
    _plan_key: str | None


def _board_key(tiles: list[dict[str, Any]]) -> str:
    return ",".join(str(t["id"]) for t in sorted(tiles, key=lambda t: t["id"]))


def solve_view(tiles: list[dict[str, Any]], pantheon_pairs: bool, node_limit: int
               ) -> list[tuple[int, int]] | None:
    """A clearing of the present tiles as pairs of tile ids, or None (none found)."""
    from pyramids.games.mahjongg.geometry import Geometry
    from pyramids.games.mahjongg.solver import solve

    ordered = sorted(tiles, key=lambda t: t["id"])
    geometry = Geometry.from_positions([(t["x"], t["y"], t["z"]) for t in ordered])
    faces = [int(t["face_index"]) for t in ordered]
    result = solve(geometry, faces, pantheon_pairs=pantheon_pairs, node_limit=node_limit)
    if not result.solvable:
        return None
    ids = [t["id"] for t in ordered]
    return [(ids[a], ids[b]) for a, b in result.moves]


def next_action(planner: Planning, state: State) -> int | None:
    """The next move of a solver plan, or None when there is none (the caller decides)."""
    view = state.view(state.current_player)
    tiles = view["tiles"]
    if not tiles or any(t.get("face_index") is None for t in tiles):
        return None
    legal = set(state.legal_actions())
    names = {state.action_to_string(a): a for a in legal}
    if "finish" in names:
        return names["finish"]
    key = _board_key(tiles)
    if planner._plan_key != key or not planner._plan:
        pantheon = bool(state.game.options.get("pantheon_pairs", True))
        plan = solve_view(tiles, pantheon, planner.node_limit)
        planner._plan = [] if plan is None else _as_actions(state, plan)
        planner._plan_key = key
    if not planner._plan or planner._plan[0] not in legal:
        planner._plan = []
        return None
    action = planner._plan.pop(0)
    # After this pair the board is the one the rest of the plan was made for.
    remaining = [t for t in tiles if state.action_to_string(action).split()[1:].count(
        str(t["id"])) == 0]
    planner._plan_key = _board_key(remaining)
    return action


def _as_actions(state: State, plan: list[tuple[int, int]]) -> list[int]:
    actions = []
    for a, b in plan:
        try:
            actions.append(state.string_to_action(f"match {a} {b}"))
        except IllegalActionError:
            return []
    return actions
