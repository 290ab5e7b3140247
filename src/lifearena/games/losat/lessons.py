"""Losat's lesson: adding, removing and capturing one stone at a time where Life's rule
allows it, and a win on the goal line, on a 7x9 board (``gap=1``: Black's goal line is row
8, White's row 2).

The learner plays Black. Positions are in Losat's position notation (rows from the top);
moves ``+bD5`` (add), ``-B6`` (remove), ``xD5`` (capture).

>>> from lifearena.lessons import attempt, solution_moves
>>> [attempt("losat", step, solution_moves(step)).met for step in LESSON.steps]
[True, True, True, True]
"""

from __future__ import annotations

from lifearena.lessons import Goal, Lesson, Step

SMALL = {"width": 7, "length": 9, "gap": 1}
"""A 7x9 board: Black's goal line is row 8, White's row 2."""

LESSON = Lesson(
    game="losat",
    title="Losat",
    summary="Life, one step at a time: each turn adds, removes or captures one stone where "
            "Life's rule allows it.",
    steps=(
        Step(
            title="Adding a stone: a birth",
            text=("In Losat nothing happens by itself: each turn you make one change, and "
                  "only where Conway's rule allows it, counting the 8 points around. A stone "
                  "may be added on an empty point with exactly 3 neighbours of its colour."),
            task="Add a black stone on D5.",
            setup="5ww/7/7/7/7/2bbb2/7/7/7 b",
            params=SMALL,
            solution="+bD5",
            goals=(Goal("holds", ("D5",), colour=1),),
            hint="D5 touches C4, D4 and E4: click D5, then Add black.",
            success="Added: D5 had exactly three black neighbours.",
        ),
        Step(
            title="Removing a stone: a death",
            text=("A stone with fewer than 2 or more than 3 neighbours of its own colour may "
                  "be removed, yours or the other side's. The black block is safe: each of "
                  "its stones has 3 black neighbours."),
            task="Remove the lonely white stone on B6.",
            setup="7/5ww/7/1w5/7/2bb3/2bb3/7/7 b",
            params=SMALL,
            solution="-B6",
            goals=(Goal("empty", ("B6",)),),
            hint="B6 has no white neighbour at all: click it, then Remove.",
            success="Removed: a stone with no friends around it may go.",
        ),
        Step(
            title="Capturing",
            text=("A stone with exactly 3 neighbours of the other colour may be captured: it "
                  "turns to that colour, and that colour scores a capture, whoever made the "
                  "move. Capture one of your own stones by mistake and the other side scores."),
            task="Capture the white stone on D5.",
            setup="5ww/7/7/7/2bwb2/3b3/7/7/7 b",
            params=SMALL,
            solution="xD5",
            goals=(Goal("captures", count=1), Goal("holds", ("D5",), colour=1)),
            hint="D5 has three black neighbours (C5, E5, D4): click it, then Capture.",
            success="Captured: D5 is black now and Black has scored its first capture.",
        ),
        Step(
            title="How to win",
            text=("You win with a stone of your colour on your goal line (Black's is the "
                  "shaded row 8 here, the back of White's start) or with 5 captures. The "
                  "board may never repeat an earlier position."),
            task="Reach your goal line.",
            setup="5ww/7/2bbb2/2b1b2/7/7/7/7/7 b",
            params=SMALL,
            solution="+bD8",
            goals=(Goal("win"),),
            hint="D8 touches C7, D7 and E7: add a black stone there.",
            success="A black stone on row 8: Black wins!",
        ),
    ),
)
