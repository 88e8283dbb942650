"""Mahjongg Pyramids: an Egyptian Mahjong solitaire for 1 to 4 players, with scarab
tokens, capstones, burial vaults and three modes. Registers `mahjongg`. The rules
as implemented are in `rules.md`.
"""

from __future__ import annotations

from importlib.resources import files

from pyramids.core.registry import (
    GameManifest,
    packaged_learn_pages,
    packaged_tutorial,
    register,
)
from pyramids.games.mahjongg import modes
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.state import MahjonggState
from pyramids.games.mahjongg.views import MahjonggView


def rules_page() -> str:
    return files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


SMALL = "giza-step-ramp"

register(
    GameManifest(
        name="mahjongg",
        tutorial=packaged_tutorial(__name__, "mahjongg"),
        learn_page=packaged_learn_pages(__name__, "mahjongg"),
        title="Mahjongg Pyramids",
        order=30,
        players_option="players",
        greedy_policy="pyramids.agents.greedy.mahjongg",
        planner="pyramids.agents.planner:plan_mahjongg_solo",
        text_renderer="pyramids.play.text.mahjongg:render_mahjongg",
        text_notes="pyramids.play.text.mahjongg:option_notes",
        move_log="pyramids.play.logs.mahjongg:describe_mahjongg",
        move_labels="pyramids.play.text.mahjongg:move_labels",
        terminal_board="pyramids.tui.mahjongg:BOARD",
        web_renderer="pyramids.web:static/mahjongg.js",
        view_type=MahjonggView,
        observation_encoder="pyramids.rl.observe.mahjongg:make_mahjongg_writer",
        factory=MahjonggGame,
        summary="Egyptian Mahjong solitaire: clear pyramids of tiles, alone, against others "
        "or as a team",
        # The conformance suite plays 1000 random games of each: small boards, and a
        # small solver budget for the hints and warnings, keep them fast.
        variants=(
            {},
            {"layout": SMALL, "solver_nodes": 300},
            {"layout": SMALL, "players": 2},
            {"layout": SMALL, "mode": "coop", "players": 3},
            {"layout": "great-zenith", "mode": "time-attack", "time_limit_seconds": 60},
            {"layout": SMALL, "mode": "time-attack", "clock": "turns", "time_limit_seconds": 120},
            {"layout": SMALL, "deal": "random", "players": 4, "pantheon_pairs": False},
        ),
        rules_page=rules_page,
        ranked_problem=modes.ranked_problem,
        ranked_options=modes.ranked_options,
    )
)

__all__ = ["MahjonggGame", "MahjonggState", "rules_page"]
