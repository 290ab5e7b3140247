"""Torch policy checkpoints: one ``.pt`` file holding a :class:`PlanesNetwork`'s weights
and everything needed to play them.

A checkpoint is ``torch.save`` of a plain dict (no pickled classes, so it loads with
``torch.load(..., weights_only=True)``):

* ``format``: :data:`CHECKPOINT_FORMAT`;
* ``game`` and ``params``: the game's registered name and every one of its parameters;
* ``encoding``: the observation the network reads (``{"observation": "planes", "shape":
  [C, H, W], "num_actions": A}``, :class:`lifearena.interop.spaces.Encoding`);
* ``network``: :meth:`NetworkConfig.to_dict`;
* ``lifearena_version``, ``torch_version`` and ``command`` (the training command line),
  plus free-form ``training`` facts (updates, steps, seed);
* ``state_dict``: the network's tensors.

``policy:FILE.pt`` plays one (:mod:`lifearena.rl.torch_agent`); :mod:`lifearena.rl.ppo`
writes them; :func:`export_numpy` turns one into the ``.npz`` that plays with numpy alone
(:mod:`lifearena.agents.planes_network`, ``lifearena rl export``).
"""

from __future__ import annotations

import json
import os
import pickle
import zipfile
from dataclasses import dataclass
from typing import Any

import torch

from lifearena import __version__
from lifearena.agents.planes_network import PlanesPolicy, save_planes_policy
from lifearena.agents.windows import window_spec
from lifearena.errors import BadParameterError
from lifearena.interop.spaces import Encoding
from lifearena.rl.network import NetworkConfig, PlanesNetwork

CHECKPOINT_FORMAT = "lifearena-torch-policy-v1"
"""The ``format`` every checkpoint names."""
MAX_BYTES = 64 << 20
"""The largest file read as a checkpoint (the shipped ones are under 2 MB)."""


@dataclass
class Checkpoint:
    """A loaded checkpoint: the network (in eval mode) and the file's metadata."""

    network: PlanesNetwork
    game: str
    params: dict[str, Any]
    meta: dict[str, Any]


def save_checkpoint(path: str | os.PathLike[str], network: PlanesNetwork, *, game: str,
                    params: dict[str, Any], command: str = "",
                    training: dict[str, Any] | None = None) -> None:
    """Write ``network`` for ``game`` with ``params`` to ``path`` (see the module doc);
    atomically, so that a reader never sees half a file."""
    config = network.config
    data = {
        "format": CHECKPOINT_FORMAT,
        "game": game,
        "params": json.loads(json.dumps(dict(params))),  # plain data: weights_only loads it
        "encoding": {"observation": "planes",
                     "shape": [config.planes, config.height, config.width],
                     "num_actions": config.num_actions},
        "network": config.to_dict(),
        "lifearena_version": __version__,
        "torch_version": str(torch.__version__),  # a str subclass weights_only refuses
        "command": command,
        "training": json.loads(json.dumps(dict(training or {}))),
        "state_dict": {name: tensor.detach().cpu().clone()  # loadable without a GPU
                       for name, tensor in network.state_dict().items()},
    }
    partial = f"{os.fspath(path)}.partial"
    torch.save(data, partial)
    os.replace(partial, path)


def load_checkpoint(path: str | os.PathLike[str]) -> Checkpoint:
    """Read a checkpoint; a :class:`BadParameterError` naming the file and what was
    expected when it is missing, not a checkpoint, or inconsistent."""
    where = f"checkpoint {os.fspath(path)!r}"
    if not os.path.isfile(path):
        raise BadParameterError(f"{where} does not exist; expected a .pt file written by "
                                f"python -m lifearena.rl.ppo")
    if os.path.getsize(path) > MAX_BYTES:
        raise BadParameterError(f"{where} is larger than {MAX_BYTES >> 20} MB; expected a "
                                f"small policy checkpoint")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except (OSError, RuntimeError, EOFError, ValueError, pickle.UnpicklingError,
            zipfile.BadZipFile) as error:
        raise BadParameterError(f"{where} is not a readable torch file "
                                f"({type(error).__name__}); expected a .pt file written by "
                                f"python -m lifearena.rl.ppo") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise BadParameterError(f"{where}: format {found!r:.40}; expected "
                                f"{CHECKPOINT_FORMAT!r}")
    game, params, state = data.get("game"), data.get("params"), data.get("state_dict")
    if not isinstance(game, str) or not isinstance(params, dict) or not isinstance(state, dict):
        raise BadParameterError(f"{where} lacks its game, params or state_dict; expected a "
                                f"checkpoint written by python -m lifearena.rl.ppo")
    try:
        config = NetworkConfig.from_dict(data.get("network"))
    except (TypeError, BadParameterError) as error:
        raise BadParameterError(f"{where}: {error}") from None
    network = PlanesNetwork(config)
    try:
        network.load_state_dict(state)
    except (RuntimeError, TypeError, KeyError) as error:
        first = str(error).strip().splitlines()
        raise BadParameterError(f"{where}: its weights do not fit its network config "
                                f"({first[-1].strip() if first else type(error).__name__:.120})"
                                ) from None
    if not all(torch.isfinite(t).all() for t in network.state_dict().values()):
        raise BadParameterError(f"{where} holds NaN or infinite weights; expected finite "
                                f"numbers")
    network.eval()
    meta = {key: value for key, value in data.items() if key != "state_dict"}
    return Checkpoint(network, game, dict(params), meta)


def export_numpy(checkpoint: Checkpoint, path: str | os.PathLike[str]) -> PlanesPolicy:
    """Write ``checkpoint``'s network as the ``.npz`` that ``policy:FILE.npz`` plays with
    numpy alone (its config, weights, game, parameters and action window); the policy
    written."""
    policy = PlanesPolicy(
        config=json.loads(json.dumps(checkpoint.network.config.to_dict())),
        weights={name: tensor.detach().cpu().numpy()
                 for name, tensor in checkpoint.network.state_dict().items()},
        game=checkpoint.game, params=json.loads(json.dumps(checkpoint.params)),
        window=window_spec(Encoding(checkpoint.game, checkpoint.params).window))
    partial = f"{os.fspath(path)}.partial.npz"
    save_planes_policy(partial, policy)
    os.replace(partial, path)
    return policy
