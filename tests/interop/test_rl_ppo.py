"""The torch PPO trainer (``lifearena.rl.ppo``), its network and checkpoints, and
``policy:FILE.pt`` agents, for every game.

They need the ``[rl]`` extra (torch, Gymnasium): without it they skip, naming the
``pip install`` that adds it (CI installs it and sets ``LIFEARENA_REQUIRE_INTEROP=1``, which
makes ``conftest.py`` fail instead). Every network here is tiny and every run a couple of
updates on a few boards.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason='needs torch: pip install torch==2.13.0 -e ".[rl]"')
pytest.importorskip("gymnasium", reason='needs gymnasium: pip install -e ".[rl]"')

from lifearena import agents  # noqa: E402
from lifearena.core import CHANCE, SIMULTANEOUS  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.interop.games import new_state  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.interop.vector import VECTOR_GAMES, make_vector_env  # noqa: E402
from lifearena.rl import ppo  # noqa: E402
from lifearena.rl.checkpoint import load_checkpoint, save_checkpoint  # noqa: E402
from lifearena.rl.network import NetworkConfig, PlanesNetwork  # noqa: E402

GAMES = tuple(VECTOR_GAMES)
TINY = ["--num-envs", "2", "--num-steps", "4", "--channels", "4", "--blocks", "1",
        "--head-channels", "1", "--value-hidden", "4", "--eval-every", "0",
        "--eval-games", "2", "--eval-opponents", "random", "--quiet"]
"""A trainer run of 2 updates of 4 steps on 4 boards (16 steps an update)."""


def tiny_run(folder: Path, game: str, *extra: str) -> dict[str, Any]:
    return ppo.train(["--game", game, "--total-steps", "32", "--save", str(folder),
                      *TINY, *extra])


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A checkpoint of every game saved by the trainer after two tiny updates."""
    saved = {}
    for game in GAMES:
        summary = tiny_run(tmp_path_factory.mktemp(game), game)
        assert summary["updates"] == 2 and summary["global_step"] == 32
        saved[game] = Path(summary["checkpoint"])
    return saved


def test_every_hyperparameter_is_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        ppo.parse_args(["--help"])
    assert stop.value.code == 0
    shown = capsys.readouterr().out
    for flag in ("--learning-rate", "--gamma", "--gae-lambda", "--clip-coef", "--clip-vloss",
                 "--ent-coef", "--vf-coef", "--max-grad-norm", "--minutes", "--total-steps",
                 "--seed", "--threads", "--save", "--opponent", "--eval-every"):
        assert flag in shown


def test_a_run_writes_its_curve_and_checkpoint(checkpoints: dict[str, Path]) -> None:
    folder = checkpoints["war_of_life"].parent
    progress = (folder / "progress.csv").read_text().splitlines()
    curve = (folder / "eval.csv").read_text().splitlines()
    assert progress[0].startswith("update,global_step") and len(progress) == 1 + 2
    # before the first update and after the last: random, both seats
    assert [line.split(",")[:5] for line in curve[1:]] == [
        ["0", "0", "0", "random", "0"], ["0", "0", "0", "random", "1"],
        ["2", "32", curve[3].split(",")[2], "random", "0"],
        ["2", "32", curve[4].split(",")[2], "random", "1"]]
    meta = load_checkpoint(checkpoints["war_of_life"]).meta
    assert meta["game"] == "war_of_life" and meta["encoding"]["shape"] == [3, 8, 8]
    assert meta["command"].startswith("python -m lifearena.rl.ppo --game war_of_life")
    assert meta["training"]["updates"] == 2 and meta["lifearena_version"]


def test_the_same_seed_replays_the_same_weights(tmp_path: Path) -> None:
    first = tiny_run(tmp_path / "a", "war_of_life", "--seed", "3")
    second = tiny_run(tmp_path / "b", "war_of_life", "--seed", "3")
    other = tiny_run(tmp_path / "c", "war_of_life", "--seed", "4")
    weights = [load_checkpoint(run["checkpoint"]).network.state_dict()
               for run in (first, second, other)]
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    assert not all(torch.equal(weights[0][k], weights[2][k]) for k in weights[0])


def test_a_pool_and_self_play_train_together(tmp_path: Path) -> None:
    # four environments (random and self, each seat) of 2 boards: 32 steps an update
    summary = tiny_run(tmp_path, "life_for_two", "--opponent", "random,self")
    assert summary["updates"] == 1 and summary["global_step"] == 32


def test_a_bad_parameter_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    assert ppo.main(["--game", "p2life", "--param", "size=1", "--save", str(tmp_path),
                     *TINY]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: ") and error.count("\n") == 1 and "size" in error


@pytest.mark.parametrize("device", ["tpu", "cuda:99"])
def test_a_device_this_machine_lacks_is_one_line(device: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert ppo.main(["--game", "war_of_life", "--device", device, "--save", str(tmp_path),
                     *TINY]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"error: --device '{device}'" if device == "tpu"
                            else f"error: --device {device}: torch sees no such GPU")
    assert error.count("\n") == 1


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (torch sees none)")
@pytest.mark.parametrize("extra", [[], ["--afterstates", "--shaping", "0.05"]])
def test_a_gpu_run_replays_and_saves_weights_any_machine_loads(extra: list[str],
                                                               tmp_path: Path) -> None:
    runs = [tiny_run(tmp_path / name, "war_of_life", "--seed", "5", "--device", "cuda",
                     *extra) for name in ("a", "b")]
    weights = [load_checkpoint(run["checkpoint"]).network.state_dict() for run in runs]
    assert all(w.device.type == "cpu" for w in weights[0].values())
    assert all(torch.equal(weights[0][k], weights[1][k]) for k in weights[0])
    agent = agents.make(f"policy:{runs[0]['checkpoint']}", game="war_of_life")
    assert play_some_moves("war_of_life", {}, agent) > 0


def play_some_moves(game: str, params: dict[str, Any], agent: Any, moves: int = 10) -> int:
    """Up to ``moves`` turns of ``agent`` against itself from the start; every action it
    picks is legal. The number of turns played."""
    state = new_state(game, params)
    rng = np.random.default_rng(0)
    for turn in range(moves):
        current = state.current_player()
        if state.is_terminal():
            return turn
        if current == CHANCE:
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
            continue
        seats = (0, 1) if current == SIMULTANEOUS else (current,)
        chosen = [agent.act(state.view(seat), seat) for seat in seats]
        for seat, action in zip(seats, chosen, strict=True):
            assert action in state.legal_actions(seat), (game, seat, action)
        if current == SIMULTANEOUS:
            state.apply_actions(chosen)
        else:
            state.apply_action(chosen[0])
    return moves


@pytest.mark.parametrize("game", GAMES)
def test_a_checkpoint_plays_legal_moves_as_an_agent(game: str,
                                                   checkpoints: dict[str, Path]) -> None:
    checkpoint = load_checkpoint(checkpoints[game])
    for temperature in (0.0, 1.0):
        agent = agents.make(f"policy:{checkpoints[game]}", game=game.replace("_", "-"),
                            temperature=temperature)
        assert play_some_moves(game, checkpoint.params, agent) >= 1


@pytest.mark.parametrize("game", GAMES)
def test_the_agent_sees_what_the_environment_shows(game: str,
                                                   checkpoints: dict[str, Path]) -> None:
    checkpoint = load_checkpoint(checkpoints[game])
    agent = agents.make(f"policy:{checkpoints[game]}", game=game)
    encoding = Encoding(game, checkpoint.params)
    compared = 0
    for seat in (0, 1):
        env = make_vector_env(game, 4, opponent="random", player=seat)  # random starts
        obs, info = env.reset(seed=7)
        for _ in range(3):
            masks = info["action_mask"].astype(bool)
            best = ppo.greedy_actions(checkpoint.network, obs, masks, env.to_play)
            for i in np.flatnonzero(masks.any(axis=1)):
                state, player = env.position(i), int(env.to_play[i])
                assert np.array_equal(encoding.planes(state, player), obs[i])
                assert np.array_equal(encoding.mask(state, player).astype(bool), masks[i])
                assert agent.act(state.view(player), player) == \
                    encoding.window.to_game(int(best[i]))
                compared += 1
            obs, _, _, _, info = env.step(env.sample_actions())
    assert compared >= 8


@pytest.mark.parametrize("game", GAMES)
def test_a_default_checkpoint_stays_under_two_megabytes(game: str, tmp_path: Path) -> None:
    encoding = Encoding(game)
    network = PlanesNetwork(NetworkConfig.for_game(game, encoding.window.shape,
                                                   encoding.num_actions))
    path = tmp_path / "policy.pt"
    save_checkpoint(path, network, game=game, params={})
    assert path.stat().st_size < 2_000_000


def test_cell_actions_come_from_their_cell() -> None:
    # the policy head's kind k at cell c gives action 8c + k in War of Life (cell-major) and
    # k * cells + c in Losat (kind-major): make kind k's output the constant k
    for game, shape, actions, index in (("war_of_life", (3, 8, 8), 512, lambda c, k: 8 * c + k),
                                        ("losat", (2, 5, 7), 4 * 35 + 1,
                                         lambda c, k: k * 35 + c)):
        network = PlanesNetwork(NetworkConfig.for_game(game, shape, actions, channels=4,
                                                       blocks=0))
        assert network.cell_policy is not None
        with torch.no_grad():
            network.cell_policy.weight.zero_()
            network.cell_policy.bias.copy_(torch.arange(network.config.kinds,
                                                         dtype=torch.float32))
        logits, _ = network(torch.rand(2, *shape), torch.tensor([0, 1]))
        cells = shape[1] * shape[2]
        for cell in (0, 5, cells - 1):
            for kind in range(network.config.kinds):
                assert logits[1, index(cell, kind)].item() == kind


def test_advantages_change_sign_with_the_side_to_move() -> None:
    # self-play, one board: seat 0 moves, then seat 1 moves and wins; then an ignored step
    # (NEXT_STEP auto-reset), then seat 0 of the next game
    rollout = ppo.Rollout(
        obs=torch.zeros(4, 1), masks=torch.zeros(4, 1), actions=torch.zeros(4, 1),
        logprobs=torch.zeros(4, 1),
        seats=torch.tensor([[0], [1], [1], [0]]),
        values=torch.tensor([[0.5], [0.25], [9.0], [0.125]]),
        rewards=torch.tensor([[0.0], [1.0], [0.0], [0.0]]),
        dones=torch.tensor([[0.0], [1.0], [0.0], [0.0]]),
        valid=torch.tensor([[True], [True], [False], [True]]))
    adv = ppo.advantages(rollout, next_value=torch.tensor([0.75]), next_seat=torch.tensor([1]),
                         next_valid=torch.tensor([True]), gamma=1.0, lam=1.0)
    returns = adv + rollout.values
    assert returns[:, 0].tolist() == [-1.0, 1.0, 9.0, -0.75]
    assert adv[2, 0].item() == 0.0


def test_a_checkpoint_of_another_game_is_refused(checkpoints: dict[str, Path]) -> None:
    with pytest.raises(BadParameterError, match="plays losat, not war_of_life"):
        agents.make(f"policy:{checkpoints['losat']}", game="war_of_life")


def test_a_corrupt_checkpoint_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pt"
    broken.write_bytes(b"not a torch file")
    with pytest.raises(BadParameterError, match="not a readable torch file") as error:
        agents.make(f"policy:{broken}", game="losat")
    assert "\n" not in str(error.value)
    plain = tmp_path / "plain.pt"
    torch.save({"format": "something else"}, plain)
    with pytest.raises(BadParameterError, match="expected 'lifearena-torch-policy-v1'"):
        agents.make(f"policy:{plain}", game="losat")


def test_a_checkpoint_whose_weights_do_not_fit_is_refused(checkpoints: dict[str, Path],
                                                          tmp_path: Path) -> None:
    data = torch.load(checkpoints["p2life"], weights_only=True)
    data["state_dict"] = {k: v[..., :1] for k, v in data["state_dict"].items()}
    bad = tmp_path / "bad.pt"
    torch.save(data, bad)
    with pytest.raises(BadParameterError, match="weights do not fit"):
        load_checkpoint(bad)


def test_without_torch_the_error_names_the_extra(checkpoints: dict[str, Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    for name in [m for m in sys.modules if m.startswith("lifearena.rl.")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(BadParameterError,
                       match=r'needs torch: pip install torch==2.13.0 -e "\.\[rl\]"'):
        agents.make(f"policy:{checkpoints['losat']}", game="losat")
