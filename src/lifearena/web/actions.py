"""The server's side of resignations, draw offers, rematches, takebacks, clocks and presence
(the game's side: :mod:`lifearena.web.endings`).

:class:`GameActions` is a part of :class:`~lifearena.web.app.Server` (mixed into it). Every
action runs under the game's lock, checks the clocks first (a flag that fell is seen before
anything else), stores the row and tells every page.

**Clocks.** Each loaded game whose clock runs has one timer (``loop.call_later``) set for
the moment its first running clock runs out; when it fires, the flag falls without any
request (:meth:`GameActions.settle`). Every access to a game checks the clocks too, so a
server whose ``now`` is a test's own sees a flag fall on the next request. A game whose
clock runs is never evicted from memory. When the server stops, running clocks are
paused and stored; when it starts, it loads every stored game with a clock
(:meth:`GameActions.load_clocked`), which resumes them: time while the server was down is
not charged. After a crash (nothing paused) the time since the last stored change is charged.

**Abandoned games.** An untimed game against an agent in which nothing happened for
:data:`ABORT_AFTER` seconds, and which no seat has open, is aborted (as lichess aborts a game
left unplayed): it ends with :attr:`~lifearena.core.Termination.ABORTED`, nobody winning, is
stored so and leaves the list of games being played (:meth:`GameActions.abort_idle`, run
every :data:`ABORT_SWEEP` seconds).

**Presence.** The view's ``connected`` says whether each seat's holder has a page open;
when that changes, the pages are told once, at most every :data:`PRESENCE_DELAY` seconds
(a page reconnecting in a loop does not make a storm of messages).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

from lifearena.core import Outcome, Termination
from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web.endings import takeback_position
from lifearena.web.limits import address_key
from lifearena.web.refusals import SeatError

if TYPE_CHECKING:
    from lifearena.web.agent_queue import AgentQueue
    from lifearena.web.app import Settings
    from lifearena.web.heavy import HeavyWork
    from lifearena.web.live import LiveGame
    from lifearena.web.sockets import Outbox
    from lifearena.web.store import Store

log = logging.getLogger("lifearena.web")

PRESENCE_DELAY = 0.25
"""Seconds the pages' news of a seat's page opening or closing waits, so that several
changes make one message."""
FLAG_SLACK = 0.005
"""Seconds a flag timer fires after the computed moment (a float's rounding never lets a
clock read a hair above zero when it fires)."""
ABORT_AFTER = 600.0
"""Seconds without a move after which an untimed game against an agent that no seat has
open is aborted (10 minutes)."""
ABORT_SWEEP = 60.0
"""Seconds between two looks for abandoned games."""
LOOP_TAKEBACK_MOVES = 32
"""Moves a game may have for a takeback to be replayed on the event loop; a longer game is
replayed in a slow-work worker."""


class GameActions:
    """The server's actions on a game beside its moves (see the module)."""

    settings: Settings
    store: Store
    games: Any
    locks: dict[str, asyncio.Lock]
    sockets: dict[str, dict[Outbox, list[int]]]
    heavy: HeavyWork
    agents: AgentQueue | None
    flag_timers: dict[str, asyncio.TimerHandle]
    presence_timers: dict[str, asyncio.TimerHandle]

    if TYPE_CHECKING:
        async def game(self, game_id: str, client: str = "server") -> LiveGame: ...

        def locked(self, game_id: str, client: str = "server"
                   ) -> contextlib.AbstractAsyncContextManager[LiveGame]: ...

        def broadcast(self, live: LiveGame) -> None: ...

        def schedule_agent(self, live: LiveGame, address: str | None = None) -> None: ...

        def _start(self, live: LiveGame, token: str, side: int | None, address: str,
                   *others: str) -> dict[str, Any]: ...

    # -- clocks --------------------------------------------------------------------------------

    def check_control(self, control: dict[str, Any] | None) -> None:
        """Refuse a live time control shorter than the server's ``shortest_clock`` minutes
        (400, one line)."""
        if control is None or control.get("kind") != "live":
            return
        shortest = self.settings.shortest_clock
        if float(control.get("minutes") or 0) < shortest:
            raise BadParameterError(f"clock of {control.get('minutes')} minutes; expected "
                                    f"{shortest:g} to 180 minutes")

    def adopt(self, live: LiveGame) -> None:
        """Give a game loaded or made by this server its clock and presence: the server's
        ``now``, paused clocks resumed, the flag checked and its timer set."""
        live.now = self.settings.now
        control = live.row.opponent.get("clock")
        if live.clock is None and isinstance(control, dict) and not live.row.moves:
            from lifearena.web.clock import GameClock

            live.clock = GameClock.start(control)
            live.row.clock = live.clock.to_dict()
        live.resume_clocks()
        live.connected = self.present(live.row.id)
        self.settle(live, force=True)

    def settle(self, live: LiveGame, *, force: bool = False) -> None:
        """Let a flag fall that is due (store the ending, tell the pages) and set the game's
        flag timer. Skipped while someone else holds the game's lock (``force``: the caller
        holds it), who settles it first thing."""
        lock = self.locks.get(live.row.id)
        if not force and lock is not None and lock.locked():
            return
        if live.time_out():
            self.store.save_play(live.row, _ended(live))
            self.broadcast(live)
        self.schedule_flag(live)

    def schedule_flag(self, live: LiveGame) -> None:
        """(Re)set the timer that lets ``live``'s flag fall when its first running clock
        runs out (none when no clock runs)."""
        game_id = live.row.id
        old = self.flag_timers.pop(game_id, None)
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
        self.flag_timers[game_id] = loop.call_later(due + FLAG_SLACK, self._flag_due, live)

    def _flag_due(self, live: LiveGame) -> None:
        self.flag_timers.pop(live.row.id, None)
        if self.games.get(live.row.id) is not live:
            return  # a copy let go of (it cannot be: a running clock keeps its game)
        lock = self.locks.get(live.row.id)
        if lock is not None and lock.locked():  # its holder settles it; look again soon
            self.flag_timers[live.row.id] = asyncio.get_running_loop().call_later(
                0.05, self._flag_due, live)
            return
        self.settle(live)

    def pause_clocks(self) -> None:
        """Pause and store every running clock (the server stops)."""
        for timer in self.flag_timers.values():
            timer.cancel()
        self.flag_timers.clear()
        for live in list(self.games.values()):
            if live.clock is not None and live.clock.running and not live.over:
                live.pause_clocks()
                try:
                    self.store.save_play(live.row, None)
                except Exception:  # the next start charges the downtime: said in the docs
                    log.exception("could not store the paused clock of game %s", live.row.id)

    async def load_clocked(self) -> None:
        """Load every stored game with a clock, so that its flag falls on time."""
        for game_id in self.store.clocked():
            try:
                await self.game(game_id)
            except Exception as error:  # a damaged row: its page says so
                log.warning("a clocked game %s did not load: %s", game_id, error)

    # -- actions -------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def acting(self, game_id: str, token: str | None, seats: list[int] | None,
                     client: str) -> AsyncIterator[tuple[LiveGame, list[int]]]:
        """The game and the seats the request holds, under the game's lock and with its
        flag settled; on leaving, the row is stored, the flag timer set, the pages told
        (unless the body raised: then nothing was changed)."""
        async with self.locked(game_id, client) as live:
            self.settle(live, force=True)
            held = live.seats_of(token) if seats is None else list(seats)
            yield live, held
            try:
                self.store.save_play(live.row, _ended(live))
            except Exception:
                self.games.pop(game_id, None)  # rebuilt from the store on the next request
                raise
            self.schedule_flag(live)
        self.broadcast(live)

    async def resign(self, game_id: str, token: str | None, seats: list[int] | None,
                     client: str = "server") -> LiveGame:
        """The seat the request holds resigns."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            live.resign(held)
        return live

    async def draw(self, game_id: str, token: str | None, seats: list[int] | None,
                   action: str, client: str = "server") -> LiveGame:
        """Offer, accept or decline a draw."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            _need_seat(held, "a draw offer")
            live.draw(held, action)
        return live

    async def rematch(self, game_id: str, token: str | None, seats: list[int] | None,
                      action: str, client: str = "server") -> LiveGame:
        """Offer, accept or decline a rematch; make it when it is agreed (or at once
        against an agent or at one screen). A rematch is a new game made by ``client``'s
        address: under its creation quota and its bound of games in progress, as any."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            if live.rematch(held, action) == "create":
                from lifearena.web import catalog
                from lifearena.web.live import LiveGame

                new_id = secrets.token_urlsafe(9)
                before = dict(live.row.offers)
                row = live.rematch_row(new_id, _secret,
                                       secrets.randbelow(catalog.MAX_SEED + 1))
                try:
                    fresh = LiveGame.from_row(row)
                    token_of = next((t for t in row.tokens if t), "")
                    self._start(fresh, token_of, None, address_key(client))
                except Exception:
                    live.row.offers = before
                    raise
        return live

    async def takeback(self, game_id: str, token: str | None, seats: list[int] | None,
                       client: str = "server") -> LiveGame:
        """Undo the person's last move (and the agent's reply) in an untimed game against
        an agent."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            person = live.check_takeback(held)
            row = live.row
            job = (row.game, dict(row.params), row.setup, list(row.moves), person)
            if len(row.moves) <= LOOP_TAKEBACK_MOVES:
                kept, state = takeback_position(*job)
            else:
                kept, state = await self.heavy.run(client, takeback_position, *job)
            live.take_back(kept, state)
            # a search of the position taken back is void: stopped, and one of the new
            # position starts once it has (or now, when none ran)
            if self.agents is not None:
                self.agents.cancel(game_id)
        self.schedule_agent(live, address_key(client))
        return live

    async def act(self, game_id: str, seats: list[int], message: Any,
                  client: str = "server") -> None:
        """A socket's game action (resign, draw, rematch, takeback) from ``client``."""
        kind = message.type
        if kind == "resign":
            await self.resign(game_id, None, seats, client)
        elif kind == "draw":
            await self.draw(game_id, None, seats, message.action, client)
        elif kind == "rematch":
            await self.rematch(game_id, None, seats, message.action, client)
        elif kind == "takeback":
            await self.takeback(game_id, None, seats, client)

    # -- abandoned games ---------------------------------------------------------------------------

    async def abort_idle(self, now: float | None = None) -> list[str]:
        """Abort the untimed games against an agent in which nothing happened for
        :data:`ABORT_AFTER` seconds before ``now`` (a :func:`time.time`) and which no seat
        has open: each ends with nobody winning, is stored so and its pages are told.
        Answers the ids aborted."""
        cutoff = (time.time() if now is None else now) - ABORT_AFTER
        aborted = []
        for game_id in self.store.idle_agent_games(cutoff):
            if any(self.present(game_id)):
                continue  # its player is looking at it
            try:
                async with self.locked(game_id) as live:
                    if live.over or live.thinking or any(self.present(game_id)):
                        continue
                    live.end(Outcome(Termination.ABORTED, None, None,
                                     f"no move in {ABORT_AFTER / 60:.0f} minutes"))
                    self.store.save_play(live.row, _ended(live))
            except LifeArenaError as error:  # a damaged row: its own page says so
                log.warning("an idle game %s was not aborted: %s", game_id, error)
                continue
            self.broadcast(live)
            aborted.append(game_id)
        return aborted

    async def abort_idle_often(self) -> None:
        """:meth:`abort_idle` every :data:`ABORT_SWEEP` seconds, as long as the server runs."""
        while True:
            await asyncio.sleep(ABORT_SWEEP)
            try:
                await self.abort_idle()
            except Exception:  # the next sweep tries again
                log.exception("the sweep of abandoned games failed")

    # -- presence ------------------------------------------------------------------------------

    def present(self, game_id: str) -> list[bool]:
        """Whether each seat has a page of ``game_id`` open (one with that seat's token)."""
        held = [False, False]
        for seats in self.sockets.get(game_id, {}).values():
            for seat in seats:
                held[seat] = True
        return held

    def presence_changed(self, game_id: str) -> None:
        """A page of ``game_id`` opened or closed: once :data:`PRESENCE_DELAY` has passed,
        tell the pages if who is here changed (one message for any number of changes)."""
        if game_id in self.presence_timers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.presence_timers[game_id] = loop.call_later(PRESENCE_DELAY, self._tell_presence,
                                                        game_id)

    def _tell_presence(self, game_id: str) -> None:
        self.presence_timers.pop(game_id, None)
        live = self.games.get(game_id)
        if live is None:
            return
        live.connected = self.present(game_id)
        if live.connected != live.told:
            live.told = list(live.connected)
            self.broadcast(live)


def _need_seat(held: Sequence[int], what: str) -> None:
    if not held:
        raise SeatError(f"{what} needs a seat's private link (token); spectators cannot")


def _secret() -> str:
    from lifearena.web.live import new_secret

    return new_secret()


def _ended(live: LiveGame) -> dict[str, Any] | None:
    outcome = live.outcome()
    return None if outcome is None else outcome.to_dict()


__all__ = ["ABORT_AFTER", "PRESENCE_DELAY", "GameActions"]
