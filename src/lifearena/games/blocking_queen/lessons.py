"""The blocking queen game's lesson: how the queen moves, how to win, and blocks (which last
one turn), on boards a few squares wide.

The learner plays player 1 in the first two steps and player 2 in the last (player 1 has
just moved and blocked). Squares are ``x,y`` (x to the right, y downward, the goal corner
``0,0`` top left); a block is ``#x,y``; a turn of the game with ``k = 2`` is a queen move
then one block, written here as the two moves joined by ``" ; "``.

>>> from lifearena.lessons import attempt, solution_moves
>>> [attempt("blocking_queen", step, solution_moves(step)).met for step in LESSON.steps]
[True, True, True]
"""

from __future__ import annotations

from lifearena.lessons import Goal, Lesson, Step

LESSON = Lesson(
    game="blocking_queen",
    title="Blocking queen game",
    summary="Move a queen towards the corner; after each move you may block squares the "
            "other player could move to.",
    steps=(
        Step(
            title="Moving the queen",
            text=("The queen moves like a chess queen, but only towards the top-left corner: "
                  "west, north or north-west, as far as you like. Whoever cannot move the "
                  "queen loses, so whoever moves it onto the corner 0,0 wins."),
            task="Win: move the queen onto the corner.",
            setup="4,4",
            params={"k": 1},
            solution="0,0",
            goals=(Goal("win"),),
            hint="4,4 is on the corner's diagonal: go north-west all the way.",
            success="The queen is on the corner: the other player cannot move. You win!",
        ),
        Step(
            title="Blocks",
            text=("With k = 2, after moving the queen you block one square the other player "
                  "could move it to next (or stop). A player who finds every square blocked "
                  "cannot move, and loses."),
            task="Move the queen next to the corner, then block the corner.",
            setup="3,0",
            params={"k": 2},
            solution="1,0 ; #0,0",
            goals=(Goal("win"),),
            hint="From 1,0 the only square left is 0,0. Move to 1,0, then click 0,0 to block it.",
            success="From 1,0 the queen could only go to 0,0, and you blocked it. You win!",
        ),
        Step(
            title="Blocks last one turn",
            text=("Player 1 has moved the queen to 1,1 and blocked the corner, so you cannot "
                  "take it now. A block lasts for the next move only, then it is gone."),
            task="Win anyway: move, then block.",
            setup="3,3",
            params={"k": 2},
            prelude=("1,1", "#0,0"),
            learner=1,
            solution="1,0 ; #0,0",
            goals=(Goal("win"),),
            hint="Move next to the corner (1,0 or 0,1), then block the corner yourself.",
            success="The old block was gone, and yours left player 1 no move. You win!",
        ),
    ),
)
