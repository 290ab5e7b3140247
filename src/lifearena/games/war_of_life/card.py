"""War of Life's rules on one card (:class:`~lifearena.core.RulesCard`): the move, the
Immigration rule of the crank, how the game ends, and a small example of a move and its crank.

>>> from lifearena.games.war_of_life.rules import from_prolog
>>> card = rules_card(from_prolog("[[[1,1]],[[8,8]]]"))
>>> card.name, len(card.picture["births"]), len(card.picture["deaths"])
('War of Life', 3, 3)
"""

from __future__ import annotations

from lifearena.core import RulesCard, State, presentation_of
from lifearena.games.war_of_life.fast import MAX_MOVES
from lifearena.games.war_of_life.rules import from_prolog

MOVE = ("Blue moves first, then the players take turns. On your turn, move one of your pieces "
        "one step, in any of the 8 directions, to an empty cell. Then one generation of Life "
        "(\"Conway's Crank\") runs on the whole 8x8 board.")
LIFE = ("Immigration: Conway's Life (B3/S23) with two colours. Each cell counts its 8 "
        "neighbours, whatever their colour. Survival: a piece with 2 or 3 neighbours survives "
        "and keeps its colour; any other piece dies. Birth: an empty cell with exactly 3 "
        "neighbours is born, in the colour most of those 3 have; any other empty cell stays "
        "empty. Cells off the board are always empty.")
WIN = (f"Wipe out the other colour: a side with no pieces left loses. If both colours die in "
       f"the same generation, it is a draw. After {MAX_MOVES} moves the game is a draw (even "
       "if the last generation wiped a side out). A player who has pieces but no legal move "
       "draws (stalemate).")
EXAMPLE = "[[[3,3],[2,5]],[[5,3],[6,6],[6,7],[7,6]]]"
"""The picture's position: blue to move."""
EXAMPLE_MOVE = "[2,5,3,4]"
CAPTION = ("Blue moves 2,5 to 3,4. In the crank, 4,3 and 4,4 each have 2 blue and 1 red "
           "neighbour and are born blue; 7,7 is born red; the three lonely pieces die.")


def rules_card(state: State) -> RulesCard:
    """War of Life's card (its rules have no parameters: every game plays the same)."""
    example = from_prolog(EXAMPLE)
    example.apply_action(example.string_to_action(EXAMPLE_MOVE))
    return RulesCard(state.info.name, "War of Life", MOVE, LIFE, WIN,
                     presentation_of(example).display(example), CAPTION)
