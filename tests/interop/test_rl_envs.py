"""The versioned ids as Gymnasium environments: registered for ``gymnasium.make`` and
``gymnasium.make_vec``, ``params=`` refused, and the versioning's tripwire: a stored digest of
each id's observations and masks over a seeded random rollout."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")

from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.rl.envs import make_env, register_envs, rollout_digest  # noqa: E402
from lifearena.rl.versions import SPECS, EnvSpec  # noqa: E402

DIGESTS = {
    "lifearena/war_of_life-v1":
        "d5856ea178619801573856c042e385471b104ff6b004b77149f82fd947b5bfd7",
    "lifearena/life_for_two-v1":
        "e6104b9033faa088888cbaaa659cd52b2bed24b7a234e5e430ee4d7a727cca12",
    "lifearena/losat-19x19-v1":
        "8502ff9843f6055dbe82e24f45268a4d293ce57dcb1d2f3e92432c8b537bc270",
    "lifearena/losat-9x11-v1":
        "ca474b4b5fa988803826eadcc46285569b9e08b92359d755b8f80be393e4ecc6",
    "lifearena/p2life-12x12-v1":
        "4d10e1e7f3b4cbc16908d87c7e2f5c5d9a74650eda397d42fa754a9151802ad5",
    "lifearena/blocking_queen-12-v1":
        "bf82167b25b9a5a4f38dff6e35d80a5cfacda851ce9ffd8b6e25cb38b8b7e064",
    "lifearena/blocking_queen-40-v1":
        "a1c16db4fc3a152da257b260ef228e229fded9ac02c62a1b8ee43f16bc31b063",
}
"""``rollout_digest(id)`` of every ``-v1`` id, taken when the id was made. Never update one
of these to make the test pass: a changed digest means a ``-v1`` environment now plays
differently; make a ``-v2`` id (docs/rl.md, "Versions"). The one exception: a change of
nothing but how the random streams are derived (the same distributions of starts and of
the random opponent's moves), which docs/rl.md does not count as a bump."""


@pytest.mark.parametrize("fixed", SPECS, ids=lambda s: s.id)
def test_the_rollout_digest_is_unchanged(fixed: EnvSpec) -> None:
    assert fixed.id in DIGESTS, f"store rollout_digest({fixed.id!r}) in DIGESTS"
    assert rollout_digest(fixed.id) == DIGESTS[fixed.id], (
        f"{fixed.id} no longer plays as it did: a rule, the starts, the encoding or the "
        "default opponent changed. Released results on it would not compare: bump the "
        "version (a -v2 spec in lifearena/rl/versions.py, docs/rl.md 'Versions') instead of "
        "editing the digest. Only where nothing but the derivation of the random streams "
        "changed (the same distributions) may the digest be stored again, saying so")


def test_the_digest_sees_a_change_of_rules() -> None:
    # the same rollout under another parameter gives another digest (the tripwire can fire)
    from lifearena.rl import versions

    fixed = versions.spec("lifearena/p2life-12x12-v1")
    changed = EnvSpec(fixed.id, fixed.game, {**fixed.params, "torus": False}, fixed.summary)
    original = versions.BY_ID
    try:
        versions.BY_ID = {**original, fixed.id: changed}  # type: ignore[misc]
        assert rollout_digest(fixed.id) != DIGESTS[fixed.id]
    finally:
        versions.BY_ID = original  # type: ignore[misc]


@pytest.mark.parametrize("fixed", SPECS, ids=lambda s: s.id)
def test_gymnasium_makes_the_spec(fixed: EnvSpec) -> None:
    env = gymnasium.make(fixed.id)
    encoding = Encoding(fixed.game, fixed.game_params())
    assert env.observation_space == encoding.observation_space
    assert env.action_space.n == encoding.num_actions  # type: ignore[attr-defined]
    inner = env.unwrapped
    assert inner.opponent_name == fixed.opponent  # type: ignore[attr-defined]
    assert {k: inner.params[k] for k in fixed.params} == dict(fixed.params)  # type: ignore[attr-defined]
    observation, info = env.reset(seed=1)
    assert observation.shape == encoding.observation_space.shape
    assert info["action_mask"].any()


def test_options_other_than_params_pass_through() -> None:
    env = gymnasium.make("lifearena/losat-9x11-v1", opponent="greedy", player=1,
                         observation="flat")
    assert env.unwrapped.opponent_name == "greedy"  # type: ignore[attr-defined]
    assert env.unwrapped.player == 1  # type: ignore[attr-defined]
    assert env.observation_space.shape == (2 * 11 * 9,)


@pytest.mark.parametrize("env_id", ["lifearena/war_of_life-v1", "lifearena/losat-9x11-v1"])
def test_make_vec_builds_the_compiled_environment(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    single = make_env(env_id)
    assert envs.single_observation_space == single.observation_space
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (3, *single.observation_space.shape)
    assert np.asarray(infos["action_mask"]).shape == (3, single.action_space.n)
    envs.close()


@pytest.mark.parametrize("make", [
    lambda: gymnasium.make("lifearena/p2life-12x12-v1", params={"size": 6}),
    lambda: gymnasium.make_vec("lifearena/p2life-12x12-v1", num_envs=2,
                               vectorization_mode="vector_entry_point", params={"size": 6}),
], ids=["make", "make_vec"])
def test_params_are_refused_with_one_line_naming_the_id(make: object) -> None:
    with pytest.raises(BadParameterError) as caught:
        make()  # type: ignore[operator]
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("lifearena/p2life-12x12-v1 fixes every game parameter")


def test_v0_ids_keep_free_parameters() -> None:
    env = gymnasium.make("lifearena/p2life-v0", params={"size": 6})
    assert env.observation_space.shape == (2, 6, 6)


def test_gymnasium_imports_the_registration_itself() -> None:
    # Gymnasium's "module:id" form: no import of lifearena needed in the caller's code
    env = gymnasium.make("lifearena.rl.envs:lifearena/losat-9x11-v1")
    assert env.spec is not None and env.spec.id == "lifearena/losat-9x11-v1"


def test_registering_twice_changes_nothing() -> None:
    assert register_envs() == [s.id for s in SPECS]
    assert all(s.id in gymnasium.registry for s in SPECS)
