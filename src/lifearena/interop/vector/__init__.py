"""Compiled vector environments: ``num_envs`` boards of one game stepped in one numba call,
Gymnasium ``VectorEnv`` s with the single environments' options, observations and masks
(:mod:`lifearena.interop.gymnasium`), on the game's own compiled rules
(``games/<game>/fast.py``) and one step loop for every game (:mod:`.base`: auto-reset in
Gymnasium's ``NEXT_STEP`` or ``SAME_STEP`` mode, per-board seeds, ``reset_mask``, the
compiled opponents, pools of them, self-play and a frozen policy as opponent).

``gymnasium.make_vec("lifearena/<game>-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` builds one for the games of :data:`VECTOR_GAMES`
(:mod:`lifearena.interop.gymnasium` registers them); :func:`make_vector_env` is that entry
point. Importing this package imports no game kernels: each game's module (and numba) is
loaded when its environment is first made.
"""

from __future__ import annotations

import importlib
from typing import Any

from lifearena.errors import BadParameterError

VECTOR_GAMES: dict[str, str] = {
    "war_of_life": "lifearena.interop.vector.war_of_life:WarOfLifeVectorEnv",
    "life_for_two": "lifearena.interop.vector.life_for_two:LifeForTwoVectorEnv",
    "p2life": "lifearena.interop.vector.p2life:P2LifeVectorEnv",
    "blocking_queen": "lifearena.interop.vector.blocking_queen:BlockingQueenVectorEnv",
    "losat": "lifearena.interop.vector.losat:LosatVectorEnv",
}
"""The games with a compiled vector environment: name -> ``module:class``."""


def vector_env_class(game: str) -> Any:
    """The vector environment class of ``game`` (a registered name).

    >>> vector_env_class("war_of_life").__name__
    'WarOfLifeVectorEnv'
    """
    from lifearena.interop.games import canonical_name

    name = canonical_name(game)
    if name not in VECTOR_GAMES:
        raise BadParameterError(f"no vector environment for {name}; expected one of "
                                f"{', '.join(VECTOR_GAMES)}")
    module, _, attribute = VECTOR_GAMES[name].partition(":")
    return getattr(importlib.import_module(module), attribute)


def make_vector_env(game: str, num_envs: int = 1, **kwargs: Any) -> Any:
    """The compiled vector environment of ``game`` with ``num_envs`` boards (the
    ``vector_entry_point`` Gymnasium's registry calls); ``kwargs`` are its options."""
    return vector_env_class(game)(num_envs, **kwargs)
