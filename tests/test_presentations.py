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
    Interaction,
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_look_with_two_named_sides(name: str) -> None:
    look = get_game(name, GAMES[name]).presentation.look
    data = look.to_dict()
    assert len(data["sides"]) == 2
    names = [side["name"] for side in data["sides"]]
    assert all(n.strip() for n in names) and names[0] != names[1]
    colours = [data["board"], data["line"]] + [side["colour"] for side in data["sides"]]
    assert all(c.startswith("#") and len(c) == 7 for c in colours), colours
    assert look != Presentation.look or name == "blocking_queen"


def _compositions(interaction: Interaction, rng: random.Random) -> list[list[tuple[int, int]]]:
    """Every single part, or (for moves of several cells) some random sets of parts."""
    cells = [part.cell for part in interaction.parts]
    if interaction.count == 1:
        return [[cell] for cell in cells]
    if len(cells) < interaction.count:
        return []
    return [rng.sample(cells, interaction.count) for _ in range(30)]


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_moves_composed_from_parts_are_exactly_the_legal_moves(name: str, seed: int) -> None:
    """Where an interaction offers parts, every move a page composes from them is legal, and
    every listed move with cells is one a page can compose; a pass is the interaction's
    pass_move exactly when it can pass."""
    rng = random.Random(seed)
    for state in positions(name, seed, plies=25):
        shown = presentation_of(state)
        size = grid_size(shown, state)
        current = state.current_player()
        for player in range(state.info.num_players):
            interaction = shown.interaction(state, player)
            if interaction.kind is InteractionKind.WAIT:
                continue
            legal = set(state.legal_actions(player))
            assert (interaction.pass_move is not None) == interaction.can_pass
            if interaction.pass_move is not None:
                assert state.string_to_action(interaction.pass_move, player) in legal
            if not interaction.parts:
                continue
            if size is not None:
                assert all(0 <= r < size[0] and 0 <= c < size[1]
                           for r, c in (p.cell for p in interaction.parts))
            for cells in _compositions(interaction, rng):
                move = interaction.compose(cells)
                assert move is not None
                action = state.string_to_action(move, player)
                assert action in legal, (move, state)
                assert sorted(shown.action_cells(state, action)) == sorted(cells)
            if current == SIMULTANEOUS or len(legal) <= 1500:
                for choice in shown.choices(state, player):
                    if choice.cells:
                        composed = interaction.compose(list(choice.cells))
                        assert composed is not None, (choice, state)
                        assert state.string_to_action(composed, player) == choice.action


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_last_move_marks_its_cells_and_each_move_its_side(name: str, seed: int) -> None:
    """``display["last"]`` marks the last move (empty only after a pass), inside the board;
    move_sides
    names the player who made each move of a sequential game (both for a simultaneous
    turn)."""
    game = get_game(name, GAMES[name])
    start = game.new_initial_state(seed=seed % 1000)
    first = start.current_player()
    movers: list[int | None] = []
    for earlier, state in zip(positions(name, seed, plies=30), positions(name, seed, plies=30)[1:],
                              strict=False):
        mover = earlier.current_player()
        movers.append(None if mover == SIMULTANEOUS else mover)
        shown = presentation_of(state)
        last = shown.display(state, None).get("last")
        item = state.history()[-1]
        touched = [cell for action in (item if isinstance(item, tuple) else (item,))
                   for cell in shown.action_cells(earlier, action)]
        assert isinstance(last, list) and (bool(last) or not touched), (name, state)
        size = grid_size(shown, state)
        if size is not None:
            assert all(0 <= r < size[0] and 0 <= c < size[1] for r, c in last)
        history = state.history()
        assert shown.move_sides(first if first >= 0 else 0, history) == movers
    assert presentation_of(start).display(start, None).get("last", []) == []
