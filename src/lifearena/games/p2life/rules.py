"""p2life as a game: the players move between generations of Levene and Roussos's rule.

Levene and Roussos ("A two-player game of life", Int. J. Mod. Phys. C 14(2), 2003) leave as
an open problem a version of p2life in which the players act between generations. This is
one design of it.

Rules:

* A rectangular board (default 12x12), a torus by default (``torus=False``: cells outside
  are permanently empty). White (player 0, colour 1, ``w``) and black (player 1, colour 2,
  ``b``).
* The start is a random soup that is fair by construction: each cell of one half is live with
  probability ``density`` and of either colour with a fair coin, and the other half is its
  point reflection with the colours swapped (a centre cell, on odd sizes, is empty). Since
  p2life treats the colours alike, the two sides face the same position.
* Every turn is **simultaneous**: each player, without seeing the other's choice, chooses one
  of: ``pass``; *place* one of their tokens on an empty cell (``+x,y``); *remove* one of their
  own tokens (``-x,y``). A cell both players place on stays empty. After ``moves`` such turns
  (the parameter ``moves``, default 1), one p2life generation runs (see
  :mod:`lifearena.life.rules`: birth of white when w = 3 and b != 3, a fair coin when both are
  3; white survives when w - b is 2 or 3, or 1 with w >= 2; black alike).
* The coin of a 3/3 birth is the engine's counter-based hash of ``(seed, generation, cell)``
  (:mod:`lifearena.life.coin`) with the game's ``seed`` parameter, so the game replays exactly
  from its record.
* After each generation: a player with no tokens loses (``Termination.WIN``); both without
  tokens is a draw (``Termination.DRAW``). After ``max_generations`` generations (default 64)
  the player with more tokens wins, equal populations draw (``Termination.LIMIT``).

Why these choices: a single token dies alone in p2life, so a move matters through its
neighbours -- a placed token completes a birth (three of a colour), shields a friend, or
kills an enemy by lowering its w - b; removing one's own token can save a crowded friend or
stop an unwanted birth. Simultaneous moves keep the colours' symmetry (neither moves first).

The ending rules, legality and how the two choices of a turn land are said once, in
:mod:`lifearena.games.p2life.fast`, which this state calls as Python and the compiled paths
call compiled; the generation is the engine's :func:`~lifearena.life.step.step`.

Notation (:mod:`lifearena.games.p2life.notation`): a cell is ``x,y`` (column, row, from 1);
a move is ``pass``, ``+x,y`` (place) or ``-x,y`` (remove); a position is the rows joined by
``/``, the generations played and the moves since the last one: ``"w...b/...../..... 0:0"``.

>>> state = P2LifeState.from_setup("....../.ww.../.w..../....../....bb/....bb 0:0",
...                                 torus=False)
>>> state.apply_actions([state.string_to_action("+3,3"), state.string_to_action("-6,6")])
>>> print(state)
   1 2 3 4 5 6
1  . . . . . .
2  . w w . . .
3  . w w . . .
4  . . . . . .
5  . . . . b b
6  . . . . b b
>>> state.history_strings(), state.populations(), state.outcome()
(['+3,3 | -6,6'], (4, 4), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, Self

import numpy as np

from lifearena.caps import MAX_SEED
from lifearena.core import (
    SIMULTANEOUS,
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
from lifearena.games._arrays import read_only
from lifearena.games.p2life.fast import (
    BLACK_WINS,
    DIED_OUT,
    GOES_ON,
    WHITE_WINS,
    apply_choices,
    ending,
    is_legal,
    winner,
)
from lifearena.games.p2life.notation import (
    MAX_SIDE,
    SYMBOLS,
    Move,
    format_position,
    parse_position,
)
from lifearena.life.grid import random_grid
from lifearena.life.rules import Rule
from lifearena.life.step import step
from lifearena.params import ParamSpec

P2LIFE = Rule.named("p2life")
MAX_TURNS = 10_000
"""Most generations times moves per generation: the game's longest possible length."""

SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("size", "int", 12, low=2, high=MAX_SIDE, start=True, label="Board size",
              served=(6, 32), help="cells a side of the square board"),
    ParamSpec("density", "float", 0.35, low=0.0, high=1.0, start=True, label="Soup density",
              served=(0.05, 0.8), help="the share of cells alive in the starting soup"),
    ParamSpec("seed", "int", 0, low=0, high=MAX_SEED, label="Seed",
              help="makes the soup and the coins; empty: new ones each game",
              served_default=1, drawn=True),
    ParamSpec("torus", "bool", True, label="Wrap around (torus)",
              help="the board's edges wrap round"),
    ParamSpec("max_generations", "int", 64, low=1, high=MAX_TURNS, label="Generations",
              served=(4, 256), help="at this limit the larger side wins"),
    ParamSpec("moves", "int", 1, low=1, high=MAX_TURNS, label="Moves per generation",
              served=(1, 4)),
)
"""p2life's parameters: the start's board size and soup density, then the rules' (the seed
is a rule too: it draws the coins of 3-vs-3 births)."""
DEFAULTS: dict[str, Any] = {s.name: s.default for s in SPECS if not s.start}


def symmetric_soup(height: int, width: int, density: float, seed: int) -> np.ndarray:
    """A random soup whose point reflection is itself with the colours swapped.

    >>> soup = symmetric_soup(6, 7, 0.5, seed=3)
    >>> swapped = np.array([0, 2, 1], dtype=np.int8)[soup[::-1, ::-1]]
    >>> bool(np.array_equal(soup, swapped))
    True
    """
    cells = random_grid(height, width, density=density, seed=seed).reshape(-1)
    n = cells.size
    swap = np.array([0, 2, 1], dtype=np.int8)
    # The first half (in reading order) is kept; the rest mirrors it.
    first = np.arange(n // 2)
    cells[n - 1 - first] = swap[cells[first]]
    if n % 2:
        cells[n // 2] = 0
    return cells.reshape(height, width)


class P2LifeState(State):
    """A p2life game position (see the module docstring for rules and notation)."""

    move_help: ClassVar[str] = "pass, +x,y to place a token, -x,y to remove one of yours"
    info = GameInfo(
        name="p2life",
        long_name="p2life (Levene-Roussos two-player Life with moves between generations)",
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.SEEDED,
        information=Information.IMPERFECT,
        num_distinct_actions=2 * MAX_SIDE * MAX_SIDE + 1,
        max_game_length=MAX_TURNS,
        player_symbols=SYMBOLS,
        side_names=("white", "black"),
        parameters=dict(DEFAULTS),
    )

    def __init__(self, board: np.ndarray, generation: int = 0, moved: int = 0,
                 **params: Any) -> None:
        unknown = set(params) - set(DEFAULTS)
        if unknown:
            raise BadParameterError(f"unknown p2life parameter(s) {', '.join(sorted(unknown))}; "
                                    f"expected {', '.join(DEFAULTS)}")
        merged = {**DEFAULTS, **params}
        for key in ("max_generations", "moves"):
            value = merged[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise BadParameterError(f"{key} {value!r} must be a positive integer")
        if merged["max_generations"] * merged["moves"] > self.info.max_game_length:
            raise BadParameterError(
                f"max_generations x moves = {merged['max_generations'] * merged['moves']} "
                f"turns; expected at most {self.info.max_game_length}")
        if not isinstance(merged["seed"], int):
            raise BadParameterError(f"seed {merged['seed']!r} must be an integer")
        merged["torus"] = bool(merged["torus"])
        super().__init__(merged)
        board = np.array(board, dtype=np.int8)
        if board.ndim != 2 or not (1 <= board.shape[0] <= MAX_SIDE
                                   and 1 <= board.shape[1] <= MAX_SIDE):
            raise BadParameterError(f"a p2life board is 1x1 to {MAX_SIDE}x{MAX_SIDE}; got "
                                    f"shape {board.shape}")
        if board.min() < 0 or board.max() > 2:
            raise BadParameterError("a p2life board holds only 0 (empty), 1 (w) and 2 (b)")
        if not 0 <= moved < merged["moves"]:
            raise BadParameterError(f"{moved} moves made since the last generation; expected "
                                    f"0..{merged['moves'] - 1}")
        self._board = board
        # the action space depends on the board's size, so each state carries its own copy
        # of the static facts (the class attribute describes the largest board)
        self.info = replace(type(self).info, num_distinct_actions=2 * board.size + 1)
        self._generation = int(generation)
        self._moved = int(moved)
        self._start = format_position(board, self._generation, self._moved)
        self._last_moves: tuple[Move, Move] | None = None
        self._placed: np.ndarray | None = None
        self._outcome = self._judge()

    # -- what the position shows ---------------------------------------------------------------

    @property
    def height(self) -> int:
        return int(self._board.shape[0])

    @property
    def width(self) -> int:
        return int(self._board.shape[1])

    @property
    def board(self) -> np.ndarray:
        """The board, row 0 at the top: 0 empty, 1 and 2 the players' pieces (read-only)."""
        return read_only(self._board)

    @property
    def generation(self) -> int:
        """How many generations have run."""
        return self._generation

    @property
    def moved(self) -> int:
        """How many turns have been played since the last generation."""
        return self._moved

    @property
    def last_moves(self) -> tuple[Move, Move] | None:
        """Both players' moves of the last turn (``None`` before the first)."""
        return self._last_moves

    @property
    def placed(self) -> np.ndarray | None:
        """The board after the last generation's moves, before that generation ran
        (read-only; ``None`` before the first generation)."""
        return None if self._placed is None else read_only(self._placed)

    def populations(self) -> tuple[int, int]:
        """How many tokens white (``w``) and black (``b``) have."""
        counts = np.bincount(self._board.reshape(-1), minlength=3)
        return int(counts[1]), int(counts[2])

    # -- protocol hooks -----------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[Action]:
        flat = self._board.reshape(-1)
        n = flat.size
        places = np.flatnonzero(flat == 0) + 1
        removes = np.flatnonzero(flat == player + 1) + 1 + n
        return [0, *places.tolist(), *removes.tolist()]

    def _is_legal(self, action: Action, player: int) -> bool:
        """Whether ``player`` may play ``action`` now (without listing the legal actions).

        >>> state = P2LifeState.from_setup("wb/.. 0:0")
        >>> [state._is_legal(state.string_to_action(t), 0) for t in ("+1,2", "-1,1", "-2,1")]
        [True, True, False]
        """
        return self._outcome is None and is_legal(self._board.reshape(-1), player, action)

    def _apply_actions(self, actions: Sequence[Action]) -> None:
        moves = tuple(Move.from_action(a, self.height, self.width) for a in actions)
        board = self._board.copy()
        apply_choices(board.reshape(-1), int(actions[0]), int(actions[1]))
        self._board = board
        self._last_moves = (moves[0], moves[1])
        self._moved += 1
        if self._moved == self.params["moves"]:
            self._placed = self._board
            self._board = step(self._board, P2LIFE, torus=self.params["torus"],
                               seed=self.params["seed"], generation=self._generation)
            self._generation += 1
            self._moved = 0
        self._outcome = self._judge()

    def _judge(self) -> Outcome | None:
        white, black = self.populations()
        limit = self.params["max_generations"]
        code = ending(white, black, self._generation, limit)
        if code == GOES_ON:
            return None
        if code == DIED_OUT:
            return Outcome(Termination.DRAW, None, None, "both sides died out")
        side = winner(code)
        if code in (WHITE_WINS, BLACK_WINS):
            return Outcome(Termination.WIN, side, SYMBOLS[side])
        detail = f"population {white}-{black} after {limit} generations"
        if side == 2:  # level at the limit
            return Outcome(Termination.LIMIT, None, None, detail)
        return Outcome(Termination.LIMIT, side, SYMBOLS[side], detail)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        return str(Move.from_action(int(action), self.height, self.width))

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        return Move.parse(text).action(self.height, self.width)

    def observation(self, player: int) -> np.ndarray:
        """Planes: the player's own tokens, the opponent's tokens."""
        own, other = (1, 2) if player == 0 else (2, 1)
        return np.stack([self._board == own, self._board == other]).astype(np.int8)

    def setup(self) -> str:
        return self._start

    def position(self) -> str:
        """The current position in the game's notation."""
        return format_position(self._board, self._generation, self._moved)

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        board, generation, moved = parse_position(setup)
        return cls(board, generation, moved, **params)

    def evaluate(self, player: int) -> float:
        """Final return when over; else the token difference over the total, scaled to 0.9."""
        if self.is_terminal():
            return self.returns()[player]
        white, black = self.populations()
        own, other = (white, black) if player == 0 else (black, white)
        return 0.9 * (own - other) / (own + other)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"P2Life.from_setup({self.position()!r}, {params})"


P2Life = P2LifeState
"""The state's older name (``repr`` still writes it; both paste back into Python)."""


def apply_moves(board: np.ndarray, moves: Sequence[Move]) -> np.ndarray:
    """``board`` after both players' (already legal) moves, before the generation.

    >>> apply_moves(np.zeros((1, 3), np.int8), [Move.parse("+1,1"), Move.parse("+1,1")])
    array([[0, 0, 0]], dtype=int8)
    """
    out = np.array(board, dtype=np.int8)  # a copy
    height, width = out.shape
    apply_choices(out.reshape(-1), moves[0].action(height, width),
                  moves[1].action(height, width))
    return out


def new_game(size: int | tuple[int, int] = 12, density: float = 0.35, seed: int = 0,
             **params: Any) -> P2LifeState:
    """A game from :func:`symmetric_soup` of the given size and density; ``seed`` makes the
    soup and the coins (other parameters: ``torus``, ``max_generations``, ``moves``).

    >>> game = new_game(size=8, seed=2, max_generations=10)
    >>> game.params["seed"], game.populations()[0] == game.populations()[1]
    (2, True)
    """
    height, width = (size, size) if isinstance(size, int) else size
    if not (2 <= height <= MAX_SIDE and 2 <= width <= MAX_SIDE):
        raise BadParameterError(f"board {height}x{width}; expected 2..{MAX_SIDE} on each side")
    board = symmetric_soup(height, width, density, seed)
    return P2LifeState(board, 0, 0, seed=seed, **params)
