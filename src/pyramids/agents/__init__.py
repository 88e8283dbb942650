"""Agents, chosen by name: `make_agent("random", seed=1)`.

- `random`: uniform over the legal actions;
- `greedy`: a one-move heuristic per game from the strategy notes;
- `mcts`: information-set Monte Carlo tree search (options `iterations`,
  `time`, `rollout`, `exploration`, `rollout_depth`, `widen`, `opponents`);
- `planner`: searches one-player games (Pacal solo: `rollouts`; Mahjongg solo:
  the exact solver, `node_limit`) and plays `mcts` elsewhere.

See docs/agents.md for how strong each is.
"""

from pyramids.agents.base import Agent, agent_names, make_agent, register_agent
from pyramids.agents.greedy import GreedyAgent
from pyramids.agents.mcts import MctsAgent
from pyramids.agents.planner import PlannerAgent
from pyramids.agents.random_agent import RandomAgent

register_agent("random", RandomAgent)
register_agent("greedy", GreedyAgent)
register_agent("mcts", MctsAgent)
register_agent("planner", PlannerAgent)

__all__ = [
    "Agent",
    "GreedyAgent",
    "MctsAgent",
    "PlannerAgent",
    "RandomAgent",
    "agent_names",
    "make_agent",
    "register_agent",
]
