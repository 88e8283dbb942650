"""Write SVG screenshots of the full-screen app to docs/screenshots/.

    python scripts/tui_screenshots.py [OUT_DIR]

Each game is played by a fixed seed and the first legal moves up to an
interesting position, so the pictures are the same on every run.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from pyramids.agents import make_agent
from pyramids.core import load
from pyramids.sim.session import new_session
from pyramids.tui.app import PlayApp

SIZE = (132, 46)

# (file name, game, options, seats, seed, moves the person plays before the picture)
SHOTS: list[tuple[str, str, dict[str, Any], list[str], int, int]] = [
    ("pacal", "pacal", {}, ["human", "random"], 3, 16),
    ("pacal-solo", "pacal-solo", {}, ["human"], 12, 4),
    ("temple", "temple", {"players": 3}, ["human", "greedy", "greedy"], 5, 25),
    ("mahjongg", "mahjongg", {}, ["human"], 3, 12),
    ("mahjongg-time-attack", "mahjongg", {"mode": "time-attack"}, ["human"], 3, 6),
]


async def shoot(
    out: Path, name: str, game: str, options: dict[str, Any], seats: list[str], seed: int,
    moves: int,
) -> Path:
    session = new_session(load(game, **options), seats, seed)
    state = session.state
    stand_in = make_agent("greedy", seed=seed)  # plays the person's moves before the picture
    played = 0
    while played < moves and not state.is_terminal():
        if session.is_human_turn():
            state.apply_action(stand_in.step(state))
            played += 1
        else:
            state.apply_action(session.agent_action())
    app = PlayApp(session, agent_delay=60.0, clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if name == "mahjongg":
            await pilot.click("#do-hint")
            await pilot.pause()
        return Path(app.save_screenshot(f"{name}.svg", str(out)))


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for shot in SHOTS:
        print(await shoot(out, *shot))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")))
