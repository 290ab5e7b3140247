"""The other way round: OpenSpiel bots and PettingZoo-style policies as lifearena agents.

:func:`lifearena.agents.make` builds one of these for any agent name of the form
``module:callable`` (``mypackage.policies:greedy``) or ``file.py:callable``
(``bots/mine.py:make_bot``), so such an agent enters ``lifearena tournament -a
mine=module:callable`` and ``lifearena ladder -a mine=module:callable`` like a built-in one.
What the named object is decides the adapter:

* a lifearena :class:`~lifearena.agents.base.Agent` instance: used as it is;
* an object with a ``step(state)`` method (an OpenSpiel bot, e.g. ``pyspiel.Bot``): it is
  given the position as an OpenSpiel state of ``python_<game>``
  (:mod:`lifearena.interop.openspiel`) and answers an action. In a simultaneous game (Life
  for Two, p2life) the game is its turn-based form, ``python_<game>_turn_based``, and the
  state puts the bot's own seat first to choose, so OpenSpiel's search bots (which need
  sequential turns) play it without ever seeing the other side's choice;
* a callable with a parameter named ``game`` (a bot factory): called once per seat as
  ``factory(game=<pyspiel game>, player=..., seed=..., **options)`` with those keywords it
  accepts; it returns an OpenSpiel bot as above;
* any other callable (a policy): ``policy(observation, action_mask) -> action``, with the
  int8 planes of ``State.observation(player)`` and the int8 legal-action mask over the
  game's own actions (``State.legal_actions_mask``).

The agent sees only its seat's view of the position (``State.view``). Its answer is checked by
the referee like any agent's.

>>> agent = make_agent("lifearena.interop.agents:first_legal", game="war_of_life")
>>> from lifearena.interop.games import new_state
>>> state = new_state("war_of_life")
>>> agent.act(state, 0) == state.legal_actions(0)[0]
True
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.core import Action, State
from lifearena.errors import BadParameterError

Policy = Callable[[np.ndarray, np.ndarray], Any]


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A policy for examples and tests: the lowest legal action.

    >>> first_legal(np.zeros((1, 2, 2), np.int8), np.array([0, 0, 1, 1], np.int8))
    2
    """
    return int(np.flatnonzero(action_mask)[0])


def load_object(spec: str) -> Any:
    """The object ``spec`` names: ``module:attribute`` (dotted attributes allowed) or
    ``path/file.py:attribute``; a module not importable from ``sys.path`` is also looked
    for as a ``.py`` file under the current directory.

    >>> load_object("lifearena.interop.agents:first_legal").__name__
    'first_legal'
    """
    where, colon, attribute = spec.strip().rpartition(":")
    if not colon or not where or not attribute:
        raise BadParameterError(f"agent {spec!r}; expected module:callable or file.py:callable")
    module = _load_module(where, spec)
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise BadParameterError(f"agent {spec!r}: {where} has no {attribute!r}; expected "
                                    "module:callable naming a policy, bot or bot factory"
                                    ) from None
    return target


def _load_module(where: str, spec: str) -> Any:
    path = Path(where)
    if where.endswith(".py") or "/" in where:
        if not path.is_file():
            raise BadParameterError(f"agent {spec!r}: no file {where!r}; expected "
                                    "file.py:callable")
        return _module_from_file(path, spec)
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as error:
        if error.name != where.split(".")[0] and error.name != where:
            raise _import_failed(spec, where, error) from error
        local = Path.cwd() / (where.replace(".", "/") + ".py")
        if local.is_file():
            return _module_from_file(local, spec)
        raise BadParameterError(f"agent {spec!r}: no module {where!r}; expected "
                                "module:callable with the module importable") from None
    except Exception as error:  # the user's module itself is broken
        raise _import_failed(spec, where, error) from error


def _import_failed(spec: str, where: object, error: Exception) -> BadParameterError:
    return BadParameterError(f"agent {spec!r}: {where} did not import: "
                             f"{type(error).__name__}: {error}")


def _module_from_file(path: Path, spec: str) -> Any:
    name = f"lifearena_user_{abs(hash(str(path.resolve())))}"
    if name in sys.modules:
        return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:  # pragma: no cover - a .py file
        raise BadParameterError(f"cannot load {path}; expected a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]  # a later try runs the fixed file, not this half module
        raise _import_failed(spec, path, error) from error
    return module


class PolicyAgent(Agent):
    """A PettingZoo-style policy ``policy(observation, action_mask) -> action`` as an agent."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        return int(self.policy(state.observation(player), state.legal_actions_mask(player)))


class OpenSpielBotAgent(Agent):
    """An OpenSpiel bot (anything with ``step(pyspiel_state) -> action``) as an agent.

    ``bot`` is one bot for every seat, or ``factory(game=..., player=..., seed=...)`` making
    one per seat on first use.
    """

    def __init__(self, game: str, bot: Any = None, factory: Callable[..., Any] | None = None,
                 seed: int | None = 0, options: dict[str, Any] | None = None,
                 name: str = "openspiel") -> None:
        if (bot is None) == (factory is None):
            raise BadParameterError("give an OpenSpiel bot or a bot factory, not both or none")
        self.game = game
        self.name = name
        self._shared = bot
        self._factory = factory
        self._seed = seed
        self._options = dict(options or {})
        self._bots: dict[int, Any] = {}
        self._games: dict[tuple, Any] = {}

    def _pyspiel_game(self, state: State) -> Any:
        """The OpenSpiel game of ``state``'s game and parameters (start ones included): the
        turn-based form for a simultaneous game."""
        from lifearena.core import Dynamics
        from lifearena.interop import openspiel
        from lifearena.interop.games import NONE_VALUE, parameter_defaults

        known = parameter_defaults(state.info.name)
        params = {k: (NONE_VALUE if v is None else v) for k, v in state.game.params.items()
                  if k in known}
        key = tuple(sorted(params.items()))
        if key not in self._games:
            load = openspiel.load_turn_based if state.info.dynamics is Dynamics.SIMULTANEOUS \
                else openspiel.load
            self._games[key] = load(state.info.name, **params)
        return self._games[key]

    def _bot(self, game: Any, player: int) -> Any:
        if self._shared is not None:
            return self._shared
        if player not in self._bots:
            assert self._factory is not None
            offered = {"game": game, "player": player, "seed": self._seed, **self._options}
            accepted = inspect.signature(self._factory).parameters
            takes_all = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
            self._bots[player] = self._factory(
                **{k: v for k, v in offered.items() if takes_all or k in accepted})
        return self._bots[player]

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        from lifearena.interop.openspiel import LifeArenaState, TurnBasedGame, TurnBasedState

        game = self._pyspiel_game(state)
        position = TurnBasedState(game, state.clone(), first=player) \
            if isinstance(game, TurnBasedGame) else LifeArenaState(game, state.clone())
        return int(self._bot(game, player).step(position))

    def reset(self) -> None:
        for bot in (self._shared, *self._bots.values()):
            if bot is not None and hasattr(bot, "restart"):
                bot.restart()


def make_agent(spec: str, game: str | None = None, seed: int | None = 0,
               **options: Any) -> Agent:
    """The agent ``spec`` (``module:callable`` or ``file.py:callable``) names, for ``game``
    (see the module doc)."""
    target = load_object(spec)
    name = spec.strip()
    if isinstance(target, Agent):
        return target
    if hasattr(target, "step") and not isinstance(target, type):
        return OpenSpielBotAgent(_need_game(game, spec), bot=target, name=name)
    if not callable(target):
        raise BadParameterError(f"agent {spec!r} names a {type(target).__name__}; expected a "
                                "policy, an OpenSpiel bot or a bot factory")
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        parameters = {}  # type: ignore[assignment]
    if "game" in parameters:
        return OpenSpielBotAgent(_need_game(game, spec), factory=target, seed=seed,
                                 options=options, name=name)
    if options:
        raise BadParameterError(f"agent {spec!r} is a policy and takes no options; got "
                                f"{', '.join(sorted(options))}")
    return PolicyAgent(target, name=name)


def _need_game(game: str | None, spec: str) -> str:
    if not game:
        raise BadParameterError(f"agent {spec!r} is an OpenSpiel bot; expected a game to "
                                "play it in")
    return game
