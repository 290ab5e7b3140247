"""Alpha-beta search for any game on the protocol: ``agents.make("alphabeta", game=...)``.

Minimax with alpha-beta pruning and iterative deepening under a :class:`Limit` (time, nodes,
depth), for sequential perfect-information games; it also copes with chance nodes
(expectation over the outcomes) and simultaneous nodes (the pessimistic max-min over pure
actions), so it runs on every game, if not optimally on the last kind.

* **Evaluation** — ``state.evaluate(player)`` (a heuristic in [-1, 1] that each game
  overrides), or a function ``evaluate(state, player) -> float`` passed in. Terminal
  positions score ``±(1000 - ply)`` so the agent prefers quick wins and slow losses.
* **Move ordering** — the previous iteration's best move and the transposition-table move
  first, then killer moves, then the game's ``state.order_actions(actions, player)`` hook if
  it has one (or an ``order`` function passed in), and at nodes with two or more plies left
  the children sorted by their static evaluation (the children are kept and reused).
* **Batched children** — a game may offer ``state.evaluate_children(player)`` returning the
  mover's legal actions, the value for ``player`` of the position after each, and which of
  those are terminal (with values ±1 or 0), computed at once with the engine's batched
  kernels. The search then scores nodes one ply above the horizon, and orders moves, with
  one call instead of a clone per child (War of Life has it).
* **Make and unmake** — where the game offers :class:`~lifearena.core.Undo` (``push`` and
  ``pop``, as python-chess), the search plays every line on one state and takes the moves
  back, instead of copying the state for each child (War of Life and Losat have it).
* **Transposition table** — keyed by ``state.key()`` when the game offers one (e.g. a Zobrist
  hash), else by a hash of the observation bytes, the player to move and the move number.
  ``keep_table=True`` keeps it from one move to the next while the agent plays one side.
* **Contempt** — a finished draw is worth ``-contempt`` to the searcher (0 by default): an
  agent that should play on for a win rather than settle (Losat's) sets it.
* **Limits** — the agent's own limit (``time=``, ``nodes=``, ``depth=`` or a ``level``) and
  the one passed to :meth:`act` both apply, field by field the tighter one. The node limit is
  exact: the search visits at most that many positions. With no bound at all the depth is 3.

>>> from lifearena.agents import make
>>> agent = make("alphabeta", depth=2, seed=0)
>>> agent.limit
Limit(time=None, nodes=None, simulations=None, depth=2)
>>> make("alphabeta", level="easy").limit.depth
1
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import CHANCE, SIMULTANEOUS, TERMINAL, Action, State, Undo
from lifearena.errors import BadParameterError, IllegalMoveError

WIN = 1000.0
"""The score of a won terminal position at ply 0 (one less per ply)."""

LEVELS: dict[str, Limit] = {
    "easy": Limit(depth=1),
    "medium": Limit(depth=3, time=1.0),
    "hard": Limit(time=3.0),
}
"""Difficulty presets for ``level=``."""

Evaluator = Callable[[State, int], float]
Orderer = Callable[[State, Sequence[Action], int], list[Action]]

_EXACT, _LOWER, _UPPER = 0, 1, 2

Children = Callable[[State, int], tuple[Sequence[Action], np.ndarray, np.ndarray]]


class _Stop(Exception):
    """The limit ran out in the middle of an iteration."""


def merge_limits(own: Limit | None, given: Limit | None) -> Limit:
    """Both limits apply: field by field the smaller of the two set values.

    >>> merge_limits(Limit(depth=2), Limit(time=1.0))
    Limit(time=1.0, nodes=None, simulations=None, depth=2)
    >>> merge_limits(Limit(time=3.0), Limit(time=0.5)).time
    0.5
    """
    if own is None:
        return given or Limit()
    if given is None:
        return own
    values = {}
    for name in ("time", "nodes", "simulations", "depth"):
        a, b = getattr(own, name), getattr(given, name)
        values[name] = a if b is None else b if a is None else min(a, b)
    return Limit(**values)


def state_key(state: State) -> Any:
    """A transposition key: ``state.key()`` if the game has it, else a digest of what
    player 0 observes, who is to move, and the move number."""
    hook = getattr(state, "key", None)
    if callable(hook):
        return hook()
    obs = state.observation(0)
    digest = hashlib.blake2b(obs.tobytes(), digest_size=16).digest()
    return (digest, obs.shape, state.current_player(), state.move_number())


@dataclass
class SearchStats:
    """What the last :meth:`AlphaBetaAgent.act` did."""

    nodes: int = 0
    depth: int = 0
    value: float = 0.0
    seconds: float = 0.0
    best: Action | None = None
    stopped: bool = False


class AlphaBetaAgent(Agent):
    """Iterative-deepening alpha-beta with a transposition table (see the module doc)."""

    name = "alphabeta"

    def __init__(
        self,
        seed: int | None = 0,
        limit: Limit | None = None,
        evaluate: Evaluator | None = None,
        order: Orderer | None = None,
        order_by_eval: bool = True,
        shuffle: bool = True,
        children: Children | bool | None = None,
        name: str | None = None,
        contempt: float = 0.0,
        keep_table: bool = False,
        default_limit: Limit | None = None,
        undo: bool = True,
        partial: bool = True,
        killers: bool = True,
    ) -> None:
        self.children = children
        self.contempt = float(contempt)
        self.keep_table = keep_table
        self.default_limit = default_limit or Limit(depth=3)
        """The limit when neither the agent's own nor the caller's sets any bound."""
        self.undo = undo
        """Use the game's make and unmake where it has them (``False``: copy every child,
        as a baseline for benchmarks)."""
        self.partial = partial
        """Play the best move of an iteration the limit cut short, when it beat the ones
        searched before it (``False``: the best move of the last finished iteration)."""
        self.use_killers = killers
        """Try the moves that cut off a sibling's search first."""
        self.rng = np.random.default_rng(seed)
        self.limit = limit
        self.evaluator = evaluate
        self.order = order
        self.order_by_eval = order_by_eval
        self.shuffle = shuffle
        if name:
            self.name = name
        self.stats = SearchStats()
        self._tt: dict[Any, tuple[int, float, int, Action | None]] = {}
        self._killers: dict[int, list[Action]] = {}

    # -- the public face ---------------------------------------------------------------------

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        start = time.perf_counter()
        legal = state.legal_actions(player)
        if not legal:
            raise IllegalMoveError(f"player {player} has no legal action to choose from")
        lim = merge_limits(self.limit, limit)
        if lim.time is None and lim.nodes is None and lim.depth is None:
            lim = merge_limits(self.default_limit, lim)
        if not self.keep_table or getattr(self, "_root", player) != player \
                or len(self._tt) > 500_000:
            self._tt = {}  # stored values are the root player's, contempt included
        self._root = player
        self._batch_fn = self._children_fn(state)
        self._deadline = None if lim.time is None else start + lim.time * 0.98
        self._max_nodes = lim.nodes
        self._nodes = 0
        self._killers = {}
        if self.undo and isinstance(state, Undo) and \
                state.current_player() not in (SIMULTANEOUS, CHANCE):
            state = state.clone()  # the search's own board, played on and taken back
            self._undoing = True
        else:
            self._undoing = False
        self.stats = SearchStats()
        actions = list(legal)
        if self.shuffle:
            # seeded variety between games; the search order still decides ties
            actions = [actions[i] for i in self.rng.permutation(len(actions))]
        best, value, depth = actions[0], 0.0, 0
        if len(actions) > 1:
            max_depth = lim.depth if lim.depth is not None else 10_000
            for d in range(1, max_depth + 1):
                try:
                    found, v, complete = self._root_search(state, player, actions, d)
                except _Stop:
                    self.stats.stopped = True
                    break
                if found is not None and (complete or self.partial):
                    best, value = found, v
                if not complete:
                    self.stats.stopped = True
                    break
                depth = d
                actions.remove(best)
                actions.insert(0, best)
                if abs(value) > 1.5:
                    break  # a forced win or loss is proven; deeper search cannot improve it
                if self._finished_early(state, d):
                    break
        self.stats.nodes = self._nodes
        self.stats.depth = depth
        self.stats.value = value
        self.stats.best = best
        self.stats.seconds = time.perf_counter() - start
        return int(best)

    def reset(self) -> None:
        self._tt = {}
        self._killers = {}

    # -- search ------------------------------------------------------------------------------

    def _finished_early(self, state: State, depth: int) -> bool:
        # the whole game tree fitted in this depth: nothing deeper to see
        return depth >= state.info.max_game_length - state.move_number()

    def _children_fn(self, state: State) -> Children | None:
        if self.children is False or self.evaluator is not None:
            return None  # a custom evaluation must see every child itself
        if callable(self.children):
            return self.children
        hook = getattr(state, "evaluate_children", None)
        if callable(hook):
            return lambda s, p: s.evaluate_children(p)  # type: ignore[attr-defined]
        return None

    def _batch(self, state: State, ply: int) -> tuple[list[Action], list[float]]:
        """The mover's actions and their children's scores for the root player."""
        assert self._batch_fn is not None
        actions, values, terminal = self._batch_fn(state, self._root)
        count = len(actions)
        if self._max_nodes is not None and self._nodes + count > self._max_nodes:
            self._nodes = self._max_nodes
            raise _Stop
        self._nodes += count
        scores = np.where(terminal, np.asarray(values) * (WIN - ply - 1),
                          np.clip(values, -1.0, 1.0))
        return list(actions), [float(v) for v in scores]

    def _evaluate(self, state: State) -> float:
        if self.evaluator is not None:  # may add bonuses a little beyond [-1, 1]
            return max(-1.5, min(1.5, float(self.evaluator(state, self._root))))
        return max(-1.0, min(1.0, float(state.evaluate(self._root))))

    def _terminal(self, state: State, ply: int) -> float:
        """A finished game's value for the root player: sooner wins score more, a draw is
        worth ``-contempt``."""
        value = state.returns()[self._root]
        if value == 0.0:
            return -self.contempt
        return value * (WIN - ply)

    def _tick(self) -> None:
        if self._max_nodes is not None and self._nodes >= self._max_nodes:
            raise _Stop
        self._nodes += 1
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _Stop

    def _child(self, state: State, action: Action) -> State:
        child = state.clone()
        child.apply_action(action, check=False)
        return child

    def _value_of(self, state: State, action: Action, child: State | None,
                  search: Callable[[State], float]) -> float:
        """``search`` of the position after ``action``: on ``child`` when the ordering made
        it; else on the search's own board, played and taken back, where the game has make
        and unmake; else on a child made here."""
        if child is None and self._undoing:
            state.push(action)  # type: ignore[attr-defined]
            try:
                return search(state)
            finally:
                state.pop()  # type: ignore[attr-defined]
        return search(self._child(state, action) if child is None else child)

    def _ordered(self, state: State, mover: int, actions: list[Action], depth: int, ply: int,
                 first: Action | None) -> list[tuple[Action, State | None]]:
        """The actions in search order, with the child states where they were built."""
        if self.order is not None:
            actions = list(self.order(state, actions, mover))
        else:
            hook = getattr(state, "order_actions", None)
            if callable(hook):
                actions = list(hook(actions, mover))
        pairs: list[tuple[Action, State | None]] = [(a, None) for a in actions]
        if self.order_by_eval and depth >= 2 and len(actions) > 1 and self._batch_fn:
            batch_actions, scores = self._batch(state, ply)
            sign = 1.0 if mover == self._root else -1.0
            score_of = dict(zip(batch_actions, scores, strict=True))
            pairs.sort(key=lambda p: -sign * score_of.get(p[0], 0.0))
        elif self.order_by_eval and depth >= 2 and len(actions) > 1:
            # the children are made once, kept and searched (making them again after
            # a push would cost twice where making a move is the dear part)
            children = [self._child(state, a) for a in actions]
            sign = 1.0 if mover == self._root else -1.0
            scores = [sign * self._static(c, ply + 1) for c in children]
            order = sorted(range(len(actions)), key=lambda i: -scores[i])
            pairs = [(actions[i], children[i]) for i in order]
        killers = self._killers.get(ply, ()) if self.use_killers else ()
        front = [a for a in (first, *killers) if a is not None]
        if front:
            rank = {a: i for i, a in enumerate(dict.fromkeys(front))}
            pairs.sort(key=lambda p: rank.get(p[0], len(rank)))
        return pairs

    def _static(self, state: State, ply: int) -> float:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _Stop
        if state.is_terminal():
            return self._terminal(state, ply)
        return self._evaluate(state)

    def _root_search(self, state: State, player: int, actions: list[Action], depth: int
                     ) -> tuple[Action | None, float, bool]:
        """Search every root action to ``depth``; return the best, its value, and whether
        every action was searched (when the limit ran out, the best of those searched)."""
        self._tick()
        if state.current_player() == SIMULTANEOUS:
            return self._simultaneous_root(state, player, actions, depth)
        alpha, beta = -np.inf, np.inf
        best: Action | None = None
        # the last iteration's best first; at depth 1 there is none yet (actions[0] is only
        # the first of a shuffle)
        pairs = self._ordered(state, player, actions, depth, 0, actions[0] if depth > 1 else None)
        for action, child in pairs:
            try:
                value = self._value_of(state, action, child, functools.partial(
                    self._search, depth=depth - 1, alpha=alpha, beta=beta, ply=1))
            except _Stop:
                return best, alpha, False
            if best is None or value > alpha:
                alpha, best = value, action
        self._store(state, depth, alpha, _EXACT, best)
        return best, alpha, True

    def _simultaneous_root(self, state: State, player: int, actions: list[Action], depth: int
                           ) -> tuple[Action | None, float, bool]:
        best, best_value = None, -np.inf
        for action in actions:
            try:
                value = self._response_min(state, player, action, depth, best_value, np.inf, 0)
            except _Stop:
                return best, best_value, False
            if best is None or value > best_value:
                best, best_value = action, value
        return best, best_value, True

    def _response_min(self, state: State, player: int, action: Action, depth: int,
                      alpha: float, beta: float, ply: int) -> float:
        """The root player's worst case over the other players' replies to ``action``."""
        other = 1 - player
        worst = np.inf
        for reply in state.legal_actions(other):
            joint = [0] * state.info.num_players
            joint[player], joint[other] = action, reply
            child = state.clone()
            child.apply_actions(joint, check=False)
            worst = min(worst, self._search(child, depth - 1, alpha, min(beta, worst), ply + 1))
            if worst <= alpha:
                break
        return worst

    def _store(self, state: State, depth: int, value: float, flag: int,
               best: Action | None) -> None:
        if len(self._tt) > 2_000_000:
            self._tt.clear()
        self._tt[state_key(state)] = (depth, value, flag, best)

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The minimax value of ``state`` for the root player, within (alpha, beta)."""
        self._tick()
        current = state.current_player()
        if current == TERMINAL:
            return self._terminal(state, ply)
        if depth <= 0:
            return self._evaluate(state)
        if current == CHANCE:
            total = 0.0
            for action, prob in state.chance_outcomes():
                total += prob * self._search(self._child(state, action), depth, -np.inf,
                                             np.inf, ply)
            return total
        key = state_key(state)
        entry = self._tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER:
                    alpha = max(alpha, e_value)
                elif e_flag == _UPPER:
                    beta = min(beta, e_value)
                if alpha >= beta:
                    return e_value
        if current == SIMULTANEOUS:
            value = -np.inf
            for action in state.legal_actions(self._root):
                value = max(value, self._response_min(state, self._root, action, depth,
                                                      max(alpha, value), beta, ply))
                if value >= beta:
                    break
            return value
        maximizing = current == self._root
        if depth == 1 and self._batch_fn is not None:
            batch_actions, scores = self._batch(state, ply)
            value = max(scores) if maximizing else min(scores)
            self._tt[key] = (depth, value, _EXACT, batch_actions[scores.index(value)])
            return value
        a0, b0 = alpha, beta
        best_action = None
        value = -np.inf if maximizing else np.inf
        actions = state.legal_actions(current)
        for action, child in self._ordered(state, current, actions, depth, ply, tt_move):
            score = self._value_of(state, action, child, functools.partial(
                self._search, depth=depth - 1, alpha=alpha, beta=beta, ply=ply + 1))
            if maximizing:
                if score > value:
                    value, best_action = score, action
                alpha = max(alpha, value)
            else:
                if score < value:
                    value, best_action = score, action
                beta = min(beta, value)
            if alpha >= beta:
                killers = self._killers.setdefault(ply, [])
                if action not in killers:
                    killers.insert(0, action)
                    del killers[2:]
                break
        if value <= a0:
            flag = _UPPER
        elif value >= b0:
            flag = _LOWER
        else:
            flag = _EXACT
        self._tt[key] = (depth, value, flag, best_action)
        return value


@register_agent("alphabeta")
def _make_alphabeta(game: str | None = None, seed: int | None = 0, level: str | None = None,
                    time: float | None = None, nodes: int | None = None,
                    depth: int | None = None, **options: Any) -> Agent:
    limit = _limit_from_options(level, time=time, nodes=nodes, depth=depth)
    return AlphaBetaAgent(seed=seed, limit=limit, **options)


def _limit_from_options(level: str | None, **values: Any) -> Limit | None:
    """A preset ``level`` refined by explicit ``time``/``nodes``/``depth``/... values."""
    base: Limit | None = None
    if level is not None:
        if level not in LEVELS:
            raise BadParameterError(f"unknown level {level!r}; expected one of "
                                    f"{', '.join(LEVELS)}")
        base = LEVELS[level]
    given = {k: v for k, v in values.items() if v is not None}
    if not given:
        return base
    return replace(base or Limit(), **given)
