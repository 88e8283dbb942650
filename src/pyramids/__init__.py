"""pyramids: exact engines, strong bots and pleasant play for three pyramid games.

    >>> import pyramids
    >>> game = pyramids.load("pacal")
    >>> state = game.new_initial_state(seed=7)
"""

from pyramids.core import (
    TERMINAL,
    Game,
    GameRecord,
    IllegalActionError,
    LayoutError,
    OptionError,
    PyramidsError,
    RecordError,
    Rng,
    State,
    UnknownGameError,
    game_names,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "TERMINAL",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "LayoutError",
    "OptionError",
    "PyramidsError",
    "RecordError",
    "Rng",
    "State",
    "UnknownGameError",
    "__version__",
    "game_names",
    "load",
]
