"""War of Life: the Imperial College coursework game on the protocol of :mod:`lifearena.core`.

Rules (the coursework's Prolog program is the reference):

* An 8x8 bounded board, rows and columns ``1..8``, row 1 at the top. Player 0 is blue (``b``)
  and moves first, player 1 is red (``r``).
* Start: 12 blue then 12 red pieces on distinct cells (:func:`new_game` draws blue's 12 cells
  uniformly from the 64, then red's 12 from the remaining 52, with
  ``numpy.random.default_rng(seed)``), or a given position.
* A move takes one of your pieces to one of its 8 neighbouring cells that is empty; then one
  generation of the Immigration rule ("Conway's Crank") runs on the whole board: a piece with
  2 or 3 neighbours (of any colour) survives in its colour, an empty cell with exactly 3
  neighbours gets the majority colour of those 3, everything else dies or stays empty.
* Before each move, in this order: no pieces at all -> draw (:attr:`Termination.DRAW`);
  250 moves played -> :attr:`Termination.EXHAUST` (even if the 250th crank just wiped out a
  side); no blue pieces -> red wins; no red pieces -> blue wins (:attr:`Termination.WIN`);
  the player to move has pieces but no legal move -> :attr:`Termination.STALEMATE` (a draw,
  no move counted). Both colours dying in one crank is therefore a draw.

Notation:

* Moves are written as in the coursework, ``[r1,c1,r2,c2]`` (from row/column to row/column).
  Also read: ``r1,c1,r2,c2`` (spaces allowed) and the short form ``r1c1r2c2`` of four digits,
  optionally split as ``r1c1-r2c2`` or ``r1c1 r2c2`` (``7172`` = ``71-72`` = ``[7,1,7,2]``).
* Positions use the coursework's Prolog form ``[[[3,4],[5,7]],[[8,8]]]``: the blue list, then
  the red list, each sorted by (row, column). A setup string (what records store) is that form,
  followed by `` r`` when red is to move and by the number of moves already played when it is
  not 0, e.g. ``[[[1,1]],[[8,8]]] r 249``.
* Actions are dense integers ``cell * 8 + direction`` (512 of them) with
  ``cell = (row - 1) * 8 + (column - 1)`` and the directions in the coursework's order
  ``(-1,-1), (-1,0), (-1,+1), (0,-1), (0,+1), (+1,-1), (+1,0), (+1,+1)``; so the sorted legal
  actions list the moves pieces by (row, column), then by direction: the strategies' tie order.
* Observations are 3 int8 planes: the observer's pieces, the opponent's pieces, and a plane of
  ones when the observer is to move.

>>> state = from_prolog("[[[1,4],[2,3]],[[8,8]]]")
>>> state.action_to_string(state.legal_actions()[0])
'[1,4,1,3]'
>>> state.apply_action(state.string_to_action("2,3,1,3"))
>>> state.to_prolog(), state.moves_played, state.current_player()
('[[],[]]', 1, -4)
>>> state.outcome()
Outcome(termination=<Termination.DRAW: 'draw'>, winner=None, winner_symbol=None, detail='')
>>> state.last_crank.deaths
((1, 3, 'b'), (1, 4, 'b'), (8, 8, 'r'))
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
from lifearena.games.war_of_life import fast
from lifearena.life.rules import Rule
from lifearena.life.step import step
from lifearena.params import ParamSpec

SIZE = 8
"""Rows and columns of the board."""
PIECES = 12
"""Pieces of each colour in a random start."""
MAX_MOVES = 250
"""Moves after which the game is an exhausted draw."""
NUM_ACTIONS = SIZE * SIZE * 8
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1),
)
"""(row delta, column delta) of the 8 directions, in the coursework's enumeration order."""
EMPTY, BLUE, RED = 0, 1, 2
"""Cell values on the board (the engine's empty, first and second colour)."""
SYMBOLS = ("b", "r")
"""The players' symbols: player 0 is blue, player 1 red."""

IMMIGRATION = Rule.named("immigration")


# -- moves and actions ------------------------------------------------------------------------


def _target(cell: int, direction: int) -> int:
    dr, dc = DIRECTIONS[direction]
    row, col = divmod(cell, SIZE)
    row, col = row + dr, col + dc
    return row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else -1


TARGETS: tuple[int, ...] = tuple(_target(a // 8, a % 8) for a in range(NUM_ACTIONS))
"""``TARGETS[action]``: the 0-based target cell of an action, or -1 when it leaves the board."""
_SOURCES = np.arange(NUM_ACTIONS) // 8
_SAFE_TARGETS = np.array([t if t >= 0 else SIZE * SIZE for t in TARGETS])
"""Targets with the ones off the board sent to an extra, always occupied cell (index 64)."""


@dataclass(frozen=True)
class Move:
    """A move from ``(r1, c1)`` to ``(r2, c2)``, 1-based as in the coursework.

    >>> Move.from_text("[7,1,7,2]")
    Move(7, 1, 7, 2)
    >>> str(Move.from_action(Move(7, 1, 7, 2).action))
    '[7,1,7,2]'
    """

    r1: int
    c1: int
    r2: int
    c2: int

    def __post_init__(self) -> None:
        for value in (self.r1, self.c1, self.r2, self.c2):
            if not 1 <= value <= SIZE:
                raise IllegalMoveError(f"move {self} leaves the board; rows and columns are "
                                       f"1..{SIZE}")
        dr, dc = self.r2 - self.r1, self.c2 - self.c1
        if (dr, dc) not in DIRECTIONS:
            raise IllegalMoveError(f"move {self} does not go to a neighbouring cell; a piece "
                                   "moves one step in one of the 8 directions")

    @property
    def action(self) -> Action:
        """The dense action number of this move."""
        direction = DIRECTIONS.index((self.r2 - self.r1, self.c2 - self.c1))
        return ((self.r1 - 1) * SIZE + self.c1 - 1) * 8 + direction

    @classmethod
    def from_action(cls, action: Action) -> Move:
        if not 0 <= action < NUM_ACTIONS or TARGETS[action] < 0:
            raise ParseError(f"action {action} is not a move on the board; expected "
                             f"0..{NUM_ACTIONS - 1} staying on the board")
        cell, target = divmod(action, 8)[0], TARGETS[action]
        return cls(cell // SIZE + 1, cell % SIZE + 1, target // SIZE + 1, target % SIZE + 1)

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``[r1,c1,r2,c2]``, ``r1,c1,r2,c2`` or the short ``r1c1r2c2`` / ``r1c1-r2c2``."""
        raw = text.strip()
        body = raw.removeprefix("[").removesuffix("]") if raw.startswith("[") else raw
        if "," in body:
            parts = [p.strip() for p in body.split(",")]
        else:
            parts = list(re.sub(r"[\s\-]", "", body))
        if len(parts) != 4 or not all(p.isdigit() and len(p) == 1 for p in parts):
            raise ParseError(f"bad move {text!r}; expected [r1,c1,r2,c2], r1,c1,r2,c2 or "
                             "r1c1r2c2 with rows and columns 1..8, e.g. [7,1,7,2]")
        values = [int(p) for p in parts]
        if not all(1 <= v <= SIZE for v in values):
            raise ParseError(f"bad move {text!r}: rows and columns go from 1 to {SIZE}")
        return cls(*values)

    def __str__(self) -> str:
        return f"[{self.r1},{self.c1},{self.r2},{self.c2}]"

    def __repr__(self) -> str:
        return f"Move({self.r1}, {self.c1}, {self.r2}, {self.c2})"


ACTION_TEXT: tuple[str, ...] = tuple(
    str(Move.from_action(a)) if TARGETS[a] >= 0 else "" for a in range(NUM_ACTIONS)
)
"""The coursework notation of every action ("" for the ones that leave the board)."""


@dataclass(frozen=True)
class Crank:
    """What the last move and its crank did: the move (``None`` before any), who played it, and
    the cells born and died in the crank as ``(row, column, symbol)``."""

    move: Move | None
    player: int | None
    births: tuple[tuple[int, int, str], ...] = ()
    deaths: tuple[tuple[int, int, str], ...] = ()

    def describe(self) -> str:
        """One line: the move, then the births and deaths of the crank.

        >>> Crank(Move(1, 1, 1, 2), 0, ((2, 2, "b"),), ()).describe()
        'b played [1,1,1,2]; born: b[2,2]; died: none'
        """
        if self.move is None:
            return "no move yet"

        def cells(items: tuple[tuple[int, int, str], ...]) -> str:
            return " ".join(f"{s}[{r},{c}]" for r, c, s in items) or "none"

        return (f"{SYMBOLS[self.player or 0]} played {self.move}; born: {cells(self.births)}; "
                f"died: {cells(self.deaths)}")


# -- positions ----------------------------------------------------------------------------------


def _cells_of(board: np.ndarray, colour: int) -> list[tuple[int, int]]:
    rows, cols = np.nonzero(board == colour)
    return [(int(r) + 1, int(c) + 1) for r, c in zip(rows, cols, strict=True)]


def board_to_prolog(board: np.ndarray) -> str:
    """The Prolog form of an ``(8, 8)`` board of 0/1/2.

    >>> board = np.zeros((8, 8), dtype=np.int8); board[2, 3] = 1; board[7, 7] = 2
    >>> board_to_prolog(board)
    '[[[3,4]],[[8,8]]]'
    """
    lists = ("[" + ",".join(f"[{r},{c}]" for r, c in _cells_of(board, colour)) + "]"
             for colour in (BLUE, RED))
    return "[" + ",".join(lists) + "]"


def prolog_to_board(text: str) -> np.ndarray:
    """An ``(8, 8)`` int8 board from the Prolog form; :class:`ParseError` if malformed.

    >>> int(prolog_to_board("[[[1,4],[2,3]],[[8,8]]]").sum())
    4
    >>> prolog_to_board("[[[1,9]],[]]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: bad position '[[[1,9]],[]]': cell [1,9] is off the board; ...
    """
    expected = ("expected the Prolog form [[[r,c],...],[[r,c],...]] (blue cells, then red "
                "cells), e.g. [[[3,4],[5,7]],[[8,8]]]")
    raw = text.strip().removesuffix(".").strip()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        raise ParseError(f"bad position {text!r}; {expected}") from None
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(x, list) for x in data)):
        raise ParseError(f"bad position {text!r}: not two lists; {expected}")
    board = np.zeros((SIZE, SIZE), dtype=np.int8)
    for colour, cells in zip((BLUE, RED), data, strict=True):
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 2
                    and all(type(v) is int for v in cell)):
                raise ParseError(f"bad position {text!r}: {json.dumps(cell)} is not a cell "
                                 f"[row,column]; {expected}")
            row, col = cell
            if not (1 <= row <= SIZE and 1 <= col <= SIZE):
                raise ParseError(f"bad position {text!r}: cell [{row},{col}] is off the board; "
                                 f"rows and columns go from 1 to {SIZE}")
            if board[row - 1, col - 1]:
                raise ParseError(f"bad position {text!r}: cell [{row},{col}] is listed twice; "
                                 "each cell holds at most one piece")
            board[row - 1, col - 1] = colour
    return board


def crank(board: np.ndarray) -> np.ndarray:
    """One Immigration generation of an ``(8, 8)`` board, or of a batch ``(n, 8, 8)``, by the
    engine's rule (:mod:`lifearena.life`): the protocol path's crank.

    >>> crank(prolog_to_board("[[[1,1],[1,2]],[[2,1]]]")).tolist()[1][:3]
    [2, 1, 0]
    """
    return step(board, IMMIGRATION)


def legal_mask(boards: np.ndarray, player: int) -> np.ndarray:
    """For a batch ``(n, 8, 8)``: ``mask[n, cell, direction]``, True where ``player``'s piece on
    ``cell`` may move in ``direction`` (the target is on the board and empty).

    ``np.nonzero(mask)`` lists the moves in the strategies' tie order, board by board.
    """
    boards = np.asarray(boards)
    occupied = np.pad(boards != EMPTY, ((0, 0), (1, 1), (1, 1)), constant_values=True)
    own = (boards == player + 1).reshape(len(boards), SIZE * SIZE)
    mask = np.empty((len(boards), SIZE * SIZE, 8), dtype=bool)
    for direction, (dr, dc) in enumerate(DIRECTIONS):
        free = ~occupied[:, 1 + dr:1 + dr + SIZE, 1 + dc:1 + dc + SIZE]
        mask[:, :, direction] = own & free.reshape(len(boards), SIZE * SIZE)
    return mask


def apply_moves(boards: np.ndarray, player: int, actions: np.ndarray) -> np.ndarray:
    """Boards ``(n, 8, 8)`` with ``player``'s move ``actions[i]`` made on ``boards[i]`` (no crank,
    no legality check)."""
    out = np.array(boards, dtype=np.int8, copy=True).reshape(len(actions), SIZE * SIZE)
    actions = np.asarray(actions, dtype=np.int64)
    index = np.arange(len(actions))
    out[index, actions // 8] = EMPTY
    out[index, np.asarray(TARGETS)[actions]] = player + 1
    return out.reshape(len(actions), SIZE, SIZE)


# -- the state ----------------------------------------------------------------------------------


SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("start", "choice", "random", choices=("random", "prolog"), start=True,
              label="Start", help="12 random pieces each, or a position you type"),
    ParamSpec("seed", "int", 0, low=0, high=MAX_SEED, start=True, label="Seed",
              help="the same seed gives the same start", shown_when=("start", "random"),
              served_default=1),
    ParamSpec("position", "text", "[[[2,2],[2,3],[3,2]],[[6,6],[6,7],[7,6]]]", max_length=2000,
              start=True, label="Prolog position", shown_when=("start", "prolog"),
              help="[[blue [row,col] cells],[red cells]], rows 1..8 from the top"),
)
"""War of Life's parameters, all of the start: the rules have none."""

_EXPECTED_SETUP = ("expected the Prolog form, optionally followed by the side to move (b or r) "
                   "and the number of moves played, e.g. '[[[1,1]],[[8,8]]] r 12'")


class WarOfLifeState(State):
    """A War of Life position: the board, the side to move and the number of moves played.

    Make one with :func:`new_game`, :func:`from_prolog` or :meth:`from_setup`.
    """

    move_help: ClassVar[str] = ("r1,c1,r2,c2 or [r1,c1,r2,c2] or r1c1r2c2: a piece of yours to "
                                "an empty neighbouring cell")
    info = GameInfo(
        name="war_of_life",
        long_name="War of Life",
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.SEEDED,
        information=Information.PERFECT,
        num_distinct_actions=NUM_ACTIONS,
        max_game_length=MAX_MOVES,
        player_symbols=SYMBOLS,
        side_names=("blue", "red"),
    )

    def __init__(self, board: np.ndarray, to_move: int = 0, moves_played: int = 0,
                 seed: int | None = None) -> None:
        super().__init__({})
        board = np.array(board, dtype=np.int8, copy=True)
        if board.shape != (SIZE, SIZE) or not np.isin(board, (EMPTY, BLUE, RED)).all():
            raise BadParameterError(f"board of shape {board.shape}; expected (8, 8) of 0, 1, 2")
        if to_move not in (0, 1):
            raise BadParameterError(f"to_move {to_move!r}; expected 0 (blue) or 1 (red)")
        if not 0 <= moves_played <= MAX_MOVES:
            raise BadParameterError(f"moves_played {moves_played}; expected 0..{MAX_MOVES}")
        self._board = board
        self._to_move = to_move
        self._moves = moves_played
        self._start = (board_to_prolog(board), to_move, moves_played)
        self.seed = seed
        """The seed of the random start, if it came from one (informative only)."""
        self._crank: Crank | None = Crank(None, None)
        self._crank_source: tuple[int, int, np.ndarray, np.ndarray] | None = None
        """The last move, its player and the board before and after its crank: what
        :attr:`last_crank` is worked out from when it is first asked for."""
        self._moves_cache: tuple[int, list[Action]] | None = None
        self._outcome = self._judge()
        self._taken: list[tuple[Any, ...]] = []
        """What :meth:`push` saved: the position before each pushed move."""

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        if params:
            raise BadParameterError(f"war_of_life takes no parameters; got {', '.join(params)}")
        text = setup.strip()
        head, bracket, tail = text.rpartition("]")
        if not bracket:
            raise ParseError(f"bad setup {setup!r}; {_EXPECTED_SETUP}")
        words = tail.split()
        to_move, moves = 0, 0
        if words and words[0] in SYMBOLS:
            to_move = SYMBOLS.index(words.pop(0))
        if words and words[0].isdigit():
            moves = int(words.pop(0))
        if words or moves > MAX_MOVES:
            raise ParseError(f"bad setup {setup!r}; {_EXPECTED_SETUP} (at most {MAX_MOVES})")
        return cls(prolog_to_board(head + bracket), to_move, moves)

    def setup(self) -> str:
        prolog, to_move, moves = self._start
        suffix = (f" {SYMBOLS[to_move]}" if to_move or moves else "") + (f" {moves}" if moves
                                                                        else "")
        return prolog + suffix

    # -- the rules ----------------------------------------------------------------------------

    def _judge(self) -> Outcome | None:
        blue = int(np.count_nonzero(self._board == BLUE))
        red = int(np.count_nonzero(self._board == RED))
        if blue == 0 and red == 0:
            return Outcome(Termination.DRAW, None, None)
        if self._moves >= MAX_MOVES:
            return Outcome(Termination.EXHAUST, None, None)
        if blue == 0:
            return Outcome(Termination.WIN, 1, SYMBOLS[1])
        if red == 0:
            return Outcome(Termination.WIN, 0, SYMBOLS[0])
        if not self._moves_of(self._to_move):
            return Outcome(Termination.STALEMATE, None, None)
        return None

    def _moves_of(self, player: int) -> list[Action]:
        """``player``'s moves, sorted (kept for the board as it stands: boards are replaced,
        never changed in place)."""
        cached = self._moves_cache
        if cached is not None and cached[0] == player:
            return list(cached[1])
        cells = np.append(self._board.reshape(-1), np.int8(BLUE))  # cell 64: off the board
        moves: list[Action] = np.flatnonzero((cells[_SOURCES] == player + 1)
                                             & (cells[_SAFE_TARGETS] == EMPTY)).tolist()
        self._moves_cache = (player, moves)
        return list(moves)

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._to_move

    def _legal_actions(self, player: int) -> list[Action]:
        return self._moves_of(player)

    def _apply_action(self, action: Action) -> None:
        player = self._to_move
        moved = self._board.copy()
        flat = moved.reshape(-1)
        flat[action // 8] = EMPTY
        flat[TARGETS[action]] = player + 1
        after = crank(moved)
        self._crank, self._crank_source = None, (action, player, moved, after)
        self._moves_cache = None
        self._board = after
        self._moves += 1
        self._to_move = 1 - player
        self._outcome = self._judge()

    @property
    def last_crank(self) -> Crank:
        """What the last move's crank did (births and deaths), for display."""
        if self._crank is None:
            assert self._crank_source is not None
            action, player, moved, after = self._crank_source
            born = (moved == EMPTY) & (after != EMPTY)
            died = (moved != EMPTY) & (after == EMPTY)
            self._crank = Crank(
                Move.from_action(action), player,
                tuple((int(r) + 1, int(c) + 1, SYMBOLS[after[r, c] - 1])
                      for r, c in zip(*np.nonzero(born), strict=True)),
                tuple((int(r) + 1, int(c) + 1, SYMBOLS[moved[r, c] - 1])
                      for r, c in zip(*np.nonzero(died), strict=True)),
            )
        return self._crank

    def clone(self) -> Self:
        """An independent copy (boards are replaced, never changed in place, so the copy
        shares them)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.params = dict(self.params)
        twin._history = list(self._history)
        twin._taken = list(self._taken)
        return twin

    def push(self, action: Action) -> None:
        """Play the legal ``action`` without checking it, so that :meth:`pop` can take it
        back (a search's make and unmake: :class:`lifearena.core.Undo`)."""
        self._taken.append((self._board, self._to_move, self._moves, self._outcome,
                            self._crank, self._crank_source, self._moves_cache))
        self._apply_action(int(action))
        self._history.append(int(action))

    def pop(self) -> Action:
        """Take back the last :meth:`push` and return its action.

        >>> state = new_game(seed=3)
        >>> before = state.setup(), state.to_prolog()
        >>> state.push(state.legal_actions()[0]); _ = state.pop()
        >>> (state.setup(), state.to_prolog()) == before, state.move_number()
        (True, 0)
        """
        if not self._taken:
            raise IllegalMoveError("no pushed move to take back")
        (self._board, self._to_move, self._moves, self._outcome, self._crank,
         self._crank_source, self._moves_cache) = self._taken.pop()
        action = self._history.pop()
        assert isinstance(action, int)
        return action

    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- notation ---------------------------------------------------------------------------

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        return str(Move.from_action(action))

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        return Move.from_text(text).action

    def observation(self, player: int) -> np.ndarray:
        own = self._board == player + 1
        other = self._board == 2 - player
        turn = np.full((SIZE, SIZE), self._outcome is None and self._to_move == player)
        return np.stack([own, other, turn]).astype(np.int8)

    def evaluate(self, player: int) -> float:
        """Land-grab value (own - opponent pieces) scaled into [-1, 1]; returns when over."""
        if self.is_terminal():
            return self.returns()[player]
        own = np.count_nonzero(self._board == player + 1)
        other = np.count_nonzero(self._board == 2 - player)
        return float(own - other) / (SIZE * SIZE)

    def evaluate_children(self, player: int) -> tuple[list[int], np.ndarray, np.ndarray]:
        """Every legal move of the side to move, scored at once on a batch of boards.

        Returns the actions (sorted), the value of the position after each move and its
        crank for ``player`` (land-grab, as :meth:`evaluate`), and which of those positions
        end the game, with values +1, -1 or 0 there (the end checks in the rules' order).
        Search agents use it instead of cloning the state once per move.
        """
        mover = self.current_player()
        mask = legal_mask(self._board[None], mover)[0]
        cells, directions = np.nonzero(mask)
        actions = cells * 8 + directions
        n = len(actions)
        after = crank(apply_moves(np.broadcast_to(self._board, (n, SIZE, SIZE)), mover, actions))
        flat = after.reshape(n, -1)
        own = np.count_nonzero(flat == player + 1, axis=1)
        other = np.count_nonzero(flat == 2 - player, axis=1)
        values = (own - other) / float(SIZE * SIZE)
        terminal = np.zeros(n, dtype=bool)
        blocked = ~legal_mask(after, 1 - mover).reshape(n, -1).any(axis=1)
        draw = ((own == 0) & (other == 0)) | (self._moves + 1 >= MAX_MOVES)
        win = ~draw & (other == 0)
        loss = ~draw & ~win & (own == 0)
        stalemate = ~draw & ~win & ~loss & blocked
        for where, value in ((draw, 0.0), (win, 1.0), (loss, -1.0), (stalemate, 0.0)):
            values = np.where(where, value, values)
            terminal |= where
        return [int(a) for a in actions], values, terminal

    # -- looking at the position -------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        """A copy of the board: ``(8, 8)`` int8, 0 empty, 1 blue, 2 red; ``board[row-1, col-1]``
        is the cell (row, col)."""
        return self._board.copy()

    @property
    def moves_played(self) -> int:
        """Moves played so far (counting those before the setup, if it says so)."""
        return self._moves

    @property
    def to_move(self) -> int:
        """The player whose turn it is (also once the game is over)."""
        return self._to_move

    def pieces(self, player: int) -> list[tuple[int, int]]:
        """``player``'s pieces as (row, column), sorted."""
        return _cells_of(self._board, player + 1)

    def to_prolog(self) -> str:
        """The position in the coursework's Prolog form (blue list, red list, sorted)."""
        return board_to_prolog(self._board)

    # -- pages -------------------------------------------------------------------------------

    def display(self, player: int | None = None) -> dict[str, Any]:
        """The board for pages: blue 1, red 2; ``before`` is the board after the last move and
        before its crank, so a page can animate the crank's births and deaths.

        >>> state = from_prolog("[[[1,4],[2,3]],[[8,8]]]")
        >>> state.apply_action(state.string_to_action("2,3,1,3"))
        >>> data = state.display()
        >>> data["counts"], data["deaths"], data["last_move"]
        ([0, 0], [[0, 2], [0, 3], [7, 7]], [[1, 2], [0, 2]])
        """
        from lifearena.games._display import grid_display

        crank = self.last_crank
        before = None
        last: list[list[int]] = []
        if crank.move is not None:
            before = self._board.copy()
            for row, col, _ in crank.births:
                before[row - 1, col - 1] = EMPTY
            for row, col, symbol in crank.deaths:
                before[row - 1, col - 1] = SYMBOLS.index(symbol) + 1
            move = crank.move
            last = [[move.r1 - 1, move.c1 - 1], [move.r2 - 1, move.c2 - 1]]
        return grid_display(
            self._board, before,
            counts=(int(np.count_nonzero(self._board == BLUE)),
                    int(np.count_nonzero(self._board == RED))),
            last_move=last, status=f"move {self._moves + 1} of {MAX_MOVES}",
        )

    def explain_illegal(self, action: Action, player: int | None = None) -> str:
        """One line: why ``action`` may not be played now.

        >>> state = from_prolog("[[[1,1],[1,2]],[[8,8]]]")
        >>> state.explain_illegal(Move(1, 1, 1, 2).action)
        '[1,1,1,2]: the target 1,2 is occupied; move to an empty neighbouring cell'
        """
        mover = self._to_move if player is None else player
        if self._outcome is not None:
            return "the game is over; no move can be played"
        if mover != self._to_move:
            return f"it is not {SYMBOLS[mover]}'s turn; {SYMBOLS[self._to_move]} is to move"
        if not 0 <= action < NUM_ACTIONS:
            return f"action {action} is out of range 0..{NUM_ACTIONS - 1}"
        row, col = divmod(action // 8, SIZE)
        target = TARGETS[action]
        if target < 0:
            return f"a piece on {row + 1},{col + 1} cannot leave the board"
        text = ACTION_TEXT[action]
        flat = self._board.reshape(-1)
        if flat[action // 8] != mover + 1:
            held = ("empty", "a blue piece", "a red piece")[flat[action // 8]]
            return f"{text}: {row + 1},{col + 1} is {held}; move one of your own pieces"
        if flat[target] != EMPTY:
            r2, c2 = divmod(target, SIZE)
            return (f"{text}: the target {r2 + 1},{c2 + 1} is occupied; move to an empty "
                    "neighbouring cell")
        return f"{text} is legal"

    def action_cells(self, action: Action) -> list[tuple[int, int]]:
        """The piece's cell, then its target (0-based row, column).

        >>> from_prolog("[[[1,1]],[[8,8]]]").action_cells(Move(1, 1, 2, 2).action)
        [(0, 0), (1, 1)]
        """
        target = TARGETS[action]
        return [divmod(action // 8, SIZE), divmod(target, SIZE)] if target >= 0 else []

    def board_text(self, style: str = "clear") -> str:
        """The board as text: ``"clear"`` (coordinates, ``.`` for empty) or ``"coursework"``
        (the Prolog program's layout: column header, a frame, ``b``/``r`` cells).

        >>> print(from_prolog("[[[1,2]],[[8,8]]]").board_text("coursework"))
          12345678
         +--------+
        1| b      |
        2|        |
        3|        |
        4|        |
        5|        |
        6|        |
        7|        |
        8|       r|
         +--------+
        """
        cells = [[(" br" if style == "coursework" else ".br")[v] for v in row]
                 for row in self._board.tolist()]
        if style == "coursework":
            lines = ["  " + "".join(str(c) for c in range(1, SIZE + 1)), " +" + "-" * SIZE + "+"]
            lines += [f"{r}|" + "".join(row) + "|" for r, row in enumerate(cells, start=1)]
            lines.append(" +" + "-" * SIZE + "+")
            return "\n".join(lines)
        if style != "clear":
            raise BadParameterError(f"unknown board style {style!r}; expected clear or "
                                    "coursework")
        header = "    " + " ".join(str(c) for c in range(1, SIZE + 1))
        frame = "  +" + "-" * (2 * SIZE + 1) + "+"
        lines = [header, frame]
        lines += [f"{r} | " + " ".join(row) + " |" for r, row in enumerate(cells, start=1)]
        lines.append(frame)
        return "\n".join(lines)

    def status(self) -> str:
        """One line: piece counts, moves played, and who is to move or how the game ended."""
        blue = int(np.count_nonzero(self._board == BLUE))
        red = int(np.count_nonzero(self._board == RED))
        tail = (f"{SYMBOLS[self._to_move]} to move" if self._outcome is None
                else str(self._outcome))
        return f"b {blue}, r {red}, {self._moves} moves played, {tail}"

    def __str__(self) -> str:
        return self.board_text("clear") + "\n" + self.status()

    def __repr__(self) -> str:
        extra = ""
        if self._to_move:
            extra += ", to_move='r'"
        if self._moves:
            extra += f", moves_played={self._moves}"
        return f"war_of_life.from_prolog({self.to_prolog()!r}{extra})"


# -- module-level API ---------------------------------------------------------------------------


def from_prolog(text: str, to_move: str | int = "b", moves_played: int = 0) -> WarOfLifeState:
    """A state at the Prolog-form position ``text``; blue to move, no moves played, unless said.

    >>> from_prolog("[[[1,4],[2,3]],[[8,8]]]", to_move="r").current_player()
    1
    """
    if isinstance(to_move, str):
        if to_move not in SYMBOLS:
            raise BadParameterError(f"to_move {to_move!r}; expected 'b' or 'r'")
        to_move = SYMBOLS.index(to_move)
    return WarOfLifeState(prolog_to_board(text), to_move, moves_played)


def random_board(seed: int) -> np.ndarray:
    """The random start of :func:`new_game`: blue's 12 cells uniformly among the 64, then red's
    12 among the remaining 52, drawn with ``numpy.random.default_rng(seed)``.

    >>> board = random_board(7)
    >>> int((board == 1).sum()), int((board == 2).sum())
    (12, 12)
    """
    rng = np.random.default_rng(seed)
    blue = rng.choice(SIZE * SIZE, size=PIECES, replace=False)
    rest = np.setdiff1d(np.arange(SIZE * SIZE), blue)
    red = rng.choice(rest, size=PIECES, replace=False)
    board = np.zeros(SIZE * SIZE, dtype=np.int8)
    board[blue] = BLUE
    board[red] = RED
    return board.reshape(SIZE, SIZE)



@register_game
class WarOfLifeGame(Game):
    """War of Life: a random start from a seed, or a position in the coursework's Prolog form.

    >>> WarOfLifeGame(start="prolog", position="[[[1,1]],[[8,8]]]").new_initial_state()
    war_of_life.from_prolog('[[[1,1]],[[8,8]]]')
    >>> WarOfLifeGame().new_initial_state(seed=7).setup() == new_game(seed=7).setup()
    True
    """

    info = WarOfLifeState.info
    specs = SPECS
    state_type = WarOfLifeState

    def _initial_state(self, seed: int | None) -> WarOfLifeState:
        if self._params["start"] == "prolog":
            return WarOfLifeState.from_setup(self._params["position"])
        return new_game(seed=self._params["seed"] if seed is None else seed)

def new_game(seed: int = 0) -> WarOfLifeState:
    """A game from the random start that ``seed`` makes (blue to move).

    >>> new_game(seed=7).to_prolog() == new_game(seed=7).to_prolog()
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise BadParameterError(f"seed {seed!r}; expected a non-negative integer")
    return WarOfLifeState(random_board(int(seed)), 0, 0, seed=int(seed))


_FAST_OUTCOMES = (
    Outcome(Termination.DRAW, None, None),
    Outcome(Termination.EXHAUST, None, None),
    Outcome(Termination.WIN, 0, SYMBOLS[0]),
    Outcome(Termination.WIN, 1, SYMBOLS[1]),
    Outcome(Termination.STALEMATE, None, None),
)


class FastPlayer:
    """Two named strategies (no options) playing setups with the compiled simulator, one
    agent per side kept from game to game (a random agent's generator runs on), exactly as
    ``agents.make(name, game="war_of_life", seed=s)`` would play them in the same order.

    >>> player = FastPlayer(("land_grab", "random"), (0, 1))
    >>> [len(moves) > 0 for moves, _, _ in player.play([new_game(seed=2).setup()])]
    [True]
    """

    def __init__(self, agents: tuple[str, str], seeds: tuple[int, int]) -> None:
        names = tuple(str(a).strip().lower().replace("-", "_") for a in agents)
        unknown = [n for n in names if n not in fast.STRATEGIES]
        if unknown or len(names) != 2:
            raise BadParameterError(f"no fast path for {', '.join(unknown) or agents!r}; "
                                    f"expected two of {', '.join(fast.STRATEGIES)}")
        self.kinds = tuple(fast.STRATEGIES.index(n) for n in names)
        self.streams = [fast.RandomStream(seed) for seed in seeds]
        self._moves = np.empty(MAX_MOVES, dtype=np.int16)
        # Load (or compile) the simulator now, so the first game's time does not include it.
        empty = np.empty(1)
        fast.play(np.uint64(0), np.uint64(0), 0, 0, 0, 0, empty, 0, empty, 0, self._moves)

    def play(self, setups: Iterable[str]) -> list[tuple[list[str], Outcome, float]]:
        """``(moves, outcome, seconds)`` for each setup, in order."""
        kinds, streams, moves = self.kinds, self.streams, self._moves
        results: list[tuple[list[str], Outcome, float]] = []
        for setup in setups:
            start = time.perf_counter()
            parsed = fast.parse_setup(setup)
            if parsed is None:  # unusual: the state class checks it and names the error
                state = WarOfLifeState.from_setup(setup)
                blue_, red_ = fast.board_to_bits(state.board)
                parsed = blue_, red_, state.to_move, state.moves_played
            blue, red, to_move, played = parsed
            for kind, stream in zip(kinds, streams, strict=True):
                if kind == fast.RANDOM:
                    stream.ensure(MAX_MOVES)
            n, code, used0, used1 = fast.play(blue, red, to_move, played, kinds[0], kinds[1],
                                              streams[0].pool, streams[0].cursor,
                                              streams[1].pool, streams[1].cursor, moves)
            streams[0].cursor += used0
            streams[1].cursor += used1
            texts = [ACTION_TEXT[a] for a in moves[:n].tolist()]
            results.append((texts, _FAST_OUTCOMES[code], time.perf_counter() - start))
        return results


def fast_play(setups: Sequence[str], agents: tuple[str, str], seeds: tuple[int, int]
              ) -> list[tuple[list[str], Outcome, float]] | None:
    """Play every setup between the named strategies (no options) with the compiled bitboard
    simulator; ``None`` if a name is not one of ``random``, ``bloodlust``,
    ``self_preservation``, ``land_grab``, ``minimax``.

    The games are exactly those of ``agents.make(name, game="war_of_life", seed=s)`` (one
    agent per side, made once) playing the setups in order: a random agent's generator runs
    on from one game to the next. Returns ``(moves, outcome, seconds)`` per setup, the
    seconds measured around each game (parsing the setup and writing the moves included).

    >>> moves, outcome, _ = fast_play([new_game(seed=1).setup()], ("minimax", "random"), (0, 0))[0]
    >>> len(moves) > 0, outcome.termination in Termination
    (True, True)
    """
    try:
        player = FastPlayer(agents, seeds)
    except BadParameterError:
        return None
    return player.play(setups)


def play_all(states: Iterable[WarOfLifeState], agents: Sequence[Any]) -> list[WarOfLifeState]:
    """Play each state to the end with ``agents[player].act`` (the protocol path, no referee);
    returns the final states. Handy for tests and benchmarks.

    >>> from lifearena.agents import make
    >>> final = play_all([new_game(seed=3)], [make("land_grab", game="war_of_life")] * 2)[0]
    >>> final.is_terminal()
    True
    """
    finals = []
    for state in states:
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(agents[player].act(state.view(player), player))
        finals.append(state)
    return finals
