"""Losat ("Life, One Step at a Time"): Conway's Life played one change per turn on a Go board.

Rules (the inventor's 2009 blog post, with our readings made parameters)
------------------------------------------------------------------------
Black (``b``, player 0, drawn ``X``) and White (``w``, player 1, drawn ``O``) play on a
``width`` x ``length`` board (default 19 x 19); points off the board are empty, nothing wraps.
On a turn the player makes exactly one change, to a stone of **either** colour, only where
Conway's rules allow it, counting the 8 surrounding points:

* **remove** a stone that has fewer than 2 or more than 3 neighbours of its own colour;
* **add** a stone of colour c on an empty point with exactly 3 neighbours of colour c;
* **capture** a stone with exactly 3 neighbours of the opposite colour: it is replaced by a
  stone of that opposite colour, and the player of that colour scores a capture, whoever
  made the move.

A player wins when a stone of their colour stands on their **goal line** (the row at the back
of the opponent's starting heptomino, its far side as seen from the middle), or with
``captures_to_win`` (5) captures. Both are checked after every move; when one move satisfies
both players' conditions, the mover wins. **Positional superko**: a move may not recreate an
arrangement of stones seen before in this game (the start included), whoever is to move.
A player with no legal move must pass: ``pass`` is an action that is legal exactly then (the
one exception to superko, since it changes no stone); two passes in a row end the game in a
draw (``Termination.PASSES``). Superko bounds the game, but only astronomically, so
``max_moves`` (default 400 plies, passes included) ends a game still running as a draw
(``Termination.EXHAUST``). Black moves first unless ``first="w"``.

Parameters (stored in ``state.params`` and in every record):

====================  =========  ======================================================
``width``             19         columns, 5..25 (Go letters A..Z without I)
``length``            19         rows, at least ``gap + 6`` and at most 99
``offset``            1          White's heptomino lies this many columns right of Black's
``gap``               3          empty rows between the two heptominoes' open ends
``first``             ``"b"``    who moves first: ``"b"`` or ``"w"``
``own_colour_only``   False      a player may only remove or add stones of their own
                                 colour, and capture only opponent stones
``capture_or_more``   False      a capture needs 3 *or more* opposite neighbours
``neighbours``        8          8 (Moore) or 4 (von Neumann) neighbour counting
``captures_to_win``   5          captures that win the game
``max_moves``         400        plies after which an unfinished game is drawn
====================  =========  ======================================================

Coordinates and the default start
---------------------------------
Go coordinates: columns ``A``..``T`` skipping ``I``, rows numbered from 1 at the bottom.
The two pi-heptominoes open towards each other with ``gap`` empty rows between their open
ends; Black's is centred on the middle column (K), White's ``offset`` columns to the right
(L). Black's goal line is row 14 (the back of White's heptomino), White's is row 6::

       A B C D E F G H J K L M N O P Q R S T
    14 . . . . . . . . . O O O . . . . . . . 14   <- b goal (back of White's heptomino)
    13 . . . . . . . . . O . O . . . . . . . 13
    12 . . . . . . . . . O . O . . . . . . . 12
    11 . . . . . . . . . . . . . . . . . . . 11
    10 . . . . . . . . . . . . . . . . . . . 10   (middle row)
     9 . . . . . . . . . . . . . . . . . . .  9
     8 . . . . . . . . X . X . . . . . . . .  8
     7 . . . . . . . . X . X . . . . . . . .  7
     6 . . . . . . . . X X X . . . . . . . .  6   <- w goal (back of Black's heptomino)

Black: J6 K6 L6 J7 L7 J8 L8; White: K12 M12 K13 M13 K14 L14 M14. The goal lines follow from
``length`` and ``gap`` (not from the stones of a set-up position). "Standing on" the goal line
is read literally; from the start it is the same as "reaching": a stone can only appear next
to stones of its colour, so the first stone of a colour at or beyond its goal row is on it.

Notation and set-up positions
-----------------------------
Moves (``+bD4``, ``-D4``, ``xD4``, ``pass``), their dense action numbers and the position
notation (a FEN-like line) are read and written by :mod:`lifearena.games.losat.notation`;
the text board and what a person clicks, by :mod:`lifearena.games.losat.presentation`.

A game set up from a position starts its superko memory and its move count there. A
position whose game is already decided is refused with a ``ParseError`` rather than played
on: a capture count at or above ``captures_to_win``, or a stone on its own colour's goal line
(the rules end the game as soon as either happens, so no legal game passes through such a
position, and playing on would award a win the position already holds).

>>> state = new_game()
>>> [state.action_to_string(a) for a in state.legal_actions()]  # doctest: +NORMALIZE_WHITESPACE
['-L14', '-K12', '-M12', '-J8', '-L8', '-K6', '+bH7', '+bM7', '+bK5', '+wL15', '+wJ13',
 '+wN13']
>>> state.apply_move_text("+bK5")
636
>>> state.position()
'19/19/19/19/19/9www7/9w1w7/9w1w7/19/19/19/8b1b8/8b1b8/8bbb8/9b9/19/19/19/19 w 0-0 0'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Self

import numpy as np

from lifearena.caps import MAX_MOVES
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
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.losat import evaluation as losat_eval
from lifearena.games.losat import fast
from lifearena.games.losat.geometry import Geometry
from lifearena.games.losat.notation import (
    ADD_BLACK,
    ADD_WHITE,
    BLACK,
    CAPTURE,
    MAX_LENGTH,
    MAX_WIDTH,
    SYMBOLS,
    WHITE,
    Move,
    format_position,
    parse_position,
)
from lifearena.params import ParamSpec, check_values

SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("width", "int", 19, low=5, high=MAX_WIDTH, label="Width", served=(9, 25),
              help="board width (columns)"),
    ParamSpec("length", "int", 19, low=6, high=MAX_LENGTH, label="Length", served=(9, 25),
              help="board length (rows)"),
    ParamSpec("own_colour_only", "bool", False, label="Own colour only",
              help="change only your own stones, capture only the opponent's"),
    ParamSpec("capture_or_more", "bool", False, label="Capture with 3 or more",
              help="a capture needs 3 or more opposite neighbours, not exactly 3"),
    ParamSpec("neighbours", "choice", 8, choices=(8, 4), label="Neighbourhood",
              help="8 surrounding points (Moore) or 4 (von Neumann)"),
    ParamSpec("captures_to_win", "int", 5, low=1, high=1000, label="Captures to win",
              served=(1, 20)),
    ParamSpec("first", "choice", "b", choices=SYMBOLS, label="First to move",
              help="who moves first: b or w"),
    ParamSpec("offset", "int", 1, low=-MAX_WIDTH, high=MAX_WIDTH, served=False,
              label="Offset", help="columns between the heptominoes' centres"),
    ParamSpec("gap", "int", 3, low=0, high=MAX_LENGTH - 6, served=False, label="Gap",
              help="empty rows between the heptominoes"),
    ParamSpec("max_moves", "int", 400, low=1, high=MAX_MOVES, served=False,
              label="Move limit", help="moves after which the game is drawn"),
)
"""Losat's parameters: every one is a rule (the start is always the two heptominoes)."""
DEFAULTS: dict[str, Any] = {spec.name: spec.default for spec in SPECS}

def check_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The full parameter dict (defaults filled in), or :class:`BadParameterError`: each
    value against its spec in :data:`SPECS`, then the ones that constrain each other.

    >>> check_params({"width": 9})["length"]
    19
    >>> check_params({"neighbours": 6})
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: losat parameter neighbours=6; expected one of 8, 4
    """
    return check_together(check_values(SPECS, _plain(params), "losat"))


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    """numpy scalars (a position's shape, an array's count) as the Python values specs take."""
    return {k: v.item() if isinstance(v, np.generic) else v for k, v in params.items()}


def check_together(p: dict[str, Any]) -> dict[str, Any]:
    """``p`` (each value already checked against its spec), or :class:`BadParameterError` for
    values that do not fit together: a board too short for the heptominoes and their gap, or
    an offset that puts a heptomino off the board."""
    if p["gap"] + 6 > p["length"]:
        raise BadParameterError(f"length={p['length']}; expected {p['gap'] + 6}..{MAX_LENGTH} "
                                f"(two heptominoes and a gap of {p['gap']} rows)")
    black_centre, white_centre = _centres(p["width"], p["offset"])
    if min(black_centre, white_centre) < 1 or max(black_centre, white_centre) > p["width"] - 2:
        raise BadParameterError(f"offset={p['offset']} puts a heptomino off the "
                                f"{p['width']}-wide board")
    return p


def _centres(width: int, offset: int) -> tuple[int, int]:
    """Column indices of the centres of Black's and White's heptominoes."""
    black = (width - 1) // 2 - offset // 2
    return black, black + offset


def _start_rows(length: int, gap: int) -> tuple[int, int]:
    """Row indices (0 = top) of the back rows of White's and Black's heptominoes."""
    top = (length - (6 + gap)) // 2
    return top, top + 5 + gap


def goal_rows(params: Mapping[str, Any]) -> tuple[int, int]:
    """Row indices (0 = top row) of Black's and White's goal lines.

    >>> goal_rows(DEFAULTS)  # rows 14 and 6 in Go numbering
    (5, 13)
    """
    return _start_rows(params["length"], params["gap"])


def start_board(params: Mapping[str, Any]) -> np.ndarray:
    """The default start as a ``(length, width)`` int8 array (row 0 = top)."""
    p = check_params(params)
    board = np.zeros((p["length"], p["width"]), dtype=np.int8)
    white_back, black_back = _start_rows(p["length"], p["gap"])
    black_c, white_c = _centres(p["width"], p["offset"])
    pi = np.array([[1, 1, 1], [1, 0, 1], [1, 0, 1]], dtype=np.int8)
    board[white_back:white_back + 3, white_c - 1:white_c + 2] = 2 * pi
    board[black_back - 2:black_back + 1, black_c - 1:black_c + 2] = pi[::-1]
    return board


class LosatState(State):
    """A Losat position. Make one with :func:`new_game` or :func:`from_setup`.

    Incremental state: the board (flat int8, 0 empty / 1 black / 2 white), the per-colour
    neighbour counts of every point (updated on each change, so legal moves are one pass over
    the points), the Zobrist hash of the arrangement, and the set of hashes seen (superko).
    The rules themselves (what a change needs and does, the hashing, the ending) are said
    once in :mod:`lifearena.games.losat.fast`, which the compiled paths share.
    """

    move_help: ClassVar[str] = ("+bD4 / +wD4 add (+D4 your own colour), -D4 remove, xD4 capture, "
                                "pass")
    info = GameInfo(
        name="losat",
        long_name="Losat (Life, One Step at a Time)",
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.DETERMINISTIC,
        information=Information.PERFECT,
        num_distinct_actions=4 * 19 * 19 + 1,
        max_game_length=DEFAULTS["max_moves"],
        player_symbols=SYMBOLS,
        side_names=("black", "white"),
        parameters=dict(DEFAULTS),
    )

    def __init__(self, board: np.ndarray, side: int, captures: tuple[int, int] = (0, 0),
                 passes: int = 0, **params: Any) -> None:
        p = check_params(params)
        super().__init__(p)
        board = np.asarray(board, dtype=np.int8)
        if board.shape != (p["length"], p["width"]):
            raise BadParameterError(f"position is {board.shape[1]} wide and {board.shape[0]} "
                                    f"long; the parameters say {p['width']} x {p['length']}")
        if board.size and (board.min() < 0 or board.max() > 2):
            raise BadParameterError("board values must be 0 (empty), 1 (black) or 2 (white)")
        if side not in (BLACK, WHITE):
            raise BadParameterError(f"side to move {side!r}; expected 0 (b) or 1 (w)")
        if passes not in (0, 1):
            raise BadParameterError(f"passes={passes}; expected 0 or 1")
        geo = Geometry.get(p["width"], p["length"], p["neighbours"])
        # the action space and the move cap depend on the parameters, so each state carries
        # its own copy of the static facts (the class attribute describes the defaults)
        self.info = replace(type(self).info, num_distinct_actions=4 * geo.size + 1,
                            max_game_length=p["max_moves"], parameters=dict(p))
        self._geo = geo
        self._n = geo.size
        self._board = board.reshape(-1).copy()
        self._counts = np.zeros((2, geo.size), dtype=np.int16)
        for point in np.flatnonzero(self._board):
            self._counts[self._board[point] - 1, geo.adjacent[point]] += 1
        self._hash = 0
        for point in np.flatnonzero(self._board):
            self._hash ^= geo.zobrist[self._board[point] - 1][point]
        self._seen: set[int] = {self._hash}
        self._to_move = side
        self._captures = [int(captures[0]), int(captures[1])]
        self._passes = passes
        self._ply = 0
        self._outcome: Outcome | None = None
        self._last: int | None = None
        self._legal_cache: list[int] | None = None
        self._undo_stack: list[tuple[Any, ...]] = []
        self._goal = goal_rows(p)
        rows = self._board.reshape(p["length"], p["width"])
        self._goals = np.array(self._goal, dtype=np.int64)
        self._on_goal = np.array([np.count_nonzero(rows[self._goal[c]] == c + 1)
                                  for c in (0, 1)], dtype=np.int64)
        self._initial = format_position(board, side, (self._captures[0], self._captures[1]),
                                        passes)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        board, side, captures, passes = parse_position(setup)
        length, width = board.shape
        given = {"width": width, "length": length}
        for key, value in given.items():
            if key in params and params[key] != value:
                raise BadParameterError(f"position is {width} wide and {length} long but "
                                        f"{key}={params[key]}")
        params = {**params, **given}
        if side is None:
            side = SYMBOLS.index(params.get("first", DEFAULTS["first"]))
        state = cls(board, side, captures, passes, **params)
        _refuse_decided(state, setup)
        return state

    def setup(self) -> str:
        return self._initial

    def position(self) -> str:
        """The current position in the position notation."""
        return format_position(self.board, self._to_move, self.captures(), self._passes)

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.params = dict(self.params)
        twin._history = list(self._history)
        twin._board = self._board.copy()
        twin._counts = self._counts.copy()
        twin._seen = set(self._seen)
        twin._captures = list(self._captures)
        twin._on_goal = self._on_goal.copy()
        twin._legal_cache = None
        twin._undo_stack = list(self._undo_stack)
        return twin

    # -- read access -------------------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        """The board as a ``(length, width)`` int8 array, row 0 = top row (a read-only copy:
        a search changes the state's own board in place)."""
        board = self._board.reshape(self.params["length"], self.params["width"]).copy()
        board.flags.writeable = False
        return board

    def captures(self) -> tuple[int, int]:
        """Captures scored by Black and by White."""
        return self._captures[0], self._captures[1]

    def neighbour_counts(self) -> np.ndarray:
        """``(2, length, width)`` counts of black and white neighbours of every point."""
        return self._counts.reshape(2, self.params["length"], self.params["width"]).copy()

    def zobrist_hash(self) -> int:
        """The Zobrist hash of the stone arrangement (side to move and captures excluded)."""
        return self._hash

    def seen_hashes(self) -> frozenset[int]:
        """The arrangement hashes this game has been through (superko memory)."""
        return frozenset(self._seen)

    def last_action(self) -> int | None:
        return self._last

    def goal_rows(self) -> tuple[int, int]:
        """Row indices (0 = top) of Black's and White's goal lines."""
        return self._goal

    def plies(self) -> int:
        """Moves (passes included) played since the setup."""
        return self._ply

    # -- protocol ------------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._to_move

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _legal_actions(self, player: int) -> list[Action]:
        if self._legal_cache is not None:
            return list(self._legal_cache)
        n = self._n
        actions = np.empty(4 * n, dtype=np.int64)
        hashes = np.empty(4 * n, dtype=np.uint64)
        count = fast.candidates(self._board, self._counts, self._geo.zobrist_table,
                                np.uint64(self._hash), player, self.params["own_colour_only"],
                                self.params["capture_or_more"], actions, hashes)
        seen = self._seen
        legal = [action for action, h in zip(actions[:count].tolist(),
                                             hashes[:count].tolist(), strict=True)
                 if h not in seen]
        if not legal:
            legal = [4 * n]
        self._legal_cache = legal
        return list(legal)

    def _set_point(self, point: int, value: int) -> None:
        geo = self._geo
        self._hash = int(fast.set_point(self._board, self._counts, geo.adjacent_table,
                                        geo.degree, geo.zobrist_table, np.uint64(self._hash),
                                        self._on_goal, self._goals, geo.width, point, value))

    def _apply_action(self, action: Action) -> None:
        self._do(action)

    # -- make and unmake, and the search's hooks (lifearena.core.Undo and friends) ---------------

    def push(self, action: Action) -> None:
        """Play the legal ``action`` without checking it, so that :meth:`pop` can take it
        back (the superko memory stays exact along a search's path)."""
        self._do(int(action))
        self._history.append(int(action))

    def pop(self) -> Action:
        """Take back the last move and return it.

        >>> state = new_game()
        >>> key, first = state.key(), state.legal_actions()[0]
        >>> state.push(first); state.pop() == first, state.key() == key, state.history()
        (True, True, [])
        """
        if not self._undo_stack:
            raise IllegalMoveError("no move to take back")
        self._undo()
        action = self._history.pop()
        return action  # type: ignore[return-value]

    def key(self) -> tuple[int, int, int, int]:
        """A transposition key: the Zobrist hash of the stones, the side to move and both
        capture counts (what decides the game from here, but for the superko memory)."""
        return (self._hash, self._to_move, self._captures[0], self._captures[1])

    def order_actions(self, actions: Sequence[Action], player: int) -> list[Action]:
        """``actions`` in the order a search should try them: captures of the opponent's
        stones, ``player``'s additions nearest its goal line, removals of the opponent's
        lead stones, the rest (passes and self-harm last)."""
        n = self._n
        width = self._geo.width
        own = player + 1
        goal, other_goal = self._goal[player], self._goal[1 - player]
        cells = self._board

        def score(action: int) -> float:
            kind, point = divmod(action, n)
            if kind == 4:
                return 0.0
            row = point // width
            if kind == CAPTURE:
                return (300.0 if cells[point] != own else -100.0) - abs(row - goal)
            if kind in (ADD_BLACK, ADD_WHITE):
                return (200.0 - abs(row - goal)) if kind == own else -50.0
            if cells[point] != own:  # a removal
                return 100.0 - abs(row - other_goal)
            return -10.0

        return sorted(actions, key=score, reverse=True)

    def lead_share(self, player: int) -> float:
        """The share (up to 5 stones) of ``player``'s stones on its two most advanced rows:
        a broad front survives the removal of its lead stone."""
        rows = np.flatnonzero(self._board == player + 1) // self._geo.width
        if not rows.size:
            return 0.0
        if player == BLACK:  # Black advances towards row 0
            k = np.count_nonzero(rows <= rows.min() + 1)
        else:
            k = np.count_nonzero(rows >= rows.max() - 1)
        return min(int(k), 5) / 5

    def _do(self, action: Action) -> None:
        """Play ``action`` without legality check or history (search agents pair it with
        :meth:`_undo`)."""
        n = self._n
        mover = self._to_move
        kind, point = divmod(action, n)
        old = int(self._board[point]) if kind < 4 else 0
        added = False
        self._undo_stack.append((action, old, self._passes, self._outcome, self._last,
                                 tuple(self._captures), self._hash))
        self._legal_cache = None
        if kind == 4:
            self._passes += 1
        else:
            self._passes = 0
            value, scorer = fast.change_result(kind, old)
            self._set_point(point, value)
            if scorer >= 0:
                self._captures[scorer] += 1
            added = self._hash not in self._seen
            self._seen.add(self._hash)
        self._undo_stack[-1] += (added,)
        self._ply += 1
        self._to_move = 1 - mover
        self._last = action
        self._outcome = self._judge(mover)

    def _undo(self) -> None:
        """Take back the last :meth:`_do`."""
        action, old, passes, outcome, last, captures, h, added = self._undo_stack.pop()
        kind, point = divmod(action, self._n)
        if kind < 4:
            if added:
                self._seen.discard(self._hash)
            self._set_point(point, old)
        self._passes = passes
        self._outcome = outcome
        self._last = last
        self._captures = list(captures)
        self._ply -= 1
        self._to_move = 1 - self._to_move
        self._legal_cache = None
        assert self._hash == h

    def _judge(self, mover: int) -> Outcome | None:
        """The outcome after ``mover``'s move, or ``None`` (the rules:
        :func:`lifearena.games.losat.fast.ending`)."""
        p = self.params
        code = fast.ending(int(self._on_goal[BLACK]), int(self._on_goal[WHITE]),
                           self._captures[BLACK], self._captures[WHITE], p["captures_to_win"],
                           self._passes, self._ply, p["max_moves"], mover)
        if code == fast.GOES_ON:
            return None
        if code == fast.PASSES_DRAW:
            return Outcome(Termination.PASSES, None, None, "two passes in a row")
        if code == fast.EXHAUST:
            return Outcome(Termination.EXHAUST, None, None, f"{p['max_moves']} moves played")
        winner = fast.winner(code)
        if code & fast.BY_CAPTURES:
            termination, detail = Termination.CAPTURES, f"{self._captures[winner]} captures"
        else:
            termination, detail = Termination.GOAL, "goal line reached"
        if code & fast.BOTH:
            detail += "; both won, the mover takes it"
        return Outcome(termination, winner, SYMBOLS[winner], detail)

    # -- notation (lifearena.games.losat.notation) ----------------------------------------------

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        return str(Move.from_action(action, self.params["width"], self.params["length"]))

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        mover = self._to_move if player is None or player < 0 else player
        width, length = self.params["width"], self.params["length"]
        return Move.parse(text, mover=mover, width=width, length=length).action(width, length)

    # -- views -----------------------------------------------------------------------------------

    def observation(self, player: int) -> np.ndarray:
        """Two int8 planes ``(2, length, width)``: black stones, white stones (row 0 = top)."""
        board = self._board.reshape(self.params["length"], self.params["width"])
        return np.stack((board == 1, board == 2)).astype(np.int8)

    # -- the default heuristic (the arithmetic lives in losat_eval, on plain arrays) -----------

    def features(self) -> np.ndarray:
        """The eight raw counts behind the heuristic (:data:`losat_eval.FEATURES
        <lifearena.games.losat.evaluation.FEATURES>`), from one pass over the board."""
        return losat_eval.board_features(self._board, self._counts, self.params["width"],
                                         or_more=self.params["capture_or_more"])

    def terms(self, features: np.ndarray | None = None) -> dict[str, float]:
        """The heuristic's four terms (progress, captures, material, mobility), from Black's
        side, each in [-1, 1]; see :mod:`lifearena.games.losat.evaluation`."""
        p = self.params
        return losat_eval.heuristic_terms(
            self.features() if features is None else features, length=p["length"],
            goals=self._goal, captures=self.captures(), captures_to_win=p["captures_to_win"])

    def evaluate(self, player: int) -> float:
        """Heuristic in [-1, 1] for ``player``; see :mod:`lifearena.games.losat.evaluation`.

        >>> new_game().evaluate(0)  # the start is symmetric but for the offset
        0.0
        """
        if self.is_terminal():
            return self.returns()[player]
        return losat_eval.squash(self.terms(), player)

    def evaluate_and_liveness(self, player: int) -> tuple[float, int, int]:
        """:meth:`evaluate` of a non-terminal state and :meth:`liveness`, from one board pass."""
        f = self.features()
        return losat_eval.squash(self.terms(f), player), int(f[6]), int(f[7])

    def liveness(self) -> tuple[int, int]:
        """How many Life changes touch each colour: ``(black, white)``.

        A change touches a colour when it removes, adds or captures a stone of that colour,
        or captures a stone into it. A colour with none is **frozen**: its stones form still
        lifes that nothing on the board can disturb, so it can never reach its goal line.
        When both colours are frozen no move is left at all and the game ends in two passes.

        >>> new_game().liveness()
        (6, 6)
        >>> from_setup("6/1bb3/1bb1ww/4ww/6/6 b", gap=0).liveness()  # two blocks
        (0, 0)
        """
        f = self.features()
        return int(f[6]), int(f[7])

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items()
                   if k not in ("width", "length") and v != DEFAULTS[k]}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"losat.from_setup({self.position()!r}{extra})"


def _refuse_decided(state: LosatState, setup: str) -> None:
    """A ParseError if the game of ``state`` (just set up from ``setup``) is already over."""
    target = state.params["captures_to_win"]
    for player, count in enumerate(state.captures()):
        if count >= target:
            raise ParseError(f"position {setup!r}: {SYMBOLS[player]} already has {count} "
                             f"captures and captures_to_win={target} (the game is over); "
                             f"expected at most {target - 1} captures each")
    board = state.board
    for player, row in enumerate(state.goal_rows()):
        if (board[row] == player + 1).any():
            raise ParseError(f"position {setup!r}: a {SYMBOLS[player]} stone already stands on "
                             f"{SYMBOLS[player]}'s goal line (row {board.shape[0] - row}; the "
                             "game is over); expected none there")


def new_game(**params: Any) -> LosatState:
    """A game at the default start (two pi-heptominoes) with the given parameters.

    >>> new_game().setup() == new_game(width=19).setup()
    True
    >>> len(new_game().legal_actions())
    12
    """
    p = check_params(params)
    board = start_board(p)
    return LosatState(board, SYMBOLS.index(p["first"]), **p)


def from_setup(setup: str, **params: Any) -> LosatState:
    """A game starting at the position ``setup`` (position notation), with ``params``.

    >>> from_setup("5/5/5/5/.bbb./5 w", gap=0).current_player()
    1
    """
    return LosatState.from_setup(setup, **params)
