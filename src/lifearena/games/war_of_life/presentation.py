"""How a War of Life position looks and how a person picks a move: the text boards, what a
page draws (the crank's births and deaths included), the cells of a move, why a move is
illegal, and what the board asks of a person (a piece of theirs, then an empty neighbouring
cell).

>>> from lifearena.games.war_of_life.rules import from_prolog
>>> shown = WarOfLifePresentation()
>>> state = from_prolog("[[[1,2]],[[8,8]]]")
>>> print(shown.text(state).splitlines()[2])
1 | . b . . . . . . |
>>> shown.interaction(state, 0).prompt
'move one of your pieces to an empty neighbouring cell'
>>> shown.choices(state, 0)[0]
MoveChoice(action=11, text='[1,2,1,1]', cells=((0, 1), (0, 0)), label='move', detail='')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lifearena.core import (
    Action,
    Interaction,
    InteractionKind,
    Look,
    Presentation,
    RulesCard,
    Side,
    State,
)
from lifearena.errors import BadParameterError
from lifearena.games._display import grid_display
from lifearena.games.war_of_life.card import rules_card
from lifearena.games.war_of_life.fast import MAX_MOVES
from lifearena.games.war_of_life.notation import (
    ACTION_TEXT,
    BLUE,
    EMPTY,
    NUM_ACTIONS,
    RED,
    SIZE,
    SYMBOLS,
    TARGETS,
)
from lifearena.games.war_of_life.rules import WarOfLifeState

STYLES = ("clear", "coursework")
"""The text boards: with coordinates and ``.`` for empty, or the coursework's layout."""


def _war_of_life(state: State) -> WarOfLifeState:
    if not isinstance(state, WarOfLifeState):
        raise BadParameterError(f"War of Life's presentation shows War of Life positions; got "
                                f"a {type(state).__name__}")
    return state


class WarOfLifePresentation(Presentation):
    """War of Life's boards, in text and for pages, and its moves as a person picks them."""

    look = Look(sides=(Side("Blue", "#2f6db3"), Side("Red", "#c4453c")))

    def text(self, state: State) -> str:
        """The clear board and the status line (what ``str(state)`` prints)."""
        return self.board_text(state, "clear") + "\n" + self.status(state)

    def board_text(self, state: State, style: str = "clear") -> str:
        """The board as text: ``"clear"`` (coordinates, ``.`` for empty) or ``"coursework"``
        (the Prolog program's layout: column header, a frame, ``b``/``r`` cells).

        >>> from lifearena.games.war_of_life.rules import from_prolog
        >>> print(WarOfLifePresentation().board_text(from_prolog("[[[1,2]],[[8,8]]]"),
        ...                                          "coursework"))
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
        board = _war_of_life(state).board
        cells = [[(" br" if style == "coursework" else ".br")[v] for v in row]
                 for row in board.tolist()]
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

    def status(self, state: State) -> str:
        """One line: piece counts, moves played, and who is to move or how the game ended.

        >>> from lifearena.games.war_of_life.rules import from_prolog
        >>> WarOfLifePresentation().status(from_prolog("[[[1,2]],[[8,8]]]", to_move="r"))
        'b 1, r 1, 0 moves played, r to move'
        """
        position = _war_of_life(state)
        board = position.board
        blue = int(np.count_nonzero(board == BLUE))
        red = int(np.count_nonzero(board == RED))
        outcome = position.outcome()
        tail = f"{SYMBOLS[position.to_move]} to move" if outcome is None else str(outcome)
        return f"b {blue}, r {red}, {position.moves_played} moves played, {tail}"

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """The board for pages: blue 1, red 2; ``before`` is the board after the last move and
        before its crank, so a page can animate the crank's births and deaths.

        >>> from lifearena.games.war_of_life.rules import from_prolog
        >>> state = from_prolog("[[[1,4],[2,3]],[[8,8]]]")
        >>> state.apply_action(state.string_to_action("2,3,1,3"))
        >>> data = WarOfLifePresentation().display(state)
        >>> data["counts"], data["deaths"], data["last_move"] == data["last"] == [[1, 2], [0, 2]]
        ([0, 0], [[0, 2], [0, 3], [7, 7]], True)
        """
        position = _war_of_life(state)
        board = position.board
        crank = position.last_crank
        before = None
        last: list[list[int]] = []
        if crank.move is not None:
            before = board.copy()
            for row, col, _ in crank.births:
                before[row - 1, col - 1] = EMPTY
            for row, col, symbol in crank.deaths:
                before[row - 1, col - 1] = SYMBOLS.index(symbol) + 1
            move = crank.move
            last = [[move.r1 - 1, move.c1 - 1], [move.r2 - 1, move.c2 - 1]]
        return grid_display(
            board, before,
            counts=(int(np.count_nonzero(board == BLUE)), int(np.count_nonzero(board == RED))),
            last_move=last, last=last, status=f"move {position.moves_played + 1} of {MAX_MOVES}",
            cell_name="{row},{col}",  # the notation's order: row first, as in [r1,c1,r2,c2]
        )

    def action_cells(self, state: State, action: Action) -> list[tuple[int, int]]:
        """The piece's cell, then its target (0-based row, column).

        >>> from lifearena.games.war_of_life.rules import from_prolog
        >>> from lifearena.games.war_of_life.notation import Move
        >>> WarOfLifePresentation().action_cells(from_prolog("[[[1,1]],[[8,8]]]"),
        ...                                      Move(1, 1, 2, 2).action)
        [(0, 0), (1, 1)]
        """
        target = TARGETS[action]
        return [divmod(action // 8, SIZE), divmod(target, SIZE)] if target >= 0 else []

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """One line: why ``action`` may not be played now.

        >>> from lifearena.games.war_of_life.rules import from_prolog
        >>> from lifearena.games.war_of_life.notation import Move
        >>> WarOfLifePresentation().explain_illegal(from_prolog("[[[1,1],[1,2]],[[8,8]]]"),
        ...                                         Move(1, 1, 1, 2).action)
        '[1,1,1,2]: the target 1,2 is occupied; move to an empty neighbouring cell'
        """
        position = _war_of_life(state)
        to_move = position.to_move
        mover = to_move if player is None else player
        if position.outcome() is not None:
            return "the game is over; no move can be played"
        if mover != to_move:
            return f"it is not {SYMBOLS[mover]}'s turn; {SYMBOLS[to_move]} is to move"
        if not 0 <= action < NUM_ACTIONS:
            return f"action {action} is out of range 0..{NUM_ACTIONS - 1}"
        row, col = divmod(action // 8, SIZE)
        target = TARGETS[action]
        if target < 0:
            return f"a piece on {row + 1},{col + 1} cannot leave the board"
        text = ACTION_TEXT[action]
        flat = position.board.reshape(-1)
        if flat[action // 8] != mover + 1:
            held = ("empty", "a blue piece", "a red piece")[flat[action // 8]]
            return f"{text}: {row + 1},{col + 1} is {held}; move one of your own pieces"
        if flat[target] != EMPTY:
            r2, c2 = divmod(target, SIZE)
            return (f"{text}: the target {r2 + 1},{c2 + 1} is occupied; move to an empty "
                    "neighbouring cell")
        return f"{text} is legal"

    def interaction(self, state: State, player: int) -> Interaction:
        """A piece of ``player``'s, then an empty cell next to it; nothing to do when it is not
        their turn or the game is over."""
        if not self._to_act(state, player):
            return Interaction(InteractionKind.WAIT, "nothing to do now")
        return Interaction(InteractionKind.PIECE_THEN_TARGET,
                           "move one of your pieces to an empty neighbouring cell")

    def choice_label(self, state: State, action: Action, player: int) -> str:
        """Every War of Life move is a "move"."""
        return "move"

    def rules(self, state: State) -> RulesCard:
        """The rules on one card: the move, Immigration (birth and survival), the endings,
        and a move with its crank (:mod:`lifearena.games.war_of_life.card`)."""
        return rules_card(_war_of_life(state))
