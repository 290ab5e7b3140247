"""OpenSpiel's own conformance checks on every lifearena game, and the adapter's contract."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs OpenSpiel: pip install -e '.[interop]'")

from lifearena.errors import BadParameterError, IllegalMoveError  # noqa: E402
from lifearena.interop import openspiel as adapter  # noqa: E402

# small parameters where the defaults would make OpenSpiel's checks slow
SMALL = {
    "war_of_life": "python_war_of_life(seed=3)",
    "life_for_two": "python_life_for_two(max_turns=8)",
    "losat": "python_losat(width=9,length=11,max_moves=40)",
    "p2life": "python_p2life(size=6,max_generations=12,seed=2)",
    "blocking_queen": "python_blocking_queen(size=12,seed=5)",
}


TURN_BASED = {"life_for_two": "python_life_for_two_turn_based(max_turns=8)",
              "p2life": "python_p2life_turn_based(size=6,max_generations=12,seed=2)"}


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    expected = {adapter.short_name(g) for g in SMALL} | \
        {adapter.short_name(g) + "_turn_based" for g in TURN_BASED}
    assert expected <= names
    assert set(adapter.register_all()) == expected


@pytest.mark.parametrize("game", sorted(TURN_BASED))
def test_the_turn_based_forms_pass_random_sim_test(game: str) -> None:
    loaded = pyspiel.load_game(TURN_BASED[game])
    assert loaded.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("game", sorted(TURN_BASED))
def test_python_mcts_bot_plays_the_turn_based_forms(game: str) -> None:
    from open_spiel.python.algorithms import mcts

    loaded = pyspiel.load_game(TURN_BASED[game])
    with pytest.raises(ValueError, match="sequential turns"):  # why the form exists
        mcts.MCTSBot(pyspiel.load_game(SMALL[game]), 2.0, 4, mcts.RandomRolloutEvaluator(1))
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(loaded, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = loaded.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.inner.outcome() is not None
    assert all(isinstance(item, tuple) for item in state.inner.history())


def test_the_turn_based_form_holds_back_the_first_choice() -> None:
    game = adapter.load_turn_based("life_for_two", max_turns=4)
    state = game.new_initial_state()
    first = state.legal_actions()[0]
    before = state.observation_string(1), state.information_state_string(1)
    state.apply_action(first)
    assert state.current_player() == 1 and state.inner.history() == []
    assert (state.observation_string(1), state.information_state_string(1)) == before
    second = state.legal_actions()[-1]
    state.apply_action(second)
    assert state.inner.history() == [(first, second)] and state.current_player() == 0
    seat_first = adapter.TurnBasedState(game, game.new_initial_state().inner, first=1)
    assert seat_first.current_player() == 1
    with pytest.raises(IllegalMoveError, match="illegal move for player 2"):
        seat_first.apply_action(0)  # one cell on the three-cell turn
    with pytest.raises(BadParameterError, match="war_of_life is already turn-based"):
        adapter.load_turn_based("war_of_life")
    assert pyspiel.convert_to_turn_based(adapter.load("p2life", size=6)).num_distinct_actions() \
        == 73


@pytest.mark.parametrize("game", sorted(SMALL))
def test_random_sim_test_with_serialization(game: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(SMALL[game]), num_sims=3, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("game", sorted(SMALL))
def test_dynamics_follow_the_protocol(game: str) -> None:
    loaded = pyspiel.load_game(SMALL[game])
    state = loaded.new_initial_state()
    simultaneous = loaded.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert state.is_simultaneous_node() == simultaneous
    assert simultaneous == state.inner.is_simultaneous_node()


def test_load_from_a_string_uses_the_parameters() -> None:
    three = pyspiel.load_game("python_war_of_life(seed=3)").new_initial_state()
    four = pyspiel.load_game("python_war_of_life(seed=4)").new_initial_state()
    assert str(three) != str(four)
    assert str(three) == str(pyspiel.load_game("python_war_of_life(seed=3)").new_initial_state())
    losat = pyspiel.load_game("python_losat(width=9,length=11)")
    assert losat.observation_tensor_shape() == [2, 11, 9]
    assert losat.num_distinct_actions() == 4 * 9 * 11 + 1
    unlimited = pyspiel.load_game("python_life_for_two(max_turns=0,limit_result=population)")
    assert unlimited.new_initial_state().inner.params == {"max_turns": None,
                                                           "limit_result": "population"}


def test_actions_strings_and_observations_are_the_protocols() -> None:
    state = pyspiel.load_game("python_war_of_life(seed=3)").new_initial_state()
    inner = state.inner
    action = state.legal_actions()[0]
    assert state.legal_actions() == inner.legal_actions()
    assert state.action_to_string(0, action) == inner.action_to_string(action, 0)
    np.testing.assert_array_equal(np.reshape(state.observation_tensor(1), (3, 8, 8)),
                                  inner.observation(1))
    assert state.string_to_action(inner.action_to_string(action, 0)) == action
    state.apply_action(action)
    assert inner.history() == [action]
    assert state.information_state_string(0) == str(action)


def test_information_state_hides_the_other_sides_choice() -> None:
    state = pyspiel.load_game("python_life_for_two(max_turns=4)").new_initial_state()
    first, second = state.legal_actions(0)[0], state.legal_actions(1)[-1]
    state.apply_actions([first, second])
    mine = state.inner.action_to_string(second, 1)
    assert mine in state.information_state_string(1)
    assert mine not in state.information_state_string(0)


def test_python_mcts_bot_plays_a_game_to_the_end() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_war_of_life(seed=3)")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 10, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert state.inner.outcome() is not None


def test_bad_use_raises_the_librarys_errors() -> None:
    state = pyspiel.load_game("python_war_of_life(seed=3)").new_initial_state()
    illegal = next(a for a in range(512) if a not in state.legal_actions())
    with pytest.raises(IllegalMoveError, match="illegal move"):
        state.apply_action(illegal)
    with pytest.raises(BadParameterError, match="unknown game 'chess'"):
        adapter.load("chess")
    with pytest.raises(BadParameterError, match="unknown parameter 'size'"):
        adapter.load("war_of_life", size=4)
    with pytest.raises(BadParameterError, match="seed=-1"):
        pyspiel.load_game("python_war_of_life(seed=-1)")


def test_load_gives_values_the_type_of_their_defaults() -> None:
    game = adapter.load("p2life", density=1, seed=np.int64(2), size=np.int32(6))
    assert game.get_parameters()["density"] == 1.0
    assert game.new_initial_state().inner.setup() == \
        adapter.load("p2life", density=1.0, seed=2, size=6).new_initial_state().inner.setup()
    with pytest.raises(BadParameterError, match="torus=1 of 'p2life'; expected type bool"):
        adapter.load("p2life", torus=1)
    with pytest.raises(BadParameterError, match="seed='x' of 'war_of_life'; expected type int"):
        adapter.load("war_of_life", seed="x")
