"""What an agent is, and how agents are chosen by name.

An agent sees a state through the public game API only (so every agent serves
every game) and answers the action to play for `state.current_player`. Agents
that search must not peek at hidden information: they work on
`state.resample_hidden(player, rng)` determinizations.

Agents come from two places, like games (`pyramids.core.registry`):
- the built-in agents, registered on importing `pyramids.agents`;
- entry points in the group `pyramids.agents` of any installed distribution,
  each naming an agent factory (`package.module:factory`). They are imported on
  first use, so an agent whose extra is not installed is still listed, and
  asking for it says which extra to install (the entry point's `[extra]`).
  This is how interfaces above the agents layer (OpenSpiel's bot in
  `pyramids.openspiel.bots`) offer agents to `pyramids arena` without the
  agents layer importing them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import Any, Protocol

from pyramids.core import OptionError, State
from pyramids.core.errors import N_

ENTRY_POINT_GROUP = "pyramids.agents"


class Agent(Protocol):
    name: str

    def step(self, state: State) -> int:
        """The action to play in `state` (not terminal) for `state.current_player`."""
        ...


AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, AgentFactory] = {}
_plugins_scanned = False


class PluginAgentFactory:
    """An agent named by an entry point: imported on first use, with a clear error when its
    extra is missing."""

    def __init__(self, entry_point: metadata.EntryPoint) -> None:
        self.entry_point = entry_point
        self._factory: AgentFactory | None = None
        # Where the agent lives (its package's own tests cover it), as for a factory function.
        self.__module__ = entry_point.module

    def load(self) -> AgentFactory:
        if self._factory is None:
            try:
                self._factory = self.entry_point.load()
            except ModuleNotFoundError as error:
                if error.name and error.name.split(".")[0] == "pyramids":
                    raise
                raise OptionError(missing_extra_message(self.entry_point, error)) from None
        return self._factory

    def __call__(self, **options: Any) -> Agent:
        return self.load()(**options)


def missing_extra_message(entry_point: metadata.EntryPoint, error: ModuleNotFoundError) -> str:
    """What to install for a plugin agent whose import failed for want of `error.name`."""
    extras = list(getattr(entry_point, "extras", None) or [])
    where = f"agent {entry_point.name!r} needs the module {error.name!r}"
    if not extras:
        return f"{where}, which is not installed"
    extra = extras[0]
    return f"{where}: install the '{extra}' extra with: pip install 'pyramids[{extra}]'"


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    _load_builtins()
    return sorted(_AGENTS)


def require_agent(name: str) -> None:
    """Check that the agent `name` exists and can be imported (its extra installed).

    OptionError lists the allowed names, or says which extra to install."""
    _load_builtins()
    factory = _AGENTS.get(name)
    if factory is None:
        raise OptionError(N_("unknown agent {name}; allowed agents: {allowed}"),
                          name=repr(name), allowed=", ".join(sorted(_AGENTS)))
    if isinstance(factory, PluginAgentFactory):
        factory.load()


def make_agent(name: str, seed: int | None = 0, **options: Any) -> Agent:
    """The agent called `name`, seeded. An unknown name lists the allowed ones."""
    _load_builtins()
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise OptionError(N_("unknown agent {name}; allowed agents: {allowed}"),
                          name=repr(name), allowed=", ".join(sorted(_AGENTS))) from None
    return factory(seed=seed, **options)


def _load_builtins() -> None:
    # Importing the agents package registers every built-in agent.
    import pyramids.agents  # noqa: F401

    _scan_plugins()


def _scan_plugins() -> None:
    global _plugins_scanned
    if _plugins_scanned:
        return
    _plugins_scanned = True
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        # A module that registered itself on import (the real factory) wins.
        _AGENTS.setdefault(entry_point.name, PluginAgentFactory(entry_point))
