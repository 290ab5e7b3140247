"""Bounds on login attempts: per client address and per account, over sliding windows.

A login is checked here *before* its password is hashed: an address past its bound, or an
account that many wrong passwords were tried on lately, is refused at once (429) and costs
the server nothing. Only failures count towards an account's bound (the holder logging in
often is not an attack); every attempt counts towards its address's bound, so one address
cannot try passwords across many accounts either. An account's bound means a stranger can
keep its holder from logging in for a while by failing on purpose: the holder's sessions
that are open stay open, and the bound lifts by itself (``docs/security.md``).

>>> now = [0.0]
>>> counter = WindowCounter(limit=2, window=60.0, clock=lambda: now[0])
>>> counter.add("a"); counter.add("a"); counter.full("a")
True
>>> now[0] = 61.0; counter.full("a")
False
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable

from lifearena.web.limits import BoundedTable, TooMany

ADDRESS_ATTEMPTS, ADDRESS_WINDOW = 20, 600.0
"""Logins and sign-ups one address may try in ten minutes."""
ACCOUNT_FAILURES, ACCOUNT_WINDOW = 8, 600.0
"""Wrong passwords an account takes in ten minutes before its logins are refused."""


class WindowCounter:
    """Events per key in the last ``window`` seconds, at most ``limit`` kept per key; at
    most ``max_keys`` keys tracked (the least recently counted forgotten first)."""

    def __init__(self, limit: int, window: float, max_keys: int = 100_000, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self._clock = limit, window, clock
        self._stamps: BoundedTable[str, collections.deque[float]] = BoundedTable(max_keys)

    def _recent(self, key: str) -> collections.deque[float]:
        stamps = self._stamps.peek(key)
        if stamps is None:
            return collections.deque()
        cutoff = self._clock() - self.window
        while stamps and stamps[0] <= cutoff:
            stamps.popleft()
        return stamps

    def full(self, key: str) -> bool:
        """Whether ``key`` has had ``limit`` events in the window."""
        return len(self._recent(key)) >= self.limit

    def add(self, key: str) -> None:
        """Count one event of ``key`` now."""
        stamps = self._recent(key)
        stamps.append(self._clock())
        while len(stamps) > self.limit:
            stamps.popleft()
        self._stamps[key] = stamps

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` has room again (0 when it has)."""
        stamps = self._recent(key)
        if len(stamps) < self.limit:
            return 0.0
        return max(0.0, stamps[0] + self.window - self._clock())


class LoginAttempts:
    """The two bounds a login passes (:data:`ADDRESS_ATTEMPTS`, :data:`ACCOUNT_FAILURES`).

    >>> attempts = LoginAttempts(per_address=1)
    >>> attempts.check("1.2.3.4", "alice"); attempts.tried("1.2.3.4")
    >>> attempts.check("1.2.3.4", "bob")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.limits.TooMany: too many logins from this address; try again in ...
    """

    def __init__(self, per_address: int = ADDRESS_ATTEMPTS,
                 per_account: int = ACCOUNT_FAILURES, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.addresses = WindowCounter(per_address, ADDRESS_WINDOW, clock=clock)
        self.accounts = WindowCounter(per_account, ACCOUNT_WINDOW, clock=clock)

    def check(self, address: str, account_key: str | None) -> None:
        """Refuse (429, one line) a login from ``address`` to the account ``account_key``
        past either bound; count nothing."""
        if self.addresses.full(address):
            wait = self.addresses.retry_after(address)
            raise TooMany(f"too many logins from this address; try again in {wait:.0f} s")
        if account_key is not None and self.accounts.full(account_key):
            wait = self.accounts.retry_after(account_key)
            raise TooMany(f"too many wrong passwords for this account lately; try again in "
                          f"{wait:.0f} s")

    def tried(self, address: str) -> None:
        """Count an attempt from ``address`` (made after :meth:`check` let it through)."""
        self.addresses.add(address)

    def failed(self, account_key: str) -> None:
        """Count a wrong password for the account ``account_key``."""
        self.accounts.add(account_key)
