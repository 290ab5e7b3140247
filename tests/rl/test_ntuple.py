"""War of Life's n-tuple network (``lifearena.agents.ntuple``) and its trainer
(``python -m lifearena.rl.ntuple``): the compiled value equals a plain reading of the
tuples, symmetric boards are worth the same, the boards it scores are the game's own after
each move, training replays exactly, and files are checked (the shipped network:
``tests/rl/test_baselines.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena import agents
from lifearena.agents.ntuple import (
    NTupleNetwork,
    board_value,
    load_ntuple,
    move_values,
    network_value,
    save_ntuple,
    symmetry,
)
from lifearena.errors import BadParameterError
from lifearena.games.war_of_life import new_game
from lifearena.games.war_of_life.fast import RANDOM, board_to_bits
from lifearena.rl.ntuple import play_block

boards = st.lists(st.sampled_from([0, 1, 2]), min_size=64, max_size=64).map(
    lambda cells: np.array(cells, np.int8).reshape(8, 8))


def random_network(seed: int) -> NTupleNetwork:
    network = NTupleNetwork.empty()
    network.weights[:] = np.random.default_rng(seed).normal(size=network.weights.shape)
    return network


def plain_value(network: NTupleNetwork, board: np.ndarray) -> float:
    """The network's sum read cell by cell: 1 is the player's piece, 2 the opponent's."""
    total = 0.0
    for cells, table in zip(network.cells.tolist(), network.table_of.tolist(), strict=True):
        index = 0
        for cell in cells:
            index = 3 * index + int(board[cell // 8, cell % 8])
        total += float(network.weights[table, index])
    return total


def masks(board: np.ndarray) -> tuple[np.uint64, np.uint64]:
    return board_to_bits(board)  # 1s are "blue", the player's; 2s the opponent's


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 3))
def test_the_compiled_value_is_the_plain_sum_of_the_tuples(board: np.ndarray,
                                                           seed: int) -> None:
    network = random_network(seed)
    mine, theirs = masks(board)
    compiled = network_value(network.weights, network.cells, network.table_of, mine, theirs)
    assert compiled == pytest.approx(plain_value(network, board), rel=1e-12, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(boards, st.integers(0, 7))
def test_symmetric_boards_are_worth_the_same(board: np.ndarray, which: int) -> None:
    network = random_network(5)
    turned = np.zeros_like(board)
    for row in range(8):
        for column in range(8):
            turned[symmetry(row, column, which)] = board[row, column]
    assert network.value(*masks(turned)) == pytest.approx(network.value(*masks(board)),
                                                          rel=1e-9, abs=1e-9)


def test_a_board_without_one_side_is_worth_its_result() -> None:
    network = random_network(1)
    one = np.uint64(1)
    assert (network.value(one, 0), network.value(0, one), network.value(0, 0)) == (1, -1, 0)


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_the_boards_scored_are_the_games_own_after_each_move(seed: int) -> None:
    """``move_values`` scores each legal move of the state, in the state's order, by the
    board the game's own rules make after it (the protocol path, not the bitboards)."""
    network = random_network(seed)
    state = new_game(seed=seed)
    for player in (0, 1):
        state_to_move = state.clone()
        if player == 1:
            state_to_move.apply_action(state.legal_actions(0)[0])
        own, other = masks(state_to_move.board)
        if player == 1:
            own, other = other, own
        actions = np.empty(512, np.int64)
        values = np.empty(512, np.float64)
        count = move_values(network.weights, network.cells, network.table_of, own, other,
                            actions, values)
        legal = state_to_move.legal_actions(player)
        assert actions[:count].tolist() == list(legal)
        for action, value in zip(legal, values[:count].tolist(), strict=True):
            child = state_to_move.clone()
            child.apply_action(action)
            after = child.board  # type: ignore[attr-defined]
            mine = np.where(after == player + 1, 1, np.where(after == 2 - player, 2, 0))
            expected = board_value(network.weights, network.cells, network.table_of,
                                   *masks(mine))
            assert value == pytest.approx(expected)


def test_training_replays_exactly_from_its_seed_and_learns() -> None:
    def trained(seed: int) -> tuple[NTupleNetwork, float]:
        network = NTupleNetwork.empty()
        score = play_block(network, np.array([RANDOM]), games=300, seed=seed, epsilon=0.05,
                           alpha=0.05, learn=True)
        return network, score

    (one, score), (again, score_again), (other, _) = trained(4), trained(4), trained(5)
    assert np.array_equal(one.weights, again.weights) and score == score_again
    assert not np.array_equal(one.weights, other.weights)
    before = play_block(NTupleNetwork.empty(), np.array([RANDOM]), games=200, seed=99,
                        epsilon=0.0, alpha=0.05, learn=False)
    after = play_block(one, np.array([RANDOM]), games=200, seed=99, epsilon=0.0,
                       alpha=0.05, learn=False)
    assert after > before + 0.1, (before, after)  # 300 games against random teach


def test_a_file_round_trips_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    network = random_network(2)
    path = tmp_path / "net.npz"
    save_ntuple(path, network, notes="test")
    loaded = load_ntuple(path)
    assert np.allclose(loaded.weights, network.weights.astype(np.float32))
    assert loaded.meta["notes"] == "test"
    bot = agents.make(f"policy:{path}", game="war_of_life")
    state = new_game(seed=1)
    assert bot.act(state, 0) in state.legal_actions(0)
    with pytest.raises(BadParameterError, match="War of Life n-tuple network, not losat"):
        agents.make(f"policy:{path}", game="losat")
    data = dict(np.load(path))
    data["cells"] = data["cells"] + 64
    np.savez(tmp_path / "off.npz", **data)
    with pytest.raises(BadParameterError, match="reads a cell off the 8 x 8 board"):
        load_ntuple(tmp_path / "off.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(BadParameterError, match="cannot be read"):
        load_ntuple(tmp_path / "junk.npz")


def test_the_trainer_writes_its_curve_and_network_and_refuses_bad_flags(
        tmp_path: Path) -> None:
    command = [sys.executable, "-m", "lifearena.rl.ntuple", "--games", "2000",
               "--eval-every", "1000", "--eval-games", "5", "--save", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "2,000 games" in done.stdout and (tmp_path / "ntuple.npz").exists()
    curve = (tmp_path / "eval.csv").read_text().splitlines()
    assert curve[0] == ("games,minutes,random_first,random_second,minimax_first,"
                        "minimax_second") and len(curve) == 4  # 0, 1,000 and 2,000 games
    assert load_ntuple(tmp_path / "ntuple.npz").meta["games"] == 2000
    bad = subprocess.run([*command[:3], "--opponents", "bloodlust,nobody"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "error: --opponents 'bloodlust,nobody'; expected names among random, bloodlust, "
        "self_preservation, land_grab, minimax"]

