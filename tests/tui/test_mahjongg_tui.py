"""The Mahjongg screen, played with Textual's pilot: tiles by click, favors, the clock."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from pyramids.tui.mahjongg import TileCanvas  # noqa: E402
from tests.tui.helpers import SIZE, settle  # noqa: E402

SMALL = {"layout": "giza-step-ramp"}


async def click_tile(pilot, app: PlayApp, tile_id: int) -> None:
    canvas = app.query_one("#tiles", TileCanvas)
    await pilot.click("#tiles", offset=canvas.tile_offset(tile_id))
    await pilot.pause()


async def test_full_game_against_a_bot_by_clicking_tiles() -> None:
    session = new_session(load("mahjongg", players=2, **SMALL), ["human", "greedy"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await settle(pilot, app)
            state = session.state
            if state.is_terminal():
                break
            matches = [t for t in state.legal_action_strings() if t.startswith("match ")]
            if not matches:
                await pilot.click("#do-pass")
                await pilot.pause()
                continue
            first, second = (int(n) for n in matches[0].split()[1:])
            before = len(state.history())
            await click_tile(pilot, app, first)
            await click_tile(pilot, app, second)
            assert state.history_strings()[before] == f"match {first} {second}"
        assert session.state.is_terminal()
        assert str(app.query_one("#status").render()).startswith("Game over")


async def test_blocked_tile_and_bad_pair_change_nothing() -> None:
    session = new_session(load("mahjongg", **SMALL), ["human"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = session.state.view(0)
        free = [t["id"] for t in view["tiles"] if t["free"]]
        legal = set(session.state.legal_action_strings())
        bad = next(
            (a, b) for a in free for b in free if a < b and f"match {a} {b}" not in legal
        )
        before = session.state.to_json()
        await click_tile(pilot, app, bad[0])
        await click_tile(pilot, app, bad[1])
        assert "Not a legal move" in app.message
        assert session.state.to_json() == before


async def test_hint_undo_and_favor_buttons() -> None:
    session = new_session(load("mahjongg", **SMALL), ["human"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#do-hint")
        await pilot.pause()
        hint = session.state.view(0)["hint"]
        assert hint and session.state.history_strings() == ["hint"]
        await click_tile(pilot, app, hint[0])
        await click_tile(pilot, app, hint[1])
        assert session.state.history_strings()[-1] == f"match {hint[0]} {hint[1]}"
        tiles_left = session.state.view(0)["tiles_left"]
        await pilot.click("#do-undo")
        await pilot.pause()
        assert session.state.view(0)["tiles_left"] == tiles_left + 2
        tokens = session.state.view(0)["tokens"][0]
        await pilot.click("#do-sight")
        await pilot.pause()
        assert session.state.view(0)["tokens"][0] == tokens - 1
        assert session.state.view(0)["sight_pairs"]


async def test_time_attack_clock_is_applied_by_the_app() -> None:
    now = [100.0]
    session = new_session(load("mahjongg", mode="time-attack", time_limit_seconds=60), ["human"], 2)
    app = PlayApp(session, agent_delay=0, clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "clock" not in " ".join(app.shown_moves)
        matches = [t for t in session.state.legal_action_strings() if t.startswith("match ")]
        now[0] += 7.6
        app.query_one("#command").focus()
        await pilot.press(*matches[0], "enter")
        await pilot.pause()
        assert session.state.history_strings() == ["clock 7", matches[0]]
        app.query_one("#command").value = ""
        await pilot.press(*"clock 30", "enter")
        await pilot.pause()
        assert "clock is kept by the app" in app.message
        now[0] += 100
        app.tick()
        await pilot.pause()
        assert session.state.is_terminal()
        assert session.state.view(0)["result"]["reason"] == "time-up"
