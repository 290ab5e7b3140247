"""The games' clocks: their flags fall on time, with or without a request.

Each loaded game whose clock runs has one timer (``loop.call_later``) set for the moment its
first running clock runs out; when it fires, the flag falls without any request
(:meth:`Clocks.settle`). Every access to a game checks the clocks too, so rooms whose
``now`` is a test's own see a flag fall on the next request. A game whose clock runs is
never evicted from memory. When the server stops, running clocks are paused and stored
(:meth:`Clocks.pause_all`); when it starts, the rooms load every stored game with a clock,
which resumes them: time while the server was down is not charged. After a crash (nothing
paused) the time since the last stored change is charged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

from lifearena.errors import BadParameterError
from lifearena.web.clock import GameClock
from lifearena.web.live import LiveGame
from lifearena.web.settings import Settings
from lifearena.web.store import Store

log = logging.getLogger("lifearena.web")

FLAG_SLACK = 0.005
"""Seconds a flag timer fires after the computed moment (a float's rounding never lets a
clock read a hair above zero when it fires)."""


class Clocks:
    """The flag timers of the loaded games (see the module).

    ``games`` are the loaded games by id (a timer of a game let go of does nothing);
    ``locked(game_id)`` says whether someone holds the game's lock (who then settles it
    first thing); ``tell(live)`` stores nothing and tells the pages of a change."""

    def __init__(self, settings: Settings, store: Store, games: Mapping[str, LiveGame],
                 locked: Callable[[str], bool], tell: Callable[[LiveGame], None]) -> None:
        self.settings = settings
        self.store = store
        self.games = games
        self.locked = locked
        self.tell = tell
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def check_control(self, control: dict[str, Any] | None) -> None:
        """Refuse a live time control shorter than the server's ``shortest_clock`` minutes
        (400, one line)."""
        if control is None or control.get("kind") != "live":
            return
        shortest = self.settings.shortest_clock
        if float(control.get("minutes") or 0) < shortest:
            raise BadParameterError(f"clock of {control.get('minutes')} minutes; expected "
                                    f"{shortest:g} to 180 minutes")

    def start(self, live: LiveGame) -> None:
        """Give a game loaded or made here its clock: the server's ``now``, a new game's
        clock started, paused clocks resumed, the flag checked and its timer set."""
        live.now = self.settings.now
        control = live.row.opponent.get("clock")
        if live.clock is None and isinstance(control, dict) and not live.row.moves:
            live.clock = GameClock.start(control)
            live.row.clock = live.clock.to_dict()
        live.resume_clocks()
        self.settle(live, force=True)

    def settle(self, live: LiveGame, *, force: bool = False) -> None:
        """Let a flag fall that is due (store the ending, tell the pages) and set the game's
        flag timer. Skipped while someone else holds the game's lock (``force``: the caller
        holds it), who settles it first thing."""
        if not force and self.locked(live.row.id):
            return
        if live.time_out():
            self.store.save_play(live.row, live.stored_outcome())
            self.tell(live)
        self.schedule(live)

    def schedule(self, live: LiveGame) -> None:
        """(Re)set the timer that lets ``live``'s flag fall when its first running clock
        runs out (none when no clock runs)."""
        game_id = live.row.id
        old = self.timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        if live.clock is None or live.over:
            return
        due = live.clock.next_flag(live.now())
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.timers[game_id] = loop.call_later(due + FLAG_SLACK, self._due, live)

    def _due(self, live: LiveGame) -> None:
        self.timers.pop(live.row.id, None)
        if self.games.get(live.row.id) is not live:
            return  # a copy let go of (it cannot be: a running clock keeps its game)
        if self.locked(live.row.id):  # its holder settles it; look again soon
            self.timers[live.row.id] = asyncio.get_running_loop().call_later(
                0.05, self._due, live)
            return
        self.settle(live)

    def pause_all(self) -> None:
        """Pause and store every running clock (the server stops)."""
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for live in list(self.games.values()):
            if live.clock is not None and live.clock.running and not live.over:
                live.pause_clocks()
                try:
                    self.store.save_play(live.row, None)
                except Exception:  # the next start charges the downtime: said in the docs
                    log.exception("could not store the paused clock of game %s", live.row.id)
