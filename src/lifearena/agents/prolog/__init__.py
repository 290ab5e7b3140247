"""War of Life strategies written in Prolog (the coursework's form) playing in the arena.

A strategy is a predicate ``strategy(+PlayerColour, +CurrentBoardState, -NewBoardState,
-Move)`` in a ``.pl`` file; ``make("prolog:FILE:PREDICATE", game="war_of_life")`` (or
``--prolog FILE:PREDICATE`` on the command line) plays it through SWI-Prolog. The board
predicates it may call (``next_generation/2``, ``neighbour_position/3``, ``alter_board/3``...)
are in ``war_of_life.pl`` next to this file; ``docs/prolog.md`` lists them.
"""

from lifearena.agents.prolog.agent import (
    BOARD_PREDICATES,
    DRIVER,
    SPEC_PREFIX,
    SWIPL_PACKAGE,
    PrologAgent,
    PrologBoardMismatch,
    PrologMalformedMove,
    PrologStrategyError,
    SwiplNotFound,
    find_swipl,
    make_prolog_agent,
    parse_prolog_spec,
)

__all__ = [
    "BOARD_PREDICATES",
    "DRIVER",
    "SPEC_PREFIX",
    "SWIPL_PACKAGE",
    "PrologAgent",
    "PrologBoardMismatch",
    "PrologMalformedMove",
    "PrologStrategyError",
    "SwiplNotFound",
    "find_swipl",
    "make_prolog_agent",
    "parse_prolog_spec",
]
