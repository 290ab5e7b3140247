"""War of Life's lesson: Life's rule (births, loneliness, overcrowding), Immigration's
majority colour and a win, each on the real 8x8 board with a few pieces.

Blue (the learner) is to move in every step; the red block in the corner (or the three red
pieces of the last step) stand still or die by Life's rule alone. Positions are in the
coursework's Prolog form, moves ``[r1,c1,r2,c2]`` (rows from the top, columns from the
left, 1..8).

>>> from lifearena.lessons import attempt, solution_moves
>>> [attempt("war_of_life", step, solution_moves(step)).met for step in LESSON.steps]
[True, True, True, True, True]
"""

from __future__ import annotations

from lifearena.lessons import Goal, Lesson, Step

RED_BLOCK = "[7,1],[7,2],[8,1],[8,2]"
"""A red 2x2 block in the bottom-left corner: every piece has 3 neighbours, so it stays."""

LESSON = Lesson(
    game="war_of_life",
    title="War of Life",
    summary="Move one piece a step, then the whole board lives one generation of Life.",
    steps=(
        Step(
            title="The rule of Life: births",
            text=("A turn is two things: you move one of your pieces to an empty neighbouring "
                  "cell, then every cell of the board follows Life's rule at once. An empty "
                  "cell with exactly 3 neighbours (of the 8 around it) is born."),
            task="Move a piece so that the empty cell 4,4 is born.",
            setup=f"[[[3,3],[3,4],[5,6]],[{RED_BLOCK}]]",
            solution="[5,6,4,5]",
            goals=(Goal("born", ("4,4",)),),
            hint="4,4 has two neighbours now (3,3 and 3,4). Bring the piece on 5,6 next to it.",
            success="Born! Three neighbours, no more, no fewer: 4,4 came to life.",
        ),
        Step(
            title="Survival and loneliness",
            text=("A piece survives with 2 or 3 neighbours. With 0 or 1 it dies of "
                  "loneliness. The pair on 4,4 and 4,5 has one neighbour each: both will "
                  "die unless you help."),
            task="Keep the piece on 4,4 alive.",
            setup=f"[[[4,4],[4,5],[6,6]],[{RED_BLOCK}]]",
            solution="[6,6,5,5]",
            goals=(Goal("holds", ("4,4",), colour=1),),
            hint="Give 4,4 a second neighbour: the piece on 6,6 can step next to it.",
            success="Saved: 4,4 has two neighbours now, and a piece was even born on 5,4.",
        ),
        Step(
            title="Overcrowding",
            text=("A piece with 4 or more neighbours dies of overcrowding, whatever their "
                  "colour. The red piece on 4,4 has 3 neighbours (one of them your 3,3)."),
            task="Make the red piece on 4,4 die.",
            setup=f"[[[3,3],[2,5]],[[4,4],[4,5],[5,4],{RED_BLOCK}]]",
            solution="[2,5,3,5]",
            goals=(Goal("died", ("4,4",)),),
            hint="One more neighbour is one too many: step the piece on 2,5 down next to 4,4.",
            success="Overcrowded: 4 neighbours, and the red piece on 4,4 died.",
        ),
        Step(
            title="Immigration: the majority colour",
            text=("In War of Life survivors keep their colour, and a newborn takes the "
                  "colour of the majority of its three parents. 4,4 has a red neighbour "
                  "(3,3) and a blue one (3,5)."),
            task="Make a blue piece be born on 4,4.",
            setup=f"[[[3,5],[6,4]],[[3,3],{RED_BLOCK}]]",
            solution="[6,4,5,4]",
            goals=(Goal("born", ("4,4",), colour=1),),
            hint="A third parent, a blue one, makes two blues against one red: move 6,4 up.",
            success="Blue! Two blue parents against one red: the newborn is blue.",
        ),
        Step(
            title="How to win",
            text=("You win when the other side has no pieces left after a generation (and "
                  "you still have some). Red's three pieces would give birth to a red piece "
                  "on 5,5 and live on; alone, each of them dies."),
            task="Wipe out red in one move.",
            setup="[[[1,1],[1,2],[2,1],[2,2],[5,7]],[[4,4],[4,6],[6,4]]]",
            solution="[5,7,6,6]",
            goals=(Goal("win"),),
            hint="Four neighbours are too many for a birth: fill the fourth corner around 5,5.",
            success="Red is gone: 5,5 had four neighbours, so nothing was born, and the "
                    "lonely red pieces died. Blue wins!",
        ),
    ),
)
