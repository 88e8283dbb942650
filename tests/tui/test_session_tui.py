"""A sitting that goes on: play again, the same deal again, best scores kept on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import ChoiceScreen, PlayApp  # noqa: E402
from tests.tui.helpers import SMALL  # noqa: E402


async def finish_solo_by_keys(pilot, app: PlayApp) -> None:
    """Pacal solo: Enter on the field the board offers first, until the game ends."""
    await pilot.pause()
    for _ in range(60):
        if app.session.state.is_terminal():
            return
        await pilot.press("enter")
    raise AssertionError("the game did not end")


async def test_best_scores_survive_a_restart_of_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)  # the default score file, in the user data folder
    async with app.run_test(size=SMALL) as pilot:
        await finish_solo_by_keys(pilot, app)
        assert "rank 1 of 1" in str(app.query_one("#scores").render())
        draws = session.state.view(0)["outcome"]["scores"][0]
    assert list((tmp_path / "data").rglob("scores.sqlite3"))

    again = PlayApp(new_session(load("pacal-solo"), ["human"], 6), agent_delay=0)
    async with again.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(again.screen, ChoiceScreen)
        await pilot.click("#choice-scores")
        await pilot.pause()
        shown = str(again.screen.query_one("#question").render())
        assert f"1. {draws:g}" in shown


async def test_a_corrupt_score_file_is_kept_aside_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    broken = tmp_path / "pyramids" / "scores.sqlite3"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not sqlite" * 50)
    app = PlayApp(new_session(load("pacal-solo"), ["human"], 5), agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await finish_solo_by_keys(pilot, app)
        kept = broken.with_name("scores.sqlite3.corrupt-1")
        assert "could not be read" in app.message and str(kept) in app.message
        assert "rank 1 of 1" in str(app.query_one("#scores").render())
    assert kept.read_bytes() == b"not sqlite" * 50


async def test_play_again_and_the_same_deal_again(tmp_path: Path) -> None:
    from pyramids.play.scores import ScoreStore

    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=SMALL) as pilot:
        await finish_solo_by_keys(pilot, app)
        first_game = list(session.state.history())
        await pilot.click("#end-restart")
        await pilot.pause()
        assert app.session is not session and app.session.seed == 5
        assert app.session.state.history() == [] and not app.session.state.is_terminal()
        await finish_solo_by_keys(pilot, app)
        assert app.session.state.history() == first_game  # the same deal plays the same
        await pilot.click("#end-new")
        await pilot.pause()
        assert app.session.seed != 5 and app.session.seats == ["human"]
        assert not app.session.state.is_terminal()
        # The menu does the same mid-game.
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-restart")
        await pilot.pause()
        assert app.session.state.history() == []


async def test_the_menu_sets_the_bots_level_for_a_new_game(tmp_path: Path) -> None:
    from pyramids.agents.levels import LEVEL_DESCRIPTIONS
    from pyramids.play.scores import ScoreStore

    session = new_session(load("temple", players=3), ["human", "medium", "medium"], 5)
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-level")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        question = str(app.screen.query_one("#question").render())
        assert "Now: Medium." in question
        for description in LEVEL_DESCRIPTIONS.values():
            assert description in " ".join(question.split())
        # Back leaves the game as it was.
        await pilot.press("escape")
        await pilot.pause()
        assert app.session is session
        await choose_level(pilot, "hard")
        if app.unsaved():  # the bots have moved: the deal is asked about first
            await pilot.click("#choice-start")
            await pilot.pause()
        assert app.session is not session
        assert app.session.seats == ["human", "hard", "hard"]
        assert app.session.seed != 5 and app.session.game.num_players == 3
        # The seats come first, the same bot's taken together and named as the move log
        # names bots: a narrow terminal cuts the title's end, the seed.
        assert app.sub_title.startswith("seat 1 (you), Hard (bot, seats 2–3) · seed ")


async def choose_level(pilot: Any, level: str) -> None:
    """F2, the bots' level, then `level`."""
    for step in ("f2", "#choice-level", f"#choice-{level}"):
        await (pilot.press(step) if step == "f2" else pilot.click(step))
        await pilot.pause()


async def test_a_new_level_asks_before_an_unsaved_game_is_thrown_away(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cancel keeps the game; 'Save, then start a new one' saves it, and the new game's
    log (which starts empty) says where it went."""
    from pyramids.play.scores import ScoreStore

    monkeypatch.chdir(tmp_path)  # where the game is saved
    session = new_session(load("temple", players=3), ["human", "medium", "medium"], 5)
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert session.is_human_turn
        assert app.try_move(session.state.legal_action_strings()[0])  # a move, not saved
        await pilot.pause()
        played = session.state.history_strings()
        for reply in ("#choice-close", "#choice-save"):
            await choose_level(pilot, "hard")
            assert isinstance(app.screen, ChoiceScreen)
            assert "not saved" in str(app.screen.query_one("#question").render())
            await pilot.click(reply)
            await pilot.pause()
            assert (app.session is session) == (reply == "#choice-close")
        assert session.state.history_strings() == played
        assert app.session.seats == ["human", "hard", "hard"]
        (saved,) = tmp_path.glob("*.json")
        log = " ".join(str(line.text) for line in app.query_one("#log").lines)
        assert f"The last game was saved to {saved.name}" in " ".join(log.split())


async def test_a_table_of_people_has_no_bot_level_in_the_menu(tmp_path: Path) -> None:
    from pyramids.play.scores import ScoreStore

    app = PlayApp(new_session(load("pacal-solo"), ["human"], 5), agent_delay=0,
                  scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert not app.screen.query("#choice-level")
