"""The blocking queen game's rules on one card (:class:`~lifearena.core.RulesCard`): not
Life but k-Blocking Wythoff Nim, worded for the game's k, with a small example of a queen
move.

>>> from lifearena.games.blocking_queen.rules import BlockingQueenState
>>> card = rules_card(BlockingQueenState(9, 14, k=3))
>>> "up to 2 of the squares" in card.move, "not Life" in card.life, card.picture["queen"]
(True, True, [4, 2])
"""

from __future__ import annotations

from lifearena.core import RulesCard, presentation_of
from lifearena.games.blocking_queen.rules import BlockingQueenState

EXAMPLE_START = (4, 6)
"""The picture's queen, as ``(x, y)``."""
EXAMPLE_MOVE = "4,2"


def rules_card(state: BlockingQueenState) -> RulesCard:
    """The card under ``state``'s k."""
    k = state.k
    if k == 1:
        blocks = "With k = 1 there are no blocks: this is Wythoff's classic game."
    else:
        blocks = (f"Then block up to {k - 1} of the squares your opponent could move the queen "
                  f"to next, one at a time, or stop early. Blocks last for your opponent's "
                  "next move only.")
    move = ("Players take turns; player 1 moves first. Move the queen like a chess queen "
            "towards the top-left corner: west, north or north-west, any number of squares, "
            "but not onto a square your opponent blocked (passing over one is allowed). "
            + blocks)
    life = (f"None: this game is not Life. It is k-Blocking Wythoff Nim, here with k = {k}; "
            "nothing is born or dies, only the queen moves. Its losing squares (the "
            "\"palace\") can be drawn by a cellular automaton, which the lab shows.")
    win = ("Whoever cannot move the queen loses: she stands on the corner 0,0, or every "
           "square she could reach is blocked. There are no draws.")
    example = BlockingQueenState(*EXAMPLE_START, k=k)
    example.apply_move_text(EXAMPLE_MOVE)
    then = ("the marked squares are where she may go next" if k == 1 else
            "player 1 may now block some of the marked squares, where she could go next")
    caption = f"Player 1 moved the queen from 4,6 north to 4,2; {then}."
    return RulesCard(state.info.name, "Blocking queen", move, life, win,
                     presentation_of(example).display(example), caption)
