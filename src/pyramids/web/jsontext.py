"""JSON text for the room socket: compact, made by orjson where it can.

A state message is made for every client after every move; orjson makes it
about eight times faster than the standard library (3 against 26 us for a
Pacal state message). The text is the same JSON (compact separators, keys in
their order); only characters outside ASCII go out as UTF-8 instead of `\\u`
escapes. What orjson refuses (an integer beyond 64 bits, a lone surrogate) is
made by the standard library, so every value the standard library takes goes out.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """`value` as compact JSON text."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"))


__all__ = ["dumps"]
