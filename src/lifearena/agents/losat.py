"""Losat agents: ``greedy`` (one-move lookahead) and ``alphabeta`` (iterative-deepening
alpha-beta with a transposition table); the generic ``random`` agent also plays Losat.

Both use :meth:`LosatState.evaluate <lifearena.games.losat.LosatState.evaluate>` (goal-line
progress, captures, material, mobility) and play on a private copy of the state with the
game's make/unmake (``_do``/``_undo``), which keeps the superko memory exact along the search path.

* ``greedy``: plays a winning move if there is one, else the move whose resulting position
  evaluates best for the mover; ties broken by its seeded generator.
* ``alphabeta``: negamax with alpha-beta, iterative deepening from depth 1, a transposition
  table keyed by (Zobrist hash, side to move, captures), move ordering (the table's best move,
  then a static order: captures for the mover, own-colour additions near the goal line,
  removals of the opponent's lead stones, the rest), stopping at ``Limit.time`` /
  ``Limit.nodes`` / ``Limit.depth`` (default ``nodes=4000``), playing the best move of the
  deepest finished iteration. Wins score more the sooner they come.

How the search converts (options of ``alphabeta``, defaults measured against ``greedy``):
most games that do not end in a win end in two passes, when every stone on the board stands
in a still life. A colour with no Life change touching it (``liveness`` 0) is **frozen**: it
can never reach its goal line. So the search scores its horizon nodes with the
searcher's interests in mind:

* both colours frozen: the draw it is, worth ``-contempt`` (0.5) to the searcher;
* the opponent frozen (the searcher alive): from then on every opponent move attacks the
  searcher's stones, which usually ends in a freeze, so the value is pulled towards the draw
  score: ``draw + freeze * (value - draw)`` (``freeze=0.25``; ``None`` turns the liveness
  check off). Without this the search froze the opponent's heptomino early, as Black, and
  then had its own stones frozen by ``greedy``: 0 wins in 20 games as Black;
* the searcher frozen: at most the draw score, minus 0.1;
* ``front`` (0.1): a bonus of ``front * min(k, 5) / 5`` for the ``k`` searcher's stones on its
  two leading rows: a broad front survives the removal of its lead stone, which is what
  ``greedy`` answers every advance with.

>>> from lifearena.agents import make
>>> from lifearena.games import losat
>>> state = losat.new_game()
>>> agent = make("alphabeta", game="losat", seed=1)
>>> state.action_to_string(agent.act(state, 0, Limit(depth=2)))
'+bM7'
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games.losat import ADD_BLACK, ADD_WHITE, CAPTURE, REMOVE, LosatState

WIN = 2.0
"""Value of a won position (above any heuristic value, which stays in [-1, 1])."""


def _check(state: State, player: int) -> LosatState:
    if not isinstance(state, LosatState):
        raise BadParameterError(f"this agent plays Losat; got a {state.info.name} state")
    if state.current_player() != player:
        raise IllegalMoveError(f"it is not player {player}'s turn")
    return state


def _value(state: LosatState, player: int, ply: int, draw: float = 0.0) -> float:
    """Value for ``player``: terminal results (sooner wins larger; a draw is worth ``draw``),
    else the heuristic."""
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return draw
        return (WIN - 0.001 * ply) if outcome.winner == player else -(WIN - 0.001 * ply)
    return state.evaluate(player)


def _front(board: LosatState, player: int) -> float:
    """The share (up to 5 stones) of ``player``'s stones on its two most advanced rows."""
    rows = np.flatnonzero(board._board == player + 1) // board._geo.width
    if not rows.size:
        return 0.0
    if player == 0:  # Black advances towards row 0
        k = np.count_nonzero(rows <= rows.min() + 1)
    else:
        k = np.count_nonzero(rows >= rows.max() - 1)
    return min(int(k), 5) / 5


class GreedyAgent(Agent):
    """One-move lookahead on :meth:`~lifearena.games.losat.LosatState.evaluate`."""

    name = "greedy"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        state = _check(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        board = state.clone()
        best, best_value = [], -np.inf
        for action in legal:
            board._do(action)
            value = _value(board, player, 1)
            board._undo()
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return int(best[int(self.rng.integers(len(best)))])


class _OutOfBudget(Exception):
    pass


class AlphaBetaAgent(Agent):
    """Iterative-deepening negamax alpha-beta with a transposition table."""

    name = "alphabeta"

    def __init__(self, seed: int | None = 0, nodes: int | None = 4000,
                 depth: int | None = None, time: float | None = None,
                 contempt: float = 0.5, freeze: float | None = 0.25,
                 front: float = 0.1) -> None:
        self.front = front
        self.contempt = contempt
        self.freeze = freeze
        self.rng = np.random.default_rng(seed)
        self.default = Limit(time=time, nodes=nodes, depth=depth)
        self.table: dict[tuple, tuple[int, float, int, int]] = {}
        self.nodes = 0
        self.depth_reached = 0

    def reset(self) -> None:
        self.table.clear()

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        state = _check(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        limit = limit or self.default
        if limit.time is None and limit.nodes is None and limit.depth is None:
            limit = self.default
        self._deadline = limit.deadline()
        if getattr(self, "_player", player) != player:
            self.table.clear()  # stored draw values carry the contempt of the other side
        self._player = player
        self._max_nodes = limit.nodes
        max_depth = limit.depth or 64
        if len(self.table) > 500_000:
            self.table.clear()
        board = state.clone()
        self.nodes = 0
        # shuffled once so equal moves are not always resolved towards the top-left corner
        order = [legal[i] for i in self.rng.permutation(len(legal))]
        best = order[0]
        for depth in range(1, max_depth + 1):
            try:
                value, move = self._root(board, player, depth, order)
            except _OutOfBudget:
                break
            best, self.depth_reached = move, depth
            if abs(value) >= WIN - 1:  # a forced result is found; deeper search adds nothing
                break
            order.remove(move)
            order.insert(0, move)
        return int(best)

    # -- search ------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self._max_nodes is not None and self.nodes > self._max_nodes:
            raise _OutOfBudget
        if self._deadline is not None and self.nodes % 64 == 0 \
                and time.perf_counter() > self._deadline:
            raise _OutOfBudget

    def _root(self, board: LosatState, player: int, depth: int,
              order: list[int]) -> tuple[float, int]:
        alpha, beta = -np.inf, np.inf
        best_move = order[0]
        for action in self._ordered(board, order, player, order[0] if depth > 1 else -1):
            board._do(action)
            try:
                value = -self._search(board, depth - 1, -beta, -alpha, 1)
            finally:
                board._undo()
            if value > alpha:
                alpha, best_move = value, action
        return alpha, best_move

    def _leaf(self, board: LosatState, mover: int, draw: float) -> float:
        """A horizon node's value for ``mover``, aware of frozen colours (see the module
        doc)."""
        value, live_b, live_w = board.evaluate_and_liveness(mover)
        if live_b == 0 and live_w == 0:
            return draw  # nothing can change any more: two passes end the game
        root = self._player
        live = (live_b, live_w)
        sign = 1.0 if mover == root else -1.0
        v, d = sign * value, sign * draw  # the searcher's point of view
        if self.front:
            v += self.front * _front(board, root)
        if live[1 - root] == 0:
            v = d + self.freeze * (v - d)
        elif live[root] == 0:
            v = min(v, d) - 0.1
        return sign * v

    def _key(self, board: LosatState) -> tuple:
        return (board._hash, board._to_move, board._captures[0], board._captures[1])

    def _search(self, board: LosatState, depth: int, alpha: float, beta: float,
                ply: int) -> float:
        self._tick()
        mover = board._to_move
        if board._outcome is not None or depth <= 0:
            draw = -self.contempt if mover == self._player else self.contempt
            if board._outcome is not None or self.freeze is None:
                return _value(board, mover, ply, draw)
            return self._leaf(board, mover, draw)
        key = self._key(board)
        entry = self.table.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == 0:
                    return e_value
                if e_flag == 1 and e_value >= beta:
                    return e_value
                if e_flag == -1 and e_value <= alpha:
                    return e_value
        legal = board._legal_actions(mover)
        original_alpha = alpha
        best_value, best_move = -np.inf, legal[0]
        for action in self._ordered(board, legal, mover, tt_move):
            board._do(action)
            try:
                value = -self._search(board, depth - 1, -beta, -alpha, ply + 1)
            finally:
                board._undo()
            if value > best_value:
                best_value, best_move = value, action
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = 0 if original_alpha < best_value < beta else (1 if best_value >= beta else -1)
        self.table[key] = (depth, best_value, flag, best_move)
        return best_value

    def _ordered(self, board: LosatState, actions: list[int], mover: int,
                 first: int = -1) -> list[int]:
        """Static move order: promising moves first (alpha-beta prunes more)."""
        n = board._n
        width = board.params["width"]
        own = mover + 1
        goal = board._goal[mover]
        cells = board._board

        def score(action: int) -> float:
            if action == first:
                return 1e9
            kind, point = divmod(action, n)
            if kind == 4:
                return 0.0
            row = point // width
            to_goal = abs(row - goal)
            if kind == CAPTURE:
                return (300.0 if cells[point] != own else -100.0) - to_goal
            if kind in (ADD_BLACK, ADD_WHITE):
                return (200.0 - to_goal) if kind == own else -50.0
            if kind == REMOVE:
                if cells[point] != own:
                    return 100.0 - abs(row - board._goal[1 - mover])
                return -10.0
            return 0.0

        return sorted(actions, key=score, reverse=True)


@register_agent("greedy", game="losat")
def _make_greedy(game: str | None = None, seed: int | None = 0, **options: Any) -> Agent:
    if options:
        raise BadParameterError(f"greedy takes no options; got {', '.join(options)}")
    return GreedyAgent(seed=seed)


@register_agent("alphabeta", game="losat")
def _make_alphabeta(game: str | None = None, seed: int | None = 0, **options: Any) -> Agent:
    unknown = set(options) - {"nodes", "depth", "time", "contempt", "freeze", "front"}
    if unknown:
        raise BadParameterError(f"alphabeta options are nodes, depth, time, contempt; got "
                                f"{', '.join(sorted(unknown))}")
    return AlphaBetaAgent(seed=seed, **options)


register_agent("search", game="losat")(_make_alphabeta)
