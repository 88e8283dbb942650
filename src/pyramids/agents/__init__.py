"""Agents, chosen by name: `make_agent("random", seed=1)`.

- `random`: uniform over the legal actions;
- `greedy`: a one-move heuristic per game from the strategy notes;
- `mcts`: information-set Monte Carlo tree search (options `iterations`,
  `time`, `clock`, `rollout`, `exploration`, `rollout_depth`, `widen`, `opponents`,
  `guide`);
- `planner`: searches one-player games (Pacal solo: `rollouts`; Mahjongg solo:
  the exact solver, `node_limit`) and plays `mcts` elsewhere;
- `determinized`: Mahjongg solo with face-down tiles: the exact solver on sampled
  faces of the hidden tiles (`samples`, `node_limit`); greedy elsewhere;
- `easy`, `medium`, `hard`, `expert`: named levels, each a setting of the agents
  above chosen per game (`pyramids.agents.levels`).

Installed distributions add agents through the entry point group
`pyramids.agents` (`pyramids.agents.base`); this package's own `openspiel-mcts`
and `openspiel-ismcts` (OpenSpiel's MCTS and IS-MCTS, the `openspiel` extra) come
that way.

See docs/agents.md for how strong each is.
"""

from pyramids.agents.base import (
    Agent,
    agent_names,
    agents_for,
    make_agent,
    make_agent_from_setting,
    parse_setting,
    register_agent,
    require_agent,
    reseed_agent,
    thinks_by_clock,
)
from pyramids.agents.determinized import DeterminizedAgent
from pyramids.agents.greedy import GreedyAgent
from pyramids.agents.levels import LEVELS, LevelAgent, level_factory, level_setting
from pyramids.agents.mcts import MctsAgent
from pyramids.agents.planner import PlannerAgent
from pyramids.agents.random_agent import RandomAgent

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
register_agent("mcts", MctsAgent)
register_agent("planner", PlannerAgent)
register_agent("determinized", DeterminizedAgent)
for _level in LEVELS:
    register_agent(_level, level_factory(_level))

__all__ = [
    "Agent",
    "DeterminizedAgent",
    "GreedyAgent",
    "LEVELS",
    "LevelAgent",
    "MctsAgent",
    "PlannerAgent",
    "RandomAgent",
    "agent_names",
    "agents_for",
    "level_setting",
    "make_agent",
    "make_agent_from_setting",
    "parse_setting",
    "thinks_by_clock",
    "register_agent",
    "require_agent",
    "reseed_agent",
]
