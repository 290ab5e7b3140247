"""Passwords: Argon2id hashes (argon2-cffi), made and checked off the event loop.

Hashing is meant to be slow (tens of milliseconds of one core), so it never runs on the
event loop: :class:`Hasher` runs it in a small pool of threads (argon2-cffi releases the GIL
while it hashes) and keeps at most :data:`QUEUE` hashes waiting, refusing more with
:class:`~lifearena.web.limits.TooMany` (429). A flood of logins thus uses at most
``threads`` cores (one lane each: :data:`PARAMETERS`), at the lowest priority, and a
bounded queue; the login rate limits (:mod:`lifearena.web.attempts`)
stop most of it before it hashes at all.

A login for an unknown name is checked against a hash of a random password all the same, so
the time of an answer does not tell which names have accounts.

>>> import asyncio
>>> hasher = Hasher(threads=1)
>>> stored = asyncio.run(hasher.hash("correct horse"))
>>> stored.startswith("$argon2id$")
True
>>> asyncio.run(hasher.verify(stored, "correct horse")), asyncio.run(hasher.verify(stored, "x"))
(True, False)
>>> hasher.close()
"""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from lifearena.errors import BadParameterError
from lifearena.web.limits import MessageRate, TooMany

MIN_PASSWORD, MAX_PASSWORD = 8, 256
"""Shortest and longest password, in characters."""
QUEUE = 32
"""Most hashes waiting or running at once; past it a login or sign-up is refused (429)."""
HASHES_PER_SECOND, HASH_BURST = 10.0, 20
"""Hashes the server makes a second, on average, and at once, whoever asks: a flood of
logins from many addresses (each under its own bound) is refused past it (429) rather
than hashed, so that it costs the server at most about a third of one core."""
PARAMETERS = {"time_cost": 2, "memory_cost": 19_456, "parallelism": 1}
"""Argon2id's cost: OWASP's recommended minimum (19 MiB, 2 passes, 1 lane), about 36 ms of
one core a hash. One lane, so a hash takes one core, not four (argon2-cffi's default of 4
lanes lets one hashing thread take every core of a small machine). Hashes made with other
parameters still verify, and are made again with these at the next login."""
HASHING_NICENESS = 19
"""The hashing threads' niceness: the event loop's thread wins the CPU from them, so a
flood of logins delays logins, not moves."""


def _yield_the_cpu() -> None:
    """Make the calling thread (a hashing worker) the last to get a busy CPU (Linux sets
    niceness per thread; elsewhere nothing changes)."""
    import contextlib
    import os
    import threading

    thread = threading.get_native_id()
    try:  # Linux: the idle class, run only on a CPU nothing else wants
        os.sched_setscheduler(thread, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, thread, HASHING_NICENESS)


def check_password(password: str) -> str:
    """``password`` if it is one an account may have, else :class:`BadParameterError`.

    >>> check_password("short")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: password of 5 characters; expected 8 to 256
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadParameterError(f"password of {len(password)} characters; expected "
                                f"{MIN_PASSWORD} to {MAX_PASSWORD}")
    return password


class Hasher:
    """Argon2id hashing and checking in ``threads`` worker threads, never on the loop."""

    def __init__(self, threads: int = 1, hasher: PasswordHasher | None = None,
                 per_second: float = HASHES_PER_SECOND) -> None:
        self._hasher = hasher or PasswordHasher(**PARAMETERS)
        self._rate = MessageRate(per_second, HASH_BURST)
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._waiting = 0
        self._dummy: str | None = None

    async def _run(self, function: object, *args: str) -> object:
        if self._waiting >= QUEUE or not self._rate.allow():
            raise TooMany("too many logins are being checked right now; try again in a "
                          "few seconds")
        self._waiting += 1
        try:
            if self._pool is None:  # made on first use, again after close (a restarted app)
                self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="argon2",
                                                initializer=_yield_the_cpu)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, function, *args)  # type: ignore[arg-type]
        finally:
            self._waiting -= 1

    async def hash(self, password: str) -> str:
        """The Argon2id hash of ``password`` (with its own salt and parameters)."""
        return str(await self._run(self._hasher.hash, password))

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches the hash ``stored``; ``None`` (no such account) is
        checked against a dummy hash, taking as long, and is never a match."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(16))
            await self._run(self._check, self._dummy, password)
            return False
        return bool(await self._run(self._check, stored, password))

    def _check(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than today's."""
        return self._hasher.check_needs_rehash(stored)

    def close(self) -> None:
        """Stop the worker threads (a later hash starts them again)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
