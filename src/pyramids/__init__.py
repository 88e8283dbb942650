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

# Subpackages a reader reaches as `pyramids.agents.make_agent(...)` after `import
# pyramids`, imported on first use (the interfaces' extras stay unloaded until then).
_SUBPACKAGES = ("agents", "sim", "play", "rl", "core", "games")


def __getattr__(name: str) -> object:
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f"pyramids.{name}")
    raise AttributeError(f"module 'pyramids' has no attribute {name!r}")

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
