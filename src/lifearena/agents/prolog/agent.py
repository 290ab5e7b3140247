"""The Prolog bridge: a War of Life strategy written in Prolog, played as a bot.

:class:`PrologAgent` runs SWI-Prolog (``swipl``) on lifearena's driver (``driver.pl``, next to
this file), which loads the board predicates (``war_of_life.pl``) and the student's file, then
speaks the JSON-lines bot protocol of :mod:`lifearena.agents.bot`, calling
``PREDICATE(Colour, Board, NewBoardState, Move)`` once per move. This side checks every answer:

* the predicate failed or threw -> :class:`PrologStrategyError` (the referee records a
  ``crash``),
* ``Move`` is not a list of 4 integers -> :class:`PrologMalformedMove` (``illegal``, detail
  starting "garbage"),
* ``Move`` is not legal -> :class:`~lifearena.agents.bot.BotIllegalMove` (``illegal``),
* ``NewBoardState`` is not the board after ``Move`` -> :class:`PrologBoardMismatch`
  (``illegal``),
* no answer in time (an endless loop) -> :class:`~lifearena.agents.bot.BotTimeout`
  (``timeout``); the process is killed.

One ``swipl`` process serves the agent from game to game, as one Prolog session plays all of
the coursework's ``test_strategy/3`` games; it is restarted after any failure.

>>> parse_prolog_spec("examples/prolog/bloodlust.pl:bloodlust")
(PosixPath('examples/prolog/bloodlust.pl'), 'bloodlust')
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from lifearena.agents.base import Agent, Limit, TimeControl
from lifearena.agents.bot import (
    PROTOCOL_VERSION,
    BotAgent,
    BotError,
    BotGarbage,
    BotIllegalMove,
)
from lifearena.agents.registry import register_spec
from lifearena.core import Action, State, load_game
from lifearena.errors import BadParameterError

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "driver.pl"
"""The Prolog driver speaking the bot protocol."""
BOARD_PREDICATES = HERE / "war_of_life.pl"
"""The board predicates (``next_generation/2``, ``neighbour_position/3``, ...)."""
SWIPL_PACKAGE = "swi-prolog-nox"
"""The Debian package that provides ``swipl``."""
SWIPL_ENV = "LIFEARENA_SWIPL"
"""Environment variable naming the ``swipl`` program to run (default: ``swipl`` on PATH)."""
DEFAULT_PER_MOVE = 10.0
"""Seconds per move when no time control is given: an endless loop is stopped after this."""
STARTUP_TIMEOUT = 30.0
"""Seconds allowed for ``swipl`` to load the driver and the strategy file (off the clock)."""
STACK_LIMIT = "512m"
"""SWI-Prolog's stack limit: a runaway recursion throws a resource error instead of eating
the machine's memory."""

SPEC_PREFIX = "prolog:"
"""Agent names starting with this are Prolog strategies: ``prolog:FILE:PREDICATE``."""

_ATOM = re.compile(r"[a-z][A-Za-z0-9_]*")


class SwiplNotFound(BadParameterError):
    """SWI-Prolog is not installed (or not where ``LIFEARENA_SWIPL`` says)."""


class PrologStrategyError(RuntimeError, BotError):
    """The strategy predicate failed or threw an exception (or the file did not load)."""


class PrologMalformedMove(BotGarbage):
    """The strategy's ``Move`` is not a list ``[R1,C1,R2,C2]`` of 4 integers."""


class PrologBoardMismatch(BotIllegalMove):
    """The strategy's ``NewBoardState`` is not the board after its ``Move``."""


def find_swipl() -> str:
    """The ``swipl`` program to run; :class:`SwiplNotFound` (one line naming the Debian
    package) when there is none."""
    wanted = os.environ.get(SWIPL_ENV) or "swipl"
    found = shutil.which(wanted)
    if found is None:
        raise SwiplNotFound(f"Prolog strategies need SWI-Prolog, but {wanted!r} was not found; "
                            f"install it (Debian/Ubuntu: apt-get install {SWIPL_PACKAGE}) or "
                            f"set {SWIPL_ENV} to the swipl program")
    return found


def parse_prolog_spec(text: str) -> tuple[Path, str]:
    """``"FILE:PREDICATE"`` -> ``(Path(FILE), PREDICATE)``; the predicate must be a plain
    Prolog atom (lower-case letter first).

    >>> parse_prolog_spec("my strategies.pl:Bloodlust")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: bad Prolog predicate 'Bloodlust' in ...
    """
    file, colon, predicate = text.strip().rpartition(":")
    if not colon or not file:
        raise BadParameterError(f"bad Prolog strategy {text!r}; expected FILE:PREDICATE, e.g. "
                                "my_strategies.pl:bloodlust")
    if not _ATOM.fullmatch(predicate):
        raise BadParameterError(f"bad Prolog predicate {predicate!r} in {text!r}; expected a "
                                "name such as bloodlust (a lower-case letter, then letters, "
                                "digits or _)")
    return Path(file), predicate


class PrologAgent(BotAgent):
    """A War of Life strategy ``predicate/4`` in the Prolog ``file`` (see the module doc).

    ``time_control`` bounds each move (default :data:`DEFAULT_PER_MOVE` seconds per move);
    the referee's time control replaces it when a game has one.
    """

    def __init__(self, file: str | os.PathLike[str], predicate: str,
                 time_control: TimeControl | None = None, name: str | None = None) -> None:
        swipl = find_swipl()
        path = Path(file)
        if not path.is_file():
            raise BadParameterError(f"Prolog strategy file {str(file)!r} not found; expected "
                                    "a .pl file defining the strategy predicate")
        if not _ATOM.fullmatch(predicate):
            raise BadParameterError(f"bad Prolog predicate {predicate!r}; expected a name such "
                                    "as bloodlust")
        self.file = path.resolve()
        self.predicate = predicate
        command = [swipl, f"--stack-limit={STACK_LIMIT}", "-q", str(DRIVER), "--",
                   str(self.file), predicate]
        super().__init__(command, time_control=time_control or TimeControl(DEFAULT_PER_MOVE),
                         name=name or f"{path.stem}:{predicate}", send_observation=False)
        self._healthy = False
        self._load_error: BotError | None = None

    # -- one swipl session for many games ------------------------------------------------------

    def reset(self) -> None:
        """Keep the Prolog session between games (it is restarted after a failure)."""

    def start_game(self, state: State, player: int,
                   time_control: TimeControl | None = None) -> None:
        """Start ``swipl`` if it is not running and wait until the strategy file is loaded (a
        failure is kept and raised at the first move, so that the referee records it)."""
        if time_control is not None:
            self.time_control = time_control
        self._seat = player
        self._load_error = None
        try:
            self.check_loads()
        except BotError as error:
            self._load_error = error
            return
        self._used = 0.0
        self._moves = 0
        symbol = state.info.player_symbols[player]
        try:
            self._send({"type": "start", "protocol": PROTOCOL_VERSION, "game": state.info.name,
                        "setup": state.setup(), "seat": player, "symbol": symbol})
        except BotError as error:
            self._load_error = error
            self.close()

    def check_loads(self) -> None:
        """Start ``swipl`` now and raise :class:`PrologStrategyError` (a ``BotError``) when
        the file does not load or does not define the predicate, so that a command can
        refuse the strategy before a game; the session is kept for the games."""
        if self._healthy and self._proc is not None and self._proc.poll() is None:
            return
        self._healthy = False
        try:
            self._start_process()
            self._await_ready()
        except BotError:
            self.close()
            raise
        self._healthy = True

    def _await_ready(self) -> None:
        line = self._read_line(time.perf_counter() + STARTUP_TIMEOUT)
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            answer = None
        if isinstance(answer, dict) and "ready" in answer:
            return
        if isinstance(answer, dict) and "error" in answer:
            raise PrologStrategyError(f"prolog strategy {self.name!r}: {answer['error']}")
        shown = line[:120].decode("utf-8", "replace")
        raise PrologStrategyError(f"prolog strategy {self.name!r} did not start: {shown!r}"
                                  f"{self._stderr_tail()}")

    def end_game(self, result: Any) -> None:
        """Tell the session the game is over; stop it only if something went wrong."""
        if not self._healthy:
            self.close()
            return
        try:
            self._send({"type": "end", "result": str(getattr(result, "outcome", result))})
        except BotError:
            self.close()
            self._healthy = False

    # -- moves -----------------------------------------------------------------------------------

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        if self._seat != player or (self._proc is None and self._load_error is None):
            self.start_game(state, player, None)
        if self._load_error is not None:
            raise self._load_error
        try:
            return self._turn(state, player, limit)
        except PrologStrategyError:
            raise  # the session is fine: the predicate failed or threw, and was caught
        except BotError:
            # a timeout leaves Prolog busy, a crash leaves nothing: start afresh next game
            self._healthy = False
            self.close()
            raise

    def _turn_message(self, state: State, player: int, legal: list[Action],
                      allowance: float | None) -> dict[str, Any]:
        """Only what the driver reads (the position): the history and the legal moves of a
        full bot turn cost more than the Prolog call."""
        return {"type": "turn", "seat": player, "position": state.to_prolog(),  # type: ignore[attr-defined]
                "time_left": allowance}

    def _parse_answer(self, state: State, player: int, legal: list[Action],
                      line: bytes) -> Action:
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            answer = None
        if isinstance(answer, dict) and "error" in answer:
            if answer.get("kind") == "malformed":
                raise PrologMalformedMove(f"garbage from prolog strategy {self.name!r}: "
                                          f"{answer['error']}")
            raise PrologStrategyError(f"prolog strategy {self.name!r}: {answer['error']}")
        action = super()._parse_answer(state, player, legal, line)
        assert isinstance(answer, dict)  # the bot protocol's parser accepted it
        self._check_board(state, player, action, answer.get("board"))
        return action

    def _check_board(self, state: State, player: int, action: Action, text: object) -> None:
        from lifearena.games import war_of_life as wol

        move = state.action_to_string(action, player)
        expected = wol.apply_moves(state.board[None], player, np.array([action]))[0]  # type: ignore[attr-defined]
        shown = str(text)[:200]
        try:
            board = wol.prolog_to_board(str(text))
        except ValueError:
            board = None
        if board is None or not np.array_equal(board, expected):
            raise PrologBoardMismatch(
                f"prolog strategy {self.name!r} played {move} but gave NewBoardState = "
                f"{shown}; expected the board after that move, "
                f"{wol.board_to_prolog(expected)}")


@register_spec(SPEC_PREFIX)
def make_prolog_agent(spec: str, game: str | None = None, seed: int | None = 0,
                      per_move: float | None = None, total: float | None = None,
                      name: str | None = None, **options: Any) -> Agent:
    """The agent for ``make("prolog:FILE:PREDICATE", ...)`` (``spec`` is ``FILE:PREDICATE``);
    ``per_move``/``total`` seconds set its time control. War of Life only."""
    if game is not None and load_game(game).info.name != "war_of_life":
        raise BadParameterError(f"Prolog strategies play War of Life; got game {game!r}")
    if options:
        raise BadParameterError(f"a Prolog strategy takes only per_move, total and name; got "
                                f"{', '.join(options)}")
    file, predicate = parse_prolog_spec(spec)
    tc = TimeControl(per_move=per_move, total=total) if (per_move or total) else None
    return PrologAgent(file, predicate, time_control=tc, name=name)
