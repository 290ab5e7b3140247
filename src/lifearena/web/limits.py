"""The server's bounds on what one client may cost it: tables that cannot grow without end,
game creations per address and minute, games in progress per address, messages per socket
and second, and open sockets per game and per address.

Every bound here is enforced in memory, per server process; none of it awaits, so one client
cannot slow another while it is checked. The application answers :class:`TooMany` (and its
subclass :class:`TooManySockets`) with status 429, over HTTP or as a socket's error message.

>>> rate = CreationRate(per_minute=2)
>>> for _ in range(2):
...     rate.check("203.0.113.7")
...     rate.count("203.0.113.7")   # only once a game was really created
>>> rate.check("203.0.113.7")       # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.web.limits.TooMany: 2 games created from this address in the last minute, the most ...
"""

from __future__ import annotations

import collections
import ipaddress
import math
import time
from collections.abc import Callable, ItemsView, Iterator, MutableMapping, ValuesView
from contextlib import contextmanager
from typing import Protocol, TypeVar, overload

from lifearena.errors import BadParameterError, LifeArenaError

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")

MAX_ADDRESSES = 10_000
"""Entries a per-address table keeps; past it the least recently used address is forgotten."""
CREATION_WINDOW = 60.0
"""Seconds over which game creations are counted (a minute)."""
SOCKETS_PER_GAME = 64
"""Open sockets one game may have (its two seats' pages and its spectators together)."""
SOCKETS_PER_ADDRESS = 32
"""Open sockets one client address may have, over every game."""
MESSAGES_PER_SECOND = 20.0
"""Messages one socket may send per second, on average (a person moves far more slowly)."""
MESSAGE_BURST = 40
"""Messages one socket may send at once before :data:`MESSAGES_PER_SECOND` applies."""
FLOOD_EXCESS = 40
"""Messages past its rate (forgiven at :data:`MESSAGES_PER_SECOND`) after which a socket
counts as flooding and is closed."""
FLOOD_HOLD_OFF = 30.0
"""Seconds an address whose socket was closed for flooding may open no socket."""
GAMES_IN_PROGRESS = 20
"""Unfinished games one client address may have made or hold a seat in at once."""
IN_PROGRESS_WITHIN = 3600.0
"""Seconds since its last change after which an unfinished game no longer counts as in
progress (an hour: a game left for good stops holding its creator back)."""


class TooMany(LifeArenaError):
    """A client went past a bound on what it may do in a while or have open at once (429)."""


class TooManySockets(TooMany):
    """A socket over the bound of open sockets per game or per client address (429)."""


def _at_least(name: str, value: float, least: float) -> None:
    if not value >= least:  # also refuses NaN
        raise BadParameterError(f"{name} {value!r}; expected a number of at least {least:g}")


def address_key(host: str) -> str:
    """The key under which ``host`` (a client's address as the server saw it) is counted.

    An IPv6 client usually holds a whole /64 network, so it is counted by that network, not
    by one of its 2**64 addresses; an IPv4-mapped IPv6 address is its IPv4 address; anything
    that is not an IP address (a test client's name) is its own key.

    >>> address_key("203.0.113.7")
    '203.0.113.7'
    >>> address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd")
    '2001:db8:1:2::/64'
    >>> address_key("::ffff:203.0.113.7")
    '203.0.113.7'
    >>> address_key("testclient")
    'testclient'
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class BoundedTable(MutableMapping[K, V]):
    """A mapping of at most ``max_size`` entries that forgets the least recently used one
    when a new key would go past it.

    Reading (``table[key]``, ``get``) or writing a key makes it the most recently used;
    :meth:`peek`, ``in`` and iteration (oldest first) do not.

    >>> table = BoundedTable[str, int](max_size=2)
    >>> table["a"], table["b"] = 1, 2
    >>> table["a"]            # "a" is now more recent than "b"
    1
    >>> table["c"] = 3        # so "b" is forgotten
    >>> list(table), len(table), table.max_size
    (['a', 'c'], 2, 2)
    """

    def __init__(self, max_size: int = MAX_ADDRESSES) -> None:
        _at_least("max_size", max_size, 1)
        self._max_size = int(max_size)
        self._entries: collections.OrderedDict[K, V] = collections.OrderedDict()

    @property
    def max_size(self) -> int:
        """The most entries the table keeps."""
        return self._max_size

    def __getitem__(self, key: K) -> V:
        value = self._entries[key]
        self._entries.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_size:
            self._entries.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._entries[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def items(self) -> ItemsView[K, V]:
        """The entries, oldest first (looking at them is no use of them)."""
        return self._entries.items()

    def values(self) -> ValuesView[V]:
        """The values, oldest first (looking at them is no use of them)."""
        return self._entries.values()

    @overload
    def peek(self, key: K) -> V | None: ...
    @overload
    def peek(self, key: K, default: D) -> V | D: ...
    def peek(self, key: K, default: object = None) -> object:
        """The value of ``key`` (``default`` when absent) without making it recently used.

        >>> table = BoundedTable[str, int](max_size=2)
        >>> table["a"], table["b"] = 1, 2
        >>> table.peek("a"), table.peek("z", 0)
        (1, 0)
        >>> table["c"] = 3    # "a" was only peeked at: it is still the oldest
        >>> list(table)
        ['b', 'c']
        """
        return self._entries.get(key, default)

    def oldest(self) -> K | None:
        """The least recently used key (``None`` when the table is empty)."""
        return next(iter(self._entries), None)

    def __repr__(self) -> str:
        return f"BoundedTable({dict(self._entries)!r}, max_size={self._max_size})"


class CreationCounter(Protocol):
    """Creations counted beyond this process (a replica's site-wide counts:
    :class:`~lifearena.web.quota_share.SharedCreations`)."""

    def check(self, address: str) -> None:
        """Raise :class:`TooMany` when ``address`` is past its quota; count nothing."""

    def count(self, address: str) -> None:
        """Count one creation of ``address``."""


class CreationRate:
    """At most ``per_minute`` successful game creations per client address in any minute.

    :meth:`check` refuses a creation without counting it; :meth:`count` records one that
    succeeded. A request refused for any reason (bad input, or this bound) thus uses up none
    of its client's quota. Call :meth:`count` with no ``await`` between it and the creation's
    :meth:`check`, so that concurrent requests cannot slip past the bound together.

    Stamps older than a minute are dropped, an address with no recent creation is forgotten,
    and at most ``max_addresses`` addresses are tracked (past that the one that created least
    recently is forgotten, so its quota starts afresh).

    >>> now = [0.0]
    >>> rate = CreationRate(per_minute=1, clock=lambda: now[0])
    >>> rate.check("a"); rate.count("a")
    >>> rate.used("a"), len(rate)
    (1, 1)
    >>> now[0] = 59.5
    >>> rate.check("a")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.limits.TooMany: 1 games created from this address in the last minute, ...
    >>> now[0] = 60.0    # a minute after the creation: allowed again, and "a" forgotten
    >>> rate.check("a"); rate.used("a"), len(rate)
    (0, 0)
    """

    def __init__(self, per_minute: int, max_addresses: int = MAX_ADDRESSES, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        _at_least("per_minute", per_minute, 1)
        self.per_minute = int(per_minute)
        self.window = CREATION_WINDOW
        self._clock = clock
        # ordered by each address's latest creation: count() is the only writer that makes
        # an entry recent, so the oldest entry is the one whose newest stamp is oldest
        self._stamps: BoundedTable[str, collections.deque[float]] = BoundedTable(max_addresses)
        self.shared: CreationCounter | None = None
        """The site-wide counts, on a replica of several
        (:mod:`lifearena.web.quota_share`)."""

    def check(self, address: str) -> None:
        """Raise :class:`TooMany` when ``address`` already made :attr:`per_minute`
        creations in the last minute (here, or on the site as far as this replica knows);
        count nothing."""
        if self.shared is not None:
            self.shared.check(address)
        now = self._clock()
        stamps = self._recent(address, now)
        if stamps is not None and len(stamps) >= self.per_minute:
            wait = max(1, math.ceil(stamps[0] + self.window - now))
            raise TooMany(f"{self.per_minute} games created from this address in the last "
                          f"minute, the most allowed; try again in {wait} s")

    def count(self, address: str) -> None:
        """Record one successful creation by ``address``, now."""
        if self.shared is not None:
            self.shared.count(address)
        now = self._clock()
        stamps = self._recent(address, now)
        if stamps is None:
            stamps = collections.deque(maxlen=self.per_minute)
        stamps.append(now)
        self._stamps[address] = stamps  # the most recent entry now

    def used(self, address: str) -> int:
        """Creations ``address`` made in the last minute."""
        stamps = self._recent(address, self._clock())
        return 0 if stamps is None else len(stamps)

    def __len__(self) -> int:
        """Addresses with a creation in the last minute (or not yet found stale)."""
        return len(self._stamps)

    def _recent(self, address: str, now: float) -> collections.deque[float] | None:
        self._forget_stale(now)
        stamps = self._stamps.peek(address)
        if stamps is None:
            return None
        while stamps and now - stamps[0] >= self.window:
            stamps.popleft()
        if not stamps:
            del self._stamps[address]
            return None
        return stamps

    def _forget_stale(self, now: float) -> None:
        # amortised O(1): each address is dropped at most once per creation it counted
        while (oldest := self._stamps.oldest()) is not None:
            stamps = self._stamps.peek(oldest)
            if stamps and now - stamps[-1] < self.window:
                return
            del self._stamps[oldest]


class GamesInProgress:
    """At most ``bound`` unfinished games per client address: games it made (a new game, a
    rematch, an opened record, a challenge made or accepted) or holds a seat in (a claimed
    invitation).

    :meth:`check` refuses one more without counting it; :meth:`add` counts a game made;
    :meth:`touch` says a game changed (it is still being played) and :meth:`finished` that it
    ended or was cancelled: it then counts for nobody. A game unchanged for ``within``
    seconds counts no more (a game abandoned for good stops holding its address back). At most
    ``max_addresses`` addresses are tracked, least recently counted forgotten first.

    >>> now = [0.0]
    >>> games = GamesInProgress(bound=2, within=60, clock=lambda: now[0])
    >>> games.add("203.0.113.7", "g1"); games.add("203.0.113.7", "g2")
    >>> games.check("203.0.113.7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.limits.TooMany: 2 unfinished games made by or played from this address, ...
    >>> games.finished("g1"); games.of("203.0.113.7")
    1
    >>> now[0] = 60.0     # g2 left untouched for a minute: it counts no more
    >>> games.of("203.0.113.7"), games.tracked
    (0, (0, 0))
    """

    def __init__(self, bound: int = GAMES_IN_PROGRESS, within: float = IN_PROGRESS_WITHIN,
                 max_addresses: int = MAX_ADDRESSES, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        _at_least("bound", bound, 1)
        _at_least("within", within, 1e-9)
        self.bound = int(bound)
        self.within = float(within)
        self._clock = clock
        # address -> {game: when it last changed}, and game -> the addresses it counts for
        self._games: BoundedTable[str, dict[str, float]] = BoundedTable(max_addresses)
        self._holders: BoundedTable[str, set[str]] = BoundedTable(
            max_addresses * self.bound)

    def check(self, address: str) -> None:
        """Raise :class:`TooMany` when ``address`` has :attr:`bound` games in progress."""
        count = self.of(address)
        if count >= self.bound:
            raise TooMany(f"{count} unfinished games made by or played from this address, the "
                          f"most allowed; finish or resign one first (a game untouched for "
                          f"{self.within / 60:.0f} minutes stops counting)")

    def add(self, address: str, game_id: str) -> None:
        """Count ``game_id`` as in progress for ``address`` (checked first with
        :meth:`check`, with no ``await`` between)."""
        games = self._games.peek(address) or {}
        games[game_id] = self._clock()
        self._games[address] = games
        self._holders.setdefault(game_id, set()).add(address)

    def touch(self, game_id: str) -> None:
        """``game_id`` changed: it is being played (its hour starts again)."""
        now = self._clock()
        for address in self._holders.peek(game_id) or ():
            games = self._games.peek(address)
            if games is not None and game_id in games:
                games[game_id] = now

    def finished(self, game_id: str) -> None:
        """``game_id`` ended or was cancelled: it counts for nobody now."""
        holders = self._holders.peek(game_id)
        if holders is None:
            return
        del self._holders[game_id]
        for address in holders:
            games = self._games.peek(address)
            if games is not None:
                games.pop(game_id, None)
                if not games:
                    del self._games[address]

    def addresses_of(self, game_id: str) -> set[str]:
        """The addresses ``game_id`` counts for (its maker's, and each seat's taker's)."""
        return set(self._holders.peek(game_id) or ())

    def of(self, address: str) -> int:
        """Games in progress for ``address`` (stale ones forgotten first)."""
        games = self._games.peek(address)
        if games is None:
            return 0
        now = self._clock()
        for game_id, changed in list(games.items()):
            if now - changed >= self.within:
                del games[game_id]
                holders = self._holders.peek(game_id)
                if holders is not None:
                    holders.discard(address)
                    if not holders:
                        del self._holders[game_id]
        if not games:
            del self._games[address]
        return len(games)

    @property
    def tracked(self) -> tuple[int, int]:
        """How many addresses and how many games the tables hold."""
        return len(self._games), len(self._holders)


ANSWER_BYTES_PER_ADDRESS = 32 * 2**20
"""Bytes of big answers not yet sent that one client address may hold (a 1,000-move
replay of p2life on 64x64 is about 17 MiB; :mod:`lifearena.web.answers`)."""
ANSWER_BYTES_TOTAL = 256 * 2**20
"""Bytes of big answers not yet sent that the whole server holds before it refuses more."""
VIEW_BYTES_PER_SECOND = 4 * 2**20
"""Bytes of game views one client address may fetch over HTTP a second, on average (4 MiB:
a page fetches a view when it opens and gets the rest pushed over its socket)."""
VIEW_BYTES_BURST = 8 * 2**20
"""Bytes of views one address may fetch at once before the rate applies."""


class ByteRate:
    """A token bucket of bytes per client address: ``burst`` bytes at once, then
    ``per_second`` on average. An answer is refused (:class:`TooMany`, 429) when the bucket
    holds less than its size (or, for one bigger than the burst, when it is not full), so
    that one address reading a huge view over and over cannot keep the event loop sending
    it; refusing costs next to nothing. At most ``max_addresses`` addresses are tracked
    (past that the least recently charged is forgotten, its bucket full again).

    >>> now = [0.0]
    >>> rate = ByteRate(per_second=100, burst=300, clock=lambda: now[0])
    >>> rate.charge("a", 200); rate.charge("a", 100)
    >>> rate.charge("a", 50)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.limits.TooMany: this address fetched views faster than ... try again in 1 s
    >>> now[0] = 0.5; rate.charge("a", 50)   # half a second refills 50 bytes
    >>> rate.charge("b", 1_000)              # bigger than the burst: once the bucket is full
    """

    def __init__(self, per_second: float = VIEW_BYTES_PER_SECOND,
                 burst: int = VIEW_BYTES_BURST, max_addresses: int = MAX_ADDRESSES, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        _at_least("per_second", per_second, 1)
        _at_least("burst", burst, 1)
        self.per_second = float(per_second)
        self.burst = float(burst)
        self._clock = clock
        self._buckets: BoundedTable[str, tuple[float, float]] = BoundedTable(max_addresses)

    def charge(self, address: str, size: int) -> None:
        """Take ``size`` bytes from ``address``'s bucket, or raise :class:`TooMany`."""
        now = self._clock()
        tokens, last = self._buckets.peek(address, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - last) * self.per_second)
        needed = min(float(size), self.burst)
        if tokens < needed:
            self._buckets[address] = (tokens, now)
            wait = max(1, math.ceil((needed - tokens) / self.per_second))
            raise TooMany(f"this address fetched views faster than "
                          f"{self.per_second / 2**20:g} MiB a second, the most allowed "
                          f"(the page's socket pushes every change); try again in {wait} s")
        self._buckets[address] = (tokens - needed, now)


class MessageRate:
    """A token bucket for one socket: ``burst`` messages at once, then ``per_second`` on
    average; and a second bucket of the messages refused, forgiven at ``per_second``, which
    says when a page is :attr:`flooding` (more than ``excess`` refused and not yet forgiven).

    A page a little over the rate loses a message now and then; one that keeps sending
    regardless is flooding, and the server closes it rather than reading on.

    >>> now = [0.0]
    >>> rate = MessageRate(per_second=2, burst=3, excess=1, clock=lambda: now[0])
    >>> [rate.allow() for _ in range(4)], rate.flooding
    ([True, True, True, False], False)
    >>> now[0] = 0.5      # half a second refills one message and forgives one refusal
    >>> rate.allow(), rate.allow(), rate.flooding
    (True, False, False)
    >>> rate.allow(), rate.flooding   # two refusals not yet forgiven: past the excess
    (False, True)
    """

    def __init__(self, per_second: float = MESSAGES_PER_SECOND, burst: int = MESSAGE_BURST,
                 *, excess: int = FLOOD_EXCESS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        _at_least("per_second", per_second, 1e-9)
        _at_least("burst", burst, 1)
        _at_least("excess", excess, 0)
        self.per_second = float(per_second)
        self.burst = int(burst)
        self.excess = int(excess)
        self._clock = clock
        self._tokens = float(self.burst)
        self._refused = 0.0
        self._last = clock()

    def allow(self) -> bool:
        """Whether one more message may be handled now (and if so, count it; if not, count
        it as refused)."""
        now = self._clock()
        elapsed = max(0.0, now - self._last)
        self._last = now
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.per_second)
        self._refused = max(0.0, self._refused - elapsed * self.per_second)
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self._refused += 1.0
        return False

    @property
    def flooding(self) -> bool:
        """Whether more than ``excess`` refused messages are not yet forgiven."""
        return self._refused > self.excess


class SocketCounts:
    """Open sockets by game and by client address, each under its bound.

    Call :meth:`acquire` before a socket is served and :meth:`release` exactly once when it
    ends (or use :meth:`holding`); a game or address whose count falls to zero is forgotten,
    so the tables hold only what is open.

    >>> counts = SocketCounts(per_game=2, per_address=1)
    >>> counts.acquire("game1", "203.0.113.7")
    >>> counts.acquire("game1", "203.0.113.7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.limits.TooManySockets: 1 sockets already open from this address, the most ...
    >>> counts.release("game1", "203.0.113.7")
    >>> counts.of_game("game1"), counts.of_address("203.0.113.7"), counts.total
    (0, 0, 0)
    """

    def __init__(self, per_game: int = SOCKETS_PER_GAME,
                 per_address: int = SOCKETS_PER_ADDRESS, *,
                 max_addresses: int = MAX_ADDRESSES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        _at_least("per_game", per_game, 1)
        _at_least("per_address", per_address, 1)
        self.per_game = int(per_game)
        self.per_address = int(per_address)
        self._games: dict[str, int] = {}
        self._addresses: dict[str, int] = {}
        self._held_off = BoundedTable[str, float](max_addresses)
        self._clock = clock

    def hold_off(self, address: str, seconds: float = FLOOD_HOLD_OFF) -> None:
        """Refuse new sockets from ``address`` for ``seconds`` (one of its sockets flooded).

        >>> now = [0.0]
        >>> counts = SocketCounts(clock=lambda: now[0])
        >>> counts.hold_off("203.0.113.7", 30)
        >>> counts.acquire("game1", "203.0.113.7")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lifearena.web.limits.TooManySockets: a socket from this address flooded the server; ...
        >>> now[0] = 30.0
        >>> counts.acquire("game1", "203.0.113.7")
        """
        self._held_off[address] = max(self._held_off.peek(address, 0.0),
                                      self._clock() + seconds)

    def acquire(self, game_id: str, address: str, limit: int | None = None) -> None:
        """Count one more socket on ``game_id`` from ``address``; raise
        :class:`TooManySockets` (and count nothing) when either bound is reached, or while
        ``address`` is held off. ``limit``: the bound of ``game_id``'s sockets when it is
        not a game's (the lobby's watchers), else :attr:`per_game`.

        >>> counts = SocketCounts(per_game=1)
        >>> counts.acquire("(lobby)", "a", limit=2); counts.acquire("(lobby)", "b", limit=2)
        >>> counts.of_game("(lobby)")
        2
        """
        until = self._held_off.peek(address)
        if until is not None:
            wait = until - self._clock()
            if wait > 0:
                raise TooManySockets(f"a socket from this address flooded the server; no new "
                                     f"socket for {math.ceil(wait)} s")
            del self._held_off[address]
        bound = self.per_game if limit is None else limit
        if self._games.get(game_id, 0) >= bound:
            raise TooManySockets(f"{bound} sockets already open on this "
                                 f"{'game' if limit is None else 'page'}, the most "
                                 "allowed; close a page first")
        if self._addresses.get(address, 0) >= self.per_address:
            raise TooManySockets(f"{self.per_address} sockets already open from this "
                                 "address, the most allowed; close a page first")
        self._games[game_id] = self._games.get(game_id, 0) + 1
        self._addresses[address] = self._addresses.get(address, 0) + 1

    def release(self, game_id: str, address: str) -> None:
        """Count one socket of ``game_id`` from ``address`` less (it was acquired)."""
        if self._games.get(game_id, 0) < 1 or self._addresses.get(address, 0) < 1:
            raise RuntimeError(f"release of a socket never acquired: game {game_id!r}, "
                               f"address {address!r}")
        for table, key in ((self._games, game_id), (self._addresses, address)):
            table[key] -= 1
            if table[key] == 0:
                del table[key]

    @contextmanager
    def holding(self, game_id: str, address: str) -> Iterator[None]:
        """:meth:`acquire` now and :meth:`release` when the block ends, however it ends.

        >>> counts = SocketCounts()
        >>> with counts.holding("game1", "203.0.113.7"):
        ...     counts.total
        1
        >>> counts.total
        0
        """
        self.acquire(game_id, address)
        try:
            yield
        finally:
            self.release(game_id, address)

    def of_game(self, game_id: str) -> int:
        """Sockets open on ``game_id``."""
        return self._games.get(game_id, 0)

    def of_address(self, address: str) -> int:
        """Sockets open from ``address``."""
        return self._addresses.get(address, 0)

    @property
    def total(self) -> int:
        """Sockets open in all."""
        return sum(self._games.values())

    @property
    def tracked(self) -> tuple[int, int]:
        """How many games and how many addresses have a socket open (the tables' sizes)."""
        return len(self._games), len(self._addresses)
