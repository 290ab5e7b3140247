"""An AlphaZero-style baseline for War of Life and Losat (``--game``): a small residual
policy+value network and PUCT Monte Carlo tree search batched over many games at once,
trained by self-play.

One readable file in CleanRL's manner; every hyperparameter is a flag
(``python -m lifearena.rl.alphazero --help``). The parts, top to bottom:

* **The games** (:mod:`lifearena.rl.alphazero_games`): each game's
  :class:`~lifearena.rl.alphazero_games.GameSpec` says its input planes, its action
  numbering, its symmetries (War of Life's 8 of the square, Losat's left-right mirror), its
  vector environment and its compiled opponents. Every stored position trains under a
  random one of its game's symmetries.
* **The network** (:class:`PolicyValueNet`): the game's planes (War of Life's ``(3, 8,
  8)``: the side to move's pieces, the other side's, ones), a convolutional stem, residual
  blocks, a policy head of the game's logits per cell (War of Life's 8 directions, the
  action ``8 * cell + direction``; Losat's 4 kinds of change, ``kind * points + point``)
  plus a linear head for the actions that are no cell's (Losat's pass), and a tanh value
  head (the side to move's expected result).
* **The search** (:class:`BatchedMCTS`): one tree per game, in Python (a :class:`Node` holds
  its legal actions, priors, visit counts and value sums as numpy rows). Each simulation
  restores every board of a self-play vector environment
  (:class:`~lifearena.interop.vector.war_of_life.WarOfLifeVectorEnv`,
  :class:`~lifearena.interop.vector.losat.LosatVectorEnv`) to the roots (``restore``),
  walks every tree down by PUCT with the moves applied on the compiled boards
  (``step_boards``, one call per depth for all games), and evaluates all the new leaves
  in one network call. Game ends come from the environment; their values are exact.
* **Self-play** (:func:`train`): ``--games`` games at once, Dirichlet noise on the roots'
  priors, moves drawn in proportion to the visit counts for the first
  ``--temperature-plies`` plies and the most visited afterwards, the searched subtree kept
  for the next move; each finished game's positions enter a replay buffer with the visit
  distribution as policy target and the result (+1, -1, 0 for the side to move) as value
  target.
* **Evaluation** (:func:`evaluate`): greedy search (no noise, the most visited move) at a
  fixed simulation count against the compiled opponents of the vector environment
  (War of Life's ``random``, ``bloodlust``, ``minimax``, ...; Losat's ``random``,
  ``greedy``: the same moves as ``agents.make``), both
  seats, all games searched in one batch; a row of the CSV curve each time.
* **Checkpoints** (:func:`save_checkpoint`, :func:`load_checkpoint`): a ``.pt`` holding a
  plain dict (format, game, the network's shape, its state dict, the run's flags and
  counts) that ``torch.load(weights_only=True)`` reads.
* **The agent** (:class:`AlphaZeroAgent`): ``agents.make("alphazero:FILE.pt",
  game="war_of_life")`` (or ``game="losat"``, as the checkpoint's game) plays a protocol
  position by this search from the checkpoint, for the time or simulations its
  :class:`~lifearena.agents.base.Limit` allows.

``docs/rl.md`` ("AlphaZero-style War of Life", "AlphaZero-style Losat") gives the budgets,
the curves and the results.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from lifearena.agents.base import Agent, Limit
from lifearena.core import Action, State
from lifearena.errors import BadParameterError
from lifearena.interop.vector.base import CompiledVectorEnv
from lifearena.rl.alphazero_games import GAMES, GameSpec, game_spec, spec_of
from lifearena.rl.network import ResidualBlock

CHECKPOINT_FORMAT = "lifearena-alphazero-v1"
"""The ``format`` a checkpoint's dict names."""
GAME = "war_of_life"
"""The default game."""
WAR_OF_LIFE = game_spec(GAME)
Evaluator = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""``f(planes (n, planes, height, width), masks (n, actions)) -> (priors (n, actions),
values (n,))``: the priors over the legal actions (summing to 1) and the side to move's
value in [-1, 1] (War of Life: ``(n, 3, 8, 8)`` planes, 512 actions)."""


# -- symmetries ---------------------------------------------------------------------------------

SYMMETRY_CELLS, SYMMETRY_ACTIONS = WAR_OF_LIFE.symmetry_cells, WAR_OF_LIFE.symmetry_actions
"""War of Life's 8 symmetries as gather indices (:mod:`lifearena.rl.alphazero_games`)."""


def transform(observations: np.ndarray, rows: np.ndarray, which: np.ndarray,
              spec: GameSpec = WAR_OF_LIFE) -> tuple[np.ndarray, np.ndarray]:
    """Observation ``n`` (``(n, planes, cells)``) and its row over the actions (``(n,
    actions)``: a mask or a visit distribution) under ``spec``'s symmetry ``which[n]``."""
    cells = spec.symmetry_cells[which][:, None, :]
    return (np.take_along_axis(observations, cells, axis=2),
            np.take_along_axis(rows, spec.symmetry_actions[which], axis=1))


# -- the network --------------------------------------------------------------------------------

class PolicyValueNet(nn.Module):
    """A game's planes to its policy logits and a value in [-1, 1] (see the module doc;
    War of Life's ``(3, 8, 8)`` planes to 512 logits by default). A plane of ones lets the
    zero-padded convolutions see the board's edge."""

    def __init__(self, channels: int = 32, blocks: int = 3,
                 spec: GameSpec = WAR_OF_LIFE) -> None:
        super().__init__()
        self.channels, self.blocks, self.spec = channels, blocks, spec
        cells = spec.cells
        self.stem = nn.Conv2d(spec.planes, channels, 3, padding=1)
        self.tower = nn.Sequential(*(ResidualBlock(channels) for _ in range(blocks)))
        self.policy = nn.Conv2d(channels, spec.kinds, 1)
        self.value_conv = nn.Conv2d(channels, 2, 1)
        self.value = nn.Sequential(nn.Linear(2 * cells, 64), nn.ReLU(), nn.Linear(64, 1),
                                   nn.Tanh())
        # the actions that are no cell's, from the value head's planes (only where the game
        # has some, so War of Life's checkpoints keep their keys)
        self.extra = nn.Linear(2 * cells, spec.extra) if spec.extra else None

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        spec = self.spec
        h = self.tower(torch.relu(self.stem(x)))
        logits = self.policy(h)
        if spec.cell_major:
            # (n, kind, row, column) -> (n, cell, kind): action kinds * cell + kind
            logits = logits.permute(0, 2, 3, 1).reshape(len(x), spec.kinds * spec.cells)
        else:  # (n, kind, row, column) -> action kind * cells + cell
            logits = logits.reshape(len(x), spec.kinds * spec.cells)
        features = torch.relu(self.value_conv(h)).flatten(1)
        if self.extra is not None:
            logits = torch.cat([logits, self.extra(features)], dim=1)
        value = self.value(features)
        return logits, value[:, 0]


def network_evaluator(net: PolicyValueNet) -> Evaluator:
    """The search's :data:`Evaluator` of ``net``: a softmax over the legal actions' logits
    and the value head, without gradients."""

    def evaluate(observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.inference_mode():
            x = torch.from_numpy(np.ascontiguousarray(observations, np.float32))
            spec = net.spec
            logits, values = net(x.reshape(len(x), spec.planes, spec.height, spec.width))
            logits = logits.masked_fill(~torch.from_numpy(masks), -torch.inf)
            priors = torch.softmax(logits, dim=1)
        return priors.numpy(), values.numpy().astype(np.float64)

    return evaluate


def uniform_evaluator(observations: np.ndarray, masks: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Equal priors over the legal actions and value 0: plain UCT with exact game ends (for
    tests and as a network-free baseline)."""
    priors = masks.astype(np.float64)
    priors /= np.maximum(priors.sum(axis=1, keepdims=True), 1.0)
    return priors, np.zeros(len(masks))


# -- the search -------------------------------------------------------------------------------

class Node:
    """A searched position: its legal actions and, per action, the prior, the visits and the
    sum of the values seen from this node's side to move. ``terminal`` (not ``None``) marks
    a finished game, the value of the move into it for the side that made it."""

    __slots__ = ("actions", "children", "explore", "prior", "terminal", "value_sum", "visits")

    def __init__(self, actions: np.ndarray, prior: np.ndarray,
                 terminal: float | None = None) -> None:
        self.actions = actions
        self.prior = prior
        self.explore = prior
        """The priors PUCT reads: ``prior``, with Dirichlet noise mixed in at a root."""
        self.visits = np.zeros(len(actions))
        self.value_sum = np.zeros(len(actions))
        self.children: list[Node | None] = [None] * len(actions)
        self.terminal = terminal

    def select(self, c_puct: float) -> int:
        """The PUCT choice: mean value (0 before a visit) plus ``c_puct`` times the prior
        times ``sqrt(N + 1) / (1 + n)`` (the ``+ 1`` lets the priors speak at the first
        visit)."""
        visits = self.visits
        q = self.value_sum / np.maximum(visits, 1.0)
        u = c_puct * self.explore * (math.sqrt(visits.sum() + 1.0) / (1.0 + visits))
        return int(np.argmax(q + u))

    def policy(self, num_actions: int = WAR_OF_LIFE.num_actions) -> np.ndarray:
        """The visit distribution over all ``num_actions`` actions (War of Life's 512)."""
        out = np.zeros(num_actions, np.float32)
        out[self.actions] = self.visits / max(self.visits.sum(), 1.0)
        return out


@dataclass
class SearchConfig:
    """The search's constants."""

    c_puct: float = 1.5
    dirichlet_alpha: float = 0.3
    noise_fraction: float = 0.25


class BatchedMCTS:
    """PUCT search over the boards of a self-play vector environment, one tree per board
    (see the module doc). The environment is left as it was found.

    Several boards may share a tree (the same root node, the same position on each): each
    simulation then walks one path per board, a virtual loss on every edge taken steering
    the later boards to other paths, and their leaves are evaluated in one call (how the
    agent searches one position with batched network calls)."""

    def __init__(self, env: CompiledVectorEnv, evaluator: Evaluator,
                 config: SearchConfig | None = None,
                 rng: np.random.Generator | None = None) -> None:
        if not env.self_play:
            raise BadParameterError("BatchedMCTS needs a vector environment with "
                                    "opponent='self'")
        self.env = env
        self.spec = spec_of(env)
        self.evaluator = evaluator
        self.config = config or SearchConfig()
        self.rng = rng or np.random.default_rng(0)
        self.evaluations = 0
        """Positions given to the evaluator so far (leaves and roots)."""

    def _expand(self, boards: np.ndarray) -> list[Node]:
        """New nodes for the positions on ``boards`` now, all in one evaluator call."""
        masks = self.env.action_masks()[boards]
        priors, values = self.evaluator(self.spec.features(self.env)[boards], masks)
        self.evaluations += len(boards)
        nodes = []
        for row, mask in zip(priors, masks, strict=True):
            legal = np.flatnonzero(mask)
            prior = np.asarray(row[legal], np.float64)
            total = prior.sum()
            prior = prior / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
            nodes.append(Node(legal, prior))
        self._values = values
        return nodes

    def search(self, roots: Sequence[Node | None], boards: np.ndarray, *,
               simulations: int | None = None, deadline: float | None = None,
               noise: bool = False) -> list[Node | None]:
        """Search the positions on the boards ``boards`` selects from ``roots`` (a node kept
        from the last search, or ``None``) for ``simulations`` simulations each, or until
        ``time.perf_counter()`` passes ``deadline`` (at least one simulation); returns the
        roots (the unselected boards' as given)."""
        if simulations is None and deadline is None:
            raise BadParameterError("search: expected simulations or a deadline")
        env = self.env
        n = env.num_envs
        boards = np.asarray(boards, np.bool_)
        roots = list(roots)
        fresh = np.array([boards[i] and roots[i] is None for i in range(n)])
        if fresh.any():
            for i, node in zip(np.flatnonzero(fresh), self._expand(fresh), strict=True):
                roots[i] = node
        for i in np.flatnonzero(boards):
            root = roots[i]
            assert root is not None
            root.explore = root.prior
            if noise and len(root.actions) > 1:
                dirichlet = self.rng.dirichlet(
                    np.full(len(root.actions), self.config.dirichlet_alpha))
                fraction = self.config.noise_fraction
                root.explore = (1 - fraction) * root.prior + fraction * dirichlet
        saved = env.snapshot()
        done = 0
        try:
            while True:
                self._simulate(roots, boards, saved)
                done += 1
                if simulations is not None and done >= simulations:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    break
        finally:
            env.restore(saved)
        return roots

    def _simulate(self, roots: list[Node | None], boards: np.ndarray,
                  saved: dict[str, np.ndarray]) -> None:
        """One simulation on every selected board: descend, expand, back up."""
        env, c_puct = self.env, self.config.c_puct
        n = env.num_envs
        env.restore(saved)
        current: list[Node | None] = list(roots)
        paths: list[list[tuple[Node, int]]] = [[] for _ in range(n)]
        leaf_values = np.zeros(n)
        to_expand = np.zeros(n, np.bool_)
        descending = boards.copy()
        actions = np.zeros(n, np.int64)
        while descending.any():
            stepping = np.zeros(n, np.bool_)
            for i in np.flatnonzero(descending):
                node = current[i]
                assert node is not None
                k = node.select(c_puct)
                paths[i].append((node, k))
                # a virtual loss until the backup: boards sharing a tree take other paths
                node.visits[k] += 1.0
                node.value_sum[k] -= 1.0
                child = node.children[k]
                if child is not None and child.terminal is not None:
                    leaf_values[i] = child.terminal  # a known game end: no need to play it
                    descending[i] = False
                else:
                    actions[i] = node.actions[k]
                    stepping[i] = True
            if not stepping.any():
                break
            rewards, terminated = env.step_boards(actions, stepping)
            for i in np.flatnonzero(stepping):
                node, k = paths[i][-1]
                child = node.children[k]
                if terminated[i]:
                    value = float(rewards[i])  # the mover's result
                    node.children[k] = Node(np.zeros(0, np.int64), np.zeros(0), value)
                    leaf_values[i] = value
                    descending[i] = False
                elif child is None:
                    to_expand[i] = True
                    descending[i] = False
                else:
                    current[i] = child
        if to_expand.any():
            nodes = self._expand(to_expand)
            for j, i in enumerate(np.flatnonzero(to_expand)):
                node, k = paths[i][-1]
                node.children[k] = nodes[j]
                leaf_values[i] = -self._values[j]  # the leaf's side to move is the other
        for i in np.flatnonzero(boards):
            value = leaf_values[i]
            for node, k in reversed(paths[i]):
                node.value_sum[k] += value + 1.0  # the visit counted, the virtual loss undone
                value = -value


def choose_action(root: Node, temperature: float, rng: np.random.Generator) -> int:
    """The index (into ``root.actions``) of the move to play: the most visited when
    ``temperature`` is 0 (ties to the higher prior), else drawn with probability
    proportional to ``visits ** (1 / temperature)``."""
    if temperature == 0.0:
        best = root.visits == root.visits.max()
        return int(np.flatnonzero(best)[np.argmax(root.prior[best])])
    weights = root.visits ** (1.0 / temperature)
    return int(rng.choice(len(weights), p=weights / weights.sum()))


# -- checkpoints --------------------------------------------------------------------------------

def save_checkpoint(path: str | os.PathLike[str], net: PolicyValueNet,
                    meta: dict[str, Any] | None = None) -> None:
    """Write ``net`` and ``meta`` (numbers, strings, lists and dicts of them) as a plain
    dict that ``torch.load(path, weights_only=True)`` reads."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"format": CHECKPOINT_FORMAT, "game": net.spec.name,
                "params": dict(net.spec.params), "channels": net.channels,
                "blocks": net.blocks, "state_dict": net.state_dict(), "meta": meta or {}},
               path)


def load_checkpoint(path: str | os.PathLike[str], game: str | None = None
                    ) -> tuple[PolicyValueNet, dict[str, Any]]:
    """The network of a checkpoint and its metadata; a
    :class:`~lifearena.errors.BadParameterError` naming the file and what was expected when
    it is missing or not such a checkpoint, or (``game`` given) a checkpoint of another
    game."""
    where = f"checkpoint {str(path)!r}"
    if not os.path.isfile(path):
        raise BadParameterError(f"{where} does not exist; expected a .pt written by "
                                f"python -m lifearena.rl.alphazero")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many kinds for a file that is not its own
        raise BadParameterError(f"{where} is not a readable torch file "
                                f"({type(error).__name__}); expected a .pt written by "
                                f"python -m lifearena.rl.alphazero") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT \
            or data.get("game") not in GAMES:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise BadParameterError(f"{where}: format {found!r:.40}; expected "
                                f"{CHECKPOINT_FORMAT!r} for {' or '.join(GAMES)}")
    if game is not None and data["game"] != game.strip().lower().replace("-", "_"):
        raise BadParameterError(f"{where} plays {data['game']}, not {game}")
    try:
        spec = game_spec(data["game"], data.get("params") or None)
        net = PolicyValueNet(int(data["channels"]), int(data["blocks"]), spec)
        net.load_state_dict(data["state_dict"])
    except (KeyError, TypeError, ValueError, RuntimeError, BadParameterError) as error:
        raise BadParameterError(f"{where}: its weights do not fit the network it names "
                                f"({str(error)[:80]}); expected a checkpoint written by "
                                f"python -m lifearena.rl.alphazero") from None
    net.eval()
    return net, dict(data.get("meta") or {})


# -- the agent ----------------------------------------------------------------------------------

class AlphaZeroAgent(Agent):
    """Plays the checkpoint's game by :class:`BatchedMCTS` with its network: ``parallel``
    boards of a vector environment hold the position and share one tree (so each network
    call evaluates ``parallel`` leaves), and the agent plays the most visited move after the
    simulations its limit allows: ``Limit.simulations`` (counted as paths walked), or
    ``Limit.time`` less a safety margin, or ``simulations`` when the limit gives neither."""

    MARGIN = 0.1
    """The share of a time limit kept back for the last simulation and the move's return."""

    def __init__(self, net: PolicyValueNet, *, seed: int | None = 0, simulations: int = 200,
                 parallel: int = 8, c_puct: float = 1.5, name: str = "alphazero") -> None:
        for option, value in (("simulations", simulations), ("parallel", parallel)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise BadParameterError(f"{option}={value!r:.40}; expected an integer >= 1")
        if not c_puct > 0:
            raise BadParameterError(f"c_puct={c_puct!r:.40}; expected a number > 0")
        self.net = net
        self.simulations = simulations
        self.parallel = parallel
        self.name = name
        self.seed, self.c_puct = seed, c_puct
        self._build(net.spec)
        self.last_simulations = 0
        """How many paths the last move's search walked (its root's visits)."""

    def _build(self, spec: GameSpec) -> None:
        """The search boards for positions of ``spec``'s rules (the network's board size)."""
        self._spec = spec
        self._env = spec.make_env(self.parallel, opponent="self", illegal="raise")
        self._env.reset(seed=0 if self.seed is None else self.seed)
        self._mcts = BatchedMCTS(self._env, network_evaluator(self.net),
                                 SearchConfig(c_puct=self.c_puct),
                                 np.random.default_rng(self.seed))

    def _fit(self, state: State) -> None:
        """Search boards of ``state``'s rules: a Losat network plays any move limit and
        capture count on its own board size (their planes read the same)."""
        spec = self._spec
        if not isinstance(state, spec.state_type):
            raise BadParameterError(f"the alphazero agent plays {spec.name}; got a "
                                    f"{type(state).__name__}")
        if not spec.params:
            return
        rules = {k: state.params.get(k) for k in spec.params}
        if rules == dict(spec.params):
            return
        if (rules["width"], rules["length"]) != (spec.width, spec.height):
            raise BadParameterError(f"the alphazero agent's network plays a {spec.width} x "
                                    f"{spec.height} board; got {rules['width']} x "
                                    f"{rules['length']}")
        self._build(game_spec(spec.name, rules))

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        start = time.perf_counter()
        self._fit(state)
        if state.current_player() != player or state.is_terminal():
            raise BadParameterError(f"player {player} is not to move in this position")
        limit = limit or Limit()
        deadline = None if limit.time is None else start + limit.time * (1.0 - self.MARGIN)
        wanted = limit.simulations
        if wanted is None and deadline is None:
            wanted = self.simulations
        for i in range(self.parallel):
            self._env.set_position(i, state)  # type: ignore[attr-defined]
        first = np.zeros(self.parallel, np.bool_)
        first[0] = True
        (root, *_) = self._mcts.search([None] * self.parallel, first, simulations=1)
        assert root is not None
        while True:
            done = int(root.visits.sum())
            if (wanted is not None and done >= wanted) or (
                    deadline is not None and time.perf_counter() >= deadline):
                break
            count = self.parallel if wanted is None else min(self.parallel, wanted - done)
            self._mcts.search([root] * self.parallel, np.arange(self.parallel) < count,
                              simulations=1)
        self.last_simulations = int(root.visits.sum())
        return int(root.actions[choose_action(root, 0.0, self._mcts.rng)])


def make_agent(path: str, *, seed: int | None = 0, simulations: int = 200, parallel: int = 8,
               c_puct: float = 1.5, game: str | None = None) -> AlphaZeroAgent:
    """The agent of ``alphazero:FILE.pt`` (``game`` given: refused unless the checkpoint
    plays it)."""
    net, _ = load_checkpoint(path, game)
    return AlphaZeroAgent(net, seed=seed, simulations=simulations, parallel=parallel,
                          c_puct=c_puct, name=f"alphazero:{os.path.basename(path)}")


# -- self-play, training and evaluation ---------------------------------------------------------

@dataclass
class Args:
    """The run's flags (``--name-with-dashes``)."""

    game: str = field(default=GAME, metadata={"help": f"the game: {' or '.join(GAMES)}"})
    max_moves: int = field(default=0, metadata={"help": "Losat: the move limit of the "
                                                "training and evaluation games, drawn there "
                                                "(0: the game's own, 400)"})
    seed: int = field(default=0, metadata={"help": "seeds the weights, the games, the noise "
                                           "and the minibatches"})
    threads: int = field(default=1, metadata={"help": "torch.set_num_threads"})
    minutes: float = field(default=15.0, metadata={"help": "wall-clock budget of the whole "
                                                   "run, evaluations included"})
    channels: int = field(default=32, metadata={"help": "convolution channels"})
    blocks: int = field(default=3, metadata={"help": "residual blocks"})
    games: int = field(default=64, metadata={"help": "self-play games searched at once"})
    simulations: int = field(default=32, metadata={"help": "simulations a move in self-play"})
    c_puct: float = field(default=1.5, metadata={"help": "PUCT exploration constant"})
    dirichlet_alpha: float = field(default=0.3, metadata={"help": "root noise concentration"})
    noise_fraction: float = field(default=0.25, metadata={"help": "root noise weight"})
    temperature_plies: int = field(default=8, metadata={"help": "plies of a game whose moves "
                                                        "are drawn by visit counts (then "
                                                        "the most visited)"})
    buffer_size: int = field(default=60_000, metadata={"help": "replay buffer positions"})
    min_buffer: int = field(default=2_000, metadata={"help": "positions before training "
                                                     "starts"})
    batch_size: int = field(default=256, metadata={"help": "minibatch positions"})
    learning_rate: float = field(default=1e-3, metadata={"help": "Adam's step size"})
    weight_decay: float = field(default=1e-4, metadata={"help": "AdamW's weight decay"})
    train_every: int = field(default=4, metadata={"help": "self-play plies between training "
                                                  "phases"})
    updates: int = field(default=8, metadata={"help": "minibatch updates per training phase"})
    eval_every: float = field(default=3.0, metadata={"help": "minutes between evaluations"})
    eval_games: int = field(default=16, metadata={"help": "evaluation games per opponent and "
                                                  "seat"})
    eval_simulations: int = field(default=32, metadata={"help": "simulations a move in "
                                                        "evaluation (greedy, no noise)"})
    eval_opponents: str = field(default="", metadata={
        "help": "compiled opponents, comma-separated (empty: the game's own, War of Life "
                "random,bloodlust,minimax, Losat random,greedy)"})
    out: str = field(default="out/alphazero", metadata={"help": "folder of the checkpoints "
                                                         "and the curve"})


def parse_args(argv: Sequence[str] | None = None) -> Args:
    """:class:`Args` from the command line, one flag per field."""
    parser = argparse.ArgumentParser(prog="python -m lifearena.rl.alphazero",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    for f in dataclasses.fields(Args):
        kind = f.type if callable(f.type) else {"int": int, "float": float, "str": str}[f.type]
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=kind, default=f.default,
                            help=f"{f.metadata.get('help', '')} (default: %(default)s)")
    args = Args(**vars(parser.parse_args(argv)))
    for name in ("threads", "channels", "blocks", "games", "simulations", "buffer_size",
                 "batch_size", "train_every", "eval_games", "eval_simulations"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}; expected >= 1")
    if not args.minutes > 0 or not args.eval_every > 0:
        parser.error("--minutes and --eval-every must be > 0")
    if args.game not in GAMES:
        parser.error(f"--game {args.game}; expected one of {', '.join(GAMES)}")
    if args.max_moves < 0 or (args.max_moves and args.game != "losat"):
        parser.error(f"--max-moves {args.max_moves}; expected 0, or >= 1 with --game losat")
    return args


def run_spec(args: Args) -> GameSpec:
    """The game and rules ``args`` train on."""
    return game_spec(args.game, {"max_moves": args.max_moves} if args.max_moves else None)


class ReplayBuffer:
    """The last ``capacity`` positions: planes (uint8: every game's planes hold small
    integers), legal masks, visit distributions (float16) and value targets, in a ring."""

    def __init__(self, capacity: int, spec: GameSpec = WAR_OF_LIFE) -> None:
        self.capacity = capacity
        self.spec = spec
        self.planes = np.zeros((capacity, spec.planes, spec.cells), np.uint8)
        self.masks = np.zeros((capacity, spec.num_actions), np.bool_)
        self.policies = np.zeros((capacity, spec.num_actions), np.float16)
        self.values = np.zeros(capacity, np.float32)
        self.size = 0
        self.added = 0

    def add(self, planes: np.ndarray, mask: np.ndarray, policy: np.ndarray,
            value: float) -> None:
        at = self.added % self.capacity
        self.planes[at], self.masks[at], self.policies[at] = planes, mask, policy
        self.values[at] = value
        self.added += 1
        self.size = min(self.size + 1, self.capacity)

    def sample(self, count: int, rng: np.random.Generator
               ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """A minibatch, each position under a random symmetry of its game."""
        spec = self.spec
        index = rng.integers(0, self.size, count)
        which = rng.integers(0, len(spec.symmetry_cells), count)
        planes, policies = transform(self.planes[index], self.policies[index], which, spec)
        _, masks = transform(self.planes[index], self.masks[index], which, spec)
        return (torch.from_numpy(planes.astype(np.float32)).reshape(
                    count, spec.planes, spec.height, spec.width),
                torch.from_numpy(masks), torch.from_numpy(policies.astype(np.float32)),
                torch.from_numpy(self.values[index]))


def train_step(net: PolicyValueNet, optimizer: torch.optim.Optimizer,
               batch: tuple[torch.Tensor, ...]) -> tuple[float, float]:
    """One update on the cross-entropy to the visit distribution (over the legal actions)
    plus the squared value error; the two losses."""
    planes, masks, policies, values = batch
    logits, predicted = net(planes)
    log_priors = torch.log_softmax(logits.masked_fill(~masks, -1e9), dim=1)
    policy_loss = -(policies * log_priors).sum(dim=1).mean()
    value_loss = torch.mean((predicted - values) ** 2)
    optimizer.zero_grad()
    (policy_loss + value_loss).backward()  # type: ignore[no-untyped-call]
    optimizer.step()
    return policy_loss.item(), value_loss.item()


def evaluate(net: PolicyValueNet, opponents: Sequence[str], games: int, simulations: int,
             c_puct: float = 1.5, seed: int = 10_000) -> dict[str, tuple[int, int, int]]:
    """``{opponent: (wins, draws, losses)}`` of greedy search with ``net`` at
    ``simulations`` a move against each compiled opponent, ``games`` games in each seat
    (starts from the seeds ``seed, seed + 1, ...``, the same for every network): every
    game of every pairing searched in one batch. The game and rules are the network's."""
    spec = net.spec
    pairs = [(name, seat) for name in opponents for seat in (0, 1)]
    envs = [spec.make_env(games, opponent=name, player=seat) for name, seat in pairs]
    for env in envs:
        env.reset(seed=seed)
    total = games * len(envs)
    search_env = spec.make_env(total, opponent="self", illegal="raise")
    search_env.reset(seed=0)
    mcts = BatchedMCTS(search_env, network_evaluator(net), SearchConfig(c_puct=c_puct))
    results = np.zeros(total)
    playing = np.ones(total, np.bool_)
    while playing.any():
        for k, env in enumerate(envs):
            for i in range(games):
                if playing[k * games + i]:
                    spec.transfer(search_env, k * games + i, env, i)
        roots = mcts.search([None] * total, playing, simulations=simulations)
        for k, env in enumerate(envs):
            actions = np.zeros(games, np.int64)
            for i in range(games):
                root = roots[k * games + i]
                if playing[k * games + i] and root is not None:
                    actions[i] = root.actions[choose_action(root, 0.0, mcts.rng)]
            _, rewards, terminated, _, info = env.step(actions)
            mine = playing[k * games:(k + 1) * games]
            if (info.get("illegal_action", np.zeros(games, np.bool_)) & mine).any():
                raise RuntimeError("evaluate: the search chose an illegal move; the search "
                                   "boards and the evaluation boards disagree")
            for j in np.flatnonzero(terminated & mine):
                results[k * games + j] = rewards[j]
                playing[k * games + j] = False
    table: dict[str, tuple[int, int, int]] = {}
    for name in opponents:
        rows = [k for k, (other, _) in enumerate(pairs) if other == name]
        scores = np.concatenate([results[k * games:(k + 1) * games] for k in rows])
        table[name] = (int((scores > 0).sum()), int((scores == 0).sum()),
                       int((scores < 0).sum()))
    return table


def train(args: Args, log: Callable[[str], None] = print) -> Path:
    """Self-play and training for ``args.minutes`` (see the module doc); returns the final
    checkpoint's path. Writes ``curve.csv`` and ``step_*.pt`` / ``final.pt`` into
    ``args.out``."""
    began = time.perf_counter()
    stop = began + 60.0 * args.minutes
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    spec = run_spec(args)
    opponents = [name.strip() for name in (args.eval_opponents or spec.opponents).split(",")
                 if name.strip()]
    net = PolicyValueNet(args.channels, args.blocks, spec)
    optimizer = torch.optim.AdamW(net.parameters(), lr=args.learning_rate,
                                  weight_decay=args.weight_decay)
    env = spec.make_env(args.games, opponent="self", illegal="raise")
    env.reset(seed=args.seed)
    config = SearchConfig(args.c_puct, args.dirichlet_alpha, args.noise_fraction)
    mcts = BatchedMCTS(env, network_evaluator(net), config, rng)
    buffer = ReplayBuffer(args.buffer_size, spec)
    histories: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]] = [
        [] for _ in range(args.games)]
    roots: list[Node | None] = [None] * args.games
    plies = np.zeros(args.games, np.int64)
    everyone = np.ones(args.games, np.bool_)
    counts = {"plies": 0, "games": 0, "updates": 0}
    spent = {"self_play": 0.0, "training": 0.0, "evaluation": 0.0}
    """Seconds of the budget each part took (reported with each evaluation)."""
    losses = [float("nan"), float("nan")]
    curve = out / "curve.csv"
    columns = ["minutes", "positions", "games", "updates", "policy_loss", "value_loss",
               *(f"{name}_{kind}" for name in opponents for kind in ("wins", "draws",
                                                                       "losses", "score"))]
    with open(curve, "w", newline="") as handle:
        csv.writer(handle).writerow(columns)
    next_eval = began + 60.0 * args.eval_every

    def checkpoint(name: str) -> Path:
        path = out / name
        save_checkpoint(path, net, {"args": dataclasses.asdict(args), **counts,
                                    "minutes": (time.perf_counter() - began) / 60.0,
                                    "seconds": dict(spent)})
        return path

    def record_evaluation() -> None:
        net.eval()
        started = time.perf_counter()
        table = evaluate(net, opponents, args.eval_games, args.eval_simulations, args.c_puct)
        spent["evaluation"] += time.perf_counter() - started
        minutes = (time.perf_counter() - began) / 60.0
        row: list[Any] = [f"{minutes:.2f}", counts["plies"], counts["games"], counts["updates"],
                          f"{losses[0]:.4f}", f"{losses[1]:.4f}"]
        shown = []
        for name in opponents:
            wins, draws, lost = table[name]
            score = (wins + draws / 2) / (wins + draws + lost)
            row += [wins, draws, lost, f"{score:.3f}"]
            shown.append(f"{name} {wins}/{draws}/{lost}")
        with open(curve, "a", newline="") as handle:
            csv.writer(handle).writerow(row)
        log(f"[{minutes:5.1f} min] positions {counts['plies']} games {counts['games']} "
            f"updates {counts['updates']} losses {losses[0]:.3f}/{losses[1]:.3f} | "
            f"w/d/l {', '.join(shown)} | seconds "
            f"{' '.join(f'{part} {value:.0f}' for part, value in spent.items())}")
        checkpoint(f"step_{counts['updates']:06d}.pt")

    record_evaluation()
    rounds = 0
    while rounds == 0 or time.perf_counter() < stop:  # at least one round, however short
        net.eval()
        started = time.perf_counter()
        roots = mcts.search(roots, everyone, simulations=args.simulations, noise=True)
        observations = spec.features(env).reshape(args.games, spec.planes,
                                                  spec.cells).astype(np.uint8)
        masks = env.action_masks()
        movers = env.to_play.copy()
        actions = np.zeros(args.games, np.int64)
        chosen = np.zeros(args.games, np.int64)
        for i in range(args.games):
            root = roots[i]
            assert root is not None
            temperature = 1.0 if plies[i] < args.temperature_plies else 0.0
            chosen[i] = choose_action(root, temperature, rng)
            actions[i] = root.actions[chosen[i]]
            histories[i].append((observations[i], masks[i], root.policy(spec.num_actions),
                                 int(movers[i])))
        rewards, terminated = env.step_boards(actions, everyone)
        counts["plies"] += args.games
        for i in range(args.games):
            if terminated[i]:
                for planes, mask, policy, mover in histories[i]:
                    buffer.add(planes, mask, policy,
                               rewards[i] if mover == movers[i] else -rewards[i])
                histories[i].clear()
                roots[i], plies[i] = None, 0
                counts["games"] += 1
            else:
                root = roots[i]
                assert root is not None
                roots[i] = root.children[chosen[i]]  # keep the searched subtree
                plies[i] += 1
        if terminated.any():
            env.reset(options={"reset_mask": terminated})
        rounds += 1
        spent["self_play"] += time.perf_counter() - started
        if buffer.size >= args.min_buffer and rounds % args.train_every == 0:
            started = time.perf_counter()
            net.train()
            for _ in range(args.updates):
                losses = list(train_step(net, optimizer,
                                         buffer.sample(args.batch_size, rng)))
                counts["updates"] += 1
            net.eval()
            spent["training"] += time.perf_counter() - started
        if time.perf_counter() >= next_eval:
            record_evaluation()
            next_eval = time.perf_counter() + 60.0 * args.eval_every
    record_evaluation()
    return checkpoint("final.pt")


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m lifearena.rl.alphazero [flags]``."""
    args = parse_args(argv)
    path = train(args)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB) and {Path(args.out) / 'curve.csv'}")


if __name__ == "__main__":
    main()
