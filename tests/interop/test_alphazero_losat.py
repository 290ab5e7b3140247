"""The AlphaZero-style baseline on Losat (``--game losat``): the vector environment's
``set_position`` / ``copy_board`` and its snapshots carrying the whole game (superko memory,
passes, plies), the search, the mirror symmetry, checkpoints naming their game, the
``alphazero:FILE.pt`` agent and a tiny training run. On the 9 x 11 board; networks tiny,
searches short."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
from lifearena.games.losat import LosatState, new_game  # noqa: E402
from lifearena.games.war_of_life import new_game as war_of_life_game  # noqa: E402
from lifearena.interop.vector.losat import LosatVectorEnv  # noqa: E402
from lifearena.rl import alphazero as az  # noqa: E402
from lifearena.rl.alphazero_games import game_spec  # noqa: E402

PARAMS: dict[str, Any] = {"width": 9, "length": 11, "max_moves": 60}
"""A small board: Black's goal line is row 1 (from the top), White's row 9."""
SPEC = game_spec("losat", PARAMS)


def one_move_win() -> LosatState:
    """Black to move with 8 legal moves, of which only adding a black stone at E10 (row 1,
    column 4: three black stones below it) reaches Black's goal line."""
    board = np.zeros((11, 9), np.int8)
    board[2, 3:6] = 1  # black, one row below its goal line
    board[5, 1:4] = 2  # white, far from its own
    return LosatState(board, 0, **PARAMS)


def playing(env: LosatVectorEnv) -> np.ndarray:
    """Which boards have a legal move (not ended)."""
    return np.asarray(env.action_masks().any(axis=1), np.bool_)


def played(seed: int, plies: int, boards: int = 3) -> LosatVectorEnv:
    """A self-play batch after ``plies`` random legal plies on each board (an ended board
    left as it ended)."""
    env = LosatVectorEnv(boards, opponent="self", params=PARAMS, illegal="raise")
    env.reset(seed=seed)
    for _ in range(plies):
        live = playing(env)
        if not live.any():
            break
        env.step_boards(env.sample_actions(), live)
    return env


def assert_same_boards(a: LosatVectorEnv, b: LosatVectorEnv, pairs: list[tuple[int, int]]
                       ) -> None:
    for i, j in pairs:
        np.testing.assert_array_equal(a.observations[i], b.observations[j])
        np.testing.assert_array_equal(a.action_masks()[i], b.action_masks()[j])
        assert a.to_play[i] == b.to_play[j]
        np.testing.assert_array_equal(a.tallies()[i], b.tallies()[j])


def step_both(a: LosatVectorEnv, b: LosatVectorEnv, pairs: list[tuple[int, int]],
              plies: int) -> None:
    """``plies`` random legal plies on ``a``'s boards, the same on their partners in ``b``:
    the same rewards, terminations, observations and masks each ply."""
    for _ in range(plies):
        live = playing(a)
        if not live.any():
            return
        actions = a.sample_actions()
        other = np.zeros(b.num_envs, np.int64)
        active = np.zeros(b.num_envs, np.bool_)
        for i, j in pairs:
            other[j], active[j] = actions[i], live[i]
        rewards, terminated = a.step_boards(actions, live)
        rewards_b, terminated_b = b.step_boards(other, active)
        for i, j in pairs:
            if live[i]:
                assert rewards[i] == rewards_b[j] and terminated[i] == terminated_b[j]
        assert_same_boards(a, b, pairs)


# -- the vector environment: positions in, snapshots -------------------------------------------

@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), before=st.integers(0, 50), after=st.integers(1, 30))
def test_a_set_position_steps_as_the_board_it_came_from(seed: int, before: int,
                                                        after: int) -> None:
    source = played(seed, before)
    pairs = [(0, 2), (1, 0), (2, 1)]
    target = played(seed + 1, 5)  # boards in the middle of other games: all of it replaced
    copied = played(seed + 2, 3)
    for i, j in pairs:
        position = source.position(i)
        target.set_position(j, position)
        copied.copy_board(j, source, i)
        assert target.history(j) == source.history(i) == copied.history(j)
        assert target.position(j, start=True).position() == \
            position.clone().setup()  # its setup: the board's episode start
    assert_same_boards(source, target, pairs)
    assert_same_boards(source, copied, pairs)
    twin = played(seed, before)  # the source's twin: stepped alongside both copies
    step_both(source, target, pairs, after)
    step_both(twin, copied, pairs, after)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), before=st.integers(0, 50), tried=st.integers(1, 30),
       after=st.integers(1, 30))
def test_stepping_after_a_restore_is_stepping_without_the_tries(seed: int, before: int,
                                                                tried: int,
                                                                after: int) -> None:
    env, untouched = played(seed, before), played(seed, before)
    saved = env.snapshot()
    for _ in range(tried):  # a search's tries: every board, then put back
        live = playing(env)
        if not live.any():
            break
        env.step_boards(env.sample_actions(), live)
    env.restore(saved)
    pairs = [(0, 0), (1, 1), (2, 2)]
    assert_same_boards(env, untouched, pairs)
    step_both(env, untouched, pairs, after)


def test_superko_memory_travels_with_a_set_position() -> None:
    """White to move after Black captured E6 (a stone between three black and three white
    stones): capturing it back would repeat the arrangement before, so superko forbids it,
    on the board the position is set on too, not on a board of the same stones alone."""
    board = np.zeros((11, 9), np.int8)
    board[4, 3:6], board[5, 4], board[6, 3:6] = 1, 2, 2
    state = LosatState(board, 0, **PARAMS)
    state.apply_action(state.string_to_action("xE6"))
    back = state.string_to_action("xE6")
    assert back not in state.legal_actions()
    forgetful = LosatState(state.board, 1, state.captures(), **PARAMS)
    assert back in forgetful.legal_actions()
    env = LosatVectorEnv(2, opponent="self", params=PARAMS)
    env.reset(seed=0)
    env.set_position(0, state)
    env.set_position(1, forgetful)
    assert not env.action_masks()[0, back] and env.action_masks()[1, back]
    assert np.flatnonzero(env.action_masks()[0]).tolist() == sorted(state.legal_actions())


def test_set_position_refuses_what_does_not_fit_and_ends_a_finished_game() -> None:
    env = LosatVectorEnv(2, opponent="self", params=PARAMS)
    env.reset(seed=0)
    with pytest.raises(BadParameterError, match="expected a LosatState"):
        env.set_position(0, war_of_life_game(seed=1))  # type: ignore[arg-type]
    with pytest.raises(BadParameterError, match="max_moves=400, width=19.*expected this "
                                                "environment's length=11, max_moves=60"):
        env.set_position(0, new_game())
    with pytest.raises(BadParameterError, match=r"expected an integer 0\.\.1"):
        env.set_position(2, one_move_win())
    state = one_move_win()
    state.apply_action(state.string_to_action("+bE10"))
    assert state.is_terminal() and state.outcome().winner == 0  # type: ignore[union-attr]
    env.set_position(1, state)
    assert not env.action_masks()[1].any() and env.to_play[1] == 0  # the last mover
    learner = LosatVectorEnv(1, opponent="random", player=1, params=PARAMS)
    with pytest.raises(BadParameterError, match="expected the learner's seat"):
        learner.set_position(0, one_move_win())


# -- the search and the symmetry ---------------------------------------------------------------

def test_uniform_search_finds_the_one_move_win_and_counts_every_simulation() -> None:
    win = one_move_win()
    assert len(win.legal_actions()) == 8
    env = LosatVectorEnv(2, opponent="self", params=PARAMS, illegal="raise")
    env.reset(seed=0)
    env.set_position(0, win)  # board 1 keeps the game's start
    mcts = az.BatchedMCTS(env, az.uniform_evaluator)
    roots = mcts.search([None, None], np.ones(2, np.bool_), simulations=100)
    for root in roots:
        assert root is not None and root.visits.sum() == 100
    root = roots[0]
    assert root is not None
    best = az.choose_action(root, 0.0, mcts.rng)
    assert win.action_to_string(int(root.actions[best])) == "+bE10"
    assert root.value_sum[best] == root.visits[best]  # every visit saw the win
    assert root.visits[best] > 50


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 40))
def test_the_mirror_maps_legal_moves_onto_the_mirrored_positions(seed: int,
                                                                 plies: int) -> None:
    env = played(seed, plies, boards=1)
    state = env.position(0)
    features = SPEC.features(env).reshape(1, SPEC.planes, SPEC.cells)
    image, mask = az.transform(features, env.action_masks(), np.array([1]), SPEC)
    if state.is_terminal():
        return
    mirrored = LosatState(state.board[:, ::-1], state.current_player(), state.captures(),
                          int(env.tallies()[0, 1]), **PARAMS)
    other = LosatVectorEnv(1, opponent="self", params=PARAMS)
    other.reset(seed=0)
    other.set_position(0, mirrored)
    np.testing.assert_array_equal(SPEC.features(other).reshape(1, SPEC.planes, SPEC.cells),
                                  image)
    # the mirrored position comes without the game's superko memory: its legal moves are
    # the image's and, where the memory forbade some, more
    assert (other.action_masks()[0] >= mask[0]).all()
    forgotten = other.action_masks()[0] & ~mask[0]
    assert forgotten.sum() <= len(state.seen_hashes())


# -- checkpoints and the agent -----------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_net() -> az.PolicyValueNet:
    torch.manual_seed(0)
    return az.PolicyValueNet(channels=4, blocks=1, spec=SPEC).eval()


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory, tiny_net: az.PolicyValueNet) -> Path:
    path = tmp_path_factory.mktemp("azl") / "tiny.pt"
    az.save_checkpoint(path, tiny_net, {"updates": 2})
    return path


def test_a_losat_checkpoint_round_trips_with_its_game_and_rules(
        checkpoint: Path, tiny_net: az.PolicyValueNet) -> None:
    data = torch.load(checkpoint, weights_only=True)
    assert data["game"] == "losat" and data["params"]["max_moves"] == 60
    net, meta = az.load_checkpoint(checkpoint, game="losat")
    assert meta == {"updates": 2} and net.spec is SPEC  # one spec per game and rules
    x = torch.from_numpy(SPEC.features(played(1, 7)))
    with torch.no_grad():
        for got, expected in zip(net(x), tiny_net(x), strict=True):
            torch.testing.assert_close(got, expected)
    logits, _ = net(x)
    assert logits.shape == (3, 4 * 99 + 1)


def test_a_checkpoint_of_another_game_is_refused_naming_both(checkpoint: Path) -> None:
    with pytest.raises(BadParameterError, match="plays losat, not war_of_life$"):
        agents.make(f"alphazero:{checkpoint}", game="war_of_life")
    with pytest.raises(BadParameterError, match="plays war_of_life or losat, not p2life"):
        agents.make(f"alphazero:{checkpoint}", game="p2life")
    bot = agents.make(f"alphazero:{checkpoint}")
    with pytest.raises(BadParameterError, match="plays losat; got a WarOfLifeState"):
        bot.act(war_of_life_game(seed=1), 0, Limit(simulations=2))


def test_the_agent_plays_legal_losat_moves_through_agents_make(checkpoint: Path) -> None:
    bot = agents.make(f"alphazero:{checkpoint}", game="losat", simulations=4)
    result = play_game("losat", [agents.make("random", game="losat"), bot], params=PARAMS,
                       max_moves=10)
    assert not result.forfeit and len(result.record.moves) == 10
    state = one_move_win()
    assert bot.act(state, 0, Limit(simulations=24)) == state.string_to_action("+bE10")
    assert bot.last_simulations == 24
    longer = LosatState(state.board, 0, **{**PARAMS, "max_moves": 80})  # other rules: fine
    assert bot.act(longer, 0, Limit(simulations=3)) in longer.legal_actions()
    with pytest.raises(BadParameterError, match="plays a 9 x 11 board; got 19 x 19"):
        bot.act(new_game(), 0, Limit(simulations=1))


def test_a_tiny_losat_training_run_writes_a_curve_and_a_checkpoint(tmp_path: Path) -> None:
    args = az.parse_args(["--game", "losat", "--max-moves", "12", "--minutes", "0.005",
                          "--games", "3", "--simulations", "2", "--channels", "4",
                          "--blocks", "1", "--min-buffer", "1", "--batch-size", "4",
                          "--train-every", "1", "--updates", "1", "--buffer-size", "100",
                          "--eval-games", "1", "--eval-simulations", "2",
                          "--out", str(tmp_path)])
    final = az.train(args, log=lambda line: None)
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].endswith("random_wins,random_draws,random_losses,random_score,"
                            "greedy_wins,greedy_draws,greedy_losses,greedy_score")
    assert len(rows) == 3 and sum(int(x) for x in rows[-1].split(",")[6:9]) == 2
    net, meta = az.load_checkpoint(final, game="losat")
    assert net.spec.params["max_moves"] == 12 and meta["plies"] > 0


def test_losat_flags_are_checked() -> None:
    for argv in (["--game", "chess"], ["--max-moves", "30"],
                 ["--game", "losat", "--max-moves", "-1"]):
        with pytest.raises(SystemExit) as exit_info:
            az.parse_args(argv)
        assert exit_info.value.code == 2
