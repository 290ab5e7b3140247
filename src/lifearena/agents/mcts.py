"""Monte Carlo tree search for any game on the protocol: ``agents.make("mcts", game=...)``.

UCT (UCB1 applied to trees) with one node per position reached:

* **Sequential nodes** — UCB1 over the mover's actions, untried actions first (in a seeded
  random order).
* **Simultaneous nodes** — decoupled: each player keeps its own statistics over its own
  actions and selects as if alone (``simultaneous="ucb"``, decoupled UCT), or by regret
  matching with exploration (``simultaneous="rm"``, whose average strategy converges to an
  equilibrium); children are keyed by the joint action.
* **Chance nodes** — an outcome sampled with its probability.
* **Rollouts** — uniformly random by default; ``rollout=`` takes an agent name of the game
  (``"land_grab"``), an :class:`Agent`, or a function ``(state, player, rng) -> action``;
  ``epsilon`` mixes in random moves; ``rollout_depth`` stops a rollout early and scores the
  position with ``state.evaluate`` (or the ``evaluate=`` function), ``rollout_depth=0``
  scores every new leaf with the evaluation alone.
* **Budget** — ``Limit(time=..., simulations=...)`` (``nodes`` counts simulations too); the
  agent's own limit and the one passed to :meth:`act` both apply. With neither, 1000
  simulations. The final choice is the most visited action (at a simultaneous root: the
  most visited, or a draw from the visit or average-strategy distribution with
  ``final="sample"``).

All randomness comes from the agent's seeded generator: with a simulation budget the agent
is deterministic given its seed.

>>> from lifearena.agents import make
>>> make("mcts", simulations=200).limit.simulations
200
>>> make("mcts", level="easy").limit.simulations
100
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from lifearena.agents.alphabeta import merge_limits
from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import CHANCE, SIMULTANEOUS, TERMINAL, Action, State
from lifearena.errors import BadParameterError, IllegalMoveError

LEVELS: dict[str, Limit] = {
    "easy": Limit(simulations=100),
    "medium": Limit(simulations=1000, time=1.0),
    "hard": Limit(time=3.0),
}
"""Difficulty presets for ``level=``."""

Policy = Callable[[State, int, np.random.Generator], Action]
Evaluator = Callable[[State, int], float]


class _Node:
    """One position of the tree. ``value[i]`` sums the returns, from the point of view of
    the player choosing, of the simulations that took action ``i`` here."""

    __slots__ = (
        "actions",
        "children",
        "kind",
        "player",
        "probs",
        "regret",
        "strategy",
        "total",
        "untried",
        "value",
        "visits",
    )

    def __init__(self, state: State, rng: np.random.Generator) -> None:
        self.kind = state.current_player()
        self.children: dict[Any, _Node] = {}
        self.total = 0
        if self.kind >= 0:
            actions = state.legal_actions(self.kind)
            self.actions = [actions]
            self.visits = [np.zeros(len(actions))]
            self.value = [np.zeros(len(actions))]
            self.untried = [int(i) for i in rng.permutation(len(actions))]
        elif self.kind == SIMULTANEOUS:
            n = state.info.num_players
            self.actions = [state.legal_actions(p) for p in range(n)]
            self.visits = [np.zeros(len(a)) for a in self.actions]
            self.value = [np.zeros(len(a)) for a in self.actions]
            self.regret = [np.zeros(len(a)) for a in self.actions]
            self.strategy = [np.zeros(len(a)) for a in self.actions]
        elif self.kind == CHANCE:
            outcomes = state.chance_outcomes()
            self.actions = [[a for a, _ in outcomes]]
            probs = np.array([p for _, p in outcomes], dtype=float)
            self.probs = probs / probs.sum()


@dataclass
class SearchStats:
    """What the last :meth:`MCTSAgent.act` did."""

    simulations: int = 0
    seconds: float = 0.0
    visits: dict[Action, int] | None = None
    values: dict[Action, float] | None = None


class MCTSAgent(Agent):
    """UCT with decoupled simultaneous nodes and sampled chance nodes (see the module doc)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = 0,
        limit: Limit | None = None,
        c: float = 1.4,
        rollout: Policy | Agent | None = None,
        epsilon: float = 0.0,
        rollout_depth: int | None = None,
        evaluate: Evaluator | None = None,
        simultaneous: str = "ucb",
        gamma: float = 0.1,
        final: str = "visits",
        name: str | None = None,
    ) -> None:
        if simultaneous not in ("ucb", "rm"):
            raise BadParameterError(f"simultaneous={simultaneous!r}; expected 'ucb' or 'rm'")
        if final not in ("visits", "sample"):
            raise BadParameterError(f"final={final!r}; expected 'visits' or 'sample'")
        if rollout_depth is not None and rollout_depth < 0:
            raise BadParameterError(f"rollout_depth={rollout_depth} must be >= 0")
        self.rng = np.random.default_rng(seed)
        self.limit = limit
        self.c = c
        self.rollout = rollout
        self.epsilon = epsilon
        self.rollout_depth = rollout_depth
        self.evaluator = evaluate
        self.simultaneous = simultaneous
        self.gamma = gamma
        self.final = final
        if name:
            self.name = name
        self.stats = SearchStats()

    # -- the public face ---------------------------------------------------------------------

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        start = time.perf_counter()
        legal = state.legal_actions(player)
        if not legal:
            raise IllegalMoveError(f"player {player} has no legal action to choose from")
        lim = merge_limits(self.limit, limit)
        budget = min(x for x in (lim.simulations, lim.nodes) if x is not None) \
            if (lim.simulations or lim.nodes) else None
        if budget is None and lim.time is None:
            budget = 1000
        deadline = None if lim.time is None else start + lim.time * 0.95
        root = _Node(state, self.rng)
        sims = 0
        if len(legal) > 1:
            while budget is None or sims < budget:
                self._simulate(state, root)
                sims += 1
                if deadline is not None and time.perf_counter() > deadline:
                    break
        index = self._choose(root, player)
        seat = 0 if root.kind >= 0 else player
        self.stats = SearchStats(
            simulations=sims,
            seconds=time.perf_counter() - start,
            visits={a: int(n) for a, n in zip(root.actions[seat], root.visits[seat],
                                               strict=True)},
            values={a: float(w / n) if n else 0.0 for a, w, n in
                    zip(root.actions[seat], root.value[seat], root.visits[seat], strict=True)},
        )
        return int(root.actions[seat][index])

    def _choose(self, root: _Node, player: int) -> int:
        seat = 0 if root.kind >= 0 else player
        visits = root.visits[seat]
        if root.kind == SIMULTANEOUS and self.final == "sample":
            weights = root.strategy[seat] if self.simultaneous == "rm" else visits
            if weights.sum() > 0:
                return int(self.rng.choice(len(weights), p=weights / weights.sum()))
        if visits.sum() == 0:
            return int(self.rng.integers(len(visits)))
        means = np.divide(root.value[seat], np.maximum(visits, 1))
        # the most visited; among equals the best mean; then the first
        order = sorted(range(len(visits)), key=lambda i: (-visits[i], -means[i], i))
        return order[0]

    # -- one simulation ----------------------------------------------------------------------

    def _simulate(self, root_state: State, root: _Node) -> None:
        state = root_state.clone()
        node = root
        path: list[tuple[_Node, Any]] = []
        while node.kind != TERMINAL:
            if node.kind >= 0:
                index = node.untried.pop() if node.untried else self._ucb(node, 0)
                key: Any = index
                state.apply_action(node.actions[0][index], check=False)
            elif node.kind == SIMULTANEOUS:
                key = tuple(self._select_simultaneous(node, p) for p in range(len(node.actions)))
                state.apply_actions([node.actions[p][i] for p, i in enumerate(key)],
                                    check=False)
            else:
                index = int(self.rng.choice(len(node.probs), p=node.probs))
                key = index
                state.apply_action(node.actions[0][index], check=False)
            path.append((node, key))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node(state, self.rng)
                node = child
                break
            node = child
        returns = self._playout(state)
        for node, key in path:
            node.total += 1
            if node.kind >= 0:
                node.visits[0][key] += 1
                node.value[0][key] += returns[node.kind]
            elif node.kind == SIMULTANEOUS:
                for p, i in enumerate(key):
                    node.visits[p][i] += 1
                    node.value[p][i] += returns[p]
                    if self.simultaneous == "rm":
                        self._regret_update(node, p, i, returns[p])

    def _ucb(self, node: _Node, seat: int) -> int:
        visits = node.visits[seat]
        log_total = math.log(max(node.total, 1))
        scores = node.value[seat] / visits + self.c * np.sqrt(log_total / visits)
        return int(np.argmax(scores))

    def _rm_strategy(self, node: _Node, seat: int) -> np.ndarray:
        positive = np.maximum(node.regret[seat], 0.0)
        n = len(positive)
        base = positive / positive.sum() if positive.sum() > 0 else np.full(n, 1.0 / n)
        return (1 - self.gamma) * base + self.gamma / n

    def _select_simultaneous(self, node: _Node, seat: int) -> int:
        if self.simultaneous == "rm":
            sigma = self._rm_strategy(node, seat)
            node.strategy[seat] += sigma
            return int(self.rng.choice(len(sigma), p=sigma))
        visits = node.visits[seat]
        unvisited = np.flatnonzero(visits == 0)
        if len(unvisited):
            return int(unvisited[self.rng.integers(len(unvisited))])
        return self._ucb(node, seat)

    def _regret_update(self, node: _Node, seat: int, index: int, reward: float) -> None:
        # outcome-sampling regret matching (Lisy et al. 2013): importance-weighted reward
        sigma = self._rm_strategy(node, seat)
        estimate = np.zeros(len(sigma))
        estimate[index] = reward / sigma[index]
        node.regret[seat] += estimate - reward

    def _playout(self, state: State) -> tuple[float, ...]:
        """Finish the game (or ``rollout_depth`` moves of it) and return every player's
        value: the returns at the end, the evaluation where the rollout stopped."""
        steps = 0
        while not state.is_terminal():
            if self.rollout_depth is not None and steps >= self.rollout_depth:
                return self._evaluate(state)
            current = state.current_player()
            if current == CHANCE:
                outcomes = state.chance_outcomes()
                probs = np.array([p for _, p in outcomes], dtype=float)
                pick = int(self.rng.choice(len(outcomes), p=probs / probs.sum()))
                state.apply_action(outcomes[pick][0], check=False)
            elif current == SIMULTANEOUS:
                joint = [self._policy(state, p) for p in range(state.info.num_players)]
                state.apply_actions(joint, check=False)
            else:
                state.apply_action(self._policy(state, current), check=False)
            steps += 1
        return state.returns()

    def _evaluate(self, state: State) -> tuple[float, ...]:
        if self.evaluator is not None:
            v = float(self.evaluator(state, 0))
        else:
            v = float(state.evaluate(0))
        v = max(-1.0, min(1.0, v))
        return (v, -v)

    def _policy(self, state: State, player: int) -> Action:
        rollout = self.rollout
        if rollout is None or (self.epsilon and self.rng.random() < self.epsilon):
            legal = state.legal_actions(player)
            return legal[int(self.rng.integers(len(legal)))]
        if isinstance(rollout, Agent):
            return rollout.act(state, player)
        return rollout(state, player, self.rng)


@register_agent("mcts")
def _make_mcts(game: str | None = None, seed: int | None = 0, level: str | None = None,
               time: float | None = None, simulations: int | None = None,
               rollout: Any = None, **options: Any) -> Agent:
    base: Limit | None = None
    if level is not None:
        if level not in LEVELS:
            raise BadParameterError(f"unknown level {level!r}; expected one of "
                                    f"{', '.join(LEVELS)}")
        base = LEVELS[level]
    given: dict[str, Any] = {k: v for k, v in (("time", time), ("simulations", simulations))
                             if v is not None}
    limit = replace(base or Limit(), **given) if given else base
    if isinstance(rollout, str) and rollout != "random":
        from lifearena.agents.registry import make

        rollout = make(rollout, game=game, seed=seed)
    elif rollout == "random":
        rollout = None
    return MCTSAgent(seed=seed, limit=limit, rollout=rollout, **options)
