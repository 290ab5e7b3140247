"""Life for Two (Brian Wyvill, *BASIC Computer Games*, 1978): the rules on the
:mod:`lifearena.core` protocol.

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
* After each generation (:func:`lifearena.games.life_for_two.fast.ending`, the one
  definition the compiled kernels share): neither player has pieces -> a draw
  (``Termination.DRAW``); one has none -> the other wins (``Termination.WIN``).
* Optional move limit (``max_turns``, off by default, kept in the parameters): after that
  many turns an undecided game ends. ``limit_result="draw"`` (default) makes it a draw
  (``Termination.EXHAUST``); ``limit_result="population"`` gives it to the player with more
  pieces, or a draw when equal (``Termination.LIMIT``).

Cells, moves, actions and positions are written as :mod:`.notation` says. Legal on the first
turn: the 3-cell subsets of empty cells; later: the empty cells.

Both choices of a turn arrive together in ``apply_actions``, so a state never holds a
pending, unrevealed choice and ``view(player)`` is a plain copy.

>>> state = LifeForTwoState.from_setup("...../..*../...#./..#../..... 2")
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

from collections.abc import Sequence
from typing import Any, ClassVar, Self

import numpy as np

from lifearena.caps import MAX_MOVES
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
from lifearena.games.life_for_two.fast import (
    DIED_OUT,
    EXHAUST,
    FIRST_WINS,
    GOES_ON,
    LIMIT_EVEN,
    OUTCOME_WINNERS,
    SECOND_WINS,
    ending,
)
from lifearena.games.life_for_two.notation import (
    CELLS,
    FIRST_PIECES,
    NUM_ACTIONS,
    SIZE,
    SYMBOLS,
    TRIPLES,
    Move,
    format_position,
    parse_position,
)
from lifearena.life.rules import Rule
from lifearena.life.step import step
from lifearena.params import ParamSpec

IMMIGRATION = Rule.named("immigration")
_TRIPLE_BITS = np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in TRIPLES], dtype=np.int64)
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

TOURNAMENT_PARAMS = {"max_turns": 100, "limit_result": "population"}
"""What tournaments play unless told otherwise: the original has no move limit, and two
careful agents can keep a game going for ever."""


class LifeForTwoState(State):
    """A Life for Two position (see the module docstring for the rules, :mod:`.notation` for
    the notation)."""

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
        self._turn = turn
        if turn == 1 and int(np.count_nonzero(self._board == 0)) < FIRST_PIECES:
            raise BadParameterError(f"the first turn needs at least {FIRST_PIECES} empty cells")
        self._start = format_position(self._board, turn)
        self._outcome: Outcome | None = None
        self._placed: np.ndarray | None = None
        self._last_moves: tuple[Move, Move] | None = None
        self._last_collisions: tuple[int, ...] = ()

    # -- what the position is ----------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        """The board, row 0 at the top: 0 empty, 1 and 2 the players' pieces (read-only)."""
        return read_only(self._board)

    @property
    def turn(self) -> int:
        """The number of the turn to be played next (1 is the three-piece turn)."""
        return self._turn

    @property
    def first_turn(self) -> bool:
        """Whether the turn to play is the three-piece one."""
        return self._turn == 1

    @property
    def cells_to_choose(self) -> int:
        """How many cells each player chooses this turn (3 on the first turn, else 1).

        >>> LifeForTwoState().cells_to_choose
        3
        """
        return FIRST_PIECES if self.first_turn else 1

    @property
    def placed(self) -> np.ndarray | None:
        """The board of the last turn after placement, before its generation (read-only;
        ``None`` before the first turn played from this state's setup)."""
        return None if self._placed is None else read_only(self._placed)

    @property
    def last_moves(self) -> tuple[Move, Move] | None:
        """Both players' choices of the last turn, or ``None``."""
        return self._last_moves

    @property
    def last_collisions(self) -> tuple[int, ...]:
        """Cells both players chose on the last turn (left empty)."""
        return self._last_collisions

    def populations(self) -> tuple[int, int]:
        """How many pieces player 1 (``*``) and player 2 (``#``) have."""
        return int(np.count_nonzero(self._board == 1)), int(np.count_nonzero(self._board == 2))

    # -- protocol hooks ----------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else SIMULTANEOUS

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

    def _is_legal(self, action: Action, player: int) -> bool:
        """Whether ``player`` may choose ``action`` now, without listing the ~2,300 legal
        first-turn choices (the same for both players).

        >>> state = LifeForTwoState.from_setup("*..../...../...../...../..... 2")
        >>> state._is_legal(Move.parse("2,1").action, 0), state._is_legal(0, 1)
        (True, False)
        """
        if self._outcome is not None or not 0 <= action < NUM_ACTIONS:
            return False
        cells = Move.from_action(int(action)).cells
        flat = self._board.reshape(-1)
        return len(cells) == self.cells_to_choose and not any(flat[c] for c in cells)

    def _apply_actions(self, actions: Sequence[Action]) -> None:
        moves = (Move.from_action(actions[0]), Move.from_action(actions[1]))
        both = set(moves[0].cells) & set(moves[1].cells)
        flat = self._board.reshape(-1).copy()
        for player, move in enumerate(moves):
            for cell in move.cells:
                if cell not in both:
                    flat[cell] = player + 1
        self._placed = flat.reshape(SIZE, SIZE)
        self._last_moves = moves
        self._last_collisions = tuple(sorted(both))
        self._board = step(self._placed, IMMIGRATION)
        self._turn += 1
        self._outcome = self._judge()

    def _judge(self) -> Outcome | None:
        ones, twos = self.populations()
        limit = self.params["max_turns"]
        code = ending(ones, twos, self._turn, limit or 0,
                      self.params["limit_result"] == "population")
        if code == GOES_ON:
            return None
        if code == DIED_OUT:
            return Outcome(Termination.DRAW, None, None, "both players died out")
        if code in (FIRST_WINS, SECOND_WINS):
            winner = int(OUTCOME_WINNERS[code])
            return Outcome(Termination.WIN, winner, SYMBOLS[winner])
        if code == EXHAUST:
            return Outcome(Termination.EXHAUST, None, None, f"{limit} turns")
        detail = f"population {ones}-{twos} after {limit} turns"
        if code == LIMIT_EVEN:
            return Outcome(Termination.LIMIT, None, None, detail)
        winner = int(OUTCOME_WINNERS[code])
        return Outcome(Termination.LIMIT, winner, SYMBOLS[winner], detail)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        return str(Move.from_action(int(action)))

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        return Move.parse(text).action

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
        return format_position(self._board, self._turn)

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

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"LifeForTwo.from_setup({self.position()!r}, {params})"


LifeForTwo = LifeForTwoState
"""The state's older name (many callers use it)."""


def new_game(seed: int | None = None, **params: Any) -> LifeForTwoState:
    """A game from the empty board (``max_turns=...``, ``limit_result=...`` as parameters).

    The start never depends on ``seed`` (accepted so that the arena can call every game's
    ``new_game`` alike): Life for Two always starts from the empty board.

    >>> new_game(max_turns=100).params
    {'max_turns': 100, 'limit_result': 'draw'}
    """
    return LifeForTwoState(**params)
