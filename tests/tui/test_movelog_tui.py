"""The terminal app's log panel tells moves in words, as the move log does."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from tests.tui.helpers import SIZE, settle  # noqa: E402


def _log(app: PlayApp) -> str:
    return "\n".join(str(line.text) for line in app.query_one("#log").lines)


async def _type(pilot, app: PlayApp, text: str) -> None:  # type: ignore[no-untyped-def]
    app.query_one("#command").focus()
    await pilot.press(*text, "enter")
    await pilot.pause()


async def test_pacal_moves_read_as_words_with_you_for_the_person() -> None:
    session = new_session(load("pacal", rounds_to_win=1, max_rounds=1), ["human", "random"], 8)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):
            await settle(pilot, app)
            if session.state.is_terminal():
                break
            await _type(pilot, app, session.state.legal_action_strings()[0])
        await settle(pilot, app)
        log = _log(app)
        history = session.state.history_strings()
        assert len(history) >= 6
        offers = [text.split() for text in history if text.startswith("offer")]
        mine = session.state.history_strings()[0]
        if mine.startswith("offer"):
            _verb, low, high = mine.split()
            assert f"You offered {low} and {high}." in log
        # The bot by its level, as the browser's log names it (not "Seat 2").
        assert re.search(r"^Random moves \(bot\) (offered|picked|placed) \d+", log,
                         re.MULTILINE), log
        assert not re.search(r"^Seat 2 ", log, re.MULTILINE), log
        assert re.search(r"^You (offered|picked|placed) \d+", log, re.MULTILINE), log
        # Words, not action strings.
        for words in offers:
            assert " ".join(words) not in log
        assert not re.search(r"\bplace F\d+\b|\bpick \d+\b", log)


async def test_the_seats_names_are_made_once_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's names for the seats change only with a new game: they are made when a
    game starts, not again for every move, redraw and clock tick."""
    from pyramids.play.session import Session

    made: list[int] = []
    log_names = Session.log_names

    def counted(session: Session):  # type: ignore[no-untyped-def]
        made.append(1)
        return log_names(session)

    monkeypatch.setattr(Session, "log_names", counted)
    session = new_session(load("pacal", rounds_to_win=1, max_rounds=1), ["human", "random"], 8)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(4):
            await settle(pilot, app)
            await _type(pilot, app, session.state.legal_action_strings()[0])
        await settle(pilot, app)
        assert len(session.state.history()) >= 4
        assert "Random moves (bot)" in _log(app)
        assert len(made) == 1
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-new")
        await pilot.pause()
        await pilot.click("#choice-start")  # the game in progress was not saved
        await settle(pilot, app)
        assert app.session is not session
        assert len(made) == 2


async def test_temple_log_names_cards_in_words_and_keeps_other_hands_hidden() -> None:
    session = new_session(load("temple", players=2), ["human", "greedy"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(12):
            await settle(pilot, app)
            if session.state.is_terminal():
                break
            await _type(pilot, app, session.state.legal_action_strings()[-1])
        await settle(pilot, app)
        log = _log(app)
        assert re.search(r"level-\d card|jewel", log), log
        assert not re.search(r"\bswap (L\d|J) \d\b|\bset \d \d\b", log)
        # The other seat's draws are counts; only the person's own cards are named.
        for line in log.splitlines():
            if line.startswith("Greedy rule (bot) drew"):
                assert re.fullmatch(r"Greedy rule \(bot\) drew \d+ cards?\.", line), line
        assert "Greedy rule (bot) drew" in log and "Seat 2 drew" not in log
