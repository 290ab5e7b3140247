"""The blocking queen game (k-Blocking Wythoff Nim) on the :mod:`lifearena.core` protocol.

Rules (Larsson, "Blocking Wythoff Nim", 2011; Cook, Larsson and Neary 2016):

* A queen stands on a square (x, y), x, y >= 0, of a board infinite to the south-east.
  The game starts from a given square with nothing blocked; player 0 (``1``) moves first.
* A turn is a **queen move** then **blocks**. The queen moves toward the origin like a chess
  queen: west (x decreases), north (y decreases) or north-west (both decrease by the same
  amount), any distance, but not onto a square the opponent has blocked (it may pass over
  one). Then the same player blocks up to k - 1 of the squares the opponent could move the
  queen to next, one square per ply, and may stop early.
* Blocks last for the opponent's next queen move only, then they are forgotten.
* A player who cannot move the queen loses (``Termination.NO_MOVES``): the queen is at the
  origin, or every square it could reach is blocked. k = 1 is classical Wythoff Nim.

Modelling: the queen move and each block are **separate plies of the same player**
(``current_player()`` stays the mover during the blocks), so the action space stays dense
and small. The block phase ends by itself after k - 1 blocks, or when every square the
opponent could reach is blocked (the opponent has then lost); ending it earlier is the
explicit action ``-``. With k = 1 there is no block phase at all. That turn structure (what
follows a queen move, when the block phase ends, when the player to move has lost) is said
once, in :mod:`lifearena.games.blocking_queen.turns`, for this state and the compiled boards
of :mod:`lifearena.games.blocking_queen.fast`.

Notation (:mod:`lifearena.games.blocking_queen.notation`): a queen move is its destination
``x,y`` (x, y in 0 .. 127, y growing downward), a block ``#x,y`` (a bare ``x,y`` in the
block phase), ending the blocks early ``-``; a setup is the start square ``x,y``.

>>> state = BlockingQueenState.from_setup("4,6", k=2)
>>> state.apply_move_text("4,2")       # player 1 moves the queen north: action 2 * 128 + 4
260
>>> state.apply_move_text("#0,2")      # ... and blocks the west-most square of row 2
16640
>>> state.current_player(), state.blocked
(1, frozenset({(0, 2)}))
>>> _ = state.apply_move_text("3,1")
>>> state.history_strings()
['4,2', '#0,2', '3,1']
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import numpy as np

from lifearena.caps import MAX_SEED
from lifearena.core import (
    TERMINAL,
    Action,
    Chance,
    Dynamics,
    GameInfo,
    Information,
    Outcome,
    State,
    Termination,
)
from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen import turns
from lifearena.games.blocking_queen.notation import (
    BLOCK_BASE,
    DONE,
    NUM_ACTIONS,
    SIDE,
    SYMBOLS,
    Move,
    index_square,
    parse_square,
    square_index,
)
from lifearena.games.blocking_queen.turns import option, ways_out
from lifearena.params import ParamSpec

MAX_K = 3 * SIDE
"""Larger k changes nothing: no square has more than 3 * (SIDE - 1) options."""


def options(x: int, y: int) -> list[tuple[int, int]]:
    """The squares a queen on (x, y) can reach on an empty board: west, north, north-west,
    each nearest first (:func:`~lifearena.games.blocking_queen.turns.option`, listed).

    >>> options(1, 2)
    [(0, 2), (1, 1), (1, 0), (0, 1)]
    """
    return [option(x, y, j) for j in range(ways_out(x, y))]


def reaches(queen: tuple[int, int], square: tuple[int, int]) -> bool:
    """Whether a queen on ``queen`` can reach ``square`` on an empty board (one of
    :func:`options`, without listing them).

    >>> reaches((1, 2), (0, 1)), reaches((1, 2), (0, 0)), reaches((1, 2), (1, 2))
    (True, False, False)
    """
    return turns.reaches(queen[0], queen[1], square[0], square[1])


SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("k", "int", 2, low=1, high=MAX_K, label="k", served=(1, 64),
              help="1 + the number of blocks per turn"),
    ParamSpec("start", "choice", "random", choices=("random", "square"), start=True,
              label="Start", help="a random square, or one you choose"),
    ParamSpec("seed", "int", 0, low=0, high=MAX_SEED, start=True, label="Seed",
              help="empty: a new start each game; the same seed gives the same start",
              shown_when=("start", "random"), served_default=1, drawn=True),
    ParamSpec("size", "int", 40, low=2, high=SIDE, start=True, label="Start region",
              served=False, served_default=30, shown_when=("start", "random"),
              help="the random start square has 0 <= x, y < size"),
    ParamSpec("x", "int", 9, low=0, high=SIDE - 1, start=True, label="Queen x",
              shown_when=("start", "square")),
    ParamSpec("y", "int", 14, low=0, high=SIDE - 1, start=True, label="Queen y",
              shown_when=("start", "square")),
)
"""The queen game's parameters: k is the rule; the rest say where the queen starts."""


def check_k(k: Any) -> int:
    """``k`` as an int, or :class:`BadParameterError` unless it is an integer in
    1 .. :data:`MAX_K`."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= MAX_K:
        raise BadParameterError(f"blocking parameter k={k!r}; expected an integer "
                                f"1 <= k <= {MAX_K}")
    return int(k)


class BlockingQueenState(State):
    """A position of the blocking queen game (see the module docstring)."""

    move_help: ClassVar[str] = ("'x,y' moves the queen west, north or north-west; then '#x,y' "
                                "blocks a square the opponent could reach, '-' stops blocking")
    info = GameInfo(
        name="blocking_queen",
        long_name="Blocking queen game (k-Blocking Wythoff Nim)",
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.DETERMINISTIC,
        information=Information.PERFECT,
        num_distinct_actions=NUM_ACTIONS,
        # each turn moves the queen at least one step closer (x + y drops by >= 1, at most
        # 2(SIDE - 1) turns) and has at most k plies (a move and k - 1 blocks or a '-')
        max_game_length=2 * (SIDE - 1) * MAX_K,
        player_symbols=SYMBOLS,
        parameters={s.name: s.default for s in SPECS if not s.start},
    )

    def __init__(self, x: int, y: int, k: int = 2) -> None:
        k = check_k(k)
        super().__init__({"k": k})
        if not (0 <= x < SIDE and 0 <= y < SIDE):
            raise BadParameterError(f"start square {x},{y}; expected 0 <= x, y < {SIDE}")
        self._k = k
        self._queen = (int(x), int(y))
        self._start = self._queen
        self._mover = 0
        self._blocking = False
        self._blocks_left = 0
        self._blocked: set[tuple[int, int]] = set()
        self._outcome: Outcome | None = None
        if turns.cannot_move(*self._queen, 0):  # on the origin
            self._outcome = self._no_moves_left()

    # -- what the position shows ---------------------------------------------------------

    @property
    def k(self) -> int:
        """The rule: a turn is a queen move and up to k - 1 blocks."""
        return self._k

    @property
    def queen(self) -> tuple[int, int]:
        """The queen's square ``(x, y)``."""
        return self._queen

    @property
    def start(self) -> tuple[int, int]:
        """The square the queen started on."""
        return self._start

    @property
    def mover(self) -> int:
        """The player whose turn it is (who moves the queen, then blocks)."""
        return self._mover

    @property
    def blocking(self) -> bool:
        """Whether the mover has moved the queen and is blocking now."""
        return self._blocking

    @property
    def blocks_left(self) -> int:
        """How many more squares the mover may block this turn (0 outside the block
        phase)."""
        return self._blocks_left

    @property
    def blocked(self) -> frozenset[tuple[int, int]]:
        """Squares the player to move the queen next may not move to."""
        return frozenset(self._blocked)

    def queen_moves(self) -> list[tuple[int, int]]:
        """Squares the queen may move to now (in the queen phase), not blocked."""
        return [s for s in options(*self._queen) if s not in self._blocked]

    # -- protocol hooks -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._mover

    def _legal_actions(self, player: int) -> list[Action]:
        if self._blocking:
            free = [BLOCK_BASE + square_index(*s) for s in self.queen_moves()]
            return [*sorted(free), DONE]
        return sorted(square_index(*s) for s in self.queen_moves())

    def _is_legal(self, action: Action, player: int) -> bool:
        """Whether ``player`` (the one to act) may play ``action`` now, without listing the
        legal actions.

        >>> state = BlockingQueenState(2, 2, k=2)
        >>> [state._is_legal(state.string_to_action(t), 0) for t in ("0,0", "1,0", "#1,1")]
        [True, False, False]
        """
        if self._outcome is not None:
            return False
        if self._blocking:
            if action == DONE:
                return True
            if not BLOCK_BASE <= action < DONE:
                return False
            square = index_square(action - BLOCK_BASE)
        else:
            if not 0 <= action < BLOCK_BASE:
                return False
            square = index_square(action)
        return square not in self._blocked and reaches(self._queen, square)

    def _apply_action(self, action: Action) -> None:
        # the turn's structure is turns.py's (after_queen_move, block_ends_turn, cannot_move),
        # which the compiled boards play too
        if not self._blocking:
            self._queen = index_square(action)
            self._blocked = set()
            then = turns.after_queen_move(*self._queen, self._k)
            if then == turns.MOVER_WINS:
                self._outcome = self._no_moves_left(winner=self._mover)
            elif then == turns.BLOCKS:
                self._blocking = True
                self._blocks_left = self._k - 1
            else:
                self._end_turn()
            return
        if action == DONE:
            self._end_turn()
            return
        # blocks are distinct squares the queen reaches (legality), so their number says
        # whether any is left free
        self._blocked.add(index_square(action - BLOCK_BASE))
        self._blocks_left -= 1
        if turns.block_ends_turn(self._blocks_left, len(self._blocked), *self._queen):
            self._end_turn()

    def _end_turn(self) -> None:
        self._blocking = False
        self._blocks_left = 0
        self._mover = 1 - self._mover
        if turns.cannot_move(*self._queen, len(self._blocked)):
            self._outcome = self._no_moves_left(winner=1 - self._mover)

    def _no_moves_left(self, winner: int | None = None) -> Outcome:
        winner = 1 - self._mover if winner is None else winner
        x, y = self._queen
        why = "it is on the origin" if (x, y) == (0, 0) else "every square it reaches is blocked"
        return Outcome(Termination.NO_MOVES, winner, SYMBOLS[winner],
                       f"player {SYMBOLS[1 - winner]} cannot move the queen: {why}")

    def outcome(self) -> Outcome | None:
        return self._outcome

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        return str(Move.from_action(action))

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        return Move.parse(text, blocking=self._blocking).action

    def observation(self, player: int) -> np.ndarray:
        """Planes (SIDE x SIDE, ``[y, x]``): the queen; the blocked squares; all ones while
        the mover is blocking; all ones when ``player`` is the one to act."""
        planes = np.zeros((4, SIDE, SIDE), dtype=np.int8)
        x, y = self._queen
        planes[0, y, x] = 1
        for bx, by in self._blocked:
            planes[1, by, bx] = 1
        if self._blocking:
            planes[2] = 1
        if self.current_player() == player:
            planes[3] = 1
        return planes

    def setup(self) -> str:
        return f"{self._start[0]},{self._start[1]}"

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        x, y = parse_square(setup)
        return cls(x, y, **params)

    @classmethod
    def from_moves(cls, setup: str, moves: list[str], **params: Any) -> Self:
        """The state after playing ``moves`` (notation) from ``setup``: what ``repr`` shows.

        >>> BlockingQueenState.from_moves("5,5", ["5,2", "#0,2"], k=2)
        BlockingQueen.from_moves('5,5', ['5,2', '#0,2'], k=2)
        """
        state = cls.from_setup(setup, **params)
        for text in moves:
            state.apply_move_text(text)
        return state

    def key(self) -> tuple[Any, ...]:
        """A transposition key for search agents."""
        return (self._queen, self._mover, self._blocking, self._blocks_left,
                tuple(sorted(self._blocked)))

    def __repr__(self) -> str:
        return (f"BlockingQueen.from_moves({self.setup()!r}, {self.history_strings()!r}, "
                f"k={self._k})")


BlockingQueen = BlockingQueenState
"""The state's older name (``repr`` still writes it; both paste back into Python)."""


def new_game(seed: int | None = None, k: int = 2, size: int = 40) -> BlockingQueenState:
    """A game from a random start square 0 <= x, y < size (not the origin), drawn from
    ``numpy.random.default_rng(seed)``.

    >>> new_game(seed=1, k=3).setup() == new_game(seed=1, k=3).setup()
    True
    """
    if not 2 <= size <= SIDE:
        raise BadParameterError(f"size={size}; expected 2 <= size <= {SIDE}")
    rng = np.random.default_rng(seed)
    while True:
        x, y = (int(v) for v in rng.integers(0, size, 2))
        if (x, y) != (0, 0):
            return BlockingQueenState(x, y, k=k)
