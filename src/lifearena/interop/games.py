"""The games as every adapter sees them: parameters with defaults, starting states, chance
nodes, pictures. Everything here is read off the protocol of :mod:`lifearena.core` and each
game's parameter specs (:class:`lifearena.params.ParamSpec`); no adapter knows any game's
rules.

A game's parameters are its specs (the rules' and the start's: a ``seed``, a board
``size``...). The research libraries want plain values (OpenSpiel accepts only ``int``,
``float``, ``bool`` and ``str``), so two conventions apply throughout:

* ``seed`` is always an integer (default 0): the seed of the game's random start, so a game
  with given parameters always starts the same way (games whose start never varies ignore
  it).
* any other parameter whose default is ``None`` ("no limit") is the integer ``0`` outside, and
  ``0`` means ``None`` coming back in.

>>> parameter_defaults("war_of_life")
{'seed': 0}
>>> parameter_defaults("life_for_two")
{'limit_result': 'draw', 'max_turns': 0, 'rules': 'instructed', 'seed': 0}
>>> new_state("life_for_two", {"max_turns": 0}).params
{'max_turns': None, 'limit_result': 'draw'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from lifearena.core import (
    CHANCE,
    SIMULTANEOUS,
    Game,
    State,
    available_games,
    game_type,
    load_game,
)
from lifearena.errors import BadParameterError, IllegalMoveError

ParamValue = int | float | bool | str
NONE_VALUE = 0
"""How a parameter whose lifearena default is ``None`` reads outside: the integer 0."""
RENDER_MODES = ("human", "ansi", "rgb_array")
"""The render modes of the PettingZoo and Gymnasium environments (fixed at construction):
``"human"`` prints the board as text, ``"ansi"`` returns that text, ``"rgb_array"`` a
picture."""


def lifearena_games() -> list[str]:
    """The games of the ``lifearena.games`` package, the ones the adapters register (games
    registered from elsewhere, such as a test's toy games, are left out).

    >>> lifearena_games()[:2]
    ['blocking_queen', 'life_for_two']
    """
    return [name for name in available_games()
            if load_game(name).__module__.startswith("lifearena.games.")]


def canonical_name(game: str) -> str:
    """The registered name of ``game`` (``"war-of-life"`` -> ``"war_of_life"``); an unknown
    name raises the library's :class:`~lifearena.errors.BadParameterError`.

    >>> canonical_name("War-Of-Life")
    'war_of_life'
    """
    return load_game(game).info.name


def parameter_defaults(game: str) -> dict[str, ParamValue]:
    """Every parameter of ``game`` with its default, as plain values (see the module doc),
    read off the game's specs. Text parameters (a position typed in a form) are left out, with
    the choice that switches to them (War of Life's ``start``): OpenSpiel's game strings
    cannot carry their brackets and commas; start from a setup instead."""
    specs = game_type(game).specs
    text = [spec for spec in specs if spec.kind == "text"]
    left_out = {spec.name for spec in text} | {spec.shown_when[0] for spec in text
                                               if spec.shown_when}
    plain: dict[str, ParamValue] = {"seed": 0}
    for spec in specs:
        if spec.name not in left_out:
            plain[spec.name] = spec.plain_default
    return dict(sorted(plain.items()))


def game_params(game: str, params: Mapping[str, Any] | None = None) -> dict[str, ParamValue]:
    """The defaults of ``game`` updated with ``params``; an unknown name raises
    :class:`~lifearena.errors.BadParameterError`.

    >>> game_params("war_of_life", {"seed": 4})
    {'seed': 4}
    >>> try:
    ...     game_params("war_of_life", {"size": 4})
    ... except ValueError as error:
    ...     print(error)
    unknown parameter 'size' of 'war_of_life'; expected some of: seed
    """
    defaults = parameter_defaults(game)
    chosen = dict(params or {})
    unknown = sorted(set(chosen) - set(defaults))
    if unknown:
        raise BadParameterError(f"unknown parameter {unknown[0]!r} of {canonical_name(game)!r}; "
                                f"expected some of: {', '.join(defaults)}")
    return {**defaults, **chosen}


def game_object(game: str, params: Mapping[str, Any] | None = None) -> Game:
    """The :class:`~lifearena.core.Game` of ``game`` with ``params`` in their plain form
    (see the module doc): what sizes the environments' spaces.

    >>> game_object("p2life", {"size": 6}).num_distinct_actions
    73
    """
    values: dict[str, Any] = game_params(game, params)
    seed = values.pop("seed")
    kind = game_type(game)
    if any(spec.name == "seed" for spec in kind.specs):
        values["seed"] = int(seed)
    for spec in kind.specs:  # an optional parameter's 0 is its None
        if spec.optional and values[spec.name] == NONE_VALUE and \
                not isinstance(values[spec.name], bool):
            values[spec.name] = None
    return kind(values)


def new_state(game: str, params: Mapping[str, Any] | None = None) -> State:
    """The start of ``game`` with ``params`` in their plain form (see the module doc)."""
    return game_object(game, params).new_initial_state(int(game_params(game, params)["seed"]))


def resolve_chance(state: State, rng: np.random.Generator) -> None:
    """Play chance nodes (drawn from ``rng``) until a player or the end is to move."""
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        weights = np.array([p for _, p in outcomes], dtype=float)
        state.apply_action(int(rng.choice(actions, p=weights / weights.sum())))


def start_episode(game: str, params: Mapping[str, Any], rng: np.random.Generator, *,
                  draw_seed: bool) -> State:
    """The start of an environment's episode: ``new_state(game, params)`` with its ``seed``
    drawn from ``rng`` when ``draw_seed`` (the user did not fix it), chance nodes played from
    ``rng``.

    >>> rng = np.random.default_rng(5)
    >>> a = start_episode("war_of_life", {"seed": 0}, rng, draw_seed=True)
    >>> b = start_episode("war_of_life", {"seed": 0}, np.random.default_rng(5), draw_seed=True)
    >>> a.setup() == b.setup() != new_state("war_of_life").setup()
    True
    """
    if draw_seed:
        params = {**params, "seed": int(rng.integers(2**31))}
    state = new_state(game, params)
    resolve_chance(state, rng)
    return state


def observe(state: State, player: int) -> dict[str, np.ndarray]:
    """The game's own arrays for ``player``: ``{"observation": int8 planes, "action_mask":
    int8 vector over all the game's actions}``, the mask all zeros when ``player`` is not to
    act (the environments show these through :class:`lifearena.interop.spaces.Encoding`).

    >>> seen = observe(new_state("war_of_life"), 1)
    >>> seen["observation"].shape, int(seen["action_mask"].sum())
    ((3, 8, 8), 0)
    """
    acting = state.current_player() in (SIMULTANEOUS, player)
    mask = (state.legal_actions_mask(player) if acting
            else np.zeros(state.info.num_distinct_actions, np.int8))
    return {"observation": state.observation(player), "action_mask": mask}


def spaces_of(state: State, player: int = 0) -> tuple[Any, Any]:
    """The Gymnasium spaces of what :func:`observe` returns (a ``Dict``) and of the game's
    actions (``Discrete``) for ``state``'s game and ``player``; the environments use
    :class:`lifearena.interop.spaces.Encoding` instead."""
    from gymnasium import spaces  # here: this module stays importable without the extra

    n = state.info.num_distinct_actions
    observation = spaces.Dict({
        "observation": spaces.Box(0, 1, state.observation(player).shape, np.int8),
        "action_mask": spaces.Box(0, 1, (n,), np.int8),
    })
    return observation, spaces.Discrete(n)


def refusal(state: State, player: int, action: int) -> str:
    """The library's message for ``player``'s illegal ``action`` (tried on a copy of
    ``state``).

    >>> refusal(new_state("life_for_two"), 1, 0)
    'illegal move for player 2 (#): turn 1 places 3 cells; got 1 (1,1)'
    """
    trial = state.clone()
    try:
        if trial.current_player() == SIMULTANEOUS:
            joint = [action if p == player else (trial.legal_actions(p) or [0])[0]
                     for p in range(trial.info.num_players)]
            trial.apply_actions(joint)
        elif trial.current_player() != player:
            return f"illegal move for player {player + 1}: it is not this player's turn"
        else:
            trial.apply_action(action)
    except IllegalMoveError as error:
        return str(error)
    return f"illegal move for player {player + 1}: action {action}"  # pragma: no cover


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` when it is one of :data:`RENDER_MODES` or ``None``.

    >>> try:
    ...     check_render_mode("text")
    ... except ValueError as error:
    ...     print(error)
    render_mode 'text'; expected one of human, ansi, rgb_array or None
    """
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise BadParameterError(f"render_mode {render_mode!r}; expected one of "
                                f"{', '.join(RENDER_MODES)} or None")
    return render_mode


def render(state: State, render_mode: str | None) -> str | np.ndarray | None:
    """``state`` in ``render_mode``: the board as text (``"ansi"``), a picture
    (``"rgb_array"``, :func:`board_picture`), or nothing (``None``; ``"human"`` prints the
    text and returns nothing).

    >>> render(new_state("life_for_two"), "human")
       1 2 3 4 5
    1  . . . . .
    2  . . . . .
    3  . . . . .
    4  . . . . .
    5  . . . . .
    """
    if render_mode == "human":
        print(state, flush=True)
        return None
    if render_mode == "ansi":
        return str(state)
    if render_mode == "rgb_array":
        return board_picture(state)
    return None


def board_picture(state: State, *, target: int = 256) -> np.ndarray:
    """An RGB picture (``uint8``, ``(height, width, 3)``) of ``state``: the first two
    observation planes of player 0 (own pieces blue, the other side's red), drawn with
    :mod:`lifearena.life.picture`'s palette, each cell enlarged to about ``target`` pixels a
    side in all.

    >>> board_picture(new_state("war_of_life")).shape
    (256, 256, 3)
    """
    from lifearena.life.picture import PALETTE

    planes = state.observation(0)
    cells = (planes[0] != 0).astype(np.int8)
    if planes.shape[0] > 1:
        cells[(planes[1] != 0) & (cells == 0)] = 2
    scale = max(1, target // max(cells.shape))
    image = PALETTE[cells]
    return np.ascontiguousarray(image.repeat(scale, axis=0).repeat(scale, axis=1))
