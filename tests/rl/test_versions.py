"""The versioned ids fix every rule parameter of their game (a default changed later in a
game cannot move a ``-v1`` environment), and ``params=`` is refused naming the id."""

from __future__ import annotations

import pytest

from lifearena.errors import BadParameterError
from lifearena.interop.games import game_object, parameter_defaults
from lifearena.rl.versions import BY_ID, FREE_PARAMETERS, SPECS, EnvSpec, refuse_params, spec


def unnamed_parameters(fixed: EnvSpec) -> set[str]:
    """The game's parameters that ``fixed`` leaves to the game's defaults."""
    return set(parameter_defaults(fixed.game)) - set(fixed.params) - FREE_PARAMETERS


@pytest.mark.parametrize("fixed", SPECS, ids=lambda s: s.id)
def test_every_spec_names_every_game_parameter(fixed: EnvSpec) -> None:
    assert unnamed_parameters(fixed) == set(), (
        f"{fixed.id} leaves {sorted(unnamed_parameters(fixed))} to the game's defaults; "
        "a new parameter of a game needs a new version of its ids")
    assert not set(fixed.params) - set(parameter_defaults(fixed.game)), "unknown parameter"
    assert "seed" not in fixed.params  # the random start of each episode
    game_object(fixed.game, fixed.game_params())  # every value within its spec


def test_a_spec_that_misses_a_parameter_is_caught() -> None:
    partial = EnvSpec("lifearena/p2life-12x12-v9", "p2life", {"size": 12}, "test")
    assert unnamed_parameters(partial) == {"density", "torus", "max_generations", "moves"}


def test_ids_are_versioned_namespaced_and_unique() -> None:
    assert len(BY_ID) == len(SPECS)
    for fixed in SPECS:
        assert fixed.id.startswith("lifearena/") and fixed.id.endswith("-v1")
        assert fixed.version == 1 and fixed.observation == "planes"
    assert {"lifearena/war_of_life-v1", "lifearena/p2life-12x12-v1",
            "lifearena/losat-19x19-v1", "lifearena/losat-9x11-v1",
            "lifearena/life_for_two-v1"} <= set(BY_ID)
    assert any(i.startswith("lifearena/blocking_queen-") for i in BY_ID)


def test_a_spec_is_found_with_or_without_its_namespace() -> None:
    assert spec("losat-9x11-v1") is spec("lifearena/losat-9x11-v1")
    with pytest.raises(BadParameterError, match="unknown environment id 'losat-v1'"):
        spec("losat-v1")


def test_params_are_refused_naming_the_id() -> None:
    refuse_params("lifearena/losat-9x11-v1", {"opponent": "greedy", "player": 1})
    with pytest.raises(BadParameterError) as caught:
        refuse_params("lifearena/losat-9x11-v1", {"params": {"width": 7}})
    message = str(caught.value)
    assert "\n" not in message
    assert "lifearena/losat-9x11-v1 fixes every game parameter" in message
    assert "lifearena/losat-v0" in message


def test_specs_are_frozen() -> None:
    fixed = spec("war_of_life-v1")
    with pytest.raises(TypeError):
        fixed.params["seed"] = 3  # type: ignore[index]
