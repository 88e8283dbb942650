"""The terminal app with NO_COLOR set, as a monochrome or colour-blind player sees it:
what a cell means (chosen, under the cursor, free, whose turn) is never its colour alone."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from rich.style import Style  # noqa: E402
from textual.widget import Widget  # noqa: E402

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from tests.tui.helpers import SMALL, settle  # noqa: E402


def drawn_styles(app: Any, widget: Widget) -> list[Style]:
    """The styles of the cells a widget is drawn with on screen, as the terminal gets
    them (Textual's compositor), its text's cells only (not its blank padding)."""
    region = widget.region
    styles = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        if not region.y <= y < region.bottom:
            continue
        x = 0
        for segment in strip:
            width = len(segment.text)
            if x < region.right and x + width > region.x and segment.text.strip():
                styles.append(segment.style or Style())
            x += width
    return styles


def looks(app: Any, widget: Widget) -> set[str]:
    """How a widget's text is drawn, colours aside: bold, underline, reverse..."""
    found = set()
    for style in drawn_styles(app, widget):
        found |= {name for name in ("bold", "underline", "reverse", "italic", "strike")
                  if getattr(style, name)}
    return found


async def test_pacal_chosen_and_cursor_cards_are_told_apart_without_colour(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80x24 the hand is drawn without borders: the card chosen for an offer and
    the one under the cursor differed from the rest by their background's colour only,
    one grey among others (or nothing) on a monochrome terminal. The chosen card is now
    underlined and the cursor's card reversed."""
    monkeypatch.setenv("NO_COLOR", "1")
    session = new_session(load("pacal"), ["human", "easy"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert app.no_color
        await pilot.press("enter", "right", "right")  # 3 chosen, the cursor on 11
        await pilot.pause()
        chosen, cursor, plain = (app.query_one(f"#hand-{value}") for value in (3, 11, 16))
        assert chosen.has_class("selected") and app.focused is cursor
        assert len({frozenset(looks(app, card)) for card in (chosen, cursor, plain)}) == 3, \
            [looks(app, card) for card in (chosen, cursor, plain)]
        assert "underline" in looks(app, chosen) and "reverse" in looks(app, cursor)


async def test_temple_chosen_swap_slot_is_told_apart_without_colour(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A swap-zone slot (or a kind of the hand) chosen first, waiting for its other
    half, differed from the others by its background's colour only."""
    monkeypatch.setenv("NO_COLOR", "1")
    session = new_session(load("temple", players=2), ["human", "easy"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("enter", "right")  # slot 1 chosen, the cursor on slot 2
        await pilot.pause()
        chosen, cursor, plain = (app.query_one(f"#slot-{number}") for number in (1, 2, 3))
        assert chosen.has_class("selected") and app.focused is cursor
        assert len({frozenset(looks(app, slot)) for slot in (chosen, cursor, plain)}) == 3, \
            [looks(app, slot) for slot in (chosen, cursor, plain)]
