"""lifearena: competitive cellular-automaton games.

Layers (imports point down): ``life`` (the two-colour Life engine), ``core`` (the game
protocol), ``games``, ``agents``, ``arena`` (referee, tournaments, storage, executor),
``studies`` (research workflows) and ``cli``.
"""

from lifearena.errors import (
    BadParameterError,
    GridError,
    IllegalMoveError,
    LifeArenaError,
    ParseError,
    RuleError,
)

__version__ = "0.1.0"

__all__ = [
    "BadParameterError",
    "GridError",
    "IllegalMoveError",
    "LifeArenaError",
    "ParseError",
    "RuleError",
    "__version__",
]
