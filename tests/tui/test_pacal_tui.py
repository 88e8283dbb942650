"""The Pacal screens, played with Textual's pilot: clicks on cards and fields, keys, saving."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from textual.widgets import OptionList  # noqa: E402

from pyramids.core import GameRecord, load  # noqa: E402
from pyramids.play.i18n import set_language  # noqa: E402
from pyramids.play.scores import ScoreStore  # noqa: E402
from pyramids.play.session import new_session, resume_session  # noqa: E402
from pyramids.tui.app import ChoiceScreen, HelpScreen, PassScreen, PlayApp, ReplayApp  # noqa: E402
from pyramids.tui.board import Board  # noqa: E402
from pyramids.tui.pacal import FieldCell  # noqa: E402
from tests.tui.helpers import (  # noqa: E402
    SIZE,
    SMALL,
    click_visible,
    play_first_move_by_list,
    settle,
)

SHORT = {"rounds_to_win": 1, "max_rounds": 2}


async def click_a_legal_move(pilot, app: PlayApp) -> str:
    """Play the first legal move the way a person would, by clicking the board."""
    state = app.session.state
    first = state.legal_action_strings()[0]
    kind, *rest = first.split()
    if kind == "offer":
        await click_visible(pilot, app, f"#hand-{rest[0]}")
        await click_visible(pilot, app, f"#hand-{rest[1]}")
    elif kind == "pick":
        await click_visible(pilot, app, f"#offer-{rest[0]}")
    elif kind == "place":
        await click_visible(pilot, app, f"#p{state.current_player}-{rest[0].lower()}")
    else:
        await click_visible(pilot, app, "#decline")
    return first


async def test_full_match_against_a_bot_by_mouse_at_80x24() -> None:
    session = new_session(load("pacal", **SHORT), ["human", "random"], 21)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(200):
            await settle(pilot, app)
            if session.state.is_terminal():
                break
            before = len(session.state.history())
            expected = session.state.legal_action_strings()[0]
            await click_a_legal_move(pilot, app)
            replay = session.game.new_initial_state(21)
            for action in session.state.history()[:before]:
                replay.apply_action(action)
            assert replay.action_to_string(session.state.history()[before]) == expected
        assert session.state.is_terminal()
        status = str(app.query_one("#status").render())
        assert status.startswith("Game over")
        # The bot as the move log names it, not "seat 2 (Random moves)".
        won = session.state.returns()[0] > 0
        assert status == ("Game over: seat 1 (you) wins." if won
                          else "Game over: Random moves (bot) wins."), status
        last = str(app.query_one("#last-round").render())
        assert last in ("Last round won by you", "Last round won by Random moves (bot)"), last
        # Best scores are kept for one-player games only: not offered after a match.
        assert app.query_one("#end").display and not app.query_one("#end-scores").display
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and not app.screen.query("#choice-scores")


async def test_solo_game_by_keyboard_on_the_board(tmp_path: Path) -> None:
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        while not session.state.is_terminal():
            focused = app.focused
            assert isinstance(focused, FieldCell) and focused.legal
            before = len(session.state.history())
            await pilot.press("tab", "shift+tab", "enter")  # Tab walks the open fields only
            assert session.state.history_strings()[before] == f"place F{focused.number}"
        assert "Game over" in str(app.query_one("#status").render())
        scores = str(app.query_one("#scores").render())
        # Pacal solo's words: draws, won or lost, and the game's title (not Mahjongg's
        # "not cleared", a bare number, or the code name "pacal-solo").
        draws = session.state.view(0)["draws"]
        won = session.state.returns()[0] > 0
        assert f"This game: {draws} draws in " in scores
        assert (", won," if won else ", lost,") in scores
        assert "Best on Pacal solo:" in scores and "not cleared" not in scores


async def test_all_moves_panel_is_optional_and_moves_can_be_typed() -> None:
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert not app.query_one("#moves").display
        await play_first_move_by_list(pilot, app)
        await pilot.pause()
        assert len(session.state.history()) == 1
        await pilot.press("f5")
        assert not app.query_one("#moves").display
        target = session.state.legal_action_strings()[-1]
        app.query_one("#command").focus()
        await pilot.press(*target, "enter")
        await pilot.pause()
        assert session.state.history_strings()[1] == target
        assert app.query_one("#command").value == ""


async def test_the_title_and_a_refusal_speak_korean() -> None:
    set_language("ko")
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        # The manifest's title in the player's language, not the game's name.
        assert app.title == "pyramids: 파칼"
        app.query_one("#command").focus()
        await pilot.press(*"decline", "enter")
        await pilot.pause()
        # The reason once, in Korean ("the move 'decline' is illegal" is not said again).
        assert app.message == "둘 수 없는 수입니다: 손의 카드 두 장을 제안해야 합니다 ('offer A B')"
        assert "must" not in app.message


async def test_illegal_input_shows_a_message_and_changes_nothing() -> None:
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        before = session.state.to_json()
        app.query_one("#command").focus()
        await pilot.press(*"decline", "enter")
        await pilot.pause()
        assert app.message == ("Not a legal move: you must offer two of your hand cards "
                               "('offer A B')")
        assert session.state.to_json() == before
        # A click on a field that is not legal now does nothing either.
        await pilot.click("#p0-f1")
        await pilot.pause()
        assert session.state.to_json() == before
        # The box is empty again: the next move is not glued onto the refused one.
        assert app.query_one("#command").value == ""
        legal = session.state.legal_action_strings()[0]
        app.query_one("#command").focus()
        await pilot.press(*legal, "enter")
        await pilot.pause()
        assert legal in session.state.history_strings()


async def test_global_keys_are_never_typed_into_the_box(tmp_path: Path) -> None:
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0, default_save=tmp_path / "g.json")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        box = app.query_one("#command")
        box.focus()
        await pilot.press("o", "f1")
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.query_one("#help").query_one("Markdown").source
        assert "Ctrl+Q" in help_text and "Pacal" in help_text  # the keys, then the rules
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("ctrl+s")
        assert "Saved to" in app.message
        assert box.value == "o"
        await pilot.press("escape")  # leaves the box for the board
        assert app.focused is not box


async def test_quit_asks_when_the_game_is_not_saved(tmp_path: Path) -> None:
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0, default_save=tmp_path / "q.json")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await click_a_legal_move(pilot, app)
        await settle(pilot, app)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.click("#choice-close")
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, ChoiceScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.click("#choice-save")
        await pilot.pause()
    assert GameRecord.load_file(tmp_path / "q.json").final_state().history() == (
        session.state.history()
    )


async def test_quit_does_not_ask_when_every_move_is_saved(tmp_path: Path) -> None:
    path = tmp_path / "auto.json"
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3, save_path=path)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await click_a_legal_move(pilot, app)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not isinstance(app.screen, ChoiceScreen)
    assert not app.is_running


async def test_the_revealed_apex_cards_are_shown() -> None:
    state = load("pacal").new_initial_state(8)
    while state.view(0)["revealed_apex_bases"] is None and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    from pyramids.play.session import Session

    session = Session(state.game, ["human", "human"], 8, state)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            await pilot.pause()
        apex = state.view(0)["revealed_apex_bases"]
        text = str(app.query_one("#apex").render())
        assert f"seat 1 {apex[0]}" in text and f"seat 2 {apex[1]}" in text


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_round_wins_and_apex_lines_name_a_bot_as_the_log_does(lang: str) -> None:
    """"seat 2" above the pyramids was the bot the rest of the screen calls "Random
    moves (bot)": the round wins and who starts name it so too; a person keeps a seat."""
    state = load("pacal").new_initial_state(8)
    while state.view(0)["revealed_apex_bases"] is None and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    from pyramids.play.session import Session

    set_language(lang)
    try:
        session = Session(state.game, ["human", "random"], 8, state)
        app = PlayApp(session, agent_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            bot, seat = {"en": ("Random moves (bot)", "seat 1"),
                         "ko": ("무작위 수 (봇)", "1번 자리")}[lang]
            apex = state.view(0)["revealed_apex_bases"]
            starter = bot if state.view(0)["starting_player"] == 1 else seat
            lines = {name: str(app.query_one(f"#{name}").render())
                     for name in ("score", "apex")}
            for text in lines.values():
                assert seat in text and bot in text, lines
                assert "seat 2" not in text and "2번 자리" not in text, lines
            assert f"{seat} {apex[0]}" in lines["apex"] and f"{bot} {apex[1]}" in lines["apex"]
            assert lines["apex"].endswith({"en": f"{starter} starts",
                                           "ko": f"먼저 하는 쪽: {starter}"}[lang]), lines
    finally:
        set_language(None)


async def test_only_the_own_hand_is_shown() -> None:
    session = new_session(load("pacal"), ["human", "random"], 8)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        board = app.query_one("#board", Board)
        assert board.view == session.state.view(0)
        shown = {cell.id for cell in app.query(".card.hand")}
        assert shown == {f"hand-{card}" for card in session.state.view(0)["hand"]}


async def test_hotseat_hides_the_table_between_people() -> None:
    session = new_session(load("pacal", **SHORT), ["human", "human"], 8)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = session.state.current_player
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            await pilot.pause()
        assert app.query_one("#board", Board).view["viewer"] == first
        await play_first_move_by_list(pilot, app)  # an offer: the other person picks next
        await pilot.pause()
        assert session.state.current_player != first
        assert isinstance(app.screen, PassScreen)
        assert not app.query_one("#board", Board).display
        await pilot.press("enter")
        await pilot.pause()
        board = app.query_one("#board", Board)
        assert board.display and board.view["viewer"] == session.state.current_player


async def test_save_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "pacal.json"
    session = new_session(load("pacal", **SHORT), ["human", "random"], 13)
    app = PlayApp(session, agent_delay=0, default_save=path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await settle(pilot, app)
            await play_first_move_by_list(pilot, app)
        await settle(pilot, app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved to" in app.message
        saved_json = session.state.to_json()
        told = [str(line.text) for line in app.query_one("#log").lines]
    resumed = resume_session(path, save_path=path)
    assert resumed.seats == ["human", "random"]
    assert resumed.state.to_json() == saved_json
    saved_history = resumed.state.history()
    app2 = PlayApp(resumed, agent_delay=0)
    async with app2.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # The moves so far are in the log again, as they were told when played.
        log = [str(line.text) for line in app2.query_one("#log").lines]
        # The bot by its level, then as now ("Random moves (bot) placed ...").
        moves_told = [line for line in told if line.startswith(("Random moves (bot)", "You"))]
        assert any(line.startswith("Random moves (bot)") for line in moves_told), told
        assert moves_told and all(line in log for line in moves_told), (moves_told, log)
        count = len(saved_history)
        assert f"Resumed after {count} moves." in log
        await settle(pilot, app2)
        await play_first_move_by_list(pilot, app2)
        await settle(pilot, app2)
        history = resumed.state.history()
        assert history[: len(saved_history)] == saved_history
        assert len(history) > len(saved_history)
    # The resumed game keeps saving to the file it came from.
    assert GameRecord.load_file(path).final_state().history() == resumed.state.history()


async def test_replay_steps_through_a_record() -> None:
    state = load("pacal-solo").new_initial_state(4)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = GameRecord.from_state(state, ["human"])
    app = ReplayApp(record)
    async with app.run_test(size=SIZE) as pilot:
        board = app.query_one("#board", Board)
        assert board.view == record.replay()[0].view(None)
        await pilot.press("right", "right")
        await pilot.pause()
        assert app.index == 2
        assert board.view == record.replay()[2].view(None)
        await pilot.press("end")
        await pilot.pause()
        assert "Game over" in str(app.query_one("#status").render())
        await pilot.press("left")
        await pilot.pause()
        assert app.index == len(record.actions) - 1


async def test_the_replay_title_names_the_seats_as_its_log_does() -> None:
    """The title said "seat 1 (human), seat 2 (Greedy rule)" while the log beside it
    and the board said "Seat 1" and "Greedy rule (bot)"; alike bots go together."""
    state = load("pacal").new_initial_state(3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    app = ReplayApp(GameRecord.from_state(state, ["human", "greedy"]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.sub_title == "seed 3; players seat 1, Greedy rule (bot)"
        log = " ".join(str(option.prompt) for option in
                       app.query_one("#moves", OptionList).options)
        assert "Seat 1 offered" in log and "Greedy rule (bot) picked" in log
    app = ReplayApp(GameRecord.from_state(state, ["hard", "hard"]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.sub_title == "seed 3; players Hard (bot, seats 1–2)"


async def test_nothing_is_cut_off_at_80x24() -> None:
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        area = app.query_one("#board-area")
        cells = list(app.query(".card.hand")) + [app.query_one("#p0-f10"), app.query_one("#p1-f10")]
        assert len(cells) > 10
        for cell in cells:
            cell.scroll_visible(animate=False, immediate=True)
            await pilot.pause()
            assert area.region.contains_region(cell.region), cell.id


async def test_a_new_deal_from_the_menu_asks_before_throwing_a_game_away() -> None:
    """F2 → New game with unsaved moves asks first; the arrow keys move between the
    menu's choices; Ctrl+P opens no English-only palette that quits unasked."""
    from textual.screen import ModalScreen

    session = new_session(load("pacal"), ["human", "random"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert not isinstance(app.screen, ModalScreen)
        app.query_one("#command").focus()
        legal = session.state.legal_action_strings()[0]
        await pilot.press(*legal, "enter")
        await settle(pilot, app)
        played = session.state.history_strings()
        assert played
        await pilot.press("f2")
        await pilot.pause()
        first = app.focused
        await pilot.press("down")
        assert app.focused is not first  # arrows move between the choices
        await pilot.press("up")
        assert app.focused is first
        await pilot.click("#choice-new")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "not saved" in str(app.screen.query_one("#question").render())
        await pilot.click("#choice-close")
        await pilot.pause()
        assert app.session.state.history_strings() == played  # the game is still there


async def test_the_arrow_keys_walk_the_open_fields_as_tab_does(tmp_path: Path) -> None:
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0, scores=ScoreStore(tmp_path / "s.sqlite3"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        first = app.focused
        assert isinstance(first, FieldCell)
        await pilot.press("right")
        second = app.focused
        assert isinstance(second, FieldCell) and second is not first and second.legal
        await pilot.press("left")
        assert app.focused is first
        await pilot.press("down", "enter")
        assert session.state.history_strings()[0] == f"place F{second.number}"


async def test_a_new_game_never_saves_over_another_saved_game(tmp_path: Path) -> None:
    """The same deal played again must not take the older game's file: Ctrl+S wrote the
    new game's two moves over a saved seven-move game of the same seed."""
    older = tmp_path / "g.json"
    first = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    first.save_to(older)
    kept = older.read_text()
    session = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(session, agent_delay=0, default_save=older)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await click_a_legal_move(pilot, app)
        await settle(pilot, app)
        await pilot.press("ctrl+s")
        await pilot.press("ctrl+s")  # a second save goes on in the new file
    assert older.read_text() == kept
    assert session.save_path == tmp_path / "pyramids-pacal-3.json"
    saved = GameRecord.load_file(session.save_path)
    assert saved.actions == session.state.history_strings()
    # And the third game of that deal gets the next name.
    third = new_session(load("pacal", **SHORT), ["human", "random"], 3)
    app = PlayApp(third, agent_delay=0, default_save=older)
    assert app._save_target() == tmp_path / "pyramids-pacal-3-2.json"


async def test_the_keyboard_s_field_is_seen_even_when_empty() -> None:
    """Reverse video shows nothing on an empty field, so Tab moved the keyboard without a
    trace and Enter placed the card blind: the focused field has its own colours."""
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        focused = app.focused
        assert isinstance(focused, FieldCell) and focused.legal
        other = next(cell for cell in app.query(FieldCell)
                     if cell.legal and cell is not focused)
        assert not session.state.view(0)["pyramid"][focused.number - 1]  # an empty field
        assert focused.styles.background != other.styles.background
        assert focused.styles.border_top != other.styles.border_top


async def test_a_round_s_end_is_shown_with_both_pyramids_before_the_next_deal() -> None:
    """The next deal cleared both pyramids at once: the round's result was only a line in
    the narrow log. Now it is shown, with both pyramids as they ended, and the bot waits
    until the player goes on."""
    session = new_session(load("pacal", rounds_to_win=2, max_rounds=3), ["human", "random"], 21)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(300):
            await pilot.pause()
            if isinstance(app.screen, ChoiceScreen):
                break
            if session.is_human_turn():
                move = session.state.legal_action_strings()[0]
                app.try_move(move)
        assert isinstance(app.screen, ChoiceScreen)
        last = session.state.view(0)["last_round"]
        assert last["round"] == 1 and session.state.view(0)["round"] == 2
        shown = str(app.screen.query_one("#question").render())
        assert "Round 1 " in shown and "Seat 1 (you): spread" in shown
        # The bot by the move log's name for it, not its seat's number.
        assert "Random moves (bot): spread" in shown and "F10" in shown
        assert "Seat 2" not in shown
        moves = len(session.state.history())
        for _ in range(5):
            await pilot.pause()
        assert len(session.state.history()) == moves  # nobody plays on meanwhile
        assert app.screen.id == "interlude"
        await pilot.press("enter")  # the "Next round" button has the keyboard
        await settle(pilot, app, go_on=False)
        assert not isinstance(app.screen, ChoiceScreen)
        assert session.is_human_turn() or len(session.state.history()) > moves


async def test_at_80x24_both_pyramids_and_the_hand_are_in_sight() -> None:
    """The opening view hid the player's own pyramid and hand below the fold: on a short
    terminal fields and cards are drawn compactly."""
    session = new_session(load("pacal"), ["human", "random"], 21)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = app.query_one(Board)
        assert board.has_class("compact")
        area = app.query_one("#board-area").region
        # Every card of a 15-card hand, not only the first row (the rest had scrolled).
        hand = list(app.query_one("#hand").children)
        assert len(hand) == 15
        for widget in (app.query_one("#p0-f1"), app.query_one("#p0-f10"),
                       app.query_one("#p1-f10"), *hand):
            shown = widget.region
            assert shown.height > 0 and area.contains_region(shown), widget.id
        # A card chosen by a click still works, drawn small.
        await pilot.click(f"#{hand[0].id}")
        await pilot.pause()
        assert board.selected == [int(hand[0].id.split("-")[1])]
    async with PlayApp(session, agent_delay=0).run_test(size=(120, 44)) as pilot:
        await pilot.pause()
        assert not pilot.app.query_one(Board).has_class("compact")  # room for full fields


async def test_a_move_typed_while_the_board_has_the_keyboard_goes_to_the_move_box() -> None:
    """Letters typed on the board were lost, and the move box was far down the Tab
    order: typing now starts a move in the box, and Enter plays it."""
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        box = app.query_one("#command")
        assert app.focused is not box and app.board in app.focused.ancestors_with_self
        target = session.state.legal_action_strings()[-1]  # "place F10", say
        await pilot.press(*target)
        assert app.focused is box and box.value == target
        await pilot.press("enter")
        await pilot.pause()
        assert session.state.history_strings() == [target]
        # Keys the board or the app take keep their meaning: Enter chooses, F1 helps.
        await pilot.press("escape")
        assert app.focused is not box
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen) and box.value == ""


async def test_a_move_pasted_on_the_board_is_typed_not_chosen() -> None:
    """Keys that come faster than the keyboard moves to the move box (a pasted move)
    reach the board: its space chose the field in focus and played another move
    ('place F10' played F1 and left 'placeF10' in the box)."""
    from textual import events
    from textual.widgets import Input

    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        box = app.query_one("#command", Input)
        focused = app.focused
        assert isinstance(focused, FieldCell)
        target = next(move for move in session.state.legal_action_strings()
                      if move != f"place F{focused.number}")
        for character in target:  # one burst: every key is queued before any moves
            app.post_message(events.Key("space" if character == " " else character,
                                        character))
        await pilot.pause()
        assert box.value == target and session.state.history_strings() == []
        # Once the keyboard is in the box, Space and Enter on the board choose again.
        await pilot.press("enter")
        await pilot.pause()
        assert session.state.history_strings() == [target]
        app.action_focus_board()
        await pilot.pause()
        chosen = app.focused
        assert isinstance(chosen, FieldCell)
        await pilot.press("space")
        await pilot.pause()
        assert session.state.history_strings()[1:] == [f"place F{chosen.number}"]


async def test_the_all_moves_list_is_numbered_as_typed_numbers_read_it() -> None:
    """The help says a move can be typed by its number in the list, but the list showed
    no numbers: typing 2 played a move the player never saw named."""
    session = new_session(load("pacal-solo"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        # With the list hidden, a number plays nothing: its move was never read.
        app.query_one("#command").focus()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert session.state.history_strings() == []
        assert app.message == ("Not a legal move: a number picks from the list of all moves, "
                               "which F5 shows")
        await pilot.press("f5")
        moves = app.query_one("#moves")
        shown = [str(moves.get_option_at_index(n).prompt) for n in range(moves.option_count)]
        legal = session.state.legal_action_strings()
        assert shown == [f"{n + 1:>3}  {text}" for n, text in enumerate(legal)]
        box = app.query_one("#command")
        box.focus()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert session.state.history_strings() == [legal[1]]
        # Choosing from the list plays the move it names, number and all.
        moves.focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert len(session.state.history_strings()) == 2


@pytest.mark.parametrize(("game", "seats"), [("pacal", ["human", "easy"]),
                                             ("temple", ["human", "easy", "easy", "easy"]),
                                             ("mahjongg", ["human"])])
async def test_the_help_says_where_tab_goes_and_it_goes_there(
        game: str, seats: list[str]) -> None:
    """The help said Tab moves between the board and the move box, but Tab from the
    board's last choice goes to the log first (a press that seemed to do nothing), then
    to the box. The help now names the log, and Tab and Esc do what it says."""
    session = new_session(load(game), seats, 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("f1")
        help_text = app.screen.query_one("#help").query_one("Markdown").source
        assert "**Tab** moves on between the board, the log" in help_text
        await pilot.press("escape")
        board = app.query_one("#board", Board)
        places = []
        for _ in range(40):
            await pilot.press("tab")
            focused = app.focused
            place = ("board" if focused is not None and board in focused.ancestors_with_self
                     else focused.id if focused is not None else None)
            if not places or places[-1] != place:
                places.append(place)
        assert places[:4] == ["log", "command", "board", "log"] or \
            places[:4] == ["board", "log", "command", "board"], places
        for leave_from in ("log", "command"):
            app.query_one(f"#{leave_from}").focus()
            await pilot.press("escape")
            assert app.focused is not None and board in app.focused.ancestors_with_self


async def test_the_help_opens_and_closes_by_mouse_alone() -> None:
    """A player with a mouse opened the help from the footer, then had no way out: the
    help covered the footer and had no button. Its own footer's Close, and a click
    beside it on the dimmed game, close it."""
    from textual.widgets._footer import FooterKey

    session = new_session(load("pacal"), ["human", "easy"], 3)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        for close in ("footer", "beside"):
            keys = [key for key in app.screen.query(FooterKey) if key.action == "help"]
            await pilot.click(keys[0])
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            if close == "footer":
                keys = [key for key in app.screen.query(FooterKey) if key.action == "close"]
                assert keys and keys[0].region.height > 0
                await pilot.click(keys[0])
            else:
                await pilot.click(offset=(0, 0))
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen), close
