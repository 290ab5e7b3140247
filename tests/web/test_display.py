"""The display hooks every game offers pages: JSON-able, consistent with the legal moves."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from lifearena.core import SIMULTANEOUS, State, presentation_of
from lifearena.web import catalog


def shown(state: State) -> dict[str, Any]:
    """What a spectator's page draws of ``state``."""
    return presentation_of(state).display(state, None)


def _play_randomly(state: State, plies: int, seed: int) -> list[State]:
    rng = np.random.default_rng(seed)
    seen = [state.clone()]
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.current_player() == SIMULTANEOUS:
            choices = [state.legal_actions(p) for p in (0, 1)]
            state.apply_actions([int(rng.choice(c)) for c in choices])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("game", catalog.GAMES)
def test_display_and_action_cells_fit_the_board(game: str) -> None:
    params = {"width": 9, "length": 13} if game == "losat" else {}
    for seed in range(3):
        for state in _play_randomly(catalog.new_state(game, params), 12, seed):
            data = shown(state)
            assert json.loads(json.dumps(data)) == data
            if "grid" in data:
                rows, cols = data["grid"]["rows"], data["grid"]["cols"]
                assert len(data["grid"]["cells"]) == len(data["grid"]["row_labels"]) == rows
                for r, c in data["births"] + data["deaths"]:
                    assert data["before"] is not None and 0 <= r < rows and 0 <= c < cols
            else:
                rows = cols = max(data["start"]) + 1
                assert data["queen"] not in data["blocked"]
            # the last move's cells, which a page marks, lie on the board
            assert all(0 <= r < rows and 0 <= c < cols for r, c in data["last"])
            players = [0, 1] if state.current_player() == SIMULTANEOUS else (
                [state.current_player()] if not state.is_terminal() else [])
            for player in players:
                for action in state.legal_actions(player)[:400]:
                    for r, c in presentation_of(state).action_cells(state, action):
                        assert 0 <= r < rows and 0 <= c < cols


def test_the_war_of_life_display_shows_the_board_before_the_crank() -> None:
    state = catalog.new_state("war_of_life", {"start": "random", "seed": 4})
    action = state.legal_actions()[0]
    source, target = presentation_of(state).action_cells(state, action)
    state.apply_action(action)
    data = shown(state)
    before = np.array(data["before"])
    assert before[source] == 0 and before[target] == 1
    after = np.array(data["grid"]["cells"])
    born = {tuple(c) for c in data["births"]}
    died = {tuple(c) for c in data["deaths"]}
    changed = {tuple(c) for c in np.argwhere((before != 0) != (after != 0)).tolist()}
    assert born | died == changed and not born & died
