"""p2life's lesson: Levene and Roussos's births and survival (where the other colour counts
against you), removing one's own token, the coin of a 3-vs-3 birth and a win, on a 6x6
board without wrapping.

The learner plays white; black passes in every step (both choose at once, so black's choice
is revealed with yours). Cells are ``x,y`` (column, row, from 1); moves ``+x,y`` (place),
``-x,y`` (remove one of yours), ``pass``.

>>> from lifearena.lessons import attempt, solution_moves
>>> [attempt("p2life", step, solution_moves(step)).met for step in LESSON.steps]
[True, True, True, True, True]
"""

from __future__ import annotations

from lifearena.lessons import Goal, Lesson, Step

FLAT = {"torus": False}
"""A board whose edges do not wrap round: what is shown is all there is."""

LESSON = Lesson(
    game="p2life",
    title="p2life",
    summary="Two-player Life where the other colour counts against you; a coin settles a "
            "3-against-3 birth.",
    steps=(
        Step(
            title="Births",
            text=("Each turn both players place a token, remove one of their own, or pass, "
                  "at the same time; then one generation runs. An empty cell with exactly 3 "
                  "white neighbours (and not 3 black ones) is born white."),
            task="Place a token so that a white token is born on 3,2.",
            setup=".w.w../....../....../....../....bb/....bb 0:0",
            params=FLAT,
            solution="+3,3",
            reply="pass",
            goals=(Goal("born", ("3,2",), colour=1),),
            hint="3,2 (column 3, row 2) touches 2,1 and 4,1: a third white next to it does it.",
            success="Born white on 3,2: exactly three white neighbours.",
        ),
        Step(
            title="Survival: enemies count against you",
            text=("A token survives when its own neighbours outnumber the enemy's by 2 or 3, "
                  "or by 1 if it has at least 2 of its own. The black token on 4,4 has 2 "
                  "black neighbours and 1 white one (3,3): just enough to survive."),
            task="Make the black token on 4,4 die.",
            setup="ww..../ww..../..w.../..bbb./....../...... 0:0",
            params=FLAT,
            solution="+4,5",
            reply="pass",
            goals=(Goal("died", ("4,4",)),),
            hint="A second white neighbour leaves 4,4 with 2 against 2: place next to it.",
            success="Two black friends against two white enemies: 4,4 died.",
        ),
        Step(
            title="Overcrowding, and removing your own",
            text=("Too many friends kill as well: the white token on 3,3 has 4 white "
                  "neighbours and would die. Instead of placing, you may remove one of your "
                  "own tokens."),
            task="Save the white token on 3,3.",
            setup="....../..w.../.www../..w.../....bb/....bb 0:0",
            params=FLAT,
            solution="-3,2",
            reply="pass",
            goals=(Goal("holds", ("3,3",), colour=1),),
            hint="Remove one of the four tokens around 3,3, such as 3,2.",
            success="Three friends is fine: 3,3 lives, and new white tokens were born "
                    "around it.",
        ),
        Step(
            title="The coin",
            text=("An empty cell with 3 white and 3 black neighbours is born too, in a "
                  "colour a fair coin decides (the game's seed fixes each coin, so a game "
                  "replays exactly). Black's row of three will give birth on 3,2 unless you "
                  "make it three against three; here the coin falls white."),
            task="Make the birth on 3,2 white.",
            setup=".ww.../....../.bbb../....../....../...... 0:0",
            params={**FLAT, "seed": 1},
            solution="+4,1",
            reply="pass",
            goals=(Goal("born", ("3,2",), colour=1),),
            hint="3,2 has 2 white neighbours: place a third (4,1 will do) for a 3-3 coin.",
            success="Three against three, and the coin chose white.",
        ),
        Step(
            title="How to win",
            text=("A player with no tokens left after a generation loses (after 64 "
                  "generations the larger side wins). Black's three tokens would give birth "
                  "on 4,4 and live on; alone, each of them dies."),
            task="Wipe out black.",
            setup="ww..../ww..../..b.b./....../...b../...... 0:0",
            params=FLAT,
            solution="+4,4",
            reply="pass",
            goals=(Goal("win"),),
            hint="A cell that holds a token cannot be born: take 4,4 yourself.",
            success="Your token took the birth's place; the lonely black tokens died. White "
                    "wins!",
        ),
    ),
)
