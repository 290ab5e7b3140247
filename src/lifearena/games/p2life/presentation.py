"""How a p2life position looks and how a person picks a move: the text board, what a page
draws, the cell a move touches, and why a move is illegal.

Both players choose at once: each places a token on an empty cell, removes one of their own,
or passes. Then a p2life generation runs: an empty cell with exactly 3 neighbours of one
colour (and not 3 of the other) is born that colour, a seeded fair coin deciding at 3 of
each; a token survives when its own colour's neighbours outnumber the other's by 2 or 3, or
by 1 when it has at least 2 of its own, and dies otherwise. :meth:`P2LifePresentation.rules`
says so on one card, for a game's parameters.

>>> from lifearena.games.p2life.rules import P2LifeState
>>> state = P2LifeState.from_setup("w./.b 0:0", torus=False)
>>> shown = P2LifePresentation()
>>> print(shown.text(state))
   1 2
1  w .
2  . b
>>> [(c.text, c.label) for c in shown.choices(state, 1)]
[('pass', 'pass'), ('+2,1', 'place'), ('+1,2', 'place'), ('-2,2', 'remove')]
>>> shown.action_cells(state, state.string_to_action("-2,2"))
[(1, 1)]
>>> shown.explain_illegal(state, state.string_to_action("-1,1"), 1)
'cell 1,1 holds no b token; remove only your own'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

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
from lifearena.games.p2life.card import rules_card
from lifearena.games.p2life.notation import CHARS, SYMBOLS, Move

if TYPE_CHECKING:
    from lifearena.games.p2life.rules import P2LifeState

PROMPT = "place a token, remove one of yours, or pass"
"""What the board asks of a player who has a move to choose."""
LABELS = {"pass": "pass", "place": "place", "remove": "remove"}
"""A move's label by its kind."""


def format_board(board: np.ndarray) -> str:
    """The board with column numbers on top and row numbers on the left.

    >>> print(format_board(np.array([[1, 0, 2]])))
       1 2 3
    1  w . b
    """
    width = board.shape[1]
    pad = len(str(width))
    lines = ["   " + " ".join(str(x).rjust(pad) for x in range(1, width + 1))]
    for y, row in enumerate(board.tolist(), start=1):
        lines.append(f"{y:<3}" + " ".join(CHARS[v].rjust(pad) for v in row))
    return "\n".join(lines)


class P2LifePresentation(Presentation):
    """p2life's presentation (see the module docstring)."""

    look = Look(board="#a9b5ad", line="#95a199",
                sides=(Side("White", "#fbfbf8", "#555"), Side("Black", "#23252a")))

    def text(self, state: State) -> str:
        return format_board(_p2life(state).board)

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """The board for pages (white 1, black 2); ``before`` is the board after the last
        turn's moves and before its generation (``None`` when that turn ran no generation);
        ``last`` the cells the last turn's moves touched.

        >>> from lifearena.games.p2life.rules import new_game
        >>> P2LifePresentation().display(new_game(size=6, seed=1))["grid"]["rows"]
        6
        """
        game = _p2life(state)
        moves_per_generation = game.params["moves"]
        before = game.placed if game.moved == 0 and game.generation > 0 else None
        last = [[list(m.cell)] if m.cell is not None else [] for m in game.last_moves] \
            if game.last_moves else []
        return grid_display(
            game.board, before, counts=game.populations(), count_label="tokens",
            last_moves=last,
            last=[list(cell) for cell in sorted({(r, c) for cells in last for r, c in cells})],
            torus=game.params["torus"], cell_name="{col},{row}",  # the notation's x,y
            status=f"generation {game.generation + 1} of {game.params['max_generations']}"
            + (f", move {game.moved + 1} of {moves_per_generation}"
               if moves_per_generation > 1 else ""),
        )

    def action_cells(self, state: State, action: Action) -> list[tuple[int, int]]:
        """The cell a place or remove touches (0-based row, column); none for a pass."""
        cell = _move(state, action).cell
        return [] if cell is None else [cell]

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """Why ``player`` (default white) may not play ``action`` now."""
        who = 0 if player is None else player
        return _why_illegal(_p2life(state), action, who) or super().explain_illegal(
            state, action, player)

    def interaction(self, state: State, player: int) -> Interaction:
        """One cell (place on an empty one, remove one of one's own) or a pass, while the turn
        is open; :attr:`InteractionKind.WAIT` once the game is over. The state holds no
        pending choice: a page that keeps one waits for the other player itself. Its parts
        are the cells a move may touch, each with its move: ``+x,y`` on an empty cell,
        ``-x,y`` on one of the player's tokens.

        >>> from lifearena.games.p2life.rules import P2LifeState
        >>> asked = P2LifePresentation().interaction(P2LifeState.from_setup("w./.b 0:0"), 1)
        >>> str(asked.kind), asked.count, asked.can_pass, asked.pass_move
        ('cell-or-pass', 1, True, 'pass')
        >>> asked.prompt
        'place a token, remove one of yours, or pass'
        >>> [(p.cell, p.text) for p in asked.parts]
        [((0, 1), '+2,1'), ((1, 0), '+1,2'), ((1, 1), '-2,2')]
        """
        if not self._to_act(state, player):
            return Interaction(InteractionKind.WAIT, "nothing to do now")
        board = _p2life(state).board
        cells = np.argwhere((board == 0) | (board == player + 1))
        # as Python numbers at once: a 64x64 board has 4,000 parts, and a server builds
        # them on its event loop once per move (indexing numpy a cell at a time took 30 ms)
        owned = board[cells[:, 0], cells[:, 1]].tolist()
        parts = tuple(Part((r, c), f"{'-' if mine else '+'}{c + 1},{r + 1}")
                      for (r, c), mine in zip(cells.tolist(), owned, strict=True))
        return Interaction(InteractionKind.CELL_OR_PASS, PROMPT, can_pass=True,
                           pass_move="pass", parts=parts)

    def choice_label(self, state: State, action: Action, player: int) -> str:
        """``place``, ``remove`` or ``pass``."""
        return LABELS[_move(state, action).kind]

    def rules(self, state: State) -> RulesCard:
        """The rules on one card for ``state``'s parameters: the simultaneous moves, p2life's
        birth (the coin of a 3-vs-3 birth included) and survival, the endings, and one turn
        with its generation (:mod:`lifearena.games.p2life.card`)."""
        return rules_card(_p2life(state))


def _p2life(state: State) -> P2LifeState:
    return cast("P2LifeState", state)


def _move(state: State, action: Action) -> Move:
    game = _p2life(state)
    return Move.from_action(int(action), game.height, game.width)


def _why_illegal(state: P2LifeState, action: Action, player: int) -> str | None:
    """Why ``player`` may not play ``action`` now, or ``None`` if they may."""
    if state.outcome() is not None:
        return "the game is over; no move can be played"
    try:
        move = _move(state, action)
    except ParseError as error:
        return str(error)
    if move.cell is None:
        return None
    value = int(state.board[move.cell])
    if move.kind == "place" and value:
        return f"cell {move.x},{move.y} is occupied by {SYMBOLS[value - 1]}; place on '.'"
    if move.kind == "remove" and value != player + 1:
        return (f"cell {move.x},{move.y} holds no {SYMBOLS[player]} token; remove only "
                "your own")
    return None
