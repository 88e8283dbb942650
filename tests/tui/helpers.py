"""Driving the Textual app in tests: wait for the bots, click what a person would click."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from pyramids.tui.app import PlayApp

SMALL = (80, 24)
LARGE = (160, 50)
SIZE = LARGE


def screen_lines(app: PlayApp) -> list[str]:
    """The screen's rows as the player reads them (Textual's compositor, as its own
    snapshots read it)."""
    return ["".join(segment.text for segment in strip)
            for strip in app.screen._compositor.render_strips()]


async def settle(pilot: Pilot[Any], app: PlayApp, rounds: int = 400,
                 go_on: bool = True) -> None:
    """Let the agents move until a person is to play or the game is over. A round's end
    (a dialog everyone waits on) is answered with Enter, as a person goes on, unless
    `go_on` is False: then settling stops there."""
    for _ in range(rounds):
        await pilot.pause()
        if app.screen.id == "interlude":
            if not go_on:
                return
            await pilot.press("enter")
            continue
        state = app.session.state
        if state.is_terminal() or app.session.is_human_turn():
            await pilot.pause()
            return
    raise AssertionError("the agents did not hand the turn back")


async def click_visible(pilot: Pilot[Any], app: PlayApp, selector: str) -> None:
    """Scroll a widget into sight, as a person would on a small screen, then click it."""
    widget = app.query_one(selector)
    widget.scroll_visible(animate=False, immediate=True)
    await pilot.pause()
    await pilot.click(selector)
    await pilot.pause()


async def play_first_move_by_list(pilot: Pilot[Any], app: PlayApp) -> None:
    """Choose the highlighted (first) legal move in the all-moves panel with the keyboard."""
    moves = app.query_one("#moves")
    if not moves.has_class("shown"):
        await pilot.press("f5")
    moves.focus()
    await pilot.press("enter")
