"""Losat agents: legal choices, immediate wins taken, immediate threats stopped, determinism,
the heuristic's range and symmetry."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.agents import Limit, make
from lifearena.errors import BadParameterError
from lifearena.games import losat

AGENTS = ["random", "greedy", "alphabeta"]


@pytest.mark.parametrize("name", AGENTS)
def test_agents_play_legal_moves(name):
    state = losat.new_game(max_moves=30)
    agents = [make(name, game="losat", seed=s) for s in (1, 2)]
    while not state.is_terminal():
        player = state.current_player()
        action = agents[player].act(state.view(player), player, Limit(nodes=200))
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("name", ["greedy", "alphabeta"])
def test_takes_an_immediate_goal(name):
    # Black can add C7 on its goal line; other moves exist
    state = losat.from_setup("5/1bbb1/5/5/5/5/5 b", gap=0)
    assert len(state.legal_actions()) > 1
    action = make(name, game="losat").act(state, 0, Limit(nodes=500))
    assert state.action_to_string(action) == "+bC7"


def test_alphabeta_stops_a_threat_greedy_ignores():
    # White threatens +wC2 on its goal line (row 2); Black to move must break the threat.
    state = losat.from_setup("5/5/5/5/1www1/5/5 b", gap=0)
    threat = state.string_to_action("+wC2")
    assert threat in state.legal_actions()
    action = make("alphabeta", game="losat").act(state, 0, Limit(depth=2))
    state.apply_action(action)
    assert threat not in state.legal_actions()


def test_alphabeta_is_deterministic_and_respects_node_limit():
    state = losat.new_game()
    first = make("alphabeta", game="losat", seed=4)
    again = make("alphabeta", game="losat", seed=4)
    assert first.act(state, 0, Limit(nodes=300)) == again.act(state, 0, Limit(nodes=300))
    assert first.stats.nodes <= 300


def test_agent_options_are_checked():
    with pytest.raises(BadParameterError, match="alphabeta options"):
        make("alphabeta", game="losat", width=3)
    with pytest.raises(BadParameterError, match="greedy takes no options"):
        make("greedy", game="losat", depth=2)


def test_evaluate_range_and_colour_symmetry():
    rng = np.random.default_rng(3)
    state = losat.new_game(offset=0)
    for _ in range(40):
        if state.is_terminal():
            break
        for player in (0, 1):
            assert -1 <= state.evaluate(player) <= 1
        assert state.evaluate(0) == pytest.approx(-state.evaluate(1))
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    # with offset 0 the start is symmetric: every term is zero
    assert all(v == 0 for v in losat.new_game(offset=0).terms().values())


def test_evaluate_rewards_progress_and_captures():
    # 9 rows, gap 0: goal lines at rows 8 (Black) and 3 (White); both blinkers 2 rows short
    even = "9/9/9/bbb6/6www/9/9/9/9 b 0-0 0"
    assert losat.from_setup(even, gap=0).evaluate(0) == 0
    captured = losat.from_setup(even.replace("0-0", "1-0"), gap=0)
    assert captured.evaluate(0) > 0 > captured.evaluate(1)
    closer = losat.from_setup("9/9/bbb6/9/6www/9/9/9/9 w 0-0 0", gap=0)
    assert closer.evaluate(0) > 0
    done = losat.from_setup("5/1bbb1/5/5/5/5/5 b", gap=0)
    done.apply_move_text("+bC7")
    assert done.evaluate(0) == 1.0 and done.evaluate(1) == -1.0


# Black to move: +bB2 turns Black's stones into a still life next to White's block, so no
# change is left anywhere and the game ends in two passes; -A2 keeps Black's stones alive.
FREEZING = "7/7/7/4ww1/4ww1/1bb4/b1b4/b6/7 b 0-0 0"


def test_search_sees_a_frozen_board_at_its_horizon():
    state = losat.from_setup(FREEZING, gap=1)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert legal == {"-A2", "+bB2"}
    frozen = state.clone()
    frozen.apply_move_text("+bB2")
    assert frozen.liveness() == (0, 0) and not frozen.is_terminal()
    # greedy (and the search without the liveness check) like the extra stone...
    assert state.action_to_string(make("greedy", game="losat").act(state, 0)) == "+bB2"
    blind = make("alphabeta", game="losat", freeze=None)
    assert state.action_to_string(blind.act(state, 0, Limit(depth=1))) == "+bB2"
    # ...the search scores the frozen board as the draw it is (minus its contempt) and
    # keeps the game alive, already at depth 1
    agent = make("alphabeta", game="losat")
    assert state.action_to_string(agent.act(state, 0, Limit(depth=1))) == "-A2"
    assert agent.evaluator(frozen, 0) == -agent.contempt


def test_a_frozen_opponent_pulls_the_value_towards_a_draw():
    # White's block is frozen, Black's stones are alive: White can only attack Black from
    # now on, so the searcher scores the position most of the way towards its draw score
    state = losat.from_setup(FREEZING, gap=1)
    agent = make("alphabeta", game="losat")
    agent.act(state, 0, Limit(depth=1))  # the searcher plays Black
    live = state.clone()
    live.apply_move_text("-A2")
    live_b, live_w = live.liveness()
    assert live_b > 0 and live_w == 0
    settings = agent.evaluator
    draw = -settings.contempt
    front = settings.front * 4 / 5  # B4, C4, A3, C3: four stones on its two leading rows
    expected = draw + settings.freeze * (live.evaluate(0) + front - draw)
    assert settings(live, 0) == pytest.approx(expected)
    # for White, whose own stones are frozen, the same board is at most its draw score
    assert settings(live, 1) <= -settings.contempt - 0.1
