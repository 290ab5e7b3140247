"""Life for Two's puzzles: the placement that wins whatever the opponent places.

Both players place at once without seeing each other's choice, so a puzzle asks one seat
(the ``solver``) for a placement that wins against **every** placement of the opponent,
collisions included (a cell both choose stays empty): the opponent has no piece left after
the generation and the solver has some (a draw, both wiped out, is no win). That is
:class:`~lifearena.puzzles.search.ExhaustiveSearch`'s reading of a simultaneous node, and
:data:`SEARCHER` computes the same on batches of flat boards
(:mod:`lifearena.games.life_for_two.batch`).

Themes (:data:`THEMES`):

* ``sure-win`` — exactly one placement wipes the opponent out whatever they place;
* ``last-turn`` — the last turn of a game with a turn limit decided by population (the
  tournaments' rule, ``limit_result="population"``): exactly one placement leaves the solver
  more pieces than the opponent after the last generation whatever they place;
* ``sure-win-in-2`` — on the turn before such a limit, no placement wins at once and
  exactly one leaves the opponent only replies after which the solver has a sure win (the
  only depth-2 positions searched: two turns cost 160,000 joint placements a position).

Sure wipe-outs are rare in play (none in 854 positions of 30 games between the agents, 4 on
2,800 random boards): whatever the solver places, the opponent survives by placing
next to two or three pieces of either colour (survival is colour-blind), so a sure win needs
a board with no such cell. Hence the games of :func:`agent_games` are short and end at a
population-decided turn limit, and most puzzles are ``last-turn`` and ``sure-win-in-2``
ones.

``line`` holds the solver's placements only. The opponent's
placement a page reveals with it is :meth:`SureWinSearch.defence`: against the solver's
first winning placement, the reply that **delays the loss longest, then leaves the opponent
most pieces, then the solver fewest** (the first in ``legal_actions`` order among equals).
Positions of the first turn (three pieces each, 2,300 x 2,300 joint placements) are not
mined. :data:`SEARCHER` answers any depth (a win within n turns whatever the opponent places
each time).

A puzzle's first rating (:func:`lifearena.puzzles.generate.rate`) counts as decoys the wrong
placements that win against at least half of the opponent's placements.

>>> from lifearena.core import Record, replay
>>> record = Record("life_for_two", {"max_turns": 3, "limit_result": "population"},
...                 "...../...../..*.*/...../...#. 3", ["a", "b"], [])
>>> [(p.solver, p.solutions, p.theme, p.depth) for p in mine(record)]
[(0, ('4,3',), 'last-turn', 1)]
>>> SEARCHER.defence(replay(record), 0, 1)
'3,2'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from lifearena.agents import make
from lifearena.arena.referee import play_game
from lifearena.core import Action, Record, State, replay_positions
from lifearena.errors import BadParameterError
from lifearena.games.life_for_two import CELLS, TRIPLES, LifeForTwoState
from lifearena.games.life_for_two.batch import cell_masks, joint_placements, step_batch
from lifearena.puzzles.generate import puzzle_id, rate
from lifearena.puzzles.model import Puzzle

THEMES: dict[str, str] = {
    "sure-win": "One placement wipes the opponent out whatever they place.",
    "last-turn": "The last turn: one placement leaves you more pieces whatever the opponent "
                 "places.",
    "sure-win-in-2": "One placement leaves the opponent only replies after which you have a "
                     "sure win next turn.",
}

TURN_LIMITS = (3, 6)
"""The turn limits of :func:`agent_games` (drawn from this range, the end excluded), with
more pieces winning at the limit: short games, many of them reaching the limit."""

PAIRINGS: tuple[tuple[str, str, float], ...] = (
    ("random", "random", 0.85), ("greedy", "random", 0.05), ("random", "greedy", 0.05),
    ("greedy", "greedy", 0.03), ("nash", "random", 0.01), ("random", "nash", 0.01))
"""The agents of :func:`agent_games` (seat 0, seat 1, share of the games): mostly random
agents, whose games reach the limit with the varied, close positions that make puzzles."""

_SINGLE = np.eye(CELLS, dtype=bool)
_TRIPLE = cell_masks(list(TRIPLES))
WIN, LOSS, DRAW, GOES_ON = 0, 1, 2, 3
"""What a joint placement means for the solver (:func:`verdicts`)."""


# -- the batched rules -----------------------------------------------------------------------

def _check_seat(solver: int) -> int:
    if solver not in (0, 1):
        raise BadParameterError(f"solver {solver}; expected the seat (0 or 1) whose placement "
                                "is asked")
    return solver


def _as_game(state: State) -> LifeForTwoState:
    if not isinstance(state, LifeForTwoState) or state.params.get("rules",
                                                                  "instructed") != "instructed":
        raise BadParameterError(f"a Life for Two position under the written rules expected; "
                                f"got {state!r:.60}")
    return state


@dataclass(frozen=True)
class Position:
    """What decides a position's future: the flat board, the number of the turn to play and
    the rules' turn limit (a lighter copy of the state, for the search)."""

    board: np.ndarray
    turn: int
    max_turns: int | None
    limit_result: str

    @classmethod
    def of(cls, state: LifeForTwoState) -> Position:
        return cls(np.asarray(state.board, dtype=np.int8).reshape(-1), state.turn,
                   state.params["max_turns"], state.params["limit_result"])

    def choices(self) -> tuple[list[Action], np.ndarray]:
        """Either player's legal placements (the same for both, in ``legal_actions``
        order) and their cell masks."""
        if self.turn == 1:
            free = np.flatnonzero(~(_TRIPLE & (self.board != 0)).any(axis=1))
            return (free + CELLS).tolist(), _TRIPLE[free]
        cells = np.flatnonzero(self.board == 0)
        return cells.tolist(), _SINGLE[cells]

    def after(self, board: np.ndarray) -> Position:
        """The position of ``board`` on the next turn."""
        return Position(board, self.turn + 1, self.max_turns, self.limit_result)


def verdicts(boards: np.ndarray, solver: int, turn: int, max_turns: int | None,
             limit_result: str) -> np.ndarray:
    """What each flat board after a generation means for ``solver`` (:data:`WIN`, ...), the
    game having played turn ``turn``: the rules' judgement (see
    :mod:`lifearena.games.life_for_two.rules`), batched."""
    own = np.count_nonzero(boards == solver + 1, axis=1)
    other = np.count_nonzero(boards == 2 - solver, axis=1)
    out = np.full(len(boards), GOES_ON, dtype=np.int8)
    if max_turns is not None and turn + 1 > max_turns:
        out[:] = DRAW
        if limit_result == "population":
            out[own > other] = WIN
            out[own < other] = LOSS
    out[(other == 0) & (own > 0)] = WIN
    out[(own == 0) & (other > 0)] = LOSS
    out[(own == 0) & (other == 0)] = DRAW
    return out


def _after(board: np.ndarray, solver: int, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Boards after every joint placement, ``(len(mine) * len(theirs), 25)``, row
    ``i * len(theirs) + j`` for the solver's placement i and the opponent's j."""
    if solver == 0:
        placed = joint_placements(board, mine, theirs)
    else:
        placed = joint_placements(board, theirs, mine)
        placed = placed.reshape(len(theirs), len(mine), CELLS).transpose(1, 0, 2)
        placed = placed.reshape(-1, CELLS)
    return step_batch(placed)


class Turn:
    """One position's joint placements for ``solver``: the boards after each and what they
    mean (row i the solver's i-th legal placement, column j the opponent's j-th)."""

    def __init__(self, position: Position, solver: int,
                 rows: slice = slice(None)) -> None:
        self.position = position
        self.solver = solver
        moves, masks = position.choices()
        self.mine, self.theirs = moves[rows], moves
        self.boards = _after(position.board, solver, masks[rows], masks)
        self.verdict = verdicts(self.boards, solver, position.turn, position.max_turns,
                                position.limit_result).reshape(len(self.mine),
                                                               len(self.theirs))

    def child(self, i: int, j: int) -> Position:
        """The position after the solver's placement i and the opponent's j."""
        return self.position.after(self.boards[i * len(self.theirs) + j])


def _wins_in(position: Position, solver: int, depth: int) -> list[int]:
    """The indices (in ``legal_actions`` order) of the solver's placements that win within
    ``depth`` turns whatever the opponent places (the position not over)."""
    if depth <= 0:
        return []
    if position.turn == 1:
        return _first_turn_wins(position, solver)
    turn = Turn(position, solver)
    won = turn.verdict == WIN
    if depth == 1:
        return np.flatnonzero(won.all(axis=1)).tolist()
    found = []
    for i in range(len(turn.mine)):
        if not np.isin(turn.verdict[i], (WIN, GOES_ON)).all():
            continue
        if all(won[i, j] or _wins_in(turn.child(i, j), solver, depth - 1)
               for j in range(len(turn.theirs))):
            found.append(i)
    return found


def _first_turn_wins(position: Position, solver: int) -> list[int]:
    """Wins in 1 on a three-piece turn: each of the solver's triples against every triple of
    the opponent's, one batch per triple (about 2,300 batches: seconds)."""
    moves, _ = position.choices()
    return [i for i in range(len(moves))
            if (Turn(position, solver, slice(i, i + 1)).verdict == WIN).all()]


def _defence(state: LifeForTwoState, solver: int, depth: int) -> Action | None:
    """The opponent's reply to the solver's first winning placement (see the module
    docstring), or ``None`` where no placement wins."""
    if state.is_terminal():
        return None
    wins = _wins_in(Position.of(state), solver, depth)
    if not wins:
        return None
    turn = Turn(Position.of(state), solver)
    row = wins[0]
    other = np.count_nonzero(turn.boards == 2 - solver, axis=1).reshape(turn.verdict.shape)
    own = np.count_nonzero(turn.boards == solver + 1, axis=1).reshape(turn.verdict.shape)
    keys = [(int(turn.verdict[row, j] == GOES_ON), int(other[row, j]), -int(own[row, j]))
            for j in range(len(turn.theirs))]
    return turn.theirs[max(range(len(keys)), key=keys.__getitem__)]


class SureWinSearch:
    """The :class:`~lifearena.puzzles.search.Searcher` of Life for Two (see the module
    docstring): numpy batches of joint placements, the same answers as the plain search."""

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        solver = _check_seat(solver)
        game = _as_game(state)
        if game.is_terminal():
            return []
        legal = game.legal_actions(solver)
        return [game.action_to_string(legal[i], solver)
                for i in _wins_in(Position.of(game), solver, depth)]

    def defence(self, state: State, solver: int, depth: int) -> str:
        solver = _check_seat(solver)
        game = _as_game(state)
        if game.is_terminal():
            raise ValueError("the other side has no move here")
        reply = _defence(game, solver, depth)
        if reply is None:
            reply = game.legal_actions(1 - solver)[0]
        return game.action_to_string(reply, 1 - solver)


SEARCHER = SureWinSearch()


# -- mining ----------------------------------------------------------------------------------

def _line(state: LifeForTwoState, solver: int, first: Action, depth: int) -> list[str]:
    """The solver's placements: ``first``, then after each revealed defence the first
    placement that wins within the turns left."""
    line = [state.action_to_string(first, solver)]
    game = state.clone()
    action = first
    for left in range(depth, 0, -1):
        reply = _defence(game, solver, left)
        if reply is None:
            raise BadParameterError(f"{game!r}: no sure win in {left}")
        pair = (action, reply)
        game.apply_actions(pair if solver == 0 else pair[::-1])
        if game.is_terminal():
            return line
        legal = game.legal_actions(solver)
        action = legal[_wins_in(Position.of(game), solver, left - 1)[0]]
        line.append(game.action_to_string(action, solver))
    return line


def puzzle_at(record: Record, ply: int, state: State, solver: int) -> Puzzle | None:
    """The puzzle of ``solver``'s placement in ``record``'s position after ``ply`` turns
    (``state``), if exactly one placement wins there whatever the opponent places: this
    turn, else (on the turn before a population-decided limit) within two turns."""
    game = _as_game(state)
    position = Position.of(game)
    turn = Turn(position, solver)
    won = turn.verdict == WIN
    wins = np.flatnonzero(won.all(axis=1)).tolist()
    depth = 1
    if not wins and _before_the_limit(game):
        depth = 2
        wins = _wins_in(position, solver, 2)
    if len(wins) != 1:
        return None
    row = wins[0]
    if depth == 2:
        theme = "sure-win-in-2"
    elif np.count_nonzero(turn.boards.reshape(*won.shape, CELLS)[row] == 2 - solver):
        theme = "last-turn"
    else:
        theme = "sure-win"
    decoys = int(np.count_nonzero(won.mean(axis=1) >= 0.5)) - int(depth == 1)
    first = turn.mine[row]
    return Puzzle(puzzle_id(record, ply), "life_for_two", record, ply, solver,
                  (game.action_to_string(first, solver),),
                  tuple(_line(game, solver, first, depth)), theme, depth,
                  rate(depth, len(turn.mine), decoys))


def _before_the_limit(state: LifeForTwoState) -> bool:
    return bool(state.params["limit_result"] == "population"
                and state.params["max_turns"] == state.turn + 1)


def mine(record: Record) -> Iterator[Puzzle]:
    """Every position of ``record`` after its first turn where exactly one placement of a
    seat is a sure win (in 1, else in 2), as puzzles: in ply order, seat 0 first."""
    if record.game != "life_for_two":
        raise BadParameterError(f"a {record.game!r} game given to the life_for_two miner; "
                                "expected life_for_two games")
    for ply, state in enumerate(replay_positions(record)):
        if state.is_terminal():
            break
        if _as_game(state).first_turn:
            continue
        for solver in (0, 1):
            puzzle = puzzle_at(record, ply, state, solver)
            if puzzle is not None:
                yield puzzle


def agent_games(count: int, seed: int) -> Iterator[Record]:
    """``count`` games between Life for Two's agents (:data:`PAIRINGS`) from the empty
    board, each with a turn limit drawn from :data:`TURN_LIMITS` and more pieces winning at
    the limit; game ``i`` depends only on ``(seed, i)``."""
    shares = np.array([share for *_, share in PAIRINGS])
    for index in range(count):
        rng = np.random.default_rng([seed, index])
        *names, _ = PAIRINGS[int(rng.choice(len(PAIRINGS), p=shares / shares.sum()))]
        limit = int(rng.integers(*TURN_LIMITS))
        seeds = rng.integers(0, 2**31, 2)
        agents = [make(name, game="life_for_two", seed=int(s))
                  for name, s in zip(names, seeds, strict=True)]
        yield play_game("life_for_two", agents, names=names, seed=int(seeds[0]),
                        params={"max_turns": limit, "limit_result": "population"}).record
