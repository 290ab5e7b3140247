"""One description of each game's parameters: the web form, the command line's options and
the research adapters all read the game's specs (:class:`lifearena.params.ParamSpec`).

A bound written a second time anywhere (a form with its own range, an option with a wider
one, an action space that ignores the board size) fails here.
"""

from __future__ import annotations

from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st

from lifearena.cli import app as cli_app
from lifearena.core import Game, available_games, game_type
from lifearena.errors import BadParameterError
from lifearena.interop.games import new_state, parameter_defaults
from lifearena.params import ParamSpec
from lifearena.web import catalog

GAMES = ["war_of_life", "life_for_two", "losat", "p2life", "blocking_queen"]

# the CLI options made from specs: command -> (game, {option's name: parameter})
SPEC_OPTIONS: dict[tuple[str, ...], tuple[str, dict[str, str]]] = {
    ("losat", "play"): ("losat", {n: n for n in ("width", "length", "offset", "gap",
                                                  "captures_to_win", "max_moves")}),
    ("p2life", "play"): ("p2life", {"size": "size", "density_": "density", "seed": "seed",
                                    "max_generations": "max_generations", "moves": "moves"}),
    ("life-for-two", "play"): ("life_for_two", {"max_turns": "max_turns"}),
    ("queen", "play"): ("blocking_queen", {"k": "k"}),
}
CLI_OPTIONS = {(command, option): (game, param)
               for command, (game, names) in SPEC_OPTIONS.items()
               for option, param in names.items()}


def _command(path: tuple[str, ...]) -> Any:
    command: Any = typer.main.get_command(cli_app)
    for name in path:
        command = command.commands[name]
    return command


def _option(path: tuple[str, ...], name: str) -> Any:
    for param in _command(path).params:
        if param.name == name:
            return param
    raise AssertionError(f"lifearena {' '.join(path)} has no option {name}")


def test_every_game_is_a_game_object_with_specs() -> None:
    assert set(GAMES) <= set(available_games())
    for name in GAMES:
        kind = game_type(name)
        assert issubclass(kind, Game) and kind.state_type.game_type is kind
        game = kind()
        state = game.new_initial_state()
        assert state.game == game
        assert state.info.name == name
        assert set(state.params) == {s.name for s in kind.rule_specs()}
        assert game.observation_shape == state.observation(0).shape
        assert game.num_distinct_actions == state.info.num_distinct_actions


@pytest.mark.parametrize("name", GAMES)
def test_the_web_form_is_the_specs_served_range(name: str) -> None:
    entry = catalog.CATALOG[name].to_json()
    specs = [s for s in game_type(name).specs if s.is_served]
    assert entry["params"] == [s.to_json(served=True) for s in specs]
    for spec, field in zip(specs, entry["params"], strict=True):
        if spec.kind in ("int", "float"):
            low, high = spec.bounds()
            assert low <= field["low"] <= field["high"] <= high  # served within the game's
    assert entry["simultaneous"] == (game_type(name).info.dynamics.value == "simultaneous")


@pytest.mark.parametrize(("where", "what"), list(CLI_OPTIONS.items()),
                         ids=[f"{' '.join(p)} --{o}" for p, o in CLI_OPTIONS])
def test_command_line_ranges_are_the_specs(where: tuple[tuple[str, ...], str],
                                           what: tuple[str, str]) -> None:
    option = _option(*where)
    spec = game_type(what[0]).spec(what[1])
    low, high = spec.bounds()
    assert (option.min, option.max) == (low, high)


@pytest.mark.parametrize("name", GAMES)
def test_the_adapters_parameters_and_sizes_are_the_specs(name: str) -> None:
    defaults = parameter_defaults(name)
    for spec in game_type(name).specs:
        if spec.name in defaults:
            assert defaults[spec.name] == spec.plain_default
        else:  # a typed position, or the choice that switches to one
            assert spec.kind == "text" or any(
                other.kind == "text" and other.shown_when == (spec.name, choice)
                for other in game_type(name).specs for choice in spec.choices)
    state = new_state(name, {})
    assert state.info.num_distinct_actions == state.game.num_distinct_actions
    assert len(state.legal_actions_mask(0 if state.current_player() < 0 else None)) == \
        state.game.num_distinct_actions


@pytest.mark.parametrize("name", GAMES)
def test_bad_values_are_refused_by_name_everywhere(name: str) -> None:
    kind = game_type(name)
    for spec in kind.specs:
        bad: Any = {"int": 1.5, "float": "x", "bool": 1, "choice": object(),
                    "text": 7}[spec.kind]
        with pytest.raises(BadParameterError, match=spec.name):
            kind({spec.name: bad})
    with pytest.raises(BadParameterError, match="unknown"):
        kind({"no_such_parameter": 1})


def _values(spec: ParamSpec) -> st.SearchStrategy[Any]:
    if spec.kind == "int":
        low, high = spec.bounds()
        return st.integers(int(low), int(high))
    if spec.kind == "float":
        low, high = spec.bounds()
        return st.floats(low, high)
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "choice":
        return st.sampled_from(spec.choices)
    return st.text(max_size=spec.max_length)


@given(st.data())
def test_a_value_within_its_spec_round_trips_through_text(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(GAMES))
    spec = data.draw(st.sampled_from(game_type(name).specs))
    value = data.draw(_values(spec))
    checked = spec.check(value, name)
    if spec.kind != "text":
        assert spec.parse(str(0 if checked is None else checked).lower()) == checked
