"""Nim as plain text, for `pyramids play --plain` and `pyramids replay`."""

from __future__ import annotations

from typing import Any


def render(view: dict[str, Any]) -> str:
    pile = "o" * view["stones"] or "(empty)"
    return f"Pile: {pile} ({view['stones']} stones)"
