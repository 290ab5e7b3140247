"""Finding agents by name: ``make("minimax", game="war_of_life", seed=1)``.

Agents register a factory ``f(game=..., seed=..., **options) -> Agent`` under a name, either
for every game (``register_agent("random")``) or for one game
(``register_agent("minimax", game="war_of_life")``). :func:`make` imports
``lifearena.agents.<game>`` (if it exists) so that game's agents are registered, then prefers
a game-specific factory over a generic one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from lifearena.errors import BadParameterError

Factory = Callable[..., Any]
_GENERIC: dict[str, Factory] = {}
_BY_GAME: dict[tuple[str, str], Factory] = {}
_GENERIC_MODULES = ("random_agent", "alphabeta", "mcts", "bot")


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def register_agent(name: str, game: str | None = None) -> Callable[[Factory], Factory]:
    """Decorator registering an agent factory under ``name`` (for ``game`` only, if given)."""

    def decorate(factory: Factory) -> Factory:
        if game is None:
            _GENERIC[_key(name)] = factory
        else:
            _BY_GAME[(_key(game), _key(name))] = factory
        return factory

    return decorate


def _load(game: str | None) -> None:
    for module in _GENERIC_MODULES:
        try:
            importlib.import_module(f"lifearena.agents.{module}")
        except ModuleNotFoundError as error:
            if error.name != f"lifearena.agents.{module}":
                raise
    if game:
        try:
            importlib.import_module(f"lifearena.agents.{_key(game)}")
        except ModuleNotFoundError as error:
            if error.name != f"lifearena.agents.{_key(game)}":
                raise


def available_agents(game: str | None = None) -> list[str]:
    """The agent names usable for ``game`` (generic ones included)."""
    _load(game)
    names = set(_GENERIC)
    if game:
        names |= {n for g, n in _BY_GAME if g == _key(game)}
    return sorted(names)


def make(name: str, game: str | None = None, seed: int | None = 0, **options: Any) -> Any:
    """A new agent called ``name`` for ``game``, seeded with ``seed``.

    ``prolog:FILE:PREDICATE`` names a War of Life strategy written in Prolog
    (:mod:`lifearena.agents.prolog`).
    """
    if name.strip().startswith("prolog:"):
        from lifearena.agents.prolog import make_prolog_agent

        return make_prolog_agent(name.strip().removeprefix("prolog:"), game=game, seed=seed,
                                 **options)
    _load(game)
    key = _key(name)
    factory = _BY_GAME.get((_key(game), key)) if game else None
    factory = factory or _GENERIC.get(key)
    if factory is None:
        raise BadParameterError(f"unknown agent {name!r} for game {game!r}; expected one of: "
                                f"{', '.join(available_agents(game))}")
    return factory(game=game, seed=seed, **options)
