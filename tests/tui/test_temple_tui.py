"""The Temple screen, played with Textual's pilot: swaps by clicking, buttons for the rest."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from pyramids.tui.board import Board  # noqa: E402
from tests.tui.helpers import SIZE, SMALL, click_visible, screen_lines, settle  # noqa: E402

SHORT = {"players": 2, "max_rounds": 4}


async def click_move(pilot, app: PlayApp, text: str) -> None:
    words = text.split()
    if words[0] == "swap" and words[1] != "pass":
        await click_visible(pilot, app, f"#hand-{words[1]}")
        await click_visible(pilot, app, f"#slot-{words[2]}")
    else:
        await click_visible(pilot, app, "#do-" + text.replace(" ", "-"))


async def test_full_game_against_a_bot_by_mouse_at_80x24() -> None:
    session = new_session(load("temple", **SHORT), ["human", "greedy"], 7)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        swapped = False
        for _ in range(300):
            await settle(pilot, app)
            state = session.state
            if state.is_terminal():
                break
            legal = state.legal_action_strings()
            # Swap once by clicking a hand kind and a slot, else take the last listed move.
            swaps = [text for text in legal if text.startswith("swap ") and text != "swap pass"]
            choice = swaps[0] if swaps and not swapped else legal[-1]
            swapped = swapped or choice in swaps
            before = len(state.history())
            await click_move(pilot, app, choice)
            assert state.history_strings()[before] == choice
        assert session.state.is_terminal()
        assert swapped
        assert str(app.query_one("#status").render()).startswith("Game over")


async def test_illegal_move_changes_nothing_and_hand_is_private() -> None:
    session = new_session(load("temple", **SHORT), ["human", "random"], 2)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        board = app.query_one("#board", Board)
        assert board.view == session.state.view(0)
        assert "hands" not in board.view
        before = session.state.to_json()
        app.query_one("#command").focus()
        await pilot.press(*"set 3 0", "enter")
        await pilot.pause()
        assert "Not a legal move" in app.message
        assert session.state.to_json() == before
        assert app.query_one("#command").value == ""
        # Seats count from 1 on screen (the table of seats is drawn as a table).
        assert any("seat 1 (you)" in line for line in screen_lines(app))


async def test_a_move_typed_in_the_box_leaves_the_next_choices_in_sight_at_80x24() -> None:
    """After a swap typed in the move box, Summon and Pass stayed below the fold: the
    keyboard stays in the box, and the board scrolls to what can be chosen now."""
    session = new_session(load("temple", players=3), ["human", "medium", "medium"], 2)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        box = app.query_one("#command")
        box.focus()
        await pilot.press(*"swap pass", "enter")
        await settle(pilot, app)
        await pilot.pause()
        assert session.state.legal_action_strings() == ["summon", "pass"]
        assert app.focused is box
        # Beside the board, what to do now (the board's own line may be out of sight).
        assert "Construction: summon or pass" in str(app.query_one("#status").render())
        area = app.query_one("#board-area").region
        for button in ("#do-summon", "#do-pass"):
            shown = app.query_one(button).region
            assert shown.height > 0 and area.contains_region(shown), button


async def test_the_arrows_walk_the_buttons_so_enter_plays_the_one_chosen() -> None:
    """On Summon or Pass the arrows did nothing, so Enter played the button left focused,
    not the one the player had moved to."""
    session = new_session(load("temple", players=3), ["human", "medium", "medium"], 2)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        app.try_move("swap pass")
        await settle(pilot, app)
        assert session.state.legal_action_strings() == ["summon", "pass"]
        app.query_one("#do-summon").focus()
        await pilot.press("right")
        assert app.focused is app.query_one("#do-pass")
        await pilot.press("left")
        assert app.focused is app.query_one("#do-summon")
        before = len(session.state.history())
        await pilot.press("right", "enter")
        await pilot.pause()
        assert session.state.history_strings()[before] == "pass"


def play_out(state) -> None:  # type: ignore[no-untyped-def]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])


async def test_the_board_names_a_bot_as_the_log_does_and_people_by_their_seats() -> None:
    """The seats' table, the start player, the construction and the final scores name a
    bot as the log does ("Greedy rule (bot)"), not "seat 2"; the people at the keyboard
    keep their seats' numbers, the one to move "(you)"."""
    session = new_session(load("temple", players=3, max_rounds=2), ["human", "greedy", "human"],
                          7)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=(160, 60)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # the keyboard passed to the person to move
        await pilot.pause()
        viewer = app.viewer
        assert viewer in (0, 2)
        rows = "\n".join(line for line in screen_lines(app) if "3 5 cards" in line)
        other = 2 - viewer
        for name in (f"seat {viewer + 1} (you)", "Greedy rule (bot)", f"seat {other + 1}"):
            assert re.search(rf"{re.escape(name)}\s+3 5 cards", rows), rows
        assert "seat 2" not in rows
        play_out(session.state)
        app.advance()
        await pilot.pause()
        final = next(line for line in screen_lines(app) if "Final scores" in line)
        assert "Greedy rule (bot) " in final and "seat 2" not in final


async def test_a_replay_tells_each_move_in_words_with_the_bots_names() -> None:
    """`replay --tui` listed Temple's moves as the engine writes them ("swap L3 1",
    "set 0 0", "summon"): they read as the move log tells them, bots by their names."""
    from pyramids.core import GameRecord
    from pyramids.tui.app import ReplayApp

    state = load("temple", players=3).new_initial_state(3)
    for _ in range(8):
        state.apply_action(state.legal_actions()[0])
    record = GameRecord.from_state(state, ["human", "greedy", "medium"])
    app = ReplayApp(record)
    async with app.run_test(size=SMALL) as pilot:
        moves = app.query_one("#moves")
        listed = [str(moves.get_option_at_index(n).prompt) for n in range(moves.option_count)]
        assert len(listed) == len(record.actions)
        for line, action in zip(listed, record.actions, strict=True):
            assert not re.search(rf"\b{re.escape(action)}\b", line), (action, line)
        assert any("Greedy rule (bot)" in line for line in listed)
        for _ in range(4):
            await pilot.press("right")
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert status.startswith("Move 4 of 8: ")
        assert listed[3].split(". ", 1)[1] in status.replace("\n", " ")
