"""Temple of Inscriptions: 2 to 5 players build a nine-level pyramid together
and each tries to end with the largest treasure.

The rules implemented are on `rules.md` in this package (`pyramids rules temple`).
Modules: `cards` (kinds and the deck), `pile` (draws, discards, reshuffles),
`construction` (units, caps, earnings), `actions` (the action set and its
strings), `scoring` (scores, winners, returns), `state` (a position and how
actions change it), `game` (options).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from pyramids.core.errors import N_, Words
from pyramids.core.registry import (
    GameManifest,
    packaged_learn_pages,
    packaged_tutorial,
    register,
)
from pyramids.games.temple.game import TempleGame
from pyramids.games.temple.state import TempleState
from pyramids.games.temple.views import TempleView

__all__ = ["TempleGame", "TempleState"]


def rules_page() -> str:
    return resources.files(__package__).joinpath("rules.md").read_text(encoding="utf-8")


def seat_order(options: dict[str, Any]) -> Words | None:
    """For a balance report: seat 1 starts round 1 only under `start_rule=rotate`."""
    rule = options.get("start_rule", TempleGame().options["start_rule"])
    if rule == "rotate":
        return None
    return Words(N_("In Temple with `start_rule={rule}` the start player of round 1 is drawn "
                    "by lot (from the deal's seed): seat 1 is the first seat of the seating, "
                    "not the first player."), rule=rule)


register(
    GameManifest(
        name="temple",
        tutorial=packaged_tutorial(__name__, "temple"),
        learn_page=packaged_learn_pages(__name__, "temple"),
        title="Temple of Inscriptions",
        order=20,
        players_option="players",
        greedy_policy="pyramids.agents.greedy.temple",
        text_renderer="pyramids.play.text.temple:render_temple",
        move_log="pyramids.play.logs.temple:describe_temple",
        terminal_board="pyramids.tui.temple:BOARD",
        web_renderer="pyramids.web:static/temple.js",
        view_type=TempleView,
        observation_encoder="pyramids.rl.observe.temple:make_temple_writer",
        factory=TempleGame,
        summary="Temple of Inscriptions: build a nine-level pyramid together, "
        "collect the largest treasure (2-5 players)",
        variants=(
            {},
            {"players": 2},
            {"players": 3},
            {"players": 5},
            {"players": 3, "cards_per_level": 5, "jewels": 6, "swap_size": 2,
             "start_hand": 2, "max_rounds": 60},
            {"start_rule": "rotate"},
            {"players": 3, "start_rule": "poorest", "cards_per_level": 4, "jewels": 8},
        ),
        rules_page=rules_page,
        seat_order=seat_order,
        # A round takes at most about 20 moves at five seats: 400 rounds keep every
        # game inside a server's 10,000 moves a game (`web.limits`).
        server_option_maximum={"max_rounds": 400},
        quick_engine=True,
    )
)
