"""p2life's compiled kernels (:mod:`lifearena.games.p2life.fast`) equal the protocol state
and agents on positions reached by random play: legality, the turn and its generation (with
its coins), the ending rules, and the random and greedy opponents' choices."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena import agents
from lifearena.agents.p2life import score_moves
from lifearena.core import Termination
from lifearena.games.p2life import P2LifeState, fast, new_game
from lifearena.life.kernels.neighbours import neighbour_table
from lifearena.life.kernels.splitmix import next_double, seeded_states

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def expected_code(state: P2LifeState) -> int:
    """The ending code the state's outcome says."""
    result = state.outcome()
    if result is None:
        return fast.GOES_ON
    if result.termination == Termination.DRAW:
        return fast.DIED_OUT
    if result.termination == Termination.WIN:
        return fast.WHITE_WINS if result.winner == 0 else fast.BLACK_WINS
    assert result.termination == Termination.LIMIT
    return {0: fast.WHITE_AHEAD, 1: fast.BLACK_AHEAD, None: fast.LEVEL}[result.winner]


@st.composite
def games(draw: Any) -> P2LifeState:
    """A new game on a small board (rectangles too), with any rules."""
    height, width = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    return new_game((height, width), density=draw(st.sampled_from([0.2, 0.4, 0.7])),
                    seed=draw(st.integers(0, 2**31)), torus=draw(st.booleans()),
                    moves=draw(st.integers(1, 2)), max_generations=draw(st.integers(1, 6)))


def random_play(data: st.DataObject, state: P2LifeState):  # type: ignore[no-untyped-def]
    """Yield the positions of a game played by hypothesis's random joint moves (a copy of
    each, the state moving on after it)."""
    for _ in range(data.draw(st.integers(0, 8), label="turns")):
        if state.is_terminal():
            return
        yield state.clone()
        joint = [data.draw(st.sampled_from(state.legal_actions(p))) for p in (0, 1)]
        state.apply_actions(joint)
    yield state


def flat(state: P2LifeState) -> np.ndarray:
    return state.board.reshape(-1).copy()


def table(state: P2LifeState) -> np.ndarray:
    return neighbour_table(state.height, state.width, state.params["torus"])


@SETTINGS
@given(game=games(), data=st.data())
def test_the_compiled_turn_and_endings_equal_the_state(game: P2LifeState,
                                                        data: st.DataObject) -> None:
    for state in random_play(data, game):
        cells = flat(state)
        code = fast.outcome(cells, state.generation, state.params["max_generations"])
        assert code == expected_code(state)
        assert fast.winner_compiled(code) == fast.winner(code)
        if state.is_terminal():
            continue
        n = cells.size
        for player in (0, 1):
            legal = set(state.legal_actions(player))
            for action in range(-1, 2 * n + 2):
                assert fast.is_legal_compiled(cells, player, action) == (action in legal)
        joint = [data.draw(st.sampled_from(state.legal_actions(p))) for p in (0, 1)]
        scratch = np.zeros(n + 1, np.int8)
        counters = fast.play_turn(cells, joint[0], joint[1], state.moved, state.generation,
                                  state.params["moves"], scratch, table(state),
                                  np.uint64(state.params["seed"]))
        state.apply_actions(joint)
        np.testing.assert_array_equal(cells, flat(state))
        assert counters == (state.moved, state.generation)


@SETTINGS
@given(game=games(), data=st.data(), stream=st.integers(0, 2**32))
def test_the_compiled_opponents_choose_as_the_agents(game: P2LifeState, data: st.DataObject,
                                                      stream: int) -> None:
    rng = seeded_states(stream, 1)
    for state in random_play(data, game):
        if state.is_terminal():
            continue
        cells, n = flat(state), state.board.size
        seed = np.uint64(state.params["seed"])
        work = (table(state), np.zeros(n + 1, np.int8), np.zeros(n, np.int8),
                np.zeros(2 * n + 1, np.int64))
        for player in (0, 1):
            legal = state.legal_actions(player)
            u = next_double(rng.copy(), 0)  # the double the random opponent will draw
            assert fast.random_choice(cells, player, rng, 0) == legal[int(u * len(legal))]
            count = fast.greedy_scores(cells, player, seed, state.generation, *work)
            scores = work[3][:count]
            assert scores.tolist() == score_moves(state, player, legal).tolist()
            best = [a for a, s in zip(legal, scores, strict=True) if s == scores.max()]
            choice = fast.greedy_choice(cells, player, seed, state.generation, *work, rng, 0)
            assert choice in best
            agent = agents.make("greedy", game="p2life", seed=stream)
            chosen = agent.act(state.view(player), player)
            assert chosen in best
            if len(best) == 1:
                assert choice == chosen


def test_greedy_draws_its_ties_from_the_board_stream() -> None:
    """On an empty-looking board many moves tie: the choice follows the stream, and the same
    stream gives the same choice."""
    state = P2LifeState.from_setup("w...../....../....../....../....../.....b 0:0")
    cells, n = flat(state), state.board.size
    work = (table(state), np.zeros(n + 1, np.int8), np.zeros(n, np.int8),
            np.zeros(2 * n + 1, np.int64))

    def choices(seed: int) -> list[int]:
        rng = seeded_states(seed, 1)
        return [fast.greedy_choice(cells, 0, np.uint64(0), 0, *work, rng, 0) for _ in range(8)]

    assert choices(1) == choices(1)
    assert len(set(choices(1) + choices(2))) > 1
