"""The registry of games: `load(name, **options)` and what the conformance suite runs.

A game module registers itself with `register(GameEntry(...))` when imported.
The built-in games are imported on first use, so `pyramids.load("temple")`
works without the caller importing the rules package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pyramids.core.api import Game
from pyramids.core.errors import UnknownGameError

BUILTIN_MODULES = (
    "pyramids.games.pacal",
    "pyramids.games.temple",
    "pyramids.games.mahjongg",
)


@dataclass(frozen=True)
class GameEntry:
    """A registered game name.

    `factory(**options)` makes the Game. `variants` are option sets the generic
    conformance suite plays (the defaults first). `rules_page` is the project's
    rules page as Markdown text, or a callable returning it.
    """

    name: str
    factory: Callable[..., Game]
    summary: str
    variants: tuple[dict[str, Any], ...] = field(default_factory=lambda: ({},))
    rules_page: Callable[[], str] | None = None


_REGISTRY: dict[str, GameEntry] = {}
_builtins_loaded = False


def register(entry: GameEntry) -> None:
    _REGISTRY[entry.name] = entry


def _load_builtins() -> None:
    global _builtins_loaded
    if _builtins_loaded:
        return
    _builtins_loaded = True
    for module in BUILTIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            # A game package not written yet is simply absent; any other missing
            # module is a real fault.
            if error.name != module:
                raise


def game_names() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    _load_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        allowed = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"unknown game {name!r}; allowed games: {allowed}") from None


def load(name: str, **options: Any) -> Game:
    """The game `name` with `options` validated (unknown names and values raise)."""
    return game_entry(name).factory(**options)
