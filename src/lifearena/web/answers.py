"""Big answers (a replay's every position: megabytes), sent without pinning the server's
memory: streamed in chunks, and bounded per client address in bytes not yet sent.

A big answer is built and encoded in a slow-work worker (:mod:`lifearena.web.heavy`), never
on the event loop, and comes back as bytes. It is then sent as a stream of
:data:`CHUNK`-byte pieces, each handed to the ASGI server only once the last one left (the
server's flow control pauses the stream while the peer does not read), so a peer that
never reads holds its answer's bytes, not a copy in the connection's buffers besides.

Those bytes are counted against the peer's address in an :class:`AnswerBudget`: while an
address's answers not yet sent hold :attr:`AnswerBudget.per_address` bytes or more, a new
big request from it is refused (429) until they drain; the whole server's, past
:attr:`AnswerBudget.total`. An answer gives its bytes back when it is sent in full, or when
its peer disconnects (:class:`BudgetedAnswer`). The check is made when the request arrives
and again when a worker is about to build it (a request queued behind others of its
address may find the budget spent by then), so an address holds at most its budget plus
the answers of its requests building at once (:data:`~lifearena.web.heavy.PER_CLIENT`).
A request whose client leaves before its answer is built is dropped (:func:`unless_gone`).

>>> budget = AnswerBudget(per_address=10, total=100)  # doctest: +ELLIPSIS
>>> held = budget.hold("10.0.0.1", 12)
>>> budget.check("10.0.0.2")
>>> budget.check("10.0.0.1")
Traceback (most recent call last):
...
lifearena.web.heavy.TooBusy: answers of 12 bytes to this address are not yet read; ...
>>> held.release(); held.release()  # twice is once
>>> budget.held("10.0.0.1"), budget.clients()
(0, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import TypeVar

from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from lifearena.web.heavy import TooBusy
from lifearena.web.limits import ANSWER_BYTES_PER_ADDRESS, ANSWER_BYTES_TOTAL

T = TypeVar("T")

CHUNK = 65_536
"""Bytes of a big answer handed to the ASGI server at once."""
PER_ADDRESS = ANSWER_BYTES_PER_ADDRESS
"""Bytes of big answers not yet sent that one client address may hold."""
TOTAL = ANSWER_BYTES_TOTAL
"""Bytes of big answers not yet sent that the whole server holds before it refuses more."""


@dataclass
class Held:
    """Bytes of one answer counted against an address until :meth:`release`."""

    budget: AnswerBudget
    address: str
    size: int
    released: bool = False

    def release(self) -> None:
        """Give the bytes back (idempotent)."""
        if not self.released:
            self.released = True
            self.budget._give_back(self.address, self.size)


class AnswerBudget:
    """The bytes of big answers not yet sent, per client address and in all (see the
    module). The table holds only addresses holding bytes."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = TOTAL) -> None:
        if per_address < 1 or total < 1:
            raise ValueError(f"answer budgets {per_address}, {total}; expected at least 1")
        self.per_address = per_address
        self.total = total
        self._held: dict[str, int] = {}
        self._total = 0

    def held(self, address: str | None = None) -> int:
        """Bytes not yet sent to ``address`` (to everyone: ``None``)."""
        return self._total if address is None else self._held.get(address, 0)

    def clients(self) -> int:
        """Addresses holding bytes now (the size of the table)."""
        return len(self._held)

    def check(self, address: str) -> None:
        """Refuse (:class:`TooBusy`, 429) a new big answer to ``address`` while its
        answers, or everyone's, hold their budget."""
        mine = self._held.get(address, 0)
        if mine >= self.per_address:
            raise TooBusy(f"answers of {mine} bytes to this address are not yet read; "
                          f"expected at most {self.per_address} at once: read them before "
                          "asking again")
        if self._total >= self.total:
            raise TooBusy(f"the server holds {self._total} bytes of answers not yet read; "
                          f"expected at most {self.total}: try again shortly")

    def hold(self, address: str, size: int) -> Held:
        """Count ``size`` bytes against ``address`` until the answer releases them."""
        self._held[address] = self._held.get(address, 0) + size
        self._total += size
        return Held(self, address, size)

    def _give_back(self, address: str, size: int) -> None:
        left = self._held.get(address, 0) - size
        if left > 0:
            self._held[address] = left
        else:
            self._held.pop(address, None)
        self._total -= size

    def answer(self, address: str, body: bytes,
               media_type: str = "application/json") -> BudgetedAnswer:
        """``body`` as a streamed answer whose bytes count against ``address`` until it is
        sent or its peer leaves."""
        return BudgetedAnswer(body, self.hold(address, len(body)), media_type)


GONE = 499
"""The status of an answer abandoned because its client left first (nginx's "client closed
request"): nobody receives it."""


async def unless_gone(receive: Receive, work: Awaitable[T]) -> T | None:
    """``work``'s result, or ``None`` once the request's client disconnects first (read on
    ``receive``, the request's body already read), ``work`` then cancelled: a big answer
    still queued for a worker is not built for nobody, and a server told to stop does not
    wait for it."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(receive))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # the handler itself is cancelled
        task.cancel()
        gone.cancel()
        raise
    if task.done():
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gone
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    return None


async def _disconnected(receive: Receive) -> None:
    """Return once the client disconnects."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def chunks_of(body: bytes, size: int = CHUNK) -> AsyncIterator[bytes]:
    """``body`` in pieces of ``size`` bytes (the last one shorter)."""
    view = memoryview(body)
    for start in range(0, len(body), size):
        yield bytes(view[start:start + size])


class BudgetedAnswer(StreamingResponse):
    """A streamed answer that releases its bytes from the budget once sent in full, or
    once its peer disconnects (Starlette then stops the stream)."""

    def __init__(self, body: bytes, held: Held, media_type: str) -> None:
        super().__init__(chunks_of(body), media_type=media_type,
                         headers={"Content-Length": str(len(body))})
        self.held = held

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.held.release()


__all__ = ["CHUNK", "GONE", "PER_ADDRESS", "TOTAL", "AnswerBudget", "BudgetedAnswer", "Held",
           "chunks_of", "unless_gone"]
