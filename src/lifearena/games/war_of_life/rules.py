"""War of Life's rules: the state of :mod:`lifearena.core`'s protocol (the coursework's
Prolog program is the reference).

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
  no move counted). Both colours dying in one crank is therefore a draw. These rules are said
  once, in :func:`lifearena.games.war_of_life.fast.ending`, for this state, its batched
  children and the compiled whole games alike.
* Observations are 3 int8 planes: the observer's pieces, the opponent's pieces, and a plane of
  ones when the observer is to move.

Moves, actions and positions are written as :mod:`~lifearena.games.war_of_life.notation`
says.

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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np

from lifearena.core import (
    TERMINAL,
    Action,
    Chance,
    Dynamics,
    GameInfo,
    Information,
    Outcome,
    State,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.war_of_life.fast import GOES_ON, MAX_MOVES, OUTCOMES, ending, endings
from lifearena.games.war_of_life.notation import (
    BLUE,
    DIRECTIONS,
    EMPTY,
    NUM_ACTIONS,
    RED,
    SIZE,
    SYMBOLS,
    TARGETS,
    Move,
    board_to_prolog,
    cells_of,
    prolog_to_board,
)
from lifearena.life.rules import Rule
from lifearena.life.step import step

PIECES = 12
"""Pieces of each colour in a random start."""

IMMIGRATION = Rule.named("immigration")

_SOURCES = np.arange(NUM_ACTIONS) // 8
_SAFE_TARGETS = np.array([t if t >= 0 else SIZE * SIZE for t in TARGETS])
"""Targets with the ones off the board sent to an extra, always occupied cell (index 64)."""
_OFF_BOARD = np.array([BLUE], dtype=np.int8)
"""That extra cell's content (any piece)."""
_END_VALUES = np.array([[np.nan if o is None else o.returns()[p] for o in OUTCOMES]
                        for p in (0, 1)])
"""``_END_VALUES[player, code]``: what an ending code is worth to ``player`` (+1, -1 or 0)."""


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


# -- the board --------------------------------------------------------------------------------


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
        # a side without pieces has no move: its moves need not be listed
        has_move = (red if self._to_move else blue) > 0 and bool(self._moves_of(self._to_move))
        return OUTCOMES[ending(blue, red, self._moves, has_move)]

    def _moves_of(self, player: int) -> list[Action]:
        """``player``'s moves, sorted (kept for the board as it stands: boards are replaced,
        never changed in place)."""
        cached = self._moves_cache
        if cached is not None and cached[0] == player:
            return list(cached[1])
        cells = np.concatenate((self._board.reshape(-1), _OFF_BOARD))  # cell 64: off the board
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
        blocked = ~legal_mask(after, 1 - mover).reshape(n, -1).any(axis=1)
        blues, reds = (own, other) if player == 0 else (other, own)
        codes = endings(blues, reds, self._moves + 1, ~blocked)
        terminal = codes != GOES_ON
        values = np.where(terminal, _END_VALUES[player, codes], values)
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
        return cells_of(self._board, player + 1)

    def to_prolog(self) -> str:
        """The position in the coursework's Prolog form (blue list, red list, sorted)."""
        return board_to_prolog(self._board)

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


def new_game(seed: int = 0) -> WarOfLifeState:
    """A game from the random start that ``seed`` makes (blue to move).

    >>> new_game(seed=7).to_prolog() == new_game(seed=7).to_prolog()
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise BadParameterError(f"seed {seed!r}; expected a non-negative integer")
    return WarOfLifeState(random_board(int(seed)), 0, 0, seed=int(seed))


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
