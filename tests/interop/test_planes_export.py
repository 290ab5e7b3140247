"""``lifearena rl export``: a torch checkpoint as the ``.npz`` that plays with numpy alone
(:mod:`lifearena.agents.planes_network`). The numpy forward pass must give the torch
network's logits on every game's planes, afterstates and mirror included (hypothesis draws
the sizes, the weights and the positions), and the exported agent must play the torch
agent's moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch", reason='needs torch: pip install torch==2.13.0 -e ".[rl]"')
pytest.importorskip("gymnasium", reason='needs gymnasium: pip install -e ".[rl]"')

from lifearena import agents  # noqa: E402
from lifearena.agents.planes_network import load_planes_policy  # noqa: E402
from lifearena.cli import main  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.interop.vector import VECTOR_GAMES, make_vector_env  # noqa: E402
from lifearena.rl.checkpoint import export_numpy, load_checkpoint, save_checkpoint  # noqa: E402
from lifearena.rl.network import NetworkConfig, PlanesNetwork  # noqa: E402

SMALL = {"p2life": {"size": 6}, "losat": {"width": 9, "length": 11, "max_moves": 100},
         "blocking_queen": {"size": 5}, "life_for_two": {}, "war_of_life": {}}
VARIANTS = [(game, {}) for game in VECTOR_GAMES] + [
    ("war_of_life", {"afterstates": True}), ("losat", {"mirror": True})]


def exported(tmp_path: Path, game: str, extra: dict[str, bool], channels: int, blocks: int,
             seed: int) -> tuple[Path, Path]:
    encoding = Encoding(game, SMALL[game])
    torch.manual_seed(seed)
    network = PlanesNetwork(NetworkConfig.for_game(
        game, encoding.window.shape, encoding.num_actions, channels=channels, blocks=blocks,
        head_channels=2, value_hidden=8, **extra))
    with torch.no_grad():  # weights of a trained size, not the near-zero heads' start
        for parameter in network.parameters():
            parameter.normal_(0.0, 0.5)
    pt, npz = tmp_path / f"{game}.pt", tmp_path / f"{game}.npz"
    save_checkpoint(pt, network, game=game, params=SMALL[game])
    export_numpy(load_checkpoint(pt), npz)
    return pt, npz


@pytest.mark.parametrize(("game", "extra"), VARIANTS)
@settings(max_examples=3, deadline=None)
@given(channels=st.integers(1, 6), blocks=st.integers(0, 2), seed=st.integers(0, 2**16))
def test_numpy_gives_the_torch_networks_logits(tmp_path_factory: pytest.TempPathFactory,
                                                game: str, extra: dict[str, bool],
                                                channels: int, blocks: int, seed: int) -> None:
    pt, npz = exported(tmp_path_factory.mktemp(game), game, extra, channels, blocks, seed)
    network, policy = load_checkpoint(pt).network, load_planes_policy(str(npz))
    env = make_vector_env(game, 4, opponent="self", params=SMALL[game])  # both seats
    obs, info = env.reset(seed=seed)
    seen = set()
    for _ in range(3):
        masks = info["action_mask"].astype(bool)
        seats = np.asarray(env.to_play)
        seen |= set(seats[masks.any(axis=1)].tolist())
        with torch.no_grad():
            expected, _ = network(torch.as_tensor(obs), torch.as_tensor(seats),
                                  torch.as_tensor(masks))
        got = policy.logits(obs, seats, masks)
        scale = 1e-4 * (1.0 + float(expected.abs().max()))
        assert np.abs(got - expected.numpy()).max() <= scale, (game, extra)
        obs, _, _, _, info = env.step(env.sample_actions())
    assert seen == {0, 1}


@pytest.mark.parametrize(("game", "extra"), VARIANTS)
def test_the_export_plays_the_checkpoints_moves(game: str, extra: dict[str, bool],
                                                tmp_path: Path) -> None:
    pt, npz = exported(tmp_path, game, extra, 4, 1, 3)
    by_torch = agents.make(f"policy:{pt}", game=game)
    by_numpy = agents.make(f"policy:{npz}", game=game)
    env = make_vector_env(game, 4, opponent="self", params=SMALL[game])
    _, info = env.reset(seed=1)
    compared = 0
    for _ in range(3):
        for i in np.flatnonzero(info["action_mask"].any(axis=1)):
            state, player = env.position(i), int(env.to_play[i])
            logits, _ = by_torch.logits(state.view(player), player)
            ranked = np.sort(logits)[::-1]
            if len(ranked) > 1 and ranked[0] - ranked[1] < 1e-3:
                continue  # a near-tie: float rounding may pick either
            assert by_numpy.act(state.view(player), player) == \
                by_torch.act(state.view(player), player)
            compared += 1
        _, _, _, _, info = env.step(env.sample_actions())
    assert compared >= 4


def test_the_command_writes_a_playable_file(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    pt, _ = exported(tmp_path, "p2life", {}, 2, 0, 0)
    with pytest.raises(SystemExit) as done:
        main(["rl", "export", str(pt)])
    assert done.value.code in (0, None)
    assert "policy:" in capsys.readouterr().out
    agent = agents.make(f"policy:{pt.with_suffix('.npz')}", game="p2life")
    assert agent.name == "policy:p2life.npz"
    with pytest.raises(SystemExit) as done:
        main(["rl", "export", str(tmp_path / "missing.pt")])
    assert done.value.code == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["rl", "export", str(pt), "-o", str(tmp_path / "out.txt")])
    assert done.value.code == 2
    with pytest.raises(BadParameterError, match="plays p2life, not losat"):
        agents.make(f"policy:{pt.with_suffix('.npz')}", game="losat")


def test_a_damaged_export_is_one_line(tmp_path: Path) -> None:
    _, npz = exported(tmp_path, "p2life", {}, 2, 0, 0)
    data = dict(np.load(npz))
    del data["stem.weight"]
    np.savez(npz, **data)
    with pytest.raises(BadParameterError, match="not an exported planes network"):
        agents.make(f"policy:{npz}", game="p2life")
