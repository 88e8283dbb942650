"""The Pacal games and their options: `pacal` (the two-player match) and `pacal-solo`.

Every decision of this project that the published rules leave open is an option
marked `ours`, with the rules page's default.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pyramids.core.api import GENERAL_SUM, ZERO_SUM, Game
from pyramids.core.errors import N_, OptionError, OptionRef
from pyramids.core.options import Option
from pyramids.games.pacal.actions import NUM_ACTIONS, SOLO_NUM_ACTIONS
from pyramids.games.pacal.match import START_LOSER, START_ROTATE, START_WINNER, PacalState
from pyramids.games.pacal.pyramid import DIRECTIONS
from pyramids.games.pacal.solo import PacalSoloState

DIRECTION = Option(
    "direction",
    "descending",
    str,
    "where the fields are drawn: descending puts the lowest card at the bottom right, "
    "ascending (the Jaguar edition) mirrors it to the bottom left; the rules are the "
    "same",
    choices=DIRECTIONS,
    ours=True,
)
ROUNDS_TO_WIN = Option(
    "rounds_to_win",
    3,
    int,
    "round wins that take the match",
    minimum=1,
    maximum=99,
    ours=True,
)
MAX_ROUNDS = Option(
    "max_rounds",
    15,
    int,
    "after this many rounds the player with more round wins takes the match, else a draw",
    minimum=1,
    maximum=999,
    ours=True,
)

START_RULE = Option(
    "start_rule",
    START_LOSER,
    str,
    "who starts each round after the first (the first: the higher apex card): the loser "
    "of the last round, its winner, or the players in turn; after a drawn round, the "
    "player who did not start it",
    choices=(START_LOSER, START_WINNER, START_ROTATE),
    ours=True,
    legacy=START_LOSER,  # games saved before the option: the loser started
)


class PacalGame(Game):
    """The two-player match."""

    name: ClassVar[str] = "pacal"
    option_specs: ClassVar[tuple[Option, ...]] = (DIRECTION, ROUNDS_TO_WIN, MAX_ROUNDS,
                                                  START_RULE)

    def _check_options(self) -> None:
        rounds_to_win = self._options["rounds_to_win"]
        max_rounds = self._options["max_rounds"]
        if max_rounds < rounds_to_win:
            raise OptionError(
                N_("{max_rounds} is below {rounds_to_win}, so no one could reach it; "
                   "allowed: {most} at least {to_win}"),
                max_rounds=OptionRef("max_rounds", max_rounds),
                rounds_to_win=OptionRef("rounds_to_win", rounds_to_win),
                most=OptionRef("max_rounds"), to_win=OptionRef("rounds_to_win"))

    @property
    def num_players(self) -> int:
        return 2

    def returns_kind(self) -> str:
        return ZERO_SUM  # +1 for the match's winner, -1 for the other; 0 each without one

    def outcome_figures(self) -> tuple[str, ...]:
        return ("rounds",)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self, seed: int | str | None = None) -> PacalState:
        return PacalState(self, seed)

    def _state_from_dict(self, data: dict[str, Any]) -> PacalState:
        return PacalState.from_dict(self, data)


class PacalSoloGame(Game):
    """Solo Pacal: one pyramid from a draw pile, in as few draws as possible."""

    name: ClassVar[str] = "pacal-solo"
    option_specs: ClassVar[tuple[Option, ...]] = (DIRECTION,)

    @property
    def num_players(self) -> int:
        return 1

    def returns_kind(self) -> str:
        return GENERAL_SUM  # one player: +1 or -1

    def outcome_figures(self) -> tuple[str, ...]:
        return ("draws", "spread")

    @property
    def num_distinct_actions(self) -> int:
        return SOLO_NUM_ACTIONS

    def new_initial_state(self, seed: int | str | None = None) -> PacalSoloState:
        return PacalSoloState(self, seed)

    def _state_from_dict(self, data: dict[str, Any]) -> PacalSoloState:
        return PacalSoloState.from_dict(self, data)
