"""Masked PPO from the observation planes, for every game: one readable file, CleanRL's
``ppo.py`` shape (every hyperparameter a flag, seeds, curves in CSV).

    python -m lifearena.rl.ppo --game war_of_life --minutes 5 --threads 1 --save runs/wol
    python -m lifearena.rl.ppo --help

**Environments.** The compiled vector environments
(:func:`lifearena.interop.vector.make_vector_env`, ``observation="planes"``): for each name
in ``--opponent`` (a comma-separated pool: ``random``, ``self``, or any opponent the game's
environment compiles, such as War of Life's ``minimax``) two environments of ``--num-envs``
boards each, the learner in seat 0 in one and seat 1 in the other. The opponent moves
inside the step. In self-play (``self``) the learner moves for both seats; each
observation is the side to move's.

**Learning.** The network is :class:`lifearena.rl.network.PlanesNetwork`: the planes and
the seat they are seen from in, masked logits and a value out. The mask is the
environment's ``infos["action_mask"]``: an illegal action gets probability zero, so it is
never sampled and carries no gradient. A board whose mask is empty (Gymnasium's
``NEXT_STEP`` auto-reset: the step after an episode's end, whose action the environment
ignores) is no transition and is left out of the update. Advantages are GAE; where the side
to move changes between two observations (self-play) the next value and advantage change
sign (the game is zero-sum), so one set of weights learns both seats. The objective is
PPO's clipped surrogate with value clipping and an entropy bonus; Adam, gradients clipped
to a norm, the learning rate annealed linearly to zero over the budget.

**Budgets.** ``--total-steps`` (board steps, CleanRL's ``global_step``: ``num_steps *
boards`` an update) and ``--minutes`` (training time: rollouts and updates, not the
evaluations); whichever ends first.

**Output.** A progress line per update; every ``--eval-every`` updates (and before the
first and after the last) the greedy policy plays ``--eval-games`` games per opponent and
seat against every compiled opponent of the environment (``self`` aside), from the fixed
starts of ``--eval-seed``. ``--save DIR`` receives ``progress.csv`` (one row an update),
``eval.csv`` (the curve: one row per evaluation, opponent and seat) and ``policy.pt``
(:mod:`lifearena.rl.checkpoint`, rewritten at every evaluation), which plays as the agent
``policy:DIR/policy.pt``.

**Seeds.** ``--seed S`` seeds torch (weights, sampling, minibatch order) and the
environments (``reset(seed=1000 * S + k)`` for the ``k``-th); with ``--threads 1`` and the
same number of updates a run replays exactly. The time budget decides the number of
updates, so two runs of the same ``--minutes`` may stop at different updates.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from rich.console import Console
from rich.table import Table
from torch import nn

from lifearena.errors import BadParameterError
from lifearena.interop.games import canonical_name
from lifearena.interop.vector import make_vector_env
from lifearena.rl.checkpoint import save_checkpoint
from lifearena.rl.network import NetworkConfig, PlanesNetwork, masked_entropy, masked_logits

SELF = "self"
EVAL_MAX_STEPS = 2000
"""Steps an evaluation waits for a board's first game to end; one still going counts as a
draw (a game without a move limit may go on forever)."""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The trainer's flags (``python -m lifearena.rl.ppo --help``)."""
    p = argparse.ArgumentParser(
        prog="python -m lifearena.rl.ppo",
        description="Masked PPO from the observation planes on a compiled vector environment.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    flag = p.add_argument
    on_off = argparse.BooleanOptionalAction
    flag("--game", default="war_of_life", help="the game (war_of_life, life_for_two, p2life, "
         "losat, blocking_queen)")
    flag("--param", action="append", default=[], metavar="KEY=VALUE",
         help="a game parameter (repeatable; VALUE read as JSON when it parses)")
    flag("--opponent", default="random", help="comma-separated opponent pool: one pair of "
         "environments (seat 0, seat 1) per name; 'self' for self-play")
    flag("--num-envs", type=int, default=32, help="boards in each environment")
    flag("--num-steps", type=int, default=32, help="steps of every board per rollout")
    flag("--total-steps", type=int, default=10_000_000, help="budget of board steps")
    flag("--minutes", type=float, default=0.0, help="budget of training minutes (0: none)")
    flag("--learning-rate", type=float, default=5e-4, help="Adam's learning rate")
    flag("--anneal-lr", action=on_off, default=True, help="anneal the rate to 0 over the budget")
    flag("--gamma", type=float, default=0.99, help="discount")
    flag("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    flag("--num-minibatches", type=int, default=4, help="minibatches an epoch")
    flag("--update-epochs", type=int, default=4, help="epochs over each rollout")
    flag("--norm-adv", action=on_off, default=True, help="normalise advantages per minibatch")
    flag("--clip-coef", type=float, default=0.2, help="the surrogate's clipping")
    flag("--clip-vloss", action=on_off, default=True, help="clip the value loss too")
    flag("--ent-coef", type=float, default=0.01, help="entropy bonus")
    flag("--vf-coef", type=float, default=0.5, help="value loss weight")
    flag("--max-grad-norm", type=float, default=0.5, help="gradient norm clipping")
    flag("--target-kl", type=float, default=None, help="stop an update's epochs past this KL")
    flag("--shaping", type=float, default=0.0, metavar="C", help="potential-based reward "
         "shaping: C times the mover's pieces minus the opponent's (War of Life; 0: none)")
    flag("--channels", type=int, default=16, help="network: trunk channels")
    flag("--blocks", type=int, default=1, help="network: residual blocks")
    flag("--head-channels", type=int, default=2, help="network: planes of the heads' summary")
    flag("--value-hidden", type=int, default=64, help="network: the value head's hidden width")
    flag("--afterstates", action=on_off, default=False, help="network: War of Life's move "
         "logits scored on each legal move's board after its crank")
    flag("--mirror", action=on_off, default=False, help="network: seat 1's view mirrored into "
         "seat 0's (Losat: both seats one task)")
    flag("--seed", type=int, default=1, help="seed of torch and the environments")
    flag("--threads", type=int, default=1, help="torch.set_num_threads")
    flag("--device", default="cpu", help="where the network learns: cpu, cuda, cuda:N or "
         "auto (cuda when torch sees a GPU); the environments stay on the CPU")
    flag("--torch-deterministic", action=on_off, default=True,
         help="torch.use_deterministic_algorithms")
    flag("--eval-every", type=int, default=10, help="updates between evaluations (0: only "
         "before the first and after the last)")
    flag("--eval-games", type=int, default=64, help="evaluation games per opponent and seat")
    flag("--eval-opponents", default="", help="comma-separated (default: every compiled "
         "opponent of the environment but self)")
    flag("--eval-seed", type=int, default=12345, help="seed of the evaluation starts")
    flag("--save", default="", metavar="DIR", help="where the CSVs and policy.pt go "
         "(default runs/GAME__SEED__TIME)")
    flag("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(argv)
    for name in ("num_envs", "num_steps", "total_steps", "num_minibatches", "update_epochs",
                 "threads", "eval_games"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} {getattr(args, name)}; expected at least 1")
    if args.minutes < 0 or args.eval_every < 0:
        p.error("--minutes and --eval-every must be >= 0")
    return args


def device_of(name: str) -> torch.device:
    """The torch device ``--device`` names; :class:`BadParameterError` (one line) for one
    this machine lacks.

    >>> device_of("cpu"), device_of("auto").type in ("cpu", "cuda")
    (device(type='cpu'), True)
    >>> device_of("tpu")
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --device 'tpu'; expected cpu, cuda, cuda:N or auto
    """
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError:
        device = None
    if device is None or device.type not in ("cpu", "cuda"):
        raise BadParameterError(f"--device {name!r:.40}; expected cpu, cuda, cuda:N or auto")
    if device.type == "cuda" and (not torch.cuda.is_available() or (
            device.index is not None and device.index >= torch.cuda.device_count())):
        raise BadParameterError(f"--device {name}: torch sees no such GPU here "
                                f"({torch.cuda.device_count()} visible); expected cpu or auto")
    return device


def parse_params(items: Sequence[str]) -> dict[str, Any]:
    """``["size=8", "torus=false"]`` as ``{"size": 8, "torus": False}``.

    >>> parse_params(["size=8", "start=random"])
    {'size': 8, 'start': 'random'}
    """
    params: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise BadParameterError(f"--param {item!r}; expected KEY=VALUE")
        try:
            params[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            params[key.strip()] = text
    return params


@dataclass
class Rollout:
    """One rollout's tensors, ``(T, B, ...)``."""

    obs: torch.Tensor
    masks: torch.Tensor
    seats: torch.Tensor
    actions: torch.Tensor
    logprobs: torch.Tensor
    values: torch.Tensor
    rewards: torch.Tensor
    dones: torch.Tensor
    valid: torch.Tensor


class Boards:
    """The pool's vector environments stepped as one batch of boards."""

    def __init__(self, game: str, params: dict[str, Any], opponents: Sequence[str],
                 num_envs: int, seed: int) -> None:
        self.envs = [make_vector_env(game, num_envs, opponent=name, player=seat,
                                     params=params, observation="planes", illegal="raise")
                     for name in opponents for seat in (0, 1)]
        self.num_envs = num_envs
        self.size = num_envs * len(self.envs)
        self.learner_rewards = np.array([name != SELF for name in opponents for _ in (0, 1)]
                                        ).repeat(num_envs)
        """Boards whose rewards are the learner's (not self-play's mover's)."""
        self.lengths = np.zeros(self.size, np.int64)
        """Each board's learner moves in its game so far."""
        first = self.envs[0]
        self.user_params = dict(params)
        """The parameters as given (evaluation environments are made with these: a War of
        Life ``seed`` among them would fix every start)."""
        self.params = dict(first.params)
        """Every parameter of the game (what a checkpoint records)."""
        self.shape = tuple(first.single_observation_space.shape)
        self.num_actions = int(first.num_actions)
        parts = [env.reset(seed=1000 * seed + k) for k, env in enumerate(self.envs)]
        self.obs, self.masks, self.seats = self._gather(parts)

    def _gather(self, parts: Sequence[tuple[Any, dict[str, Any]]]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs = np.concatenate([np.asarray(o, np.float32) for o, _ in parts])
        masks = np.concatenate([np.asarray(info["action_mask"]).astype(bool)
                                for _, info in parts])
        seats = np.concatenate([np.asarray(info.get("to_play", env.to_play), np.int64)
                                for env, (_, info) in zip(self.envs, parts, strict=True)])
        return obs, masks, seats

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Step every board; the rewards and the done flags (terminated or truncated)."""
        n = self.num_envs
        rewards, dones, parts = [], [], []
        for k, env in enumerate(self.envs):
            obs, reward, terminated, truncated, info = env.step(actions[k * n:(k + 1) * n])
            rewards.append(np.asarray(reward, np.float32))
            dones.append(np.asarray(terminated) | np.asarray(truncated))
            parts.append((obs, info))
        self.obs, self.masks, self.seats = self._gather(parts)
        return np.concatenate(rewards), np.concatenate(dones)


def network_for(boards: Boards, game: str, args: argparse.Namespace) -> PlanesNetwork:
    """The network of the boards' game, sized by the flags."""
    config = NetworkConfig.for_game(game, boards.shape, boards.num_actions,
                                    mirror=args.mirror, afterstates=args.afterstates,
                                    channels=args.channels, blocks=args.blocks,
                                    head_channels=args.head_channels,
                                    value_hidden=args.value_hidden)
    return PlanesNetwork(config)


SHAPED_GAMES = frozenset({"war_of_life"})
"""The games whose observation's planes 0 and 1 are the viewer's pieces and the opponent's
(what :func:`material` reads)."""


def material(obs: np.ndarray) -> np.ndarray:
    """Each board's pieces of the viewer minus the opponent's (planes 0 and 1).

    >>> material(np.array([[[[1, 1]], [[0, 1]], [[1, 1]]]], np.float32))
    array([1.], dtype=float32)
    """
    difference: np.ndarray = (obs[:, 0].reshape(len(obs), -1).sum(1)
                              - obs[:, 1].reshape(len(obs), -1).sum(1))
    return difference


def shaped(rewards: np.ndarray, dones: np.ndarray, before: np.ndarray, seats: np.ndarray,
           after: np.ndarray, next_seats: np.ndarray, coef: float, gamma: float) -> np.ndarray:
    """Potential-based shaping (Ng, Harada and Russell, ICML 1999: it leaves the optimal
    policies as they are): ``r + gamma * phi(s') - phi(s)`` with ``phi = coef * material``
    seen by the side that moved, and ``phi = 0`` at a game's end. A next observation seen
    by the other seat (self-play) is that seat's material, so it counts negated.

    >>> shaped(np.zeros(2, np.float32), np.array([False, True]), np.array([0., 2.]),
    ...        np.array([0, 0]), np.array([3., 5.]), np.array([0, 0]), 0.1, 1.0).round(3)
    array([ 0.3, -0.2], dtype=float32)
    """
    sign = np.where(seats == next_seats, 1.0, -1.0)
    following = np.where(dones, 0.0, sign * coef * after)
    return (rewards + gamma * following - coef * before).astype(np.float32)


def collect(network: PlanesNetwork, boards: Boards, steps: int, stats: dict[str, list[float]],
            shaping: float = 0.0, gamma: float = 1.0
            ) -> tuple[Rollout, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``steps`` steps of every board, sampled from the masked policy; the rollout and the
    observation, seats and validity after it (for bootstrapping). Finished games append
    their length (learner moves) and, where the reward is the learner's, their outcome to
    ``stats``. A ``shaping`` coefficient adds :func:`shaped`'s potential terms to the
    rollout's rewards (the outcomes in ``stats`` stay the game's)."""
    b = boards.size
    on = next(network.parameters()).device  # the rollout lives where the network learns
    buffers = Rollout(
        obs=torch.zeros((steps, b, *boards.shape), device=on),
        masks=torch.zeros((steps, b, boards.num_actions), dtype=torch.bool, device=on),
        seats=torch.zeros((steps, b), dtype=torch.long, device=on),
        actions=torch.zeros((steps, b), dtype=torch.long, device=on),
        logprobs=torch.zeros((steps, b), device=on), values=torch.zeros((steps, b), device=on),
        rewards=torch.zeros((steps, b), device=on), dones=torch.zeros((steps, b), device=on),
        valid=torch.zeros((steps, b), dtype=torch.bool, device=on))
    lengths = boards.lengths
    for t in range(steps):
        obs = torch.from_numpy(boards.obs).to(on)
        mask = torch.from_numpy(boards.masks).to(on)
        seat = torch.from_numpy(boards.seats).to(on)
        with torch.no_grad():
            logits, value = network(obs, seat, mask)
            log_probs = torch.log_softmax(masked_logits(logits, mask), dim=1)
            action = torch.multinomial(log_probs.exp(), 1).squeeze(1)
        valid = mask.any(dim=1)
        buffers.obs[t], buffers.masks[t], buffers.seats[t] = obs, mask, seat
        buffers.actions[t] = action
        buffers.logprobs[t] = log_probs.gather(1, action[:, None]).squeeze(1)
        buffers.values[t], buffers.valid[t] = value, valid
        before = material(boards.obs) if shaping else None
        rewards, dones = boards.step(action.cpu().numpy())
        if before is not None:
            buffers.rewards[t] = torch.from_numpy(shaped(
                rewards, dones, before, seat.cpu().numpy(), material(boards.obs), boards.seats,
                shaping, gamma)).to(on)
        else:
            buffers.rewards[t] = torch.from_numpy(rewards).to(on)
        buffers.dones[t] = torch.from_numpy(dones.astype(np.float32)).to(on)
        played = valid.cpu().numpy()
        lengths += played
        finished = played & dones
        stats["lengths"].extend(lengths[finished].tolist())
        stats["outcomes"].extend(rewards[finished & boards.learner_rewards].tolist())
        lengths[finished] = 0
    return (buffers, torch.from_numpy(boards.obs).to(on), torch.from_numpy(boards.seats).to(on),
            torch.from_numpy(boards.masks).any(dim=1).to(on))


def advantages(rollout: Rollout, next_value: torch.Tensor, next_seat: torch.Tensor,
               next_valid: torch.Tensor, gamma: float, lam: float) -> torch.Tensor:
    """GAE over the rollout, backwards; zero where a step is no transition. Where the next
    observation is the other seat's, its value and advantage count negated (zero-sum)."""
    steps = rollout.rewards.shape[0]
    out = torch.zeros_like(rollout.rewards)
    value = torch.where(next_valid, next_value, torch.zeros_like(next_value))
    seat, gae = next_seat.clone(), torch.zeros_like(next_value)
    for t in reversed(range(steps)):
        sign = torch.where(rollout.seats[t] == seat, 1.0, -1.0)
        going_on = 1.0 - rollout.dones[t]
        delta = rollout.rewards[t] + gamma * sign * value * going_on - rollout.values[t]
        step_gae = delta + gamma * lam * sign * going_on * gae
        valid = rollout.valid[t]
        out[t] = torch.where(valid, step_gae, torch.zeros_like(step_gae))
        gae = out[t]
        value = torch.where(valid, rollout.values[t], torch.zeros_like(value))
        seat = torch.where(valid, rollout.seats[t], seat)
    return out


def update(network: PlanesNetwork, optimizer: torch.optim.Optimizer, rollout: Rollout,
           adv: torch.Tensor, args: argparse.Namespace) -> dict[str, float]:
    """PPO's epochs over the rollout's transitions; the last minibatch's statistics."""
    keep = rollout.valid.flatten().nonzero().squeeze(1)
    flat = {name: getattr(rollout, name).flatten(0, 1)[keep]
            for name in ("obs", "masks", "seats", "actions", "logprobs", "values")}
    b_adv = adv.flatten()[keep]
    b_returns = b_adv + flat["values"]
    size = len(keep)
    if size == 0:
        return {}
    clipfracs: list[float] = []
    stats: dict[str, float] = {}
    for _ in range(args.update_epochs):
        # equal minibatches (a few transitions left over would make a noisy last step)
        order = torch.randperm(size).to(keep.device)  # the same order on every device
        for mb in torch.tensor_split(order, min(args.num_minibatches, size)):
            logits, new_value = network(flat["obs"][mb], flat["seats"][mb], flat["masks"][mb])
            logits = masked_logits(logits, flat["masks"][mb])
            new_logprob = torch.log_softmax(logits, dim=1).gather(
                1, flat["actions"][mb, None]).squeeze(1)
            entropy = masked_entropy(logits, flat["masks"][mb])
            logratio = new_logprob - flat["logprobs"][mb]
            ratio = logratio.exp()
            with torch.no_grad():
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
            mb_adv = b_adv[mb]
            if args.norm_adv and len(mb) > 1:
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
            pg_loss = torch.max(-mb_adv * ratio, -mb_adv * torch.clamp(
                ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
            if args.clip_vloss:
                old = flat["values"][mb]
                clipped = old + torch.clamp(new_value - old, -args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((new_value - b_returns[mb]) ** 2,
                                         (clipped - b_returns[mb]) ** 2).mean()
            else:
                v_loss = 0.5 * ((new_value - b_returns[mb]) ** 2).mean()
            loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), args.max_grad_norm)
            optimizer.step()
            stats = {"policy_loss": pg_loss.item(), "value_loss": v_loss.item(),
                     "entropy": entropy.mean().item(), "approx_kl": approx_kl.item()}
        if args.target_kl is not None and stats["approx_kl"] > args.target_kl:
            break
    variance = b_returns.var().item() if size > 1 else 0.0
    residual = (b_returns - flat["values"]).var().item() if size > 1 else 0.0
    stats["clipfrac"] = float(np.mean(clipfracs))
    stats["explained_variance"] = float("nan") if variance == 0 else 1 - residual / variance
    stats["transitions"] = float(size)
    return stats


def greedy_actions(network: PlanesNetwork, obs: np.ndarray, masks: np.ndarray,
                   seats: np.ndarray) -> np.ndarray:
    """The best legal action of each board (the first in action order on a tie)."""
    on = next(network.parameters()).device
    with torch.no_grad():
        legal = torch.as_tensor(masks, device=on)
        logits, _ = network(torch.as_tensor(obs, dtype=torch.float32, device=on),
                            torch.as_tensor(seats, dtype=torch.long, device=on), legal)
        chosen = masked_logits(logits, legal).argmax(dim=1)
    return chosen.cpu().numpy().astype(np.int64)


def evaluate(network: PlanesNetwork, game: str, params: dict[str, Any],
             opponents: Sequence[str], games: int, seed: int) -> list[dict[str, Any]]:
    """The greedy policy's first game on each of ``games`` boards per opponent and seat,
    from the starts of ``reset(seed=seed)``: one row each (wins, draws, losses, mean learner
    moves)."""
    rows = []
    for name in opponents:
        for seat in (0, 1):
            env = make_vector_env(game, games, opponent=name, player=seat, params=params,
                                  observation="planes")
            obs, info = env.reset(seed=seed)
            active = np.ones(games, bool)
            won, drawn, lost = (np.zeros(games, bool) for _ in range(3))
            moves = np.zeros(games, np.int64)
            for _ in range(EVAL_MAX_STEPS):
                masks = np.asarray(info["action_mask"]).astype(bool)
                actions = greedy_actions(network, obs, masks, env.to_play)
                moves += active & masks.any(axis=1)
                obs, reward, terminated, truncated, info = env.step(actions)
                done = active & (np.asarray(terminated) | np.asarray(truncated))
                won |= done & (reward > 0)
                lost |= done & (reward < 0)
                drawn |= done & (reward == 0)
                active &= ~done
                if not active.any():
                    break
            drawn |= active
            rows.append({"opponent": name, "seat": seat, "games": games,
                         "win": won.mean(), "draw": drawn.mean(), "loss": lost.mean(),
                         "moves": moves.mean()})
    return rows


class Output:
    """The run's progress lines, CSVs and checkpoint."""

    PROGRESS = ("update", "global_step", "seconds", "steps_per_second", "games", "train_win",
                "mean_length", "learning_rate", "policy_loss", "value_loss", "entropy",
                "approx_kl", "clipfrac", "explained_variance", "transitions")
    EVAL = ("update", "global_step", "minutes", "opponent", "seat", "games", "win", "draw",
            "loss", "moves")

    def __init__(self, folder: Path, quiet: bool) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.console = Console(quiet=quiet, highlight=False)
        for name, columns in (("progress.csv", self.PROGRESS), ("eval.csv", self.EVAL)):
            with open(folder / name, "w", newline="") as out:
                csv.writer(out).writerow(columns)

    def _append(self, name: str, columns: Sequence[str], row: dict[str, Any]) -> None:
        with open(self.folder / name, "a", newline="") as out:
            csv.writer(out).writerow([_cell(row.get(c, "")) for c in columns])

    def progress(self, row: dict[str, Any]) -> None:
        self._append("progress.csv", self.PROGRESS, row)
        win = row["train_win"]
        self.console.print(
            f"[bold]update {row['update']:>5}[/] step {row['global_step']:>10,} "
            f"{row['steps_per_second']:>7,.0f}/s  games {row['games']:>5} "
            f"win {'  -  ' if win != win else f'{win:.3f}'} len {row['mean_length']:5.1f}  "
            f"pg {row.get('policy_loss', 0):+.3f} v {row.get('value_loss', 0):.3f} "
            f"ent {row.get('entropy', 0):.2f} kl {row.get('approx_kl', 0):.4f} "
            f"clip {row.get('clipfrac', 0):.2f}  {row['seconds'] / 60:.1f} min")

    def evaluation(self, update_count: int, global_step: int, minutes: float,
                   rows: list[dict[str, Any]]) -> None:
        table = Table(title=f"greedy policy after {update_count} updates "
                            f"({global_step:,} steps, {minutes:.1f} min)")
        for column in ("opponent", "seat", "games", "win", "draw", "loss", "learner moves"):
            table.add_column(column, justify="left" if column == "opponent" else "right")
        for row in rows:
            full = {"update": update_count, "global_step": global_step, "minutes": minutes,
                    **row}
            self._append("eval.csv", self.EVAL, full)
            table.add_row(row["opponent"], ("first", "second")[row["seat"]], str(row["games"]),
                          f"{row['win']:.3f}", f"{row['draw']:.3f}", f"{row['loss']:.3f}",
                          f"{row['moves']:.1f}")
        self.console.print(table)


def _cell(value: Any) -> Any:
    return f"{value:.6g}" if isinstance(value, float | np.floating) else value


def train(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the trainer with ``argv`` (the command line's flags); a summary of the run:
    ``updates``, ``global_step``, ``seconds``, ``checkpoint`` and the last ``evaluation``."""
    args = parse_args(argv)
    command = "python -m lifearena.rl.ppo " + shlex.join(
        list(sys.argv[1:] if argv is None else argv))
    game = canonical_name(args.game)
    if args.shaping and game not in SHAPED_GAMES:
        raise BadParameterError(f"--shaping for {game}; expected a game whose planes are "
                                f"the mover's and the opponent's pieces: "
                                f"{', '.join(sorted(SHAPED_GAMES))}")
    opponents = [name.strip() for name in args.opponent.split(",") if name.strip()]
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(args.torch_deterministic)
    device = device_of(args.device)
    if device.type == "cuda" and args.torch_deterministic:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # cuBLAS's condition

    boards = Boards(game, parse_params(args.param), opponents, args.num_envs, args.seed)
    network = network_for(boards, game, args).to(device)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate, eps=1e-5)
    eval_opponents = ([n.strip() for n in args.eval_opponents.split(",") if n.strip()]
                      or [n for n in boards.envs[0].opponents if n != SELF])
    folder = Path(args.save or f"runs/{game}__{args.seed}__{int(time.time())}")
    output = Output(folder, args.quiet)
    checkpoint = folder / "policy.pt"
    per_update = args.num_steps * boards.size
    budget_s = args.minutes * 60 or float("inf")
    update_count, global_step, trained_s = 0, 0, 0.0
    last: list[dict[str, Any]] = []

    def checkpoint_and_evaluate() -> None:
        nonlocal last
        network.eval()
        last = evaluate(network, game, boards.user_params, eval_opponents, args.eval_games,
                        args.eval_seed)
        network.train()
        output.evaluation(update_count, global_step, trained_s / 60, last)
        save_checkpoint(checkpoint, network, game=game, params=boards.params, command=command,
                        training={"updates": update_count, "global_step": global_step,
                                  "seconds": round(trained_s, 1), "seed": args.seed,
                                  "opponent": args.opponent})

    checkpoint_and_evaluate()
    stats: dict[str, list[float]] = {"lengths": [], "outcomes": []}
    while global_step < args.total_steps and trained_s < budget_s:
        started = time.perf_counter()
        done_fraction = max(global_step / args.total_steps, trained_s / budget_s)
        rate = args.learning_rate * (1.0 - done_fraction if args.anneal_lr else 1.0)
        for group in optimizer.param_groups:
            group["lr"] = rate
        stats["lengths"].clear()
        stats["outcomes"].clear()
        rollout, next_obs, next_seat, next_valid = collect(
            network, boards, args.num_steps, stats, args.shaping, args.gamma)
        with torch.no_grad():
            _, next_value = network(next_obs, next_seat,
                                    torch.from_numpy(boards.masks).to(device))
        adv = advantages(rollout, next_value, next_seat, next_valid, args.gamma,
                         args.gae_lambda)
        losses = update(network, optimizer, rollout, adv, args)
        update_count += 1
        global_step += per_update
        seconds = time.perf_counter() - started
        trained_s += seconds
        outcomes = stats["outcomes"]
        output.progress({
            "update": update_count, "global_step": global_step, "seconds": trained_s,
            "steps_per_second": per_update / seconds, "games": len(stats["lengths"]),
            "train_win": float(np.mean(np.asarray(outcomes) > 0)) if outcomes else float("nan"),
            "mean_length": float(np.mean(stats["lengths"])) if stats["lengths"] else 0.0,
            "learning_rate": rate, **losses})
        if args.eval_every and update_count % args.eval_every == 0:
            checkpoint_and_evaluate()
    if update_count and (not args.eval_every or update_count % args.eval_every):
        checkpoint_and_evaluate()
    return {"updates": update_count, "global_step": global_step, "seconds": trained_s,
            "checkpoint": str(checkpoint), "folder": str(folder), "evaluation": last}


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: exit 2 with one line on stderr for a bad parameter."""
    try:
        train(argv)
    except BadParameterError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    sys.exit(main())
