"""Measured difficulty of the shipped layouts: the figures, a solve-time model and tiers.

The figures are measured by `benchmarks/layout_difficulty.py` into
`difficulty.json` beside this module, with the sample sizes, seeds and budgets
it used. Nothing here measures; this module reads the figures and derives from
them what players are shown:

- **share of random deals unsolvable** with its 95% Wilson interval (deals the
  all-seeing solver left undecided are counted in neither numerator nor
  denominator);
- **clear rate of each bot level** (easy, medium, hard, expert) playing from a
  player's view (face-down tiles hidden), with Wilson intervals;
- **estimated solve time for a person**, from this model **[ours]**:

      minutes = moves x (SECONDS_PER_MOVE + SECONDS_PER_FREE_TILE x free) / 60
                x (1 + RETRY_WEIGHT x (1 - medium clear rate))

  `moves` is half the tile count; `free` the mean number of free tiles a
  player has to scan before each move along a clearing of the deals the game
  deals (more tiles to compare, more time a move); the last factor charges
  the restarts and undos of a player whose plans run into dead ends, as often
  as the medium bot (plain greedy play with a few mistakes) fails. The three
  constants are fitted (least squares on the logarithms) to the midpoints of
  the source's table for its four named blueprints, `CALIBRATION`, and the
  tests check that each estimate falls inside its range;
- **tier**: from the estimated time, with the source's own bounds: beginner
  under 15 minutes, intermediate under 25, advanced under 40, expert beyond.

A derived field is stored in the data file too (`derive` writes them, so that
readers of the file alone, the chooser and `pyramids layout list`, see them);
the tests check that the stored ones are what this module derives.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("difficulty.json")
LEVELS = ("easy", "medium", "hard", "expert")
# The source's table (seed 004, section 2.5): estimated solve time in minutes.
CALIBRATION = {
    "giza-step-ramp": (10, 15),
    "sphinx-guard": (15, 25),
    "pharaohs-tomb": (25, 40),
    "great-zenith": (40, 60),
}
# Fitted by `benchmarks/layout_difficulty.py --calibrate` (see the module docstring)
# on the figures of 2026-12-07: easy's and medium's clears measured again once their
# slips no longer passed with a pair on the board (the fit of 2026-12-01, on clears
# that counted such resignations, was 0.0 s a move, 1.1 s a free tile, retry weight
# 1.9). This fit puts a flat time on a move and none on the free tiles scanned.
SECONDS_PER_MOVE = 16.0
SECONDS_PER_FREE_TILE = 0.0
RETRY_WEIGHT = 3.3
# Upper bounds in minutes of each tier but the last (the source's table).
TIERS = (("beginner", 15.0), ("intermediate", 25.0), ("advanced", 40.0), ("expert", math.inf))
Z_95 = 1.959964


def read_data(path: Path | None = None) -> dict[str, Any]:
    """The stored figures: `{"sample": ..., "layouts": {name: record}}`."""
    if path is None:
        text = resources.files(__package__).joinpath("difficulty.json").read_text(
            encoding="utf-8"
        )
    else:
        text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0..1); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    half /= denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def clear_rate(record: dict[str, Any], level: str) -> float:
    bot = record["bots"][level]
    return float(bot["clears"]) / bot["games"] if bot["games"] else 0.0


def estimated_minutes(
    record: dict[str, Any],
    seconds_per_move: float = SECONDS_PER_MOVE,
    seconds_per_free_tile: float = SECONDS_PER_FREE_TILE,
    retry_weight: float = RETRY_WEIGHT,
) -> float:
    """The model's solve time for a person, in minutes (see the module docstring)."""
    moves = record["tiles"] / 2
    free = record["solvable_deals"]["mean_free_tiles"]
    per_move = seconds_per_move + seconds_per_free_tile * free
    retries = 1 + retry_weight * (1 - clear_rate(record, "medium"))
    return moves * per_move / 60 * retries


def tier_of(minutes: float) -> str:
    """The tier of an estimated solve time."""
    for name, bound in TIERS:
        if minutes < bound:
            return name
    return TIERS[-1][0]


def derive(record: dict[str, Any]) -> dict[str, Any]:
    """The flat figures players are shown, derived from one layout's measurement."""
    deals = record["random_deals"]
    decided = deals["solvable"] + deals["unsolvable"]
    low, high = wilson(deals["unsolvable"], decided)
    derived: dict[str, Any] = {
        "unsolvable_share": round(deals["unsolvable"] / decided, 3) if decided else None,
        "unsolvable_low": round(low, 3),
        "unsolvable_high": round(high, 3),
        "solver_median_nodes": record["solvable_deals"]["median_nodes"],
    }
    for level in LEVELS:
        bot = record["bots"][level]
        low, high = wilson(bot["clears"], bot["games"])
        derived[f"clear_rate_{level}"] = round(clear_rate(record, level), 3)
        derived[f"clear_rate_{level}_low"] = round(low, 3)
        derived[f"clear_rate_{level}_high"] = round(high, 3)
    minutes = estimated_minutes(record)
    derived["estimated_minutes"] = round(minutes, 1)
    derived["tier"] = tier_of(minutes)
    return derived


def measured_layouts(data: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Every measured layout's record, by name ({} when no data file is shipped)."""
    if data is None:
        if not resources.files(__package__).joinpath("difficulty.json").is_file():
            return {}
        data = read_data()
    layouts: dict[str, dict[str, Any]] = data["layouts"]
    return layouts


def difficulty_table(data: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """One row per measured layout: its name, the stored derived figures and the raw ones."""
    rows = []
    for name, record in sorted(measured_layouts(data).items()):
        rows.append({"name": name, **record})
    return rows
