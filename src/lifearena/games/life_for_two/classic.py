"""Classic mode: the 1978 BASIC program LIFE2 as a game state, bugs included.

:class:`ClassicState` *is* the program between two answers: its board (the array ``N``),
the answers it keeps, whose answer it waits for, and everything it has printed. An action is
one answer ``x,y`` the program takes; applying it runs the program on to its next question,
or to its end. It follows the BASIC listing statement by statement
(:mod:`.classic_program` holds its words and arithmetic), so the transcript is the
original's, character for character:

* the known unfairness: during setup player 1's pieces are on the board before player 2
  chooses, so player 2 cannot take them (``ILLEGAL COORDS. RETYPE``);
* the known bug: when player 2 types player 1's cell on a later turn, the program prints
  ``SAME COORD.  SET TO 0``, places neither piece, and clears the cell one column right and
  one row down, ``(x + 1, y + 1)``; row or column 6 is the never-read border, so an edge
  cell's "neighbour" is harmlessly hit;
* the generation uses the original's arithmetic (a property test checks that it equals the
  engine's Immigration rule). The original ended at a missing line 800; the game simply
  ends here.

The protocol (:mod:`lifearena.core`):

* Turns are sequential: the program asks player 1 (id 0) for three cells, player 2 for
  three, then on every turn player 1 and then player 2. Information is perfect: the program
  is played at one screen and prints every answer.
* Notation: an answer as ``INPUT`` reads it, ``x,y`` (x the column, y the row, both 1..5;
  spaces and signs allowed). Actions ``0..24``: the cell ``(y - 1) * 5 + (x - 1)``, as in
  Life for Two. Legal: exactly the answers the program takes without complaint, the cells
  its check finds empty (on a later turn player 1's cell is one of them for player 2: the
  program places nothing before both have answered).
* A refused answer changes nothing, and the error says what the program says to it: a line
  that is not two integers raises :class:`RedoFromStart` (``?REDO FROM START``), an answer off
  the board :class:`~lifearena.errors.ParseError` and a cell that is not empty
  :class:`~lifearena.errors.IllegalMoveError` (the presentation's ``explain_illegal``), both
  ``ILLEGAL COORDS. RETYPE``.
* The setup is ``classic`` (the program always starts the same way) and there are no
  parameters: ``get_game("life_for_two", rules="classic")`` makes it, and its records replay
  with :func:`~lifearena.core.replay`. The outcome's detail is the program's last line.

:func:`play_classic` runs the program at a terminal, one answer a line, printing exactly
what the original printed.

>>> import io
>>> out = io.StringIO()
>>> answers = "1,1\\n2,1\\n1,2\\n3,4\\n4,4\\n5,4\\n3,2\\n3,2\\n"
>>> play_classic(io.StringIO(answers), out, echo=True)
0
>>> "SAME COORD.  SET TO 0" in out.getvalue()
True
>>> print(out.getvalue().splitlines()[-1])
PLAYER 1 IS THE WINNER
>>> state = ClassicState.from_answers(answers.split())
>>> state.transcript == out.getvalue(), state.outcome().detail
(True, 'PLAYER 1 IS THE WINNER')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Self, TextIO, cast

import numpy as np

from lifearena.core import (
    TERMINAL,
    Action,
    Chance,
    Dynamics,
    Game,
    GameInfo,
    Information,
    Outcome,
    Presentation,
    State,
    Termination,
    get_game,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.life_for_two.classic_presentation import ClassicPresentation
from lifearena.games.life_for_two.classic_program import (
    DRAW,
    HASH,
    INPUT_PROMPT,
    QUESTION,
    REDO,
    RETYPE,
    SAME,
    SETUP_CODES,
    STAR,
    TITLE,
    add_neighbours,
    basic_number,
    classic_generation,
    new_codes,
    print_board,
    read_input,
    winner_line,
)
from lifearena.games.life_for_two.notation import SIZE

CLASSIC_SETUP = "classic"
"""The setup of every game of the program: it always starts the same way."""
SETUP_PIECES = 3

CLASSIC_INFO = GameInfo(
    name="life_for_two",
    long_name="Life for Two (the 1978 program)",
    dynamics=Dynamics.SEQUENTIAL,
    chance=Chance.DETERMINISTIC,
    information=Information.PERFECT,
    num_distinct_actions=SIZE * SIZE,
    max_game_length=1_000_000,  # the program has no end but a side dying out
    player_symbols=("1", "2"),
    side_names=("player 1", "player 2"),
)
"""The program's facts: Life for Two's name (its records are Life for Two's), its own
dynamics and actions."""


class RedoFromStart(ParseError):
    """A line that is not two integers: BASIC's ``INPUT`` says ``?REDO FROM START`` and shows
    its ``? `` again (the program's question is not repeated)."""


class ClassicState(State):
    """The 1978 program waiting for an answer, or ended (see the module docstring).

    >>> state = ClassicState()
    >>> state.current_player(), state.output.splitlines()[-6:-3]
    (0, ['PLAYER 1  - 3 LIVE PIECES.', 'X,Y', 'XXXXXX'])
    >>> state.apply_action(state.string_to_action("3,2"))
    >>> state
    ClassicState.from_answers(['3,2'])
    """

    info = CLASSIC_INFO
    move_help: ClassVar[str] = ("answer the program's ? with x,y (column, row, 1..5). As in "
                                "1978, player 2 sees player 1's setup pieces: look away in turn")
    presentation: ClassVar[Presentation] = ClassicPresentation()
    """How the program looks (its transcript): its own, not the simultaneous game's."""

    def __init__(self) -> None:
        super().__init__({})
        self._codes = new_codes()  # N(row, column), the border included
        self._rows = [0, 0, 0]  # X(B): the second number player B typed (y)
        self._cols = [0, 0, 0]  # Y(B): the first number typed (x)
        self._asking = 1  # B, the player INPUT waits for
        self._to_place = 0  # setup pieces the asked player still places (0: the game proper)
        self._printed = [""]  # what the program printed before the first answer, and after each
        self._outcome: Outcome | None = None
        self._write(TITLE)
        self._begin_setup(1)

    # -- the program, between two answers --------------------------------------------------

    def _write(self, text: str) -> None:
        self._printed[-1] += text

    def _ask(self, player: int) -> None:
        """Lines 700-750: the question, then ``INPUT`` waits for ``player``'s answer."""
        self._asking = player
        self._write(QUESTION + INPUT_PROMPT)

    def _begin_setup(self, player: int) -> None:
        self._write(f"\nPLAYER{basic_number(player)} - {SETUP_PIECES} LIVE PIECES.\n")
        self._to_place = SETUP_PIECES
        self._ask(player)

    def _apply_action(self, action: Action) -> None:
        """The program takes the answer ``action`` and runs on to its next question."""
        self._printed.append("")
        b = self._asking
        row, col = divmod(int(action), SIZE)
        self._rows[b], self._cols[b] = row + 1, col + 1
        # line 741: player 2 typed player 1's cell
        same = b == 2 and (self._rows[1], self._cols[1]) == (self._rows[2], self._cols[2])
        if same:
            self._write(SAME + "\n")
            self._codes[row + 2][col + 2] = 0  # the bug: N(X + 1, Y + 1), not N(X, Y)
        if self._to_place:  # the setup: the piece goes on the board at once
            self._codes[row + 1][col + 1] = SETUP_CODES[b - 1]
            self._to_place -= 1
            if self._to_place:
                self._ask(b)
            elif b == 1:
                self._begin_setup(2)
            else:
                self._write(print_board(self._codes)[0])
                self._generation()
        elif b == 1:
            self._write(f"\n\nPLAYER{basic_number(2)}")
            self._ask(2)
        else:
            if not same:
                self._codes[self._rows[1]][self._cols[1]] = STAR
                self._codes[self._rows[2]][self._cols[2]] = HASH
            self._generation()

    def _generation(self) -> None:
        """A generation and its board, then the end or player 1's next question."""
        self._write("\n")
        add_neighbours(self._codes)
        printed, stars, hashes = print_board(self._codes)
        self._write(printed)
        if stars == 0 and hashes == 0:
            self._write(f"\n{DRAW}\n")
            self._outcome = Outcome(Termination.DRAW, None, None, DRAW)
        elif stars == 0 or hashes == 0:
            winner = 0 if hashes == 0 else 1
            line = winner_line(winner + 1)
            self._write(f"\n{line}\n")
            self._outcome = Outcome(Termination.WIN, winner, self.info.player_symbols[winner],
                                    line)
        else:
            self._write(f"\n\nPLAYER{basic_number(1)}")
            self._ask(1)

    # -- what it shows -----------------------------------------------------------------------

    @property
    def transcript(self) -> str:
        """Everything the program printed, each answer echoed after its ``? `` as a terminal
        shows it."""
        answers = [self.action_to_string(cast(int, a)) for a in self._history]
        return self._printed[0] + "".join(
            f"{answer}\n{printed}" for answer, printed in zip(answers, self._printed[1:],
                                                               strict=True))

    @property
    def output(self) -> str:
        """What the program printed after the last answer (at the start: its title and
        first question); it ends with ``? `` while the program waits."""
        return self._printed[-1]

    @property
    def asking(self) -> int | None:
        """The player the program asks, as it numbers them (1 or 2); ``None`` at the end."""
        return None if self._outcome is not None else self._asking

    @property
    def in_setup(self) -> bool:
        """Whether the program is still asking for the three setup pieces."""
        return self._outcome is None and self._to_place > 0

    @property
    def board(self) -> np.ndarray:
        """The 5x5 board as the program holds it, row 0 at the top: 0 empty, 1 a ``*`` (or
        player 1's setup piece), 2 a ``#``."""
        piece = {0: 0, SETUP_CODES[0]: 1, STAR: 1, SETUP_CODES[1]: 2, HASH: 2}
        return np.array([[piece.get(v, 0) for v in row[1:SIZE + 1]]
                         for row in self._codes[1:SIZE + 1]], dtype=np.int8)

    @property
    def pending(self) -> int | None:
        """Player 1's answer of this turn (a cell index), typed and not yet placed, while
        the program asks player 2 on a later turn."""
        if self._outcome is not None or self._to_place or self._asking != 2:
            return None
        return (self._rows[1] - 1) * SIZE + self._cols[1] - 1

    # -- protocol hooks ---------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """Life for Two with ``rules="classic"``."""
        if self._game is None:
            self._game = get_game(self.info.name, rules="classic")
        return self._game

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self._asking - 1

    def _legal_actions(self, player: int) -> list[Action]:
        """The cells the program's check takes: on the board, and ``N`` zero there."""
        return [row * SIZE + col for row in range(SIZE) for col in range(SIZE)
                if self._codes[row + 1][col + 1] == 0]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def action_to_string(self, action: Action, player: int | None = None) -> str:
        if not 0 <= int(action) < SIZE * SIZE:
            raise ParseError(f"action {action} out of range; expected 0..{SIZE * SIZE - 1}")
        row, col = divmod(int(action), SIZE)
        return f"{col + 1},{row + 1}"

    def string_to_action(self, text: str, player: int | None = None) -> Action:
        """The answer ``text`` as ``INPUT`` reads it; raises with what the program says to a
        line it cannot read (:class:`RedoFromStart`) or to a cell off the board.

        >>> ClassicState().string_to_action(" 3, 2")
        7
        >>> ClassicState().string_to_action("6,1")
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: ILLEGAL COORDS. RETYPE
        """
        numbers = read_input(text.rstrip("\r\n"))
        if numbers is None:
            raise RedoFromStart(REDO)
        try:
            col, row = int(numbers[0]), int(numbers[1])
        except ValueError:  # thousands of digits: far off the board
            raise ParseError(RETYPE) from None
        if not (0 < row <= SIZE and 0 < col <= SIZE):
            raise ParseError(RETYPE)
        return (row - 1) * SIZE + col - 1

    def observation(self, player: int) -> np.ndarray:
        """Planes: the player's own pieces, the other's, player 1's answer not yet placed
        (while player 2 is asked on a later turn), and all ones during the setup."""
        board = self.board
        own, other = (1, 2) if player == 0 else (2, 1)
        planes = np.zeros((4, SIZE, SIZE), dtype=np.int8)
        planes[0] = board == own
        planes[1] = board == other
        if self.pending is not None:
            planes[2].flat[self.pending] = 1
        planes[3] = 1 if self.in_setup else 0
        return planes

    def setup(self) -> str:
        return CLASSIC_SETUP

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        """The program's start: ``setup`` is ``classic``, and the program takes no
        parameters."""
        if setup.strip() != CLASSIC_SETUP:
            raise ParseError(f"setup {setup!r:.40} of the 1978 program; expected "
                             f"{CLASSIC_SETUP!r} (it always starts the same way)")
        if params:
            raise BadParameterError(f"the 1978 program takes no parameters; got "
                                    f"{', '.join(sorted(params))}")
        return cls()

    @classmethod
    def from_answers(cls, answers: Sequence[str]) -> Self:
        """The program after ``answers``, each checked as it is typed."""
        state = cls()
        for answer in answers:
            state.apply_action(state.read_move(answer))
        return state

    def __repr__(self) -> str:
        return f"ClassicState.from_answers({self.history_strings()!r})"


def play_classic(answers: TextIO | Iterable[str], out: TextIO, *, echo: bool = False,
                 state: ClassicState | None = None) -> int | None:
    """Play the original program at a terminal: read answers (lines ``x,y``), write what it
    prints to ``out``; ``state`` (a fresh program by default) is played on, so a caller can
    keep its record.

    Returns the winner (0 for player 1, 1 for player 2) or ``None`` for a draw. With
    ``echo=True`` the answers are written after ``? `` as a terminal echoes typed input, so
    the output alone is the full transcript. A refused line gets the program's complaint and
    its prompt again. When the input ends before the game does, :class:`ParseError` is
    raised after everything so far has been written.
    """
    if state is None:
        state = ClassicState()
    out.write(state.output)
    lines = iter(answers)
    while not state.is_terminal():
        try:
            line = next(lines).rstrip("\r\n")
        except StopIteration:
            out.write("\n")
            raise ParseError(f"the input ended while player {state.asking} was choosing a "
                             "cell; expected one x,y line per answer") from None
        if echo:
            out.write(line + "\n")
        try:
            action = state.read_move(line)
        except RedoFromStart as refused:
            out.write(f"{refused}\n{INPUT_PROMPT}")
        except (ParseError, IllegalMoveError) as refused:
            out.write(f"{refused}\n{QUESTION}{INPUT_PROMPT}")
        else:
            state.apply_action(action)
            out.write(state.output)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winner


__all__ = ["CLASSIC_INFO", "CLASSIC_SETUP", "TITLE", "ClassicState", "RedoFromStart",
           "basic_number", "classic_generation", "play_classic"]
