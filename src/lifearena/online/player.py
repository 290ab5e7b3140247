"""One online game from a bot's side: the position rebuilt from the game's parameters, start
and moves (a replay through :mod:`lifearena.core`), and the agent's move within the clock.

The agent is any the arena knows (:class:`~lifearena.arena.ladder.Entrant`): a built-in
name with options (``alphabeta:time=0.5``), ``module:callable`` or ``file.py:callable``,
``prolog:FILE:PREDICATE``, ``policy:FILE``, or a program speaking the JSON-lines bot protocol
(``docs/bots.md``). It sees ``state.view(seat)`` only, as in the arena.

>>> position("blocking_queen", {"k": 2}, "9,14", ["5,10"]).move_number()
1
>>> think_limit({"clock": {"control": {"kind": "live", "minutes": 1, "increment": 0},
...                        "remaining_ms": [30000, 60000]}}, 0, per_move=5.0).time
1.0
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from lifearena.agents.base import Agent, Limit
from lifearena.agents.bot import parse_bot_spec
from lifearena.arena.ladder import Entrant
from lifearena.core import Record, State, replay
from lifearena.errors import BadParameterError

CLOCK_SHARE = 30
"""A live clock's time left over this (plus half the increment) is the most one move
takes."""
SHORTEST_THOUGHT = 0.05


def position(game: str, params: dict[str, Any], setup: str, moves: Sequence[str]) -> State:
    """The state after ``moves`` (the game's notation, as the server lists them)."""
    return replay(Record(game, dict(params), setup, ["", ""], list(moves)))


def think_limit(state: dict[str, Any], seat: int, per_move: float) -> Limit:
    """How long the agent may think for ``seat`` given a ``gameState``: ``per_move``
    seconds, less on a live clock that runs short."""
    seconds = per_move
    clock = state.get("clock")
    if clock and clock.get("control", {}).get("kind") == "live":
        left = clock["remaining_ms"][seat] / 1000
        increment = float(clock["control"].get("increment") or 0)
        seconds = min(seconds, left / CLOCK_SHARE + increment / 2)
    return Limit(time=max(SHORTEST_THOUGHT, seconds))


class AgentMaker:
    """Makes the agent of each game from ``--agent SPEC`` or ``--command COMMAND``."""

    def __init__(self, spec: str | None, command: str | None, per_move: float) -> None:
        if (spec is None) == (command is None):
            raise BadParameterError("give one of --agent SPEC or --command 'PROGRAM ARGS'")
        if command is not None:
            label, argv = parse_bot_spec(command)
            self.entrant = Entrant.bot(label, argv, per_move=per_move)
        else:
            assert spec is not None
            self.entrant = Entrant.parse(spec)
        self.per_move = per_move
        self._plays: dict[str, str | None] = {}

    @property
    def label(self) -> str:
        return self.entrant.label

    def make(self, game: str, seed: int) -> Agent:
        """A fresh agent for one game of ``game``."""
        return self.entrant.make(game, seed)

    def problem(self, game: str) -> str | None:
        """Why this agent cannot play ``game`` (``None``: it can), found once per game."""
        if game not in self._plays:
            try:
                close(self.make(game, 0))
                self._plays[game] = None
            except (BadParameterError, ValueError, TypeError, OSError) as error:
                self._plays[game] = str(error).splitlines()[0][:200] or type(error).__name__
        return self._plays[game]


def choose(agent: Agent, state: State, seat: int, limit: Limit) -> str:
    """The agent's move for ``seat`` in ``state``, in the game's notation."""
    action = agent.act(state.view(seat), seat, limit)
    return state.action_to_string(action, seat)


def close(agent: Agent, outcome: Any = None) -> None:
    """Let an agent go (a bot program is told the end and stopped)."""
    with contextlib.suppress(Exception):
        end = getattr(agent, "end_game", None)
        if callable(end):
            end(outcome)
            return
        stop = getattr(agent, "close", None)
        if callable(stop):
            stop()


__all__ = ["AgentMaker", "choose", "close", "position", "think_limit"]
