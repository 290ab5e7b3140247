"""Agents for Life for Two: ``random`` (generic), ``greedy`` and ``nash``.

All of them score a joint placement by what one Immigration generation (run on a batch of
boards by :mod:`lifearena.games.life_for_two.batch`) leaves: my pieces minus the
opponent's, with ``+WIN``/``-WIN`` when only one side survives (a win or loss at once) and 0
when both die (a draw).

* ``greedy`` — looks one generation ahead and plays the move with the best *expected* score
  against a model of the opponent: on later turns, the opponent picks uniformly among its
  legal cells (every one of them is evaluated, collisions included); on the first turn,
  where that would be 2300 x 2300 boards, against a sample of ``opponent_samples`` (16)
  random opponent triples drawn from the agent's generator. Ties are broken at random.
* ``nash`` — treats each turn as the zero-sum matrix game it is. Rows are my candidate
  moves, columns the opponent's (later turns: every legal cell of each player; the first
  turn: the ``candidates`` (24) best triples of each player by how many pieces they keep
  alone after two generations). The payoff of a joint move is the score after its
  generation plus ``lookahead`` (1.0) times an estimate of the next turn's matrix game on
  the board it leaves (``replies`` = 10: each side chooses among its 10 best single cells,
  ranked by what each does played alone; that game's payoff is the score after its
  generation plus ``follow`` (1.0) times the score one generation later without placements,
  wipe-outs counting ``WIN / 2`` and ``WIN / 4``; the estimate is the midpoint of its pure
  maximin and minimax). ``replies=0`` uses the older payoff instead: the score after one more
  generation with no placements (``horizon`` > 1 adds more such generations, each weighted
  by a further factor ``lookahead``, which measured weaker), a wipe-out there counting
  ``WIN / 2``. The matrix game is solved exactly by
  linear programming (:func:`solve_matrix_game`, scipy's HiGHS) and the move is drawn from
  the optimal mixed strategy with the agent's generator, so the agent is unexploitable
  within its model and deterministic given its seed.

:mod:`lifearena.games.life_for_two.fast` compiles both at their default options
(``greedy_choice``, ``nash_choice``: the same moves, drawn from a board's stream), for the
vector environment's opponents; the two share :data:`WIN`.

Agents see only ``state.view(player)``; both choices of a turn are revealed together, so
there is nothing hidden in a view to peek at anyway.

>>> from lifearena import agents
>>> from lifearena.games.life_for_two import LifeForTwo
>>> state = LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2")
>>> bot = agents.make("nash", game="life_for_two", seed=1)
>>> state.action_to_string(bot.act(state, 1))
'2,3'
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from scipy.optimize import linprog

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games.life_for_two import CELLS, TRIPLES, LifeForTwo
from lifearena.games.life_for_two.batch import (
    cell_masks,
    joint_placements,
    populations,
    step_batch,
)
from lifearena.games.life_for_two.fast import WIN

_TRIPLE_MASKS = cell_masks(list(TRIPLES))
_SINGLE_MASKS = np.eye(CELLS, dtype=bool)


def scores(boards: np.ndarray, player: int, win: float = WIN) -> np.ndarray:
    """For each flat board: my pieces minus the opponent's, or ``+-win`` when one side is
    extinct, or 0 when both are.

    >>> boards = np.array([[1, 1, 2] + [0] * 22, [1] + [0] * 24, [0] * 25])
    >>> scores(boards, 0).tolist(), scores(boards, 1).tolist()
    ([1.0, 100.0, 0.0], [-1.0, -100.0, 0.0])
    """
    pops = populations(boards)
    own, other = pops[:, player], pops[:, 1 - player]
    out: np.ndarray = (own - other).astype(np.float64)
    out[(other == 0) & (own > 0)] = win
    out[(own == 0) & (other > 0)] = -win
    return out


def solve_matrix_game(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's optimal mixed strategy and the value of the zero-sum game ``payoff``
    (rows: my moves, columns: the opponent's; entries: my payoff), by linear programming.

    >>> strategy, value = solve_matrix_game(np.array([[3.0, -1.0], [-2.0, 1.0]]))
    >>> np.round(strategy, 6).tolist(), round(value, 6)
    ([0.428571, 0.571429], 0.142857)
    """
    rows, cols = payoff.shape
    # Variables x_1..x_rows (the strategy) and v; maximise v with x^T A >= v for each column.
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((cols, 1))])
    a_eq = np.zeros((1, rows + 1))
    a_eq[0, :rows] = 1.0
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0],
                     bounds=bounds, method="highs")
    if not result.success:  # pragma: no cover - a bounded LP with a feasible point
        best = int(np.argmax(payoff.min(axis=1)))
        return np.eye(rows)[best], float(payoff[best].min())
    strategy = np.clip(result.x[:rows], 0.0, None)
    return strategy / strategy.sum(), float(result.x[-1])


def _moves(state: State, player: int) -> tuple[list[int], np.ndarray]:
    """The legal actions of ``player`` and their cell masks."""
    legal = state.legal_actions(player)
    if not legal:
        raise IllegalMoveError(f"player {player} has no legal action to choose from")
    legal_array = np.asarray(legal)
    if legal[0] >= CELLS:
        return legal, _TRIPLE_MASKS[legal_array - CELLS]
    return legal, _SINGLE_MASKS[legal_array]


def _arrange(board: np.ndarray, player: int, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Joint placements with my moves as rows, whichever colour I play."""
    if player == 0:
        return joint_placements(board, mine, theirs)
    boards = joint_placements(board, theirs, mine)
    return boards.reshape(len(theirs), len(mine), CELLS).transpose(1, 0, 2).reshape(-1, CELLS)


def _cell_shortlist(boards: np.ndarray, player: int, k: int) -> np.ndarray:
    """``(n, k)``: for each flat board, the ``k`` empty cells that look best for ``player``
    played alone (score after one generation plus after one more without placements)."""
    n = len(boards)
    placed = np.repeat(boards[:, None, :], CELLS, axis=1)
    diagonal = np.arange(CELLS)
    placed[:, diagonal, diagonal] = np.where(boards == 0, np.int8(player + 1), boards)
    one = step_batch(placed.reshape(-1, CELLS))
    value = scores(one, player) + scores(step_batch(one), player, WIN / 2)
    value = value.reshape(n, CELLS)
    value[boards != 0] = -np.inf
    return np.argsort(-value, axis=1, kind="stable")[:, :k]


def _reply_values(boards: np.ndarray, player: int, k: int, follow: float) -> np.ndarray:
    """An estimate of next turn's matrix game on each flat board: both sides choose among
    their ``k`` best cells (:func:`_cell_shortlist`); the payoff is the score after that
    generation (a wipe-out counts ``WIN / 2``) plus ``follow`` times the score after one
    more generation without placements; the value is the midpoint of the pure maximin and
    minimax of that matrix (they bracket the game's value)."""
    n = len(boards)
    mine = _cell_shortlist(boards, player, k)
    theirs = _cell_shortlist(boards, 1 - player, k)
    rows = np.arange(n)[:, None]
    my_mask = np.zeros((n, k, CELLS), dtype=bool)
    my_mask[rows, np.arange(k)[None, :], mine] = True
    their_mask = np.zeros((n, k, CELLS), dtype=bool)
    their_mask[rows, np.arange(k)[None, :], theirs] = True
    # a cell that is not empty (fewer than k empty cells) places nothing
    my_mask &= (boards == 0)[:, None, :]
    their_mask &= (boards == 0)[:, None, :]
    ones = my_mask[:, :, None, :] & ~their_mask[:, None, :, :]
    twos = their_mask[:, None, :, :] & ~my_mask[:, :, None, :]
    mark_mine, mark_theirs = np.int8(player + 1), np.int8(2 - player)
    joint = np.where(ones, mark_mine, np.where(twos, mark_theirs, boards[:, None, None, :]))
    one = step_batch(joint.reshape(-1, CELLS))
    value = scores(one, player, WIN / 2)
    undecided = np.abs(value) < WIN / 2
    if follow:
        value[undecided] += follow * scores(step_batch(one[undecided]), player, WIN / 4)
    matrix = value.reshape(n, k, k)
    bounds: np.ndarray = 0.5 * (matrix.min(axis=2).max(axis=1) + matrix.max(axis=1).min(axis=1))
    return bounds


def _argmax_random(values: np.ndarray, rng: np.random.Generator) -> int:
    best = np.flatnonzero(values >= values.max() - 1e-9)
    return int(best[rng.integers(len(best))])


class GreedyAgent(Agent):
    """One generation ahead against a uniformly random opponent (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, opponent_samples: int = 16) -> None:
        if opponent_samples < 1:
            raise BadParameterError(f"opponent_samples {opponent_samples} must be at least 1")
        self.rng = np.random.default_rng(seed)
        self.opponent_samples = opponent_samples

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        legal, mine = _moves(state, player)
        their_legal, theirs = _moves(state, 1 - player)
        if len(their_legal) > self.opponent_samples and their_legal[0] >= CELLS:
            pick = self.rng.choice(len(their_legal), self.opponent_samples, replace=False)
            theirs = theirs[np.sort(pick)]
        board = np.asarray(cast(LifeForTwo, state).board, dtype=np.int8).reshape(-1)
        after = step_batch(_arrange(board, player, mine, theirs))
        expected = scores(after, player).reshape(len(mine), len(theirs)).mean(axis=1)
        return int(legal[_argmax_random(expected, self.rng)])


class NashAgent(Agent):
    """Solves each turn's matrix game by linear programming (see the module docstring)."""

    name = "nash"

    def __init__(self, seed: int | None = 0, candidates: int = 24,
                 lookahead: float = 1.0, horizon: int = 1, replies: int = 10,
                 follow: float = 1.0) -> None:
        if candidates < 1:
            raise BadParameterError(f"candidates {candidates} must be at least 1")
        if lookahead < 0:
            raise BadParameterError(f"lookahead {lookahead} must be >= 0")
        if replies < 0 or follow < 0:
            raise BadParameterError(f"replies {replies} and follow {follow} must be >= 0")
        self.rng = np.random.default_rng(seed)
        self.candidates = candidates
        self.lookahead = lookahead
        self.horizon = horizon
        self.replies = replies
        self.follow = follow
        self.last_strategy: tuple[list[int], np.ndarray] | None = None
        """The candidate actions and the mixed strategy of the last decision (for study)."""

    def _shortlist(self, board: np.ndarray, legal: list[int], masks: np.ndarray,
                   player: int) -> tuple[list[int], np.ndarray]:
        """The first turn's best triples for ``player`` played alone, two generations on."""
        if len(legal) <= self.candidates:
            return legal, masks
        placed = np.where(masks, np.int8(player + 1), board[None, :]).astype(np.int8)
        one = step_batch(placed)
        two = step_batch(one)
        pops1, pops2 = populations(one)[:, player], populations(two)[:, player]
        value = pops1 + pops2 + 1e-3 * self.rng.random(len(legal))  # random tie order
        keep = np.sort(np.argsort(-value, kind="stable")[: self.candidates])
        return [legal[i] for i in keep], masks[keep]

    def payoff(self, state: State, player: int, mine: np.ndarray,
               theirs: np.ndarray) -> np.ndarray:
        """My payoff for each (my move, their move) pair of cell masks."""
        board = np.asarray(cast(LifeForTwo, state).board, dtype=np.int8).reshape(-1)
        one = step_batch(_arrange(board, player, mine, theirs))
        value = scores(one, player)
        weight = 1.0
        later = one
        undecided = np.abs(value) < WIN
        if self.replies:
            value[undecided] += self.lookahead * _reply_values(
                one[undecided], player, self.replies, self.follow)
            return value.reshape(len(mine), len(theirs))
        for _ in range(self.horizon if self.lookahead else 0):
            weight *= self.lookahead
            later = step_batch(later)
            value[undecided] += weight * scores(later[undecided], player, WIN / 2)
        return value.reshape(len(mine), len(theirs))

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        legal, mine = _moves(state, player)
        their_legal, theirs = _moves(state, 1 - player)
        if legal[0] >= CELLS:
            board = np.asarray(cast(LifeForTwo, state).board, dtype=np.int8).reshape(-1)
            legal, mine = self._shortlist(board, legal, mine, player)
            their_legal, theirs = self._shortlist(board, their_legal, theirs, 1 - player)
        strategy, _ = solve_matrix_game(self.payoff(state, player, mine, theirs))
        self.last_strategy = (legal, strategy)
        return int(legal[int(self.rng.choice(len(legal), p=strategy))])


@register_agent("greedy", game="life_for_two")
def _make_greedy(game: str | None = None, seed: int | None = 0, **options: Any) -> Agent:
    return GreedyAgent(seed=seed, **options)


@register_agent("nash", game="life_for_two")
def _make_nash(game: str | None = None, seed: int | None = 0, **options: Any) -> Agent:
    return NashAgent(seed=seed, **options)
