"""lifearena: competitive cellular-automaton games.

Layers (imports point down): ``errors`` and ``caps`` (the caps on numbers and sizes that the
interfaces accept), ``life`` (the two-colour Life engine), ``core`` (the game protocol),
``games``, ``agents``, ``arena`` (referee, tournaments, storage, executor), ``studies``
(research workflows), and the interfaces ``cli``, ``web`` and ``interop``, none of which
imports another (``tests/test_import_layers.py``).
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
