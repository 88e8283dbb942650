"""The shipped layouts as a chooser shows them: picture data, size, tier and figures.

One entry per shipped blueprint (`blueprints.layout_names()`), so a layout added
to the blueprints folder appears in every chooser without another edit. An entry
holds what a player reads (title, description, tier, tile count, layers) and what
a preview is drawn from: each tile's position `[x, y, z]` in half-tile cells
(a tile covers 2 x 2 cells) and the tile numbers of the capstones, vaults and
face-down tiles. The tier and the measured figures come from the difficulty data
file shipped with the blueprints (`blueprints.difficulty`, written by
`benchmarks/layout_difficulty.py`) when it has the layout: the tier, the
estimated minutes for a person, the share of random deals that are unsolvable,
the solver's median nodes and each bot level's clear rate. Without a measurement
they are absent (`tier` empty, `figures` empty), never guessed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pyramids.games.mahjongg import blueprints
from pyramids.games.mahjongg.blueprints import difficulty
from pyramids.games.mahjongg.layout import Layout

#: The measured figures a chooser shows (the difficulty file has more, with intervals).
SHOWN_FIGURES = (
    "estimated_minutes", "unsolvable_share", "solver_median_nodes", "clear_rate_easy",
    "clear_rate_medium", "clear_rate_hard", "clear_rate_expert",
)


@cache
def difficulty_data() -> dict[str, dict[str, Any]]:
    """The measured records by layout name ({} when no data file is shipped)."""
    try:
        return difficulty.measured_layouts()
    except (OSError, ValueError, KeyError):
        return {}


def _figures(measured: dict[str, Any]) -> dict[str, Any]:
    return {
        key: measured[key] for key in SHOWN_FIGURES
        if isinstance(measured.get(key), int | float) and not isinstance(measured[key], bool)
    }


def board_entry(layout: Layout) -> dict[str, Any]:
    """One layout as a chooser shows it (JSON-ready)."""
    measured = difficulty_data().get(layout.name, {})
    tier = measured.get("tier") or getattr(layout, "tier", "") or ""
    return {
        "name": layout.name,
        "title": layout.title or layout.name,
        "description": layout.description,
        "tier": str(tier),
        "tiles": layout.size,
        "layers": layout.layers,
        "width": layout.width,
        "height": layout.height,
        "positions": [list(position) for position in layout.positions],
        "capstones": sorted(layout.capstones),
        "vaults": sorted(layout.vaults),
        "face_down": sorted(layout.face_down),
        "figures": _figures(measured),
    }


@cache
def board_entries() -> tuple[dict[str, Any], ...]:
    """Every shipped layout, in name order (read once; callers must not change them)."""
    return tuple(board_entry(blueprints.load_layout(name)) for name in blueprints.layout_names())
