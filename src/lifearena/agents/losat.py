"""Losat agents: ``greedy`` (one-move lookahead) and ``alphabeta``, which is the one
alpha-beta search of :mod:`lifearena.agents.alphabeta` with Losat's evaluator and settings;
the generic ``random`` agent also plays Losat.

Both see the game only through its public protocol: ``greedy`` and the search play moves on
their own copy of the state with the game's make and unmake (``push``/``pop``, which keep
the superko memory exact along the search's path); the search keys its transposition table
by ``state.key()`` (Zobrist hash, side to move, captures) and tries moves in
``state.order_actions`` order (captures for the mover, own-colour additions near the goal
line, removals of the opponent's lead stones, the rest).

* ``greedy``: plays a winning move if there is one, else the move whose resulting position
  evaluates best for the mover; ties broken by its seeded generator.
* ``alphabeta``: iterative deepening under ``Limit.time`` / ``Limit.nodes`` /
  ``Limit.depth`` (default ``nodes=4000`` when no limit is given), a transposition table
  kept between moves, playing the best move of the deepest finished iteration. Wins score
  more the sooner they come.

How the search converts (options of ``alphabeta``, defaults measured against ``greedy``):
most games that do not end in a win end in two passes, when every stone on the board stands
in a still life. A colour with no Life change touching it (``liveness`` 0) is **frozen**: it
can never reach its goal line. So :class:`LosatEvaluator` scores the horizon with the
searcher's interests in mind:

* a draw (finished, or both colours frozen) is worth ``-contempt`` (0.5) to the searcher;
* the opponent frozen (the searcher alive): from then on every opponent move attacks the
  searcher's stones, which usually ends in a freeze, so the value is pulled towards the draw
  score: ``draw + freeze * (value - draw)`` (``freeze=0.25``; ``None`` turns the liveness
  check off). Without this the search froze the opponent's heptomino early, as Black, and
  then had its own stones frozen by ``greedy``: 0 wins in 20 games as Black;
* the searcher frozen: at most the draw score, minus 0.1;
* ``front`` (0.1): a bonus of ``front * min(k, 5) / 5`` for the ``k`` searcher's stones on its
  two leading rows (``state.lead_share``): a broad front survives the removal of its lead
  stone, which is what ``greedy`` answers every advance with.

>>> from lifearena.agents import make
>>> from lifearena.games import losat
>>> state = losat.new_game()
>>> agent = make("alphabeta", game="losat", seed=1)
>>> state.action_to_string(agent.act(state, 0, Limit(depth=2)))
'+bM7'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from lifearena.agents.alphabeta import AlphaBetaAgent
from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games.losat import LosatState

DEFAULT_LIMIT = Limit(nodes=4000)
"""The search's limit when neither its options nor the caller set one."""


def _check(state: State, player: int) -> LosatState:
    if not isinstance(state, LosatState):
        raise BadParameterError(f"this agent plays Losat; got a {state.info.name} state")
    if state.current_player() != player:
        raise IllegalMoveError(f"it is not player {player}'s turn")
    return state


@dataclass(frozen=True)
class LosatEvaluator:
    """The search's value of a horizon position for the searcher (``root``), aware of frozen
    colours and of a broad front (see the module doc).

    >>> from lifearena.games import losat
    >>> LosatEvaluator()(losat.new_game(), 0) == LosatEvaluator()(losat.new_game(), 1)
    True
    """

    contempt: float = 0.5
    freeze: float | None = 0.25
    front: float = 0.1

    def __call__(self, state: State, root: int) -> float:
        assert isinstance(state, LosatState)
        if self.freeze is None:
            return state.evaluate(root)
        value, live_b, live_w = state.evaluate_and_liveness(root)
        draw = -self.contempt
        if live_b == 0 and live_w == 0:
            return draw  # nothing can change any more: two passes end the game
        if self.front:
            value += self.front * state.lead_share(root)
        live = (live_b, live_w)
        if live[1 - root] == 0:
            return draw + self.freeze * (value - draw)
        if live[root] == 0:
            return min(value, draw) - 0.1
        return value


class GreedyAgent(Agent):
    """One-move lookahead on :meth:`~lifearena.games.losat.LosatState.evaluate`."""

    name = "greedy"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        best = self.choices(state, player)
        if len(state.legal_actions()) == 1:
            return best[0]  # a lone move draws nothing; a lone best move still draws
        return int(best[int(self.rng.integers(len(best)))])

    def choices(self, state: State, player: int) -> list[Action]:
        """The equally good moves :meth:`act` draws from (in action order): the lone legal
        move when there is one, else those whose position after evaluates best for
        ``player``, values within 1e-12 of the best so far counting as equal (the compiled
        opponent, :func:`lifearena.games.losat.fast.greedy_choices`, finds the same)."""
        state = _check(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal
        board = state.clone()
        best, best_value = [], -np.inf
        for action in legal:
            board.push(action)
            value = board.evaluate(player)
            board.pop()
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best


@register_agent("greedy", game="losat")
def _make_greedy(game: str | None = None, seed: int | None = 0, **options: Any) -> Agent:
    if options:
        raise BadParameterError(f"greedy takes no options; got {', '.join(options)}")
    return GreedyAgent(seed=seed)


@register_agent("alphabeta", game="losat")
def _make_alphabeta(game: str | None = None, seed: int | None = 0, **options: Any) -> Agent:
    unknown = set(options) - {"nodes", "depth", "time", "contempt", "freeze", "front"}
    if unknown:
        raise BadParameterError(f"alphabeta options are nodes, depth, time, contempt, freeze, "
                                f"front; got {', '.join(sorted(unknown))}")
    given = {k: options.pop(k) for k in ("nodes", "depth", "time") if k in options}
    evaluator = LosatEvaluator(**options)
    return AlphaBetaAgent(seed=seed, limit=Limit(**given) if given else None,
                          default_limit=DEFAULT_LIMIT, evaluate=evaluator,
                          contempt=evaluator.contempt, order_by_eval=False, keep_table=True,
                          children=False, partial=False, killers=False, name="alphabeta")


register_agent("search", game="losat")(_make_alphabeta)
