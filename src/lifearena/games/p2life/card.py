"""p2life's rules on one card (:class:`~lifearena.core.RulesCard`), worded for the game's
actual parameters (board edges, moves per generation, the generation limit, the coins' seed),
with a small example of one turn and its generation.

>>> from lifearena.games.p2life.rules import new_game
>>> card = rules_card(new_game(size=6, seed=4, torus=False, moves=2))
>>> "every 2 turns" in card.move, "permanently empty" in card.life, "seed, 4" in card.life
(True, True, True)
"""

from __future__ import annotations

from typing import Any

from lifearena.core import RulesCard, presentation_of
from lifearena.games.p2life.rules import P2LifeState

EXAMPLE = ".ww.../....../....../....b./....bb/......"
"""The picture's board (white's pair on the top edge, black's corner), before the example
turn."""
EXAMPLE_MOVES = ("+4,1", "pass")
"""White places a third token in line with its pair; black passes."""


def rules_card(state: P2LifeState) -> RulesCard:
    """p2life's card under ``state``'s parameters."""
    params = state.params
    moves, limit = params["moves"], params["max_generations"]
    every = "every turn" if moves == 1 else f"every {moves} turns"
    move = ("White and black move at the same time, neither seeing the other's choice: place "
            "a token on an empty cell, remove one of your own tokens, or pass. If both place "
            f"on the same cell, it stays empty. One generation of p2life runs after {every}.")
    edges = ("the board's edges wrap round (a torus)" if params["torus"] else
             "cells off the board are permanently empty")
    life = ("p2life, Levene and Roussos's two-player Life. Each cell counts its 8 neighbours "
            f"by colour; {edges}. Birth: an empty cell with exactly 3 neighbours of one colour, "
            "and not exactly 3 of the other, is born that colour. With exactly 3 of each, a "
            "fair coin picks the colour; the coins are drawn from this game's seed, "
            f"{params['seed']}, so the game replays exactly. Survival: a token survives when "
            "its own colour's neighbours outnumber the other colour's by 2 or 3, or by 1 when "
            "it has at least 2 of its own; every other token dies, so a lonely token dies, and "
            "so does one outnumbered by the other colour.")
    win = ("After each generation, a side with no tokens left loses; if both sides die out "
           f"together it is a draw. After {limit} generation{'s' if limit != 1 else ''} the "
           "side with more tokens wins; equal numbers draw.")
    turn = ("White places a third token in line with its pair on the top edge; black passes. "
            "In the generation, ")
    if params["torus"]:
        turn += ("white's line turns upright, its top cell born on the bottom row: the edges "
                 "wrap round")
    else:
        turn += ("white's line loses its ends and gains one cell below: nothing is born off "
                 "the board")
    return RulesCard(state.info.name, "p2life", move, life, win, _picture(params),
                     turn + "; black's corner fills in to a square.")


def _picture(params: dict[str, Any]) -> dict[str, Any]:
    """The example turn and its generation, under ``params`` (edges, seed, moves)."""
    example = P2LifeState.from_setup(f"{EXAMPLE} 0:0", **params)
    turn = [example.string_to_action(text) for text in EXAMPLE_MOVES]
    example.apply_actions(turn)
    while example.generation == 0 and example.outcome() is None:  # more moves a generation
        example.apply_actions([0, 0])
    return presentation_of(example).display(example)
