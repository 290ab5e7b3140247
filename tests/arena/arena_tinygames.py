"""Two tiny games and a few misbehaving agents, so the arena's tests need no real game.

* ``nim_test``: sequential; a pile of stones (a random 5..15 from a seed), take 1-3, whoever
  takes the last stone wins.
* ``pennies_test``: simultaneous with chance; before each of ``rounds`` rounds a fair coin says
  who is the matcher; both show H or T at once; the matcher scores when they match, the other
  player when they differ. More points wins; equal is a draw.
"""

from __future__ import annotations

import time
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


@register_game
class NimState(State):
    info: ClassVar[GameInfo] = GameInfo(
        name="nim_test", long_name="Nim (test)", dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.SEEDED, information=Information.PERFECT, num_distinct_actions=3,
        max_game_length=30, player_symbols=("A", "B"))

    def __init__(self, pile: int = 10) -> None:
        super().__init__({})
        self.start = pile
        self.pile = pile

    @classmethod
    def new_game(cls, seed: int | None = 0) -> NimState:
        return cls(int(np.random.default_rng(seed).integers(5, 16)))

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else len(self._history) % 2

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(min(3, self.pile)))

    def _apply_action(self, action: int) -> None:
        self.pile -= action + 1

    def outcome(self) -> Outcome | None:
        if self.pile:
            return None
        winner = (len(self._history) - 1) % 2
        return Outcome(Termination.WIN, winner, "AB"[winner])

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return f"take{action + 1}"

    def string_to_action(self, text: str, player: int | None = None) -> int:
        if text not in ("take1", "take2", "take3"):
            raise ParseError(f"bad nim move {text!r}; expected take1..take3")
        return int(text[-1]) - 1

    def observation(self, player: int) -> np.ndarray:
        return np.array([[[self.pile]]], dtype=np.int8)

    def setup(self) -> str:
        return str(self.start)

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls(int(setup))

    def __str__(self) -> str:
        return f"pile {self.pile}"


@register_game
class PenniesState(State):
    info: ClassVar[GameInfo] = GameInfo(
        name="pennies_test", long_name="Matching pennies (test)",
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
    def new_game(cls, seed: int | None = 0, rounds: int = 3) -> PenniesState:
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

    def setup(self) -> str:
        return "start"

    @classmethod
    def from_setup(cls, setup: str, **params: Any) -> Self:
        return cls(**params)

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


@register_agent("first", game="nim_test")
@register_agent("first", game="pennies_test")
def _make_first(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return FirstAgent()


@register_agent("crash", game="nim_test")
def _make_crash(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return CrashAgent()


@register_agent("slow", game="nim_test")
def _make_slow(game: str | None = None, seed: int | None = 0, delay: float = 0.05,
               **options: object) -> Agent:
    return SlowAgent(delay)
