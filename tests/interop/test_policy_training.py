"""Trained policies and their trainer with the Gymnasium environments (the ``[interop]``
extra): the observation planes give back the boards the policy's features read, and the PPO
trainer of ``examples/rl/train_ppo.py`` (its gradients against finite differences, a tiny
run whose policy plays as an agent)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")

import lifearena.interop.gymnasium  # noqa: E402,F401  (registers the environments)
from lifearena import agents  # noqa: E402
from lifearena.agents.policy_features import planes_to_masks  # noqa: E402
from lifearena.arena.referee import play_game  # noqa: E402
from lifearena.core import Termination  # noqa: E402
from lifearena.games import war_of_life as wol  # noqa: E402
from lifearena.games.war_of_life.fast import board_to_bits  # noqa: E402


def test_observation_planes_give_back_the_masks() -> None:
    env = gymnasium.make_vec("lifearena/war_of_life-v0", num_envs=3,
                             vectorization_mode="vector_entry_point", player=1)
    obs, _ = env.reset(seed=4)
    own, other = planes_to_masks(obs)
    for i in range(3):
        blue, red = board_to_bits(env.unwrapped.position(i).board)
        assert (own[i], other[i]) == (red, blue)  # the learner sits second: red


# -- the trainer (examples/rl/train_ppo.py) -------------------------------------------------------

def load_trainer():  # type: ignore[no-untyped-def]
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[2] / "examples" / "rl" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_ppo"] = module
    spec.loader.exec_module(module)
    return module


def test_the_ppo_gradient_matches_finite_differences() -> None:
    trainer = load_trainer()
    rng = np.random.default_rng(3)
    states = [wol.new_game(seed=s) for s in range(4)]
    masks = [board_to_bits(s.board) for s in states]
    moves = trainer.moves_of(np.array([m[0] for m in masks]), np.array([m[1] for m in masks]))
    scores = rng.standard_normal(len(moves.actions))
    column = np.array([rng.integers(n) for n in np.diff(moves.offsets)])
    logp = trainer.padded_log_probs(moves, scores)[np.arange(4), column]
    old_logp = logp + rng.normal(0, 0.1, 4)  # ratios near 1, inside the clip range
    adv = rng.standard_normal(4)
    _, grad, _ = trainer.ppo_loss(moves, scores, column, old_logp, adv, 0.2, 0.05)
    for j in rng.choice(len(scores), 12, replace=False):
        bumped = [scores.copy(), scores.copy()]
        bumped[0][j] += 1e-6
        bumped[1][j] -= 1e-6
        up, down = (trainer.ppo_loss(moves, s, column, old_logp, adv, 0.2, 0.05)[0]
                    for s in bumped)
        assert grad[j] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-7)


def test_the_network_gradient_matches_finite_differences() -> None:
    trainer = load_trainer()
    rng = np.random.default_rng(4)
    net = trainer.MLP.new([5, 7, 3, 1], rng, 1e-3, last_scale=1.0)
    net.layers = [(w.astype(np.float64), b.astype(np.float64) + 0.1) for w, b in net.layers]
    x = rng.standard_normal((6, 5))
    weights = rng.standard_normal(6)
    _, acts = net.forward(x)
    grads = net.backward(acts, weights)
    grads = [g.astype(np.float64) for g in grads]
    for k, (w, _) in enumerate(net.layers):
        i, j = rng.integers(w.shape[0]), rng.integers(w.shape[1])
        w[i, j] += 1e-6
        up = float(weights @ net.forward(x)[0])
        w[i, j] -= 2e-6
        down = float(weights @ net.forward(x)[0])
        w[i, j] += 1e-6
        assert grads[2 * k][i, j] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_a_tiny_training_run_writes_a_policy_the_agent_plays(tmp_path, capsys) -> None:
    trainer = load_trainer()
    out = tmp_path / "run"
    code = trainer.main(["--minutes", "0.005", "--eval-every", "1", "--eval-games", "4",
                         "--envs", "2", "--steps", "4", "--pool", "random,bloodlust",
                         "--out", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| minutes |" in printed and "minimax/second" in printed
    curve = json.loads((out / "curve.json").read_text())
    # a run limited by the clock: at least the first evaluation and one after an update
    assert len(curve) >= 2 and curve[1]["updates"] >= 1
    assert set(curve[0]["eval"]) == {f"{o}/{s}" for o in ("random", "bloodlust", "minimax")
                                     for s in ("first", "second")}
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bot = agents.make(f"policy:{out / 'policy.npz'}", game="war_of_life")
    result = play_game("war_of_life", [bot, agents.make("random", game="war_of_life")])
    assert result.outcome.termination is not Termination.FORFEIT


def test_only_the_environment_s_played_moves_count_as_transitions() -> None:
    trainer = load_trainer()
    mask = np.zeros((4, 512), np.int8)
    mask[0, 17] = mask[2, 3] = mask[3, 40] = 1  # board 1: no legal action
    reset_pending = np.array([False, False, True, False])  # board 2's episode just ended
    assert trainer.played_boards(mask, reset_pending).tolist() == [True, False, False, True]


def test_a_rollout_learns_from_exactly_the_moves_the_environments_played(monkeypatch) -> None:
    """Count, through each environment's own ``action_masks()`` before every step, the
    learner moves the environments played; the trainer's transitions must be those, not
    the steps after an episode's end whose action the auto-reset ignored."""
    trainer = load_trainer()
    pool = trainer.Pool(["random"], envs_each=8, seed=5)
    learner = trainer.Learner(trainer.Settings(envs=8, steps=24, epochs=1), seed=5)
    played = 0
    reset_steps = 0
    for env in pool.envs:
        inner = env.step

        def counting_step(actions, env=env, inner=inner):  # type: ignore[no-untyped-def]
            nonlocal played, reset_steps
            before = env.unwrapped.action_masks().any(axis=1)
            played += int(before.sum())
            reset_steps += int((~before).sum())
            return inner(actions)

        monkeypatch.setattr(env, "step", counting_step)
    given: list[int] = []
    update = learner.update
    monkeypatch.setattr(learner, "update",
                        lambda own, *rest: given.append(len(own)) or update(own, *rest))
    stats, counted = learner.train_iteration(pool)
    assert reset_steps > 0 and stats["episodes"] > 0  # some episodes ended and restarted
    assert counted == played and given == [played]
