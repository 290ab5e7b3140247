"""Trained planes networks played with numpy alone: what ``policy:FILE.npz`` and
``policy:ppo`` run when the file holds one.

The reinforcement-learning layer trains :class:`lifearena.rl.network.PlanesNetwork` in
torch and exports it (``lifearena rl export FILE.pt``) to an ``.npz`` of its weights and its
config; this module runs that network's policy forward pass in numpy, so the shipped
baselines play wherever the package does (the web server's levels, the arena, the command
line) without torch. The tests check it against the torch network on random inputs of
every game, afterstates and mirror included.

The forward pass, as the torch module's doc says: the planes and a constant seat plane, a
3x3 convolution, residual blocks of two 3x3 convolutions, a global-pooling bias, then the
policy heads (a 1x1 convolution for the per-cell actions, a linear layer over a summary
for the others; War of Life's afterstate networks score each legal move's board after its
crank instead). Seat 1's view is mirrored first where the config says so.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> x = rng.normal(size=(1, 2, 5, 5)).astype(np.float32)
>>> w = np.zeros((1, 2, 3, 3), np.float32); w[0, 1, 1, 1] = 2.0   # 2 x plane 1
>>> bool(np.allclose(conv2d(x, w, np.zeros(1, np.float32))[0, 0], 2 * x[0, 1]))
True
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from typing import Any

import numpy as np

from lifearena.agents.windows import window_from_spec
from lifearena.errors import BadParameterError

CONFIG_KEY = "network_config"
"""The ``.npz`` entry holding the config (JSON); a file without it is not a planes network."""


def conv2d(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A convolution of ``(B, C, H, W)`` by ``(O, C, k, k)`` (``k`` odd), zero padding that
    keeps the size, as torch's ``Conv2d(padding=k // 2)``."""
    k = weight.shape[-1]
    if k == 1:
        out = np.einsum("bchw,oc->bohw", x, weight[:, :, 0, 0], optimize=True)
    else:
        pad = k // 2
        padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(2, 3))
        out = np.einsum("bchwij,ocij->bohw", windows, weight, optimize=True)
    return np.asarray(out + bias[None, :, None, None])


def relu(x: np.ndarray) -> np.ndarray:
    return np.asarray(np.maximum(x, 0.0))


def crank(own: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One Immigration generation of ``(K, 8, 8)`` 0/1 boards, bounded (War of Life's
    crank; :func:`lifearena.rl.afterstates.crank` in numpy).

    >>> own = np.zeros((1, 8, 8), np.float32); own[0, 3, 2:5] = 1     # a blinker turns
    >>> new_own, _ = crank(own, np.zeros_like(own))
    >>> new_own[0, 2:5, 3].tolist()
    [1.0, 1.0, 1.0]
    """
    def neighbours(board: np.ndarray) -> np.ndarray:
        padded = np.pad(board, ((0, 0), (1, 1), (1, 1)))
        total = sum(padded[:, 1 + dr:9 + dr, 1 + dc:9 + dc]
                    for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        return np.asarray(total)

    n_own, n_other = neighbours(own), neighbours(other)
    count = n_own + n_other
    alive = (own + other) > 0
    survives = alive & ((count == 2) | (count == 3))
    born = ~alive & (count == 3)
    new_own = (own > 0) & survives | born & (n_own >= 2)
    new_other = (other > 0) & survives | born & (n_other >= 2)
    return new_own.astype(np.float32), new_other.astype(np.float32)


@dataclass
class PlanesPolicy:
    """An exported planes network: its config (the torch config's fields as a dict), its
    weights by the torch module's parameter names, and the game and parameters it was
    trained on."""

    config: dict[str, Any]
    weights: dict[str, np.ndarray]
    game: str
    params: dict[str, Any]
    window: dict[str, Any]
    """How the network's actions map to the game's
    (:func:`lifearena.agents.windows.window_spec`)."""

    def _linear(self, name: str, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.weights[f"{name}.weight"].T + self.weights[f"{name}.bias"])

    def _conv(self, name: str, x: np.ndarray) -> np.ndarray:
        return conv2d(x, self.weights[f"{name}.weight"], self.weights[f"{name}.bias"])

    def _afterstate_scores(self, planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        from lifearena.games.war_of_life.fast import TARGET_OF

        logits = np.zeros(mask.shape, np.float32)
        boards, actions = np.nonzero(mask)
        if not len(boards):
            return logits
        own = planes[boards, 0].reshape(-1, 64).copy()
        other = planes[boards, 1].reshape(-1, 64)
        rows = np.arange(len(boards))
        own[rows, actions // 8] = 0.0
        own[rows, TARGET_OF[actions]] = 1.0
        new_own, new_other = crank(own.reshape(-1, 8, 8), other.reshape(-1, 8, 8))
        x = relu(self._conv("afterstate_scorer.stem", np.stack((new_own, new_other), 1)))
        for block in range(self.config["blocks"]):
            x = self._block(f"afterstate_scorer.body.{block}", x)
        pooled = np.concatenate((x.mean(axis=(2, 3)), x.max(axis=(2, 3))), axis=1)
        scores = self._linear("afterstate_scorer.out",
                              relu(self._linear("afterstate_scorer.hidden", pooled)))
        logits[boards, actions] = scores[:, 0]
        return logits

    def _block(self, name: str, x: np.ndarray) -> np.ndarray:
        return relu(x + self._conv(f"{name}.second", relu(self._conv(f"{name}.first", x))))

    def logits(self, planes: np.ndarray, seat: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The raw logits ``(B, A)`` of observations ``(B, C, H, W)`` seen by ``seat``
        ``(B,)``, whose legal moves are ``mask`` ``(B, A)`` (used by afterstate networks)."""
        c = self.config
        planes = np.asarray(planes, np.float32)
        seat = np.asarray(seat)
        batch = len(planes)
        flipped = None
        if c["mirror_planes"]:
            flipped = (seat == 1)[:, None, None, None]
            planes = np.where(flipped, planes[:, list(c["mirror_planes"]), ::-1], planes)
        seat_plane = np.broadcast_to(seat.astype(np.float32)[:, None, None, None],
                                     (batch, 1, c["height"], c["width"]))
        x = relu(self._conv("stem", np.concatenate((planes, seat_plane), axis=1)))
        for block in range(c["blocks"]):
            x = self._block(f"body.{block}", x)
        x = relu(x + self._linear("pool_bias", x.mean(axis=(2, 3)))[:, :, None, None])
        parts = []
        dense = None
        if c["prefix"] + c["suffix"]:
            summary = relu(self._conv("dense_summary", x)).reshape(batch, -1)
            dense = self._linear("dense_policy", summary)
            parts.append(dense[:, :c["prefix"]])
        if c["afterstates"]:
            parts.append(self._afterstate_scores(planes, np.asarray(mask, bool)))
        elif c["kinds"]:
            cell = self._conv("cell_policy", x)
            if flipped is not None:
                cell = np.where(flipped, cell[:, list(c["mirror_kinds"]), ::-1], cell)
            cell = cell.reshape(batch, c["kinds"], -1)
            parts.append((cell.transpose(0, 2, 1) if c["cell_major"] else cell)
                         .reshape(batch, -1))
        if dense is not None:
            parts.append(dense[:, c["prefix"]:])
        return np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]


def is_planes_file(path: str) -> bool:
    """Whether the ``.npz`` at ``path`` holds an exported planes network (not War of Life's
    afterstate-features policy, the other kind of ``policy:FILE.npz``)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return f"{CONFIG_KEY}.npy" in archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def load_planes_policy(path: str) -> PlanesPolicy:
    """The network exported to ``path``; :class:`BadParameterError` naming the file if it
    is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        meta = json.loads(str(arrays.pop(CONFIG_KEY)))
        config, game, params = meta["config"], meta["game"], meta["params"]
        weights = {name: np.asarray(value, np.float32) for name, value in arrays.items()}
        window_from_spec(meta["window"])
        PlanesPolicy(config, weights, game, params, meta["window"]).logits(
            np.zeros((1, config["planes"], config["height"], config["width"]), np.float32),
            np.zeros(1, np.int64), np.zeros((1, config["num_actions"]), bool))
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as error:
        raise BadParameterError(f"policy file {path!r} is not an exported planes network "
                                f"({type(error).__name__}); expected an .npz written by "
                                f"'lifearena rl export'") from None
    return PlanesPolicy(config, weights, game, params, meta["window"])


def save_planes_policy(path: str, policy: PlanesPolicy) -> None:
    """Write an ``.npz`` that :func:`load_planes_policy` reads."""
    meta = json.dumps({"config": policy.config, "game": policy.game, "params": policy.params,
                       "window": policy.window}, sort_keys=True)
    arrays: dict[str, Any] = {CONFIG_KEY: np.array(meta)}
    arrays.update((name, np.asarray(value, np.float32)) for name, value in policy.weights.items())
    np.savez_compressed(path, **arrays)
