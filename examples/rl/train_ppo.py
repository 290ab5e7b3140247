"""Train a War of Life policy with PPO on lifearena's compiled vector environments.

The learner plays a pool of the built-in agents: one vector environment per (opponent,
seat), ``--envs`` boards each, all stepped every iteration. Its policy scores each legal
move's afterstate (the board after the move and its crank, :mod:`lifearena.agents.policy_features`)
with a small network and samples a softmax over the legal moves only (action masking: an
illegal move has no row, so no probability). PPO (clipped objective, GAE, Adam) is written
here in numpy, backpropagation by hand: no deep-learning framework is needed to train or to
play. A separate value network reads the observation (both sides' planes and counts). Only
the moves the environment played are learned from: which boards those are is read from its
``infos["action_mask"]`` and its terminated/truncated flags (:func:`played_boards`), never
from the planes, which still show legal-looking moves on a finished board whose next action
the auto-reset ignores.

Every ``--eval-every`` minutes of training (and before the first update) the greedy policy
plays ``--eval-games`` games against ``random`` and against ``bloodlust`` in each seat,
through the vector environment's compiled opponents from fixed starts; the script prints a
table, writes ``curve.json`` and ``curve.png`` and saves the policy as ``policy.npz`` (numpy
weights: ``lifearena tournament war-of-life -a policy:OUT/policy.npz,...`` plays it).

    python examples/rl/train_ppo.py --minutes 20 --seed 0 --out rl-run

``docs/rl.md`` has the protocol, the results and the commands behind its figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import gymnasium
import numpy as np

import lifearena.interop.gymnasium  # noqa: F401  (registers lifearena/<game>-v0)
from lifearena.agents.policy import save_policy
from lifearena.agents.policy_features import NUM_FEATURES, afterstates, planes_to_masks

ENV_ID = "lifearena/war_of_life-v0"
POOL = ("random", "bloodlust", "self_preservation", "land_grab", "minimax")
EVAL_OPPONENTS = ("random", "bloodlust", "minimax")
COLUMNS = tuple(f"{name}/{seat}" for name in EVAL_OPPONENTS for seat in ("first", "second"))
VALUE_FEATURES = 130


# -- a small network with hand-written gradients -------------------------------------------------

@dataclass
class MLP:
    """A fully connected ReLU network with one output, trained with Adam."""

    layers: list[tuple[np.ndarray, np.ndarray]]
    lr: float = 1e-3
    step_count: int = 0
    moments: list[np.ndarray] = field(default_factory=list)

    @classmethod
    def new(cls, sizes: Sequence[int], rng: np.random.Generator, lr: float,
            last_scale: float = 0.01) -> MLP:
        layers = []
        for k, (fan_in, fan_out) in enumerate(itertools.pairwise(sizes)):
            scale = last_scale if k == len(sizes) - 2 else np.sqrt(2.0 / fan_in)
            layers.append(((rng.standard_normal((fan_in, fan_out)) * scale).astype(np.float32),
                           np.zeros(fan_out, np.float32)))
        net = cls(layers, lr)
        net.moments = [np.zeros_like(a) for w, b in layers for a in (w, w, b, b)]
        return net

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Outputs ``(M,)`` and the activations the backward pass needs."""
        acts = [x]
        out = x
        for k, (w, b) in enumerate(self.layers):
            out = out @ w + b
            if k < len(self.layers) - 1:
                out = np.maximum(out, 0.0)
            acts.append(out)
        return out[:, 0], acts

    def backward(self, acts: list[np.ndarray], grad_out: np.ndarray) -> list[np.ndarray]:
        """Gradients ``[dw0, db0, dw1, db1, ...]`` of the loss whose gradient with respect
        to the outputs is ``grad_out``."""
        grads: list[np.ndarray] = []
        delta = grad_out.astype(np.float32)[:, None]
        for k in range(len(self.layers) - 1, -1, -1):
            w, _ = self.layers[k]
            grads[:0] = [acts[k].T @ delta, delta.sum(axis=0)]
            if k:
                delta = (delta @ w.T) * (acts[k] > 0)
        return grads

    def adam(self, grads: list[np.ndarray], clip: float = 0.5) -> None:
        """One Adam step (gradients clipped to a global norm of ``clip``)."""
        norm = np.sqrt(sum(float((g.astype(np.float64) ** 2).sum()) for g in grads))
        scale = min(1.0, clip / (norm + 1e-8))
        self.step_count += 1
        t = self.step_count
        params = [a for w, b in self.layers for a in (w, b)]
        for i, (p, g) in enumerate(zip(params, grads, strict=True)):
            m, v = self.moments[2 * i], self.moments[2 * i + 1]
            g = g * scale
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)


# -- the policy over the legal moves -------------------------------------------------------------

@dataclass
class Moves:
    """The legal moves of a batch of boards, padded to ``(N, K)``."""

    offsets: np.ndarray
    actions: np.ndarray
    rows: np.ndarray
    board: np.ndarray
    """Row ``r``'s board (index into the batch)."""
    slot: np.ndarray
    """Row ``r``'s column in the padded ``(N, K)`` arrays."""
    width: int


def moves_of(own: np.ndarray, other: np.ndarray) -> Moves:
    offsets, actions, rows = afterstates(own, other)
    counts = np.diff(offsets)
    board = np.repeat(np.arange(len(counts)), counts)
    slot = np.arange(len(actions)) - offsets[board]
    return Moves(offsets, actions, rows, board, slot, max(1, int(counts.max(initial=0))))


def padded_log_probs(moves: Moves, scores: np.ndarray) -> np.ndarray:
    """``(N, K)`` log-probabilities of the masked softmax (``-inf`` off the legal moves;
    a board with no legal move gets a row of ``-inf``)."""
    n = len(moves.offsets) - 1
    logits = np.full((n, moves.width), -np.inf)
    logits[moves.board, moves.slot] = scores
    top = logits.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    shifted = logits - top
    with np.errstate(divide="ignore", invalid="ignore"):
        return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def ppo_loss(moves: Moves, scores: np.ndarray, column: np.ndarray, old_logp: np.ndarray,
             adv: np.ndarray, clip: float, entropy_bonus: float
             ) -> tuple[float, np.ndarray, dict[str, float]]:
    """PPO's clipped policy loss less the entropy bonus, averaged over the ``b`` boards of
    ``moves`` (chosen columns ``column``, their log-probabilities when played
    ``old_logp``, advantages ``adv``), and its gradient with respect to each row's score."""
    b = len(column)
    logp_all = padded_log_probs(moves, scores)
    probs = np.exp(logp_all)
    logp = logp_all[np.arange(b), column]
    ratio = np.exp(logp - old_logp)
    clipped = np.clip(ratio, 1 - clip, 1 + clip)
    active = ratio * adv <= clipped * adv  # the unclipped term is the minimum
    with np.errstate(invalid="ignore"):
        plogp = np.where(probs > 0, probs * logp_all, 0.0)
    entropy = -plogp.sum(axis=1)
    loss = float(-np.minimum(ratio * adv, clipped * adv).mean() - entropy_bonus * entropy.mean())
    # d(loss)/d(log-probability of the chosen move), then through the masked softmax
    g = np.where(active, -adv * ratio, 0.0) / b
    grad = -probs * g[:, None]
    grad[np.arange(b), column] += g
    # the entropy bonus: d(-c * H / b) / d(score_j) = c / b * p_j (log p_j + H)
    grad += entropy_bonus / b * (plogp + probs * entropy[:, None])
    return loss, grad[moves.board, moves.slot], {"entropy": float(entropy.mean()),
                                                 "clipped": float((~active).mean())}


def value_inputs(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The value network's input: both sides' planes and piece counts / 12."""
    bits = np.unpackbits(np.stack([own, other], axis=1).view(np.uint8), axis=1,
                         bitorder="little").astype(np.float32)
    counts = bits.reshape(len(own), 2, 64).sum(axis=2) / 12.0
    return np.concatenate([bits, counts], axis=1)


# -- the opponent pool -----------------------------------------------------------------------------

def played_boards(action_mask: np.ndarray, reset_pending: np.ndarray) -> np.ndarray:
    """The boards whose next action the environment will play, by its own account: those
    with a legal action in its mask (``infos["action_mask"]``, ``(N, A)``) and not
    waiting for an auto-reset (``reset_pending``: the last step ended their episode, so
    in Gymnasium's ``NEXT_STEP`` mode the next step starts a new game and ignores the
    action). Only these boards' moves are transitions to learn from: an ignored action
    has no consequence, whatever the observation's planes seem to allow.

    >>> mask = np.array([[0, 1], [0, 0], [1, 0]], np.int8)
    >>> played_boards(mask, np.array([False, False, True])).tolist()
    [True, False, False]
    """
    return np.asarray(action_mask).any(axis=1) & ~np.asarray(reset_pending, bool)


class Pool:
    """One vector environment per (opponent, seat), stepped together as one batch.

    Beside the observations it keeps what the environments say about the next step: each
    board's legal actions (``mask``, from ``infos["action_mask"]``) and whether its episode
    just ended (``reset_pending``: the next step auto-resets it and ignores its action)."""

    def __init__(self, opponents: Sequence[str], envs_each: int, seed: int) -> None:
        self.envs = [gymnasium.make_vec(ENV_ID, num_envs=envs_each,
                                        vectorization_mode="vector_entry_point",
                                        opponent=name, player=seat, copy=False)
                     for name in opponents for seat in (0, 1)]
        self.n = envs_each * len(self.envs)
        starts = [env.reset(seed=seed + k) for k, env in enumerate(self.envs)]
        self.obs = np.concatenate([obs for obs, _ in starts])
        self.mask = np.concatenate([np.array(info["action_mask"]) for _, info in starts])
        self.reset_pending = np.zeros(self.n, bool)

    def played(self) -> np.ndarray:
        """The boards whose next action the environments will play (:func:`played_boards`)."""
        return played_boards(self.mask, self.reset_pending)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Step every environment; (rewards, terminated or truncated)."""
        parts = np.split(actions, len(self.envs))
        obs, rewards, ends, masks = [], [], [], []
        for env, part in zip(self.envs, parts, strict=True):
            o, r, term, trunc, info = env.step(part)
            obs.append(np.array(o))
            rewards.append(np.array(r))
            ends.append(term | trunc)
            masks.append(np.array(info["action_mask"]))
        self.obs = np.concatenate(obs)
        self.mask = np.concatenate(masks)
        self.reset_pending = np.concatenate(ends)
        return np.concatenate(rewards), self.reset_pending.copy()


def check_moves(mask: np.ndarray, played: np.ndarray, column: np.ndarray,
                actions: np.ndarray) -> None:
    """Refuse a rollout step whose moves disagree with the environment: a played board
    without a chosen move, or a chosen move its mask calls illegal (the policy's moves
    come from the afterstate kernel, the mask from the environment)."""
    chosen = column >= 0
    boards = np.flatnonzero(chosen)
    if (chosen != played).any() or not mask[boards, actions[boards]].all():
        raise RuntimeError("the policy's legal moves disagree with the environment's "
                           "action mask; expected the same moves from both")


# -- PPO -------------------------------------------------------------------------------------------

@dataclass
class Settings:
    envs: int = 32
    steps: int = 32
    epochs: int = 4
    minibatch: int = 2048
    lr: float = 1e-3
    clip: float = 0.2
    entropy: float = 0.01
    gamma: float = 0.99
    lam: float = 0.95
    hidden: tuple[int, ...] = (64,)


class Learner:
    def __init__(self, settings: Settings, seed: int) -> None:
        self.s = settings
        self.rng = np.random.default_rng(seed)
        self.policy = MLP.new([NUM_FEATURES, *settings.hidden, 1], self.rng, settings.lr)
        self.value = MLP.new([VALUE_FEATURES, *settings.hidden, 1], self.rng, settings.lr,
                             last_scale=0.1)

    def act(self, own: np.ndarray, other: np.ndarray, greedy: bool,
            played: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(actions, chosen columns (-1 where no move is played), log-probabilities).

        ``played`` (default: every board with a legal move on its planes) says which
        boards' moves the environment will play; the others get action 0, column -1."""
        moves = moves_of(own, other)
        scores, _ = self.policy.forward(moves.rows)
        logp = padded_log_probs(moves, scores)
        if greedy:
            column = np.argmax(logp, axis=1)
        else:
            column = np.argmax(logp + self.rng.gumbel(size=logp.shape), axis=1)
        has = np.diff(moves.offsets) > 0
        if played is not None:
            has &= played
        actions = np.zeros(len(own), np.int64)
        actions[has] = moves.actions[moves.offsets[:-1][has] + column[has]]
        chosen = np.where(has, column, -1)
        return actions, chosen, np.where(has, logp[np.arange(len(own)), column], 0.0)

    def update(self, own: np.ndarray, other: np.ndarray, column: np.ndarray,
               old_logp: np.ndarray, advantages: np.ndarray, returns: np.ndarray
               ) -> dict[str, float]:
        """PPO epochs over the valid transitions given (flat arrays)."""
        n = len(own)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "clipped": 0.0}
        batches = 0
        for _ in range(self.s.epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, self.s.minibatch):
                idx = order[start:start + self.s.minibatch]
                b = len(idx)
                moves = moves_of(own[idx], other[idx])
                scores, acts = self.policy.forward(moves.rows)
                adv = advantages[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                loss, grad, info = ppo_loss(moves, scores, column[idx], old_logp[idx], adv,
                                            self.s.clip, self.s.entropy)
                self.policy.adam(self.policy.backward(acts, grad))
                values, vacts = self.value.forward(value_inputs(own[idx], other[idx]))
                error = values - returns[idx]
                self.value.adam(self.value.backward(vacts, error / b))
                stats["policy_loss"] += loss
                stats["value_loss"] += float((error ** 2).mean())
                stats["entropy"] += info["entropy"]
                stats["clipped"] += info["clipped"]
                batches += 1
        return {k: v / max(1, batches) for k, v in stats.items()}

    def train_iteration(self, pool: Pool) -> tuple[dict[str, float], int]:
        """One rollout of ``steps`` steps over the pool, then PPO; (stats, env steps)."""
        t_steps, n = self.s.steps, pool.n
        own = np.zeros((t_steps + 1, n), np.uint64)
        other = np.zeros((t_steps + 1, n), np.uint64)
        column = np.zeros((t_steps, n), np.int64)
        logp = np.zeros((t_steps, n))
        values = np.zeros((t_steps + 1, n))
        rewards = np.zeros((t_steps, n))
        ends = np.zeros((t_steps, n), bool)
        for t in range(t_steps + 1):
            own[t], other[t] = planes_to_masks(pool.obs)
            values[t], _ = self.value.forward(value_inputs(own[t], other[t]))
            if t == t_steps:
                break
            played = pool.played()
            actions, column[t], logp[t] = self.act(own[t], other[t], greedy=False,
                                                   played=played)
            check_moves(pool.mask, played, column[t], actions)
            rewards[t], ends[t] = pool.step(actions)
        # only the moves the environment played: not a board whose episode had just ended
        # (the auto-reset step ignores its action) nor one with no legal move
        valid = column >= 0
        advantages = np.zeros((t_steps, n))
        running = np.zeros(n)
        for t in range(t_steps - 1, -1, -1):
            follow = ~ends[t]
            delta = rewards[t] + self.s.gamma * values[t + 1] * follow - values[t]
            running = delta + self.s.gamma * self.s.lam * running * follow
            running = np.where(valid[t], running, 0.0)
            advantages[t] = running
        returns = advantages + values[:-1]
        pick = valid.reshape(-1)
        stats = self.update(own[:-1].reshape(-1)[pick], other[:-1].reshape(-1)[pick],
                            column.reshape(-1)[pick], logp.reshape(-1)[pick],
                            advantages.reshape(-1)[pick], returns.reshape(-1)[pick])
        finished = ends & valid
        stats["episodes"] = float(finished.sum())
        stats["win_rate"] = float((rewards[finished] > 0).mean()) if finished.any() else 0.0
        return stats, int(valid.sum())

    def save(self, path: Path, notes: str, extra: dict[str, object]) -> None:
        save_policy(path, self.policy.layers, notes=notes, extra=extra)


# -- evaluation ------------------------------------------------------------------------------------

def evaluate(learner: Learner, opponent: str, seat: int, games: int, seed: int
             ) -> dict[str, float]:
    """The greedy policy's first game on each of ``games`` boards against ``opponent``
    (fixed starts from ``seed``): win, draw and loss rates and the mean game length in
    plies."""
    env = gymnasium.make_vec(ENV_ID, num_envs=games, vectorization_mode="vector_entry_point",
                             opponent=opponent, player=seat, copy=False)
    obs, _ = env.reset(seed=seed)
    done = np.zeros(games, bool)
    result = np.zeros(games)
    length = np.zeros(games)
    while not done.all():
        own, other = planes_to_masks(obs)
        actions, _, _ = learner.act(own, other, greedy=True)
        obs, reward, term, trunc, _ = env.step(actions)
        fresh = (term | trunc) & ~done
        result[fresh] = reward[fresh]
        length[fresh] = [env.unwrapped.position(i).moves_played
                         for i in np.flatnonzero(fresh)]
        done |= fresh
    return {"win": float((result > 0).mean()), "draw": float((result == 0).mean()),
            "loss": float((result < 0).mean()), "plies": float(length.mean())}


def evaluation_row(learner: Learner, games: int, seed: int,
                   opponents: Sequence[str] = EVAL_OPPONENTS) -> dict[str, dict[str, float]]:
    return {f"{name}/{'first' if seat == 0 else 'second'}": evaluate(learner, name, seat,
                                                                      games, seed)
            for name in opponents for seat in (0, 1)}


def plot(curve: list[dict[str, object]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    minutes = [row["minutes"] for row in curve]
    for key, style in (("random/first", "C0-"), ("random/second", "C0--"),
                       ("bloodlust/first", "C3-"), ("bloodlust/second", "C3--"),
                       ("minimax/first", "C2-"), ("minimax/second", "C2--")):
        ax.plot(minutes, [row["eval"][key]["win"] for row in curve], style, marker="o",
                markersize=3, label=f"vs {key.replace('/', ', moving ')}")
    ax.axhline(0.9, color="C0", lw=0.6, ls=":")
    ax.axhline(0.6, color="C3", lw=0.6, ls=":")
    ax.set_xlabel("training minutes (evaluation time excluded)")
    ax.set_ylabel("win rate of the greedy policy")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def table_line(row: dict[str, object]) -> str:
    ev = row["eval"]
    assert isinstance(ev, dict)
    cells = " | ".join(f"{ev[k]['win']:.3f}" for k in COLUMNS)
    return (f"| {row['minutes']:6.2f} | {row['env_steps']:>10,} | {row['updates']:>5} | "
            f"{cells} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0,
                        help="training budget in minutes, evaluation excluded (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=float, default=2.0, help="minutes (default 2)")
    parser.add_argument("--eval-games", type=int, default=256,
                        help="games per opponent and seat (default 256)")
    parser.add_argument("--eval-seed", type=int, default=12345)
    parser.add_argument("--pool", default=",".join(POOL),
                        help=f"opponents to train against (default {','.join(POOL)})")
    parser.add_argument("--envs", type=int, default=Settings.envs,
                        help="boards per opponent and seat")
    parser.add_argument("--steps", type=int, default=Settings.steps)
    parser.add_argument("--lr", type=float, default=Settings.lr)
    parser.add_argument("--entropy", type=float, default=Settings.entropy)
    parser.add_argument("--hidden", default="64", help="hidden layer sizes, e.g. 64,64")
    parser.add_argument("--out", type=Path, default=Path("rl-run"))
    args = parser.parse_args(argv)
    pool_names = [p.strip() for p in args.pool.split(",") if p.strip()]
    settings = Settings(envs=args.envs, steps=args.steps, lr=args.lr, entropy=args.entropy,
                        hidden=tuple(int(h) for h in args.hidden.split(",") if h.strip()))
    args.out.mkdir(parents=True, exist_ok=True)
    learner = Learner(settings, args.seed)
    pool = Pool(pool_names, settings.envs, seed=args.seed * 1000)
    curve: list[dict[str, object]] = []
    trained = 0.0
    env_steps = updates = 0
    header = ("| minutes | env steps | updates | " + " | ".join(COLUMNS) + " |\n"
              + "|---:" * (3 + len(COLUMNS)) + "|")
    print(f"pool {pool_names} x seats 0,1, {pool.n} boards; {settings}", flush=True)
    print(header, flush=True)
    meta = {"seed": args.seed, "pool": pool_names, "settings": settings.__dict__}
    next_eval = 0.0
    while True:
        if trained >= next_eval or trained >= args.minutes * 60:
            row: dict[str, object] = {
                "minutes": trained / 60, "env_steps": env_steps, "updates": updates,
                "eval": evaluation_row(learner, args.eval_games, args.eval_seed)}
            curve.append(row)
            print(table_line(row), flush=True)
            learner.save(args.out / "policy.npz", "PPO on the vector environment, "
                         f"{trained / 60:.1f} training minutes", {**meta, "minutes":
                                                                  trained / 60})
            (args.out / "curve.json").write_text(json.dumps(curve, indent=1))
            plot(curve, args.out / "curve.png",
                 f"PPO on War of Life against {','.join(pool_names)}\n"
                 f"{args.eval_games} games per point and seat, seed {args.seed}")
            next_eval += args.eval_every * 60
            if trained >= args.minutes * 60:
                break
        start = time.perf_counter()
        stats, steps = learner.train_iteration(pool)
        trained += time.perf_counter() - start
        env_steps += steps
        updates += 1
        if updates % 10 == 0:
            print(f"#   {trained / 60:5.2f} min  update {updates}  "
                  + "  ".join(f"{k} {v:.3f}" for k, v in stats.items()), file=sys.stderr,
                  flush=True)
    final = evaluation_row(learner, args.eval_games, args.eval_seed,
                           ("random", "bloodlust", "self_preservation", "land_grab",
                            "minimax"))
    (args.out / "final.json").write_text(json.dumps(final, indent=1))
    print("\nfinal greedy policy, win / draw / loss and mean plies per game:")
    for key, value in final.items():
        print(f"  {key:26} {value['win']:.3f} / {value['draw']:.3f} / {value['loss']:.3f}"
              f"  {value['plies']:.1f}")
    print(f"wrote {args.out / 'policy.npz'}, {args.out / 'curve.png'}, "
          f"{args.out / 'curve.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
