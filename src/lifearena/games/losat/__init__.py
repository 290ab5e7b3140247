"""Losat ("Life, One Step at a Time"): Conway's Life played one change per turn on a Go board.

Modules:

* ``rules``: the state and its game (the protocol of :mod:`lifearena.core`);
* ``evaluation``: the heuristic, on plain arrays.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.losat.rules import (
    ADD_BLACK,
    ADD_WHITE,
    BLACK,
    CAPTURE,
    COLUMNS,
    DEFAULTS,
    MAX_LENGTH,
    MAX_WIDTH,
    REMOVE,
    SPECS,
    SYMBOLS,
    WHITE,
    ZOBRIST_SEED,
    LosatGame,
    LosatState,
    check_params,
    format_position,
    from_setup,
    goal_rows,
    new_game,
    parse_point,
    parse_position,
    point_name,
    render,
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
    "REMOVE",
    "SPECS",
    "SYMBOLS",
    "WHITE",
    "ZOBRIST_SEED",
    "LosatGame",
    "LosatState",
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
