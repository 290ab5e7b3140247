"""How a Life for Two position looks and how a person chooses cells: the text board, the
page's display, why a choice is illegal, and what the board asks of each player.

Life for Two is simultaneous with hidden choices, but a state never holds a pending choice
(both arrive together in ``apply_actions``): what a player has chosen and the other has not
yet seen lives in the interface that collects the choices, and nothing here shows it.

>>> from lifearena.games.life_for_two.rules import LifeForTwoState
>>> state = LifeForTwoState()
>>> shown = LifeForTwoPresentation()
>>> asked = shown.interaction(state, 0)
>>> asked.kind, asked.count, len(asked.parts), asked.compose([(0, 0), (1, 2), (4, 4)])
(<InteractionKind.CELLS: 'cells'>, 3, 25, '1,1 3,2 5,5')
>>> shown.explain_illegal(state, state.string_to_action("3,2"), 1)
'turn 1 places 3 cells; got 1 (3,2)'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lifearena.core import (
    Action,
    Interaction,
    InteractionKind,
    Look,
    Part,
    Presentation,
    RulesCard,
    Side,
    State,
)
from lifearena.errors import ParseError
from lifearena.games._display import grid_display
from lifearena.games.life_for_two.card import rules_card
from lifearena.games.life_for_two.notation import CHARS, SIZE, SYMBOLS, Move, cell_text
from lifearena.games.life_for_two.rules import LifeForTwoState


def format_board(board: np.ndarray) -> str:
    """The board with column numbers on top and row numbers on the left.

    >>> print(format_board(np.array([[1, 0, 0, 0, 0]] + [[0, 0, 0, 0, 2]] * 4)))
       1 2 3 4 5
    1  * . . . .
    2  . . . . #
    3  . . . . #
    4  . . . . #
    5  . . . . #
    """
    lines = ["   " + " ".join(str(x) for x in range(1, SIZE + 1))]
    for y, row in enumerate(board.tolist(), start=1):
        lines.append(f"{y}  " + " ".join(CHARS[v] for v in row))
    return "\n".join(lines)


def _cells_text(count: int) -> str:
    """``3 cells`` or ``1 cell``."""
    return f"{count} cell{'s' * (count > 1)}"


def _own(state: State) -> LifeForTwoState:
    """``state`` as a Life for Two state (a presentation is asked only about its game's)."""
    if not isinstance(state, LifeForTwoState):
        raise TypeError(f"expected a Life for Two state; got {type(state).__name__}")
    return state


class LifeForTwoPresentation(Presentation):
    """Life for Two's board: both players choose cells at once (3 on the first turn, then
    1), confirmed together."""

    # the sides are named by their colours on the page (the text board's * and # are the
    # terminal's symbols for them)
    look = Look(sides=(Side("Teal", "#23897e"), Side("Orange", "#c8741f")))

    def text(self, state: State) -> str:
        """The board with column numbers on top and row numbers on the left."""
        return format_board(_own(state).board)

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """The board for pages (``*`` is 1, ``#`` 2); ``before`` is the last turn's board as
        placed, before its generation; ``collisions`` the cells both chose; ``last_moves``
        both choices of the last turn, revealed together (``last`` all their cells, for a
        page to mark); ``choose`` how many cells each
        player picks now. The same for every ``player``: the state holds no hidden choice.

        >>> from lifearena.games.life_for_two.rules import LifeForTwoState
        >>> data = LifeForTwoPresentation().display(LifeForTwoState())
        >>> data["status"], data["choose"]
        ('turn 1: each player chooses 3 cells', 3)
        """
        own = _own(state)
        wanted = own.cells_to_choose
        last = own.last_moves
        return grid_display(
            own.board, own.placed, counts=own.populations(),
            collisions=[list(divmod(c, SIZE)) for c in own.last_collisions],
            last_moves=[[list(cell) for cell in m.grid_cells] for m in last] if last else [],
            last=[list(cell) for cell in sorted({c for m in last or () for c in m.grid_cells})],
            choose=wanted, cell_name="{col},{row}",  # the notation's x,y
            status=f"turn {own.turn}: each player chooses {_cells_text(wanted)}",
        )

    def action_cells(self, state: State, action: Action) -> list[tuple[int, int]]:
        """The cells the choice places on (0-based row, column), top to bottom.

        >>> from lifearena.games.life_for_two.rules import LifeForTwoState
        >>> state = LifeForTwoState()
        >>> LifeForTwoPresentation().action_cells(state, state.string_to_action("3,2"))
        [(1, 2)]
        """
        return Move.from_action(int(action)).grid_cells

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """Why ``player`` may not choose ``action`` now (see :meth:`_why_illegal`).

        >>> from lifearena.games.life_for_two.rules import LifeForTwoState
        >>> state = LifeForTwoState.from_setup("**.../**.../...#./...#./...#. 2")
        >>> LifeForTwoPresentation().explain_illegal(state, state.string_to_action("4,3"))
        'cell 4,3 is occupied by #; choose an empty cell'
        """
        who = 0 if player is None else player
        return (self._why_illegal(_own(state), action, who)
                or super().explain_illegal(state, action, player))

    @staticmethod
    def _why_illegal(state: LifeForTwoState, action: Action, player: int) -> str | None:
        """Why ``action`` may not be chosen by ``player`` now, or ``None`` if it may."""
        if state.outcome() is not None:
            return "the game is over; no move can be played"
        try:
            move = Move.from_action(int(action))
        except ParseError as error:
            return str(error)
        wanted = state.cells_to_choose
        if len(move.cells) != wanted:
            return f"turn {state.turn} places {_cells_text(wanted)}; got {len(move.cells)} ({move})"
        flat = state.board.reshape(-1)
        for cell in move.cells:
            if flat[cell]:
                return (f"cell {cell_text(cell)} is occupied by {SYMBOLS[flat[cell] - 1]}; "
                        "choose an empty cell")
        return None

    def interaction(self, state: State, player: int) -> Interaction:
        """The cells ``player`` chooses now, all at once (3 on the first turn, then 1);
        :attr:`InteractionKind.WAIT` when the game is over. A player who has chosen already
        is the collecting interface's to know (the state holds no pending choice). Its parts
        are the empty cells, each with its ``x,y``: any ``count`` of them make a move (the
        first turn's 2300 moves are too many for a page to be sent).

        >>> from lifearena.games.life_for_two.rules import LifeForTwoState
        >>> state = LifeForTwoState.from_setup("**.../**.../...#./...#./...#. 2")
        >>> asked = LifeForTwoPresentation().interaction(state, 1)
        >>> asked.prompt, asked.count, asked.parts[0], len(asked.parts)
        ('choose an empty cell', 1, Part(cell=(0, 2), text='3,1'), 18)
        """
        if not self._to_act(state, player):
            return Interaction(InteractionKind.WAIT, "nothing to do now")
        own = _own(state)
        wanted = own.cells_to_choose
        prompt = f"choose {wanted} empty cells" if wanted > 1 else "choose an empty cell"
        empty = np.flatnonzero(own.board.reshape(-1) == 0)
        parts = tuple(Part(divmod(int(c), SIZE), cell_text(int(c))) for c in empty)
        return Interaction(InteractionKind.CELLS, prompt, count=wanted, parts=parts)

    def rules(self, state: State) -> RulesCard:
        """The rules on one card for ``state``'s parameters: the simultaneous hidden
        choices and collisions, Immigration (birth and survival), the endings under the move
        limit, and a first turn with its generation (:mod:`lifearena.games.life_for_two.card`)."""
        return rules_card(_own(state))

    def choice_label(self, state: State, action: Action, player: int) -> str:
        """Every choice places pieces: "place"."""
        return "place"

    def move_prompt(self, state: State, player: int) -> str:
        """The cells asked for in the notation: three on the first turn, else one.

        >>> from lifearena.games.life_for_two.rules import LifeForTwoState
        >>> LifeForTwoPresentation().move_prompt(LifeForTwoState(), 0)
        'your 3 cells as x,y x,y x,y'
        """
        if _own(state).first_turn:
            return "your 3 cells as x,y x,y x,y"
        return "your cell as x,y"
