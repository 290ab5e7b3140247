"""Life for Two judged as the matrix game each turn is.

Each turn both sides choose at once, so a turn is a zero-sum matrix game: rows the first
side's choices, columns the second's. The analysis solves it with the ``nash`` agent's solver
(:func:`lifearena.agents.life_for_two.solve_matrix_game`, linear programming) for **both**
sides' optimal mixed strategies, on one of two payoffs:

* a **last turn** — one where every pair of choices ends the game (a side or both wiped out,
  or the turn limit reached), the first turn excepted — is solved exactly: the payoff of a
  pair is the game's result, +1, 0 or -1, played out on the rules;
* any other turn on the ``nash`` agent's payoff model (:meth:`NashAgent.payoff`: the score a
  generation later plus an estimate of the next turn's game; the first turn among each side's
  best 24 triples), its value squashed onto the scale with :data:`PAYOFF_SCALE`.

A played choice ``a`` of the first side is worth ``(A y*)_a`` against the second side's
optimal strategy ``y*``: what it lost is the value minus that (never negative, since ``y*``
holds every row to at most the value); the second side's alike against ``x*``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from lifearena.agents.life_for_two import NashAgent, _moves, solve_matrix_game
from lifearena.analysis.scale import squash
from lifearena.analysis.verdict import SideVerdict, Verdict
from lifearena.core import State
from lifearena.games.life_for_two import LifeForTwo
from lifearena.games.life_for_two.batch import cell_masks, populations, step_batch

PAYOFF_SCALE = 20.0
"""A ``nash`` payoff of this size is an expected score of 0.9 * tanh(1) = 0.69."""
SUPPORT = 1e-4
"""Probabilities below this are left out of a mixed strategy's support."""


def _arranged(board: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    from lifearena.games.life_for_two.batch import joint_placements

    return joint_placements(board, mine, theirs)


def is_last_turn(state: State, legal: Sequence[Sequence[int]]) -> bool:
    """Whether every pair of legal choices ends the game (never on the first turn, whose
    choices the analysis does not list in full)."""
    game = cast(LifeForTwo, state)
    if game.first_turn:
        return False
    limit = game.params["max_turns"]
    if limit is not None and game.turn >= limit:
        return True
    board = np.asarray(game.board, dtype=np.int8).reshape(-1)
    masks = [cell_masks([(c,) for c in side]) for side in legal]
    after = step_batch(_arranged(board, masks[0], masks[1]))
    return bool((populations(after) == 0).any(axis=1).all())


def exact_payoff(state: State, legal: Sequence[Sequence[int]]) -> np.ndarray:
    """The first side's result (+1, 0, -1) of every pair of choices of a last turn, each
    pair played on the rules."""
    payoff = np.empty((len(legal[0]), len(legal[1])))
    for i, a in enumerate(legal[0]):
        for j, b in enumerate(legal[1]):
            child = state.clone()
            child.apply_actions([a, b])
            payoff[i, j] = child.returns()[0]
    return payoff


def _support(texts: list[str], strategy: np.ndarray) -> list[tuple[str, float]]:
    pairs = [(t, float(p)) for t, p in zip(texts, strategy, strict=True) if p >= SUPPORT]
    total = sum(p for _, p in pairs) or 1.0
    return sorted(((t, p / total) for t, p in pairs), key=lambda tp: (-tp[1], tp[0]))


def judge(state: State, played: Sequence[int] | None, seed: int) -> Verdict:
    """The verdict on a Life for Two turn that goes on."""
    agent = NashAgent(seed=seed)
    legal0, masks0 = _moves(state, 0)
    legal1, masks1 = _moves(state, 1)
    exact = is_last_turn(state, (legal0, legal1))
    if exact:
        payoff = exact_payoff(state, (legal0, legal1))

        def scaled(value: float) -> float:
            return value
    else:
        game = cast(LifeForTwo, state)
        if game.first_turn:
            board = np.asarray(game.board, dtype=np.int8).reshape(-1)
            legal0, masks0 = agent._shortlist(board, legal0, masks0, 0)
            legal1, masks1 = agent._shortlist(board, legal1, masks1, 1)
        payoff = agent.payoff(state, 0, masks0, masks1)

        def scaled(value: float) -> float:
            return squash(value, PAYOFF_SCALE)

    first, value = solve_matrix_game(payoff)
    second, _ = solve_matrix_game(-payoff.T)
    texts = [[state.action_to_string(a, p) for a in side]
             for p, side in enumerate((legal0, legal1))]
    sides = []
    for player, strategy in enumerate((first, second)):
        support = _support(texts[player], strategy)
        sides.append(SideVerdict(player, [support[0][0]], support))
    if played:
        worth = [_row_value(state, agent, played[0], legal0, payoff, masks1, second),
                 -_column_value(state, agent, played[1], legal1, payoff, masks0, first)]
        sides = [SideVerdict(p, s.best, s.strategy, state.action_to_string(played[p], p),
                             max(0.0, scaled(value if p == 0 else -value) - scaled(worth[p])))
                 for p, s in enumerate(sides)]
    return Verdict(scaled(value), exact, sides)


def _row_value(state: State, agent: NashAgent, action: int, legal: list[int],
               payoff: np.ndarray, theirs: np.ndarray, strategy: np.ndarray) -> float:
    """The first side's payoff of its choice ``action`` against the second side's
    ``strategy``."""
    if action in legal:
        row = payoff[legal.index(action)]
    else:  # a first-turn triple off the shortlist: its row, against the same columns
        row = agent.payoff(state, 0, cell_masks([_cells(state, action)]), theirs)[0]
    return float(row @ strategy)


def _column_value(state: State, agent: NashAgent, action: int, legal: list[int],
                  payoff: np.ndarray, mine: np.ndarray, strategy: np.ndarray) -> float:
    """The first side's payoff against the second side's choice ``action`` when the first
    plays ``strategy``."""
    if action in legal:
        column = payoff[:, legal.index(action)]
    else:
        column = agent.payoff(state, 0, mine, cell_masks([_cells(state, action)]))[:, 0]
    return float(strategy @ column)


def _cells(state: State, action: int) -> tuple[int, ...]:
    from lifearena.games.life_for_two import Move

    return tuple(Move.from_action(int(action)).cells)
