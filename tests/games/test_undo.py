"""Make and unmake (``push``/``pop``, :class:`lifearena.core.Undo`) against the simple path:
a pushed move leaves the state exactly as ``apply_action`` does, and popping it gives back
the state as it was; the search plays the same moves on one state as with a copy per child.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.agents.alphabeta import AlphaBetaAgent
from lifearena.agents.losat import DEFAULT_LIMIT, LosatEvaluator
from lifearena.core import State, Undo, get_game
from lifearena.games import losat, war_of_life

GAMES = {
    "war_of_life": lambda seed: war_of_life.new_game(seed=seed),
    "losat": lambda seed: get_game("losat", width=9, length=11, gap=3).new_initial_state(),
}


def _picture(state: State) -> tuple[object, ...]:
    """Everything a search or a person can see of a sequential state."""
    player = state.current_player()
    return (state.observation(0).tobytes(), state.observation(1).tobytes(), player,
            tuple(state.legal_actions()), state.outcome(), tuple(state.history()),
            state.move_number(), str(state), getattr(state, "key", lambda: None)())


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000),
       choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_push_is_apply_and_pop_takes_it_back(game: str, seed: int, choices: list[int]) -> None:
    state = GAMES[game](seed)
    assert isinstance(state, Undo)
    pictures = []
    for choice in choices:
        legal = state.legal_actions()
        if state.is_terminal() or not legal:
            break
        action = legal[choice % len(legal)]
        applied = state.clone()
        applied.apply_action(action)
        pictures.append(_picture(state))
        state.push(action)  # type: ignore[attr-defined]
        assert _picture(state) == _picture(applied)
    for before in reversed(pictures):
        state.pop()  # type: ignore[attr-defined]
        assert _picture(state) == before


def test_a_clone_is_independent_of_pushes() -> None:
    state = war_of_life.new_game(seed=5)
    twin = state.clone()
    state.push(state.legal_actions()[0])
    assert twin.move_number() == 0 and twin.board.tolist() != state.board.tolist()
    assert np.array_equal(twin.board, war_of_life.new_game(seed=5).board)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 1_000), plies=st.integers(0, 8))
def test_the_search_moves_alike_on_one_state_and_on_copies(seed: int, plies: int) -> None:
    rng = np.random.default_rng(seed)
    for game in ("war_of_life", "losat"):
        state = GAMES[game](seed)
        for _ in range(plies):
            legal = state.legal_actions()
            if state.is_terminal() or not legal:
                break
            state.apply_action(int(rng.choice(legal)))
        if state.is_terminal():
            continue
        moves = []
        for undo in (True, False):
            if game == "losat":
                evaluator = LosatEvaluator()
                agent = AlphaBetaAgent(seed=seed, default_limit=DEFAULT_LIMIT,
                                       evaluate=evaluator, contempt=evaluator.contempt,
                                       order_by_eval=False, children=False, undo=undo)
            else:
                agent = AlphaBetaAgent(seed=seed, children=False, undo=undo)
            before = _picture(state)
            moves.append((agent.act(state, state.current_player(), None), agent.stats.nodes))
            assert _picture(state) == before  # the caller's state is left alone
        assert moves[0] == moves[1]


def test_pop_with_nothing_pushed_is_refused() -> None:
    for state in (war_of_life.new_game(seed=1), losat.new_game()):
        try:
            state.pop()  # type: ignore[attr-defined]
        except ValueError as error:
            assert "take back" in str(error)
        else:
            raise AssertionError("pop of a fresh state was accepted")
