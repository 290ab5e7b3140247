"""MCTS on tiny games: convergence on known best moves, simultaneous and chance nodes,
budgets, determinism."""

from __future__ import annotations

import time

import numpy as np
import pytest

import toy_games as toys
from lifearena import agents
from lifearena.agents.base import Limit
from lifearena.agents.mcts import MCTSAgent
from lifearena.agents.random_agent import RandomAgent
from lifearena.errors import BadParameterError


@pytest.mark.parametrize("heap,best", [(5, 0), (6, 1), (7, 2)])
def test_nim_converges_on_the_winning_move(heap: int, best: int) -> None:
    agent = MCTSAgent(seed=2, limit=Limit(simulations=3000))
    assert agent.act(toys.Nim(heap), 0) == best
    visits = agent.stats.visits
    assert visits[best] > 0.6 * sum(visits.values())


def test_tictactoe_takes_the_win_and_blocks() -> None:
    agent = MCTSAgent(seed=0, limit=Limit(simulations=2000))
    assert agent.act(toys.TicTacToe("xx.oo...."), 0) == 2  # win at once
    assert agent.act(toys.TicTacToe("oo.x...x."), 0) == 2  # block o's row


def test_simulation_budget_is_exact_and_deterministic() -> None:
    a = MCTSAgent(seed=9, limit=Limit(simulations=300))
    b = MCTSAgent(seed=9, limit=Limit(simulations=300))
    state = toys.TicTacToe("x...o....")
    assert a.act(state, 0) == b.act(state, 0)
    assert a.stats.visits == b.stats.visits
    assert a.stats.simulations == 300
    assert sum(a.stats.visits.values()) == 300


def test_whole_games_are_deterministic_given_the_seed() -> None:
    def play(seed: int) -> list:
        state = toys.TicTacToe()
        agent = MCTSAgent(seed=seed, limit=Limit(simulations=60))
        while not state.is_terminal():
            state.apply_action(agent.act(state, state.current_player()))
        return state.history()

    assert play(1) == play(1)


def test_time_limit_is_respected() -> None:
    agent = MCTSAgent(seed=0, limit=Limit(time=0.2))
    start = time.perf_counter()
    agent.act(toys.TicTacToe(), 0)
    # a generous margin: the machine may be shared; an agent ignoring the limit would run
    # until tic-tac-toe's whole tree is exhausted many times over
    assert time.perf_counter() - start < 0.2 + 1.0
    assert agent.stats.simulations > 10


def test_decoupled_uct_avoids_the_dominated_action_and_mixes() -> None:
    for seat in (0, 1):
        agent = MCTSAgent(seed=seat, limit=Limit(simulations=4000))
        action = agent.act(toys.Pennies(), seat)
        visits = agent.stats.visits
        assert action in (0, 1)
        assert visits[2] < 0.1 * 4000
        assert min(visits[0], visits[1]) > 0.3 * 4000  # neither coin side dominates


def test_regret_matching_average_strategy() -> None:
    agent = MCTSAgent(seed=3, limit=Limit(simulations=20000), simultaneous="rm", gamma=0.1)
    root_state = toys.Pennies()
    from lifearena.agents.mcts import _Node

    root = _Node(root_state, agent.rng)
    for _ in range(20000):
        agent._simulate(root_state, root)
    for seat in (0, 1):
        strategy = root.strategy[seat] / root.strategy[seat].sum()
        # the exploration term keeps ~gamma/3 on X; the coin sides share the rest equally
        assert strategy[2] < 0.1
        assert abs(strategy[0] - strategy[1]) < 0.1
    sampler = MCTSAgent(seed=5, limit=Limit(simulations=500), simultaneous="rm",
                        final="sample")
    assert {sampler.act(root_state, 1) for _ in range(8)} <= {0, 1, 2}


def test_chance_nodes_are_sampled() -> None:
    for p, best in ((0.8, 1), (0.2, 0)):
        agent = MCTSAgent(seed=1, limit=Limit(simulations=1500))
        assert agent.act(toys.Gamble(p), 0) == best
        if best == 1:
            assert agent.stats.values[1] == pytest.approx(2 * p - 1, abs=0.1)


def test_rollout_policies_and_evaluation_cutoff() -> None:
    calls = []

    def policy(state, player, rng):
        calls.append(player)
        legal = state.legal_actions(player)
        return legal[-1]  # always take the most

    agent = MCTSAgent(seed=0, limit=Limit(simulations=200), rollout=policy)
    agent.act(toys.Nim(10), 0)
    assert calls
    agent = MCTSAgent(seed=0, limit=Limit(simulations=200), rollout=RandomAgent(seed=1))
    assert agent.act(toys.Nim(10), 0) in (0, 1, 2)
    evals = []

    def evaluate(state, player):
        evals.append(state.heap)
        return 0.0

    agent = MCTSAgent(seed=0, limit=Limit(simulations=50), rollout_depth=0, evaluate=evaluate)
    agent.act(toys.Nim(20), 0)
    assert len(evals) == 50


def test_registry_levels_and_bad_options() -> None:
    agent = agents.make("mcts", game="toy_nim", seed=1, simulations=2000)
    assert agent.act(toys.Nim(6), 0) == 1
    assert agents.make("mcts", level="medium").limit == Limit(time=1.0, simulations=1000)
    with pytest.raises(BadParameterError):
        MCTSAgent(simultaneous="fictitious")
    with pytest.raises(BadParameterError):
        agents.make("mcts", level="godlike")
    assert np.isfinite(agent.stats.values[1])
