"""What the AlphaZero-style baseline (:mod:`lifearena.rl.alphazero`) needs to know of each
game it plays: a :class:`GameSpec` per game, made by :func:`game_spec`.

A spec says the network's input planes and how to read them off a self-play vector
environment (:meth:`GameSpec.features`), how the game numbers its actions (``kinds`` policy
logits per cell, cell-major or kind-major, then ``extra`` actions that are no cell's, such
as Losat's pass), the board symmetries that map a position, its legal moves and a search's
visits onto another position's, the compiled opponents to evaluate against, and how a
search board takes a position from another environment (:meth:`GameSpec.transfer`).

* **War of Life** (8 x 8): the environment's own ``(3, 8, 8)`` planes (the side to move's
  pieces, the other side's, ones); action ``8 * cell + direction``; all 8 symmetries of the
  square hold (the crank is isotropic and the board square).
* **Losat** (19 x 19 by default, any size its parameters give): 7 planes, the black and
  white stones, ones (the edge), whether White is to move, Black's and White's captures (as
  counts) and the passes in a row (the planes stay integers, so the replay buffer keeps
  them as bytes); action ``kind * points + point`` (remove, add black, add white, capture)
  and the pass last. Only the left-right mirror holds besides the identity: each colour's
  goal is a row, so turning the board or reflecting it top to bottom sends a goal line
  onto the other colour's (or onto a column); a top-to-bottom flip with the colours swapped
  would hold too on the default board, but it changes the planes' values (the side to move,
  the captures) and the action kinds (add black / add white), which a gather of points
  cannot say, and is left out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lifearena.errors import BadParameterError
from lifearena.games.losat import DEFAULTS as LOSAT_DEFAULTS
from lifearena.games.losat import LosatState, check_params
from lifearena.games.war_of_life import DIRECTIONS, NUM_ACTIONS, SIZE, WarOfLifeState
from lifearena.interop.vector.base import CompiledVectorEnv
from lifearena.interop.vector.losat import LosatVectorEnv
from lifearena.interop.vector.war_of_life import WarOfLifeVectorEnv

GAMES = ("war_of_life", "losat")
"""The games the baseline plays."""


@dataclass(frozen=True, eq=False)
class GameSpec:
    """One game as the search, the network and the trainer see it (see the module doc).
    Made once per game and rules (:func:`game_spec`), compared by identity."""

    name: str
    height: int
    width: int
    planes: int
    """The network's input planes."""
    kinds: int
    """Policy logits per cell."""
    cell_major: bool
    """Whether the game numbers a cell's actions together (``kinds * cell + kind``) rather
    than a kind's (``kind * cells + cell``)."""
    extra: int
    """Actions after the cells' (Losat's pass)."""
    symmetry_cells: np.ndarray = field(repr=False)
    """``(k, cells)``: the gather index of the cells under each of the ``k`` symmetries
    (``x[..., symmetry_cells[s]]`` is ``x``'s image under symmetry ``s``; 0 the identity)."""
    symmetry_actions: np.ndarray = field(repr=False)
    """``(k, num_actions)``: the gather index of the actions under each symmetry."""
    opponents: str
    """The compiled opponents evaluated against by default, comma-separated."""
    params: Mapping[str, Any]
    """The game's rule parameters the environments are made with (none for War of Life)."""
    state_type: type
    """The protocol state the agent plays."""
    make_features: Callable[[CompiledVectorEnv], np.ndarray] = field(repr=False)
    """What :meth:`features` returns."""

    @property
    def cells(self) -> int:
        return self.height * self.width

    @property
    def num_actions(self) -> int:
        return self.kinds * self.cells + self.extra

    def make_env(self, num_envs: int, **options: Any) -> CompiledVectorEnv:
        """A vector environment of this game with ``num_envs`` boards and ``options`` (as
        :class:`~lifearena.interop.vector.base.CompiledVectorEnv` takes them)."""
        if self.name == "war_of_life":
            return WarOfLifeVectorEnv(num_envs, **options)
        return LosatVectorEnv(num_envs, params=dict(self.params), **options)

    def features(self, env: CompiledVectorEnv) -> np.ndarray:
        """The network's input of every board of ``env``: ``(num_envs, planes, height,
        width)`` float32, the side to move's view."""
        return self.make_features(env)

    def transfer(self, search: CompiledVectorEnv, i: int, env: CompiledVectorEnv,
                 j: int) -> None:
        """Put board ``j`` of ``env`` (an environment of this game) on board ``i`` of the
        self-play environment ``search``."""
        if isinstance(search, LosatVectorEnv) and isinstance(env, LosatVectorEnv):
            search.copy_board(i, env, j)  # no replay of the whole game each move
        else:
            search.set_position(i, env.position(j))  # type: ignore[attr-defined]


# -- War of Life --------------------------------------------------------------------------------

SQUARE = tuple(np.array(m) for m in (
    ((1, 0), (0, 1)), ((0, -1), (1, 0)), ((-1, 0), (0, -1)), ((0, 1), (-1, 0)),
    ((1, 0), (0, -1)), ((-1, 0), (0, 1)), ((0, 1), (1, 0)), ((0, -1), (-1, 0))))
"""The 8 symmetries of the square as matrices on (row, column) offsets from the centre."""


def _war_of_life_symmetries() -> tuple[np.ndarray, np.ndarray]:
    """``(cells (8, 64), actions (8, 512))`` gather indices of War of Life's 8 symmetries
    (a direction turns with the board)."""
    centre = (SIZE - 1) / 2
    cells = np.zeros((8, SIZE * SIZE), np.int64)
    actions = np.zeros((8, NUM_ACTIONS), np.int64)
    for k, m in enumerate(SQUARE):
        destination = np.zeros(SIZE * SIZE, np.int64)
        for cell in range(SIZE * SIZE):
            r, c = m @ np.array([cell // SIZE - centre, cell % SIZE - centre]) + centre
            destination[cell] = round(r) * SIZE + round(c)
        direction = [DIRECTIONS.index(tuple(int(v) for v in m @ np.array(d)))
                     for d in DIRECTIONS]
        moved = np.array([destination[a // 8] * 8 + direction[a % 8]
                          for a in range(NUM_ACTIONS)])
        cells[k] = np.argsort(destination)  # gather: the source of each destination
        actions[k] = np.argsort(moved)
    return cells, actions


def _war_of_life() -> GameSpec:
    cells, actions = _war_of_life_symmetries()
    return GameSpec("war_of_life", SIZE, SIZE, 3, len(DIRECTIONS), True, 0, cells, actions,
                    "random,bloodlust,minimax", {}, WarOfLifeState,
                    lambda env: env.observations)


# -- Losat --------------------------------------------------------------------------------------

LOSAT_PLANES = 7


def _losat_features(env: CompiledVectorEnv) -> np.ndarray:
    """Losat's 7 planes (see the module doc) of every board of ``env``."""
    assert isinstance(env, LosatVectorEnv)
    stones = env.observations  # (n, 2, length, width): black, white
    n, _, length, width = stones.shape
    tallies = env.tallies()  # side to move, passes, plies, black's and white's captures
    out = np.empty((n, LOSAT_PLANES, length, width), np.float32)
    out[:, :2] = stones
    out[:, 2] = 1.0
    out[:, 3] = tallies[:, 0, None, None]
    out[:, 4] = tallies[:, 3, None, None]
    out[:, 5] = tallies[:, 4, None, None]
    out[:, 6] = tallies[:, 1, None, None]
    return out


def _losat(params: Mapping[str, Any]) -> GameSpec:
    rules = {k: v for k, v in check_params(params).items() if k in LOSAT_DEFAULTS}
    return _losat_of(tuple(sorted(rules.items())))


@functools.lru_cache(maxsize=16)
def _losat_of(items: tuple[tuple[str, Any], ...]) -> GameSpec:
    """Losat's spec for the full rule parameters ``items`` (made once per rules)."""
    rules = dict(items)
    length, width = int(rules["length"]), int(rules["width"])
    points = length * width
    mirror = np.array([r * width + (width - 1 - c) for r in range(length)
                       for c in range(width)])  # an involution: its own gather index
    cells = np.stack([np.arange(points), mirror])
    kinds = 4
    actions = np.stack([np.arange(kinds * points + 1),
                        np.concatenate([k * points + mirror for k in range(kinds)]
                                       + [np.array([kinds * points])])])
    return GameSpec("losat", length, width, LOSAT_PLANES, kinds, False, 1, cells, actions,
                    "random,greedy", rules, LosatState, _losat_features)


_WAR_OF_LIFE = _war_of_life()


def game_spec(game: str, params: Mapping[str, Any] | None = None) -> GameSpec:
    """The :class:`GameSpec` of ``game`` (one of :data:`GAMES`) under the rule parameters
    ``params`` (Losat's; War of Life takes none)."""
    name = game.strip().lower().replace("-", "_")
    if name == "war_of_life":
        if params:
            raise BadParameterError(f"alphazero: war_of_life takes no parameters; got "
                                    f"{', '.join(sorted(params))}")
        return _WAR_OF_LIFE
    if name == "losat":
        return _losat(params or {})
    raise BadParameterError(f"alphazero: game {game!r:.40}; expected one of "
                            f"{', '.join(GAMES)}")


def spec_of(env: CompiledVectorEnv) -> GameSpec:
    """The :class:`GameSpec` of a vector environment's game and parameters."""
    if env.game == "war_of_life":
        return _WAR_OF_LIFE
    return game_spec(env.game, {k: env.params[k] for k in LOSAT_DEFAULTS})
