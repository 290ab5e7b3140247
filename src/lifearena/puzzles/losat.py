"""Losat's puzzles: reach the goal line, or make the fifth capture, in 1 or 2 moves.

The solver wins when a stone of its colour stands on its goal line or it has
``captures_to_win`` captures (:mod:`lifearena.games.losat.rules`). One change can only make
the colour it touches win, so the solver's winning last move is one of two kinds:

* an **addition of its own colour on its goal line** (an empty point there with exactly 3
  neighbours of its colour), or
* a **capture into its colour** (an opponent stone with exactly 3, or with
  ``capture_or_more`` at least 3, neighbours of the solver's colour) that lands on the goal
  line or is the capture that reaches ``captures_to_win``.

So at the solver's last move :data:`SEARCHER` tries only those moves, and only when the
neighbour counts say one exists; the superko rule (no arrangement of stones twice) is the
state's own, since every move is played on the state with ``push``/``pop``.

Themes (:data:`THEMES`) say how the main line ends and in how many of the solver's moves:
``goal-line-in-1``, ``goal-line-in-2``, ``fifth-capture-in-1``, ``fifth-capture-in-2``. A
position is a puzzle only when exactly one move wins (and none sooner). The tests check the
search against the plain :class:`~lifearena.puzzles.search.ExhaustiveSearch`.

>>> from lifearena.games.losat import from_setup
>>> state = from_setup("5/bbb2/5/5/5/1www1/2w2/5 b", gap=2)  # Black's goal line: row 8
>>> SEARCHER.winning_moves(state, 0, 1)  # B8 has three black neighbours
['+bB8']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from lifearena.agents import make
from lifearena.agents.registry import split_name
from lifearena.core import Action, Record, State, Termination, replay_positions
from lifearena.games.losat import LosatState
from lifearena.games.losat import new_game as new_losat_game
from lifearena.games.losat.notation import ADD_BLACK, CAPTURE
from lifearena.puzzles.generate import puzzle_id, rate
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.search import ExhaustiveSearch, main_line

THEMES: dict[str, str] = {
    "goal-line-in-1": "One move puts a stone of yours on your goal line.",
    "goal-line-in-2": "One move leaves every reply a stone of yours on the goal line next.",
    "fifth-capture-in-1": "One capture is your winning one.",
    "fifth-capture-in-2": "One move leaves every reply your winning capture next.",
}
MAX_DEPTH = 2


def _may_win_within(state: LosatState, solver: int, depth: int) -> bool:
    """Whether the neighbour counts and captures allow the solver, to move, a win within
    ``depth`` of its moves: a necessary condition, exact by counting changes.

    Up to the solver's winning change, ``2 (depth - 1)`` changes are made (the solver's and
    the replies), and one change moves any point's count of solver neighbours by at most one
    and the solver's captures by at most one. The winning change needs a point of the goal
    line with 3 (or more) solver neighbours, or ``captures_to_win`` captures after it. So some
    goal-line point must have ``3 - 2 (depth - 1)`` solver neighbours now, or the solver
    ``captures_to_win - (2 depth - 1)`` captures.
    """
    before = 2 * (depth - 1)
    if state.captures()[solver] + before + 1 >= state.params["captures_to_win"]:
        return True
    counts = state.neighbour_counts()[solver, state.goal_rows()[solver]]
    return bool((counts >= 3 - before).any())


def _may_win_at_once(state: LosatState, solver: int) -> bool:
    """Whether the neighbour counts allow the solver a winning change now (a necessary
    condition: superko may still forbid it)."""
    counts = state.neighbour_counts()[solver]
    board = state.board
    goal = state.goal_rows()[solver]
    if ((board[goal] == 0) & (counts[goal] == 3)).any():
        return True
    enough = counts >= 3 if state.params["capture_or_more"] else counts == 3
    capturable = (board == 2 - solver) & enough
    if capturable[goal].any():
        return True
    return bool(state.captures()[solver] + 1 >= state.params["captures_to_win"]
                and capturable.any())


def _winning_kind(state: LosatState, solver: int, action: Action, board: np.ndarray) -> bool:
    """Whether ``action`` is a change that could win at once for the solver: its own colour
    added on its goal line, or a capture into its colour."""
    kind, point = divmod(action, state.params["width"] * state.params["length"])
    if kind == ADD_BLACK + solver:
        return bool(point // state.params["width"] == state.goal_rows()[solver])
    return bool(kind == CAPTURE and board.flat[point] == 2 - solver)


class LosatSearch:
    """Forced wins within 1 or 2 of the solver's moves, with the solver's last move pruned to
    the changes that can win; anything else goes to the plain :class:`ExhaustiveSearch`."""

    max_depth = MAX_DEPTH

    def __init__(self) -> None:
        self._plain = ExhaustiveSearch()

    def _handles(self, state: State, solver: int, depth: int) -> bool:
        return (isinstance(state, LosatState) and not state.is_terminal()
                and state.current_player() == solver and 1 <= depth <= self.max_depth)

    # -- the AND-OR search on one state, by push and pop ---------------------------------------

    def _move_wins(self, work: LosatState, solver: int, action: Action, depth: int) -> bool:
        """Whether the solver's legal ``action`` wins within ``depth`` of its moves."""
        work.push(action)
        try:
            if work.is_terminal():
                return work.outcome().winner == solver  # type: ignore[union-attr]
            return depth > 1 and self._replies_lose(work, solver, depth - 1)
        finally:
            work.pop()

    def _replies_lose(self, work: LosatState, solver: int, depth: int) -> bool:
        """Whether every reply of the other side (to move) leaves the solver a win within
        ``depth``."""
        for reply in work.legal_actions():
            work.push(reply)
            try:
                if work.is_terminal():
                    if work.outcome().winner != solver:  # type: ignore[union-attr]
                        return False
                elif not self._wins(work, solver, depth):
                    return False
            finally:
                work.pop()
        return True

    def _candidates(self, work: LosatState, solver: int, depth: int) -> list[Action]:
        """The solver's moves worth trying with ``depth`` moves left: at the last, only the
        changes that can win at once."""
        if not _may_win_within(work, solver, depth):
            return []
        if depth > 1:
            return work.legal_actions(solver)
        if not _may_win_at_once(work, solver):
            return []
        board = work.board
        return [a for a in work.legal_actions(solver) if _winning_kind(work, solver, a, board)]

    def _wins(self, work: LosatState, solver: int, depth: int) -> bool:
        """Whether the solver, to move, wins within ``depth``."""
        return any(self._move_wins(work, solver, a, depth)
                   for a in self._candidates(work, solver, depth))

    def _quickest(self, work: LosatState, solver: int, depth: int) -> int:
        for d in range(1, depth + 1):
            if self._wins(work, solver, d):
                return d
        return depth + 1

    # -- the Searcher protocol ------------------------------------------------------------------

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        if not self._handles(state, solver, depth):
            return self._plain.winning_moves(state, solver, depth)
        assert isinstance(state, LosatState)
        work = state.clone()
        return [state.action_to_string(a, solver)
                for a in self._candidates(work, solver, depth)
                if self._move_wins(work, solver, a, depth)]

    def defence(self, state: State, solver: int, depth: int) -> str:
        other = 1 - solver
        if not (isinstance(state, LosatState) and not state.is_terminal()
                and state.current_player() == other and depth <= self.max_depth):
            return self._plain.defence(state, solver, depth)
        work = state.clone()
        best, best_delay = None, -1
        for reply in work.legal_actions():
            work.push(reply)
            try:
                if work.is_terminal():
                    delay = 0 if work.outcome().winner == solver else depth + 1  # type: ignore[union-attr]
                else:
                    delay = self._quickest(work, solver, depth)
            finally:
                work.pop()
            if delay > best_delay:
                best, best_delay = reply, delay
        assert best is not None  # a side to move always has a move (pass at least)
        return state.action_to_string(best, other)


SEARCHER = LosatSearch()


def _decoys(state: LosatState, solver: int, solutions: set[Action]) -> int:
    """The plausible moves that do not win: captures into the solver's colour, and additions
    of its colour within two rows of its goal line."""
    board = state.board
    width, n = state.params["width"], state.params["width"] * state.params["length"]
    goal = state.goal_rows()[solver]
    count = 0
    for action in state.legal_actions(solver):
        if action in solutions:
            continue
        kind, point = divmod(action, n)
        if (kind == CAPTURE and board.flat[point] == 2 - solver) or \
                (kind == ADD_BLACK + solver and abs(point // width - goal) <= 2):
            count += 1
    return count


def mine(record: Record) -> Iterator[Puzzle]:
    """Every position of ``record`` where the side to move wins in 1 or 2 with exactly one
    move (and not sooner), as puzzles, in ply order; a position whose solution an earlier
    puzzle of the same game already had (the same idea a few moves on, the sides having
    played elsewhere) is left out."""
    ideas: set[tuple[int, str]] = set()
    for ply, state in enumerate(replay_positions(record)):
        if state.is_terminal() or not isinstance(state, LosatState):
            break
        solver = state.current_player()
        for depth in range(1, MAX_DEPTH + 1):
            found = SEARCHER.winning_moves(state, solver, depth)
            if not found:
                continue
            if len(found) == 1 and (solver, found[0]) not in ideas:
                ideas.add((solver, found[0]))
                line, end = main_line(SEARCHER, state, found[0], depth)
                outcome = end.outcome()
                assert outcome is not None and outcome.winner == solver
                kind = "goal-line" if outcome.termination == Termination.GOAL else \
                    "fifth-capture"
                action = state.string_to_action(found[0], solver)
                legal = len(state.legal_actions(solver))
                yield Puzzle(puzzle_id(record, ply), "losat", record, ply, solver,
                             tuple(found), line, f"{kind}-in-{depth}", depth,
                             rate(depth, legal, _decoys(state, solver, {action})))
            break  # a win in 1 makes every deeper win a longer way round


PAIRINGS = (("alphabeta:nodes=60", "random"), ("random", "alphabeta:nodes=60"),
            ("alphabeta:nodes=30", "random"), ("random", "alphabeta:nodes=30"),
            ("alphabeta:nodes=120", "random"), ("random", "alphabeta:nodes=120"),
            ("greedy", "random"), ("random", "greedy"))
"""The pairings of :func:`agent_games`, round and round: a searching or greedy attacker
against a random defender, which lets it come near the goal line (where the puzzles are)
far more often than two careful players do."""


def _agent(name: str, seed: int) -> Any:
    """The agent of a ``NAME[:key=value,...]`` name (whole-number options)."""
    base, options = split_name(name)
    values = dict(option.split("=", 1) for option in options.split(",") if option)
    return make(base, game="losat", seed=seed, **{k: int(v) for k, v in values.items()})


def agent_games(count: int, seed: int) -> Iterator[Record]:
    """``count`` games on the default board (the ``i``-th game: the ``i``-th pairing of
    :data:`PAIRINGS`, the agents seeded ``seed + 2i`` and ``seed + 2i + 1``)."""
    for i in range(count):
        names = PAIRINGS[i % len(PAIRINGS)]
        agents = [_agent(name, seed + 2 * i + side) for side, name in enumerate(names)]
        state = new_losat_game()
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(agents[player].act(state, player))
        yield state.record(list(names))
