"""Write SVG screenshots of the full-screen app to docs/screenshots/.

    python scripts/tui_screenshots.py [OUT_DIR]

Each game is shown at 80×24 and at 160×50 (`NAME-80x24.svg`, `NAME-160x50.svg`),
played by a fixed seed and a stand-in agent up to an interesting position, so
the pictures are the same on every run. Scores go to a throw-away folder.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from pyramids.agents import make_agent
from pyramids.core import load
from pyramids.play.scores import ScoreStore
from pyramids.play.session import new_session
from pyramids.tui.app import PlayApp

SIZES = ((80, 24), (160, 50))

# (file name, game, options, seats, seed, moves the person plays before the picture)
SHOTS: list[tuple[str, str, dict[str, Any], list[str], int, int]] = [
    ("pacal", "pacal", {}, ["human", "random"], 3, 16),
    ("pacal-solo", "pacal-solo", {}, ["human"], 12, 4),
    ("temple", "temple", {"players": 3}, ["human", "greedy", "greedy"], 5, 25),
    ("mahjongg", "mahjongg", {}, ["human"], 3, 12),
    ("mahjongg-turtle", "mahjongg", {"layout": "turtle"}, ["human"], 3, 8),
    ("mahjongg-time-attack", "mahjongg", {"mode": "time-attack"}, ["human"], 3, 6),
]


async def shoot(
    out: Path, size: tuple[int, int], name: str, game: str, options: dict[str, Any],
    seats: list[str], seed: int, moves: int,
) -> Path:
    session = new_session(load(game, **options), seats, seed)
    state = session.state
    stand_in = make_agent("greedy", seed=seed)  # plays the person's moves before the picture
    played = 0
    while played < moves and not state.is_terminal():
        if session.is_human_turn():
            action = stand_in.step(state)
            if not state.action_to_string(action).startswith("clock"):
                played += 1
            state.apply_action(action)
        else:
            state.apply_action(session.agent_action())
    while not state.is_terminal() and not session.is_human_turn():
        state.apply_action(session.agent_action())  # the picture is taken on the person's turn
    with tempfile.TemporaryDirectory() as scores:
        store = ScoreStore(Path(scores) / "scores.sqlite3")
        app = PlayApp(session, agent_delay=60.0, clock=lambda: 0.0, scores=store)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if name.startswith("mahjongg") and "hint" in state.legal_action_strings():
                await pilot.press("h")
                await pilot.pause()
                await pilot.press("right", "enter")
            await pilot.pause()
            file_name = f"{name}-{size[0]}x{size[1]}.svg"
            return Path(app.save_screenshot(file_name, str(out)))


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        for shot in SHOTS:
            print(await shoot(out, size, *shot))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")))
