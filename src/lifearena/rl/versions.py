"""Versioned environment ids: ``lifearena/<game>[-<size>]-v1`` fixes everything a result
depends on.

``lifearena/<game>-v0`` (:mod:`lifearena.interop.gymnasium`) takes any parameters, so two
papers reporting on ``-v0`` may not have played the same game. A ``-v1`` id names one
:class:`EnvSpec`: the game, every one of its rule parameters (:attr:`EnvSpec.params` names
them all, so that a default changed later in the game cannot move the environment), the
observation encoding and the default opponent. The only parameter left out is ``seed``: it is
the random start, drawn per episode from ``reset(seed=...)``. ``params=`` given to a ``-v1``
id is refused.

What bumps the version (``docs/rl.md``, "Versions"): any change that can change what an agent
sees or what its actions lead to under a ``-v1`` id -- a rule, a parameter, the distribution of
the starts, the observation planes or their order, the action numbering or the mask, the
rewards or the endings, or the moves of a built-in opponent. A change of speed, of the random
streams' derivation alone (the same distributions), or a new id is not a bump. The tripwire is
``tests/interop/test_rl_envs.py``: a digest of each id's observations and masks over a seeded
random rollout.

This module is plain data: it imports no Gymnasium (:mod:`lifearena.rl.envs` registers the
ids).

>>> spec("lifearena/p2life-12x12-v1").params["size"]
12
>>> spec("lifearena/p2life-v1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: unknown environment id 'lifearena/p2life-v1'; ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from lifearena.errors import BadParameterError

NAMESPACE = "lifearena"
"""The Gymnasium namespace of every id."""
FREE_PARAMETERS = frozenset({"seed"})
"""Parameters a ``-v1`` spec leaves free: ``seed`` is the random start of each episode."""


@dataclass(frozen=True)
class EnvSpec:
    """One frozen environment: ``id`` (``lifearena/p2life-12x12-v1``), the ``game``
    (registered name), its rule ``params`` (every parameter but ``seed``, as plain values:
    :func:`lifearena.interop.games.parameter_defaults`), the ``observation`` encoding
    (``"planes"``: the game's own planes as float32, :mod:`lifearena.interop.spaces`), the
    default ``opponent`` and a one-line ``summary``."""

    id: str
    game: str
    params: Mapping[str, Any]
    summary: str
    observation: str = "planes"
    opponent: str = "random"

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    @property
    def name(self) -> str:
        """The id without its namespace: ``p2life-12x12-v1`` (the evaluation set's file
        name)."""
        return self.id.split("/", 1)[1]

    @property
    def version(self) -> int:
        """The version number at the end of the id.

        >>> spec("lifearena/war_of_life-v1").version
        1
        """
        return int(self.id.rsplit("-v", 1)[1])

    @property
    def free_id(self) -> str:
        """The ``-v0`` id of the same game, whose parameters are free."""
        return f"{NAMESPACE}/{self.game}-v0"

    def game_params(self, seed: int = 0) -> dict[str, Any]:
        """The parameters in their plain form with ``seed`` (what
        :func:`lifearena.interop.games.game_object` takes)."""
        return {**self.params, "seed": seed}


def _queen(size: int) -> EnvSpec:
    return EnvSpec(
        f"{NAMESPACE}/blocking_queen-{size}-v1", "blocking_queen",
        {"k": 2, "start": "random", "size": size, "x": 9, "y": 14},
        f"the blocking queen game, k = 2 (one block a turn), the queen's start uniform on the "
        f"{size} x {size} corner")


SPECS: tuple[EnvSpec, ...] = (
    EnvSpec(f"{NAMESPACE}/war_of_life-v1", "war_of_life", {},
            "War of Life, 8 x 8, 12 random pieces a side, 250 moves a draw"),
    EnvSpec(f"{NAMESPACE}/life_for_two-v1", "life_for_two",
            {"rules": "instructed", "max_turns": 100, "limit_result": "population"},
            "Life for Two, 5 x 5, hidden simultaneous placement, 100 turns then the larger "
            "side wins"),
    EnvSpec(f"{NAMESPACE}/losat-19x19-v1", "losat",
            {"width": 19, "length": 19, "own_colour_only": False, "capture_or_more": False,
             "neighbours": 8, "captures_to_win": 5, "first": "b", "offset": 1, "gap": 3,
             "max_moves": 400},
            "Losat on the 19 x 19 Go board, 5 captures or the far edge wins, 400 moves a draw"),
    EnvSpec(f"{NAMESPACE}/losat-9x11-v1", "losat",
            {"width": 9, "length": 11, "own_colour_only": False, "capture_or_more": False,
             "neighbours": 8, "captures_to_win": 5, "first": "b", "offset": 1, "gap": 3,
             "max_moves": 100},
            "Losat on a 9 x 11 board (quick research), 100 moves a draw"),
    EnvSpec(f"{NAMESPACE}/p2life-12x12-v1", "p2life",
            {"size": 12, "density": 0.35, "torus": True, "max_generations": 64, "moves": 1},
            "p2life on a 12 x 12 torus, a symmetric soup of density 0.35, 64 generations"),
    _queen(12),
    _queen(40),
)
"""Every ``-v1`` environment. Frozen: never edit a row (add a ``-v2`` one instead)."""

BY_ID: Mapping[str, EnvSpec] = MappingProxyType({s.id: s for s in SPECS})


def spec(env_id: str) -> EnvSpec:
    """The spec of ``env_id`` (the namespace may be left out: ``war_of_life-v1``); an
    unknown id raises :class:`~lifearena.errors.BadParameterError` naming the known ones.

    >>> spec("war_of_life-v1").game
    'war_of_life'
    """
    text = env_id.strip()
    key = text if "/" in text else f"{NAMESPACE}/{text}"
    if key not in BY_ID:
        raise BadParameterError(f"unknown environment id {env_id!r}; expected one of: "
                                f"{', '.join(BY_ID)}")
    return BY_ID[key]


def refuse_params(env_id: str, options: Mapping[str, Any]) -> None:
    """Raise :class:`~lifearena.errors.BadParameterError` when ``options`` carry
    ``params``: a ``-v1`` id fixes them.

    >>> refuse_params("lifearena/war_of_life-v1", {"opponent": "bloodlust"})
    >>> refuse_params("lifearena/war_of_life-v1", {"params": {"seed": 3}})
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: lifearena/war_of_life-v1 fixes every game parameter; \
got params={'seed': 3}; expected no params (free parameters: lifearena/war_of_life-v0)
    """
    if "params" in options:
        fixed = spec(env_id)
        raise BadParameterError(f"{fixed.id} fixes every game parameter; got "
                                f"params={options['params']!r}; expected no params (free "
                                f"parameters: {fixed.free_id})")
