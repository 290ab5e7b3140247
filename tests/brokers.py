"""Redis for the tests: a server each test may use, on a database number of its own that is
flushed before and after it, and a server of a test's own that it may stop and start.

``LIFEARENA_TEST_REDIS`` names a shared server (``redis://127.0.0.1:6379/0``, as CI's
``.ci/redis`` exports); without it the tests start a throwaway ``redis-server`` (Debian's
``redis-server`` package) for the session when the program is found. Without either the
Redis cases skip and say why, unless ``LIFEARENA_REQUIRE_REDIS=1`` (set by CI), where they
fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

SERVER = "LIFEARENA_TEST_REDIS"
REQUIRE = "LIFEARENA_REQUIRE_REDIS"
DATABASES = range(1, 16)
"""The database numbers handed to tests in turn (a default server has 16; 0 is left to
whoever else uses a shared server)."""


def unavailable(why: str) -> None:
    """Skip the test saying ``why``, or fail it under ``LIFEARENA_REQUIRE_REDIS=1``."""
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {why}")
    pytest.skip(why)


def need_redis_py() -> None:
    """Skip (or fail) the test when redis-py, which the web extra installs, is missing."""
    try:
        import redis  # noqa: F401
    except ImportError:
        unavailable("Redis: the redis package is missing (pip install 'lifearena[web]')")


def redis_program() -> str:
    """The path of ``redis-server``; the test skips (or fails, under
    ``LIFEARENA_REQUIRE_REDIS=1``) when there is none."""
    need_redis_py()
    found = shutil.which("redis-server")
    if not found:
        unavailable("Redis: no redis-server on PATH (apt-get install redis-server)")
    return str(found)


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def answers(port: int) -> bool:
    """Whether a Redis server on ``port`` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """A ``redis-server`` of the tests' own on a free loopback port, without persistence
    (``--save '' --appendonly no``), that can be stopped (SIGKILL, as a crash) and started
    again on the same port, empty."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="lifearena-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self, within: float = 10.0) -> None:
        self.process = subprocess.Popen(
            [self.program, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + within
        while not answers(self.port):
            if self.process.poll() is not None:
                raise AssertionError(f"redis-server on port {self.port} exited with "
                                     f"{self.process.returncode}")
            if time.monotonic() > deadline:
                raise AssertionError(f"redis-server on port {self.port}: no PONG within "
                                     f"{within:g} s")
            time.sleep(0.01)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def own_redis() -> Iterator[RedisServer]:
    """A started :class:`RedisServer`, removed on leaving."""
    server = RedisServer(redis_program())
    try:
        server.start()
        yield server
    finally:
        server.remove()


_turns = itertools.cycle(DATABASES)


@contextlib.contextmanager
def fresh_redis(shared: RedisServer | None) -> Iterator[str]:
    """The URL of an empty database on the server ``LIFEARENA_TEST_REDIS`` names, or else on
    ``shared`` (a session's throwaway server), flushed again on leaving."""
    need_redis_py()
    base = os.environ.get(SERVER)
    if base:
        parts = urlsplit(base)
        url = urlunsplit(parts._replace(path=f"/{next(_turns)}"))
    elif shared is not None:
        url = shared.url(next(_turns))
    else:
        redis_program()  # skips, or fails when Redis is required
        raise AssertionError("unreachable")
    flush(url)
    try:
        yield url
    finally:
        flush(url)


def flush(url: str) -> None:
    """Empty the database that ``url`` names (FLUSHDB), with redis-py's plain client."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.flushdb()
    finally:
        client.close()


def run_within(scenario: Callable[[], Awaitable[Any]], within: float = 10) -> Any:
    """``asyncio.run(scenario())``, failing after ``within`` seconds."""
    return asyncio.run(asyncio.wait_for(scenario(), within))


async def until(check: Callable[[], bool], what: str) -> None:
    """Give the loop turns until ``check()`` holds (the deadline is
    :func:`run_within`'s)."""
    while not check():
        await asyncio.sleep(0.005)
    assert check(), what

