"""Pushing to WebSockets without ever waiting for one of them.

A page that sends but never reads must not stop the game's pushes to anybody else. So every
socket gets an :class:`Outbox`: a bounded queue and one writer task that sends what is queued.
:meth:`Outbox.offer` never awaits: it queues the message, or, when the queue is full (the peer
has not read :data:`OUTBOX_SIZE` messages), closes the socket with code :data:`SLOW_CODE` and
tells the page to reconnect, which gives it the game afresh. :func:`broadcast` offers every
outbox of a game its view in one pass, awaiting nobody.

Closing never waits long on a peer that does not read either: past :data:`CLOSE_TIMEOUT` the
connection is aborted. Under uvicorn the transport is found by :class:`AbortableSockets` (an
ASGI middleware); without it the writer is cancelled and the socket given up.

>>> import asyncio
>>> class Page:                       # stands for a Starlette WebSocket
...     def __init__(self): self.got = []
...     async def send_text(self, message): self.got.append(message)
...     async def close(self, code=1000, reason=None): self.got.append(("closed", code))
>>> async def main():
...     page = Page()
...     outbox = Outbox(page)
...     outbox.start()
...     broadcast({outbox: [0]}, lambda seats: {"type": "view", "seats": seats})
...     await outbox.close()
...     return page.got
>>> asyncio.run(main())
['{"type":"view","seats":[0]}', ('closed', 1000)]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from lifearena.errors import BadParameterError, LifeArenaError, ParseError
from lifearena.web.limits import FLOOD_HOLD_OFF, MessageRate

log = logging.getLogger("lifearena.web.sockets")

OUTBOX_SIZE = 32
"""Messages a socket's outbox holds unsent before its peer counts as too slow."""
CLOSE_TIMEOUT = 1.0
"""Seconds closing a socket may wait on its peer (the writer's end, the close frame) before
the connection is aborted."""
SLOW_CODE = 4008
"""The close code of a socket whose peer did not read (4000-4999: the application's own)."""
READ_SIZE = 16_384
"""Bytes a socket's transport reads at once (asyncio's default is 256 KiB): the server
parses every frame of a read before anything else runs, and 256 KiB of a flooding page's
tiny frames are some 10,000 of them, about 60 ms of one core."""
TRANSPORT_KEY = "lifearena.transport"
"""The scope key under which :class:`AbortableSockets` leaves a socket's transport."""

_GONE = (WebSocketDisconnect, OSError, RuntimeError, asyncio.IncompleteReadError)
"""What a send raises once the peer has gone (Starlette's ``WebSocketDisconnected`` and its
"close message has been sent" are :class:`RuntimeError`; uvicorn's ``ClientDisconnected`` an
:class:`OSError`)."""


class SocketLike(Protocol):
    """What an :class:`Outbox` needs of a socket (a Starlette ``WebSocket`` has it)."""

    async def send_json(self, data: Any) -> None: ...

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    """A socket's bounded queue of messages and the one task that writes them.

    ``offer`` from the event loop's thread; ``start`` once the socket is accepted; ``close``
    (idempotent, concurrent callers share one closing) when the page's handler ends. Messages
    are sent as offered, in order, and must not be changed after they are offered. Messages
    still queued when the outbox closes are dropped, unless ``close(..., flush=True)`` (which
    waits at most :attr:`close_timeout` for them).

    ``abort``, when given, ends the connection at once (it is called when closing outlasts
    ``close_timeout``); otherwise the one :class:`AbortableSockets` left in the socket's scope
    is used, if any.
    """

    def __init__(self, websocket: SocketLike, size: int = OUTBOX_SIZE, *,
                 close_timeout: float = CLOSE_TIMEOUT,
                 abort: Callable[[], None] | None = None) -> None:
        if size < 1:
            raise BadParameterError(f"outbox size {size!r}; expected at least 1")
        self.websocket = websocket
        self.size = size
        self.close_timeout = close_timeout
        self._abort = abort if abort is not None else _abort_of(websocket)
        self._queue: asyncio.Queue[dict[str, Any] | str] = asyncio.Queue(size)
        self._writer: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self._closed = False
        self._gone = False
        self._slow = False
        self._aborted = False
        self._close_code: int | None = None
        self._has_ended = False  # closed, or the writer found the peer gone
        self._ended: asyncio.Future[None] | None = None  # made on the loop when first asked

    def __repr__(self) -> str:
        state = "slow" if self._slow else "closed" if self._closed else "open"
        return f"<Outbox {state}, {self._queue.qsize()}/{self.size} queued>"

    # -- the public side ---------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether the outbox takes no more messages: it is closing or closed, or the peer
        went away."""
        return self._closed

    @property
    def slow(self) -> bool:
        """Whether the outbox was closed because its peer did not read."""
        return self._slow

    @property
    def aborted(self) -> bool:
        """Whether closing outlasted :attr:`close_timeout` and the connection was aborted."""
        return self._aborted

    @property
    def close_code(self) -> int | None:
        """The close code the outbox closed (or is closing) the socket with; ``None`` while
        open or when the peer went first."""
        return self._close_code

    @property
    def pending(self) -> int:
        """Messages queued and not yet sent."""
        return self._queue.qsize()

    def start(self) -> None:
        """Start the writer task (on the running loop); a second call does nothing."""
        if self._writer is None and not self._closed:
            self._writer = asyncio.get_running_loop().create_task(
                self._write(), name=f"outbox writer {id(self):x}")

    def offer(self, message: dict[str, Any] | str) -> bool:
        """Queue ``message`` (a JSON object, or one already encoded) for the peer, without
        awaiting; ``False`` when it was not queued.

        A full queue means the peer does not read: the outbox is then marked :attr:`slow`
        and the socket closed with :data:`SLOW_CODE` (by a task of its own: the caller never
        waits), and this and every later offer answer ``False``.
        """
        if self._closed:
            return False
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self._slow = True
            log.info("closing a socket whose page left %d messages unread", self.size)
            self._begin_close(SLOW_CODE, f"too slow: {self.size} messages unread; reconnect "
                              "to catch up")
            return False
        return True

    async def close(self, code: int = 1000, reason: str = "", *, flush: bool = False) -> None:
        """Stop the writer, close the socket with ``code`` and ``reason`` (unless the peer
        already went, or the outbox is already closing with its own code), and return once
        that is done: within about twice :attr:`close_timeout` (three times with ``flush``),
        whatever the peer does. ``flush``: send what is queued first."""
        self._begin_close(code, reason, flush)
        assert self._closing is not None
        # shielded: a handler cancelled while closing must not leave the socket half closed
        await asyncio.shield(self._closing)

    async def wait_closed(self) -> None:
        """Return once the outbox is closed: closed by :meth:`close` or :meth:`offer`, or
        its peer found gone by the writer."""
        await asyncio.shield(self.ended())  # a cancelled waiter leaves the future to others

    def ended(self) -> asyncio.Future[None]:
        """A future done once the outbox is closed (as :meth:`wait_closed` returns): one for
        the outbox's whole life, so a reading loop can wait on it beside every read without
        a task of its own per read."""
        if self._ended is None:
            self._ended = asyncio.get_running_loop().create_future()
            if self._has_ended:
                self._ended.set_result(None)
        return self._ended

    def _mark_ended(self) -> None:
        self._has_ended = True
        if self._ended is not None and not self._ended.done():
            self._ended.set_result(None)

    # -- the inside --------------------------------------------------------------------------

    def _begin_close(self, code: int, reason: str, flush: bool = False) -> None:
        self._closed = True
        if self._closing is None:
            if not self._gone:
                self._close_code = code
            self._closing = asyncio.get_running_loop().create_task(
                self._close(code, reason, flush), name=f"outbox close {id(self):x}")

    async def _write(self) -> None:
        try:
            while True:
                message = await self._queue.get()
                if isinstance(message, str):
                    await self.websocket.send_text(message)
                else:
                    await self.websocket.send_json(message)
                self._queue.task_done()
        except _GONE as error:  # the peer went away: not an error of the server's
            log.debug("a socket's peer went away: %r", error)
            self._gone = True
            self._closed = True
            if self._closing is None:
                self._mark_ended()
        except Exception:  # a message that cannot be sent (a bug): say so, and close
            log.exception("a socket's outbox could not send a message")
            self._closed = True
            self._begin_close(1011, "server error")

    async def _close(self, code: int, reason: str, flush: bool) -> None:
        try:
            writer = self._writer
            if flush and writer is not None and not writer.done():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._queue.join(), self.close_timeout)
            if writer is not None and not writer.done():
                writer.cancel()
                # a send blocked on a full TCP buffer ends at once when cancelled; bounded anyway
                await asyncio.wait({writer}, timeout=self.close_timeout)
                if not writer.done():
                    self._hard_abort("its writer did not stop")
                    return
            if self._gone or _disconnected(self.websocket):
                return
            try:
                await asyncio.wait_for(self.websocket.close(code, reason), self.close_timeout)
            except TimeoutError:
                self._hard_abort("the close frame could not be sent")
            except _GONE as error:
                log.debug("a socket's peer went away while closing: %r", error)
        finally:
            while not self._queue.empty():  # drop what will never be sent
                self._queue.get_nowait()
            self._mark_ended()

    def _hard_abort(self, why: str) -> None:
        if self._abort is None:
            log.info("gave up a socket (%s) that cannot be aborted", why)
            return
        try:
            self._abort()
        except Exception as error:  # aborting a transport that is already gone
            log.debug("aborting a socket failed: %r", error)
        else:
            self._aborted = True
            log.info("aborted a socket whose peer did not read (%s)", why)


def broadcast(audience: Mapping[Outbox, Sequence[int]],
              make_message: Callable[[list[int]], dict[str, Any] | str]) -> int:
    """Offer every outbox of ``audience`` (outbox to the seats its page holds) the message
    ``make_message(seats)`` (a JSON object, or its text already encoded), without awaiting
    any; answer how many took it.

    ``make_message`` is called, and its message encoded as JSON, once per distinct seat list:
    pages with the same seats (the spectators, typically) share that one text. A slow page's
    outbox closes itself and answers ``False``; nobody waits for it.

    >>> class Page:
    ...     async def send_text(self, message): pass
    ...     async def close(self, code=1000, reason=None): pass
    >>> made = []
    >>> def view(seats):
    ...     made.append(seats)
    ...     return {"seats": seats}
    >>> outboxes = {Outbox(Page()): [0], Outbox(Page()): [], Outbox(Page()): []}
    >>> broadcast(outboxes, view), made
    (3, [[0], []])
    """
    texts: dict[tuple[int, ...], str] = {}
    took = 0
    for outbox, seats in list(audience.items()):
        if outbox.closed:
            continue
        key = tuple(seats)
        text = texts.get(key)
        if text is None:
            message = make_message(list(seats))
            text = texts[key] = message if isinstance(message, str) else encode(message)
        took += outbox.offer(text)
    return took


def encode(message: dict[str, Any]) -> str:
    """``message`` as the JSON text a socket sends (as Starlette's ``send_json`` writes it).

    >>> encode({"type": "state", "ply": 3, "board": "·"})
    '{"type":"state","ply":3,"board":"·"}'
    """
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def receive(websocket: Any, outbox: Outbox) -> Message:
    """The peer's next ASGI message, or ``{"type": "websocket.disconnect", ...}`` as soon as
    ``outbox`` closes (a slow page), so a handler's reading loop ends with its outbox even
    where the server would not tell it. A read costs one task (the outbox's end is one
    future for its whole life)."""
    if outbox.closed:
        return {"type": "websocket.disconnect", "code": outbox.close_code or 1006}
    reading = asyncio.ensure_future(websocket.receive())
    try:
        await asyncio.wait((reading, outbox.ended()), return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not reading.done():
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, *_GONE):
                await reading
    if reading.done() and not reading.cancelled():
        return reading.result()  # type: ignore[no-any-return]
    return {"type": "websocket.disconnect", "code": outbox.close_code or 1006}


FLOOD_CODE = 1008
"""The close code of a socket closed for flooding (WebSocket's "policy violation")."""


class LocalTransport:
    """The rooms' transport to the pages of this process: each page is a socket's
    :class:`Outbox`, told at once (:func:`broadcast`)."""

    def tell(self, pages: Mapping[Any, Sequence[int]],
             message_of: Callable[[list[int]], dict[str, Any] | str]) -> int:
        """Offer every page its message (see :func:`broadcast`)."""
        return broadcast(pages, message_of)


async def read_loop(websocket: Any, outbox: Outbox,
                    handle: Callable[[str | None], Awaitable[None]], *, max_chars: int,
                    hold_off: Callable[[], None],
                    error_message: Callable[[LifeArenaError], dict[str, Any]],
                    rate: MessageRate | None = None) -> None:
    """Read a page's messages until it goes or its outbox closes, each handed to
    ``handle`` (its text; ``None`` for a binary frame) at a bounded rate
    (:class:`~lifearena.web.limits.MessageRate`): the game sockets' and the lobby's one loop.

    A message of more than ``max_chars`` characters is refused unread; an error a handler
    raises (:class:`~lifearena.errors.LifeArenaError`) is told to the page as
    ``error_message(error)`` and the loop goes on. Past the rate, the page is told to slow
    down (at most once a second) and what it sends is dropped unread; a page that floods
    is read no more, its address held off new sockets (``hold_off()``) and its socket
    closed with :data:`FLOOD_CODE`. ``rate``: the page's own (a fresh
    :class:`~lifearena.web.limits.MessageRate` by default)."""
    rate = MessageRate() if rate is None else rate
    warned = -math.inf  # when the page was last told to slow down
    while not outbox.closed:
        message = await receive(websocket, outbox)
        if message["type"] == "websocket.disconnect":
            return
        if not rate.allow():
            if rate.flooding:  # read no more of it: close, and hold its address off
                stop_reading(websocket)
                hold_off()
                await outbox.close(FLOOD_CODE, f"flooding: over {rate.per_second:.0f} "
                                   f"messages a second; no new socket for "
                                   f"{FLOOD_HOLD_OFF:.0f} s", flush=True)
                return
            # said at most once a second; whatever is past the rate is dropped unread
            if time.monotonic() - warned > 1.0:
                warned = time.monotonic()
                outbox.offer({"type": "error", "status": 429, "error": (
                    f"more than {rate.per_second:.0f} messages a second from one page; "
                    "slow down (messages past the rate are dropped)")})
            continue
        text = message.get("text")
        try:
            if text is not None and len(text) > max_chars:
                raise ParseError(f"message of {len(text)} characters; expected at most "
                                 f"{max_chars}")
            await handle(text)
        except LifeArenaError as error:
            outbox.offer(error_message(error))


async def refuse(websocket: Any, message: dict[str, Any]) -> None:
    """Tell a socket why it is refused (an error ``message`` with its HTTP ``status``), then
    close it with 44xx (the status's twin); nothing more is read from it (a refused page
    may be flooding)."""
    with contextlib.suppress(Exception):
        await websocket.send_json(message)
        if websocket.client_state != WebSocketState.DISCONNECTED:
            status = int(message.get("status", 400))
            await websocket.close(code=4400 + status % 100, reason=str(message["error"])[:120])


class AbortableSockets:
    """ASGI middleware that lets the application abort a socket's TCP connection, or stop
    reading from it.

    A peer that never reads fills the connection's buffers, and then neither a message nor a
    close frame can be sent to it: only aborting the transport frees the connection. A peer
    that floods goes on being read (and its frames parsed) after the server closed the
    socket, until the close handshake times out: only pausing the transport stops that. The
    ASGI interface offers neither, so this middleware, placed outside every middleware that
    wraps ``send`` (``app.add_middleware(AbortableSockets)`` on a FastAPI or Starlette app),
    leaves the server's transport in the socket's scope under :data:`TRANSPORT_KEY`, when the
    server (uvicorn's WebSocket protocols) has one, makes it read at most :data:`READ_SIZE`
    bytes at once (under asyncio's event loop), and pauses it the moment the application
    closes the socket (uvicorn resumes reading to await the peer's close frame, which nobody
    needs, and then ends the connection after its close timeout). An HTTP request's scope
    gets the transport too, for the streams that abort a peer that does not read
    (:mod:`lifearena.web.feeds`).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            # a long stream (:mod:`lifearena.web.feeds`) aborts a peer that does not read
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                scope[TRANSPORT_KEY] = transport
            await self.app(scope, receive, send)
            return
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        transport = getattr(getattr(send, "__self__", None), "transport", None)
        if transport is None:
            await self.app(scope, receive, send)
            return
        scope[TRANSPORT_KEY] = transport
        if isinstance(getattr(transport, "max_size", None), int):  # asyncio's own transports
            transport.max_size = READ_SIZE

        async def send_then_stop_reading(message: Message) -> None:
            await send(message)
            if message["type"] == "websocket.close":  # the server closes: read no more
                _pause(transport)

        await self.app(scope, receive, send_then_stop_reading)


def stop_reading(websocket: Any) -> bool:
    """Read nothing more from ``websocket``'s peer (its transport paused; the server closes
    the connection when the close handshake times out); ``False`` where the transport is
    unknown (not under uvicorn, or without :class:`AbortableSockets`)."""
    return _pause(_transport_of(websocket))


def _pause(transport: Any) -> bool:
    pause = getattr(transport, "pause_reading", None)
    if not callable(pause):
        return False
    try:
        pause()
    except Exception as error:  # a transport already closed
        log.debug("pausing a socket's transport failed: %r", error)
        return False
    return True


def _abort_of(websocket: Any) -> Callable[[], None] | None:
    abort = getattr(_transport_of(websocket), "abort", None)
    return abort if callable(abort) else None


def _transport_of(websocket: Any) -> Any:
    scope = getattr(websocket, "scope", None)
    if isinstance(scope, dict) and TRANSPORT_KEY in scope:
        return scope[TRANSPORT_KEY]
    # a bare Starlette app under uvicorn: the socket's send is the protocol's own method
    return getattr(getattr(getattr(websocket, "_send", None), "__self__", None), "transport",
                   None)


def _disconnected(websocket: Any) -> bool:
    """Whether Starlette already knows the socket is over (either side closed it)."""
    return WebSocketState.DISCONNECTED in (getattr(websocket, "client_state", None),
                                           getattr(websocket, "application_state", None))
