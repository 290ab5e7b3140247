"""The AlphaZero-style baseline (``lifearena.rl.alphazero``): the batched search on the
compiled boards, ``set_position``, the symmetries, checkpoints, the ``alphazero:FILE.pt``
agent and a tiny training run. Networks here are tiny and searches short."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="needs numba")
torch = pytest.importorskip("torch", reason="needs torch: pip install -e '.[rl]'")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lifearena import agents  # noqa: E402
from lifearena.agents.base import Limit  # noqa: E402
from lifearena.arena.referee import play_game  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.games.war_of_life import WarOfLifeState, new_game  # noqa: E402
from lifearena.interop.vector.war_of_life import WarOfLifeVectorEnv  # noqa: E402
from lifearena.rl import alphazero as az  # noqa: E402

ONE_MOVE_WIN = "[[[1,1],[2,8],[4,3],[6,7],[7,4]],[[5,4],[6,1],[7,7],[8,7]]]"
"""Blue to move with 30 legal moves, of which only [6,7,5,6] wipes red out."""
WINNING_MOVE = "[6,7,5,6]"
TRAP = "[[[1,4],[5,4],[6,1],[8,8]],[[2,5],[3,1],[3,3],[5,1]]]"
"""Blue to move with 19 legal moves: 14 lose at once (the crank wipes blue out), 3 let red
wipe blue out with its reply, only [5,4,5,3] and [5,4,6,3] are safe."""
SAFE_MOVES = {"[5,4,5,3]", "[5,4,6,3]"}


@pytest.fixture(scope="module")
def tiny_net() -> az.PolicyValueNet:
    torch.manual_seed(0)
    return az.PolicyValueNet(channels=4, blocks=1).eval()


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory, tiny_net: az.PolicyValueNet) -> Path:
    path = tmp_path_factory.mktemp("az") / "tiny.pt"
    az.save_checkpoint(path, tiny_net, {"note": "tiny", "updates": 3})
    return path


def search_env(*states: WarOfLifeState) -> WarOfLifeVectorEnv:
    env = WarOfLifeVectorEnv(len(states), opponent="self", illegal="raise")
    env.reset(seed=0)
    for i, state in enumerate(states):
        env.set_position(i, state)
    return env


def test_uniform_search_finds_the_one_move_win_and_counts_every_simulation() -> None:
    win = WarOfLifeState.from_setup(ONE_MOVE_WIN)
    assert len(win.legal_actions()) == 30
    env = search_env(win, new_game(seed=2))
    mcts = az.BatchedMCTS(env, az.uniform_evaluator)
    roots = mcts.search([None, None], np.ones(2, np.bool_), simulations=300)
    for root in roots:
        assert root is not None and root.visits.sum() == 300
    root = roots[0]
    assert root is not None
    best = az.choose_action(root, 0.0, mcts.rng)
    assert win.action_to_string(int(root.actions[best])) == WINNING_MOVE
    assert root.value_sum[best] == root.visits[best]  # every visit saw the win: value +1
    assert root.visits[best] > 150


def test_uniform_search_backs_up_the_replys_win_as_a_loss() -> None:
    trap = WarOfLifeState.from_setup(TRAP)
    env = search_env(trap)
    mcts = az.BatchedMCTS(env, az.uniform_evaluator)
    (root,) = mcts.search([None], np.ones(1, np.bool_), simulations=400)
    assert root is not None
    best = int(root.actions[az.choose_action(root, 0.0, mcts.rng)])
    assert trap.action_to_string(best) in SAFE_MOVES
    q = root.value_sum / np.maximum(root.visits, 1)
    assert (q <= 0.05).all() and (q < -0.3).sum() >= 15


def test_boards_sharing_one_tree_walk_apart_and_find_the_win() -> None:
    win = WarOfLifeState.from_setup(ONE_MOVE_WIN)
    env = search_env(*[win] * 4)
    mcts = az.BatchedMCTS(env, az.uniform_evaluator)
    first = np.array([True, False, False, False])
    (root, *_) = mcts.search([None] * 4, first, simulations=1)
    assert root is not None
    mcts.search([root] * 4, np.ones(4, np.bool_), simulations=1)
    assert (root.visits > 0).sum() == 5  # the virtual losses sent the 4 paths apart
    mcts.search([root] * 4, np.ones(4, np.bool_), simulations=60)
    assert root.visits.sum() == 1 + 4 * 61
    k = az.choose_action(root, 0.0, mcts.rng)
    assert win.action_to_string(int(root.actions[k])) == WINNING_MOVE
    assert root.value_sum[k] == root.visits[k]  # every visit +1: no virtual loss left behind


def test_search_continues_a_kept_subtree_and_only_the_selected_boards() -> None:
    env = search_env(new_game(seed=3), new_game(seed=4))
    mcts = az.BatchedMCTS(env, az.uniform_evaluator)
    first = mcts.search([None, None], np.array([True, False]), simulations=10)
    assert first[1] is None
    again = mcts.search(first, np.array([True, False]), simulations=5)
    assert again[0] is first[0] and again[0] is not None and again[0].visits.sum() == 15


def test_search_leaves_the_batch_as_it_found_it(tiny_net: az.PolicyValueNet) -> None:
    env = WarOfLifeVectorEnv(5, opponent="self", illegal="raise")
    env.reset(seed=7)
    env.step_boards(env.sample_actions(), np.ones(5, np.bool_))  # red to move: a mixed batch
    before = env.snapshot()
    mcts = az.BatchedMCTS(env, az.network_evaluator(tiny_net))
    mcts.search([None] * 5, np.array([True, True, False, True, True]), simulations=12,
                noise=True)
    after = env.snapshot()
    for name, saved in before.items():
        np.testing.assert_array_equal(after[name], saved, err_msg=name)


def test_search_needs_self_play_and_a_bound() -> None:
    with pytest.raises(BadParameterError, match="opponent='self'"):
        az.BatchedMCTS(WarOfLifeVectorEnv(1), az.uniform_evaluator)
    mcts = az.BatchedMCTS(search_env(new_game(seed=1)), az.uniform_evaluator)
    with pytest.raises(BadParameterError, match="expected simulations or a deadline"):
        mcts.search([None], np.ones(1, np.bool_))


def test_set_position_writes_what_a_reset_to_the_same_start_writes() -> None:
    started = WarOfLifeVectorEnv(1, opponent="self", params={"seed": 11})
    started.reset(seed=0)
    env = WarOfLifeVectorEnv(3, opponent="self")
    env.reset(seed=5)
    env.set_position(2, new_game(seed=11))
    np.testing.assert_array_equal(env.observations[2], started.observations[0])
    np.testing.assert_array_equal(env.action_masks()[2], started.action_masks()[0])
    state = new_game(seed=11)
    state.apply_action(state.legal_actions()[0])
    env.set_position(0, state)  # red to move: red's view
    assert env.to_play.tolist() == [1, 0, 0] and env.position(0).board.tolist() == \
        state.board.tolist()
    assert env.action_masks()[0].sum() == len(state.legal_actions())
    over = WarOfLifeState.from_setup(ONE_MOVE_WIN)
    over.apply_action(over.string_to_action(WINNING_MOVE))
    assert over.is_terminal()
    env.set_position(1, over)  # a finished game: no legal action, restarted by the next step
    assert not env.action_masks()[1].any() and env.observations[1, 2].sum() == 0
    with pytest.raises(BadParameterError, match="expected the learner's seat"):
        WarOfLifeVectorEnv(1, opponent="random", player=0).set_position(0, state)
    with pytest.raises(BadParameterError, match=r"expected an integer 0\.\.2"):
        env.set_position(3, state)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), which=st.integers(0, 7))
def test_symmetries_map_legal_moves_onto_the_image_positions_legal_moves(
        seed: int, which: int) -> None:
    state = new_game(seed=seed)
    env = search_env(state)
    planes = env.observations.reshape(1, 3, 64).copy()
    image, mask = az.transform(planes, env.action_masks(), np.array([which]))
    board = np.zeros(64, np.int8)
    board[image[0, 0] > 0], board[image[0, 1] > 0] = 1, 2
    moved = search_env(WarOfLifeState(board.reshape(8, 8)))
    np.testing.assert_array_equal(moved.action_masks(), mask)
    np.testing.assert_array_equal(moved.observations.reshape(1, 3, 64), image)


def test_a_checkpoint_round_trips_as_a_plain_dict(checkpoint: Path,
                                                  tiny_net: az.PolicyValueNet) -> None:
    data = torch.load(checkpoint, weights_only=True)
    assert data["format"] == az.CHECKPOINT_FORMAT and data["meta"]["updates"] == 3
    net, meta = az.load_checkpoint(checkpoint)
    assert meta == {"note": "tiny", "updates": 3}
    x = torch.from_numpy(search_env(new_game(seed=1), new_game(seed=2)).observations)
    with torch.no_grad():
        for got, expected in zip(net(x), tiny_net(x), strict=True):
            torch.testing.assert_close(got, expected)


def test_the_default_network_fits_in_two_megabytes(tmp_path: Path) -> None:
    path = tmp_path / "default.pt"
    az.save_checkpoint(path, az.PolicyValueNet())
    assert path.stat().st_size < 2_000_000


def test_bad_checkpoints_are_refused_with_one_line(tmp_path: Path) -> None:
    with pytest.raises(BadParameterError, match="does not exist; expected a .pt"):
        az.load_checkpoint(tmp_path / "missing.pt")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a checkpoint")
    with pytest.raises(BadParameterError, match="not a readable torch file"):
        az.load_checkpoint(junk)
    other = tmp_path / "other.pt"
    torch.save({"format": "something-else"}, other)
    with pytest.raises(BadParameterError, match="expected 'lifearena-alphazero-v1'"):
        az.load_checkpoint(other)
    war_of_life = tmp_path / "war_of_life.pt"  # a checkpoint of another game than asked
    az.save_checkpoint(war_of_life, az.PolicyValueNet(channels=4, blocks=1))
    with pytest.raises(BadParameterError, match="plays war_of_life, not losat"):
        agents.make(f"alphazero:{war_of_life}", game="losat")


def test_the_agent_plays_legal_moves_through_agents_make(checkpoint: Path) -> None:
    bot = agents.make(f"alphazero:{checkpoint}", game="war_of_life", simulations=4)
    result = play_game("war_of_life", [bot, agents.make("random", game="war_of_life")],
                       seed=3, max_moves=12)
    assert not result.forfeit and len(result.record.moves) >= 2
    state = new_game(seed=5)
    state.apply_action(state.legal_actions()[0])
    assert bot.act(state, 1, Limit(simulations=3)) in state.legal_actions(1)
    assert bot.last_simulations == 3


def test_the_agent_stops_at_its_time_limit(checkpoint: Path) -> None:
    bot = agents.make(f"alphazero:{checkpoint}", game="war_of_life", simulations=10**9)
    state = new_game(seed=6)
    bot.act(state, 0, Limit(simulations=1))  # compile and warm up first
    start = time.perf_counter()
    bot.act(state, 0, Limit(time=0.2))
    assert time.perf_counter() - start < 0.5  # without the deadline: 10**9 simulations
    assert bot.last_simulations >= 1


def test_a_tiny_training_run_writes_a_curve_and_checkpoints(tmp_path: Path) -> None:
    args = az.parse_args(["--minutes", "0.01", "--games", "4", "--simulations", "2",
                          "--channels", "4", "--blocks", "1", "--min-buffer", "1",
                          "--batch-size", "8", "--train-every", "1", "--updates", "1",
                          "--eval-games", "1", "--eval-simulations", "2",
                          "--eval-opponents", "random", "--out", str(tmp_path)])
    final = az.train(args, log=lambda line: None)
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("minutes,positions,games,updates") and len(rows) == 3
    assert sum(int(x) for x in rows[-1].split(",")[6:9]) == 2  # both seats' games counted
    net, meta = az.load_checkpoint(final)
    assert meta["args"]["games"] == 4 and meta["plies"] > 0 and net.channels == 4


def test_flags_are_checked() -> None:
    with pytest.raises(SystemExit) as exit_info:
        az.parse_args(["--games", "0"])
    assert exit_info.value.code == 2
