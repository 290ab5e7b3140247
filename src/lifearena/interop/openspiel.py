"""Every lifearena game as an OpenSpiel Python game.

Importing this module registers ``python_war_of_life``, ``python_life_for_two``,
``python_losat``, ``python_p2life`` and ``python_blocking_queen`` (one per game in
:func:`lifearena.interop.games.lifearena_games`) with ``pyspiel.register_game``; after that
OpenSpiel loads them by name, parameters included::

    import pyspiel
    import lifearena.interop.openspiel  # registers the games
    game = pyspiel.load_game("python_war_of_life(seed=3)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

What OpenSpiel sees, all read off the protocol of :mod:`lifearena.core`:

* dynamics SEQUENTIAL or SIMULTANEOUS as ``GameInfo.dynamics`` says; chance mode
  DETERMINISTIC (a random start is fixed by the ``seed`` parameter) or EXPLICIT_STOCHASTIC
  for games with chance nodes; perfect or imperfect information; zero-sum, terminal rewards.
* parameters through ``parameter_specification``: see :mod:`lifearena.interop.games` for
  their plain form (``seed`` an integer; ``0`` for "no limit").
* actions are the game's dense integers and their strings the game's own notation
  (``state.action_to_string(player, action)`` gives ``"[1,1,2,2]"`` in War of Life).
* the observation tensor is ``State.observation(player)`` (int8 planes) as float32, shape
  ``(planes, height, width)``; the observation string is the player's view of the board;
  the information-state string is the action history for perfect-information games and, for
  the others, the player's own moves with what it saw after each.

An illegal action raises the library's :class:`~lifearena.errors.IllegalMoveError` (a
``ValueError``) through OpenSpiel. OpenSpiel's C++ MCTS bot (``pyspiel.MCTSBot``) crashes on
Python games; use the Python one, :mod:`open_spiel.python.algorithms.mcts`.

The simultaneous games (Life for Two, p2life) also come in a **turn-based form**, which
OpenSpiel's search bots need (their Python MCTS refuses a game without sequential turns):
``python_life_for_two_turn_based`` (:func:`load_turn_based`), SEQUENTIAL and imperfect
information. At each simultaneous node the players choose one after the other, the first
chooser's choice held back, unseen in every observation and information state, until the
second has chosen; then both are applied together, as in the game. Player 0 chooses first in
the states it makes; :class:`TurnBasedState` can put either player first (the tournament's
OpenSpiel agent puts its own seat first, so its search never sees the other side's choice).
``pyspiel.convert_to_turn_based(load("life_for_two"))`` works too (player 0 always first).

>>> game = load_turn_based("life_for_two", max_turns=4)
>>> state = game.new_initial_state()
>>> state.current_player(), state.inner.is_simultaneous_node()
(0, True)
>>> state.apply_action(state.legal_actions()[0])
>>> state.current_player(), len(state.inner.history())
(1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from lifearena.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Chance,
    Dynamics,
    Information,
    State,
    load_game,
)
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.games import (
    canonical_name,
    game_params,
    lifearena_games,
    new_state,
    parameter_defaults,
    refusal,
)

PREFIX = "python_"
"""OpenSpiel short names are ``PREFIX + game`` (``python_war_of_life``)."""

_PLAYER_IDS = {
    CHANCE: pyspiel.PlayerId.CHANCE,
    SIMULTANEOUS: pyspiel.PlayerId.SIMULTANEOUS,
    TERMINAL: pyspiel.PlayerId.TERMINAL,
}


def short_name(game: str) -> str:
    """The OpenSpiel short name of a lifearena game.

    >>> short_name("war-of-life")
    'python_war_of_life'
    """
    return PREFIX + canonical_name(game)


def game_type(game: str) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of a lifearena game (static facts and parameters)."""
    info = load_game(game).info
    dynamics = (pyspiel.GameType.Dynamics.SIMULTANEOUS if info.dynamics is Dynamics.SIMULTANEOUS
                else pyspiel.GameType.Dynamics.SEQUENTIAL)
    chance = (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if info.chance is Chance.EXPLICIT
              else pyspiel.GameType.ChanceMode.DETERMINISTIC)
    information = (pyspiel.GameType.Information.PERFECT_INFORMATION
                   if info.information is Information.PERFECT
                   else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    utility = (pyspiel.GameType.Utility.ZERO_SUM if info.zero_sum
               else pyspiel.GameType.Utility.GENERAL_SUM)
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"Python {info.long_name}",
        dynamics=dynamics,
        chance_mode=chance,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.num_players,
        min_num_players=info.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(info.name),
    )


class LifeArenaGame(pyspiel.Game):
    """An OpenSpiel game over one lifearena game; subclasses fix ``GAME`` (the registered
    name) and ``TYPE``. Made by ``pyspiel.load_game``, or directly: ``game_class("losat")()``.
    """

    GAME: str = ""
    TYPE: pyspiel.GameType
    PLIES_PER_MOVE = 1
    """OpenSpiel plies one of the game's moves takes (2 in the turn-based form)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.params = {**self.TYPE.parameter_specification, **dict(params or {})}
        self._start = new_state(self.GAME, self.params)
        super().__init__(self.TYPE, _game_info(self._start, self.PLIES_PER_MOVE), self.params)
        self._observation_shape = tuple(self._start.observation(0).shape)

    def new_initial_state(self) -> LifeArenaState:
        """The start of the game (the same for every call: the seed is a parameter)."""
        return LifeArenaState(self, self._start.clone())

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> LifeArenaObserver:
        """The observer OpenSpiel asks for observations and information states."""
        if params:
            raise BadParameterError(f"observation parameters {dict(params)!r}; expected none")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return LifeArenaObserver(self._observation_shape, perfect_recall)


def _game_info(start: State, plies_per_move: int) -> pyspiel.GameInfo:
    """OpenSpiel's sizes of the game ``start`` begins, from its :class:`~lifearena.core.Game`
    object (``plies_per_move``: 2 for the turn-based form of a simultaneous game)."""
    info, made = start.info, start.game
    actions = made.num_distinct_actions
    num_chance = max((len(start.chance_outcomes()),
                      actions if info.chance is Chance.EXPLICIT else 0))
    return pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=num_chance,
        num_players=info.num_players,
        min_utility=info.min_utility,
        max_utility=info.max_utility,
        utility_sum=0.0 if info.zero_sum else None,
        max_game_length=made.max_game_length * plies_per_move,
    )


class LifeArenaState(pyspiel.State):
    """An OpenSpiel state wrapping a lifearena :class:`~lifearena.core.State` (``.inner``)."""

    def __init__(self, game: LifeArenaGame, inner: State) -> None:
        super().__init__(game)
        self.inner = inner

    def current_player(self) -> int:
        player = self.inner.current_player()
        return int(_PLAYER_IDS.get(player, player))

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        self.inner.apply_actions([int(a) for a in actions])

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(int(action), player if player >= 0 else None)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return list(self.inner.returns())

    def __str__(self) -> str:
        return str(self.inner)


class LifeArenaObserver:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) over ``State.observation`` and ``State.view``."""

    def __init__(self, shape: tuple[int, ...], perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        if perfect_recall:  # information states are strings only
            self.tensor: np.ndarray | None = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: LifeArenaState, player: int) -> None:
        if self.tensor is not None:
            self.dict["observation"][...] = state.inner.observation(player)

    def string_from(self, state: LifeArenaState, player: int) -> str:
        inner = state.inner
        if not self.perfect_recall:
            return str(inner.view(player))
        if inner.info.information is Information.PERFECT:
            return " ".join(map(str, inner.history()))
        return _recall(inner, player)


def _recall(state: State, player: int) -> str:
    """``player``'s own moves and what it saw after each (perfect recall, hidden moves of the
    other side left out), replayed from the start."""
    replay = type(state).from_setup(state.setup(), **state.params)
    lines = [str(replay.view(player))]
    for item in state.history():
        if isinstance(item, tuple):
            lines.append(replay.action_to_string(item[player], player))
            replay.apply_actions(item, check=False)
        else:
            mover = replay.current_player()
            if mover == player:
                lines.append(replay.action_to_string(item, player))
            replay.apply_action(item, check=False)
        lines.append(str(replay.view(player)))
    return "\n".join(lines)


class TurnBasedGame(LifeArenaGame):
    """The turn-based form of a simultaneous lifearena game (see the module doc);
    subclasses fix ``GAME`` and ``TYPE``. Made by :func:`load_turn_based` or
    ``pyspiel.load_game("python_<game>_turn_based(...)")``. Its observer is the simultaneous
    form's: a held-back choice is not shown."""

    PLIES_PER_MOVE = 2

    def new_initial_state(self) -> TurnBasedState:  # type: ignore[override]
        """The start of the game, player 0 choosing first at every simultaneous node."""
        return TurnBasedState(self, self._start.clone())


class TurnBasedState(pyspiel.State):
    """A lifearena state (``.inner``) played turn by turn: at a simultaneous node the player
    ``first`` chooses, then the other; both choices are then applied together."""

    def __init__(self, game: pyspiel.Game, inner: State, first: int = 0) -> None:
        super().__init__(game)
        self.inner = inner
        self.order = (first, 1 - first)
        self.held: list[int] = []

    def current_player(self) -> int:
        player = self.inner.current_player()
        if player == SIMULTANEOUS:
            return self.order[len(self.held)]
        return int(_PLAYER_IDS.get(player, player))

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if not self.inner.is_simultaneous_node():
            self.inner.apply_action(int(action))
            return
        chooser = self.current_player()
        if int(action) not in self.inner.legal_actions(chooser):
            raise IllegalMoveError(refusal(self.inner, chooser, int(action)))
        self.held.append(int(action))
        if len(self.held) == len(self.order):
            joint = [0] * len(self.order)
            for player, chosen in zip(self.order, self.held, strict=True):
                joint[player] = chosen
            self.held = []
            self.inner.apply_actions(joint)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(int(action), player if player >= 0 else None)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return list(self.inner.returns())

    def __str__(self) -> str:
        return str(self.inner)


_CLASSES: dict[str, type[LifeArenaGame]] = {}
_TURN_BASED: dict[str, type[TurnBasedGame]] = {}
TURN_BASED_SUFFIX = "_turn_based"
"""The turn-based form of ``python_<game>`` is ``python_<game>_turn_based``."""


def game_class(game: str) -> type[LifeArenaGame]:
    """The :class:`LifeArenaGame` subclass of ``game``, registered with OpenSpiel."""
    name = canonical_name(game)
    if name not in _CLASSES:
        cls = type(f"OpenSpiel_{name}", (LifeArenaGame,), {"GAME": name, "TYPE": game_type(name)})
        pyspiel.register_game(cls.TYPE, cls)
        _CLASSES[name] = cls
    return _CLASSES[name]


def turn_based_class(game: str) -> type[TurnBasedGame]:
    """The :class:`TurnBasedGame` subclass of a simultaneous ``game``, registered with
    OpenSpiel; a turn-based game raises :class:`BadParameterError`."""
    name = canonical_name(game)
    if load_game(name).info.dynamics is not Dynamics.SIMULTANEOUS:
        raise BadParameterError(f"{name} is already turn-based; expected a simultaneous game "
                                "(load it with load())")
    if name not in _TURN_BASED:
        base = game_type(name)
        kind = pyspiel.GameType(
            short_name=base.short_name + TURN_BASED_SUFFIX,
            long_name=f"{base.long_name} (turn-based)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=base.chance_mode,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=base.utility,
            reward_model=base.reward_model,
            max_num_players=base.max_num_players,
            min_num_players=base.min_num_players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=base.parameter_specification,
        )
        cls = type(f"OpenSpiel_{name}_turn_based", (TurnBasedGame,), {"GAME": name, "TYPE": kind})
        pyspiel.register_game(kind, cls)
        _TURN_BASED[name] = cls
    return _TURN_BASED[name]


def load_turn_based(game: str, **params: Any) -> TurnBasedGame:
    """The turn-based form of a simultaneous lifearena game with ``params`` (checked and
    typed as :func:`load` does)."""
    short = turn_based_class(game).TYPE.short_name
    return pyspiel.load_game(short, _typed_params(game, params))


def load(game: str, **params: Any) -> LifeArenaGame:
    """``pyspiel.load_game`` for a lifearena game name and parameters.

    >>> load("war_of_life", seed=3).get_type().short_name
    'python_war_of_life'
    >>> try:
    ...     load("war_of_life", size=3)
    ... except ValueError as error:
    ...     print(error)
    unknown parameter 'size' of 'war_of_life'; expected some of: seed

    A value is given the type of the parameter's default where that loses nothing
    (``density=1`` is ``1.0``, a numpy integer an ``int``), as OpenSpiel checks types exactly:

    >>> load("p2life", density=1, seed=np.int64(2)).get_parameters()["density"]
    1.0
    >>> try:
    ...     load("p2life", torus=1)
    ... except ValueError as error:
    ...     print(error)
    parameter torus=1 of 'p2life'; expected type bool, like its default True
    """
    game_class(game)
    return pyspiel.load_game(short_name(game), _typed_params(game, params))


def _typed_params(game: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` completed with the defaults, each with the type of its default."""
    chosen = game_params(game, params)
    for name, default in parameter_defaults(game).items():
        chosen[name] = _as_type_of(default, chosen[name], name, game)
    return chosen


def _as_type_of(default: Any, value: Any, name: str, game: str) -> Any:
    """``value`` with the type of ``default`` (int, float, bool or str), or an error."""
    if not isinstance(value, bool | np.bool_):
        if isinstance(default, float) and isinstance(value, int | float | np.number):
            return float(value)
        if isinstance(default, int) and not isinstance(default, bool) and \
                isinstance(value, int | np.integer):
            return int(value)
    if isinstance(value, type(default)):
        return value
    raise BadParameterError(f"parameter {name}={value!r} of {canonical_name(game)!r}; "
                            f"expected type {type(default).__name__}, like its default {default!r}")


def register_all() -> list[str]:
    """Register every lifearena game with OpenSpiel, and the turn-based form of each
    simultaneous one; their short names."""
    names = []
    for name in lifearena_games():
        names.append(game_class(name).TYPE.short_name)
        if load_game(name).info.dynamics is Dynamics.SIMULTANEOUS:
            names.append(turn_based_class(name).TYPE.short_name)
    return names


register_all()
