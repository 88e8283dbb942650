"""What an agent is, and how agents are chosen by name.

An agent sees a state through the public game API only (so every agent serves
every game) and answers the action to play for `state.current_player`. Agents
that search must not peek at hidden information: they work on
`state.resample_hidden(player, rng)` determinizations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pyramids.core import OptionError, State


class Agent(Protocol):
    name: str

    def step(self, state: State) -> int:
        """The action to play in `state` (not terminal) for `state.current_player`."""
        ...


AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    _load_builtins()
    return sorted(_AGENTS)


def make_agent(name: str, seed: int | None = 0, **options: Any) -> Agent:
    """The agent called `name`, seeded. An unknown name lists the allowed ones."""
    _load_builtins()
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise OptionError(
            f"unknown agent {name!r}; allowed agents: {', '.join(sorted(_AGENTS))}"
        ) from None
    return factory(seed=seed, **options)


def _load_builtins() -> None:
    # Importing the agents package registers every built-in agent.
    import pyramids.agents  # noqa: F401
