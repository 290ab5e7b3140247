"""Finding agents by name: ``make("minimax", game="war_of_life", seed=1)``.

Agents register a factory ``f(game=..., seed=..., **options) -> Agent`` under a name, either
for every game (``register_agent("random")``) or for one game
(``register_agent("minimax", game="war_of_life")``). :func:`make` imports
``lifearena.agents.<game>`` (if it exists) so that game's agents are registered, then prefers
a game-specific factory over a generic one.

A game's agents may also register a *fast path* (:func:`register_fast_path`): whole games
between two named agents played without the protocol (compiled), exactly as those agents
would play them on it; :func:`fast_player` finds it for a pair of names, or answers ``None``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from lifearena.errors import BadParameterError

if TYPE_CHECKING:
    from lifearena.core import Outcome

Factory = Callable[..., Any]
_GENERIC: dict[str, Factory] = {}
_BY_GAME: dict[tuple[str, str], Factory] = {}
_SPECS: dict[str, Factory] = {}
_GENERIC_MODULES = ("random_agent", "alphabeta", "mcts", "bot", "prolog", "policy",
                    "alphazero")


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


def register_spec(prefix: str) -> Callable[[Factory], Factory]:
    """Decorator registering a factory ``f(rest, game=..., seed=..., **options)`` for agent
    names that start with ``prefix`` (``"prolog:"``: ``make("prolog:FILE:PRED")`` calls
    ``f("FILE:PRED", ...)``)."""

    def decorate(factory: Factory) -> Factory:
        _SPECS[prefix] = factory
        return factory

    return decorate


class FastGames(Protocol):
    """Whole games between two named agents, played by a game's fast path."""

    def play(self, setups: Iterable[str]) -> list[tuple[list[str], Outcome, float]]:
        """``(moves, outcome, seconds)`` for each setup, in order, the agents kept from one
        game to the next."""
        ...


FastPath = Callable[[tuple[str, str], tuple[int, int]], FastGames | None]
"""``f(names, seeds)``: the :class:`FastGames` of two agents called ``names`` (no options),
seeded ``seeds``, or ``None`` when the fast path does not play one of them."""
_FAST: dict[str, FastPath] = {}


def register_fast_path(game: str) -> Callable[[FastPath], FastPath]:
    """Decorator registering ``game``'s fast path (one per game)."""

    def decorate(factory: FastPath) -> FastPath:
        _FAST[_key(game)] = factory
        return factory

    return decorate


def has_fast_path(game: str) -> bool:
    """Whether ``game``'s agents register a fast path.

    >>> has_fast_path("war_of_life"), has_fast_path("losat")
    (True, False)
    """
    _load(game)
    return _key(game) in _FAST


def fast_player(game: str, names: tuple[str, str], seeds: tuple[int, int]
                ) -> FastGames | None:
    """The fast path's player of the agents called ``names`` (no options) seeded ``seeds``
    for ``game``; ``None`` when the game has no fast path or it does not play one of them.

    >>> fast_player("war_of_life", ("minimax", "random"), (0, 1)) is not None
    True
    >>> fast_player("war_of_life", ("minimax", "mcts"), (0, 1)) is None
    True
    """
    _load(game)
    factory = _FAST.get(_key(game))
    return None if factory is None else factory(names, seeds)


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


def _spec_of(name: str) -> tuple[str, Factory] | None:
    """``(rest, factory)`` when ``name`` starts with a prefix of :func:`register_spec` (in
    any case, as agent names are), else ``None``."""
    _load(None)
    text = name.strip()
    for prefix, factory in _SPECS.items():
        if text.lower().startswith(prefix.lower()):
            return text[len(prefix):], factory
    return None


def is_python_spec(name: str) -> bool:
    """True for ``module:callable`` / ``file.py:callable`` agent names (an OpenSpiel bot or a
    PettingZoo-style policy, see :mod:`lifearena.interop.agents`): a name with a colon that
    starts with no prefix of :func:`register_spec`.

    >>> is_python_spec("mypkg.policies:greedy"), is_python_spec("minimax")
    (True, False)
    >>> is_python_spec("prolog:my.pl:bloodlust")
    False
    """
    return ":" in name and _spec_of(name) is None


def is_spec_name(name: str) -> bool:
    """True for a name that builds an agent from outside the registry's list
    (``prolog:FILE:PRED``, ``module:callable``): it is checked when it is built.

    >>> is_spec_name("prolog:my.pl:bloodlust"), is_spec_name("random")
    (True, False)
    """
    return _spec_of(name) is not None or is_python_spec(name)


def split_name(text: str) -> tuple[str, str]:
    """Split ``NAME[:key=value,...]`` into the name and the options text, keeping a
    ``module:callable`` name whole (a segment without ``=`` belongs to the name).

    >>> split_name("mine=pkg.mod:policy:temperature=0.5")
    ('mine=pkg.mod:policy', 'temperature=0.5')
    >>> split_name("alphabeta:depth=2")
    ('alphabeta', 'depth=2')
    """
    parts = text.split(":")
    end = 1
    while end < len(parts) and "=" not in parts[end]:
        end += 1
    return ":".join(parts[:end]), ":".join(parts[end:])


def make(name: str, game: str | None = None, seed: int | None = 0, **options: Any) -> Any:
    """A new agent called ``name`` for ``game``, seeded with ``seed``.

    Two kinds of name build an agent from outside the registry:

    * ``prolog:FILE:PREDICATE`` — a War of Life strategy written in Prolog
      (:mod:`lifearena.agents.prolog`, registered with :func:`register_spec`);
    * ``module:callable`` or ``file.py:callable`` — an OpenSpiel bot or a PettingZoo-style
      policy, through the adapter of :func:`lifearena.interop.agents.make_agent` (imported
      only when such a name is used).
    """
    _load(game)
    spec = _spec_of(name)
    if spec is not None:
        rest, spec_factory = spec
        return spec_factory(rest, game=game, seed=seed, **options)
    if is_python_spec(name):
        # the one import of a higher layer: the adapter of an outside library's agent
        from lifearena.interop.agents import make_agent

        return make_agent(name, game=game, seed=seed, **options)
    key = _key(name)
    factory = _BY_GAME.get((_key(game), key)) if game else None
    factory = factory or _GENERIC.get(key)
    if factory is None:
        raise BadParameterError(f"unknown agent {name!r} for game {game!r}; expected one of: "
                                f"{', '.join(available_agents(game))}")
    return factory(game=game, seed=seed, **options)
