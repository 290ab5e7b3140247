"""Trained policies as agents (``policy:FILE``): loading a numpy policy file, playing legal
moves through the referee and the tournament, the feature rows the network reads, and the
one-line refusals of a bad file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from lifearena import agents
from lifearena.agents.policy import load_policy, save_policy
from lifearena.agents.policy_features import NUM_FEATURES, afterstates, planes_to_masks
from lifearena.arena.referee import play_game
from lifearena.cli import main
from lifearena.core import Record, Termination, replay
from lifearena.errors import BadParameterError
from lifearena.games import war_of_life as wol
from lifearena.games.war_of_life.fast import board_to_bits


def tiny_policy(path: Path, seed: int = 0, hidden: int = 8) -> Path:
    """A random two-layer policy written as a policy file."""
    rng = np.random.default_rng(seed)
    layers = [(rng.standard_normal((NUM_FEATURES, hidden)), rng.standard_normal(hidden)),
              (rng.standard_normal((hidden, 1)), rng.standard_normal(1))]
    save_policy(path, layers, notes="test")
    return path


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_a_saved_policy_loads_back_with_its_weights(tmp_path) -> None:
    path = tiny_policy(tmp_path / "p.npz")
    policy = load_policy(path)
    assert policy.game == "war_of_life" and policy.features == "afterstate-v1"
    assert [w.shape for w, _ in policy.layers] == [(NUM_FEATURES, 8), (8, 1)]
    rows = np.random.default_rng(1).random((5, NUM_FEATURES), dtype=np.float32)
    w0, b0 = policy.layers[0]
    w1, b1 = policy.layers[1]
    expected = (np.maximum(rows @ w0 + b0, 0) @ w1 + b1)[:, 0]
    assert np.allclose(policy.scores(rows), expected, atol=1e-5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_policy_plays_legal_moves_through_the_referee(tmp_path, seed) -> None:
    bot = agents.make(f"policy:{tiny_policy(tmp_path / 'p.npz', seed)}", game="war_of_life")
    for players in ([bot, agents.make("random", game="war_of_life", seed=seed)],
                    [agents.make("bloodlust", game="war_of_life"), bot]):
        result = play_game("war_of_life", players, seed=seed)
        assert result.outcome.termination is not Termination.FORFEIT
        assert result.length > 0
        # the referee's record replays move for move on the rules' own state
        state = replay(Record("war_of_life", {}, result.setup, result.players, result.moves))
        assert state.is_terminal()


def test_every_chosen_move_is_a_best_scoring_legal_move(tmp_path) -> None:
    path = tiny_policy(tmp_path / "p.npz", seed=5)
    bot, policy = agents.make(f"policy:{path}", game="war_of_life"), load_policy(path)
    state = wol.new_game(seed=3)
    while not state.is_terminal():
        player = state.current_player()
        action = bot.act(state.view(player), player)
        legal = state.legal_actions()
        assert action in legal
        blue, red = board_to_bits(state.board)
        own, other = (blue, red) if player == 0 else (red, blue)
        _, actions, rows = afterstates(np.array([own]), np.array([other]))
        assert actions.tolist() == sorted(legal)
        scores = policy.scores(rows)
        assert scores[actions.tolist().index(action)] == scores.max()
        state.apply_action(action)


def test_feature_rows_describe_the_board_after_the_move_and_crank() -> None:
    state = wol.new_game(seed=7)
    blue, red = board_to_bits(state.board)
    _, actions, rows = afterstates(np.array([blue]), np.array([red]))
    for action, row in zip(actions[:10], rows[:10], strict=False):
        child = state.clone()
        child.apply_action(int(action))
        board = child.board.reshape(64)
        assert row[:64].tolist() == (board == 1).astype(np.float32).tolist()
        assert row[64:128].tolist() == (board == 2).astype(np.float32).tolist()
        assert row[128] * 12 == pytest.approx((board == 1).sum())
        assert row[129] * 12 == pytest.approx((board == 2).sum())


def test_observation_planes_give_back_the_masks() -> None:
    import gymnasium

    import lifearena.interop.gymnasium  # noqa: F401

    env = gymnasium.make_vec("lifearena/war_of_life-v0", num_envs=3,
                             vectorization_mode="vector_entry_point", player=1)
    obs, _ = env.reset(seed=4)
    own, other = planes_to_masks(obs)
    for i in range(3):
        blue, red = board_to_bits(env.unwrapped.position(i).board)
        assert (own[i], other[i]) == (red, blue)  # the learner sits second: red


def land_grab_value(state: wol.WarOfLifeState, player: int, action: int) -> int:
    child = state.clone()
    child.apply_action(action)
    board = child.board
    return int((board == player + 1).sum()) - int((board == 2 - player).sum())


def test_a_hand_made_land_grab_policy_plays_land_grab_moves(tmp_path) -> None:
    # own - opponent pieces after the crank: land_grab's value (ties may differ by the
    # rounding of count / 12, so the value is compared, not the move)
    weights = np.zeros((NUM_FEATURES, 1))
    weights[128, 0], weights[129, 0] = 1.0, -1.0
    save_policy(tmp_path / "lg.npz", [(weights, np.zeros(1))])
    mine = agents.make(f"policy:{tmp_path / 'lg.npz'}", game="war_of_life")
    theirs = agents.make("land_grab", game="war_of_life")
    for seed in range(5):
        state = wol.new_game(seed=seed)
        for _ in range(6):
            if state.is_terminal():
                break
            player = state.current_player()
            action = theirs.act(state.view(player), player)
            chosen = mine.act(state.view(player), player)
            assert land_grab_value(state, player, chosen) == land_grab_value(state, player,
                                                                             action)
            state.apply_action(action)


def test_the_policy_plays_in_a_tournament_from_the_command_line(tmp_path, capsys) -> None:
    path = tiny_policy(tmp_path / "p.npz")
    db = tmp_path / "results.db"
    code, out, err = run_cli(capsys, "tournament", "war-of-life", "-n", "3", "-w", "1",
                             "-a", f"mine=policy:{path},random", "--db", str(db))
    assert code == 0, err
    assert "mine" in out and "12 new games" in out  # 4 pairings (self-play too) x 3
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT player0, player1, termination, length FROM games"
                                  " WHERE player0 = 'mine' OR player1 = 'mine'").fetchall()
    assert len(rows) == 9
    assert all(termination != "forfeit" and length > 0 for _, _, termination, length in rows)


def test_the_policy_climbs_a_ladder_from_the_command_line(tmp_path, capsys) -> None:
    path = tiny_policy(tmp_path / "p.npz")
    code, out, err = run_cli(capsys, "ladder", "war-of-life", "-n", "2", "-a",
                             f"mine=policy:{path}", "-a", "random", "-a", "bloodlust")
    assert code == 0, err
    assert "mine" in out


@pytest.mark.parametrize(("content", "expected"), [
    (None, "does not exist"),
    (b"not a zip file", "is not a readable .npz"),
    ("no-meta", "has no JSON header 'meta'"),
    ("wrong-format", "format 'something-else'"),
    ("wrong-game", "game 'losat'"),
    ("wrong-shape", "layer 0 has weights (10, 1)"),
    ("nan", "NaN or infinite"),
    ("text", "expected numbers"),
])
def test_a_bad_policy_file_is_one_line_naming_the_problem(tmp_path, capsys, content,
                                                         expected) -> None:
    path = tmp_path / "bad.npz"
    meta = {"format": "lifearena-policy-v1", "game": "war_of_life",
            "features": "afterstate-v1"}
    w, b = np.zeros((NUM_FEATURES, 1), np.float32), np.zeros(1, np.float32)
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "no-meta":
        np.savez(path, w0=w, b0=b)
    elif content is not None:
        if content == "wrong-format":
            meta["format"] = "something-else"
        elif content == "wrong-game":
            meta["game"] = "losat"
        elif content == "wrong-shape":
            w = np.zeros((10, 1), np.float32)
        elif content == "text":
            w = np.full((NUM_FEATURES, 1), "x")
        else:
            w[3, 0] = np.nan
        np.savez(path, meta=np.array(json.dumps(meta)), w0=w, b0=b)
    with pytest.raises(BadParameterError, match="policy file") as error:
        agents.make(f"policy:{path}", game="war_of_life")
    assert expected in str(error.value) and "\n" not in str(error.value)
    code, _, err = run_cli(capsys, "tournament", "war-of-life", "-n", "2", "-w", "1",
                             "-a", f"policy:{path},random")
    assert code == 2
    assert expected in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_policy_plays_only_its_own_game(tmp_path) -> None:
    path = tiny_policy(tmp_path / "p.npz")
    with pytest.raises(BadParameterError, match="plays war_of_life, not losat"):
        agents.make(f"policy:{path}", game="losat")
    with pytest.raises(BadParameterError, match="names no file"):
        agents.make("policy:", game="war_of_life")


def test_temperature_samples_legal_moves_reproducibly(tmp_path) -> None:
    path = tiny_policy(tmp_path / "p.npz")
    state = wol.new_game(seed=2)
    picks = [agents.make(f"policy:{path}", game="war_of_life", seed=9, temperature=5.0)
             .act(state, 0) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in state.legal_actions()
    with pytest.raises(BadParameterError, match="temperature"):
        agents.make(f"policy:{path}", game="war_of_life", temperature=-1.0)


# -- the trainer (examples/rl/train_ppo.py) -------------------------------------------------------

def load_trainer():  # type: ignore[no-untyped-def]
    pytest.importorskip("gymnasium")
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
    assert len(curve) == 2 and curve[1]["updates"] >= 1
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
