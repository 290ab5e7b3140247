"""Losat ("Life, One Step at a Time"): Conway's Life played one change per turn on a Go board.

Modules:

* ``notation``: Go coordinates, the :class:`Move` value and the position notation;
* ``geometry``: each board size's neighbours and Zobrist table;
* ``rules``: the state (the protocol of :mod:`lifearena.core`) and the rules, with the
  search's hooks;
* ``evaluation``: the heuristic, on plain arrays;
* ``presentation``: the text board, the page's display and how a person picks a move;
* ``game``: :class:`LosatGame`, the game with its parameters.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.losat.game import LosatGame
from lifearena.games.losat.geometry import ZOBRIST_SEED
from lifearena.games.losat.notation import (
    ADD_BLACK,
    ADD_WHITE,
    BLACK,
    CAPTURE,
    COLUMNS,
    MAX_LENGTH,
    MAX_WIDTH,
    PASS,
    REMOVE,
    SYMBOLS,
    WHITE,
    Move,
    format_position,
    parse_point,
    parse_position,
    point_name,
)
from lifearena.games.losat.presentation import LosatPresentation, render
from lifearena.games.losat.rules import (
    DEFAULTS,
    SPECS,
    LosatState,
    check_params,
    from_setup,
    goal_rows,
    new_game,
    start_board,
)

__all__ = [
    "ADD_BLACK",
    "ADD_WHITE",
    "BLACK",
    "CAPTURE",
    "COLUMNS",
    "DEFAULTS",
    "MAX_LENGTH",
    "MAX_WIDTH",
    "PASS",
    "REMOVE",
    "SPECS",
    "SYMBOLS",
    "WHITE",
    "ZOBRIST_SEED",
    "LosatGame",
    "LosatPresentation",
    "LosatState",
    "Move",
    "check_params",
    "format_position",
    "from_setup",
    "goal_rows",
    "new_game",
    "parse_point",
    "parse_position",
    "point_name",
    "render",
    "start_board",
]
