"""Life for Two's lesson: a birth, a collision, overcrowding and a win on the 5x5 board.

Both players choose at the same time; in each step the other side's choice (``reply``) is
fixed, shown once both are revealed (in the collision step the text says it beforehand).
The learner plays ``*``, which pages call Teal (``#`` is Orange), from turn 2 on: one cell a
turn; the words name the sides as the pages do. Cells are ``x,y`` (column,
row, 1..5); positions are the rows from the top and the turn number.

>>> from lifearena.lessons import attempt, solution_moves
>>> [attempt("life_for_two", step, solution_moves(step)).met for step in LESSON.steps]
[True, True, True, True]
"""

from __future__ import annotations

from lifearena.lessons import Goal, Lesson, Step

LESSON = Lesson(
    game="life_for_two",
    title="Life for Two",
    summary="Both players place a piece at the same time, then the board lives one "
            "generation.",
    steps=(
        Step(
            title="Place, then a generation",
            text=("Each turn both players choose an empty cell at the same time, without "
                  "seeing each other's choice; then the board lives one generation of Life. "
                  "An empty cell with exactly 3 neighbours is born; a piece with 2 or 3 "
                  "survives; the rest die."),
            task="Choose a cell so that a piece is born on 2,1.",
            setup="*.*../...../...../...##/...## 2",
            solution="2,2",
            reply="1,5",
            goals=(Goal("born", ("2,1",)),),
            hint="2,1 (column 2, row 1) has two neighbours: 1,1 and 3,1. Add a third.",
            success="Born on 2,1. Your two old pieces died of loneliness, but the newborn "
                    "and your new piece live on.",
        ),
        Step(
            title="Collisions",
            text=("If both players choose the same cell, it stays empty: neither piece is "
                  "placed. Here Orange is going to choose 1,4, which would save its lonely "
                  "pair (in a real game you do not see it coming)."),
            task="Choose the cell Orange chooses.",
            setup="**.../**.../...../.##../..... 2",
            solution="1,4",
            reply="1,4",
            goals=(Goal("collision", ("1,4",)),),
            hint="Orange chooses 1,4: column 1, row 4.",
            success="A collision: both chose 1,4, so it stayed empty, and Orange's pair broke up.",
        ),
        Step(
            title="Overcrowding",
            text=("A piece with 4 or more neighbours dies of overcrowding, whatever their "
                  "colours. The orange piece on 3,3 has 3 neighbours now."),
            task="Make the orange piece on 3,3 die.",
            setup="**.../**.../..#../.##../..... 2",
            solution="4,3",
            reply="5,1",
            goals=(Goal("died", ("3,3",)),),
            hint="A fourth neighbour is one too many: choose a cell next to 3,3.",
            success="Four neighbours: 3,3 died of overcrowding.",
        ),
        Step(
            title="How to win",
            text=("Whoever has no pieces left after a generation loses. Orange's three "
                  "pieces would give birth to a fourth on 4,4 and live on; alone, each of "
                  "them dies."),
            task="Wipe out Orange with one piece.",
            setup="**.../**.../...##/...../...#. 2",
            solution="5,5",
            reply="1,5",
            goals=(Goal("win"),),
            hint="A fourth neighbour stops a birth: fill the last corner around 4,4.",
            success="4,4 had four neighbours, so nothing was born, and the lonely orange "
                    "pieces died. You win!",
        ),
    ),
)
