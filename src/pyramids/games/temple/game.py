"""Temple of Inscriptions as a `Game`: its options and their cross-checks.

Every number the seed leaves open is an option marked `ours` with the default of
the rules page: players, cards per level, jewels, starting treasure, starting
hand, swap-zone size, the rule that picks each round's start player
(`start_rule`, see `progress`) and the `max_rounds` safety cap.
"""

from __future__ import annotations

from typing import Any

from pyramids.core.api import ZERO_SUM, Game
from pyramids.core.errors import N_, OptionError, OptionRef
from pyramids.core.options import Option
from pyramids.games.temple.actions import ActionCodec
from pyramids.games.temple.cards import LEVELS
from pyramids.games.temple.construction import UNITS_TO_BUILD
from pyramids.games.temple.progress import START_LEADER_LAST, START_RULES
from pyramids.games.temple.state import TempleState


class TempleGame(Game):
    name = "temple"
    option_specs = (
        Option("players", 4, int, "number of players", minimum=2, maximum=5, ours=True),
        Option("cards_per_level", 7, int, "construction cards of each level 1..9",
               minimum=1, maximum=50, ours=True),
        Option("jewels", 18, int, "jewel cards in the deck", minimum=0, maximum=100, ours=True),
        Option("start_treasure", 3, int, "treasure points each player starts with",
               minimum=0, maximum=1000, ours=True),
        Option("start_hand", 3, int, "cards dealt to each player at the start",
               minimum=0, maximum=30, ours=True),
        Option("swap_size", 4, int, "face-up cards in the swap zone", minimum=0, maximum=10,
               ours=True),
        Option("start_rule", START_LEADER_LAST, str, "who starts each round: in turn (seat 1 "
               "first, then the next seat), by lot then in turn, the poorest player (the first "
               "by lot, then the player with the least treasure) or the leader last (the first "
               "by lot, then the player after the one with the most treasure)",
               choices=START_RULES, ours=True,
               # Games saved before this option existed rotated from seat 1.
               legacy="rotate"),
        Option("max_rounds", 200, int, "rounds after which a stalled game ends and is scored",
               minimum=1, maximum=100_000, ours=True),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.codec = ActionCodec(self._options["swap_size"])

    def _check_options(self) -> None:
        o = self._options
        deck = LEVELS * o["cards_per_level"] + o["jewels"]
        dealt = o["swap_size"] + o["players"] * o["start_hand"]
        if dealt > deck:
            raise OptionError(
                N_("the deck has {deck} cards (9 × {cards_per_level} + {jewels}), too few to "
                   "deal {swap_size} + {players} × {start_hand} = {dealt}; allowed: a deck at "
                   "least that large"),
                deck=deck, dealt=dealt, **{name: OptionRef(name, o[name]) for name in (
                    "cards_per_level", "jewels", "swap_size", "players", "start_hand")})
        units = o["cards_per_level"] + o["jewels"] // 2
        if units < UNITS_TO_BUILD:
            raise OptionError(
                N_("a level needs {needed} units but {cards_per_level} and {jewels} make at "
                   "most {units}; allowed: {per_level} + half the {all_jewels} at least "
                   "{needed}"),
                needed=UNITS_TO_BUILD, units=units,
                cards_per_level=OptionRef("cards_per_level", o["cards_per_level"]),
                jewels=OptionRef("jewels", o["jewels"]),
                per_level=OptionRef("cards_per_level"), all_jewels=OptionRef("jewels"))

    @property
    def num_players(self) -> int:
        return int(self._options["players"])

    def returns_kind(self) -> str:
        # The k winners share +1 and the others -1 (`scoring.returns_for`), at any table.
        return ZERO_SUM

    def outcome_figures(self) -> tuple[str, ...]:
        return ("built", "rounds")

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.size

    def new_initial_state(self, seed: int | str | None = None) -> TempleState:
        return TempleState(self, seed)

    def _state_from_dict(self, data: dict[str, Any]) -> TempleState:
        return TempleState.from_dict(self, data)
