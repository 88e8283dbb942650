"""OpenSpiel adapters (the `openspiel` extra): importing this registers every game with pyspiel.

`pyspiel.load_game("pyramids_pacal")` (dashes as underscores: `pyramids_pacal_solo`)
then gives an OpenSpiel game whose parameters are the game's options, and whose
`get_type()` is that of its options (`game_type(name, params)` answers it; the
type pyspiel registers, `pyspiel.registered_games()`, is the default options'). See
`pyramids.openspiel.game` for how chance, information and utilities map, and
`pyramids.openspiel.bots` for OpenSpiel's MCTS and IS-MCTS as pyramids agents
(`openspiel-mcts`, `openspiel-ismcts`), and `pyramids.openspiel.ismcts.ismcts_bot`
for OpenSpiel's IS-MCTS, seeded (OpenSpiel's C++ `pyspiel.ISMCTSBot` cannot play
Python games).
docs/rl.md has examples.
"""

from pyramids.openspiel.game import (
    PyramidsObserver,
    PyramidsSpielGame,
    PyramidsSpielState,
    game_type,
    register_games,
    short_name,
)

SPIEL_NAMES = register_games()

from pyramids.openspiel.bots import (  # noqa: E402  (registers the agents)
    OpenSpielIsmctsAgent,
    OpenSpielMctsAgent,
)
from pyramids.openspiel.ismcts import ismcts_bot  # noqa: E402

__all__ = [
    "SPIEL_NAMES",
    "OpenSpielIsmctsAgent",
    "OpenSpielMctsAgent",
    "PyramidsObserver",
    "PyramidsSpielGame",
    "PyramidsSpielState",
    "game_type",
    "ismcts_bot",
    "register_games",
    "short_name",
]
