"""The referee: plays one game between two agents and records it.

:func:`play_game` starts from a setup (or a seed), asks the agent to move at each of its nodes
with only ``state.view(player)`` in hand, samples chance nodes from an explicit seed, collects
both actions at a simultaneous node before applying them, times every move, and returns a
:class:`GameResult` (outcome, moves in notation, seconds per side, the :class:`Record`).

An agent that raises, returns an illegal action, or exceeds its :class:`TimeControl` forfeits:
the outcome is :attr:`Termination.FORFEIT`, the other side wins, and ``outcome.detail`` says
why. The referee never raises because of an agent, so a tournament goes on.

Agents are ordinary :class:`~lifearena.agents.Agent` objects. Two optional hooks let agents that
live elsewhere (a bot in a subprocess speaking JSON lines) follow the game:
``agent.start_game(state_view, player, time_control)`` is called before the first move and
``agent.end_game(result)`` after the last (also after a forfeit). The limit passed to ``act``
carries the time the agent has left for this move, so a bot can be told its clock; a bot
adapter that enforces its own deadline raises :class:`AgentTimeout` (or any exception).

>>> from lifearena.arena.referee import TimeControl
>>> TimeControl(per_move=0.5).allowance(used=0.0)
0.5
>>> TimeControl(per_move=2.0, total=3.0).allowance(used=2.5)
0.5
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lifearena.agents.base import Agent, AgentTimeout, IllegalAction, Limit, TimeControl
from lifearena.core import (
    CHANCE,
    SIMULTANEOUS,
    Action,
    GameInfo,
    Outcome,
    Record,
    State,
    Termination,
    game_type,
    load_game,
)
from lifearena.errors import BadParameterError


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    """A JSON-able form of an :class:`Outcome`."""
    return {"termination": outcome.termination.value, "winner": outcome.winner,
            "winner_symbol": outcome.winner_symbol, "detail": outcome.detail}


def outcome_from_dict(data: Mapping[str, Any]) -> Outcome:
    """The :class:`Outcome` that :func:`outcome_to_dict` wrote."""
    return Outcome(Termination(data["termination"]), data["winner"], data.get("winner_symbol"),
                   data.get("detail", ""))


@dataclass
class GameResult:
    """One finished game as the arena stores it.

    ``moves`` are in the game's notation (chance outcomes included, joint moves joined with
    ``" | "``), exactly as in ``record``; ``length`` counts the players' moves (a joint move
    counts once, chance outcomes not at all). ``seconds`` is the thinking time of each side,
    or ``None`` when only the game's total ``duration`` is known (fast paths).
    """

    game: str
    params: dict[str, Any]
    setup: str
    players: list[str]
    moves: list[str]
    outcome: Outcome
    length: int
    duration: float
    record: Record
    seconds: tuple[float, ...] | None = None
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        return self.outcome.winner

    @property
    def forfeit(self) -> bool:
        return self.outcome.termination == Termination.FORFEIT

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; game, parameters, setup, players and moves live in ``record``
        only (stored once)."""
        return {
            "outcome": outcome_to_dict(self.outcome), "length": self.length,
            "duration": self.duration,
            "seconds": None if self.seconds is None else list(self.seconds),
            "seed": self.seed, "record": json_record(self.record), "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        raw = data["record"]
        record = Record(**raw) if isinstance(raw, dict) else Record.load(raw)
        return cls(
            game=record.game, params=dict(record.params), setup=record.setup,
            players=list(record.players), moves=list(record.moves),
            outcome=outcome_from_dict(data["outcome"]), length=int(data["length"]),
            duration=float(data["duration"]), record=record,
            seconds=None if data.get("seconds") is None else tuple(data["seconds"]),
            seed=data.get("seed"), extra=dict(data.get("extra") or {}),
        )


def json_record(record: Record) -> dict[str, Any]:
    """A record as a plain dict (what :meth:`Record.to_json` serialises)."""
    return dict(record.__dict__)


# -- starting positions -----------------------------------------------------------------------

def game_class(game: str | type[State]) -> type[State]:
    """The state class for ``game`` (a registered name, or the class itself)."""
    return game if isinstance(game, type) else load_game(game)


def initial_state(game: str | type[State], *, setup: str | None = None, seed: int | None = None,
                  params: Mapping[str, Any] | None = None) -> State:
    """The start of a game of ``game`` with ``params`` (checked against the game's specs):
    the position ``setup`` when one is given, else the game's start for ``seed`` (a random
    start where the game has one; ``None``: the game's own ``seed`` parameter).

    >>> initial_state("losat", params={"width": 9}).game
    LosatGame(width=9)
    """
    kind = game.game_type if isinstance(game, type) else game_type(game)
    made = kind(params or {})
    return made.state_from_setup(setup) if setup is not None else made.new_initial_state(seed)


# -- playing ----------------------------------------------------------------------------------

def _limit_for(base: Limit | None, allowance: float | None) -> Limit | None:
    if allowance is None:
        return base
    allowance = max(allowance, 1e-6)  # a Limit must be positive
    if base is None:
        return Limit(time=allowance)
    time_bound = allowance if base.time is None else min(base.time, allowance)
    return Limit(time=time_bound, nodes=base.nodes, simulations=base.simulations,
                 depth=base.depth)


class Forfeit(Exception):
    """An agent lost the game by failing: ``player`` (-1: both sides at once), ``reason``
    (``crash``, ``timeout``, ``illegal`` or ``both``) and the ``detail`` in words."""

    def __init__(self, player: int, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.player, self.reason, self.detail = player, reason, detail


def forfeit_outcome(info: GameInfo, player: int | None, detail: str = "") -> Outcome:
    """The outcome of a game that ``player`` forfeited (``None``: both sides at once): the
    other side of a two-player game wins; otherwise nobody does.

    >>> from lifearena.core import load_game
    >>> forfeit_outcome(load_game("war_of_life").info, 0, "blue crashed")
    Outcome(termination=<Termination.FORFEIT: 'forfeit'>, winner=1, winner_symbol='r', \
detail='blue crashed')
    """
    winner = 1 - player if player is not None and info.num_players == 2 else None
    symbol = info.player_symbols[winner] if winner is not None else None
    return Outcome(Termination.FORFEIT, winner, symbol, detail)


def _forfeit_outcome(failures: Sequence[Forfeit], info: GameInfo) -> tuple[Outcome, str]:
    """The outcome when ``failures`` ended the game, and the reason to record."""
    if len(failures) > 1:
        failures = [Forfeit(-1, "both", "; ".join(f.detail for f in failures))]
    failure = failures[0]
    player = None if failure.player < 0 else failure.player
    return forfeit_outcome(info, player, failure.detail), failure.reason


def ask_agent(state: State, player: int, agent: Agent, name: str,
              limit: Limit | None = None) -> Action:
    """One legal move of ``agent`` (called ``name``) as ``player`` on ``state``'s view, or
    :class:`Forfeit` when the agent crashes, runs out of time or plays an illegal move: the
    referee's judgement of one move, for other loops that seat agents (terminal play)."""
    return _ask(state, player, agent, name, limit, None, 0.0)[0]


def _ask(state: State, player: int, agent: Agent, name: str, limit: Limit | None,
         allowance: float | None, grace: float) -> tuple[Action, float]:
    """One move of ``agent``: its action and the seconds it took; raises Forfeit."""
    view = state.view(player)
    start = time.perf_counter()
    try:
        action = agent.act(view, player, _limit_for(limit, allowance))
    except AgentTimeout as error:
        raise Forfeit(player, "timeout", f"{name} ran out of time ({error})") from None
    except IllegalAction as error:
        raise Forfeit(player, "illegal", f"{name} played an illegal move ({error})") from None
    except Exception as error:  # any crash of an agent forfeits; the arena goes on
        raise Forfeit(player, "crash",
                       f"{name} crashed: {type(error).__name__}: {error}") from None
    elapsed = time.perf_counter() - start
    if allowance is not None and elapsed > allowance + grace:
        raise Forfeit(player, "timeout",
                       f"{name} took {elapsed:.3f} s; it had {allowance:.3f} s")
    try:
        legal = action in state.legal_actions(player)
    except TypeError:
        legal = False
    if not legal or isinstance(action, bool):
        shown = _show(state, action, player)
        raise Forfeit(player, "illegal", f"{name} played an illegal move {shown}")
    return int(action), elapsed


def _show(state: State, action: object, player: int) -> str:
    try:
        return repr(state.action_to_string(int(action), player))  # type: ignore[call-overload]
    except Exception:
        return repr(action)


def play_game(
    game: str | type[State],
    agents: Sequence[Agent],
    *,
    setup: str | None = None,
    seed: int | None = 0,
    params: Mapping[str, Any] | None = None,
    state: State | None = None,
    names: Sequence[str] | None = None,
    limits: Sequence[Limit | None] | None = None,
    time_control: TimeControl | None = None,
    max_moves: int | None = None,
) -> GameResult:
    """Play one game of ``game`` between ``agents`` (seat 0 first) and return its result.

    The start is ``state`` if given, else ``setup`` (with ``params``), else the game's random
    start from ``seed``. ``seed`` also drives the chance nodes. ``limits`` are the agents'
    thinking limits (nodes, depth...), tightened by ``time_control``. ``max_moves`` stops a
    game early as a draw (:attr:`Termination.LIMIT`).
    """
    cls = game_class(game)
    info = cls.info
    if len(agents) != info.num_players:
        raise BadParameterError(f"{info.name} needs {info.num_players} agents; got {len(agents)}")
    if state is None:
        state = initial_state(cls, setup=setup, seed=seed, params=params)
    else:
        state = state.clone()
    names = list(names) if names is not None else [a.name for a in agents]
    limits = list(limits) if limits is not None else [None] * info.num_players
    chance_rng = np.random.default_rng(seed)
    used = [0.0] * info.num_players
    moves_made = [0] * info.num_players
    grace = time_control.grace if time_control else 0.0
    start_setup = state.setup()
    start_history = len(state.history())

    outcome: Outcome | None = None
    forfeit_reason = ""
    unstarted: list[Forfeit] = []
    for player, agent in enumerate(agents):
        try:
            agent.reset()
            hook = getattr(agent, "start_game", None)
            if hook is not None:
                hook(state.view(player), player, time_control)
        except Exception as error:  # a bot that cannot start forfeits like one that crashes
            unstarted.append(Forfeit(player, "crash", f"{names[player]} could not start: "
                                      f"{type(error).__name__}: {error}"))
    if unstarted:
        outcome, forfeit_reason = _forfeit_outcome(unstarted, info)
    length = 0
    wall = time.perf_counter()
    while outcome is None:
        outcome = state.outcome()
        if outcome is not None:
            break
        if max_moves is not None and length >= max_moves:
            outcome = Outcome(Termination.LIMIT, None, None, f"referee stopped at {max_moves}")
            break
        current = state.current_player()
        try:
            if current == CHANCE:
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                p = np.asarray(probs, dtype=float)
                state.apply_action(int(actions[chance_rng.choice(len(actions), p=p / p.sum())]))
                continue
            movers = range(info.num_players) if current == SIMULTANEOUS else [current]
            chosen: list[Action] = []
            failures: list[Forfeit] = []
            for player in movers:
                allowance = (time_control.allowance(used[player], moves_made[player])
                             if time_control else None)
                try:
                    action, elapsed = _ask(state, player, agents[player], names[player],
                                           limits[player], allowance, grace)
                except Forfeit as failure:
                    failures.append(failure)
                    continue
                used[player] += elapsed
                moves_made[player] += 1
                chosen.append(action)
            if failures:
                outcome, forfeit_reason = _forfeit_outcome(failures, info)
                break
            if current == SIMULTANEOUS:
                state.apply_actions(chosen, check=False)
            else:
                state.apply_action(chosen[0], check=False)
            length += 1
        except Forfeit as failure:
            outcome, forfeit_reason = _forfeit_outcome([failure], info)
    duration = time.perf_counter() - wall

    moves = state.history_strings()[start_history:]
    extra: dict[str, Any] = {"seed": seed}
    if forfeit_reason:
        extra["forfeit"] = forfeit_reason
    record = Record(game=info.name, params=dict(state.params), setup=start_setup,
                    players=list(names), moves=moves, result=str(outcome), extra=extra,
                    outcome=outcome.to_dict(), version=info.rules_version)
    result = GameResult(
        game=info.name, params=dict(state.params), setup=start_setup, players=list(names),
        moves=moves, outcome=outcome, length=length, duration=duration, record=record,
        seconds=tuple(used), seed=seed, extra={"forfeit": forfeit_reason} if forfeit_reason
        else {},
    )
    for agent in agents:
        hook = getattr(agent, "end_game", None)
        if hook is not None:
            with contextlib.suppress(Exception):  # a bot failing to say goodbye changes nothing
                hook(result)
    return result


def result_from_moves(game: str | type[State], setup: str, players: Sequence[str],
                      moves: Sequence[str], outcome: Outcome, seconds: float, *,
                      params: Mapping[str, Any] | None = None,
                      seed: int | None = None) -> GameResult:
    """A :class:`GameResult` for a game played elsewhere (a game's fast path):
    ``seconds`` is the whole game's time, split per side unknown."""
    info = game_class(game).info
    length = len(moves)  # fast paths play games without chance nodes
    record = Record(game=info.name, params=dict(params or {}), setup=setup,
                    players=list(players), moves=list(moves), result=str(outcome),
                    extra={"seed": seed, "fast_path": True}, outcome=outcome.to_dict(),
                    version=info.rules_version)
    duration = float(seconds) if math.isfinite(seconds) else 0.0
    return GameResult(game=info.name, params=dict(params or {}), setup=setup,
                      players=list(players), moves=list(moves), outcome=outcome, length=length,
                      duration=duration, record=record, seconds=None, seed=seed,
                      extra={"fast_path": True})
