"""Losat's rules on one card (:class:`~lifearena.core.RulesCard`), worded for the game's
actual parameters (neighbourhood, whose stones a player may change, the capture condition,
captures to win, goal lines, the move limit), with a small example of one move.

>>> from lifearena.games.losat import new_game
>>> card = rules_card(new_game(neighbours=4, captures_to_win=3))
>>> "4 points beside it" in card.move, "3 captures" in card.win
(True, True)
>>> card.picture["births"]
[[3, 3]]
"""

from __future__ import annotations

from typing import Any

from lifearena.core import RulesCard, presentation_of
from lifearena.games._display import with_change
from lifearena.games.losat.rules import LosatState, from_setup

EXAMPLE = "7/7/3b3/2b1b2/7/3w3/7 b"
"""The picture's board, 7 x 7 with one empty row between the starting rows: black to move."""
EXAMPLE_SIZE = {"width": 7, "length": 7, "gap": 1}
EXAMPLE_MOVE = "+bD4"
CAPTION = ("Black adds a stone at D4, which has exactly 3 black neighbours: Life's birth, one "
           "point at a time. White's lonely stone on D2 could be removed: it has fewer than 2 "
           "white neighbours.")


def rules_card(state: LosatState) -> RulesCard:
    """Losat's card under ``state``'s parameters."""
    p = state.params
    around = ("the 8 surrounding points" if p["neighbours"] == 8 else
              "the 4 points beside it (up, down, left, right)")
    first = "Black" if p["first"] == "b" else "White"
    capture = "exactly 3" if not p["capture_or_more"] else "3 or more"
    whose = ("You may add or remove only stones of your own colour, and capture only your "
             "opponent's." if p["own_colour_only"] else
             "You may change stones of either colour.")
    move = (f"Black and White take turns; {first} moves first. A move changes exactly one "
            f"point, only where Life's rule allows it, counting {around}: add a stone of a "
            "colour on an empty point with exactly 3 neighbours of that colour; remove a "
            "stone with fewer than 2 or more than 3 neighbours of its own colour; or capture "
            f"a stone with {capture} neighbours of the other colour: it turns to that colour, "
            f"and that colour's player scores a capture, whoever moved. {whose} No move may "
            "bring back an arrangement of stones seen before in the game. A player with no "
            "legal move must pass.")
    life = ("Conway's Life (B3/S23), one point at a time: where a full generation would change "
            "every cell at once, Losat lets you make one of those changes a turn. Birth: an "
            "empty point with exactly 3 neighbours of a colour may get a stone of it. "
            "Survival: a stone with 2 or 3 neighbours of its own colour may not be removed; "
            "with fewer or more it may. Points off the board are empty; nothing wraps.")
    black_goal, white_goal = (p["length"] - row for row in state.goal_rows())
    win = (f"Get a stone of your colour onto your goal line: row {black_goal} for Black, row "
           f"{white_goal} for White (the back row of the other side's starting shape); or make "
           f"{p['captures_to_win']} captures. Both are checked after every move; if one move "
           "fulfils both sides' goals, the mover wins. Two passes in a row are a draw, and "
           f"so is a game still going after {p['max_moves']} moves.")
    return RulesCard(state.info.name, "Losat", move, life, win, _picture(p), CAPTION)


def _picture(params: dict[str, Any]) -> dict[str, Any]:
    """The example move on its small board, under ``params``' rules (the neighbourhood, the
    owner and capture conditions); ``before`` is the board before the move."""
    rules = {k: params[k] for k in ("neighbours", "own_colour_only", "capture_or_more",
                                    "captures_to_win")}
    example = from_setup(EXAMPLE, **EXAMPLE_SIZE, **rules)
    shown = presentation_of(example)
    before = shown.display(example)["grid"]["cells"]
    example.apply_action(example.read_move(EXAMPLE_MOVE))
    return with_change(shown.display(example), before)
