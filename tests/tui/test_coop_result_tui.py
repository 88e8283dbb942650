"""A finished Co-op game says the team's one score and why the team lost.

The result listed the team's score as the first seat's ("Scores: you 42900") and a
cleared monument with vaults left behind as only "the team loses", beside "the
monument is cleared"; the browser says the team's score and the reason (the vaults).
"""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from pyramids.agents import make_agent  # noqa: E402
from pyramids.core import load  # noqa: E402
from pyramids.play.i18n import set_language  # noqa: E402
from pyramids.play.session import new_session  # noqa: E402
from pyramids.play.text.mahjongg import render_mahjongg  # noqa: E402
from pyramids.sim.play import play_game  # noqa: E402
from pyramids.tui.app import PlayApp  # noqa: E402


def lost_coop_with_vaults_left():
    """Seed 3, two `hard` seats: the monument cleared, three of four vaults forfeited."""
    game = load("mahjongg", players=2, mode="coop")
    session = new_session(game, ["human", "hard"], 3)
    agents = [make_agent("hard", seed=1), make_agent("hard", seed=2)]
    play_game(game, agents, 3, state=session.state)
    view = session.state.view(0)
    result = view["result"]
    assert result["reason"] == "cleared" and not result["team_won"]
    assert result["scores"] == [42900]
    assert [vault["state"] for vault in view["vaults"]].count("forfeited") == 3
    return session


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_line_prompts_say_the_team_score_and_the_vaults(lang: str) -> None:
    set_language(lang)
    try:
        text = render_mahjongg(lost_coop_with_vaults_left().state.view(0), 100)
    finally:
        set_language(None)
    if lang == "en":
        assert "Result: the monument is cleared; team score 42,900" in text, text
        assert "the team loses: not every burial vault was unlocked" in text, text
        assert "seat 1: 42,900" not in text
    else:
        assert "팀 점수 42,900" in text and "모든 매장실을 열지는 못했습니다" in text, text


@pytest.mark.asyncio
async def test_the_terminal_app_says_the_team_score_and_the_vaults() -> None:
    session = lost_coop_with_vaults_left()
    app = PlayApp(session, agent_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = app.query_one("#board")
        result = board._result(session.state.view(0)["result"])
    assert result == ("Game over: the monument is cleared. Team score: 42,900 · the team "
                      "loses: not every burial vault was unlocked"), result


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_a_lost_coop_game_is_no_draw(lang: str) -> None:
    """Every seat of a team gets the same return, won or lost: the side panel said "Game
    over: a draw." beside the board's "the team loses"; it says the team lost, as the
    line prompts' end does."""
    from pyramids.play.results import result_lines

    set_language(lang)
    try:
        session = lost_coop_with_vaults_left()
        app = PlayApp(session, agent_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            status = str(app.query_one("#status").render())
        lines = result_lines(session.state, session.seats)
    finally:
        set_language(None)
    if lang == "en":
        assert status == "Game over: the team lost.", status
        assert lines[1:] == ["  seat 1 (you): lost", "  seat 2 (Hard): lost", "  The team lost."]
    else:
        assert status == "게임 종료: 팀이 졌습니다.", status
        assert "무승부" not in "\n".join(lines) and lines[-1] == "  팀이 졌습니다."
