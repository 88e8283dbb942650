"""The game API, errors, seeding, records and the registry shared by every game."""

from pyramids.core.api import TERMINAL, Game, RandomSource, State
from pyramids.core.errors import (
    IllegalActionError,
    LayoutError,
    OptionError,
    PyramidsError,
    RecordError,
    UnknownGameError,
)
from pyramids.core.options import Option, resolve_options
from pyramids.core.records import GameRecord
from pyramids.core.registry import (
    GameEntry,
    GameManifest,
    companion_of,
    find_manifest,
    game_entry,
    game_manifest,
    game_names,
    load,
    manifests,
    packaged_learn_pages,
    packaged_rules_pages,
    packaged_tutorial,
    register,
)
from pyramids.core.rng import Rng

__all__ = [
    "TERMINAL",
    "Game",
    "GameEntry",
    "GameManifest",
    "GameRecord",
    "IllegalActionError",
    "LayoutError",
    "Option",
    "OptionError",
    "PyramidsError",
    "RandomSource",
    "RecordError",
    "Rng",
    "State",
    "UnknownGameError",
    "companion_of",
    "find_manifest",
    "game_entry",
    "game_manifest",
    "game_names",
    "load",
    "manifests",
    "packaged_learn_pages",
    "packaged_rules_pages",
    "packaged_tutorial",
    "register",
    "resolve_options",
]
