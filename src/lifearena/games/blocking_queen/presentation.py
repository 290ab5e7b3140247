"""How a blocking queen position looks and how a person picks a move: the one-line text,
what a page draws, the square a move names, the prompts of the two phases, and why a move
is illegal.

A turn is a queen move, then (k > 1) up to k - 1 blocks of the same player, one per ply,
or ``-`` to stop blocking early.

>>> from lifearena.games.blocking_queen.rules import BlockingQueenState
>>> state = BlockingQueenState.from_moves("2,1", ["1,0"], k=3)
>>> shown = BlockingQueenPresentation()
>>> shown.text(state)
'queen 1,0, k=3, 1 to block (up to 2 more)'
>>> [(c.text, c.cells, c.label) for c in shown.choices(state, 0)]
[('#0,0', ((0, 0),), 'block'), ('-', (), 'stop blocking')]
>>> shown.explain_illegal(state, state.string_to_action("1,0"), 0)
'#1,0: the queen on 1,0 cannot reach 1,0; block only squares it could move to'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from lifearena.core import (
    Action,
    HistoryItem,
    Interaction,
    InteractionKind,
    Look,
    Part,
    Presentation,
    RulesCard,
    Side,
    State,
)
from lifearena.games.blocking_queen.card import rules_card
from lifearena.games.blocking_queen.notation import (
    BLOCK_BASE,
    DONE,
    NUM_ACTIONS,
    SYMBOLS,
    Move,
    index_square,
)

if TYPE_CHECKING:
    from lifearena.games.blocking_queen.rules import BlockingQueenState

MOVE_PROMPT = "move the queen west, north or north-west"
"""What the board asks of the player who moves the queen."""
LABELS = {"move": "move", "block": "block", "stop": "stop blocking"}
"""A move's label by its kind."""


class BlockingQueenPresentation(Presentation):
    """The blocking queen game's presentation (see the module docstring)."""

    look = Look(line="#e4dfd5", sides=(Side("Player 1", "#2f6db3"), Side("Player 2", "#c4453c")))

    def text(self, state: State) -> str:
        """One line: the queen, k, whose turn and phase (or the outcome), the blocks."""
        game = _queen(state)
        x, y = game.queen
        who = SYMBOLS[game.mover]
        outcome = game.outcome()
        if outcome is not None:
            now = str(outcome)
        elif game.blocking:
            now = f"{who} to block (up to {game.blocks_left} more)"
        else:
            now = f"{who} to move"
        blocked = " ".join(f"#{bx},{by}" for bx, by in sorted(game.blocked, key=lambda s: s[::-1]))
        return f"queen {x},{y}, k={game.k}, {now}" + (f", blocked {blocked}" if blocked else "")

    def display(self, state: State, player: int | None = None) -> dict[str, Any]:
        """The queen, the squares it may reach now (as a queen move or as a block), the
        blocked squares, and the phase, for pages; squares are ``[x, y]``, except ``last``:
        the queen's square as a ``[row, column]`` cell (``y, x``) once she has moved.

        >>> from lifearena.games.blocking_queen.rules import BlockingQueenState
        >>> BlockingQueenPresentation().display(BlockingQueenState(2, 1, k=2))["reachable"]
        [[1, 0], [2, 0], [0, 1], [1, 1]]
        """
        game = _queen(state)
        reach = [] if game.outcome() is not None else game.queen_moves()
        return {
            "queen": list(game.queen),
            "start": list(game.start),
            "k": game.k,
            "blocked": sorted([list(s) for s in game.blocked], key=lambda s: (s[1], s[0])),
            "reachable": sorted([list(s) for s in reach], key=lambda s: (s[1], s[0])),
            "blocking": game.blocking,
            "blocks_left": game.blocks_left,
            "last": [] if tuple(game.queen) == tuple(game.start) else [[game.queen[1],
                                                                       game.queen[0]]],
            "status": (f"player {SYMBOLS[game.mover]} blocks (up to {game.blocks_left} more)"
                       if game.blocking else f"player {SYMBOLS[game.mover]} moves the queen"),
        }

    def rules(self, state: State) -> RulesCard:
        """The rules on one card for ``state``'s k: the queen move and the blocks, that this
        is no Life but k-Blocking Wythoff Nim, who loses, and one queen move
        (:mod:`lifearena.games.blocking_queen.card`)."""
        return rules_card(_queen(state))

    def action_cells(self, state: State, action: Action) -> list[tuple[int, int]]:
        """The square a queen move or a block names, as ``(y, x)``; none for ``-``."""
        square = Move.from_action(action).square
        return [] if square is None else [(square[1], square[0])]

    def explain_illegal(self, state: State, action: Action, player: int | None = None) -> str:
        """Why ``action`` is not legal here."""
        return _why_illegal(_queen(state), action) or super().explain_illegal(
            state, action, player)

    def interaction(self, state: State, player: int) -> Interaction:
        """A square to move the queen to; then, in the block phase, a square to block or a
        stop; :attr:`InteractionKind.WAIT` when it is not ``player``'s turn. Its parts are
        the squares of the legal moves (as ``(y, x)`` cells), each with its move.

        >>> from lifearena.games.blocking_queen.rules import BlockingQueenState
        >>> shown = BlockingQueenPresentation()
        >>> state = BlockingQueenState.from_setup("6,6", k=3)
        >>> shown.interaction(state, 0).prompt, shown.interaction(state, 0).can_pass
        ('move the queen west, north or north-west', False)
        >>> state.apply_move_text("6,2")
        262
        >>> shown.interaction(state, 0).prompt, shown.interaction(state, 0).can_pass
        ('block a shaded square, or stop (2 blocks left)', True)
        >>> shown.interaction(state, 0).pass_move, shown.interaction(state, 0).parts[0]
        ('-', Part(cell=(0, 4), text='#4,0'))
        >>> str(shown.interaction(state, 1).kind)
        'wait'
        """
        if not self._to_act(state, player):
            return Interaction(InteractionKind.WAIT, "nothing to do now")
        game = _queen(state)
        parts = tuple(Part((cell[0], cell[1]), game.action_to_string(action))
                      for action in game.legal_actions(player)
                      for cell in self.action_cells(game, action))
        if not game.blocking:
            return Interaction(InteractionKind.SQUARE_THEN_BLOCKS, MOVE_PROMPT, parts=parts)
        left = game.blocks_left
        return Interaction(InteractionKind.SQUARE_THEN_BLOCKS,
                           # short: the banner asking it keeps one line on a
                           # desktop and two on a phone in both phases (the board stays put)
                           f"block a shaded square, or stop ({left} "
                           f"block{'' if left == 1 else 's'} left)", can_pass=True,
                           pass_move="-", parts=parts)

    def choice_label(self, state: State, action: Action, player: int) -> str:
        """``move``, ``block`` or ``stop blocking``."""
        return LABELS[Move.from_action(action).kind]

    def move_sides(self, first: int, history: Sequence[HistoryItem]) -> list[int | None]:
        """A queen move passes the turn to the other side; a block or a stop stays with
        the side that just moved the queen.

        >>> from lifearena.games.blocking_queen.notation import BLOCK_BASE, DONE
        >>> BlockingQueenPresentation().move_sides(0, [3, BLOCK_BASE + 1, DONE, 4, 2])
        [0, 0, 0, 1, 0]
        """
        sides: list[int | None] = []
        side = first
        for index, item in enumerate(history):
            if isinstance(item, int) and item < BLOCK_BASE and index > 0:
                side = 1 - side
            sides.append(side)
        return sides

    def move_prompt(self, state: State, player: int) -> str:
        """What a person typing a move is asked for, in the notation of the phase."""
        return "block '#x,y' or '-' to stop" if _queen(state).blocking \
            else "move the queen 'x,y'"


def _queen(state: State) -> BlockingQueenState:
    return cast("BlockingQueenState", state)


def _why_illegal(state: BlockingQueenState, action: Action) -> str | None:
    """Why ``action`` may not be played now, or ``None`` if it may."""
    if state.outcome() is not None:
        return "the game is over; no move can be played"
    if not 0 <= action < NUM_ACTIONS:
        return f"action {action} is out of range 0..{NUM_ACTIONS - 1}"
    text = state.action_to_string(action)
    qx, qy = state.queen
    if state.blocking:
        if action < BLOCK_BASE:
            return (f"{text} moves the queen, but {SYMBOLS[state.mover]} is blocking now; "
                    "block a square '#x,y' or stop with '-'")
        if action == DONE:
            return None
        x, y = index_square(action - BLOCK_BASE)
        if (x, y) in state.blocked:
            return f"{text}: {x},{y} is already blocked"
        if (x, y) not in state.queen_moves():
            return (f"{text}: the queen on {qx},{qy} cannot reach {x},{y}; block only squares "
                    "it could move to")
        return None
    if action >= BLOCK_BASE:
        return f"{text} is a block, but the queen must move first"
    square = index_square(action)
    if square in state.blocked:
        return f"{text}: that square is blocked"
    if square not in state.queen_moves():
        return (f"{text}: a queen on {qx},{qy} moves only west, north or north-west")
    return None
