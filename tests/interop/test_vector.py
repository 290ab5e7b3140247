"""The compiled vector environments against the protocol path: every observation, mask,
reward, termination and auto-reset equal to what the game's protocol state and the single
environments' encoding give for the same moves, the opponent's moves included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")
pytest.importorskip("numba", reason="needs numba")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import lifearena.interop.gymnasium  # noqa: E402, F401  (registers the ids)
from lifearena.agents import make  # noqa: E402
from lifearena.core import SIMULTANEOUS, State  # noqa: E402
from lifearena.errors import BadParameterError, IllegalMoveError  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.interop.vector import VECTOR_GAMES, make_vector_env  # noqa: E402

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OPPONENTS = {"war_of_life": ["random", "self", "bloodlust", "land_grab", "minimax"],
             "life_for_two": ["random", "self"], "p2life": ["random", "self"],
             "blocking_queen": ["random", "self"], "losat": ["random", "self"]}
PARAM_CHOICES: dict[str, list[dict[str, Any]]] = {
    "war_of_life": [{}],
    "life_for_two": [{"max_turns": 6}, {"max_turns": 5, "limit_result": "population"}, {}],
    "p2life": [{"size": 6, "max_generations": 8}, {"size": 5, "torus": False, "moves": 2},
               {"size": 4, "density": 0.8, "seed": 3, "max_generations": 5}],
    "blocking_queen": [{"size": 12}, {"size": 6, "k": 3}, {"size": 9, "k": 1},
                       {"start": "square", "x": 5, "y": 7, "k": 4}],
    "losat": [{"width": 9, "length": 11, "max_moves": 30},
              {"width": 7, "length": 9, "max_moves": 25, "captures_to_win": 1, "first": "w",
               "own_colour_only": True},
              {"width": 7, "length": 9, "max_moves": 25, "neighbours": 4, "gap": 1,
               "capture_or_more": True}],
}
PARAMS = {game: choices[0] for game, choices in PARAM_CHOICES.items()}
"""Parameters for the tests that need one setting per game."""


class Mirror:
    """The protocol path beside one vector environment: a state per environment, moved by
    the same actions and the opponent's moves the batch reports, with the expected arrays."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.encoding = Encoding(env.game, env.params, observation=env.encoding.layout)
        self.agent = None if env.opponent in ("random", "self") else \
            make(env.opponent, game=env.game, seed=0)
        self.plies = [0] * env.num_envs
        """Games whose environment keeps a history: the plies mirrored so far."""
        self.pending = [-1] * env.num_envs
        """Self-play in a simultaneous game: seat 0's choice waiting for seat 1's."""
        self.states: list[State] = [self.start(i) for i in range(env.num_envs)]
        self.viewers = [self.viewer(s, None) for s in self.states]
        self.ended = [False] * env.num_envs

    def opponent_moves(self, i: int, state: State) -> None:
        """Play the opponent's move the batch reports for environment ``i``, checked legal
        (and, for a strategy, the one its protocol agent picks)."""
        seat = 1 - self.env.player
        if hasattr(self.env, "history"):  # a turn of several plies: read them all
            plies = self.env.history(i)
            while self.plies[i] < len(plies):
                assert not self.env.self_play and state.current_player() == seat
                action = plies[self.plies[i]]
                assert self.encoding.mask(state, seat)[action]
                state.apply_action(self.encoding.window.to_game(action))
                self.plies[i] += 1
            assert self.env.self_play or state.current_player() != seat
            return
        if self.env.self_play or state.current_player() != seat:
            assert self.env.opponent_actions[i] == -1
            return
        action = int(self.env.opponent_actions[i])
        assert action in state.legal_actions(seat)
        if self.agent is not None:
            assert action == self.agent.act(state.view(seat), seat)
        state.apply_action(action)

    def start(self, i: int) -> State:
        state = self.env.position(i, start=True)
        self.plies[i] = 0
        assert state.move_number() == 0
        self.opponent_moves(i, state)
        return state

    def viewer(self, state: State, mover: int | None) -> int:
        if not self.env.self_play:
            return self.env.player
        if state.is_terminal() and mover is not None:
            return mover
        return 0 if state.current_player() == SIMULTANEOUS else state.current_player()

    def expect(self, i: int, seen: Any, state: State, viewer: int, forfeited: bool) -> None:
        env = self.env
        assert env.to_play[i] == viewer
        np.testing.assert_array_equal(seen[i], self.encoding.planes(state, viewer))
        mask = np.zeros(env.num_actions, bool) if forfeited else \
            self.encoding.mask(state, viewer).astype(bool)
        np.testing.assert_array_equal(env.action_masks()[i], mask)
        np.testing.assert_array_equal(env.position(i).observation(viewer),
                                      state.observation(viewer))

    def check_reset(self, seen: Any, info: dict[str, Any]) -> None:
        np.testing.assert_array_equal(info["action_mask"], self.env.action_masks())
        for i, state in enumerate(self.states):
            self.expect(i, seen, state, self.viewers[i], False)

    def check_step(self, actions: np.ndarray, result: tuple[Any, ...]) -> None:
        seen, rewards, terminated, truncated, info = result
        env = self.env
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        assert not truncated.any()
        for i, action in enumerate(actions.tolist()):
            if self.ended[i]:  # NEXT_STEP auto-reset: the action is ignored
                self.states[i] = state = self.start(i)
                self.viewers[i] = self.viewer(state, None)
                self.ended[i] = False
                assert rewards[i] == 0 and not terminated[i]
                self.expect(i, seen, state, self.viewers[i], False)
                continue
            state, mover = self.states[i], self.viewers[i]
            legal = 0 <= action < env.num_actions and \
                self.encoding.mask(state, mover)[action]
            if not legal:
                assert rewards[i] == state.info.min_utility and terminated[i]
                self.ended[i] = True
                self.pending[i] = -1
                self.expect(i, seen, state, mover, True)
                continue
            game_action = self.encoding.window.to_game(action)
            if state.current_player() != SIMULTANEOUS:
                state.apply_action(game_action)
                self.plies[i] += 1
                if not state.is_terminal():
                    self.opponent_moves(i, state)
            elif env.self_play and mover == 0:  # held back, unseen, until seat 1 chooses
                self.pending[i] = game_action
                self.viewers[i] = 1
                assert rewards[i] == 0 and not terminated[i]
                self.expect(i, seen, state, 1, False)
                continue
            elif env.self_play:
                state.apply_actions([self.pending[i], game_action])
                self.pending[i] = -1
            else:
                seat = 1 - mover
                reply = int(env.opponent_actions[i])
                assert self.encoding.mask(state, seat)[reply]
                joint = [reply, reply]
                joint[mover] = game_action
                state.apply_actions(joint)
            done = state.is_terminal()
            assert terminated[i] == done
            assert rewards[i] == (state.returns()[mover] if done else 0.0)
            self.viewers[i] = self.viewer(state, mover)
            self.ended[i] = done
            self.expect(i, seen, state, self.viewers[i], False)


def choose_actions(data: st.DataObject, env: Any) -> np.ndarray:
    """Mostly legal actions (drawn by hypothesis among each mask), now and then an illegal
    one (outside the mask, or outside the action space)."""
    actions = []
    for row in env.action_masks():
        legal = np.flatnonzero(row)
        kind = data.draw(st.integers(0, 19))
        if kind == 0 or not len(legal):
            illegal = np.flatnonzero(~row)
            actions.append(data.draw(st.sampled_from([-1, env.num_actions, int(illegal[0])])))
        else:
            actions.append(int(legal[data.draw(st.integers(0, len(legal) - 1))]))
    return np.array(actions, np.int64)


def play_against_mirror(data: st.DataObject, game: str, opponent: str) -> None:
    num_envs = data.draw(st.integers(1, 4), label="num_envs")
    player = data.draw(st.integers(0, 1), label="player")
    observation = data.draw(st.sampled_from(["planes", "flat"]), label="observation")
    params = data.draw(st.sampled_from(PARAM_CHOICES[game]), label="params")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    env = make_vector_env(game, num_envs, opponent=opponent, player=player,
                          params=params, observation=observation)
    seen, info = env.reset(seed=seed)
    mirror = Mirror(env)
    mirror.check_reset(seen, info)
    for _ in range(data.draw(st.integers(1, 40), label="steps")):
        actions = choose_actions(data, env)
        mirror.check_step(actions, env.step(actions))


@pytest.mark.parametrize(("game", "opponent"),
                         [(g, o) for g in sorted(VECTOR_GAMES) for o in OPPONENTS[g]])
@SETTINGS
@given(data=st.data())
def test_vector_env_equals_the_protocol(game: str, opponent: str, data: st.DataObject) -> None:
    play_against_mirror(data, game, opponent)


@pytest.mark.parametrize("game", sorted(VECTOR_GAMES))
def test_registered_and_reproducible(game: str) -> None:
    env = gymnasium.make_vec(f"lifearena/{game}-v0", num_envs=3,
                             vectorization_mode="vector_entry_point", params=PARAMS[game])
    assert type(env).__name__.endswith("VectorEnv")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    runs = []
    for _ in range(2):
        seen, _ = env.reset(seed=11)
        trace = [seen]
        for _ in range(30):
            seen, rewards, terminated, _, _ = env.step(env.action_space.sample())
            trace += [seen, rewards, terminated]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("game", sorted(VECTOR_GAMES))
def test_illegal_raise_changes_nothing(game: str) -> None:
    env = make_vector_env(game, 2, illegal="raise", params=PARAMS[game])
    env.reset(seed=5)
    before = [env.position(i).observation(0) for i in range(2)]
    actions = env.sample_actions()
    actions[1] = int(np.flatnonzero(~env.action_masks()[1])[0])
    with pytest.raises(IllegalMoveError, match="environment 1: illegal move"):
        env.step(actions)
    for i in range(2):
        np.testing.assert_array_equal(env.position(i).observation(0), before[i])
    with pytest.raises(BadParameterError, match="expected 2 integers"):
        env.step([0])
    env.step(env.sample_actions())  # still usable


@pytest.mark.parametrize("game", sorted(VECTOR_GAMES))
def test_layouts_and_copies(game: str) -> None:
    planes = make_vector_env(game, 2, params=PARAMS[game], copy=False)
    seen, info = planes.reset(seed=1)
    assert seen.dtype == np.float32 and seen.shape == (2, *planes.encoding.window.shape)
    assert seen in planes.observation_space
    classic = make_vector_env(game, 2, params=PARAMS[game], mask_in_obs=True,
                              observation="flat")
    both, _ = classic.reset(seed=1)
    np.testing.assert_array_equal(both["observation"], seen.reshape(2, -1))
    np.testing.assert_array_equal(both["action_mask"], info["action_mask"])
    assert both in classic.observation_space
    assert planes.step(planes.sample_actions())[0] is seen  # copy=False: the buffer itself
    copied = make_vector_env(game, 2, params=PARAMS[game])
    first, _ = copied.reset(seed=1)
    assert copied.step(copied.sample_actions())[0] is not first


def test_bad_options_are_refused() -> None:
    with pytest.raises(BadParameterError, match="opponent='mcts'"):
        make_vector_env("war_of_life", 2, opponent="mcts")
    with pytest.raises(BadParameterError, match="num_envs=0"):
        make_vector_env("war_of_life", 0)
    with pytest.raises(BadParameterError, match="call reset"):
        make_vector_env("war_of_life", 1).step([0])


def test_war_of_life_fixed_start() -> None:
    from lifearena.games.war_of_life import new_game

    env = make_vector_env("war_of_life", 2, params={"seed": 4})
    env.reset(seed=0)
    for i in range(2):
        assert env.position(i, start=True).to_prolog() == new_game(seed=4).to_prolog()


def superko_game(params: dict[str, Any]) -> list[int]:
    """The moves of the first random protocol game (seeds 0, 1, ...) that reaches a position
    where superko forbids a move Life's rules allow, up to that position."""
    from lifearena.games.losat import LosatState
    from lifearena.interop.games import new_state

    for seed in range(500):
        rng = np.random.default_rng(seed)
        state, moves = new_state("losat", params), []
        while not state.is_terminal():
            legal = state.legal_actions()
            fresh = LosatState(state.board, state.current_player(), state.captures(), 0,
                               **state.params)  # the same stones, no superko memory
            if set(fresh.legal_actions()) - set(legal):
                return moves
            moves.append(int(rng.choice(legal)))
            state.apply_action(moves[-1])
    raise AssertionError("no random game met superko")  # pragma: no cover


def test_losat_superko_as_the_protocol() -> None:
    params = {"width": 9, "length": 11, "max_moves": 30}
    moves = superko_game(params)
    env = make_vector_env("losat", 1, opponent="self", params=params)
    seen, info = env.reset(seed=0)
    mirror = Mirror(env)
    mirror.check_reset(seen, info)
    for action in moves:
        actions = np.array([action], np.int64)
        mirror.check_step(actions, env.step(actions))
    assert env.position(0).legal_actions() == np.flatnonzero(env.action_masks()[0]).tolist()
