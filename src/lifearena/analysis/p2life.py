"""p2life judged by Monte Carlo tree search at a fixed number of simulations and seed.

Each turn is simultaneous; the MCTS of :mod:`lifearena.agents.mcts` keeps, at its root,
each side's own statistics over its own moves (decoupled UCT). The analysis runs the search
once per side with the same seed, so both see the same tree, and reads from the root each
side's mean return per move: the best move is the most visited (the agent's choice), the
value the mean return of every simulation (an expectation over the playouts, in [-1, 1],
the game's own seeded coin deciding 3/3 births as it will in the game), and a played move's
loss the best move's mean minus the played one's (unknown when the search never tried it).
"""

from __future__ import annotations

from collections.abc import Sequence

from lifearena.agents import make
from lifearena.agents.base import Limit
from lifearena.analysis.verdict import SideVerdict, Verdict
from lifearena.core import State


def judge(state: State, played: Sequence[int] | None, simulations: int, rollout: int,
          seed: int) -> Verdict:
    """The verdict on a p2life turn that goes on."""
    sides = []
    value = 0.0
    for player in (0, 1):
        agent = make("mcts", game=state.info.name, seed=seed, rollout_depth=rollout)
        best = agent.act(state, player, Limit(simulations=simulations))
        visits, means = agent.stats.visits, agent.stats.values
        total = sum(visits.values()) or 1
        mean = sum(means[a] * visits[a] for a in visits) / total
        if player == 0:
            value = mean
        side = SideVerdict(player, [state.action_to_string(best, player)])
        if played:
            move = played[player]
            loss = None
            if visits.get(move):
                loss = max(0.0, means[best] - means[move])
            side = SideVerdict(player, side.best, None, state.action_to_string(move, player),
                               loss)
        sides.append(side)
    return Verdict(max(-1.0, min(1.0, value)), False, sides)
