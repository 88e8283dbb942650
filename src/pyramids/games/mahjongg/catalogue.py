"""The shipped layouts as a chooser shows them: picture data, size, tier and figures.

One entry per shipped blueprint (`blueprints.layout_names()`), so a layout added
to the blueprints folder appears in every chooser without another edit. An entry
holds what a player reads (title, description, tier, tile count, layers) and what
a preview is drawn from: each tile's position `[x, y, z]` in half-tile cells
(a tile covers 2 x 2 cells) and the tile numbers of the capstones, vaults and
face-down tiles. The tier and the measured figures come from the difficulty data
file shipped with the blueprints (`difficulty.json`, written by
`benchmarks/layout_difficulty.py`) when it has the layout; without it they are
absent (`tier` empty, `figures` empty), never guessed.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from pyramids.games.mahjongg import blueprints
from pyramids.games.mahjongg.layout import Layout

DIFFICULTY_FILE = "difficulty.json"


@cache
def difficulty_data() -> dict[str, dict[str, Any]]:
    """The measured figures by layout name ({} when no data file is shipped)."""
    entry = resources.files(blueprints.__name__).joinpath(DIFFICULTY_FILE)
    if not entry.is_file():
        return {}
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if isinstance(data, dict) and isinstance(data.get("layouts"), dict):
        data = data["layouts"]
    if isinstance(data, list):
        data = {item.get("name"): item for item in data if isinstance(item, dict)}
    if not isinstance(data, dict):
        return {}
    return {str(name): item for name, item in data.items() if isinstance(item, dict)}


def _figures(measured: dict[str, Any]) -> dict[str, Any]:
    """The numbers of a layout's measurement, nested ones flattened with dots."""
    figures: dict[str, Any] = {}
    for key, value in measured.items():
        if isinstance(value, bool) or key in ("name", "tier", "title", "description"):
            continue
        if isinstance(value, int | float):
            figures[key] = value
        elif isinstance(value, dict):
            for inner, number in value.items():
                if isinstance(number, int | float) and not isinstance(number, bool):
                    figures[f"{key}.{inner}"] = number
    return figures


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
