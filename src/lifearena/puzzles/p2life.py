"""p2life's puzzles: the move that wins **whatever the opponent does and whatever the coin
does**.

Both players move at once (pass, place a token, remove one of their own), then a p2life
generation runs, in which a cell with three white and three black neighbours is born white or
black by a coin (:mod:`lifearena.life.coin`). The game's coin is a hash of its seed, so a
record replays exactly; but a puzzle that leaned on one seed's coin would teach nothing. So
here a move **wins** when it wins against every move of the opponent **and every outcome of
every coin** of the generation: the opponent has no token left (the solver has some), or at
the generation limit the solver has more tokens. :data:`SEARCHER` answers that, and for a win
this turn it only has to look at one outcome: every coin birth going to the opponent (it
gives the opponent a token, so no wipe-out, and the most tokens to the opponent at the
limit). The plain :class:`~lifearena.puzzles.search.ExhaustiveSearch` follows the game's
own coin, so it finds the same moves wherever no coin falls and at least these elsewhere
(tested). Further turns (``depth`` 2 and more) try every outcome of every coin.

Themes (:data:`THEMES`):

* ``wipe-out`` — the move leaves the opponent no token whatever they do and whatever the
  coin does;
* ``last-generation`` — the generation limit: the move leaves the solver more tokens
  whatever the opponent does and whatever the coin does.

A position is a puzzle when exactly one move wins (:data:`MAX_SOLUTIONS`; raised, it would
admit a stated set of equal moves, all listed in ``solutions``).

Forced wins are rare (the opponent can shield a token, or gamble on a coin), so the games of
:func:`agent_games` are on small boards with a near generation limit. ``line`` is the
solver's first winning move; the opponent's move a page reveals with it is
:meth:`CoinProofSearch.defence`: against the solver's first winning move, the one that
leaves the opponent most tokens (with every coin to the opponent), then the solver fewest.
Only games with one move a generation (``moves=1``, the default) are mined.

>>> from lifearena.core import Record
>>> record = Record("p2life", {"seed": 1, "torus": False, "max_generations": 1, "moves": 1},
...                 "...../...../b...w/b...w/..b.. 0:0", ["a", "b"], [])
>>> [(p.solver, p.solutions, p.theme) for p in mine(record)]
[(1, ('+2,4',), 'last-generation')]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

import numpy as np

from lifearena.agents import make
from lifearena.arena.referee import play_game
from lifearena.core import Action, Record, State, replay_positions
from lifearena.errors import BadParameterError
from lifearena.games.p2life import P2LifeState
from lifearena.life.rules import COIN, Rule
from lifearena.puzzles.generate import puzzle_id, rate
from lifearena.puzzles.model import Puzzle

THEMES: dict[str, str] = {
    "wipe-out": "One move leaves the opponent no token, whatever they do and whatever the "
                "coin does.",
    "last-generation": "The last generation: one move leaves you more tokens, whatever the "
                       "opponent does and whatever the coin does.",
}

GAME_PLAN: dict[str, tuple[int, int]] = {"size": (4, 8), "max_generations": (1, 5)}
"""The ranges (end excluded) :func:`agent_games` draws a game's board size and generation
limit from; the soup's density is drawn from 0.2 .. 0.5 and the board is a torus or not by a
fair draw."""

PAIRINGS: tuple[tuple[str, str], ...] = (
    ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("random", "random"))
"""The agents of :func:`agent_games` (seat 0, seat 1)."""

MAX_SOLUTIONS = 1
"""The most winning moves a puzzle may have (all of them its ``solutions``): one."""

_TABLE = Rule.named("p2life").table
WIN, LOSS, DRAW, GOES_ON = 0, 1, 2, 3
"""What a joint move means for the solver (:func:`verdicts`)."""


# -- the rules on batches of boards ----------------------------------------------------------

def neighbours(boards: np.ndarray, torus: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's white and black neighbours on a batch ``(n, h, w)`` of boards."""
    counts = []
    for colour in (1, 2):
        live = (boards == colour).astype(np.int8)
        if torus:
            total = sum(np.roll(live, (dy, dx), axis=(1, 2))
                        for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
        else:
            padded = np.pad(live, ((0, 0), (1, 1), (1, 1)))
            h, w = boards.shape[1:]
            total = sum(padded[:, 1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
                        for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
        counts.append(np.asarray(total, dtype=np.intp))
    return counts[0], counts[1]


def generation(boards: np.ndarray, torus: bool) -> np.ndarray:
    """One p2life generation of a batch with its coin births left as :data:`COIN`."""
    white, black = neighbours(boards, torus)
    after: np.ndarray = _TABLE[boards, white, black]
    return after


@dataclass(frozen=True)
class Position:
    """What decides a p2life position's future, for the search: the board, generations
    played, moves since the last one, and the rules."""

    board: np.ndarray
    generation: int
    moved: int
    torus: bool
    max_generations: int
    moves: int

    @classmethod
    def of(cls, state: P2LifeState) -> Position:
        p = state.params
        return cls(np.asarray(state.board, dtype=np.int8), state.generation, state.moved,
                   bool(p["torus"]), int(p["max_generations"]), int(p["moves"]))

    def choices(self, player: int) -> list[Action]:
        """``player``'s legal actions, in ``legal_actions`` order."""
        flat = self.board.reshape(-1)
        n = flat.size
        return [0, *(np.flatnonzero(flat == 0) + 1).tolist(),
                *(np.flatnonzero(flat == player + 1) + 1 + n).tolist()]


def _placed(position: Position, solver: int, mine: list[Action],
            theirs: list[Action]) -> np.ndarray:
    """Boards after every joint move (row ``i * len(theirs) + j``), before any generation."""
    flat = position.board.reshape(-1)
    n = flat.size
    boards = np.repeat(flat[None, :], len(mine) * len(theirs), axis=0)
    rows = np.arange(len(boards))
    a = np.repeat(np.asarray(mine), len(theirs))
    b = np.tile(np.asarray(theirs), len(mine))
    for action, colour, other in ((a, solver + 1, b), (b, 2 - solver, a)):
        place = (action >= 1) & (action <= n) & (action != other)
        remove = action > n
        boards[rows[place], action[place] - 1] = colour
        boards[rows[remove], action[remove] - 1 - n] = 0
    return boards.reshape(len(boards), *position.board.shape)


def verdicts(boards: np.ndarray, solver: int, limit: bool) -> np.ndarray:
    """What each board means for ``solver`` (:data:`WIN`, ...), ``limit`` saying whether the
    generation limit has been reached."""
    own = np.count_nonzero(boards == solver + 1, axis=(1, 2))
    other = np.count_nonzero(boards == 2 - solver, axis=(1, 2))
    out = np.full(len(boards), GOES_ON, dtype=np.int8)
    if limit:
        out[:] = DRAW
        out[own > other] = WIN
        out[own < other] = LOSS
    out[(other == 0) & (own > 0)] = WIN
    out[(own == 0) & (other > 0)] = LOSS
    out[(own == 0) & (other == 0)] = DRAW
    return out


class Turn:
    """One position's joint moves for ``solver``: the boards after each (every coin birth
    to the opponent) and what they mean; row i is the solver's i-th move, column j the
    opponent's j-th."""

    def __init__(self, position: Position, solver: int) -> None:
        self.position = position
        self.solver = solver
        self.mine = position.choices(solver)
        self.theirs = position.choices(1 - solver)
        placed = _placed(position, solver, self.mine, self.theirs)
        self.steps = position.moved + 1 == position.moves
        if self.steps:
            after = generation(placed, position.torus)
            self.coins = after == COIN
            after[self.coins] = 2 - solver
        else:
            after, self.coins = placed, np.zeros(placed.shape, bool)
        self.placed = placed
        self.boards = after
        limit = self.steps and position.generation + 1 >= position.max_generations
        self.verdict = verdicts(after, solver, limit).reshape(len(self.mine), len(self.theirs))

    def outcomes(self, i: int, j: int) -> Iterator[Position]:
        """The positions after the solver's move i and the opponent's j, one for each outcome
        of the generation's coins."""
        k = i * len(self.theirs) + j
        p = self.position
        if not self.steps:
            yield Position(self.placed[k], p.generation, p.moved + 1, p.torus,
                           p.max_generations, p.moves)
            return
        cells = np.flatnonzero(self.coins[k].reshape(-1))
        for colours in product((1, 2), repeat=len(cells)):
            board = self.boards[k].copy().reshape(-1)
            board[cells] = colours
            yield Position(board.reshape(p.board.shape), p.generation + 1, 0, p.torus,
                           p.max_generations, p.moves)


def _wins_in(position: Position, solver: int, depth: int) -> list[int]:
    """Indices (in ``legal_actions`` order) of the solver's moves that win within ``depth``
    turns whatever the opponent and the coins do (the position not over)."""
    if depth <= 0:
        return []
    turn = Turn(position, solver)
    won = turn.verdict == WIN
    if depth == 1:
        return np.flatnonzero(won.all(axis=1)).tolist()
    found = []
    for i in range(len(turn.mine)):
        if not np.isin(turn.verdict[i], (WIN, GOES_ON)).all():
            continue
        if all(won[i, j] or all(_goes_on_and_wins(child, solver, depth - 1)
                                for child in turn.outcomes(i, j))
               for j in range(len(turn.theirs))):
            found.append(i)
    return found


def _goes_on_and_wins(position: Position, solver: int, depth: int) -> bool:
    """Whether the game goes on at ``position`` (a coin outcome other than the worst may end
    it) and the solver wins within ``depth`` from there."""
    limit = position.moved == 0 and position.generation >= position.max_generations
    outcome = verdicts(position.board[None], solver, limit)[0]
    if outcome != GOES_ON:
        return bool(outcome == WIN)
    return bool(_wins_in(position, solver, depth))


def _check_seat(solver: int) -> int:
    if solver not in (0, 1):
        raise BadParameterError(f"solver {solver}; expected the seat (0 or 1) whose move "
                                "is asked")
    return solver


def _as_game(state: State) -> P2LifeState:
    if not isinstance(state, P2LifeState):
        raise BadParameterError(f"a p2life position expected; got {state.info.name!r}")
    return state


class CoinProofSearch:
    """The :class:`~lifearena.puzzles.search.Searcher` of p2life: wins whatever the opponent
    and the coins do (see the module docstring)."""

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
        position = Position.of(game)
        wins = _wins_in(position, solver, depth)
        if not wins:
            return game.action_to_string(game.legal_actions(1 - solver)[0], 1 - solver)
        turn = Turn(position, solver)
        rows = turn.boards.reshape(len(turn.mine), len(turn.theirs), -1)[wins[0]]
        keys = [(int(np.count_nonzero(row == 2 - solver)),
                 -int(np.count_nonzero(row == solver + 1))) for row in rows]
        best = max(range(len(keys)), key=keys.__getitem__)
        return game.action_to_string(turn.theirs[best], 1 - solver)


SEARCHER = CoinProofSearch()


# -- mining ----------------------------------------------------------------------------------

def puzzle_at(record: Record, ply: int, state: State, solver: int) -> Puzzle | None:
    """The puzzle of ``solver``'s move in ``record``'s position after ``ply`` turns
    (``state``), if exactly one move wins this turn whatever the opponent and the coins do."""
    game = _as_game(state)
    position = Position.of(game)
    turn = Turn(position, solver)
    won = turn.verdict == WIN
    wins = np.flatnonzero(won.all(axis=1)).tolist()
    if not 1 <= len(wins) <= MAX_SOLUTIONS:
        return None
    others = turn.boards.reshape(len(turn.mine), len(turn.theirs), -1)[wins] == 2 - solver
    theme = "last-generation" if others.any() else "wipe-out"
    decoys = int(np.count_nonzero(won.mean(axis=1) >= 0.5)) - len(wins)
    moves = tuple(game.action_to_string(turn.mine[i], solver) for i in wins)
    return Puzzle(puzzle_id(record, ply), "p2life", record, ply, solver, moves, moves[:1],
                  theme, 1, rate(1, len(turn.mine), decoys))


def mine(record: Record) -> Iterator[Puzzle]:
    """Every position of ``record`` where exactly one move of a seat wins this turn whatever
    the opponent and the coins do, as puzzles: in ply order, seat 0 first (games with one
    move a generation only; others give none)."""
    if record.game != "p2life":
        raise BadParameterError(f"a {record.game!r} game given to the p2life miner; expected "
                                "p2life games")
    if record.params.get("moves", 1) != 1:
        return
    for ply, state in enumerate(replay_positions(record)):
        if state.is_terminal():
            break
        for solver in (0, 1):
            puzzle = puzzle_at(record, ply, state, solver)
            if puzzle is not None:
                yield puzzle


def agent_games(count: int, seed: int) -> Iterator[Record]:
    """``count`` games between p2life's agents (:data:`PAIRINGS`) on boards and with limits
    drawn from :data:`GAME_PLAN`; game ``i`` depends only on ``(seed, i)``."""
    for index in range(count):
        rng = np.random.default_rng([seed, index])
        names = PAIRINGS[int(rng.integers(len(PAIRINGS)))]
        size = int(rng.integers(*GAME_PLAN["size"]))
        limit = int(rng.integers(*GAME_PLAN["max_generations"]))
        game_seed = int(rng.integers(0, 2**31))
        params = {"size": size, "density": round(float(rng.uniform(0.2, 0.5)), 2),
                  "seed": game_seed, "torus": bool(rng.integers(2)), "max_generations": limit}
        agents = [make(name, game="p2life", seed=int(s))
                  for name, s in zip(names, rng.integers(0, 2**31, 2), strict=True)]
        yield play_game("p2life", agents, params=params, names=list(names),
                        seed=game_seed).record
