"""How an environment numbers a game's actions and which part of its planes it shows.

Most games size their actions and planes from their parameters already (their
:class:`~lifearena.core.Game` object's ``num_distinct_actions`` and ``observation_shape``:
p2life ``2 * size² + 1`` actions on ``size x size`` planes, Losat ``4 * width * length + 1``),
so their window is the identity. The blocking queen game numbers its squares on a fixed
128 x 128 board (32,769 actions, 4 x 128 x 128 planes) whatever the start; but its queen only
moves toward the origin, so a game starting inside the ``side x side`` corner (``side`` is
the random start's ``size``, or ``max(x, y) + 1`` for a chosen square) never leaves it. Its
window shows that corner and renumbers its actions densely: move to ``(x, y)`` is
``y * side + x``, block ``(x, y)`` is ``side² + y * side + x``, stop blocking is ``2 * side²``.

This module is the one place that knows a network's action numbering (read off the game's
notation module, not copied): the adapters of :mod:`lifearena.interop` number their actions
with it, and the agents that play trained networks (:mod:`lifearena.agents.planes_network`)
read their planes and actions through it. The rules stay with the game.

>>> from lifearena.core import get_game
>>> window = window_of(get_game("blocking_queen", size=12))
>>> window.num_actions, window.shape
(289, (4, 12, 12))
>>> window.from_game(window.to_game(13)) == 13
True
>>> window_of(get_game("p2life", size=6)).num_actions
73
"""

from __future__ import annotations

import numpy as np

from lifearena.core import Game


class ActionWindow:
    """The identity window: the game's own actions and planes."""

    def __init__(self, num_actions: int, shape: tuple[int, ...]) -> None:
        self.num_actions = int(num_actions)
        self.shape = tuple(int(n) for n in shape)

    def to_game(self, action: int) -> int:
        """The game's action for the environment's ``action`` (``0 <= action < num_actions``)."""
        return action

    def from_game(self, action: int) -> int:
        """The environment's action for one of the game's actions inside the window."""
        return action

    def crop(self, planes: np.ndarray) -> np.ndarray:
        """The part of the game's observation planes the window shows."""
        return planes

    def mask(self, legal: list[int]) -> np.ndarray:
        """The int8 mask over the window's actions of the game's ``legal`` actions."""
        mask = np.zeros(self.num_actions, np.int8)
        mask[[self.from_game(a) for a in legal]] = 1
        return mask


class CornerWindow(ActionWindow):
    """The ``side x side`` corner of a board of ``full x full`` squares whose actions are
    ``kinds`` blocks of square indices (``kind * full² + y * full + x``) then ``extra``
    actions (see the module doc).

    >>> corner = CornerWindow(side=3, full=128, kinds=2, extra=1)
    >>> corner.num_actions, corner.to_game(4), corner.to_game(9 + 4), corner.to_game(18)
    (19, 129, 16513, 32768)
    """

    def __init__(self, side: int, full: int, kinds: int, extra: int) -> None:
        super().__init__(kinds * side * side + extra, ())
        self.side, self.full, self.kinds = side, full, kinds

    def to_game(self, action: int) -> int:
        cells = self.side * self.side
        kind, index = divmod(action, cells)
        if kind >= self.kinds:  # one of the extra actions after the square blocks
            return self.kinds * self.full * self.full + index
        y, x = divmod(index, self.side)
        return kind * self.full * self.full + y * self.full + x

    def from_game(self, action: int) -> int:
        squares = self.full * self.full
        kind, index = divmod(action, squares)
        if kind >= self.kinds:
            return self.kinds * self.side * self.side + index
        y, x = divmod(index, self.full)
        return kind * self.side * self.side + y * self.side + x

    def crop(self, planes: np.ndarray) -> np.ndarray:
        return planes[:, :self.side, :self.side]


def window_of(game: Game) -> ActionWindow:
    """The window of ``game`` (a :class:`~lifearena.core.Game` with its parameters)."""
    shape = game.observation_shape
    if game.info.name == "blocking_queen":
        from lifearena.games.blocking_queen.notation import NUM_ACTIONS, SIDE

        params = game.params
        side = params["size"] if params["start"] == "random" else \
            max(params["x"], params["y"]) + 1
        window = CornerWindow(side=side, full=SIDE, kinds=2, extra=NUM_ACTIONS - 2 * SIDE * SIDE)
        window.shape = (shape[0], side, side)
        return window
    return ActionWindow(game.num_distinct_actions, shape)


def window_spec(window: ActionWindow) -> dict[str, int | str]:
    """What rebuilds ``window`` (:func:`window_from_spec`), as plain data for a file.

    >>> spec = window_spec(CornerWindow(side=3, full=128, kinds=2, extra=1))
    >>> spec["kind"], window_from_spec(spec).to_game(13)
    ('corner', 16513)
    """
    if isinstance(window, CornerWindow):
        return {"kind": "corner", "side": window.side, "full": window.full,
                "kinds": window.kinds,
                "extra": window.num_actions - window.kinds * window.side * window.side}
    return {"kind": "identity", "num_actions": window.num_actions}


def window_from_spec(spec: dict[str, int | str]) -> ActionWindow:
    """The window :func:`window_spec` described (its ``shape`` is not needed to play)."""
    if spec.get("kind") == "corner":
        return CornerWindow(side=int(spec["side"]), full=int(spec["full"]),
                            kinds=int(spec["kinds"]), extra=int(spec["extra"]))
    if spec.get("kind") == "identity":
        return ActionWindow(int(spec["num_actions"]), ())
    raise ValueError(f"window {spec!r:.60}; expected kind 'identity' or 'corner'")
