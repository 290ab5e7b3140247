"""Long-lived NDJSON answers (the bot API's streams) that never make the server wait.

A stream is a :class:`Feed` (a bounded queue of lines, filled from the event loop by
:meth:`Feed.offer`, which never awaits) and a :class:`FeedResponse` that writes the queue to
the HTTP connection, one JSON object per line, with an empty line every
:data:`KEEPALIVE` seconds when nothing happened (so proxies and clients know the stream is
alive, and a dead peer is found).

A reader that stops reading must not hold anything up: when its queue is full (it left
:data:`FEED_SIZE` lines unread) the feed is *dropped*: closed at once, its writer cancelled
and its connection aborted (a transport with unsent data would otherwise stay open until the
peer read it). The client reconnects and starts from a fresh snapshot, as a page whose socket
was closed for slowness does (:mod:`lifearena.web.sockets`). A peer that goes away is noticed
by the ``http.disconnect`` the server sends; either way the feed's ``on_close`` callbacks run
once, so whoever registered it forgets it.

>>> import asyncio
>>> async def main():
...     feed = Feed(size=2)
...     feed.offer({"type": "a"}), feed.offer({"type": "b"}), feed.offer({"type": "c"})
...     return feed.dropped, feed.closed
>>> asyncio.run(main())
(True, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from lifearena.web.sockets import TRANSPORT_KEY

log = logging.getLogger("lifearena.web.feeds")

FEED_SIZE = 64
"""Lines a stream's queue holds unsent before its reader counts as not reading."""
KEEPALIVE = 7.0
"""Seconds of silence after which a stream sends an empty line."""
MEDIA_TYPE = "application/x-ndjson"


def line_of(message: dict[str, Any]) -> bytes:
    """``message`` as one NDJSON line.

    >>> line_of({"type": "gameStart", "id": "x"})
    b'{"type":"gameStart","id":"x"}\\n'
    """
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


class Feed:
    """One stream's bounded queue of lines (see the module)."""

    def __init__(self, size: int = FEED_SIZE) -> None:
        self.size = size
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(size + 1)  # +1: the end
        self.closed = False
        self.dropped = False
        self.reason = ""
        self._on_close: list[Callable[[], None]] = []
        self._drop: asyncio.Future[None] | None = None

    def __repr__(self) -> str:
        state = "dropped" if self.dropped else "closed" if self.closed else "open"
        return f"<Feed {state}, {self._queue.qsize()}/{self.size} queued>"

    def on_close(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once when the feed closes (at once if it is closed)."""
        if self.closed:
            callback()
        else:
            self._on_close.append(callback)

    def offer(self, message: dict[str, Any] | bytes) -> bool:
        """Queue ``message`` (an object, or a line already encoded) without awaiting;
        ``False`` when it was not queued. A full queue drops the feed."""
        if self.closed:
            return False
        if self._queue.qsize() >= self.size:
            self.drop(f"too slow: {self.size} lines unread; reconnect to catch up")
            return False
        self._queue.put_nowait(message if isinstance(message, bytes) else line_of(message))
        return True

    def close(self, reason: str = "") -> None:
        """End the stream once the lines queued so far are sent."""
        if self.closed:
            return
        self.closed = True
        self.reason = reason
        self._queue.put_nowait(None)
        callbacks, self._on_close = self._on_close, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # one forgetful registry must not keep the feed half closed
                log.exception("a feed's close callback failed")

    def drop(self, reason: str) -> None:
        """End the stream now, unsent lines and all (its reader does not read)."""
        if self.dropped:
            return
        self.dropped = True
        log.info("dropping a stream: %s", reason)
        self.close(reason)
        if self._drop is not None and not self._drop.done():
            self._drop.set_result(None)

    def dropping(self) -> asyncio.Future[None]:
        """A future done once the feed is dropped."""
        if self._drop is None:
            self._drop = asyncio.get_running_loop().create_future()
            if self.dropped:
                self._drop.set_result(None)
        return self._drop

    async def next_line(self, keepalive: float) -> bytes | None:
        """The next line to send, ``b"\\n"`` after ``keepalive`` seconds of nothing, or
        ``None`` once the feed is closed and emptied."""
        try:
            return await asyncio.wait_for(self._queue.get(), keepalive)
        except TimeoutError:
            return None if self.closed and self._queue.empty() else b"\n"


class FeedResponse(Response):
    """An HTTP answer that streams a :class:`Feed` as NDJSON until the feed closes, the
    peer goes or the feed is dropped (then the connection is aborted)."""

    media_type = MEDIA_TYPE

    def __init__(self, feed: Feed, keepalive: float = KEEPALIVE) -> None:
        # no body and so no Content-Length (as Starlette's StreamingResponse)
        self.status_code = 200
        self.background = None
        self.init_headers({"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.feed = feed
        self.keepalive = keepalive

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        feed = self.feed
        writer = asyncio.ensure_future(self._write(send))
        listener = asyncio.ensure_future(_until_disconnect(receive))
        dropped = feed.dropping()
        try:
            await asyncio.wait({writer, listener, dropped},
                               return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            # the server stops and cuts what is still open: the connection is cut (the
            # client reconnects) rather than the request reported as a failure
            cut = True
        else:
            cut = feed.dropped
        finally:
            feed.close("the stream ended")
            for task in (writer, listener):
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
        if cut:
            _abort(scope)
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(0)  # the server sees the connection lost first
        if writer.done() and not writer.cancelled() and writer.exception() is not None:
            log.debug("a stream's writer failed: %r", writer.exception())

    async def _write(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code,
                    "headers": self.raw_headers})
        while True:
            line = await self.feed.next_line(self.keepalive)
            if line is None:
                break
            await send({"type": "http.response.body", "body": line, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _until_disconnect(receive: Receive) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


def _abort(scope: Scope) -> None:
    transport = scope.get(TRANSPORT_KEY)
    abort = getattr(transport, "abort", None)
    if callable(abort):
        with contextlib.suppress(Exception):
            abort()


__all__ = ["FEED_SIZE", "KEEPALIVE", "Feed", "FeedResponse", "line_of"]
