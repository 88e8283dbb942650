"""Mahjongg's cursor keys as a rule over many positions: every free tile is reached."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("textual")

from pyramids.core import load  # noqa: E402
from pyramids.tui.mahjongg import cursor_step  # noqa: E402


def test_every_free_tile_is_reached_by_the_arrows_in_random_games() -> None:
    """Over random games on several boards, from any free tile the arrows reach every
    other (the tiles a keyboard player can choose are all the tiles they may)."""
    for layout in ("great-zenith", "giza-step-ramp", "pyramid-of-unas", "ramesseum"):
        for seed in range(2):
            state, rng = load("mahjongg", layout=layout).new_initial_state(seed), \
                random.Random(seed)
            while not state.is_terminal():
                tiles = [t for t in state.view(0)["tiles"] if t.get("free")]
                by_id = {t["id"]: t for t in tiles}
                for start in tiles[:3]:
                    seen, todo = {start["id"]}, [start["id"]]
                    while todo:
                        here = by_id[todo.pop()]
                        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                            there = cursor_step(tiles, here, dx, dy)
                            if there is not None and there not in seen:
                                seen.add(there)
                                todo.append(there)
                    assert seen == set(by_id), (layout, seed, state.history_strings())
                pairs = [action for action in state.legal_actions()
                         if state.action_to_string(action).startswith("match")]
                if not pairs:
                    break
                state.apply_action(rng.choice(pairs))
