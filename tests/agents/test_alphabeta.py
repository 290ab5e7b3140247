"""Alpha-beta on tiny games with known best moves, its limits and its determinism."""

from __future__ import annotations

import time
from functools import cache

import pytest

import toy_games as toys
from lifearena import agents
from lifearena.agents.alphabeta import AlphaBetaAgent, merge_limits
from lifearena.agents.base import Limit
from lifearena.core import TERMINAL
from lifearena.errors import BadParameterError


@cache
def ttt_value(board: str) -> int:
    """Exact minimax value of a tic-tac-toe position for the player to move."""
    state = toys.TicTacToe(board)
    if state.is_terminal():
        winner = state.outcome().winner
        return 0 if winner is None else (1 if winner == state.current_player() else -1)
    mover = state.current_player()
    best = -2
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        v = ttt_value(str(child))
        if child.is_terminal():
            w = child.outcome().winner
            v = 0 if w is None else (1 if w == mover else -1)
        else:
            v = -v if child.current_player() != mover else v
        best = max(best, v)
    return best


def best_ttt_moves(board: str) -> set[int]:
    state = toys.TicTacToe(board)
    mover = state.current_player()
    target = ttt_value(board)
    good = set()
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        if child.is_terminal():
            w = child.outcome().winner
            v = 0 if w is None else (1 if w == mover else -1)
        else:
            v = -ttt_value(str(child))
        if v == target:
            good.add(a)
    return good


@pytest.mark.parametrize("heap,best", [(5, 0), (6, 1), (7, 2), (10, 1), (13, 0)])
def test_nim_forced_win_found(heap: int, best: int) -> None:
    agent = AlphaBetaAgent(seed=1, limit=Limit(depth=heap))
    state = toys.Nim(heap)
    assert agent.act(state, 0) == best
    assert agent.stats.value > 1.5  # a proven win, not a heuristic value


def test_nim_forced_win_needs_its_depth() -> None:
    # from heap 5 the win takes 3 plies (take 1, any reply, take the rest); depth 3 proves it
    agent = AlphaBetaAgent(seed=0, limit=Limit(depth=3))
    assert agent.act(toys.Nim(5), 0) == 0
    assert agent.stats.value == pytest.approx(1000 - 3)
    shallow = AlphaBetaAgent(seed=0, limit=Limit(depth=2))
    shallow.act(toys.Nim(5), 0)
    assert shallow.stats.value <= 1.0  # the win lies beyond two plies


def test_losing_side_delays_the_loss() -> None:
    agent = AlphaBetaAgent(seed=0, limit=Limit(depth=12))
    agent.act(toys.Nim(8), 0)
    assert agent.stats.value < -1.5


@pytest.mark.parametrize("board", ["xx.oo....", "oo.x.x...", "x...o...x", "x........",
                                   "xo.......", "x.o.x....", ".........", "xo..x..o."])
def test_tictactoe_moves_are_optimal(board: str) -> None:
    state = toys.TicTacToe(board)
    agent = AlphaBetaAgent(seed=3, limit=Limit(depth=9))
    assert agent.act(state, state.current_player()) in best_ttt_moves(board)


def test_tictactoe_self_play_is_a_draw() -> None:
    state = toys.TicTacToe()
    players = [AlphaBetaAgent(seed=s, limit=Limit(depth=9)) for s in (1, 2)]
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(players[p].act(state.view(p), p))
    assert state.outcome().winner is None


def test_node_limit_is_exact() -> None:
    for nodes in (1, 7, 50, 333):
        agent = AlphaBetaAgent(seed=0, limit=Limit(nodes=nodes))
        action = agent.act(toys.TicTacToe(), 0)
        assert action in range(9)
        assert agent.stats.nodes == nodes
        assert agent.stats.stopped


def test_time_limit_is_respected() -> None:
    def slow_eval(state, player):
        time.sleep(0.002)
        return 0.0

    agent = AlphaBetaAgent(seed=0, limit=Limit(time=0.3), evaluate=slow_eval)
    start = time.perf_counter()
    agent.act(toys.TicTacToe(), 0)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.3 + 1.0  # generous: the machine may be shared
    assert agent.stats.stopped


def test_deterministic_given_seed() -> None:
    def play(seed: int) -> list[int]:
        state = toys.TicTacToe()
        agent = AlphaBetaAgent(seed=seed, limit=Limit(depth=2))
        while not state.is_terminal():
            state.apply_action(agent.act(state, state.current_player()))
        return state.history()

    assert play(5) == play(5)
    assert len({tuple(play(s)) for s in range(6)}) > 1  # seeds vary the tie-breaks


def test_chance_nodes_take_the_expectation() -> None:
    agent = AlphaBetaAgent(seed=0, limit=Limit(depth=3))
    assert toys.Gamble(0.8).action_to_string(agent.act(toys.Gamble(0.8), 0)) == "bet"
    assert toys.Gamble(0.2).action_to_string(agent.act(toys.Gamble(0.2), 0)) == "safe"


def test_simultaneous_nodes_do_not_pick_dominated_move() -> None:
    # every pure action has worst case "lose", so any is max-min; the agent still answers
    agent = AlphaBetaAgent(seed=0, limit=Limit(depth=2))
    state = toys.Pennies()
    assert agent.act(state, 0) in (0, 1, 2)
    assert state.current_player() != TERMINAL


def test_registry_and_levels() -> None:
    agent = agents.make("alphabeta", game="toy_nim", seed=4, depth=6)
    assert isinstance(agent, AlphaBetaAgent)
    assert agent.act(toys.Nim(6), 0) == 1
    assert agents.make("alphabeta", level="hard").limit.time == 3.0
    with pytest.raises(BadParameterError):
        agents.make("alphabeta", level="impossible")


def test_merge_limits_takes_the_tighter() -> None:
    merged = merge_limits(Limit(depth=4, time=2.0), Limit(time=0.5, nodes=10))
    assert merged == Limit(time=0.5, nodes=10, depth=4)


@pytest.mark.parametrize("seed", [0, 5])
def test_batched_children_agree_with_one_by_one(seed: int) -> None:
    from lifearena.games import war_of_life as wol

    state = wol.new_game(seed=seed)
    for _ in range(3):  # a few random plies in, so terminal children can appear
        state.apply_action(state.legal_actions()[seed % len(state.legal_actions())])
    player = state.current_player()
    batched = AlphaBetaAgent(seed=1, limit=Limit(depth=2))
    single = AlphaBetaAgent(seed=1, limit=Limit(depth=2), children=False)
    batched.act(state, player)
    single.act(state, player)
    assert batched.stats.value == pytest.approx(single.stats.value)
    actions, values, terminal = state.evaluate_children(player)
    assert list(actions) == state.legal_actions()
    for action, value, over in zip(actions, values, terminal, strict=True):
        child = state.clone()
        child.apply_action(action)
        assert over == child.is_terminal()
        assert value == pytest.approx(child.evaluate(player))
