"""The computer's turns: when a game waits for its agent, a search runs in a worker (in the
turn of the client address that gave it work, :mod:`lifearena.web.agent_queue`) and its
move is played under the game's lock, unless the game moved on meanwhile (a takeback, an
ending: the search is then void)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from lifearena.web import catalog
from lifearena.web.agent_queue import AgentQueue
from lifearena.web.agent_workers import SearchCancelled
from lifearena.web.live import LiveGame
from lifearena.web.rooms.clocks import Clocks
from lifearena.web.store import Store

log = logging.getLogger("lifearena.web")


class AgentTurns:
    """Starts and plays the agents' searches of the rooms' games.

    ``queue()`` is the agents' queue (``None`` until the server has started it);
    ``locked(game_id)`` holds a game under its lock; ``tell(live)`` tells its pages of a
    change; ``tasks`` keeps the searches' tasks (cancelled when the server stops)."""

    def __init__(self, queue: Callable[[], AgentQueue | None], store: Store, clocks: Clocks,
                 locked: Callable[[str], contextlib.AbstractAsyncContextManager[LiveGame]],
                 tell: Callable[[LiveGame], None], tasks: set[asyncio.Task[None]]) -> None:
        self.queue = queue
        self.store = store
        self.clocks = clocks
        self.locked = locked
        self.tell = tell
        self.tasks = tasks

    def schedule(self, live: LiveGame, address: str | None = None) -> None:
        """Start the agent's thinking when the game waits for it (in a worker, in the turn
        of ``address``: the client whose request gave the agent work, else the one that did
        last)."""
        if address is not None:
            live.address = address
        seat = live.agent_seat
        if seat is None or live.thinking or seat not in live.awaiting() or live.over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.thinking = True
        task = loop.create_task(self._move(live, seat, live.address or "server"))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def cancel(self, game_id: str) -> None:
        """Stop or drop the search of ``game_id``, if any (its position changed or ended)."""
        queue = self.queue()
        if queue is not None:
            queue.cancel(game_id)

    async def _move(self, live: LiveGame, seat: int, address: str) -> None:
        opponent = live.row.opponent
        name, limit = catalog.level_agent(live.row.game, opponent["level"])
        if live.clock is not None:  # it thinks within its clock
            limit = live.clock.agent_limit(seat, limit, live.now())
        number, undone = len(live.row.moves), live.undone
        seed = (int(opponent.get("seed", 0)) + 7919 * number) % (catalog.MAX_SEED + 1)
        view = live.state.view(seat)
        queue = self.queue()
        assert queue is not None
        try:
            text = await queue.run(address, live.row.id, catalog.choose_move, view, seat, name,
                                   limit, seed)
            # a thinking game is never evicted: the lock gives this very copy
            async with self.locked(live.row.id) as current:
                self.clocks.settle(live, force=True)
                if (current is live and len(live.row.moves) == number
                        and live.undone == undone and seat in live.awaiting()):
                    live.play(text, seat, number)
                    self.store.save_play(live.row, live.stored_outcome())
                    self.clocks.schedule(live)
            live.agent_error = None
        except SearchCancelled:  # the game ended, or a takeback changed the position:
            pass  # after the flag is cleared below, a search of the new position (if due)
        except Exception as error:
            log.exception("agent %s failed in game %s", name, live.row.id)
            live.agent_error = f"the agent {name} failed: {str(error).splitlines()[0][:200]}"
            live.thinking = False
            self.tell(live)
            return  # not retried in a loop; reopening the game tries again
        finally:
            live.thinking = False
        self.schedule(live)
        self.tell(live)
