"""Life for Two's rules on one card (:class:`~lifearena.core.RulesCard`): the instructed
rules under the game's move limit, or the 1978 program's, with a small example of a first
turn (a collision included) and its generation.

>>> from lifearena.games.life_for_two.rules import LifeForTwoState
>>> card = rules_card(LifeForTwoState(max_turns=30, limit_result="population"))
>>> "After 30 turns" in card.win, card.picture["collisions"]
(True, [[3, 0]])
"""

from __future__ import annotations

from typing import Any

from lifearena.core import RulesCard, State, presentation_of
from lifearena.games.life_for_two.rules import LifeForTwoState

LIFE = ("Immigration: Conway's Life (B3/S23) with two colours, on the 5x5 board (cells off it "
        "are always empty). Each cell counts its 8 neighbours, whatever their colour. "
        "Survival: a piece with 2 or 3 neighbours survives and keeps its colour; any other "
        "piece dies. Birth: an empty cell with exactly 3 neighbours is born, in the colour "
        "most of those 3 have; any other empty cell stays empty.")
EXAMPLE_TURN = ("1,3 3,3 1,4", "4,3 1,4 3,4")
"""The picture's first turn from the empty board: teal's three cells, then orange's."""
CAPTION = ("First turn: both chose 1,4, so it stays empty. In the generation, 2,3 and 2,4 are "
           "born teal (2 of their 3 neighbours are teal), 4,4 is born orange, and the lonely "
           "teal piece on 1,3 dies.")


def rules_card(state: State) -> RulesCard:
    """Life for Two's card: the instructed rules under ``state``'s move limit, or, for a
    state of the 1978 program (which has no parameters), that program's."""
    if not isinstance(state, LifeForTwoState):
        return _classic_card(state)
    move = ("Teal (*) and orange (#) choose at the same time, neither seeing the other's "
            "choice: 3 empty cells each on the first turn, then 1 each turn. A cell both "
            "choose stays empty (a collision); every other chosen cell gets its chooser's "
            "piece. Then one generation of Life runs on the whole board.")
    return RulesCard(state.info.name, "Life for Two", move, LIFE, _win(state.params),
                     picture(), CAPTION)


def _win(params: dict[str, Any]) -> str:
    ends = ("After each generation, a player with no pieces left loses; if both have none, "
            "it is a draw.")
    turns = params.get("max_turns")
    if turns is None:
        return f"{ends} There is no move limit: play goes on until a side dies out."
    if params.get("limit_result") == "population":
        return (f"{ends} After {turns} turns an undecided game goes to the player with more "
                "pieces; equal numbers draw.")
    return f"{ends} After {turns} turns an undecided game is a draw."


def _classic_card(state: State) -> RulesCard:
    move = ("The 1978 BASIC program, exactly, at one screen: player 1 types 3 cells as x,y, "
            "then player 2 (who sees them and may not take them), then one cell each turn, "
            "player 1 first. The program's known bug is kept: when player 2 types player 1's "
            "cell on a later turn, neither piece is placed and the cell one column right and "
            "one row down is cleared. After both have answered, one generation of Life runs.")
    win = ("After each generation, a player with no pieces left loses (the program names the "
           "winner); if both have none, it is a draw. There is no move limit.")
    return RulesCard(state.info.name, "Life for Two (the 1978 program)", move, LIFE, win,
                     picture(), "The same generation as in the instructed rules: "
                     + CAPTION[0].lower() + CAPTION[1:])


def picture() -> dict[str, Any]:
    """The example's first turn and its generation, as a page draws it."""
    example = LifeForTwoState()
    example.apply_actions([example.string_to_action(text, seat)
                           for seat, text in enumerate(EXAMPLE_TURN)])
    return presentation_of(example).display(example)
