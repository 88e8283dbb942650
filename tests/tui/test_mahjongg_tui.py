"""The Mahjongg screen, played with Textual's pilot: tiles by click and by keys, favors,
the clock. Tiles are clicked where the engine's view puts them (x, y, layer), never
chosen from a list of moves: the screen has none."""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Offset

pytest.importorskip("textual")
pytestmark = pytest.mark.asyncio

from pyramids.core import load  # noqa: E402
from pyramids.play.session import Session, new_session  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402
from pyramids.tui.mahjongg import FAVORS, MahjonggBoard, TileCanvas  # noqa: E402
from tests.tui.helpers import LARGE, SMALL, settle  # noqa: E402

GIZA = {"layout": "giza-step-ramp"}
PANTHEON = {"Ra": "Horus", "Horus": "Ra", "Anubis": "Isis", "Isis": "Anubis"}


def giza_solo() -> tuple[Session, PlayApp]:
    """One player on the small Giza Step Ramp, deal 4, bots answering at once."""
    session = new_session(load("mahjongg", **GIZA), ["human"], 4)
    return session, PlayApp(session, agent_delay=0)


def tile_cell(app: PlayApp, tile_id: int) -> tuple[int, int]:
    """Where a tile's face is on the canvas, from its position in the view."""
    canvas = app.query_one("#tiles", TileCanvas)
    tiles = app.query_one("#board", MahjonggBoard).view["tiles"]
    tile = next(t for t in tiles if t["id"] == tile_id)
    top_layer = max(t["z"] for t in tiles)
    scale = canvas.scale
    return (
        tile["x"] * scale.cols + (top_layer - tile["z"]) + 1,
        tile["y"] * scale.rows + scale.rows - 1,
    )


async def click_at(pilot, app: PlayApp, selector: str, offset: tuple[int, int]) -> None:
    """A mouse click (down, up, click) at `offset` in a widget, then one pause.

    The same events as `pilot.click`, without its pause between each (a full
    144-tile game is 144 clicks).
    """
    from textual.events import Click, MouseDown, MouseUp

    # A step or a move can reflow the screen; on a loaded machine the layout may still be
    # settling, so wait (a little) for the widget to be the one on top, as a person would.
    for _attempt in range(40):
        widget = app.query_one(selector)
        x, y = widget.region.x + offset[0], widget.region.y + offset[1]
        target, _ = app.get_widget_at(x, y)
        if target is widget:
            break
        await pilot.pause(0.05)
    assert target is widget, f"{target} is on top at {(x, y)}, not {selector}"
    arguments = dict(widget=widget, x=x, y=y, delta_x=0, delta_y=0, button=1, shift=False,
                     meta=False, ctrl=False, screen_x=x, screen_y=y)
    app.mouse_position = Offset(x, y)
    for event_class in (MouseDown, MouseUp, Click):
        app.screen._forward_event(event_class(**arguments))
    await pilot.pause()


async def click_tile(pilot, app: PlayApp, tile_id: int) -> None:
    canvas = app.query_one("#tiles", TileCanvas)
    area = app.query_one("#board-area")
    before = area.scroll_offset
    canvas.scroll_to_tile(tile_id)  # as a person scrolls a board bigger than the screen
    if area.scroll_offset != before:
        await pilot.pause()
    await click_at(pilot, app, "#tiles", tile_cell(app, tile_id))


def matches(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """The rules' match classes, read from two face-up tiles of the view."""
    if first["face"] is None or second["face"] is None:
        return False
    if first["group"] in ("season", "element"):
        return first["group"] == second["group"]
    return first["face"] == second["face"] or PANTHEON.get(first["face"]) == second["face"]


def free_pair(view: dict[str, Any]) -> tuple[int, int] | None:
    free = [t for t in view["tiles"] if t["free"]]
    free.sort(key=lambda t: -t["z"])
    for n, first in enumerate(free):
        for second in free[n + 1 :]:
            if matches(first, second):
                return first["id"], second["id"]
    return None


def clearing_plan(state) -> list[tuple[int, int]]:
    """The pairs that clear the board, read from the hints a copy of the game shows."""
    copy = state.game.state_from_json(state.to_json())
    plan = []
    while not copy.is_terminal():
        copy.apply_string("hint")
        first, second = copy.view(0)["hint"]
        plan.append((first, second))
        copy.apply_string(f"match {min(first, second)} {max(first, second)}")
    return plan


async def test_full_turtle_game_by_clicks_on_tiles() -> None:
    session = new_session(load("mahjongg", layout="turtle"), ["human"], 4)
    plan = clearing_plan(session.state)
    assert len(plan) == 72
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        for first, second in plan:
            before = session.state.view(0)["tiles_left"]
            await click_tile(pilot, app, first)
            await click_tile(pilot, app, second)
            assert session.state.view(0)["tiles_left"] == before - 2
        assert session.state.view(0)["result"]["reason"] == "cleared"
        assert str(app.query_one("#status").render()).startswith("Game over")
        assert "clear" in str(app.query_one("#last-move").render())


async def test_full_pharaohs_tomb_game_by_clicks_at_80x24() -> None:
    session = new_session(load("mahjongg", layout="pharaohs-tomb"), ["human"], 6)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for _ in range(80):
            if session.state.is_terminal():
                break
            view = session.state.view(0)
            pair = free_pair(view)
            if pair is None:
                await pilot.press("p")  # pass: alone, that ends the game
                await pilot.pause()
                continue
            before = len(session.state.history())
            await click_tile(pilot, app, pair[0])
            await click_tile(pilot, app, pair[1])
            assert session.state.history_strings()[before] == f"match {min(pair)} {max(pair)}"
        assert session.state.is_terminal()
        assert str(app.query_one("#status").render()).startswith("Game over")


async def test_two_players_take_turns_by_clicking() -> None:
    session = new_session(load("mahjongg", players=2, **GIZA), ["human", "greedy"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(6):
            await settle(pilot, app)
            pair = free_pair(session.state.view(0))
            assert pair is not None
            before = len(session.state.history())
            await click_tile(pilot, app, pair[0])
            await click_tile(pilot, app, pair[1])
            assert session.state.history_strings()[before] == f"match {min(pair)} {max(pair)}"
        assert "match" not in " ".join(app.shown_moves)  # no list of pairs anywhere


async def test_blocked_tile_and_bad_pair_change_nothing() -> None:
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        view = session.state.view(0)
        free = [t for t in view["tiles"] if t["free"]]
        bad = next((a, b) for a in free for b in free if a["id"] < b["id"] and not matches(a, b))
        before = session.state.to_json()
        await click_tile(pilot, app, bad[0]["id"])
        await click_tile(pilot, app, bad[1]["id"])
        assert "Not a legal move" in app.message and "do not match" in app.message
        # The faces in words, as the log names them, not the drawn codes ("(3)", "$Sc").
        from pyramids.tui.mahjongg import face_name
        assert f"{face_name(bad[0]['face'])} and {face_name(bad[1]['face'])} do not match." \
            in app.message
        assert session.state.to_json() == before
        board = app.query_one("#board", MahjonggBoard)
        assert board.selected == []
        blocked = next(t for t in view["tiles"] if not t["free"] and t["id"] in
                       app.query_one("#tiles", TileCanvas).canvas.labels)
        await click_tile(pilot, app, blocked["id"])
        await click_tile(pilot, app, free[0]["id"])
        assert "blocked" in app.message
        assert session.state.to_json() == before


async def test_cursor_keys_select_free_tiles() -> None:
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        assert isinstance(app.focused, TileCanvas)
        free = {t["id"] for t in session.state.view(0)["tiles"] if t["free"]}
        start = board.cursor
        assert start in free
        visited = {start}
        for key in ("right", "right", "down", "left", "up"):
            await pilot.press(key)
            visited.add(board.cursor)
        assert visited <= free and len(visited) > 2
        await pilot.press("enter")
        assert board.selected == [board.cursor]
        await pilot.press("escape")
        assert board.selected == []
        await pilot.press("a")
        assert "Anubis Shift" in app.message
        await pilot.press("escape")  # the side's "choose a blocked tile" goes with it
        assert not board.shifting and app.message == ""
        # Enter on the hinted pair removes it.
        await pilot.press("h")
        await pilot.pause()
        hint = session.state.view(0)["hint"]
        for tile_id in hint:
            board.cursor = tile_id
            await pilot.press("enter")
            await pilot.pause()
        assert session.state.history_strings()[-1] == f"match {min(hint)} {max(hint)}"
        # Anubis Shift by keys: `a`, the cursor moves to a blocked tile, Enter lifts it.
        await pilot.press("a")
        assert board.shifting and "Anubis Shift" in str(app.query_one("#warning").render())
        target = board.cursor
        assert target is not None and target not in {
            t["id"] for t in session.state.view(0)["tiles"] if t["free"]
        }
        await pilot.press("enter")
        await pilot.pause()
        assert session.state.history_strings()[-1] == f"shift {target}"
        assert session.state.view(0)["shifted"] == target


async def test_a_pair_pasted_on_the_board_is_typed_not_taken_as_favor_keys() -> None:
    """A burst of keys (a pasted 'match 3 7') reaches the board before the keyboard
    moves to the move box: its letters are the move's, not the board's favor keys
    ('a' Anubis Shift, 'h' a hint), and its Enter plays the pair."""
    from textual import events
    from textual.widgets import Input

    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        assert isinstance(app.focused, TileCanvas)
        pair = next(move for move in session.state.legal_action_strings()
                    if move.startswith("match "))
        keys = {" ": "space", "\n": "enter"}
        for character in pair + "\n":
            app.post_message(events.Key(keys.get(character, character),
                                        None if character == "\n" else character))
        await pilot.pause()
        await pilot.pause()
        assert session.state.history_strings() == [pair]  # no hint, no shift
        assert not board.shifting and app.query_one("#command", Input).value == ""


async def test_a_typed_move_with_words_for_tiles_is_refused_not_a_crash() -> None:
    """'match a b' (the line prompts' example) and 'shift x' crashed the app (a tile
    number was read with int())."""
    from textual.widgets import Input

    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for text in ("match a b", "shift x", "match ² 3"):
            box = app.query_one("#command", Input)
            box.focus()
            box.value = text
            await pilot.press("enter")
            await pilot.pause()
            assert app.message.startswith("Not a legal move"), app.message
        assert session.state.history_strings() == []


async def test_hint_undo_and_favors_by_keys_and_buttons() -> None:
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        hint = session.state.view(0)["hint"]
        assert hint and session.state.history_strings() == ["hint"]
        await click_tile(pilot, app, hint[0])
        await click_tile(pilot, app, hint[1])
        assert session.state.history_strings()[-1] == f"match {min(hint)} {max(hint)}"
        tiles_left = session.state.view(0)["tiles_left"]
        await pilot.press("u")
        await pilot.pause()
        assert session.state.view(0)["tiles_left"] == tiles_left + 2
        tokens = session.state.view(0)["tokens"][0]
        assert "1 token" in str(app.query_one("#do-sight", expect_type=None).label)
        await pilot.click("#do-sight")
        await pilot.pause()
        assert session.state.view(0)["tokens"][0] == tokens - 1
        assert session.state.view(0)["sight_pairs"]
        # The log tells moves in words: faces, never tile ids.
        log = "\n".join(str(line.text) for line in app.query_one("#log").lines)
        assert "removed" in log and "match" not in log


async def test_time_attack_clock_is_applied_by_the_app() -> None:
    now = [100.0]
    session = new_session(load("mahjongg", mode="time-attack", time_limit_seconds=60), ["human"], 2)
    app = PlayApp(session, agent_delay=0, clock=lambda: now[0])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert status.startswith("Move 1:") and "Time left 1:00" in status
        assert "Time left" not in str(app.query_one("#summary").render())
        pair = free_pair(session.state.view(0))
        now[0] += 7.6
        await click_tile(pilot, app, pair[0])
        await click_tile(pilot, app, pair[1])
        assert session.state.history_strings() == ["clock 7", f"match {min(pair)} {max(pair)}"]
        assert "Move 2:" in str(app.query_one("#status").render())
        app.query_one("#command").focus()
        await pilot.press(*"clock 30", "enter")
        await pilot.pause()
        assert "clock is kept by the app" in app.message
        assert app.query_one("#command").value == ""
        now[0] += 100
        app.tick()
        await pilot.pause()
        assert session.state.is_terminal()
        assert session.state.view(0)["result"]["reason"] == "time-up"


async def test_time_attack_clock_stands_still_while_a_screen_hides_the_board() -> None:
    """F1's help and F2's menu (and the options screen it opens) hide the board: the
    time spent there is not the game's, so the clock stops, and goes on from where it
    stood when the board is back. A question that leaves the board in sight (before
    quitting) does not stop it."""
    from pyramids.tui.options_chooser import OptionsScreen

    now = [100.0]
    session = new_session(load("mahjongg", mode="time-attack", time_limit_seconds=60), ["human"], 2)
    app = PlayApp(session, agent_delay=0, clock=lambda: now[0])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        now[0] += 5
        app.tick()
        await pilot.press("f1")
        await pilot.pause()
        now[0] += 200  # reading the rules for minutes
        app.tick()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        now[0] += 100
        await pilot.click("#choice-options")
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        now[0] += 100
        await pilot.press("escape")
        await pilot.pause()
        assert not session.state.is_terminal()
        assert app.time_left() == 55
        assert "Time left 0:55" in str(app.query_one("#status").render())
        now[0] += 2.5
        pair = free_pair(session.state.view(0))
        await click_tile(pilot, app, pair[0])
        await click_tile(pilot, app, pair[1])
        # The engine is told the seconds the board was in sight: 7, not 307.
        assert session.state.history_strings()[-2] == "clock 7"
        await pilot.press("ctrl+q")
        await pilot.pause()
        now[0] += 10
        assert app.time_left() == 43


async def test_a_resumed_time_attack_game_goes_on_with_the_time_it_had_left(tmp_path) -> None:
    """The time spent under the help is not saved as the game's; a game resumed later
    (the app's clock far on) has the time left it had when it was saved."""
    from pyramids.play.session import resume_session

    now = [100.0]
    saved = tmp_path / "timed.json"
    session = new_session(load("mahjongg", mode="time-attack", time_limit_seconds=60), ["human"], 2,
                          save_path=saved)
    app = PlayApp(session, agent_delay=0, clock=lambda: now[0])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        now[0] += 30
        await pilot.press("escape")
        await pilot.pause()
        now[0] += 12.4
        app.tick()
        await pilot.pause()
    later = [9000.0]
    resumed = PlayApp(resume_session(saved, save_path=saved), agent_delay=0,
                      clock=lambda: later[0])
    async with resumed.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert resumed.time_left() == 48
        assert "Time left 0:48" in str(resumed.query_one("#status").render())


async def test_the_board_names_a_bot_as_the_log_does() -> None:
    """The scores' lines, the last move and the result name a bot as the log does
    ("Greedy rule (bot)"), not "seat 2"; the person reads "seat 1 (you)"."""
    session = new_session(load("mahjongg", players=2, **GIZA), ["human", "greedy"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        pair = free_pair(session.state.view(0))
        await click_tile(pilot, app, pair[0])
        await click_tile(pilot, app, pair[1])
        await settle(pilot, app)
        summary = str(app.query_one("#summary").render())
        assert "seat 1 (you): score" in summary
        assert "Greedy rule (bot): score" in summary and "seat 2" not in summary
        assert str(app.query_one("#last-move").render()).startswith("Last: Greedy rule (bot), ")
        while not session.state.is_terminal():
            session.state.apply_action(session.state.legal_actions()[-1])
        app.advance()
        await pilot.pause()
        result = str(app.query_one("#last-move").render())
        assert "Scores: seat 1 (you) " in result and ", Greedy rule (bot) " in result


async def test_replay_tells_moves_in_words() -> None:
    from pyramids.core import GameRecord
    from pyramids.tui.app import ReplayApp

    state = load("mahjongg", **GIZA).new_initial_state(3)
    for _ in range(3):
        state.apply_string(next(a for a in state.legal_action_strings() if a.startswith("match")))
    app = ReplayApp(GameRecord.from_state(state, ["human"]))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("right")
        await pilot.pause()
        status = str(app.query_one("#status").render())
        assert "removed" in status and "match" not in status


@pytest.mark.parametrize("size", [SMALL, (200, 60)])
async def test_the_board_fits_or_scrolls_and_uses_a_big_screen(size) -> None:
    from pyramids.play.text.mahjongg_tiles import SCALES

    session = new_session(load("mahjongg", layout="pharaohs-tomb"), ["human"], 6)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        canvas = app.query_one("#tiles", TileCanvas)
        area = app.query_one("#board-area")
        if size == SMALL:
            assert canvas.scale == SCALES[0]
            # Too big for the screen: it scrolls, and every tile can be brought into sight.
            assert area.virtual_size.height > area.size.height
            last = max(session.state.view(0)["tiles"], key=lambda t: (t["y"], t["x"]))
            canvas.scroll_to_tile(last["id"])
            await pilot.pause()
            x, y = tile_cell(app, last["id"])
            assert app.get_widget_at(canvas.region.x + x, canvas.region.y + y)[0] is canvas
        else:
            assert SCALES.index(canvas.scale) >= 3  # larger tiles on a large screen
            assert canvas.region.right <= area.region.right
            assert canvas.region.bottom <= area.region.bottom


async def test_pass_alone_asks_before_it_ends_the_game() -> None:
    """One key (`p`) must not end a solo game lost while pairs are left: a question
    first; "Play on" changes nothing, "End the game" passes."""
    from pyramids.tui.app import ChoiceScreen

    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "ends the game at once" in str(app.screen.query_one("#question").render())
        await pilot.click("#choice-close")
        await pilot.pause()
        assert session.state.history_strings() == [] and not session.state.is_terminal()
        await pilot.press("p")
        await pilot.pause()
        await pilot.click("#choice-end")
        await pilot.pause()
        assert session.state.history_strings() == ["pass"] and session.state.is_terminal()
        # A move typed after the end says the game is over, not "not your turn".
        assert app.try_move("hint") is False
        assert app.message == "The game is over: F2 starts another."


async def test_a_tile_favor_says_what_to_do_beside_the_board_or_that_it_cannot() -> None:
    """At 80x24 the line above the board may be scrolled away: Anubis Shift's and a
    selected tile's instructions are told beside the board too; Tile Reveal without a
    face-down tile (standard boards) says so, in the engine's words, instead of waiting
    for nothing."""
    session, app = giza_solo()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert app.message.startswith("Anubis Shift: choose a blocked tile")
        await pilot.press("escape")
        await pilot.press("v")
        await pilot.pause()
        assert app.message == "Not a legal move: no face-down tile is left to turn up"
        board = app.query_one("#board", MahjonggBoard)
        assert not board.revealing
        free = next(tile["id"] for tile in board.view["tiles"] if tile["free"])
        await click_tile(pilot, app, free)
        assert app.message.startswith("Choose its partner")


async def test_a_redraw_while_the_board_is_composed_does_not_crash() -> None:
    """At 120 columns and more, the fit queued after the first refresh redrew the board
    before its favor buttons were mounted: NoMatches '#do-hint', and the app died on
    start. A button not mounted yet is now left for the compose to set."""
    session = new_session(load("mahjongg", layout="pharaohs-tomb"), ["human"], 755776004)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        await board.query_one("#do-hint").remove()
        board.update_drawing()  # as a fit does mid-compose
        assert not board.query("#do-hint") and board.query("#do-undo")


async def test_favor_labels_are_whole_and_in_sight_at_80x24_in_korean() -> None:
    """'(r) 라의 시' and '(u) 되': the buttons were laid out on the whole monument's width,
    past the screen, in columns too narrow for Korean labels."""
    from rich.cells import cell_len
    from textual.widgets import Button

    from pyramids.play.i18n import set_language

    set_language("ko")
    try:
        session = new_session(load("mahjongg", layout="ramesseum"), ["human"], 5)
        app = PlayApp(session, agent_delay=0)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            await pilot.pause()
            area = app.query_one("#board-area").region
            app.query_one("#favors").scroll_visible(animate=False, immediate=True)
            await pilot.pause()
            for button in app.query("#favors Button").results(Button):
                shown = button.region
                assert area.contains_region(shown), (str(button.label), shown, area)
                assert cell_len(str(button.label)) <= shown.width, str(button.label)
            # The lines of words wrap within the screen, not at the monument's edge.
            for line in ("#summary", "#legend"):
                assert app.query_one(line).size.width <= area.width, line
    finally:
        set_language(None)


async def test_the_reshuffle_button_names_the_favor_as_the_browser_does() -> None:
    """It read "(x) Sandstorm, 3 tokens": the element tile's face, where the browser, the
    keys' help and the log say "Sandstorm Reshuffle"."""
    from pyramids.tui.mahjongg import face_name

    session = new_session(load("mahjongg", layout="turtle", reshuffle_cost=4), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        label = str(app.query_one("#do-reshuffle", expect_type=None).label)
        assert label == "(x) Sandstorm Reshuffle, 4 tokens", label
        assert label.split(")")[1].split(",")[0].strip() != face_name("Sandstorm")


def block_colours(canvas: Any, tile_id: int) -> set[Any]:
    """The background colours of a tile's cells in sight, less its side's."""
    return {canvas.styles[y][x].bgcolor for (x, y), owner in canvas.owner.items()
            if owner == tile_id and canvas.chars[y][x] != "▐"}


async def test_the_tile_reveal_target_under_the_cursor_stands_out_face_still_hidden() -> None:
    """A face-down tile always has a tile on it, which covered the cursor's `▸`: the
    tile Tile Reveal was about to turn read `▒▒▒` like every other face-down tile. The
    `▸` now shows on it, and it has a colour of its own; its face stays hidden."""
    session = new_session(load("mahjongg", layout="valley-of-the-queens"), ["human"], 5)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        board = app.query_one("#board", MahjonggBoard)
        assert board.revealing
        down = [tile["id"] for tile in board.view["tiles"] if tile["face"] is None]
        seen: set[int] = set()
        for _ in range(3 * len(down)):  # the arrows go over every face-down tile in sight
            target = board.cursor
            assert target in down
            seen.add(target)
            canvas = app.query_one("#tiles", TileCanvas).canvas
            marked = [cell for cell, owner in canvas.owner.items()
                      if canvas.chars[cell[1]][cell[0]] == "▸"]
            assert len(marked) == 1 and canvas.owner[marked[0]] == target, target
            others = set().union(*(block_colours(canvas, tile) for tile in down
                                   if tile != target))
            assert block_colours(canvas, target), target
            assert not block_colours(canvas, target) & others, target
            shown = "".join(canvas.chars[y][x] for (x, y), owner in canvas.owner.items()
                            if owner == target)
            assert set(shown) <= set(" ░▒▐▸×0123456789"), shown  # no face drawn
            await pilot.press("right" if len(seen) < len(down) // 2 else "down")
            await pilot.pause()
        assert len(seen) > len(down) // 2
        assert all(tile["face"] is None for tile in board.view["tiles"] if tile["id"] in down)


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_favor_labels_wrap_whole_on_a_60_column_terminal(lang: str) -> None:
    """'(x) Sandstorm Reshuffle, 3' was cut off its price at 60x20: a label wider than
    the board's visible width goes on to a second line."""
    from rich.cells import cell_len
    from textual.widgets import Button

    from pyramids.play.i18n import set_language
    from tests.tui.helpers import screen_lines

    set_language(lang)
    try:
        app = PlayApp(new_session(load("mahjongg"), ["human"], 5), agent_delay=0)
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            await pilot.pause()
            area = app.query_one("#board-area").region
            for button in app.query("#favors Button").results(Button):
                button.scroll_visible(animate=False, immediate=True)
                await pilot.pause()
                shown = button.region
                assert area.contains_region(shown), (str(button.label), shown, area)
                lines = screen_lines(app)[shown.y:shown.bottom]
                text = "".join(line[shown.x:shown.right].strip() for line in lines) \
                    if lang == "en" else ""
                label = str(button.label)
                assert cell_len(label) <= shown.width * shown.height, label
                if text:
                    assert text.replace(" ", "") == label.replace(" ", ""), (text, label)
    finally:
        set_language(None)


async def test_the_cannot_be_cleared_warning_is_told_beside_the_board_at_80x24() -> None:
    """The warning stood only on the line above the tiles, which at 80x24 is scrolled
    out of sight: a pair that leaves the board unclearable went on unwarned."""
    session = new_session(load("mahjongg", layout="pharaohs-tomb"), ["human"], 7)
    state = session.state
    spoiler = None
    for move in state.legal_action_strings():
        if move.startswith("match "):
            trial = state.game.state_from_json(state.to_json())
            trial.apply_string(move)
            if trial.view(0).get("unsolvable"):
                spoiler = move
                break
    assert spoiler is not None
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        status = " ".join(str(app.query_one("#status").render()).split())
        assert "can no longer be cleared" not in status
        assert app.try_move(spoiler)
        await pilot.pause()
        status = " ".join(str(app.query_one("#status").render()).split())
        assert "The board can no longer be cleared by matching alone" in status, status
        assert app.query_one("#status").region.height > 2  # read whole, not cut


async def test_a_finished_game_draws_no_favor_buttons() -> None:
    """Favors cannot be asked for once the game is over: their row of buttons goes, as
    the browser's bar does, rather than standing there greyed out."""
    now = [100.0]
    session = new_session(load("mahjongg", mode="time-attack", time_limit_seconds=60), ["human"], 2)
    app = PlayApp(session, agent_delay=0, clock=lambda: now[0])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert app.query_one("#favors").display
        now[0] += 100
        app.tick()
        await pilot.pause()
        assert session.state.is_terminal()
        assert not app.query_one("#favors").display


async def test_the_arrow_keys_reach_every_free_tile() -> None:
    """Great Zenith, a few pairs in: the two free tiles at the left of rows 2 and 4
    were reached by no arrow from anywhere (each arrow took the nearest tile that way,
    and a nearer one beside the row always won), so a keyboard player could not take
    them. Left and right now walk every free tile in reading order."""
    import random

    session = new_session(load("mahjongg", layout="great-zenith"), ["human"], 0)
    state, rng = session.state, random.Random(0)
    for _ in range(16):
        matches_now = [action for action in state.legal_actions()
                       if state.action_to_string(action).startswith("match")]
        state.apply_action(rng.choice(matches_now))
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        board = app.query_one("#board", MahjonggBoard)
        free = {t["id"] for t in state.view(0)["tiles"] if t["free"]}
        visited = {board.cursor}
        for key in ["left"] * len(free) + ["right"] * len(free):
            await pilot.press(key)
            visited.add(board.cursor)
        assert visited == free



@pytest.mark.parametrize(("mode", "players", "absent", "present"), [
    ("standard", 2, ("hint", "undo", "finish"), ("sight", "shift", "reshuffle", "pass")),
    ("coop", 2, ("hint", "undo"), ("finish", "sight", "pass")),
    ("standard", 1, (), ("hint", "undo", "finish", "sight", "pass")),
])
async def test_favors_a_mode_never_allows_have_no_button(
    mode: str, players: int, absent: tuple[str, ...], present: tuple[str, ...]
) -> None:
    """Hints and undo exist in the one-player modes only, finish there and in co-op (the
    rules' actions table): in two-player Standard, Hint, Undo and Finish stood greyed out
    for the whole game. They are left off, as in the browser; their keys say why."""
    options = {**GIZA, "mode": mode, "players": players}
    seats = ["human"] + ["greedy"] * (players - 1)
    session = new_session(load("mahjongg", **options), seats, 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        shown = {button.name for button in app.query("#favors Button")}
        assert not shown & set(absent), shown
        assert set(present) <= shown, shown
        if "hint" in absent:
            await pilot.press("h")
            await pilot.pause()
            assert "one-player modes" in str(app.query_one("#message").render())


@pytest.mark.parametrize(("mode", "players", "action", "words"), [
    ("coop", 2, "finish", "finishing needs every remaining tile to be free"),
    ("standard", 1, "undo", "there is nothing to undo"),
])
async def test_a_favor_button_not_to_be_had_now_says_why_when_clicked(
    mode: str, players: int, action: str, words: str
) -> None:
    """Co-op's Finish before every remaining tile is free, Undo before any move: the
    button was disabled, and a click on it did nothing, while its key said why in the
    message line. The click says the same words now, and plays nothing."""
    options = {**GIZA, "mode": mode, "players": players}
    seats = ["human"] + ["greedy"] * (players - 1)
    session = new_session(load("mahjongg", **options), seats, 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        state = session.state
        assert action not in [state.action_to_string(a) for a in state.legal_actions()]
        before = state.view(0)
        await pilot.click(f"#do-{action}")
        await pilot.pause()
        clicked = " ".join(str(app.query_one("#message").render()).split())
        assert words in clicked, clicked
        assert session.state.view(0) == before
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press(next(key for name, key, _cost in FAVORS if name == action))
        await pilot.pause()
        pressed = " ".join(str(app.query_one("#message").render()).split())
        assert pressed == clicked


async def test_the_score_lines_stay_whole_as_escape_scrolls_the_board_sideways() -> None:
    """Co-op's Twin Pyramids at 80x24 is wider than the board's part of the screen:
    Escape scrolls it to the cursor's tile, and with the cursor at the right the score
    lines above the tiles scrolled with it, cut at the left ("shur", "reak 0"). Only
    the tiles scroll now: the lines and the favor buttons stay in sight, and a click on
    a button still reaches it."""
    from tests.tui.helpers import screen_lines

    session = new_session(load("mahjongg", mode="coop", players=2), ["human", "greedy"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        board = app.query_one("#board", MahjonggBoard)
        free = [tile for tile in board.view["tiles"] if tile["free"]]
        board.cursor = max(free, key=lambda tile: tile["x"])["id"]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause(0.1)
        assert app.query_one("#board-area").scroll_offset.x > 0, "the board scrolled"
        screen = "\n".join(screen_lines(app))
        title = "Architect Co-op on Twin Pyramids of Dahshur"
        assert title in screen, screen
        assert "team score 0" in screen and "streak 0 " in screen, screen
        assert "(f) Finish" in screen, screen
        await pilot.click("#do-finish")
        await pilot.pause()
        said = " ".join(str(app.query_one("#message").render()).split())
        assert "finishing needs every remaining tile to be free" in said, said


async def test_anubis_shift_without_the_tokens_says_what_it_costs_by_key_and_click() -> None:
    """Anubis Shift priced above the tokens held: its key (and its button) said "Anubis
    Shift has no tile to take now" over a board full of blocked tiles. Both say what it
    costs and what the player has, as the other favors' refusals do."""
    session = new_session(load("mahjongg", **GIZA, shift_cost=9), ["human"], 4)
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        expected = "Not a legal move: Anubis Shift costs 9 tokens; you have 2"
        await pilot.press("a")
        await pilot.pause()
        assert app.message == expected
        board = app.query_one("#board", MahjonggBoard)
        assert not board.shifting
        await pilot.press("escape")
        await pilot.click("#do-shift")
        await pilot.pause()
        assert app.message == expected
        assert not board.shifting and session.state.history_strings() == []


async def test_reshuffle_says_the_same_reason_by_key_and_by_button() -> None:
    """Solo on Giza, 2 tokens of the 3 a Sandstorm Reshuffle costs, with pairs on the
    board: the `x` key said "Sandstorm Reshuffle costs 3 tokens; you have 2." while the
    button (the engine's list of favors off now) said "allowed only when no valid pair
    exists". Both say both reasons now, the same words, and play nothing."""
    session, app = giza_solo()
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        state = session.state
        assert state.valid_pairs() and state.tokens == [2]
        expected = ("Not a legal move: a Sandstorm Reshuffle is allowed only when no valid "
                    "pair exists, and it costs 3 tokens; you have 2")
        await pilot.press("x")
        await pilot.pause()
        assert app.message == expected
        await pilot.press("escape")
        await pilot.click("#do-reshuffle")
        await pilot.pause()
        clicked = " ".join(str(app.query_one("#message").render()).split())
        assert expected in clicked, clicked
        assert session.state.history_strings() == []
