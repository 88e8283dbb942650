"""Pacal (Günter Burkhardt, Klee 1999): build a pyramid of cards in strictly
decreasing order, trading cards by offer and pick. Registers `pacal` (the
two-player match) and `pacal-solo`. The rules as implemented are in `rules.md`.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from pyramids.core.errors import N_, Words
from pyramids.core.registry import (
    GameManifest,
    packaged_learn_pages,
    packaged_tutorial,
    register,
)
from pyramids.games.pacal.game import PacalGame, PacalSoloGame
from pyramids.games.pacal.match import START_LOSER, START_ROTATE, START_WINNER, PacalState
from pyramids.games.pacal.solo import PacalSoloState
from pyramids.games.pacal.views import PacalSoloView, PacalView


def seat_order(options: dict[str, Any]) -> Words:
    """For a balance report: in Pacal, a seat is not a place in the turn order."""
    rule = options.get("start_rule", START_LOSER)
    if rule == START_WINNER:
        return Words(N_(
            "In Pacal a seat is not a place in the turn order: round 1 is started by the "
            "player whose revealed apex base card is higher, each later round by the previous "
            "round's winner (after a drawn round, by the player who did not start it; option "
            "start_rule). Seat 1 is the first seat of the seating, not the first player."))
    if rule == START_ROTATE:
        return Words(N_(
            "In Pacal a seat is not a place in the turn order: round 1 is started by the "
            "player whose revealed apex base card is higher, each later round by the players "
            "in turn (after a drawn round, by the player who did not start it; option "
            "start_rule). Seat 1 is the first seat of the seating, not the first player."))
    return Words(N_(
        "In Pacal a seat is not a place in the turn order: round 1 is started by the "
        "player whose revealed apex base card is higher, each later round by the previous "
        "round's loser (after a drawn round, by the player who did not start it; option "
        "start_rule). Seat 1 is the first seat of the seating, not the first player."))


def rules_page() -> str:
    return files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


register(
    GameManifest(
        name="pacal",
        tutorial=packaged_tutorial(__name__, "pacal"),
        learn_page=packaged_learn_pages(__name__, "pacal"),
        title="Pacal",
        order=10,
        factory=PacalGame,
        summary="Two players build card pyramids by offering and picking; first to 3 rounds",
        greedy_policy="pyramids.agents.greedy.pacal",
        planner="pyramids.agents.pacal_planning:plan_pacal_match",
        text_renderer="pyramids.play.text.pacal:render_pacal",
        move_log="pyramids.play.logs.pacal:describe_pacal",
        terminal_board="pyramids.tui.pacal:BOARD",
        web_renderer="pyramids.web:static/pacal.js",
        view_type=PacalView,
        observation_encoder="pyramids.rl.observe.pacal:make_pacal_writer",
        variants=(
            {},
            {"direction": "ascending"},
            {"rounds_to_win": 1, "max_rounds": 2},
        ),
        rules_page=rules_page,
        seat_order=seat_order,
        # A round takes at most about 60 moves (a first-to-99 match between greedy
        # bots took 9,000 to 9,800 over 186 to 199 rounds): 150 rounds keep every
        # match inside a server's 10,000 moves a game (`web.limits`).
        server_option_maximum={"max_rounds": 150},
        quick_engine=True,
    )
)
register(
    GameManifest(
        name="pacal-solo",
        tutorial=packaged_tutorial(__name__, "pacal-solo"),
        # Its own page (the solo rules first, not under the match's): `pacal` has the other.
        learn_page=packaged_learn_pages(__name__, "pacal-solo"),
        title="Pacal solo",
        order=40,
        factory=PacalSoloGame,
        summary="Build one card pyramid from a draw pile in as few draws as possible",
        greedy_policy="pyramids.agents.greedy.pacal",
        planner="pyramids.agents.planner:plan_pacal_solo",
        text_renderer="pyramids.play.text.pacal:render_pacal_solo",
        move_log="pyramids.play.logs.pacal:describe_pacal_solo",
        terminal_board="pyramids.tui.pacal:BOARD",
        web_renderer="pyramids.web:static/pacal.js",
        view_type=PacalSoloView,
        observation_encoder="pyramids.rl.observe.pacal:make_pacal_solo_writer",
        variants=({}, {"direction": "ascending"}),
        rules_page=rules_page,
        quick_engine=True,
    )
)

__all__ = ["PacalGame", "PacalSoloGame", "PacalSoloState", "PacalState", "rules_page"]
