"""Life for Two (Brian Wyvill, *BASIC Computer Games*, 1978) on the :mod:`lifearena.core` protocol.

Rules (the game's written instructions):

* A 5x5 board; cells outside it are permanently empty. Player 1 (id 0) prints as ``*``,
  player 2 (id 1) as ``#``.
* Every turn is a **simultaneous** node (``current_player() == SIMULTANEOUS``): both players'
  choices are collected, then applied together with :meth:`~lifearena.core.State.apply_actions`.
  On the first turn each player chooses 3 distinct empty cells, on every later turn one empty
  cell. A cell chosen by both players stays empty; the other chosen cells get their
  chooser's piece. Then one generation of Immigration (:mod:`lifearena.life`): a piece with 2
  or 3 neighbours of any colour survives with its colour, an empty cell with exactly 3
  neighbours is born with the majority colour of the three, everything else is empty.
* After each generation: neither player has pieces -> a draw (``Termination.DRAW``); one
  has none -> the other wins (``Termination.WIN``).
* Optional move limit (``max_turns``, off by default, kept in the parameters): after that
  many turns an undecided game ends. ``limit_result="draw"`` (default) makes it a draw
  (``Termination.EXHAUST``); ``limit_result="population"`` gives it to the player with more
  pieces, or a draw when equal (``Termination.LIMIT``).

Notation:

* A cell is ``x,y``: x the column (1 = left), y the row (1 = top), both 1..5.
* A move is one cell (``3,2``) or, on the first turn, three cells separated by spaces
  (``1,1 2,1 1,2``). A joint move in a record is ``"1,1 2,1 1,2 | 3,4 4,4 5,4"``.
* A position is five rows from the top joined by ``/`` (``.`` empty, ``*``, ``#``), a space
  and the number of the turn to be played next (1 is the three-piece turn):
  ``"...../..*../...#./..#../..... 2"``.

Dense actions (``num_distinct_actions = 25 + 2300``): ``0..24`` is the single cell with index
``(y - 1) * 5 + (x - 1)``; ``25 + k`` is the k-th 3-cell subset of the 25 cells in
lexicographic order of the sorted cell indices (``25`` is ``{0, 1, 2}``, ``2324`` is
``{22, 23, 24}``). Legal on the first turn: the subsets of empty cells; later: empty cells.

Both choices of a turn arrive together in ``apply_actions``, so a state never holds a
pending, unrevealed choice and ``view(player)`` is a plain copy.

>>> state = LifeForTwo.from_setup("...../..*../...#./..#../..... 2")
>>> state.apply_actions([state.string_to_action("1,5"), state.string_to_action("1,1")])
>>> print(state)
   1 2 3 4 5
1  . . . . .
2  . . . . .
3  . . # # .
4  . . . . .
5  . . . . .
>>> state.history_strings()
['1,5 | 1,1']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, Self, cast

import numpy as np

from lifearena.caps import MAX_MOVES
from lifearena.core import (
    SIMULTANEOUS,
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
from lifearena.life.rules import Rule
from lifearena.life.step import step
from lifearena.params import ParamSpec

SIZE = 5
CELLS = SIZE * SIZE
FIRST_PIECES = 3
SYMBOLS = ("*", "#")
_CHARS = {".": 0, "*": 1, "#": 2}
_CHAR_OF = ".*#"
IMMIGRATION = Rule.named("immigration")

TRIPLES: tuple[tuple[int, int, int], ...] = tuple(
    cast(Iterator[tuple[int, int, int]], combinations(range(CELLS), FIRST_PIECES)))
"""The 3-cell subsets in action order: action ``25 + k`` is ``TRIPLES[k]``."""
_TRIPLE_ACTION = {cells: CELLS + k for k, cells in enumerate(TRIPLES)}
_TRIPLE_BITS = np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in TRIPLES], dtype=np.int64)
NUM_ACTIONS = CELLS + len(TRIPLES)
LIMIT_RESULTS = ("draw", "population")
RULES = ("instructed", "classic")
"""The written rules (choices hidden, played through this module), or the 1978 BASIC
program exactly (:mod:`lifearena.games.life_for_two.classic`, a terminal at one screen)."""

SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("rules", "choice", "instructed", choices=RULES, start=True, label="Rules",
              help="instructed: the written rules, choices hidden; classic: the 1978 BASIC "
              "program exactly, bugs included, at one screen"),
    ParamSpec("max_turns", "int", None, low=1, high=MAX_MOVES, optional=True,
              label="Turn limit", served=(1, 500), help="0: play until one side dies out",
              shown_when=("rules", "instructed")),
    ParamSpec("limit_result", "choice", "draw", choices=LIMIT_RESULTS, label="At the limit",
              help="a draw, or more pieces wins", shown_when=("rules", "instructed")),
)
"""Life for Two's parameters: which program, then the rules' turn limit and its result."""

_CELL_RE = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")


def cell_index(x: int, y: int) -> int:
    """The index of the cell in column ``x``, row ``y`` (both 1..5).

    >>> cell_index(3, 2)
    7
    """
    if not (1 <= x <= SIZE and 1 <= y <= SIZE):
        raise ParseError(f"cell {x},{y} is off the board; expected x and y in 1..{SIZE}")
    return (y - 1) * SIZE + (x - 1)


def cell_text(index: int) -> str:
    """The ``x,y`` notation of a cell index.

    >>> cell_text(7)
    '3,2'
    """
    y, x = divmod(index, SIZE)
    return f"{x + 1},{y + 1}"


def parse_cell(text: str) -> int:
    """The cell index of ``x,y`` text; :class:`ParseError` for anything else.

    >>> parse_cell(" 5, 1 ")
    4
    >>> parse_cell("6,1")
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: cell 6,1 is off the board; expected x and y in 1..5
    """
    match = _CELL_RE.fullmatch(text)
    if not match:
        raise ParseError(f"bad cell {text.strip()!r}; expected x,y with x the column and y the "
                         f"row, both 1..{SIZE} (e.g. 3,2)")
    return cell_index(int(match.group(1)), int(match.group(2)))


TOURNAMENT_PARAMS = {"max_turns": 100, "limit_result": "population"}
"""What tournaments play unless told otherwise: the original has no move limit, and two
careful agents can keep a game going for ever."""


@dataclass(frozen=True)
class Move:
    """One player's choice for a turn: one cell, or three distinct cells on the first turn.

    >>> Move.from_text("2,1 1,1 1,2")
    Move.from_text('1,1 2,1 1,2')
    >>> Move.from_text("1,1 2,1 1,2").action, Move.from_action(7)
    (28, Move.from_text('3,2'))
    """

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        cells = tuple(sorted(int(c) for c in self.cells))
        if len(cells) not in (1, FIRST_PIECES):
            raise ParseError(f"a move is 1 cell or {FIRST_PIECES} cells; got {len(cells)}")
        if len(set(cells)) != len(cells):
            raise ParseError(f"the cells of a move must be distinct; got "
                             f"{' '.join(cell_text(c) for c in self.cells)}")
        if not all(0 <= c < CELLS for c in cells):
            raise ParseError(f"cell index out of range in {cells}; expected 0..{CELLS - 1}")
        object.__setattr__(self, "cells", cells)

    @classmethod
    def from_text(cls, text: str) -> Move:
        parts = text.split()
        if not parts:
            raise ParseError("empty move; expected x,y (or three cells x,y x,y x,y on the "
                             "first turn)")
        return cls(tuple(parse_cell(p) for p in parts))

    @classmethod
    def from_action(cls, action: int) -> Move:
        if 0 <= action < CELLS:
            return cls((action,))
        if CELLS <= action < NUM_ACTIONS:
            return cls(TRIPLES[action - CELLS])
        raise ParseError(f"action {action} out of range; expected 0..{NUM_ACTIONS - 1}")

    @property
    def action(self) -> int:
        if len(self.cells) == 1:
            return self.cells[0]
        return _TRIPLE_ACTION[cast(tuple[int, int, int], self.cells)]

    def __str__(self) -> str:
        return " ".join(cell_text(c) for c in self.cells)

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"


def parse_position(text: str) -> tuple[np.ndarray, int]:
    """The board and next turn number of a position in this module's notation."""
    parts = text.split()
    rows = parts[0].split("/") if parts else []
    if len(parts) not in (1, 2) or len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ParseError(f"bad position {text!r}; expected 5 rows of 5 characters from '.*#' "
                         "joined by '/', then the turn number (e.g. '...../...../...../...../"
                         "..... 1')")
    board = np.zeros((SIZE, SIZE), dtype=np.int8)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char not in _CHARS:
                raise ParseError(f"bad character {char!r} in position {text!r}; expected "
                                 "'.', '*' or '#'")
            board[y, x] = _CHARS[char]
    turn = 1
    if len(parts) == 2:
        if not parts[1].isdigit() or int(parts[1]) < 1:
            raise ParseError(f"bad turn number {parts[1]!r} in position {text!r}; expected an "
                             "integer >= 1")
        turn = int(parts[1])
    return board, turn


def format_position(board: np.ndarray, turn: int) -> str:
    """The notation of ``board`` with ``turn`` to play (inverse of :func:`parse_position`)."""
    rows = ("".join(_CHAR_OF[v] for v in row) for row in board.tolist())
    return "/".join(rows) + f" {turn}"


def format_board(board: np.ndarray) -> str:
    """The board with column numbers on top and row numbers on the left."""
    lines = ["   " + " ".join(str(x) for x in range(1, SIZE + 1))]
    for y, row in enumerate(board.tolist(), start=1):
        lines.append(f"{y}  " + " ".join(_CHAR_OF[v] for v in row))
    return "\n".join(lines)


class LifeForTwo(State):
    """A Life for Two position (see the module docstring for rules and notation)."""

    move_help: ClassVar[str] = ("x,y for one cell; on the first turn three cells 'x,y x,y x,y' "
                                "(x the column, y the row, 1..5)")
    info = GameInfo(
        name="life_for_two",
        long_name="Life for Two",
        dynamics=Dynamics.SIMULTANEOUS,
        chance=Chance.DETERMINISTIC,
        information=Information.IMPERFECT,
        num_distinct_actions=NUM_ACTIONS,
        # Unbounded without max_turns; this bound is only a nominal cap for tools.
        max_game_length=1_000_000,
        player_symbols=SYMBOLS,
        side_names=("player *", "player #"),
        parameters={s.name: s.default for s in SPECS if not s.start},
    )

    def __init__(self, board: np.ndarray | None = None, turn: int = 1,
                 max_turns: int | None = None, limit_result: str = "draw") -> None:
        if max_turns is not None and (not isinstance(max_turns, int) or max_turns < 1):
            raise BadParameterError(f"max_turns {max_turns!r} must be a positive integer or "
                                    "None (no limit)")
        if limit_result not in LIMIT_RESULTS:
            raise BadParameterError(f"limit_result {limit_result!r}; expected one of "
                                    f"{', '.join(LIMIT_RESULTS)}")
        super().__init__({"max_turns": max_turns, "limit_result": limit_result})
        self._board = (np.zeros((SIZE, SIZE), dtype=np.int8) if board is None
                      else np.array(board, dtype=np.int8))
        if self._board.shape != (SIZE, SIZE) or self._board.min() < 0 or self._board.max() > 2:
            raise BadParameterError("a Life for Two board is 5x5 with values 0, 1, 2")
        self.turn = turn
        if turn == 1 and int(np.count_nonzero(self._board == 0)) < FIRST_PIECES:
            raise BadParameterError(f"the first turn needs at least {FIRST_PIECES} empty cells")
        self._start = format_position(self._board, turn)
        self._outcome: Outcome | None = None
        self.placed: np.ndarray | None = None
        """The board of the last turn after placement, before its generation."""
        self.last_moves: tuple[Move, Move] | None = None
        self.last_collisions: tuple[int, ...] = ()
        """Cells both players chose on the last turn (left empty)."""

    # -- protocol hooks ---------------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        """The board, row 0 at the top: 0 empty, 1 and 2 the players' pieces (read-only)."""
        view = self._board.view()
        view.flags.writeable = False
        return view

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else SIMULTANEOUS

    @property
    def first_turn(self) -> bool:
        """Whether the turn to play is the three-piece one."""
        return self.turn == 1

    def _occupied_bits(self) -> int:
        flat = self._board.reshape(-1)
        return sum(1 << int(i) for i in np.flatnonzero(flat))

    def _legal_actions(self, player: int) -> list[Action]:
        if self.first_turn:
            occupied = self._occupied_bits()
            if not occupied:
                return list(range(CELLS, NUM_ACTIONS))
            free = np.flatnonzero((_TRIPLE_BITS & occupied) == 0)
            return (free + CELLS).tolist()
        return np.flatnonzero(self._board.reshape(-1) == 0).tolist()

    def explain_illegal(self, action: Action, player: int | None = None) -> str:
        """Why ``player`` may not play ``action`` now (see :meth:`_why_illegal`)."""
        who = 0 if player is None else player
        return self._why_illegal(action, who) or super().explain_illegal(action, player)

    def move_prompt(self, player: int) -> str:
        return "your 3 cells as x,y x,y x,y" if self.first_turn else "your cell as x,y"

    def read_move(self, text: str, player: int | None = None) -> Action:
        """Parse and check a choice without listing the ~2,300 legal first-turn choices."""
        return self.parse_choice(text, 0 if player is None else player)

    def _why_illegal(self, action: Action, player: int) -> str | None:
        """Why ``action`` may not be played by ``player`` now, or ``None`` if it may."""
        if self._outcome is not None:
            return "the game is over; no move can be played"
        try:
            move = Move.from_action(int(action))
        except ParseError as error:
            return str(error)
        wanted = FIRST_PIECES if self.first_turn else 1
        if len(move.cells) != wanted:
            return (f"turn {self.turn} places {wanted} cell{'s' * (wanted > 1)}; "
                    f"got {len(move.cells)} ({move})")
        flat = self._board.reshape(-1)
        for cell in move.cells:
            if flat[cell]:
                return (f"cell {cell_text(cell)} is occupied by {SYMBOLS[flat[cell] - 1]}; "
                        "choose an empty cell")
        return None

    def parse_choice(self, text: str, player: int) -> Action:
        """Parse and check ``player``'s choice ``text``; raise with a clear reason if bad.

        >>> LifeForTwo().parse_choice("3,2", 0)
        Traceback (most recent call last):
        ...
        lifearena.errors.IllegalMoveError: turn 1 places 3 cells; got 1 (3,2)
        """
        action = Move.from_text(text).action
        reason = self._why_illegal(action, player)
        if reason:
            raise IllegalMoveError(reason)
        return action

    def apply_actions(self, actions: Sequence[Action], *, check: bool = True) -> None:
        # A precise reason beats the generic message, and avoids scanning 2300 actions.
        if check and self.current_player() == SIMULTANEOUS and len(actions) == 2:
            for player, action in enumerate(actions):
                reason = self._why_illegal(action, player)
                if reason:
                    raise IllegalMoveError(f"illegal move for player {player + 1} "
                                           f"({SYMBOLS[player]}): {reason}")
        super().apply_actions(actions, check=False)

    def _apply_actions(self, actions: Sequence[Action]) -> None:
        moves = (Move.from_action(actions[0]), Move.from_action(actions[1]))
        both = set(moves[0].cells) & set(moves[1].cells)
        flat = self._board.reshape(-1).copy()
        for player, move in enumerate(moves):
            for cell in move.cells:
                if cell not in both:
                    flat[cell] = player + 1
        self.placed = flat.reshape(SIZE, SIZE)
        self.last_moves = moves
        self.last_collisions = tuple(sorted(both))
        self._board = step(self.placed, IMMIGRATION)
        self.turn += 1
        self._outcome = self._judge()

    def _judge(self) -> Outcome | None:
        ones, twos = self.populations()
        if ones == 0 and twos == 0:
            return Outcome(Termination.DRAW, None, None, "both players died out")
        if twos == 0:
            return Outcome(Termination.WIN, 0, SYMBOLS[0])
        if ones == 0:
            return Outcome(Termination.WIN, 1, SYMBOLS[1])
        limit = self.params["max_turns"]
        if limit is not None and self.turn > limit:
            if self.params["limit_result"] == "draw":
                return Outcome(Termination.EXHAUST, None, None, f"{limit} turns")
            detail = f"population {ones}-{twos} after {limit} turns"
            winner = 0 if ones > twos else 1 if twos > ones else None
            return Outcome(Termination.LIMIT, winner,
                           None if winner is None else SYMBOLS[winner], detail)
        return None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        return str(Move.from_action(int(action)))

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        return Move.from_text(text).action

    def observation(self, player: int) -> np.ndarray:
        """Planes: the player's own pieces, the opponent's, and all ones on the first turn."""
        own, other = (1, 2) if player == 0 else (2, 1)
        planes = np.zeros((3, SIZE, SIZE), dtype=np.int8)
        planes[0] = self._board == own
        planes[1] = self._board == other
        planes[2] = 1 if self.first_turn else 0
        return planes

    def setup(self) -> str:
        return self._start

    def position(self) -> str:
        """The current position in the game's notation."""
        return format_position(self._board, self.turn)

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        board, turn = parse_position(setup)
        return cls(board, turn, **params)

    def evaluate(self, player: int) -> float:
        """Final return when over; else the piece difference over the total, scaled to 0.9."""
        if self.is_terminal():
            return self.returns()[player]
        ones, twos = self.populations()
        own, other = (ones, twos) if player == 0 else (twos, ones)
        return 0.0 if own + other == 0 else 0.9 * (own - other) / (own + other)

    # -- pages -------------------------------------------------------------------------------

    def display(self, player: int | None = None) -> dict[str, Any]:
        """The board for pages (``*`` is 1, ``#`` 2); ``before`` is the last turn's board as
        placed, before its generation; ``collisions`` the cells both chose.

        >>> state = LifeForTwo()
        >>> state.display()["status"]
        'turn 1: each player chooses 3 cells'
        """
        from lifearena.games._display import grid_display

        wanted = FIRST_PIECES if self.first_turn else 1
        return grid_display(
            self._board, self.placed, counts=self.populations(),
            collisions=[list(divmod(c, SIZE)) for c in self.last_collisions],
            last_moves=[[list(divmod(c, SIZE)) for c in m.cells] for m in self.last_moves]
            if self.last_moves else [],
            choose=wanted,
            status=f"turn {self.turn}: each player chooses {wanted} cell{'s' * (wanted > 1)}",
        )

    def action_cells(self, action: Action) -> list[tuple[int, int]]:
        """The cells the choice places on (0-based row, column).

        >>> LifeForTwo().action_cells(LifeForTwo().string_to_action("3,2"))
        [(1, 2)]
        """
        return [divmod(c, SIZE) for c in Move.from_action(int(action)).cells]

    # -- helpers ----------------------------------------------------------------------------

    def populations(self) -> tuple[int, int]:
        """How many pieces player 1 (``*``) and player 2 (``#``) have."""
        return int(np.count_nonzero(self._board == 1)), int(np.count_nonzero(self._board == 2))

    def __str__(self) -> str:
        return format_board(self._board)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"LifeForTwo.from_setup({self.position()!r}, {params})"



@register_game
class LifeForTwoGame(Game):
    """Life for Two with its parameters; the start is always the empty board.

    >>> LifeForTwoGame(max_turns=20).new_initial_state().params
    {'max_turns': 20, 'limit_result': 'draw'}
    >>> LifeForTwoGame(rules="classic").new_initial_state()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: life_for_two rules=classic is the 1978 BASIC program, ...
    """

    info = LifeForTwo.info
    specs = SPECS
    state_type = LifeForTwo

    def _initial_state(self, seed: int | None) -> LifeForTwo:
        if self._params["rules"] == "classic":
            raise BadParameterError(
                "life_for_two rules=classic is the 1978 BASIC program, played as a terminal "
                "transcript ('lifearena life-for-two play --classic', or the web at one "
                "screen); expected rules=instructed for a game state")
        return LifeForTwo(**self.rule_params)

    @property
    def max_game_length(self) -> int:
        turns = self._params["max_turns"]
        return self.info.max_game_length if turns is None else int(turns)

def new_game(seed: int | None = None, **params: Any) -> LifeForTwo:
    """A game from the empty board (``max_turns=...``, ``limit_result=...`` as parameters).

    The start never depends on ``seed`` (accepted so that the arena can call every game's
    ``new_game`` alike): Life for Two always starts from the empty board.

    >>> new_game(max_turns=100).params
    {'max_turns': 100, 'limit_result': 'draw'}
    """
    return LifeForTwo(**params)
