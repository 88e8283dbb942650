"""Agents, chosen by name: `make_agent("random", seed=1)`."""

from pyramids.agents.base import Agent, agent_names, make_agent, register_agent
from pyramids.agents.random_agent import RandomAgent

register_agent("random", RandomAgent)

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "register_agent"]
