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
explicit action ``-``. With k = 1 there is no block phase at all.

Notation (x, y in 0 .. 127, y growing downward):

* a queen move is its destination ``x,y`` (``13,33``);
* a block is ``#x,y`` (``#13,21``); in the block phase a bare ``x,y`` is read as a block;
* ending the blocks early is ``-``;
* a setup (position) is the start square ``x,y``.

Dense actions: ``y * 128 + x`` moves the queen to (x, y); ``16384 + y * 128 + x`` blocks
(x, y); ``32768`` ends the blocks.

>>> state = BlockingQueen.from_setup("4,6", k=2)
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

import re
from typing import Any, ClassVar, Self

import numpy as np

from lifearena.caps import MAX_SEED
from lifearena.core import (
    TERMINAL,
    Action,
    Chance,
    Dynamics,
    Game,
    GameInfo,
    Information,
    Outcome,
    State,
    Termination,
    register_game,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.params import ParamSpec

SIDE = 128
"""Coordinates run 0 .. SIDE - 1 (the dense action space covers this square)."""
SQUARES = SIDE * SIDE
BLOCK_BASE = SQUARES
DONE = 2 * SQUARES
NUM_ACTIONS = 2 * SQUARES + 1
MAX_K = 3 * SIDE
"""Larger k changes nothing: no square has more than 3 * (SIDE - 1) options."""
SYMBOLS = ("1", "2")

_SQUARE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")


def options(x: int, y: int) -> list[tuple[int, int]]:
    """The squares a queen on (x, y) can reach on an empty board: west, north, north-west.

    >>> options(1, 2)
    [(0, 2), (1, 1), (1, 0), (0, 1)]
    """
    west = [(x - d, y) for d in range(1, x + 1)]
    north = [(x, y - d) for d in range(1, y + 1)]
    diagonal = [(x - d, y - d) for d in range(1, min(x, y) + 1)]
    return west + north + diagonal


def parse_square(text: str) -> tuple[int, int]:
    """Read ``x,y`` with both coordinates in 0 .. SIDE - 1.

    >>> parse_square(" 20, 33")
    (20, 33)
    """
    match = _SQUARE.fullmatch(text)
    if not match:
        raise ParseError(f"square {text!r}; expected 'x,y' such as '20,33'")
    x, y = int(match.group(1)), int(match.group(2))
    if x >= SIDE or y >= SIDE:
        raise ParseError(f"square {text!r} is off the board; expected 0 <= x, y < {SIDE}")
    return x, y


def square_index(x: int, y: int) -> int:
    return y * SIDE + x


def index_square(index: int) -> tuple[int, int]:
    return index % SIDE, index // SIDE


SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("k", "int", 2, low=1, high=MAX_K, label="k", served=(1, 64),
              help="1 + the number of blocks per turn"),
    ParamSpec("start", "choice", "random", choices=("random", "square"), start=True,
              label="Start", help="a random square, or one you choose"),
    ParamSpec("seed", "int", 0, low=0, high=MAX_SEED, start=True, label="Seed",
              help="the same seed gives the same start", shown_when=("start", "random"),
              served_default=1),
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
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= MAX_K:
        raise BadParameterError(f"blocking parameter k={k!r}; expected an integer "
                                f"1 <= k <= {MAX_K}")
    return int(k)


class BlockingQueen(State):
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
        self.k = k
        self.queen = (int(x), int(y))
        self.start = self.queen
        self.mover = 0
        self.blocking = False
        self.blocks_left = 0
        self._blocked: set[tuple[int, int]] = set()
        self._outcome: Outcome | None = None
        if self.queen == (0, 0):
            self._outcome = self._no_moves_left()

    # -- protocol hooks -------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self.mover

    @property
    def blocked(self) -> frozenset[tuple[int, int]]:
        """Squares the player to move the queen next may not move to."""
        return frozenset(self._blocked)

    def queen_moves(self) -> list[tuple[int, int]]:
        """Squares the queen may move to now (in the queen phase), not blocked."""
        return [s for s in options(*self.queen) if s not in self._blocked]

    def _legal_actions(self, player: int) -> list[Action]:
        if self.blocking:
            free = [BLOCK_BASE + square_index(*s) for s in self.queen_moves()]
            return [*sorted(free), DONE]
        return sorted(square_index(*s) for s in self.queen_moves())

    def explain_illegal(self, action: Action, player: int | None = None) -> str:
        """Why ``action`` is not legal here (see :meth:`_why_illegal`)."""
        return self._why_illegal(action) or super().explain_illegal(action, player)

    def move_prompt(self, player: int) -> str:
        return ("block '#x,y' or '-' to stop" if self.blocking
                else "move the queen 'x,y'")

    def _why_illegal(self, action: Action) -> str | None:
        """Why ``action`` may not be played now, or ``None`` if it may."""
        if self._outcome is not None:
            return "the game is over; no move can be played"
        if not 0 <= action < NUM_ACTIONS:
            return f"action {action} is out of range 0..{NUM_ACTIONS - 1}"
        text = self.action_to_string(action)
        if self.blocking:
            if action < BLOCK_BASE:
                return (f"{text} moves the queen, but {SYMBOLS[self.mover]} is blocking now; "
                        "block a square '#x,y' or stop with '-'")
            if action == DONE:
                return None
            square = index_square(action - BLOCK_BASE)
            if square in self._blocked:
                return f"{text}: {square[0]},{square[1]} is already blocked"
            if square not in options(*self.queen):
                return (f"{text}: the queen on {self.queen[0]},{self.queen[1]} cannot reach "
                        f"{square[0]},{square[1]}; block only squares it could move to")
            return None
        if action >= BLOCK_BASE:
            return f"{text} is a block, but the queen must move first"
        square = index_square(action)
        if square in self._blocked:
            return f"{text}: that square is blocked"
        if square not in options(*self.queen):
            return (f"{text}: a queen on {self.queen[0]},{self.queen[1]} moves only west, "
                    "north or north-west")
        return None

    def apply_action(self, action: Action, *, check: bool = True) -> None:
        # A precise reason beats the generic message.
        if check:
            reason = self._why_illegal(int(action))
            if reason:
                raise IllegalMoveError(f"illegal move: {reason}")
        super().apply_action(action, check=False)

    def _apply_action(self, action: Action) -> None:
        if not self.blocking:
            self.queen = index_square(action)
            self._blocked = set()
            if self.queen == (0, 0):
                self._outcome = self._no_moves_left(winner=self.mover)
            elif self.k > 1:
                self.blocking = True
                self.blocks_left = self.k - 1
            else:
                self._end_turn()
            return
        if action == DONE:
            self._end_turn()
            return
        self._blocked.add(index_square(action - BLOCK_BASE))
        self.blocks_left -= 1
        if self.blocks_left == 0 or not self.queen_moves():
            self._end_turn()

    def _end_turn(self) -> None:
        self.blocking = False
        self.blocks_left = 0
        self.mover = 1 - self.mover
        if not self.queen_moves():
            self._outcome = self._no_moves_left(winner=1 - self.mover)

    def _no_moves_left(self, winner: int | None = None) -> Outcome:
        winner = 1 - self.mover if winner is None else winner
        x, y = self.queen
        why = "it is on the origin" if (x, y) == (0, 0) else "every square it reaches is blocked"
        return Outcome(Termination.NO_MOVES, winner, SYMBOLS[winner],
                       f"player {SYMBOLS[1 - winner]} cannot move the queen: {why}")

    def outcome(self) -> Outcome | None:
        return self._outcome

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        action = int(action)
        if action == DONE:
            return "-"
        if 0 <= action < BLOCK_BASE:
            x, y = index_square(action)
            return f"{x},{y}"
        if BLOCK_BASE <= action < DONE:
            x, y = index_square(action - BLOCK_BASE)
            return f"#{x},{y}"
        raise BadParameterError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        stripped = text.strip()
        if stripped == "-":
            return DONE
        if stripped.startswith("#"):
            return BLOCK_BASE + square_index(*parse_square(stripped[1:]))
        square = square_index(*parse_square(stripped))
        return BLOCK_BASE + square if self.blocking else square

    def observation(self, player: int) -> np.ndarray:
        """Planes (SIDE x SIDE, ``[y, x]``): the queen; the blocked squares; all ones while
        the mover is blocking; all ones when ``player`` is the one to act."""
        planes = np.zeros((4, SIDE, SIDE), dtype=np.int8)
        x, y = self.queen
        planes[0, y, x] = 1
        for bx, by in self._blocked:
            planes[1, by, bx] = 1
        if self.blocking:
            planes[2] = 1
        if self.current_player() == player:
            planes[3] = 1
        return planes

    def setup(self) -> str:
        return f"{self.start[0]},{self.start[1]}"

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        x, y = parse_square(setup)
        return cls(x, y, **params)

    @classmethod
    def from_moves(cls, setup: str, moves: list[str], **params: Any) -> Self:
        """The state after playing ``moves`` (notation) from ``setup``: what ``repr`` shows.

        >>> BlockingQueen.from_moves("5,5", ["5,2", "#0,2"], k=2)
        BlockingQueen.from_moves('5,5', ['5,2', '#0,2'], k=2)
        """
        state = cls.from_setup(setup, **params)
        for text in moves:
            state.apply_move_text(text)
        return state

    def display(self, player: int | None = None) -> dict[str, Any]:
        """The queen, the squares it may reach now (as a queen move or as a block), the
        blocked squares, and the phase, for pages; squares are ``[x, y]``.

        >>> BlockingQueen(2, 1, k=2).display()["reachable"]
        [[1, 0], [2, 0], [0, 1], [1, 1]]
        """
        reach = [] if self._outcome is not None else self.queen_moves()
        return {
            "queen": list(self.queen),
            "start": list(self.start),
            "k": self.k,
            "blocked": sorted([list(s) for s in self._blocked], key=lambda s: (s[1], s[0])),
            "reachable": sorted([list(s) for s in reach], key=lambda s: (s[1], s[0])),
            "blocking": self.blocking,
            "blocks_left": self.blocks_left,
            "status": (f"player {SYMBOLS[self.mover]} blocks (up to {self.blocks_left} more)"
                       if self.blocking else f"player {SYMBOLS[self.mover]} moves the queen"),
        }

    def action_cells(self, action: Action) -> list[tuple[int, int]]:
        """The square a queen move or a block names, as ``(y, x)``; none for ``-``."""
        if int(action) == DONE:
            return []
        return [divmod(int(action) % SQUARES, SIDE)]

    def key(self) -> tuple[Any, ...]:
        """A transposition key for search agents."""
        return (self.queen, self.mover, self.blocking, self.blocks_left,
                tuple(sorted(self._blocked)))

    def __str__(self) -> str:
        x, y = self.queen
        who = SYMBOLS[self.mover]
        if self._outcome is not None:
            state = str(self._outcome)
        elif self.blocking:
            state = f"{who} to block (up to {self.blocks_left} more)"
        else:
            state = f"{who} to move"
        blocked = " ".join(f"#{bx},{by}" for bx, by in sorted(self._blocked, key=lambda s: s[::-1]))
        return f"queen {x},{y}, k={self.k}, {state}" + (f", blocked {blocked}" if blocked else "")

    def __repr__(self) -> str:
        return (f"BlockingQueen.from_moves({self.setup()!r}, {self.history_strings()!r}, "
                f"k={self.k})")



@register_game
class BlockingQueenGame(Game):
    """The blocking queen game with its parameters: k, and a random or chosen start.

    >>> BlockingQueenGame(k=3, start="square", x=4, y=6).new_initial_state().setup()
    '4,6'
    >>> BlockingQueenGame(start="square", x=0, y=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: blocking_queen start 0,0: the queen must start off ...
    """

    info = BlockingQueen.info
    specs = SPECS
    state_type = BlockingQueen

    def _check_together(self, values: dict[str, Any]) -> dict[str, Any]:
        if values["start"] == "square" and (values["x"], values["y"]) == (0, 0):
            raise BadParameterError("blocking_queen start 0,0: the queen must start off the "
                                    "origin")
        return values

    def _initial_state(self, seed: int | None) -> BlockingQueen:
        p = self._params
        if p["start"] == "square":
            return BlockingQueen(p["x"], p["y"], k=p["k"])
        return new_game(seed=p["seed"] if seed is None else seed, k=p["k"], size=p["size"])

def new_game(seed: int | None = None, k: int = 2, size: int = 40) -> BlockingQueen:
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
            return BlockingQueen(x, y, k=k)
