"""Tiny games on :mod:`lifearena.core`, and a few misbehaving agents, shared by the tests.

Not a test module: ``tests/conftest.py`` puts this folder on ``sys.path`` and imports it,
which registers the games (so the arena can find them by name) and the agents. Each game is
small enough that its best moves are known, so agents and the referee can be tested without
a real game:

* :class:`Nim` (``toy_nim``): one heap (a random 5..15 from a seed, or given), take 1..3,
  whoever takes the last stone wins; losing heaps are the multiples of 4.
* :class:`TicTacToe` (``toy_tictactoe``): noughts and crosses from any position.
* :class:`Pennies` (``toy_pennies``): one simultaneous round of matching pennies with a third,
  dominated choice.
* :class:`PenniesRounds` (``toy_pennies_rounds``): simultaneous with chance: before each of
  ``rounds`` rounds a fair coin says who is the matcher.
* :class:`Gamble` (``toy_gamble``): one decision, then an explicit chance node.
* Agents: :class:`FirstAgent` (``first``), :class:`CrashAgent` (``crash``),
  :class:`IllegalAgent`, :class:`SlowAgent`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import numpy as np

from lifearena.agents import Agent, Limit, register_agent
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
    register_game,
)
from lifearena.errors import ParseError


class FixedStart:
    """A toy game with one start: its setup is ``"start"``; parameters go to the constructor."""

    def setup(self) -> str:
        return "start"

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls(**params)


@register_game
class Nim(State):
    """One heap, take 1..3; whoever takes the last stone wins. Losing heaps: multiples of 4.
    The heap is the setup (``"7"``); :meth:`new_game` draws one of 5..15 from a seed."""

    info = GameInfo("toy_nim", "Nim (take 1-3)", Dynamics.SEQUENTIAL, Chance.SEEDED,
                    Information.PERFECT, num_distinct_actions=3, max_game_length=64,
                    player_symbols=("a", "b"))

    def __init__(self, heap: int = 10) -> None:
        super().__init__({})
        self.start = heap
        self.heap = heap
        self.to_move = 0
        self.last = -1

    @classmethod
    def new_game(cls, seed: int | None = 0) -> Nim:
        return cls(int(np.random.default_rng(seed).integers(5, 16)))

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
            raise ParseError(f"bad nim move {text!r}; expected take1..take3")
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


@register_game
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


@register_game
class Pennies(FixedStart, State):
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

    def __str__(self) -> str:
        return "pennies" if self.joint is None else f"pennies {self.joint}"


@register_game
class Gamble(FixedStart, State):
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

    def __str__(self) -> str:
        return f"gamble choice={self.choice} coin={self.coin}"


@register_game
class PenniesRounds(FixedStart, State):
    """Rounds of matching pennies; a fair coin picks the matcher before each round."""

    info: ClassVar[GameInfo] = GameInfo(
        name="toy_pennies_rounds", long_name="Rounds of matching pennies",
        dynamics=Dynamics.SIMULTANEOUS, chance=Chance.EXPLICIT,
        information=Information.PERFECT, num_distinct_actions=2, max_game_length=40,
        parameters={"rounds": 3})

    def __init__(self, rounds: int = 3) -> None:
        super().__init__({"rounds": rounds})
        self.rounds = rounds
        self.scores = [0, 0]
        self.matcher: int | None = None
        self.played = 0

    @classmethod
    def new_game(cls, seed: int | None = 0, rounds: int = 3) -> PenniesRounds:
        return cls(rounds)

    def current_player(self) -> int:
        if self.played == self.rounds:
            return TERMINAL
        return CHANCE if self.matcher is None else SIMULTANEOUS

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if self.current_player() == CHANCE else []

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _apply_action(self, action: int) -> None:
        self.matcher = action

    def _apply_actions(self, actions) -> None:
        assert self.matcher is not None
        same = actions[0] == actions[1]
        self.scores[self.matcher if same else 1 - self.matcher] += 1
        self.matcher = None
        self.played += 1

    def outcome(self) -> Outcome | None:
        if self.played < self.rounds:
            return None
        if self.scores[0] == self.scores[1]:
            return Outcome(Termination.DRAW, None, None)
        winner = 0 if self.scores[0] > self.scores[1] else 1
        return Outcome(Termination.WIN, winner, str(winner + 1))

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if self.current_player() == CHANCE and player is None:
            return f"matcher{action + 1}"
        return "HT"[action]

    def string_to_action(self, text: str, player: int | None = None) -> int:
        if text in ("matcher1", "matcher2"):
            return int(text[-1]) - 1
        if text not in ("H", "T"):
            raise ParseError(f"bad pennies move {text!r}; expected H or T")
        return "HT".index(text)

    def observation(self, player: int) -> np.ndarray:
        return np.array([[[*self.scores, self.played]]], dtype=np.int8)

    def __str__(self) -> str:
        return f"{self.scores} after {self.played}"


class FirstAgent(Agent):
    """Plays the first legal action (deterministic)."""

    name = "first"

    def act(self, state: State, player: int, limit: Limit | None = None) -> int:
        return state.legal_actions(player)[0]


class CrashAgent(Agent):
    name = "crash"

    def act(self, state: State, player: int, limit: Limit | None = None) -> int:
        raise RuntimeError("boom")


class IllegalAgent(Agent):
    name = "illegal"

    def act(self, state: State, player: int, limit: Limit | None = None) -> int:
        return 99


class SlowAgent(Agent):
    """Thinks for ``delay`` seconds, then plays the first legal action."""

    name = "slow"

    def __init__(self, delay: float = 0.05) -> None:
        self.delay = delay

    def act(self, state: State, player: int, limit: Limit | None = None) -> int:
        time.sleep(self.delay)
        return state.legal_actions(player)[0]


@register_agent("first", game="toy_nim")
@register_agent("first", game="toy_pennies_rounds")
def _make_first(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return FirstAgent()


@register_agent("crash", game="toy_nim")
def _make_crash(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return CrashAgent()


@register_agent("slow", game="toy_nim")
def _make_slow(game: str | None = None, seed: int | None = 0, delay: float = 0.05,
               **options: object) -> Agent:
    return SlowAgent(delay)
