"""The trainer's two helps for the games that learn slowly from their planes: War of Life's
afterstate policy (:mod:`lifearena.rl.afterstates`), Losat's mirrored seat view
(:data:`lifearena.rl.network.MIRRORS`) and potential-based shaping (:func:`ppo.shaped`).

The afterstates are checked against the game's own compiled crank (``crank_bits`` and
``TARGET_OF`` of :mod:`lifearena.games.war_of_life.fast`), on boards hypothesis draws.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch", reason='needs torch: pip install torch==2.13.0 -e ".[rl]"')
pytest.importorskip("gymnasium", reason='needs gymnasium: pip install -e ".[rl]"')

from lifearena import agents  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.games.war_of_life.fast import TARGET_OF, crank_bits  # noqa: E402
from lifearena.interop.vector import make_vector_env  # noqa: E402
from lifearena.rl import ppo  # noqa: E402
from lifearena.rl.afterstates import afterstates  # noqa: E402
from lifearena.rl.checkpoint import load_checkpoint  # noqa: E402
from lifearena.rl.network import NetworkConfig, PlanesNetwork  # noqa: E402

TINY = ["--num-envs", "2", "--num-steps", "4", "--channels", "4", "--blocks", "1",
        "--head-channels", "1", "--value-hidden", "4", "--eval-every", "0",
        "--eval-games", "2", "--eval-opponents", "random", "--quiet", "--total-steps", "32"]


def as_bits(cells: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << int(i) for i in np.flatnonzero(cells)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=64, max_size=64))
def test_each_afterstate_is_the_games_move_and_crank(cells: list[int]) -> None:
    board = np.array(cells).reshape(8, 8)
    planes = torch.zeros(1, 3, 8, 8)
    planes[0, 0] = torch.from_numpy((board == 1).astype(np.float32))
    planes[0, 1] = torch.from_numpy((board == 2).astype(np.float32))
    empty = (board == 0).ravel()
    legal = [a for a in range(512) if board.ravel()[a // 8] == 1
             and TARGET_OF[a] >= 0 and empty[TARGET_OF[a]]]
    mask = torch.zeros(1, 512, dtype=torch.bool)
    mask[0, legal] = True
    boards, index = afterstates(planes, mask)
    assert sorted(index.tolist()) == legal
    for k, action in enumerate(index.tolist()):
        own = (board == 1).ravel().copy()
        own[action // 8], own[TARGET_OF[action]] = False, True
        expected = crank_bits(as_bits(own), as_bits((board == 2).ravel()))
        got = (as_bits(boards[k, 0].flatten().numpy() > 0),
               as_bits(boards[k, 1].flatten().numpy() > 0))
        assert got == tuple(expected), action


def test_an_afterstate_network_scores_only_legal_moves() -> None:
    config = NetworkConfig.for_game("war_of_life", (3, 8, 8), 512, afterstates=True,
                                    channels=4, blocks=0)
    network = PlanesNetwork(config)
    env = make_vector_env("war_of_life", 4, opponent="random", observation="planes")
    obs, info = env.reset(seed=1)
    mask = torch.as_tensor(info["action_mask"].astype(bool))
    logits, values = network(torch.as_tensor(obs), torch.zeros(4, dtype=torch.long), mask)
    assert logits.shape == (4, 512) and values.shape == (4,)
    assert bool((logits[~mask] == 0).all()) and bool((logits[mask] != 0).any())
    with pytest.raises(ValueError, match="mask"):
        network(torch.as_tensor(obs), torch.zeros(4, dtype=torch.long))


def test_afterstates_are_war_of_life_only() -> None:
    with pytest.raises(BadParameterError, match="afterstates for losat"):
        NetworkConfig.for_game("losat", (2, 19, 19), 1445, afterstates=True)
    with pytest.raises(BadParameterError, match="mirror for war_of_life"):
        NetworkConfig.for_game("war_of_life", (3, 8, 8), 512, mirror=True)


def test_seat_ones_mirrored_view_plays_seat_zeros_moves() -> None:
    # with the seat plane's weights at zero, seat 1 looking at the board turned upside down
    # with its colours swapped must choose the mirror image of seat 0's moves
    config = NetworkConfig.for_game("losat", (2, 19, 19), 1445, mirror=True, channels=4,
                                    blocks=1)
    network = PlanesNetwork(config)
    with torch.no_grad():
        network.stem.weight[:, 2] = 0.0
    generator = torch.Generator().manual_seed(0)
    board = (torch.rand(1, 2, 19, 19, generator=generator) < 0.1).float()
    logits, value = network(board, torch.tensor([0]))
    mirrored_logits, mirrored_value = network(board[:, [1, 0]].flip(2), torch.tensor([1]))
    cells = logits[0, :-1].view(4, 19, 19)
    expected = cells[[0, 2, 1, 3]].flip(1)  # remove, add white <-> add black, capture
    assert torch.allclose(mirrored_logits[0, :-1].view(4, 19, 19), expected, atol=1e-6)
    assert torch.allclose(mirrored_value, value, atol=1e-6)
    assert torch.allclose(mirrored_logits[0, -1], logits[0, -1], atol=1e-6)  # pass
    plain = PlanesNetwork(NetworkConfig.for_game("losat", (2, 19, 19), 1445, channels=4))
    with torch.no_grad():
        plain.stem.weight[:, 2] = 0.0
    assert not torch.allclose(plain(board[:, [1, 0]].flip(2), torch.tensor([1]))[0][0, :-1]
                              .view(4, 19, 19), plain(board, torch.tensor([0]))[0][0, :-1]
                              .view(4, 19, 19)[[0, 2, 1, 3]].flip(1), atol=1e-6)


@pytest.mark.parametrize(("game", "flags"), [
    ("war_of_life", ["--afterstates", "--shaping", "0.05", "--blocks", "0"]),
    ("losat", ["--mirror"]),
])
def test_their_checkpoints_play_as_agents(game: str, flags: list[str], tmp_path: Path) -> None:
    summary = ppo.train(["--game", game, "--save", str(tmp_path), *TINY, *flags])
    checkpoint = load_checkpoint(Path(summary["checkpoint"]))
    assert checkpoint.network.config.afterstates == (game == "war_of_life")
    assert bool(checkpoint.network.config.mirror_planes) == (game == "losat")
    agent = agents.make(f"policy:{summary['checkpoint']}", game=game)
    env = make_vector_env(game, 2, opponent="random")
    obs, info = env.reset(seed=2)
    masks = info["action_mask"].astype(bool)
    best = ppo.greedy_actions(checkpoint.network, obs, masks, env.to_play)
    for i in range(2):
        state, player = env.position(i), int(env.to_play[i])
        assert masks[i, best[i]]
        chosen = agent.act(state.view(player), player)
        assert chosen in state.legal_actions(player)


def test_shaping_is_for_war_of_life(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    assert ppo.main(["--game", "p2life", "--shaping", "0.1", "--save", str(tmp_path),
                     *TINY]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--shaping for p2life" in error


def test_shaping_telescopes_to_the_outcome() -> None:
    # along one game seen by one seat, the shaped rewards sum to the outcome minus the start's
    # potential (gamma 1): the shaping changes no policy's ranking (Ng et al. 1999)
    material = np.array([0.0, 2.0, -1.0, 3.0])
    rewards = np.array([0.0, 0.0, 0.0, 1.0], np.float32)
    dones = np.array([False, False, False, True])
    seats = np.zeros(4, np.int64)
    after = np.append(material[1:], 9.0)  # the last "after" is past the end: ignored
    total = sum(ppo.shaped(rewards[t:t + 1], dones[t:t + 1], material[t:t + 1], seats[:1],
                           after[t:t + 1], seats[:1], 0.1, 1.0)[0] for t in range(4))
    assert total == pytest.approx(1.0 - 0.1 * material[0])
    # self-play: the next view is the opponent's, whose material is ours negated
    assert ppo.shaped(np.zeros(1, np.float32), np.array([False]), np.array([1.0]),
                      np.array([0]), np.array([-3.0]), np.array([1]), 0.5, 1.0)[0] == \
        pytest.approx(0.5 * 3.0 - 0.5 * 1.0)
