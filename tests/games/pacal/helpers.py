"""Positions built by hand for the Pacal tests."""

from __future__ import annotations

import json
from typing import Any

from pyramids.games.pacal import PacalGame, PacalState
from pyramids.games.pacal.actions import DECLINE, PICK_BASE, PLACE_BASE, offer_action


def fields(spec: dict[int, list[int]] | None = None) -> list[list[int]]:
    """Ten fields from {field number: cards oldest first}."""
    out: list[list[int]] = [[] for _ in range(10)]
    for number, cards in (spec or {}).items():
        out[number - 1] = list(cards)
    return out


def descending(first: int, count: int) -> dict[int, list[int]]:
    """F1..F<count> holding first, first-1, ... (one card each)."""
    return {number: [first - number + 1] for number in range(1, count + 1)}


def position(
    hands: list[list[int]],
    pyramids: list[dict[int, list[int]]],
    game: PacalGame | None = None,
    **kwargs: Any,
) -> PacalState:
    return PacalState.from_position(
        game or PacalGame(), hands, [fields(p) for p in pyramids], **kwargs
    )


def offer(a: int, b: int) -> int:
    return offer_action(a, b)


def pick(value: int) -> int:
    return PICK_BASE + value


def place(number: int) -> int:
    return PLACE_BASE + number - 1


def saved(state: Any) -> dict[str, Any]:
    """The full saved state (hidden parts included)."""
    body: dict[str, Any] = json.loads(state.to_json())["state"]
    return body


__all__ = ["DECLINE", "descending", "fields", "offer", "pick", "place", "position", "saved"]
