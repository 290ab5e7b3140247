"""Bots in any language: an :class:`Agent` that plays through a subprocess speaking JSON lines.

The protocol is documented in ``docs/bots.md``. In short: lifearena writes one JSON object per
line on the bot's stdin — ``{"type": "start", ...}`` once (game, parameters, seat, time
control), ``{"type": "turn", ...}`` each time the bot must move (position, board,
observation, history, legal moves with their ids and notation, time left), ``{"type":
"end", ...}`` at the end — and the bot answers each turn with one line, ``{"move": "<notation>"}``
or ``{"id": <action id>}``.

A bot forfeits the game (the referee records why and the tournament goes on) when it

* does not answer in time — :class:`BotTimeout` (the referee's ``AgentTimeout``),
* answers with a move that is not legal — :class:`BotIllegalMove` (``IllegalAction``),
* answers something that is not a move at all — :class:`BotGarbage` (an ``IllegalAction``
  whose message starts with "garbage"),
* exits, closes its output or cannot be started — :class:`BotCrashed`.

A bot cannot hurt the arena: it runs in a session (process group) of its own, and when its
game ends — normally or by forfeit — the whole group is killed, so a bot started through a
shell wrapper that does not ``exec``, or one that starts helpers of its own, leaves nothing
behind. Its answers are read in chunks and a line longer than :data:`MAX_LINE` (1 MiB) is
garbage, so memory stays bounded whatever it prints; only the last :data:`STDERR_TAIL`
bytes of its stderr are kept (for error messages), however much it writes there.

>>> spec = parse_bot_spec("mybot=python3 examples/random_bot.py")
>>> spec
('mybot', ['python3', 'examples/random_bot.py'])
>>> BotAgent(spec[1], name=spec[0]).name
'mybot'
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from lifearena.agents.base import Agent, AgentTimeout, IllegalAction, Limit, TimeControl
from lifearena.agents.registry import register_agent
from lifearena.core import SIMULTANEOUS, Action, State
from lifearena.errors import BadParameterError

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20
"""The longest answer line accepted (bytes); longer is garbage."""
STDERR_TAIL = 4096
"""How many of the last bytes a bot wrote on stderr are kept for error messages."""
CHUNK = 65536
"""Bytes read from a bot's pipes at a time."""


class BotError(Exception):
    """Base of the ways a bot can fail."""


class BotTimeout(AgentTimeout, BotError):
    """The bot did not answer within its time."""


class BotIllegalMove(IllegalAction, BotError):
    """The bot answered a well-formed move that is not legal here."""


class BotGarbage(IllegalAction, BotError):
    """The bot answered something that is not a move (not JSON, wrong fields...)."""


class BotCrashed(RuntimeError, BotError):
    """The bot's process exited, closed its output, or could not be started."""


def parse_bot_spec(text: str) -> tuple[str, list[str]]:
    """``"name=command args"`` -> ``(name, argv)``; the name defaults to the program's stem.

    >>> parse_bot_spec("python3 bots/x.py")
    ('x', ['python3', 'bots/x.py'])
    """
    name, eq, command = text.partition("=")
    if not eq or " " in name.strip() or not name.strip():
        name, command = "", text
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise BadParameterError(f"bad bot command {command!r}: {error}") from None
    if not argv:
        raise BadParameterError(f"bad bot {text!r}; expected NAME=COMMAND, e.g. "
                                "'mybot=python3 mybot.py'")
    if not name.strip():
        words = [w for w in argv if not w.startswith("-")] or argv
        name = os.path.splitext(os.path.basename(words[-1]))[0] or "bot"
    return name.strip(), argv


def _position(state: State) -> str | None:
    for hook in ("position", "to_prolog"):
        method = getattr(state, hook, None)
        if callable(method):
            with contextlib.suppress(Exception):
                return str(method())
    return None


class BotAgent(Agent):
    """An agent whose moves come from a subprocess (see the module doc and docs/bots.md).

    ``command`` is an argv list or a shell-like string; ``time_control`` bounds the bot's
    time when the referee gives none (the referee's clock, passed to :meth:`act` as
    ``limit.time``, always applies too). ``startup`` extra seconds are granted for the first
    move only if the referee's own grace allows them.
    """

    name = "bot"

    def __init__(self, command: str | Sequence[str], time_control: TimeControl | None = None,
                 name: str | None = None, cwd: str | None = None,
                 send_observation: bool = True) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise BadParameterError("a bot needs a command to run")
        self.time_control = time_control
        self.cwd = cwd
        self.send_observation = send_observation
        if name:
            self.name = name
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr = b""
        self._buffer = b""
        self._used = 0.0
        self._moves = 0
        self._seat: int | None = None

    # -- process handling --------------------------------------------------------------------

    def _start_process(self) -> None:
        self.close()
        try:
            # a session of its own: close() kills the bot and everything it started
            self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          cwd=self.cwd, bufsize=0, start_new_session=True)
        except OSError as error:
            self._proc = None
            raise BotCrashed(f"cannot start bot {self.name!r} ({shlex.join(self.command)}): "
                             f"{error.strerror or error}") from None
        assert self._proc.stderr is not None
        os.set_blocking(self._proc.stderr.fileno(), False)
        self._stderr = b""
        self._buffer = b""
        self._used = 0.0
        self._moves = 0

    @property
    def pid(self) -> int | None:
        """The process id of the running bot (also its process group id), or ``None``."""
        return None if self._proc is None else self._proc.pid

    def _drain_stderr(self) -> bool:
        """Read what the bot has written on stderr so far, keeping only the tail; False once
        its stderr is closed."""
        if self._proc is None or self._proc.stderr is None:
            return False
        try:
            while True:
                chunk = os.read(self._proc.stderr.fileno(), CHUNK)
                if not chunk:
                    return False
                self._stderr = (self._stderr + chunk)[-STDERR_TAIL:]
        except BlockingIOError:
            return True
        except (OSError, ValueError):
            return False

    def _stderr_tail(self) -> str:
        self._drain_stderr()
        tail = self._stderr.decode("utf-8", "replace").strip()
        return f"; its stderr ends: {tail[-300:]!r}" if tail else ""

    def _crashed(self, what: str) -> BotCrashed:
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=0.2)  # let an exiting bot finish, to show its status
        code = self._proc.poll() if self._proc else None
        status = f" (exit status {code})" if code is not None else ""
        return BotCrashed(f"bot {self.name!r} {what}{status}{self._stderr_tail()}")

    def _send(self, message: dict[str, Any]) -> None:
        if self._proc is None or self._proc.stdin is None:
            raise BotCrashed(f"bot {self.name!r} is not running")
        try:
            self._proc.stdin.write((json.dumps(message) + "\n").encode())
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed("closed its input") from None

    def _read_line(self, deadline: float | None) -> bytes:
        """The bot's next answer line, read in chunks; its stderr is drained meanwhile so a
        bot flooding stderr never blocks and never fills memory."""
        assert self._proc is not None and self._proc.stdout is not None
        assert self._proc.stderr is not None
        fd = self._proc.stdout.fileno()
        err = self._proc.stderr.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            selector.register(err, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    self._buffer = b""
                    raise BotGarbage(f"garbage from bot {self.name!r}: a line longer than "
                                     f"{MAX_LINE} bytes")
                remaining = None if deadline is None else deadline - time.perf_counter()
                if remaining is not None and remaining <= 0:
                    raise BotTimeout(f"bot {self.name!r} did not answer in time")
                # wake up now and then: a bot whose children keep its stdout open never
                # sends end-of-file, so its own exit is what says it crashed
                ready = selector.select(0.1 if remaining is None else min(remaining, 0.1))
                if not ready and self._proc.poll() is not None:
                    raise self._crashed("exited before answering")
                for key, _ in ready:
                    if key.fd == err:
                        if not self._drain_stderr():
                            selector.unregister(err)  # stderr closed: stop watching it
                        continue
                    chunk = os.read(fd, CHUNK)
                    if not chunk:
                        raise self._crashed("exited before answering")
                    self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise BotGarbage(f"garbage from bot {self.name!r}: a line longer than "
                             f"{MAX_LINE} bytes")
        return line

    def close(self) -> None:
        """Stop the bot: close its input, give it half a second to exit, then kill its whole
        process group (its children and grandchildren too)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(OSError):
                if proc.stdin:
                    proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
            # the group outlives its leader while any member lives: kill it either way
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            if proc.poll() is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=2)
            for stream in (proc.stdout, proc.stderr):
                with contextlib.suppress(OSError):
                    if stream:
                        stream.close()
        self._buffer = b""

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # -- the referee's hooks -----------------------------------------------------------------

    def reset(self) -> None:
        self.close()

    def start_game(self, state: State, player: int,
                   time_control: TimeControl | None = None) -> None:
        """Start the bot and tell it the game, its seat and the time control."""
        if time_control is not None:
            self.time_control = time_control
        self._start_process()
        self._seat = player
        info = state.info
        tc = self.time_control
        self._send({
            "type": "start", "protocol": PROTOCOL_VERSION, "game": info.name,
            "params": dict(state.params), "setup": state.setup(),
            "seat": player, "symbol": info.player_symbols[player],
            "players": list(info.player_symbols), "simultaneous":
                info.dynamics.value == "simultaneous",
            "num_actions": info.num_distinct_actions,
            "time_control": None if tc is None else tc.to_dict(),
        })

    def end_game(self, result: Any) -> None:
        """Tell the bot how the game ended, then stop it."""
        if self._proc is not None and self._proc.poll() is None:
            outcome = getattr(result, "outcome", None)
            with contextlib.suppress(BotError):
                self._send({
                    "type": "end",
                    "result": str(outcome) if outcome is not None else str(result),
                    "winner": getattr(outcome, "winner", None),
                    "termination": getattr(getattr(outcome, "termination", None), "value",
                                           None),
                })
        self.close()

    # -- moving ------------------------------------------------------------------------------

    def _allowance(self, limit: Limit | None) -> float | None:
        bounds = []
        if limit is not None and limit.time is not None:
            bounds.append(limit.time)
        if self.time_control is not None:
            own = self.time_control.allowance(self._used, self._moves)
            if own is not None:
                bounds.append(own)
        return min(bounds) if bounds else None

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        if self._proc is None or self._seat != player:
            self.start_game(state, player, self.time_control)
        assert self._proc is not None
        return self._turn(state, player, limit)

    def _turn(self, state: State, player: int, limit: Limit | None) -> Action:
        """One turn of the protocol: send the position, read the answer within the time
        allowed (charged to the bot's clock), check it."""
        start = time.perf_counter()
        allowance = self._allowance(limit)
        legal = state.legal_actions(player)
        self._send(self._turn_message(state, player, legal, allowance))
        line = self._read_line(None if allowance is None else start + allowance)
        self._used += time.perf_counter() - start
        self._moves += 1
        return self._parse_answer(state, player, legal, line)

    def _turn_message(self, state: State, player: int, legal: list[Action],
                      allowance: float | None) -> dict[str, Any]:
        """The ``turn`` message of the protocol (see the module doc)."""
        message: dict[str, Any] = {
            "type": "turn", "seat": player, "move_number": state.move_number(),
            "simultaneous": state.current_player() == SIMULTANEOUS,
            "position": _position(state), "board": str(state),
            "history": state.history_strings(),
            "legal": [{"id": a, "move": state.action_to_string(a, player)} for a in legal],
            "time_left": allowance,
        }
        if self.send_observation:
            message["observation"] = state.observation(player).tolist()
        return message

    def _parse_answer(self, state: State, player: int, legal: list[Action],
                      line: bytes) -> Action:
        shown = line[:80].decode("utf-8", "replace")
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BotGarbage(f"garbage from bot {self.name!r}: {shown!r} is not JSON") from None
        if not isinstance(answer, dict) or not ({"move", "id"} & answer.keys()):
            raise BotGarbage(f"garbage from bot {self.name!r}: {shown!r}; expected "
                             '{"move": "<notation>"} or {"id": <int>}')
        if "id" in answer:
            action = answer["id"]
            if not isinstance(action, int) or isinstance(action, bool):
                raise BotGarbage(f"garbage from bot {self.name!r}: id {action!r} is not an "
                                 "integer")
        else:
            text = answer["move"]
            if not isinstance(text, str):
                raise BotGarbage(f"garbage from bot {self.name!r}: move {text!r} is not a "
                                 "string")
            try:
                action = state.string_to_action(text, player)
            except ValueError as error:
                raise BotGarbage(f"garbage from bot {self.name!r}: cannot read move "
                                 f"{text!r}: {error}") from None
        if action not in legal:
            try:
                text = state.action_to_string(action, player)
            except Exception:
                text = str(action)
            raise BotIllegalMove(f"bot {self.name!r} played {text!r}, which is not legal "
                                 f"here ({len(legal)} legal moves)")
        return int(action)


@register_agent("bot")
def _make_bot(game: str | None = None, seed: int | None = 0, command: str | None = None,
              per_move: float | None = None, total: float | None = None,
              label: str | None = None, **options: Any) -> Agent:
    """``label`` names the bot in tables and forfeit messages."""
    if not command:
        raise BadParameterError("agent 'bot' needs command='program args'")
    tc = TimeControl(per_move=per_move, total=total) if (per_move or total) else None
    return BotAgent(command, time_control=tc, name=label or options.pop("name", None),
                    **options)
