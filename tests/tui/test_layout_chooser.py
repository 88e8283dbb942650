"""The terminal app's board chooser, game numbers in the title and the menu, the text
preview of a board, and `pyramids play --game-number`."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import Input  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from pyramids.cli.main import app as cli_app  # noqa: E402
from pyramids.core import load  # noqa: E402
from pyramids.play.boards import board_names, find_board, text_preview  # noqa: E402
from pyramids.play.i18n import _  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.tui.app import ChoiceScreen, PlayApp  # noqa: E402
from pyramids.tui.board_chooser import BoardChooserScreen, GameNumberScreen  # noqa: E402
from tests.tui.helpers import LARGE  # noqa: E402

GAME = "mahjongg"
SMALL_BOARD = "giza-step-ramp"


def solo_app(tmp_path: Path, board: str = SMALL_BOARD, seed: int = 5) -> PlayApp:
    from pyramids.play.scores import ScoreStore

    session = new_session(load(GAME, layout=board), ["human"], seed)
    return PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))


def preview_text(app: PlayApp) -> str:
    return str(app.screen.query_one("#board-preview").render())


def test_the_text_preview_counts_the_stack_on_each_cell() -> None:
    # Three tiles in a row, a capstone across the first two, a tile half below the
    # second and third (worked by hand: the cells under two tiles read 2).
    entry = {"width": 6, "height": 3, "positions": [[0, 0, 0], [2, 0, 0], [4, 0, 0],
                                                     [1, 0, 1], [3, 1, 0]],
             "capstones": [3]}
    assert text_preview(entry) == ["1CC111", "1CC221", "...11"]


def test_every_shipped_board_has_a_preview_as_large_as_its_footprint() -> None:
    for name in board_names(GAME):
        entry = find_board(GAME, name)
        lines = text_preview(entry)
        assert len(lines) == entry["height"]
        stacked = sum(int(c) for line in lines for c in line if c.isdigit())
        capped = sum(line.count("C") for line in lines)
        # Each tile covers four cells: digits count stacks, C cells hide theirs.
        assert stacked <= 4 * entry["tiles"] and (stacked + capped) > 0
        assert capped <= 4 * len(entry["capstones"])
        assert (capped > 0) == bool(entry["capstones"])


@pytest.mark.asyncio
async def test_choose_a_board_from_the_menu_with_its_preview(tmp_path: Path) -> None:
    app = solo_app(tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        assert f"game number {SMALL_BOARD}-5" in app.sub_title
        app.try_move("hint")  # a move of this game, in its log
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.click("#choice-board")
        await pilot.pause()
        assert isinstance(app.screen, BoardChooserScreen)
        names = board_names(GAME)
        first = preview_text(app)
        assert "\n".join(text_preview(find_board(GAME, SMALL_BOARD))) in first
        await pilot.press("down")
        await pilot.pause()
        following = names[names.index(SMALL_BOARD) + 1]
        assert "\n".join(text_preview(find_board(GAME, following))) in preview_text(app)
        await pilot.press("enter")
        await pilot.pause()
        # The hint was a move of a game not saved: a new board asks first.
        assert isinstance(app.screen, ChoiceScreen)
        assert "not saved" in str(app.screen.query_one("#question").render())
        await pilot.click("#choice-start")
        await pilot.pause()
        assert not isinstance(app.screen, BoardChooserScreen)
        assert app.session.game.options["layout"] == following
        assert app.session.state.history() == []
        assert f"game number {following}-{app.session.seed}" in app.sub_title
        # The log is the new game's: it names the board as players read it, and no
        # move of the last game is left in it.
        log = " ".join(str(line.text).strip() for line in app.query_one("#log").lines)
        title = find_board(GAME, following)["title"]
        assert log == f"New game on {title}: seed {app.session.seed}.", log


@pytest.mark.asyncio
async def test_escape_leaves_the_chooser_and_the_game_as_it_was(tmp_path: Path) -> None:
    app = solo_app(tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        session = app.session
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-board")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.session is session


@pytest.mark.asyncio
async def test_a_game_number_from_the_menu_deals_that_game(tmp_path: Path) -> None:
    app = solo_app(tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-number")
        await pilot.pause()
        assert isinstance(app.screen, GameNumberScreen)
        # The box has the keyboard at once: typing goes into it.
        await pilot.press(*"turtel-1", "enter")
        await pilot.pause()
        assert app.screen.query_one("#number-input", Input).value == "turtel-1"
        assert "did you mean turtle" in str(app.screen.query_one("#number-error").render())
        for bad in ("turtle", "nowhere-3"):
            await pilot.click("#number-input")
            app.screen.query_one("#number-input", Input).value = bad
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, GameNumberScreen)
            error = str(app.screen.query_one("#number-error").render())
            assert "game number" in error or "unknown board" in error
        app.screen.query_one("#number-input", Input).value = "Turtle-12"
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.game.options["layout"] == "turtle" and app.session.seed == 12
        engine = load(GAME, layout="turtle").new_initial_state(12)
        assert app.session.state.view(0)["tiles"] == engine.view(0)["tiles"]


@pytest.mark.asyncio
async def test_a_game_number_at_a_table_deals_that_board_to_the_same_seats(
        tmp_path: Path) -> None:
    """At a table of two a game number once crashed the app (the number's options were
    a one-player game's, the seats two)."""
    from pyramids.play.scores import ScoreStore

    session = new_session(load(GAME, players=2, layout=SMALL_BOARD), ["human", "hard"], 5)
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-number")
        await pilot.pause()
        app.screen.query_one("#number-input", Input).value = "turtle-4821"
        await pilot.press("enter")
        await pilot.pause()
        assert app.session is not session and app.session.seats == ["human", "hard"]
        assert app.session.game.options["layout"] == "turtle"
        assert app.session.game.num_players == 2 and app.session.seed == 4821


@pytest.mark.asyncio
async def test_a_game_without_boards_offers_no_chooser(tmp_path: Path) -> None:
    from pyramids.play.scores import ScoreStore

    app = PlayApp(new_session(load("pacal-solo"), ["human"], 5), agent_delay=0,
                  scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert not app.screen.query("#choice-board")
        assert "game number" not in app.sub_title


def test_play_from_a_game_number_on_the_command_line() -> None:
    runner = CliRunner()
    result = runner.invoke(cli_app, ["play", GAME, "--plain", "--game-number",
                                     f"{SMALL_BOARD}-12"], input="quit\ny\n")
    # The number sets the board (the position's first line names it) and the deal.
    assert "Standard Expedition on Giza Step Ramp:" in result.output and "seed 12" in result.output
    for bad in (["--game-number", "turtle-x"], ["--game-number", "nowhere-1"],
                ["--game-number", f"{SMALL_BOARD}-1", "--seed", "3"]):
        result = runner.invoke(cli_app, ["play", GAME, "--plain", *bad], input="quit\ny\n")
        assert result.exit_code == 2
        assert "game number" in result.output or "unknown board" in result.output \
            or "--game-number" in result.output


def test_the_bots_clear_rates_are_told_only_to_a_player_alone() -> None:
    """They were measured with one player: at a table they would mislead (there the
    expert is another agent, and the others take pairs too)."""
    from pyramids.tui.board_chooser import board_card

    measured = next(entry for entry in (find_board(GAME, name) for name in board_names(GAME))
                    if "clear_rate_expert" in entry["figures"])
    assert "Bots clear its deals: easy" in board_card(measured)
    assert "Bots clear" not in board_card(measured, alone=False)
    if "unsolvable_share" in measured["figures"]:  # what holds at any table stays
        assert "Deals made at random" in board_card(measured, alone=False)


@pytest.mark.asyncio
async def test_the_chooser_opens_on_the_board_played_when_it_was_chosen_for_the_table(
    tmp_path: Path,
) -> None:
    """The default board ("auto", the one for the number of players) opened the chooser
    on the first board of the list, not on the one on the table."""
    from textual.widgets import OptionList

    from pyramids.play.scores import ScoreStore

    session = new_session(load(GAME), ["human"], 5)
    played = session.state.view(None)["layout"]
    assert session.game.options["layout"] != played  # chosen for the table
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click("#choice-board")
        await pilot.pause()
        assert isinstance(app.screen, BoardChooserScreen)
        listed = app.screen.query_one("#board-list", OptionList)
        assert listed.highlighted is not None
        assert listed.get_option_at_index(listed.highlighted).id == played
        assert _(find_board(GAME, played)["title"]) in preview_text(app)


@pytest.mark.asyncio
@pytest.mark.parametrize(("entry", "screen"), [("#choice-board", BoardChooserScreen),
                                               ("#choice-number", GameNumberScreen)])
@pytest.mark.parametrize("back", ["footer", "beside"])
async def test_the_mouse_alone_comes_back_from_the_board_chooser_and_game_number(
        tmp_path: Path, entry: str, screen: type, back: str) -> None:
    """Opened from the menu by mouse, the board chooser and the game-number box had
    no Back a mouse could press (Escape only): their footer's Back and a click beside
    them now go back, the game as it was."""
    from textual.widgets._footer import FooterKey

    app = solo_app(tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        session = app.session
        await pilot.press("f2")
        await pilot.pause()
        await pilot.click(entry)
        await pilot.pause()
        assert isinstance(app.screen, screen)
        if back == "footer":
            keys = [key for key in app.screen.query(FooterKey) if key.action == "back"]
            assert keys and keys[0].region.height > 0
            await pilot.click(keys[0])
        else:
            await pilot.click(offset=(0, 0))
        await pilot.pause()
        assert not isinstance(app.screen, screen | ChoiceScreen)
        assert app.session is session
