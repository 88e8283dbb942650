"""The Solar Barque track and the Tile Reveal on the Mahjongg screen."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from pyramids.tui.mahjongg import MahjonggBoard, barque_lines, barque_track  # noqa: E402
from tests.tui.helpers import SMALL  # noqa: E402
from tests.tui.test_mahjongg_tui import click_tile, free_pair  # noqa: E402


def test_the_track_draws_the_barque_on_its_space_and_sunset_at_the_end() -> None:
    assert barque_track(0, 15) == "◆" + "─" * 14 + "☼"
    assert barque_track(4, 15) == "━" * 4 + "◆" + "─" * 10 + "☼"
    assert barque_track(14, 15) == "━" * 14 + "◆☼"
    assert barque_track(15, 15) == "━" * 15 + "◆"
    assert {len(barque_track(space, 15)) for space in range(16)} == {16}


def test_the_summary_lines_tell_the_bonuses_in_words() -> None:
    barque = {"space": 4, "spaces": 15, "space_seconds": 60, "spaces_left": 11,
              "quick_until": 255, "quick_bonus": 50, "layer_bonus": 550}
    track, bonuses = barque_lines(barque, 250)
    assert track == "Solar Barque " + barque_track(4, 15) + " 11 spaces to sunset"
    assert bonuses == "  quick pair for 5 more seconds · a layer emptied now earns 550"
    late = dict(barque, space=15, spaces_left=0, layer_bonus=0)
    assert barque_lines(late, 900) == ["Solar Barque " + barque_track(15, 15) + " sunset"]


@pytest.mark.asyncio
async def test_the_barque_sails_with_the_apps_clock_and_a_reveal_is_chosen_on_the_board(
) -> None:
    now = [100.0]
    session = new_session(load("mahjongg", mode="time-attack"), ["human"], 2)
    app = PlayApp(session, agent_delay=0, clock=lambda: now[0])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        summary = str(app.query_one("#summary").render())
        assert "Solar Barque " + barque_track(0, 15) + " 15 spaces to sunset" in summary
        # Tile Reveal: `v`, then Enter on the face-down tile under the cursor.
        hidden = [t["id"] for t in session.state.view(0)["tiles"] if t["face"] is None]
        assert hidden
        await pilot.press("v")
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        assert board.revealing and "Tile Reveal" in str(app.query_one("#warning").render())
        assert board.cursor in hidden
        app.query_one("#tiles").focus()
        await pilot.press("enter")
        await pilot.pause()
        move = session.state.history_strings()[-1]
        assert move.startswith("reveal ") and int(move.split()[1]) in hidden
        log = "\n".join(str(line.text) for line in app.query_one("#log").lines)
        assert "Tile Reveal" in log and "reveal " not in log
        now[0] += 125.4
        pair = free_pair(session.state.view(0))
        assert pair is not None
        await click_tile(pilot, app, pair[0])
        await click_tile(pilot, app, pair[1])
        summary = str(app.query_one("#summary").render())
        assert barque_track(2, 15) + " 13 spaces to sunset" in summary
        last = str(app.query_one("#last-move").render())
        assert "removed a pair" in last and "quick pair" not in last  # 125 s on


@pytest.mark.asyncio
async def test_on_the_turn_clock_the_board_shows_the_engines_time() -> None:
    session = new_session(load("mahjongg", mode="time-attack", clock="turns", turn_seconds=60,
                               layout="giza-step-ramp"), ["human"], 2)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert not app.timed  # no clock of the app's
        summary = str(app.query_one("#summary").render())
        assert "Time left 15:00" in summary
        pair = free_pair(session.state.view(0))
        assert pair is not None
        await click_tile(pilot, app, pair[0])
        await click_tile(pilot, app, pair[1])
        summary = str(app.query_one("#summary").render())
        assert "Time left 14:00" in summary and barque_track(1, 15) in summary
