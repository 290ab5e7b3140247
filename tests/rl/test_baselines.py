"""The PPO baselines shipped with the package (``policy:ppo``): each is small, plays its
versioned environment's rules with numpy alone (no torch installed by the README's test
command), and still beats ``random`` from the frozen evaluation set; War of Life's also
beat ``minimax``, and so does its n-tuple network (``policy:ntuple``)."""

from __future__ import annotations

import os

import pytest

from lifearena import agents
from lifearena.agents.ntuple import load_ntuple
from lifearena.agents.planes_network import load_planes_policy
from lifearena.agents.policy import (
    BASELINES,
    NTUPLE_BASELINE,
    SMALL_BASELINE,
    SMALL_BASELINES,
    baseline_path,
)
from lifearena.errors import BadParameterError
from lifearena.rl.evaluate import evaluate
from lifearena.rl.versions import spec


def env_id(game: str) -> str:
    return "lifearena/" + BASELINES[game].removesuffix(".npz")


@pytest.mark.parametrize("game", sorted(BASELINES))
def test_a_baseline_is_small_and_plays_its_versioned_rules(game: str) -> None:
    path = baseline_path(game)
    assert os.path.getsize(path) < 2 * 1024 * 1024
    policy = load_planes_policy(path)
    fixed = spec(env_id(game))
    assert policy.game == fixed.game
    assert {k: v for k, v in policy.params.items() if k != "seed"} == dict(fixed.params)


@pytest.mark.parametrize("game", sorted(BASELINES))
def test_a_baseline_beats_random(game: str) -> None:
    report = evaluate("policy:ppo", env_id(game), opponents="random", limit=10)
    (row,) = report.rows
    assert row.games == 20 and row.forfeits == 0
    assert row.score >= 0.8, row


def test_policy_ppo_needs_a_game_with_a_baseline() -> None:
    with pytest.raises(BadParameterError, match="expected one of the games with a shipped"):
        agents.make("policy:ppo")  # no game named: which baseline?


def test_every_game_has_a_baseline() -> None:
    from lifearena.rl.versions import SPECS

    assert set(BASELINES) == {fixed.game for fixed in SPECS}


@pytest.mark.parametrize("game", sorted(SMALL_BASELINES))
def test_a_small_baseline_is_small_and_beats_random(game: str) -> None:
    path = baseline_path(game, SMALL_BASELINE)
    assert os.path.getsize(path) < 2 * 1024 * 1024 and path != baseline_path(game)
    assert load_planes_policy(path).game == game
    report = evaluate(f"policy:{SMALL_BASELINE}", env_id(game), opponents="random", limit=10)
    (row,) = report.rows
    assert row.games == 20 and row.score >= 0.8, row


def test_war_of_lifes_baseline_beats_minimax() -> None:
    # 0.677 [0.610, 0.738] on the whole evaluation set (docs/rl.md); its first 10 starts
    # here, both seats
    report = evaluate("policy:ppo", env_id("war_of_life"), opponents="minimax", limit=10)
    (row,) = report.rows
    assert row.games == 20 and row.score > 0.5, row


def test_policy_ppo_small_needs_a_game_with_one() -> None:
    with pytest.raises(BadParameterError, match="policy:ppo-small for losat; expected one of"):
        agents.make("policy:ppo-small", game="losat")


def test_war_of_lifes_ntuple_network_is_small_and_beats_minimax() -> None:
    # trained 30 minutes on one core of the two-core machine (python -m lifearena.rl.ntuple;
    # the clock is read between blocks of 1,000 games); 0.682 [0.615, 0.743] against
    # minimax on the whole evaluation set (docs/rl.md), its first 10 starts here
    path = baseline_path("war_of_life", NTUPLE_BASELINE)
    assert os.path.getsize(path) < 2 * 1024 * 1024
    assert load_ntuple(path).meta["minutes"] < 30.1
    report = evaluate(f"policy:{NTUPLE_BASELINE}", env_id("war_of_life"),
                      opponents="minimax", limit=10)
    (row,) = report.rows
    assert row.games == 20 and row.forfeits == 0 and row.score >= 0.6, row
