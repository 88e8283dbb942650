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

import inspect
import math
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any, Protocol

from pyramids.core import OptionError, State
from pyramids.core.errors import N_, Words

ENTRY_POINT_GROUP = "pyramids.agents"


class Agent(Protocol):
    """An agent: `step` answers a move; `reseed` starts it afresh from a seed.

    Every built-in agent has `reseed`. An agent from a plugin written before it may
    lack it: it still plays everywhere (nothing in the project reseeds agents but a
    level, which then makes its inner agent afresh), and `reseed_agent`, for an
    evaluation loop, leaves it as it is and answers False: make a new agent from
    the seed then."""

    name: str

    def step(self, state: State) -> int:
        """The action to play in `state` (not terminal) for `state.current_player`."""
        ...

    def reseed(self, seed: int | None) -> None:
        """Start again from `seed`: from now on the agent plays exactly as a new agent
        made with `seed` (and the same options) would, forgetting every game it has
        seen (so a seed plus the actions replays a game). What it only caches about a
        game's rules (a policy looked up, a search's settings) may stay."""
        ...


def reseed_agent(agent: Any, seed: int | None) -> bool:
    """Reseed `agent` when it can be (`agent.reseed(seed)`): True; False, leaving it as
    it is, for an agent without `reseed` (a plugin's, written before it): make a new
    one from the seed to replay a game then."""
    reseed = getattr(agent, "reseed", None)
    if not callable(reseed):
        return False
    reseed(seed)
    return True


def thinks_by_clock(agent: Agent, game: Any = None) -> bool:
    """Whether `agent` stops thinking when a time runs out (a clock budget, as plain
    `mcts`'s 0.8 s): its moves then depend on the machine's speed and load, so a seed
    does not replay its games. A budget of iterations does.

    `game` (a loaded game): the game it is to play, for an agent whose budget depends
    on the game (`planner` leaves the games it does not plan to `mcts`, by the clock
    unless given iterations): its `thinks_by_clock_in(game)` answers. Without a game,
    such an agent answers for the games it leaves to `mcts`."""
    if game is not None:
        ask = getattr(agent, "thinks_by_clock_in", None)
        if ask is not None:
            return bool(ask(game))
    return bool(getattr(agent, "thinks_by_clock", False))


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


def missing_extra_message(entry_point: metadata.EntryPoint, error: ModuleNotFoundError) -> Words:
    """What to install for a plugin agent whose import failed for want of `error.name`."""
    extras = list(getattr(entry_point, "extras", None) or [])
    if not extras:
        return Words(N_("agent {name} needs the module {module}, which is not installed"),
                     name=repr(entry_point.name), module=repr(error.name))
    return Words(N_("agent {name} needs the module {module}: install the '{extra}' extra with: "
                    "pip install 'pyramids[{extra}]'"),
                 name=repr(entry_point.name), module=repr(error.name), extra=extras[0])


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    _load_builtins()
    return sorted(_AGENTS)


def agents_for(game: str) -> list[str]:
    """The agents worth offering for `game`: every one but those made for other games
    (an agent class's `serves(game)` says; elsewhere they play as another does:
    `determinized` as greedy, `planner` as mcts, so offering them adds a name that
    means nothing new)."""
    _load_builtins()
    offered = []
    for name, factory in sorted(_AGENTS.items()):
        serves = getattr(factory, "serves", None)
        if serves is None or serves(game):
            offered.append(name)
    return offered


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
    """The agent called `name`, seeded. An unknown name lists the allowed ones, an
    unknown option the agent's options; each agent checks its options' values."""
    _load_builtins()
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise OptionError(N_("unknown agent {name}; allowed agents: {allowed}"),
                          name=repr(name), allowed=", ".join(sorted(_AGENTS))) from None
    real = factory.load() if isinstance(factory, PluginAgentFactory) else factory
    allowed = option_names(real)
    if allowed is not None:
        check_options(name, options, allowed)
    return factory(seed=seed, **options)


def parse_setting(text: str) -> tuple[str, dict[str, Any]]:
    """An agent setting, `"mcts:iterations=40:rollout=greedy"`, as `("mcts", {"iterations":
    40, "rollout": "greedy"})`: numbers and true/false read as such, the rest as text."""
    name, *settings = text.strip().split(":")
    options: dict[str, Any] = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or not key:
            raise OptionError(N_("agent option '{setting}' in '{agent}' is not key=value "
                                 "(e.g. mcts:iterations=200)"), setting=setting, agent=text)
        options[key] = _value(value)
    return name, options


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def make_agent_from_setting(text: str, seed: int | None = 0) -> Agent:
    """The agent a setting names (`mcts:iterations=200`, or a plain name), seeded."""
    name, options = parse_setting(text)
    return make_agent(name, seed=seed, **options)


# ----- checking an agent's settings (`name:key=value`), for every agent ---------------


def option_names(factory: Callable[..., Any]) -> list[str] | None:
    """The options `factory` takes by name (not `seed`); None when it takes any
    (`**options`: it checks them itself, as `planner` and the levels do)."""
    try:
        parameters = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters
            if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def check_options(agent: str, options: Iterable[str], allowed: Iterable[str]) -> None:
    """OptionError naming the first of `options` that the agent `agent` does not take."""
    known = sorted(set(allowed))
    unknown = sorted(set(options) - set(known))
    if not unknown:
        return
    if not known:
        raise OptionError(N_("agent {name} takes no options; got {options}"),
                          name=repr(agent), options=", ".join(unknown))
    raise OptionError(N_("agent {name} has no option {option}; allowed options: {allowed}"),
                      name=repr(agent), option=repr(unknown[0]), allowed=", ".join(known))


def finite_number(value: object) -> float | None:
    """`value` when it is a finite number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def whole_number(agent: str, setting: str, value: object, least: int) -> int:
    """`value` as an int of at least `least` (`3.0` is 3), else an OptionError saying so."""
    number = finite_number(value)
    if number is None or number != int(number):
        raise OptionError(
            N_("{agent}: {setting} must be a whole number of at least {least}, got {value}"),
            agent=agent, setting=setting, least=least, value=repr(value),
        )
    if number < least:
        raise OptionError(N_("{agent}: {setting} must be at least {least}, got {value}"),
                          agent=agent, setting=setting, least=least, value=repr(value))
    return int(number)


def number_between(agent: str, setting: str, value: object, least: float,
                   most: float = math.inf) -> float:
    """`value` as a float from `least` to `most`, else an OptionError saying so."""
    number = finite_number(value)
    if number is not None and least <= number <= most:
        return float(number)
    if most == math.inf:
        raise OptionError(N_("{agent}: {setting} must be a number of at least {least}, "
                             "got {value}"),
                          agent=agent, setting=setting, least=least, value=repr(value))
    raise OptionError(N_("{agent}: {setting} must be a number from {least} to {most}, "
                         "got {value}"),
                      agent=agent, setting=setting, least=least, most=most, value=repr(value))


def not_valid(agent: str, setting: str, value: object,
              allowed: Iterable[str] | Words) -> OptionError:
    """The error for a setting `value` that is not one of `allowed` (names, or `Words`
    describing them)."""
    shown = allowed if isinstance(allowed, Words) else ", ".join(allowed)
    return OptionError(N_("{agent}: {setting}={value} is not valid; allowed: {allowed}"),
                       agent=agent, setting=setting, value=repr(value), allowed=shown)


def not_in_game(agent: str, setting: str, value: object, game: str,
                allowed: Iterable[str]) -> OptionError:
    """The error for a setting that is valid for some game but not for `game`."""
    return OptionError(
        N_("{agent}: {setting}={value} is not available in {game}; allowed in {game}: "
           "{allowed}"),
        agent=agent, setting=setting, value=repr(value), game=game, allowed=", ".join(allowed),
    )


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
