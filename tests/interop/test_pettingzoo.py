"""PettingZoo's own checkers on every lifearena game, and the environments' contract."""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs PettingZoo: pip install -e '.[interop]'")

from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from lifearena.core import replay
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.pettingzoo import (
    LifeArenaAECEnv,
    LifeArenaParallelEnv,
    env,
    parallel_env,
)

# small boards and short games keep the checkers fast; the seeds fix the random starts
GAMES: dict[str, dict[str, Any]] = {
    "war_of_life": {"seed": 3},
    "losat": {"width": 9, "length": 11, "max_moves": 40},
    "blocking_queen": {"size": 12, "seed": 5},
    "life_for_two": {"max_turns": 8},
    "p2life": {"size": 6, "max_generations": 12, "seed": 2},
}
TURN_BASED = ("war_of_life", "losat", "blocking_queen")

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_api_test(game: str) -> None:
    api_test(env(game, params=GAMES[game], render_mode="ansi"), num_cycles=100)
    if game in TURN_BASED:
        api_test(LifeArenaAECEnv(game, params=GAMES[game], mask_in_obs=True), num_cycles=100)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_parallel_api_test(game: str) -> None:
    parallel_api_test(parallel_env(game, params=GAMES[game], observation="flat"),
                      num_cycles=100)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seed_tests(game: str) -> None:
    # unseeded starts: reset(seed=42) must choose them alike
    params = {k: v for k, v in GAMES[game].items() if k != "seed"}
    seed_test(functools.partial(env, game, params=params), num_cycles=30)
    parallel_seed_test(functools.partial(parallel_env, game, params=params), num_cycles=30)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_render_test(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(functools.partial(env, game, params=GAMES[game]))
    printed = capsys.readouterr().out  # "human" prints the board after every step
    assert str(parallel_env(game, params=GAMES[game]).game_state).splitlines()[0] in printed


def _seeded_spaces(make: Callable[..., Any], seed: int) -> Callable[..., Any]:
    """``make`` with its agents' action spaces seeded, so the random play is repeatable."""
    def seeded(**options: Any) -> Any:
        made = make(**options)
        for i, agent in enumerate(made.possible_agents):
            made.action_space(agent).seed(seed + i)
        return made
    return seeded


# space seeds under which the random play outlasts four cycles: a game may end sooner by
# itself (Life for Two's first pieces often all die), which the checker cannot tell apart
CYCLE_SEEDS = {"war_of_life": 0, "losat": 0, "blocking_queen": 0, "life_for_two": 4,
               "p2life": 1}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_max_cycles_test(game: str) -> None:
    seed = CYCLE_SEEDS[game]
    module = types.SimpleNamespace(
        env=_seeded_spaces(functools.partial(env, game, params=GAMES[game]), seed),
        parallel_env=_seeded_spaces(functools.partial(parallel_env, game, params=GAMES[game]),
                                    seed))
    max_cycles_test(module)


def test_unmasked_samples_are_legal() -> None:
    aec = LifeArenaAECEnv("war_of_life", params={"seed": 1})
    aec.reset(seed=0)
    space = aec.action_space("player_0")
    legal = set(aec.game_state.legal_actions())
    assert {int(space.sample()) for _ in range(50)} <= legal
    mask = np.zeros(512, np.int8)
    mask[7] = 1
    assert space.sample(mask) == 7  # a given mask still rules


def test_spaces_follow_the_game_parameters() -> None:
    for size in (6, 12):
        par = parallel_env("p2life", params={"size": size})
        assert par.action_space("player_0").n == 2 * size * size + 1
        assert par.observation_space("player_0").shape == (2, size, size)
    queen = LifeArenaAECEnv("blocking_queen", params={"size": 12})
    assert queen.action_space("player_1").n == 2 * 12 * 12 + 1
    assert queen.observation_space("player_1").shape == (4, 12, 12)
    square = LifeArenaAECEnv("blocking_queen", params={"start": "square", "x": 3, "y": 7})
    assert square.action_space("player_0").n == 2 * 8 * 8 + 1
    flat = LifeArenaAECEnv("losat", params={"width": 9, "length": 11}, observation="flat")
    assert flat.observation_space("player_0").shape == (2 * 9 * 11,)
    assert flat.action_space("player_0").n == 4 * 9 * 11 + 1


def test_queen_actions_are_renumbered_in_its_corner() -> None:
    aec = LifeArenaAECEnv("blocking_queen", params={"start": "square", "x": 3, "y": 2, "k": 2})
    aec.reset(seed=0)
    mask = aec.infos["player_0"]["action_mask"]
    # the queen on (3, 2) in a 4x4 corner reaches (0..2, 2), (3, 0..1), (1, 0), (2, 1)
    expected = sorted(y * 4 + x for x, y in [(0, 2), (1, 2), (2, 2), (3, 0), (3, 1),
                                             (1, 0), (2, 1)])
    assert np.flatnonzero(mask).tolist() == expected
    aec.step(2 * 4 + 0)  # to (0, 2)
    assert aec.game_state.history_strings() == ["0,2"]
    observation = aec.observe("player_0")
    assert observation.shape == (4, 4, 4) and observation[0, 2, 0] == 1.0


def test_aec_rollout_ends_with_the_games_returns() -> None:
    aec = LifeArenaAECEnv("war_of_life", render_mode="ansi", mask_in_obs=True)
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            assert observation["action_mask"].sum() == len(aec.game_state.legal_actions())
            np.testing.assert_array_equal(observation["action_mask"], info["action_mask"])
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        aec.step(action)
    outcome = aec.game_state.outcome()
    assert outcome is not None
    assert replay(aec.game_state.record()).history() == aec.game_state.history()
    assert tuple(totals.values()) == aec.game_state.returns()


def test_parallel_rollout_and_masks() -> None:
    par = parallel_env("life_for_two", params={"max_turns": 6})
    observations, infos = par.reset(seed=0)
    assert observations["player_0"].shape == (3, 5, 5)
    assert observations["player_0"].dtype == np.float32
    first = infos["player_0"]["action_mask"]
    assert first.sum() == 2300 and first[:25].sum() == 0  # three pieces on the first turn
    rng = np.random.default_rng(1)
    rewards: dict[str, float] = {}
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"])))
                   for a in par.agents}
        observations, rewards, _, _, infos = par.step(actions)
    assert tuple(rewards.values()) == par.game_state.returns()
    assert "outcome" in infos["player_0"]


def test_a_turn_based_game_in_parallel_counts_the_movers_action() -> None:
    par = parallel_env("war_of_life", params={"seed": 1})
    _, infos = par.reset()
    assert not infos["player_1"]["action_mask"].any()
    move = int(np.flatnonzero(infos["player_0"]["action_mask"])[0])
    par.step({"player_0": move, "player_1": 12345})  # the waiting side's action is ignored
    assert par.game_state.history() == [move]


def test_max_cycles_truncates() -> None:
    aec = LifeArenaAECEnv("losat", params={"width": 9, "length": 11}, max_cycles=2)
    aec.reset(seed=0)
    plies = 0
    for _agent in aec.agent_iter():
        _, _, termination, truncation, info = aec.last()
        if termination or truncation:
            assert truncation and not termination
            aec.step(None)
        else:
            aec.step(int(np.flatnonzero(info["action_mask"])[0]))
            plies += 1
    assert plies == 4 and aec.game_state.move_number() == 4
    with pytest.raises(BadParameterError, match="max_cycles=0"):
        parallel_env("p2life", max_cycles=0)


def test_reset_seed_picks_the_start() -> None:
    aec = LifeArenaAECEnv("war_of_life")
    starts = []
    for seed in (5, 5, 6):
        aec.reset(seed=seed)
        starts.append(aec.game_state.setup())
    assert starts[0] == starts[1] != starts[2]
    fixed = LifeArenaAECEnv("war_of_life", params={"seed": 9})
    fixed.reset(seed=1)
    setup = fixed.game_state.setup()
    fixed.reset(seed=2)
    assert fixed.game_state.setup() == setup


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    text = LifeArenaAECEnv("war_of_life", render_mode="ansi")
    text.reset(seed=1)
    assert text.render() == str(text.game_state)
    picture = parallel_env("p2life", params={"size": 8}, render_mode="rgb_array")
    picture.reset(seed=1)
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    human = LifeArenaAECEnv("war_of_life", render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out.count(str(human.game_state)) == 2  # reset, render
    with pytest.raises(BadParameterError, match="render_mode 'text'"):
        LifeArenaAECEnv("war_of_life", render_mode="text")


def test_illegal_actions_forfeit_by_default() -> None:
    aec = LifeArenaAECEnv("war_of_life")
    aec.reset(seed=1)
    illegal = int(np.flatnonzero(aec.infos["player_0"]["action_mask"] == 0)[0])
    aec.step(illegal)
    assert aec.terminations == {"player_0": True, "player_1": True}
    assert aec.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert aec.infos["player_0"]["illegal_action"].startswith("illegal move")
    assert aec.game_state.history() == []  # refused, not played
    par = parallel_env("life_for_two")
    par.reset(seed=0)
    _, rewards, terminations, _, infos = par.step({"player_0": 3, "player_1": 30})
    assert rewards == {"player_0": -1.0, "player_1": 1.0} and all(terminations.values())
    assert "illegal move for player 1" in infos["player_0"]["illegal_action"]
    assert "illegal_action" not in infos["player_1"] and not par.agents
    both = parallel_env("life_for_two")
    both.reset(seed=0)
    _, rewards, _, _, _ = both.step({"player_0": 0, "player_1": 0})
    assert rewards == {"player_0": -1.0, "player_1": -1.0}  # both forfeit
    out_of_range = parallel_env("p2life", params={"size": 6})
    out_of_range.reset(seed=0)
    _, _, _, _, infos = out_of_range.step({"player_0": 0, "player_1": 500})
    assert "outside Discrete(73)" in infos["player_1"]["illegal_action"]


def test_illegal_raise_changes_nothing() -> None:
    aec = LifeArenaAECEnv("war_of_life", illegal="raise")
    aec.reset(seed=1)
    illegal = int(np.flatnonzero(aec.infos["player_0"]["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match="illegal move"):
        aec.step(illegal)
    assert aec.game_state.history() == [] and not any(aec.terminations.values())
    par = parallel_env("life_for_two", illegal="raise")
    par.reset(seed=0)
    with pytest.raises(IllegalMoveError, match="illegal move"):
        par.step({"player_0": 3, "player_1": 30})
    assert par.game_state.history() == [] and par.agents


def test_bad_use_raises_the_librarys_errors() -> None:
    with pytest.raises(BadParameterError, match="unknown game 'go'"):
        env("go")
    with pytest.raises(BadParameterError, match="life_for_two is simultaneous"):
        LifeArenaAECEnv("life_for_two")
    with pytest.raises(BadParameterError, match="illegal='skip'; expected one of lose, raise"):
        LifeArenaParallelEnv("war_of_life", illegal="skip")
    with pytest.raises(BadParameterError, match="observation='image'"):
        env("p2life", observation="image")
    with pytest.raises(BadParameterError, match="mask_in_obs=1"):
        env("war_of_life", mask_in_obs=1)
    par = parallel_env("life_for_two")
    par.reset(seed=0)
    with pytest.raises(BadParameterError, match="no action for player_1"):
        par.step({"player_0": 30})
