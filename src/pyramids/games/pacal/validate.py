"""Checks for values read back from a saved Pacal state (errors are ValueError)."""

from __future__ import annotations

from typing import Any

from pyramids.core import Rng
from pyramids.games.pacal.pyramid import HIGHEST_CARD, LOWEST_CARD


def checked_int(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what}: {value!r} is not an integer in {low}..{high}")
    return value


def checked_cards(values: Any, what: str) -> list[int]:
    if not isinstance(values, list):
        raise ValueError(f"{what} must be a list of cards")
    return [checked_int(value, LOWEST_CARD, HIGHEST_CARD, what) for value in values]


def checked_seed(seed: Any) -> int | str | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise ValueError(f"seed {seed!r} is not an integer, a string or null")
    return seed


def checked_rng(state: Any) -> Rng:
    """The chance generator, resumed from its saved 64-bit state."""
    rng = Rng(0)
    rng.state = checked_int(state, 0, (1 << 64) - 1, "rng")
    return rng


def checked_history(values: Any, num_actions: int) -> list[int]:
    if not isinstance(values, list):
        raise ValueError("history must be a list")
    return [checked_int(action, 0, num_actions - 1, "history") for action in values]
