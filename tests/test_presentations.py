"""Every game's presentation against its rules: what a board offers a person is exactly the
legal moves, each written in the game's notation and picked by cells of the drawn grid.

The terminal and the web read a game only through its presentation (``Game.presentation``);
these checks hold for any game, so a new game's presentation is checked without a test of
its own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.core import (
    SIMULTANEOUS,
    TERMINAL,
    InteractionKind,
    Presentation,
    State,
    get_game,
    presentation_of,
)

GAMES: dict[str, dict[str, Any]] = {
    "war_of_life": {},
    "life_for_two": {},
    "losat": {"width": 9, "length": 9},
    "p2life": {"size": 6},
    "blocking_queen": {"k": 3, "start": "square", "x": 6, "y": 9},
}


def positions(name: str, seed: int, plies: int = 40) -> list[State]:
    """The positions of a seeded random game of ``name`` (at most ``plies`` moves)."""
    state = get_game(name, GAMES[name]).new_initial_state(seed=seed % 1000)
    rng = random.Random(seed)
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) <= plies:
        if state.current_player() == SIMULTANEOUS:
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(state.info.num_players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


def grid_size(shown: Presentation, state: State) -> tuple[int, int] | None:
    grid = shown.display(state, None).get("grid")
    return None if grid is None else (grid["rows"], grid["cols"])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_presentation_of_its_own(name: str) -> None:
    state = get_game(name, GAMES[name]).new_initial_state()
    shown = presentation_of(state)
    assert type(shown) is not Presentation
    assert shown is state.game.presentation
    assert str(state) == shown.text(state) and str(state).strip()


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_choices_are_the_legal_moves_in_notation_and_cells(name: str, seed: int) -> None:
    for state in positions(name, seed):
        shown = presentation_of(state)
        size = grid_size(shown, state)
        current = state.current_player()
        for player in range(state.info.num_players):
            interaction = shown.interaction(state, player)
            legal = state.legal_actions(player) if current != TERMINAL else []
            acting = current in (SIMULTANEOUS, player) and bool(legal)
            assert (interaction.kind is not InteractionKind.WAIT) == acting, (state, player)
            if not acting:
                continue
            assert interaction.prompt.strip()
            choices = shown.choices(state, player)
            assert [c.action for c in choices] == legal
            for choice in choices:
                assert state.string_to_action(choice.text, player) == choice.action
                assert choice.label.strip()
                if size is not None:
                    assert all(0 <= r < size[0] and 0 <= c < size[1] for r, c in choice.cells)
            with_cells = [c for c in choices if not c.cells]
            if with_cells and interaction.kind is not InteractionKind.ANSWER:
                assert interaction.can_pass, (name, [c.text for c in with_cells])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_illegal_move_is_explained_in_one_line(name: str) -> None:
    for state in positions(name, 3, plies=6):
        current = state.current_player()
        if current == TERMINAL:
            continue
        player = 0 if current == SIMULTANEOUS else current
        legal = set(state.legal_actions(player))
        illegal = next(a for a in range(state.info.num_distinct_actions) if a not in legal)
        why = presentation_of(state).explain_illegal(state, illegal, player)
        assert why and "\n" not in why and "is legal" not in why, why
