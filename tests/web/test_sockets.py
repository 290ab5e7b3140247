"""Outboxes (:mod:`lifearena.web.sockets`): a page that never reads is closed with 4008 when
its outbox fills, and nobody else waits for it; closing never hangs on such a page; a peer
that went away ends its writer quietly. Fake sockets first, then a real uvicorn server with a
client that never reads."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI, Request, WebSocket
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from lifearena.errors import BadParameterError, LifeArenaError, ParseError
from lifearena.web.limits import MessageRate
from lifearena.web.sockets import (
    FLOOD_CODE,
    OUTBOX_SIZE,
    SLOW_CODE,
    AbortableSockets,
    Outbox,
    broadcast,
    read_loop,
    receive,
)

SLOW_REASON = f"too slow: {OUTBOX_SIZE} messages unread; reconnect to catch up"


class Page:
    """A fake socket that reads everything at once."""

    def __init__(self) -> None:
        self.got: list[Any] = []
        self.closes: list[tuple[int, str | None]] = []
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send_json(self, message: Any) -> None:
        self.got.append(message)

    async def send_text(self, text: str) -> None:
        """What a broadcast sends (its JSON encoded once): kept decoded, as sent."""
        await self.send_json(json.loads(text))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes.append((code, reason))

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()


class StuckPage(Page):
    """A fake socket whose peer never reads: every send waits for ever."""

    def __init__(self, close_blocks: bool = False) -> None:
        super().__init__()
        self.never = asyncio.Event()
        self.close_blocks = close_blocks

    async def send_json(self, message: Any) -> None:
        await self.never.wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes.append((code, reason))
        if self.close_blocks:  # the close frame cannot be written either
            await self.never.wait()


class GonePage(Page):
    """A fake socket whose peer has gone: every send fails."""

    async def send_json(self, message: Any) -> None:
        raise WebSocketDisconnect(1006)


async def until(condition: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """Wait (yielding to the loop) until ``condition()`` holds; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.001)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())  # every wait in a scenario has a deadline of its own


def no_tasks_left() -> bool:
    return asyncio.all_tasks() == {asyncio.current_task()}


# -- fake sockets -----------------------------------------------------------------------------

def test_a_page_that_never_reads_holds_up_nobody_and_is_closed_when_its_outbox_fills() -> None:
    async def scenario() -> None:
        stuck, good = StuckPage(), Page()
        audience = {Outbox(stuck): [], Outbox(good): [0]}
        for outbox in audience:
            outbox.start()
        took = []
        started = time.monotonic()
        for n in range(OUTBOX_SIZE + 10):
            took.append(broadcast(audience, lambda seats, n=n: {"n": n, "seats": seats}))
            await asyncio.sleep(0)  # one move after another: the writers get their turn
        assert time.monotonic() - started < 1.0  # nobody waited for the stuck page
        await until(lambda: len(good.got) == OUTBOX_SIZE + 10, "the good page's messages")
        assert good.got == [{"n": n, "seats": [0]} for n in range(OUTBOX_SIZE + 10)]
        # the stuck page's writer holds message 0; 1..32 fill its outbox; 33 does not fit
        assert took == [2] * (OUTBOX_SIZE + 1) + [1] * 9
        slow = next(iter(audience))
        await asyncio.wait_for(slow.wait_closed(), 5)
        assert slow.slow and slow.closed and slow.close_code == SLOW_CODE
        assert stuck.closes == [(SLOW_CODE, SLOW_REASON)]
        assert slow.pending == 0 and not slow.offer({"n": "late"})
        for outbox in audience:
            await outbox.close()
        assert good.closes == [(1000, "")] and stuck.closes == [(SLOW_CODE, SLOW_REASON)]
        assert no_tasks_left()

    run(scenario)


def test_closing_a_page_whose_close_frame_cannot_be_sent_aborts_it_in_time() -> None:
    async def scenario() -> None:
        aborted: list[bool] = []
        stuck = StuckPage(close_blocks=True)
        outbox = Outbox(stuck, size=2, close_timeout=0.05, abort=lambda: aborted.append(True))
        outbox.start()
        # nothing yields between these offers: the writer has taken none of them yet
        assert [outbox.offer({"n": n}) for n in range(4)] == [True, True, False, False]
        await asyncio.wait_for(outbox.wait_closed(), 5)
        assert outbox.slow and outbox.aborted and aborted == [True]
        assert stuck.closes == [(SLOW_CODE, "too slow: 2 messages unread; reconnect to catch up")]
        await asyncio.wait_for(outbox.close(), 5)  # already closed: returns at once
        assert aborted == [True] and no_tasks_left()

    run(scenario)


def test_without_an_abort_a_stuck_page_is_given_up_and_close_still_returns(
        caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        outbox = Outbox(StuckPage(close_blocks=True), close_timeout=0.05)
        outbox.start()
        outbox.offer({"n": 0})
        await asyncio.wait_for(outbox.close(1001, "going away"), 5)
        assert outbox.closed and not outbox.aborted and outbox.close_code == 1001
        assert no_tasks_left()

    with caplog.at_level(logging.INFO, logger="lifearena.web.sockets"):
        run(scenario)
    assert "cannot be aborted" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_peer_that_went_away_ends_the_writer_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        gone = GonePage()
        outbox = Outbox(gone)
        outbox.start()
        assert outbox.offer({"n": 0})
        await asyncio.wait_for(outbox.wait_closed(), 5)
        assert outbox.closed and not outbox.slow and outbox.close_code is None
        assert not outbox.offer({"n": 1})
        await asyncio.wait_for(outbox.close(), 5)
        assert gone.closes == []  # no close frame for a peer that is not there
        assert no_tasks_left()

    with caplog.at_level(logging.DEBUG, logger="lifearena.web.sockets"):
        run(scenario)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_message_that_cannot_be_sent_is_logged_and_closes_the_socket_with_1011(
        caplog: pytest.LogCaptureFixture) -> None:
    class Strict(Page):
        async def send_json(self, message: Any) -> None:
            raise TypeError("Object of type set is not JSON serializable")

    async def scenario() -> None:
        page = Strict()
        outbox = Outbox(page)
        outbox.start()
        outbox.offer({"bad": {1}})
        await asyncio.wait_for(outbox.wait_closed(), 5)
        assert page.closes == [(1011, "server error")]

    run(scenario)
    assert "could not send" in caplog.text


def test_close_is_shared_by_concurrent_callers_and_sends_one_close_frame() -> None:
    async def scenario() -> None:
        page = Page()
        outbox = Outbox(page)
        outbox.start()
        outbox.offer({"n": 0})
        await until(lambda: page.got == [{"n": 0}], "the first message")
        await asyncio.gather(outbox.close(4001, "first"), outbox.close(4002, "second"),
                             outbox.close())
        assert page.closes == [(4001, "first")] and outbox.close_code == 4001
        assert not outbox.offer({"n": 1}) and no_tasks_left()

    run(scenario)


def test_close_frames_are_not_sent_to_a_socket_starlette_knows_is_over() -> None:
    from starlette.websockets import WebSocketState

    async def scenario() -> None:
        page = Page()
        page.client_state = WebSocketState.DISCONNECTED  # type: ignore[attr-defined]
        outbox = Outbox(page)
        outbox.start()
        await outbox.close()
        assert page.closes == [] and no_tasks_left()

    run(scenario)


def test_a_cancelled_handler_still_finishes_closing() -> None:
    async def scenario() -> None:
        aborted: list[bool] = []
        outbox = Outbox(StuckPage(close_blocks=True), close_timeout=0.05,
                        abort=lambda: aborted.append(True))
        outbox.start()
        outbox.offer({"n": 0})
        handler = asyncio.ensure_future(outbox.close())
        await asyncio.sleep(0)
        handler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await handler
        await asyncio.wait_for(outbox.wait_closed(), 5)
        assert aborted == [True] and no_tasks_left()

    run(scenario)


def test_receive_gives_the_peers_messages_then_a_disconnect_once_the_outbox_closes() -> None:
    async def scenario() -> None:
        page = StuckPage()
        outbox = Outbox(page, size=1, close_timeout=0.05)
        outbox.start()
        page.incoming.put_nowait({"type": "websocket.receive", "text": "hi"})
        assert await receive(page, outbox) == {"type": "websocket.receive", "text": "hi"}
        waiting = asyncio.ensure_future(receive(page, outbox))
        await asyncio.sleep(0)
        for n in range(3):  # more than the outbox holds, before its writer takes any
            outbox.offer({"n": n})
        assert outbox.slow
        message = await asyncio.wait_for(waiting, 5)
        assert message == {"type": "websocket.disconnect", "code": SLOW_CODE}
        assert await receive(page, outbox) == message  # and so on, at once
        await outbox.close()
        assert no_tasks_left()

    run(scenario)


def test_the_read_loop_hands_on_messages_refuses_what_it_must_and_closes_a_flood() -> None:
    """The one loop of the game's and the lobby's sockets: a message goes to the handler; a
    long one is refused unread and a handler's error told, the loop going on; past the
    rate the page is told to slow down, and a flood closes it with its address held off."""
    async def scenario() -> None:
        page = Page()
        outbox = Outbox(page, close_timeout=0.5)
        outbox.start()
        handled: list[str | None] = []
        held_off: list[bool] = []

        async def handle(text: str | None) -> None:
            if text == "bad":
                raise ParseError("bad message; expected a good one")
            handled.append(text)

        def told(error: LifeArenaError) -> dict[str, Any]:
            return {"type": "error", "error": str(error)}

        # three at once, then one refused (a warning), then one more: flooding
        rate = MessageRate(per_second=1, burst=3, excess=1, clock=lambda: 0.0)
        for text in ("hi", "x" * 11, "bad", "late", "later", "never read"):
            page.incoming.put_nowait({"type": "websocket.receive", "text": text})
        await asyncio.wait_for(read_loop(page, outbox, handle, max_chars=10,
                                         hold_off=lambda: held_off.append(True),
                                         error_message=told, rate=rate), 5)
        assert handled == ["hi"] and held_off == [True]
        assert [m["error"][:20] for m in page.got] == [
            "message of 11 charac", "bad message; expecte", "more than 1 messages"]
        assert page.closes and page.closes[0][0] == FLOOD_CODE
        assert page.incoming.qsize() == 1  # what came after the flood was never read
        await outbox.close()
        assert no_tasks_left()

    run(scenario)


def test_broadcast_makes_one_message_per_seat_list_and_skips_closed_outboxes() -> None:
    async def scenario() -> None:
        pages = [Page() for _ in range(5)]
        outboxes = [Outbox(page) for page in pages]
        audience = dict(zip(outboxes, [[0], [1], [], [], [0, 1]], strict=True))
        await outboxes[3].close()
        made: list[list[int]] = []

        def view(seats: list[int]) -> dict[str, Any]:
            made.append(seats)
            return {"seats": seats}

        assert broadcast(audience, view) == 4
        assert made == [[0], [1], [], [0, 1]]
        for outbox in outboxes:
            outbox.start()
        await until(lambda: sum(len(p.got) for p in pages) == 4, "four messages")
        assert [p.got for p in pages] == [[{"seats": [0]}], [{"seats": [1]}], [{"seats": []}],
                                          [], [{"seats": [0, 1]}]]
        for outbox in outboxes:
            await outbox.close()

    run(scenario)


class GatedPage(Page):
    """A fake socket that reads only once its gate opens."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def send_json(self, message: Any) -> None:
        await self.gate.wait()
        self.got.append(message)


def test_close_drops_what_is_unsent_unless_asked_to_flush_it() -> None:
    async def scenario() -> None:
        for flush, expected in ((False, []), (True, [{"n": 0}, {"n": 1}])):
            page = GatedPage()
            outbox = Outbox(page)
            outbox.start()
            outbox.offer({"n": 0})
            outbox.offer({"n": 1})
            await until(lambda outbox=outbox: outbox.pending == 1, "the writer's first send")
            closing = asyncio.ensure_future(outbox.close(4000, "bye", flush=flush))
            await asyncio.sleep(0)
            page.gate.set()  # the page reads again, while the outbox closes
            await asyncio.wait_for(closing, 5)
            assert page.got == expected and page.closes == [(4000, "bye")]
            assert no_tasks_left()

    run(scenario)


def test_flushing_a_stuck_page_is_bounded_too() -> None:
    async def scenario() -> None:
        aborted: list[bool] = []
        outbox = Outbox(StuckPage(close_blocks=True), close_timeout=0.05,
                        abort=lambda: aborted.append(True))
        outbox.start()
        outbox.offer({"n": 0})
        outbox.offer({"n": 1})
        await asyncio.wait_for(outbox.close(flush=True), 5)
        assert aborted == [True] and no_tasks_left()

    run(scenario)


def test_an_outbox_needs_room_for_one_message() -> None:
    with pytest.raises(BadParameterError, match=r"^outbox size 0; expected at least 1$"):
        Outbox(Page(), size=0)


# -- a real server ----------------------------------------------------------------------------

PAYLOAD = "x" * 32_768
"""A big message, so that a page that never reads fills the TCP buffers soon."""


class Served:
    """What the test server's sockets did, as seen from the test's thread."""

    def __init__(self) -> None:
        self.outboxes: dict[str, Outbox] = {}
        self.registered = {name: threading.Event() for name in ("slow", "good")}
        self.ended = {name: threading.Event() for name in ("slow", "good")}


def game_like_app(served: Served) -> FastAPI:
    """A server shaped like ``lifearena serve``'s: each "next" from a page is a move, pushed
    to every page through its outbox."""
    app = FastAPI()
    audience: dict[Outbox, list[int]] = {}
    numbers = itertools.count()

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Any:  # like the app's guard
        return await call_next(request)

    app.add_middleware(AbortableSockets)

    @app.websocket("/ws/{name}")
    async def endpoint(websocket: WebSocket, name: str) -> None:
        await websocket.accept()
        outbox = Outbox(websocket, close_timeout=0.5)
        outbox.start()
        audience[outbox] = [0] if name == "good" else []
        served.outboxes[name] = outbox
        served.registered[name].set()
        try:
            while True:
                message = await receive(websocket, outbox)
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("text") == "next":
                    n = next(numbers)
                    broadcast(audience, lambda seats, n=n: {"n": n, "payload": PAYLOAD})
        finally:
            audience.pop(outbox, None)
            await outbox.close()
            served.ended[name].set()

    return app


@contextlib.contextmanager
def serving(app: FastAPI, ws: str) -> Iterator[tuple[int, uvicorn.Server]]:
    """Run ``app`` under uvicorn (WebSocket implementation ``ws``) on a free loopback port
    in a thread; yield the port and the server."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws=ws,
                            lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not (server.started and server.servers):
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        yield server.servers[0].sockets[0].getsockname()[1], server
    finally:
        server.should_exit = True
        thread.join(20)


def never_reading_client(port: int, path: str) -> socket.socket:
    """A WebSocket client that completes the handshake and then never reads a byte."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fill up soon
    raw.settimeout(10)
    raw.connect(("127.0.0.1", port))
    raw.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        byte = raw.recv(1)  # one byte at a time: read the handshake, not one frame more
        assert byte, "the server closed the connection during the handshake"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return raw


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # the legacy implementation's
@pytest.mark.filterwarnings("ignore:The .websockets. implementation is deprecated")
@pytest.mark.parametrize("ws", ["auto", "websockets"])
def test_under_uvicorn_a_page_that_never_reads_is_aborted_and_the_other_page_plays_on(
        ws: str) -> None:
    served = Served()
    with serving(game_like_app(served), ws) as (port, server):
        slow = never_reading_client(port, "/ws/slow")
        try:
            assert served.registered["slow"].wait(10)
            with connect(f"ws://127.0.0.1:{port}/ws/good", max_size=2**20) as good:
                assert served.registered["good"].wait(10)
                moves = 0
                # each move answers at once, however full the slow page's buffers are
                while not served.ended["slow"].is_set():
                    assert moves < 2_000, "the slow page was never closed"
                    good.send("next")
                    message = good.recv(timeout=5)
                    assert f'"n":{moves},' in message
                    moves += 1
                for _ in range(20):  # and after it is gone
                    good.send("next")
                    assert f'"n":{moves},' in good.recv(timeout=5)
                    moves += 1
                # the slow page's connection is gone from the server, though its client
                # never read what was sent: only the good page's is left
                assert len(server.server_state.connections) == 1
            outbox = served.outboxes["slow"]
            assert outbox.slow and outbox.close_code == SLOW_CODE
            assert outbox.aborted  # its close frame could not be written: the TCP buffer was full
            assert served.ended["good"].wait(10)
            # and the client sees it end (a reset, or the end after what was buffered)
            with contextlib.suppress(ConnectionResetError):
                while slow.recv(1 << 16):
                    pass
        finally:
            slow.close()
