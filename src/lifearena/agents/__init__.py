"""Agents: ``act(state, player, limit) -> action``, found by name with :func:`make`.

>>> from lifearena import agents
>>> "random" in agents.available_agents()
True
"""

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import available_agents, make, register_agent

__all__ = ["Agent", "Limit", "available_agents", "make", "register_agent"]
