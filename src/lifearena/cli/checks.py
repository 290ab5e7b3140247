"""Checks of option values shared by the command groups, raising the library's errors.

numpy's generators refuse negative seeds with a bare ``ValueError`` deep inside an agent or a
soup, so the commands check seeds up front and name the option that was wrong.

>>> check_seed(7)
7
>>> check_seed(-1, "--agent-seed")
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: --agent-seed -1 is negative; expected a non-negative integer
"""

from __future__ import annotations

from lifearena.errors import BadParameterError


def check_seed(value: int, option: str = "--seed") -> int:
    """``value`` if it can seed ``numpy.random.default_rng``; else a BadParameterError."""
    if value < 0:
        raise BadParameterError(f"{option} {value} is negative; expected a non-negative integer")
    return value
