"""Trained policies as agents: ``policy:FILE`` plays the network saved in ``FILE``.

A file ending in ``.pt`` is a torch checkpoint of any game, written by
``python -m lifearena.rl.ppo`` and played by :mod:`lifearena.rl.torch_agent` (it needs the
``[rl]`` extra: torch and gymnasium); an ``.npz`` exported from one (``lifearena rl
export``) plays with numpy alone (:mod:`lifearena.agents.planes_agent`); ``policy:ppo`` is
the game's PPO baseline shipped with the package as such an export (:data:`BASELINES`); an
``.npz`` n-tuple network of War of Life (:mod:`lifearena.agents.ntuple`) plays as its
agent, and ``policy:ntuple`` is the one shipped (:data:`NTUPLE_BASELINES`).
What follows is the other kind, War of Life's afterstate-features ``.npz``.

A policy file is a numpy ``.npz`` (playing needs the package's own numpy and numba, no
deep-learning framework): a JSON header ``meta`` (``format`` :data:`POLICY_FORMAT`,
``game``, ``features``, free-form ``notes``) and the weights of a small fully connected
network, ``w0, b0, w1, b1, ...`` (ReLU between layers, one output). The network scores
the feature row of each legal move (:mod:`lifearena.agents.policy_features`); the agent
plays the best-scoring move, the first in tie order when several score the same, or with
``temperature=T`` samples a softmax of the scores divided by ``T`` from its seeded
generator. ``examples/rl/train_ppo.py`` writes such
files; ``docs/rl.md`` says how they are trained and how strong they are.

>>> import numpy as np, tempfile, os
>>> from lifearena import agents
>>> from lifearena.games.war_of_life import new_game
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.npz")
>>> layers = [(np.zeros((134, 1), np.float32), np.zeros(1, np.float32))]
>>> layers[0][0][129, 0] = -1.0           # fewer opponent pieces is better: bloodlust
>>> save_policy(path, layers, notes="a hand-made example")
>>> bot = agents.make(f"policy:{path}", game="war_of_life")
>>> bot.act(new_game(seed=1), 0) == agents.make("bloodlust", game="war_of_life").act(
...     new_game(seed=1), 0)
True
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.ntuple import NTupleAgent, is_ntuple_file, load_ntuple
from lifearena.agents.planes_agent import PlanesNetworkAgent
from lifearena.agents.planes_network import is_planes_file, load_planes_policy
from lifearena.agents.registry import register_spec
from lifearena.core import Action, State
from lifearena.errors import BadParameterError

SPEC_PREFIX = "policy:"
POLICY_FORMAT = "lifearena-policy-v1"
"""The ``format`` a policy file's header names."""
GAMES = {"war_of_life": ("afterstate-v1", 134)}
"""The games a policy can play: the feature set and the width of its rows."""
MAX_LAYERS = 8
MAX_WIDTH = 4096


@dataclass(frozen=True)
class Policy:
    """A loaded policy: its game, feature set and layers ``[(weights, bias), ...]``."""

    game: str
    features: str
    layers: list[tuple[np.ndarray, np.ndarray]]
    notes: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """The network's score of each feature row (``(M, F)`` -> ``(M,)``).

        >>> p = Policy("war_of_life", "afterstate-v1",
        ...            [(np.ones((2, 1), np.float32), np.zeros(1, np.float32))])
        >>> p.scores(np.array([[1, 2], [3, -4]], np.float32)).tolist()
        [3.0, -1.0]
        """
        out = np.asarray(rows, np.float32)
        for k, (weights, bias) in enumerate(self.layers):
            out = out @ weights + bias
            if k < len(self.layers) - 1:
                np.maximum(out, 0.0, out=out)
        return out[:, 0]


def save_policy(path: str | os.PathLike[str], layers: Sequence[tuple[np.ndarray, np.ndarray]],
                *, game: str = "war_of_life", notes: str = "",
                extra: dict[str, Any] | None = None) -> None:
    """Write ``layers`` (``[(weights (in, out), bias (out,)), ...]``, the last with one
    output) as a policy file for ``game``; ``extra`` goes into the header as it is."""
    features, width = GAMES[game]
    policy = Policy(game, features, [(np.asarray(w, np.float32), np.asarray(b, np.float32))
                                     for w, b in layers], notes)
    _check_layers(str(path), policy.layers, width)
    meta = {"format": POLICY_FORMAT, "game": game, "features": features, "notes": notes,
            **(extra or {})}
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    for k, (weights, bias) in enumerate(policy.layers):
        arrays[f"w{k}"], arrays[f"b{k}"] = weights, bias
    with open(path, "wb") as out:
        np.savez_compressed(out, **arrays)


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """Read a policy file; a :class:`~lifearena.errors.BadParameterError` naming the file and
    what was expected when it is missing, not a policy file, or inconsistent."""
    where = f"policy file {str(path)!r}"
    if not os.path.isfile(path):
        raise BadParameterError(f"{where} does not exist; expected a .npz written by "
                                f"examples/rl/train_ppo.py")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise BadParameterError(f"{where} is not a readable .npz ({type(error).__name__}); "
                                f"expected a policy written by examples/rl/train_ppo.py"
                                ) from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
        if not isinstance(meta, dict):
            raise ValueError
    except (KeyError, ValueError):
        raise BadParameterError(f"{where} has no JSON header 'meta'; expected a policy "
                                f"written by examples/rl/train_ppo.py") from None
    if meta.get("format") != POLICY_FORMAT:
        raise BadParameterError(f"{where}: format {meta.get('format')!r:.40}; expected "
                                f"{POLICY_FORMAT!r}")
    game = meta.get("game")
    if game not in GAMES or meta.get("features") != GAMES[game][0]:
        raise BadParameterError(f"{where}: game {game!r:.40} with features "
                                f"{meta.get('features')!r:.40}; expected one of "
                                f"{', '.join(f'{g} with {f}' for g, (f, _) in GAMES.items())}")
    count = len(arrays) // 2
    if not 1 <= count <= MAX_LAYERS or sorted(arrays) != sorted(
            [f"w{k}" for k in range(count)] + [f"b{k}" for k in range(count)]):
        raise BadParameterError(f"{where}: arrays {sorted(arrays)!r:.80}; expected w0, b0, "
                                f"w1, b1, ... (1 to {MAX_LAYERS} layers)")
    layers = [(arrays[f"w{k}"], arrays[f"b{k}"]) for k in range(count)]
    _check_layers(where, layers, GAMES[game][1])
    return Policy(game, meta["features"],
                  [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers],
                  str(meta.get("notes", "")), meta)


def _check_layers(where: str, layers: Sequence[tuple[np.ndarray, np.ndarray]],
                  width: int) -> None:
    expected = width
    for k, (weights, bias) in enumerate(layers):
        last = k == len(layers) - 1
        if weights.dtype.kind not in "fiu" or bias.dtype.kind not in "fiu":
            raise BadParameterError(f"{where}: layer {k} holds {weights.dtype} and {bias.dtype} "
                                    f"arrays; expected numbers")
        if weights.ndim != 2 or weights.shape[0] != expected or bias.shape != weights.shape[1:] \
                or (last and weights.shape[1] != 1) or not 1 <= weights.shape[1] <= MAX_WIDTH:
            raise BadParameterError(
                f"{where}: layer {k} has weights {weights.shape} and bias {bias.shape}; "
                f"expected ({expected}, n) and (n,), n = 1 for the last layer")
        if not (np.isfinite(weights).all() and np.isfinite(bias).all()):
            raise BadParameterError(f"{where}: layer {k} holds NaN or infinite weights; "
                                    f"expected finite numbers")
        expected = weights.shape[1]


class TrainedPolicyAgent(Agent):
    """Plays a loaded :class:`Policy` (see the module doc)."""

    def __init__(self, policy: Policy, *, seed: int | None = 0, temperature: float = 0.0,
                 name: str = "policy") -> None:
        if not temperature >= 0:
            raise BadParameterError(f"temperature={temperature!r}; expected a number >= 0")
        self.policy = policy
        self.temperature = float(temperature)
        self.name = name
        self._rng = np.random.default_rng(seed)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        from lifearena.agents.policy_features import afterstates
        from lifearena.games.war_of_life.fast import board_to_bits

        blue, red = board_to_bits(state.board)  # type: ignore[attr-defined]
        own, other = (blue, red) if player == 0 else (red, blue)
        _, actions, rows = afterstates(np.array([own]), np.array([other]))
        if not len(actions):
            raise BadParameterError(f"player {player} has no legal move in this position")
        scores = self.policy.scores(rows).astype(np.float64)
        if self.temperature == 0.0:
            return int(actions[int(np.argmax(scores))])
        weights = np.exp((scores - scores.max()) / self.temperature)
        return int(actions[int(self._rng.choice(len(actions), p=weights / weights.sum()))])


TORCH_SUFFIX = ".pt"
"""A policy file ending so is a torch checkpoint (:mod:`lifearena.rl.torch_agent`)."""
BASELINE = "ppo"
"""``policy:ppo`` plays the game's shipped PPO baseline (:data:`BASELINES`)."""
BASELINES_DIR = os.path.join(os.path.dirname(__file__), "baselines")
BASELINES: dict[str, str] = {
    "life_for_two": "life_for_two-v1.npz",
    "p2life": "p2life-12x12-v1.npz",
    "blocking_queen": "blocking_queen-12-v1.npz",
    "losat": "losat-19x19-v1.npz",
    "war_of_life": "war_of_life-v1.npz",
}
"""The PPO baselines shipped with the package, by game (``docs/rl.md`` says how each was
trained and how strong it is), in :data:`BASELINES_DIR`: torch checkpoints exported to
numpy (``lifearena rl export``), so they play without torch; each plays its versioned
environment's parameters."""
SMALL_BASELINE = "ppo-small"
"""``policy:ppo-small`` plays the game's smaller shipped network (:data:`SMALL_BASELINES`)."""
SMALL_BASELINES: dict[str, str] = {
    "war_of_life": "war_of_life-v1-small.npz",
}
"""Smaller baselines, where the game's :data:`BASELINES` entry outgrew the two-core
protocol: War of Life's network trained in 30 minutes on two cores (the web's ``easy``
level), beside the larger one trained on a GPU."""


NTUPLE_BASELINE = "ntuple"
"""``policy:ntuple`` plays the game's shipped n-tuple network (:data:`NTUPLE_BASELINES`)."""
NTUPLE_BASELINES: dict[str, str] = {
    "war_of_life": "war_of_life-v1-ntuple.npz",
}
"""N-tuple networks shipped with the package (:mod:`lifearena.agents.ntuple`), trained on
one core of the two-core machine by ``python -m lifearena.rl.ntuple`` (``docs/rl.md``)."""


def baseline_path(game: str | None, name: str = BASELINE) -> str:
    """The shipped PPO checkpoint of ``game``: ``policy:ppo`` (``name``), or
    ``policy:ppo-small``.

    >>> os.path.basename(baseline_path("p2life"))
    'p2life-12x12-v1.npz'
    >>> os.path.basename(baseline_path("war_of_life", SMALL_BASELINE))
    'war_of_life-v1-small.npz'
    """
    key = (game or "").strip().lower().replace("-", "_")
    shipped = {SMALL_BASELINE: SMALL_BASELINES, NTUPLE_BASELINE: NTUPLE_BASELINES}.get(
        name, BASELINES)
    if key not in shipped:
        raise BadParameterError(f"policy:{name} for {game or 'no game'}; expected one of "
                                f"the games with a shipped baseline: {', '.join(shipped)}")
    return os.path.join(BASELINES_DIR, shipped[key])


@register_spec(SPEC_PREFIX)
def make_policy_agent(rest: str, game: str | None = None, seed: int | None = 0,
                      temperature: float = 0.0) -> Agent:
    """The agent of ``policy:FILE`` (the registry passes ``FILE`` as ``rest``): a ``.pt``
    torch checkpoint of any game (:mod:`lifearena.rl.torch_agent`, which needs the
    ``[rl]`` extra), an ``.npz`` exported from one (:mod:`lifearena.agents.planes_agent`,
    numpy alone), ``policy:ppo`` the game's shipped baseline (such an export), a War of
    Life n-tuple network (:mod:`lifearena.agents.ntuple`; ``policy:ntuple`` the shipped
    one), or a War of Life afterstate-features ``.npz`` (this module)."""
    path = rest.strip()
    if not path:
        raise BadParameterError("agent 'policy:' names no file; expected policy:FILE.npz, "
                                "policy:FILE.pt or policy:ppo")
    if path.lower() in (BASELINE, SMALL_BASELINE, NTUPLE_BASELINE):
        path = baseline_path(game, path.lower())
    if path.lower().endswith(TORCH_SUFFIX):
        return _torch_agent(path, game, seed, float(temperature))
    if is_ntuple_file(path):
        if game is not None and game.strip().lower().replace("-", "_") != "war_of_life":
            raise BadParameterError(f"policy file {path!r} is a War of Life n-tuple network, "
                                    f"not {game}'s")
        return NTupleAgent(load_ntuple(path), seed=seed, temperature=float(temperature),
                           name=f"policy:{os.path.basename(path)}")
    if is_planes_file(path):
        network = load_planes_policy(path)
        if game is not None and game.strip().lower().replace("-", "_") != network.game:
            raise BadParameterError(f"policy file {path!r} plays {network.game}, not {game}")
        return PlanesNetworkAgent(network, seed=seed, temperature=float(temperature),
                                  name=f"policy:{os.path.basename(path)}")
    policy = load_policy(path)
    if game is not None and game.strip().lower().replace("-", "_") != policy.game:
        raise BadParameterError(f"policy file {path!r} plays {policy.game}, not {game}")
    return TrainedPolicyAgent(policy, seed=seed, temperature=float(temperature),
                       name=f"policy:{os.path.basename(path)}")


def _torch_agent(path: str, game: str | None, seed: int | None, temperature: float) -> Agent:
    """``policy:FILE.pt``: the rl layer's agent, imported only when such a file is named
    (the agents layer never needs torch; see tests/test_import_layers.py)."""
    try:
        from lifearena.rl.torch_agent import make_torch_agent
    except ImportError as error:
        if (error.name or "").startswith("lifearena"):
            raise
        raise BadParameterError(f"policy file {path!r} is a torch checkpoint, which needs "
                                f"{error.name or 'torch'}: pip install torch==2.13.0 "
                                f"-e \".[rl]\" (torch's CPU build first)") from None
    return make_torch_agent(path, game=game, seed=seed, temperature=temperature)
