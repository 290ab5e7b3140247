"""Tiny games on :mod:`lifearena.core` for the search-agent tests (not a test module).

Loaded by path from the test files (``load_toys()``), since tests are imported with
``--import-mode=importlib``. Each game is small enough that its best moves are known.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from lifearena.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Chance,
    Dynamics,
    GameInfo,
    Information,
    Outcome,
    State,
    Termination,
)
from lifearena.errors import ParseError


class Nim(State):
    """One heap, take 1..3; whoever takes the last stone wins. Losing heaps: multiples of 4."""

    info = GameInfo("toy_nim", "Nim (take 1-3)", Dynamics.SEQUENTIAL, Chance.DETERMINISTIC,
                    Information.PERFECT, num_distinct_actions=3, max_game_length=64,
                    player_symbols=("a", "b"))

    def __init__(self, heap: int = 10) -> None:
        super().__init__({"heap": heap})
        self.start = heap
        self.heap = heap
        self.to_move = 0
        self.last = -1

    def current_player(self) -> int:
        return TERMINAL if self.heap == 0 else self.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return [a for a in range(3) if a + 1 <= self.heap]

    def _apply_action(self, action: int) -> None:
        self.heap -= action + 1
        self.last = self.to_move
        self.to_move = 1 - self.to_move

    def outcome(self) -> Outcome | None:
        if self.heap:
            return None
        return Outcome(Termination.WIN, self.last, "ab"[self.last])

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return f"take{action + 1}"

    def string_to_action(self, text: str, player: int | None = None) -> int:
        if text not in ("take1", "take2", "take3"):
            raise ParseError(f"bad move {text!r}; expected take1..take3")
        return int(text[-1]) - 1

    def observation(self, player: int) -> np.ndarray:
        obs = np.zeros((2, 1, 64), dtype=np.int8)
        obs[0, 0, : self.heap] = 1
        obs[1, 0, :] = self.to_move
        return obs

    def setup(self) -> str:
        return str(self.start)

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls(int(setup))

    def __str__(self) -> str:
        return f"heap {self.heap}, {'ab'[self.to_move]} to move"


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(State):
    """Noughts and crosses; setup is 9 characters of ``x``, ``o``, ``.``; x moves first."""

    info = GameInfo("toy_tictactoe", "Tic-tac-toe", Dynamics.SEQUENTIAL, Chance.DETERMINISTIC,
                    Information.PERFECT, num_distinct_actions=9, max_game_length=9,
                    player_symbols=("x", "o"))

    def __init__(self, board: str = ".........") -> None:
        super().__init__({})
        self.start = board
        self.cells = [".xo".index(c) for c in board]

    def _winner(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a] - 1
        return None

    def current_player(self) -> int:
        if self._winner() is not None or all(self.cells):
            return TERMINAL
        return 0 if self.cells.count(1) == self.cells.count(2) else 1

    def _legal_actions(self, player: int) -> list[int]:
        return [i for i, c in enumerate(self.cells) if not c]

    def _apply_action(self, action: int) -> None:
        self.cells[action] = self.current_player() + 1

    def outcome(self) -> Outcome | None:
        winner = self._winner()
        if winner is not None:
            return Outcome(Termination.WIN, winner, "xo"[winner])
        if all(self.cells):
            return Outcome(Termination.DRAW, None)
        return None

    def evaluate(self, player: int) -> float:
        if self.is_terminal():
            return self.returns()[player]
        return 0.0

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return str(action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        if text not in tuple("012345678"):
            raise ParseError(f"bad cell {text!r}; expected 0..8")
        return int(text)

    def observation(self, player: int) -> np.ndarray:
        cells = np.array(self.cells, dtype=np.int8).reshape(3, 3)
        return np.stack([(cells == 1), (cells == 2)]).astype(np.int8)

    def setup(self) -> str:
        return self.start

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls(setup)

    def __str__(self) -> str:
        return "".join(".xo"[c] for c in self.cells)


class Pennies(State):
    """Matching pennies with a third, dominated choice for each player.

    Player 0 wins when the coins match (H/H or T/T), player 1 when they differ; choosing
    ``X`` (action 2) always loses. The unique equilibrium is H/T at 50/50 each.
    """

    info = GameInfo("toy_pennies", "Matching pennies", Dynamics.SIMULTANEOUS,
                    Chance.DETERMINISTIC, Information.PERFECT, num_distinct_actions=3,
                    max_game_length=1, player_symbols=("m", "d"))

    def __init__(self) -> None:
        super().__init__({})
        self.joint: tuple[int, ...] | None = None

    def current_player(self) -> int:
        return SIMULTANEOUS if self.joint is None else TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2]

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self.joint = tuple(actions)

    def outcome(self) -> Outcome | None:
        if self.joint is None:
            return None
        a, b = self.joint
        if a == 2 and b == 2:
            return Outcome(Termination.DRAW, None)
        winner = (1 if a == 2 else 0) if a == 2 or b == 2 else 0 if a == b else 1
        return Outcome(Termination.WIN, winner, "md"[winner])

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return "HTX"[action]

    def string_to_action(self, text: str, player: int | None = None) -> int:
        if text not in ("H", "T", "X"):
            raise ParseError(f"bad coin {text!r}; expected H, T or X")
        return "HTX".index(text)

    def observation(self, player: int) -> np.ndarray:
        return np.zeros((1, 1, 1), dtype=np.int8)

    def setup(self) -> str:
        return "start"

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls()

    def __str__(self) -> str:
        return "pennies" if self.joint is None else f"pennies {self.joint}"


class Gamble(State):
    """Player 0 chooses ``safe`` (a draw) or ``bet`` (then a chance node: win with
    probability ``p``, else lose). With p = 0.8 betting is right; with p = 0.2, safe is."""

    info = GameInfo("toy_gamble", "Gamble", Dynamics.SEQUENTIAL, Chance.EXPLICIT,
                    Information.PERFECT, num_distinct_actions=2, max_game_length=2,
                    player_symbols=("g", "h"))

    def __init__(self, p: float = 0.8) -> None:
        super().__init__({"p": p})
        self.p = p
        self.choice: int | None = None
        self.coin: int | None = None

    def current_player(self) -> int:
        if self.choice is None:
            return 0
        if self.choice == 1 and self.coin is None:
            return CHANCE
        return TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 1 - self.p), (1, self.p)]

    def _apply_action(self, action: int) -> None:
        if self.choice is None:
            self.choice = action
        else:
            self.coin = action

    def outcome(self) -> Outcome | None:
        if self.current_player() != TERMINAL:
            return None
        if self.choice == 0:
            return Outcome(Termination.DRAW, None)
        winner = 0 if self.coin == 1 else 1
        return Outcome(Termination.WIN, winner, "gh"[winner])

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if self.choice is not None:
            return ("lose", "win")[action]
        return ("safe", "bet")[action]

    def string_to_action(self, text: str, player: int | None = None) -> int:
        for names in (("safe", "bet"), ("lose", "win")):
            if text in names:
                return names.index(text)
        raise ParseError(f"bad move {text!r}; expected safe, bet, lose or win")

    def observation(self, player: int) -> np.ndarray:
        obs = np.zeros((1, 1, 2), dtype=np.int8)
        obs[0, 0, 0] = -1 if self.choice is None else self.choice
        obs[0, 0, 1] = -1 if self.coin is None else self.coin
        return obs

    def setup(self) -> str:
        return "start"

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls(**params)

    def __str__(self) -> str:
        return f"gamble choice={self.choice} coin={self.coin}"
