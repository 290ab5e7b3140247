"""Quick pairing, as lichess's pools: players wait in a pool for one game and one time
control, and the server pairs them by rating every few seconds.

Pure bookkeeping: no timers, no event loop and no hidden randomness. The server calls
:meth:`Pools.pair_all` with its clock's ``now`` (seconds, the clock the seekers' ``joined``
stamps come from) and starts a game for each :class:`Pairing` it gets.

The rules:

* A pool is one game, one :class:`Preset` (``"3+2"``, ``"1d"``, ...) and one kind: ``"people"``
  (no bots) or ``"bots"`` (bots only, paired with bots only).
* Rated seekers pair with rated ones only, casual with casual; two seekers of one client
  address never meet in a rated game (one person playing against itself for rating).
* Each seeker accepts opponents within a **rating window** around its own rating that widens
  with its wait (:meth:`Seeker.window`): ±:data:`WINDOW_START` at first
  (±:data:`WINDOW_START_PROVISIONAL` while its rating is provisional), growing linearly to
  ±:data:`WINDOW_WIDE` after :data:`WIDEN_SECONDS`, and unbounded once it has waited
  :data:`UNBOUNDED_AFTER`. Two seekers are paired only when each lies in the other's window
  (:func:`compatible`).
* Among compatible seekers the closest ratings are paired first (the pair whose earlier
  seeker joined first wins a tie; then the lower ratings): a greedy matching that leaves no
  two compatible seekers waiting (unless seekers crafted to be passed over make one give up
  for this call, :data:`MAX_SKIPS`). It depends only on the seekers, not on the order they
  joined in, and costs O(n log n) for n seekers in the common case (a full pool of 2,000
  seekers takes under 10 ms).
* A pairing's ``first`` plays seat 0: a coin of the ``random.Random`` given to the pool
  chooses it, or, with none, the seats alternate from one pairing to the next.
* A pool holds at most :data:`POOL_SIZE` seekers, and a player waits in at most
  :data:`POOLS_PER_PLAYER` pools at once: :class:`~lifearena.web.limits.TooMany` (429)
  otherwise.

>>> pools = Pools()
>>> pools.join("losat", "3+2", "people", Seeker("ann", 1500, 60, True, "10.0.0.1", 0.0))
>>> pools.join("losat", "3+2", "people", Seeker("bob", 1850, 60, True, "10.0.0.2", 0.0))
>>> pools.pair_all(now=1.0)            # 350 points apart: too far for a fresh window
[]
>>> [pairing.players for pairing in pools.pair_all(now=25.0)]   # windows wider now
[('ann', 'bob')]
>>> pools.counts()[PoolKey("losat", "3+2", "people")]
0
>>> preset("3+2")
Preset(key='3+2', label='3+2 · Blitz', speed='blitz', clock={'kind': 'live', 'minutes': 3, \
'increment': 2})
>>> preset("2+1")                      # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: unknown preset '2+1'; expected one of 1+0, 3+2, 5+3, ...
"""

from __future__ import annotations

import heapq
import math
import operator
import random
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from lifearena.arena.glicko2 import LICHESS
from lifearena.errors import BadParameterError, quoted
from lifearena.web.catalog import GAMES
from lifearena.web.limits import TooMany

WINDOW_START = 100.0
"""Half-width of a fresh seeker's rating window (rating points each side)."""
WINDOW_START_PROVISIONAL = 250.0
"""Half-width of a fresh window while the seeker's rating is provisional (its deviation at
least lichess's 110, :class:`~lifearena.arena.glicko2.Settings`): its rating says less."""
WINDOW_WIDE = 500.0
"""Half-width a window reaches after :data:`WIDEN_SECONDS` of waiting, and keeps until
:data:`UNBOUNDED_AFTER`."""
WIDEN_SECONDS = 30.0
"""Seconds over which a window grows linearly from its start to :data:`WINDOW_WIDE`."""
UNBOUNDED_AFTER = 60.0
"""Seconds of waiting after which a seeker accepts any rating."""
MAX_SKIPS = 100
"""Seekers one seeker looks past, in one pairing call, that will not have it (their window
is narrower than the gap, or a rated game against their address) before it gives up until
the next call: a bound on what seekers crafted to be passed over may cost, 2,000 x 100
steps at worst. An ordinary pool seldom comes near it; while no seeker reaches it, the
matching leaves no two compatible seekers waiting."""
POOL_SIZE = 2_000
"""Seekers one pool holds at most (pairing that many takes a few milliseconds)."""
POOLS_PER_PLAYER = 6
"""Pools one player may wait in at once."""
KINDS = ("people", "bots")
"""The kinds of pool: people (no bots), and bots (bots only, paired with each other)."""

Kind = Literal["people", "bots"]


@dataclass(frozen=True)
class Preset:
    """A time control offered for quick pairing: its key (``"3+2"``), a label for people,
    its speed, and the clock as a :class:`~lifearena.web.models.TimeControl` dict (``None``:
    untimed). The dict is shared: copy it before changing it."""

    key: str
    label: str
    speed: Literal["bullet", "blitz", "rapid", "correspondence", "unlimited"]
    clock: dict[str, Any] | None = field(hash=False)


PRESETS: tuple[Preset, ...] = (
    Preset("1+0", "1+0 · Bullet", "bullet", {"kind": "live", "minutes": 1, "increment": 0}),
    Preset("3+2", "3+2 · Blitz", "blitz", {"kind": "live", "minutes": 3, "increment": 2}),
    Preset("5+3", "5+3 · Blitz", "blitz", {"kind": "live", "minutes": 5, "increment": 3}),
    Preset("10+5", "10+5 · Rapid", "rapid", {"kind": "live", "minutes": 10, "increment": 5}),
    Preset("1d", "1 day · Correspondence", "correspondence",
           {"kind": "correspondence", "days": 1}),
    Preset("unlimited", "Unlimited", "unlimited", None),
)
"""The presets, in the home page's order (speeds as lichess names them: the estimated
duration ``minutes * 60 + 40 * increment`` under 3 minutes is bullet, under 8 blitz, under 25
rapid)."""
_BY_KEY = {p.key: p for p in PRESETS}
_PROVISIONAL = LICHESS.provisional
_BY_RATING = operator.attrgetter("rating", "joined", "player")


def preset(key: str) -> Preset:
    """The preset called ``key``; :class:`~lifearena.errors.BadParameterError` when none is.

    >>> preset("1d").clock
    {'kind': 'correspondence', 'days': 1}
    """
    found = _BY_KEY.get(key) if isinstance(key, str) else None
    if found is None:
        shown = quoted(key) if isinstance(key, str) else repr(key)
        raise BadParameterError(f"unknown preset {shown}; expected one of "
                                f"{', '.join(_BY_KEY)}")
    return found


def _kind(kind: str) -> Kind:
    if kind == "people":
        return "people"
    if kind == "bots":
        return "bots"
    shown = quoted(kind) if isinstance(kind, str) else repr(kind)
    raise BadParameterError(f"unknown pool kind {shown}; expected people or bots")


def _game(game: str) -> str:
    if game not in GAMES:
        shown = quoted(game) if isinstance(game, str) else repr(game)
        raise BadParameterError(f"unknown game {shown}; expected one of {', '.join(GAMES)}")
    return game


@dataclass(frozen=True)
class Seeker:
    """One player waiting in a pool: an opaque ``player`` id, its rating and deviation,
    whether it wants a rated game, its client ``address`` (only to keep one address from
    playing itself for rating), when it ``joined`` (seconds of the server's pairing clock)
    and whether it is a bot.

    >>> fresh = Seeker("ann", 1500, 60, True, "10.0.0.1", joined=100.0)
    >>> fresh.window(100.0), fresh.window(115.0), fresh.window(145.0), fresh.window(160.0)
    (100.0, 300.0, 500.0, inf)
    >>> Seeker("new", 1500, 350, True, "10.0.0.2", joined=100.0).window(100.0)   # provisional
    250.0
    """

    player: str
    rating: float
    deviation: float
    rated: bool
    address: str
    joined: float
    bot: bool = False

    def __post_init__(self) -> None:
        if not (isinstance(self.player, str) and self.player):
            raise BadParameterError(f"player {self.player!r}; expected a non-empty id string")
        if not isinstance(self.address, str):
            raise BadParameterError(f"address {self.address!r}; expected a string")
        for name in ("rating", "deviation", "joined"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and not isinstance(value, bool)
                    and math.isfinite(value)):
                raise BadParameterError(f"{name} {value!r}; expected a finite number")
        if self.deviation < 0:
            raise BadParameterError(f"deviation {self.deviation!r}; expected at least 0")

    @property
    def provisional(self) -> bool:
        """Whether the rating is provisional (lichess's threshold on the deviation)."""
        return self.deviation >= _PROVISIONAL

    def window(self, now: float) -> float:
        """Half-width of the rating window at ``now`` (``inf``: any rating); a ``joined``
        later than ``now`` counts as no wait."""
        return _windows([self], now)[0]


def compatible(a: Seeker, b: Seeker, now: float) -> bool:
    """Whether ``a`` and ``b`` may be paired at ``now``: two players, both rated or both
    casual, not one address in a rated game, both bots or both not, and each within the
    other's rating window.

    >>> ann = Seeker("ann", 1500, 60, True, "10.0.0.1", 0.0)
    >>> compatible(ann, Seeker("bob", 1580, 60, True, "10.0.0.2", 0.0), now=0.0)
    True
    >>> compatible(ann, Seeker("bob", 1580, 60, False, "10.0.0.2", 0.0), now=0.0)
    False
    >>> compatible(ann, Seeker("eve", 1500, 60, True, "10.0.0.1", 0.0), now=0.0)
    False
    """
    if a.player == b.player or a.rated != b.rated or a.bot != b.bot:
        return False
    if a.rated and a.address == b.address:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= a.window(now) and gap <= b.window(now)


@dataclass(frozen=True)
class Pairing:
    """Two seekers to start a game between: ``first`` plays seat 0, ``second`` seat 1."""

    first: Seeker
    second: Seeker
    preset: Preset
    game: str

    @property
    def rated(self) -> bool:
        """Whether the game is rated (both seekers asked the same)."""
        return self.first.rated

    @property
    def players(self) -> tuple[str, str]:
        """The players of seat 0 and seat 1."""
        return self.first.player, self.second.player


class PoolKey(NamedTuple):
    """Which pool: a game, a preset's key and a kind."""

    game: str
    preset: str
    kind: str


class Pool:
    """The seekers waiting for one game, one preset and one kind (``"people"`` or
    ``"bots"``), and their pairing.

    ``rng`` chooses each pairing's seats; without one they alternate. ``max_size`` bounds
    the seekers (:class:`~lifearena.web.limits.TooMany` past it).

    >>> pool = Pool("p2life", "unlimited", "bots")
    >>> pool.join(Seeker("bot1", 1500, 60, False, "10.0.0.1", 0.0, bot=True))
    >>> pool.join(Seeker("bot2", 1600, 60, False, "10.0.0.1", 0.0, bot=True))
    >>> [p.players for p in pool.pair(now=0.0)], len(pool)
    ([('bot1', 'bot2')], 0)
    """

    def __init__(self, game: str, preset_key: str, kind: str = "people", *,
                 max_size: int = POOL_SIZE, rng: random.Random | None = None) -> None:
        if not (isinstance(max_size, int) and max_size >= 1):
            raise BadParameterError(f"max_size {max_size!r}; expected a whole number of at "
                                    "least 1")
        self.game = _game(game)
        self.preset = preset(preset_key)
        self.kind: Kind = _kind(kind)
        self.max_size = max_size
        self._rng = rng
        self._flip = False
        self._seekers: dict[str, Seeker] = {}

    @property
    def key(self) -> PoolKey:
        """This pool's game, preset key and kind."""
        return PoolKey(self.game, self.preset.key, self.kind)

    def __len__(self) -> int:
        return len(self._seekers)

    def __contains__(self, player: object) -> bool:
        return player in self._seekers

    def __repr__(self) -> str:
        return f"<Pool {self.game} {self.preset.key} {self.kind}: {len(self)} waiting>"

    def join(self, seeker: Seeker) -> None:
        """Let ``seeker`` wait here; a player already waiting has its entry replaced.
        Refused: a bot in a people pool or a person in a bots pool
        (:class:`~lifearena.errors.BadParameterError`), a new player in a full pool
        (:class:`~lifearena.web.limits.TooMany`)."""
        if not isinstance(seeker, Seeker):
            raise BadParameterError(f"seeker {seeker!r}; expected a Seeker")
        if seeker.bot != (self.kind == "bots"):
            raise BadParameterError(
                f"{'a bot' if seeker.bot else 'a person'} cannot wait in the {self.kind} "
                f"pool; expected {'bots' if self.kind == 'bots' else 'people'} only")
        if seeker.player not in self._seekers and len(self._seekers) >= self.max_size:
            raise TooMany(f"{self.max_size} players already waiting for {self.game} "
                          f"{self.preset.key}, the most allowed; try again in a minute")
        self._seekers[seeker.player] = seeker

    def leave(self, player: str) -> bool:
        """Take ``player`` out of the pool; whether it was waiting."""
        return self._seekers.pop(player, None) is not None

    def waiting(self) -> list[Seeker]:
        """The seekers, longest waiting first (ties by player id)."""
        return sorted(self._seekers.values(), key=lambda s: (s.joined, s.player))

    def pair(self, now: float) -> list[Pairing]:
        """Pair whom it can at ``now`` (closest ratings first) and take them out of the pool;
        the pairings in the order they were made (rated ones first)."""
        pairings: list[Pairing] = []
        for rated in (True, False):
            group = [s for s in self._seekers.values() if s.rated == rated]
            for a, b in _match(group, now, rated):
                del self._seekers[a.player], self._seekers[b.player]
                pairings.append(self._seat(a, b))
        return pairings

    def _seat(self, a: Seeker, b: Seeker) -> Pairing:
        if self._rng is not None:
            swap = self._rng.random() < 0.5
        else:
            swap, self._flip = self._flip, not self._flip
        first, second = (b, a) if swap else (a, b)
        return Pairing(first, second, self.preset, self.game)


def _windows(group: list[Seeker], now: float) -> list[float]:
    # Seeker.window for each seeker, without a call per seeker (pairing's hot loop)
    windows = []
    for s in group:
        waited = now - s.joined
        if waited >= UNBOUNDED_AFTER:
            windows.append(math.inf)
            continue
        start = WINDOW_START_PROVISIONAL if s.deviation >= _PROVISIONAL else WINDOW_START
        wide = start if start > WINDOW_WIDE else WINDOW_WIDE
        if waited <= 0.0:
            windows.append(start)
        elif waited >= WIDEN_SECONDS:
            windows.append(wide)
        else:
            windows.append(start + (wide - start) * waited / WIDEN_SECONDS)
    return windows


def _match(group: list[Seeker], now: float, rated: bool) -> list[tuple[Seeker, Seeker]]:
    """The greedy matching of ``group`` (all rated or all casual) at ``now``: compatible
    pairs taken closest ratings first, each pair as (lower rating, higher rating).

    With the seekers sorted by (rating, joined, player), every compatible pair (i, j), i < j,
    is an edge keyed (gap, the earlier of their join times, i, j): the greedy matching takes
    the edges in key order, each whose two seekers are both still free. Along j for a fixed
    i the keys never decrease, so a heap holding each seeker's next candidate above it
    merges those lists in key order, and a seeker whose candidate was taken looks further
    up. Seekers already paired are skipped through ``after`` (the next unpaired index,
    found with path halving), a run of one address in a rated group at once, and a seeker
    passes over at most :data:`MAX_SKIPS` others that will not have it: O(n log n) in the
    common case, O(n * MAX_SKIPS) at worst."""
    n = len(group)
    if n < 2:
        return []
    group.sort(key=_BY_RATING)
    ratings = [s.rating for s in group]
    joined = [s.joined for s in group]
    addresses = [s.address for s in group]
    windows = _windows(group, now)
    paired = [False] * n
    after = list(range(1, n + 1))  # after[k]: an index above k with only paired ones between

    def next_unpaired(k: int) -> int:
        # the smallest unpaired index >= k (n when none), halving the path it walks
        while k < n and paired[k]:
            nxt = after[k]
            if nxt < n and paired[nxt]:
                after[k] = after[nxt]
            k = nxt
        return k

    # run_end[k]: the first index above k of another address (rated games only: a run of
    # seekers of one address is passed over at once)
    run_end = list(range(1, n + 1))
    if rated:
        for k in range(n - 2, -1, -1):
            if addresses[k + 1] == addresses[k]:
                run_end[k] = run_end[k + 1]

    skips = [0] * n

    def candidate(i: int, start: int) -> int:
        # the first unpaired j >= start that i and j accept (-1 when none is left, or when
        # i has passed over MAX_SKIPS seekers that will not have it in this call)
        rating, window, address = ratings[i], windows[i], addresses[i]
        j = next_unpaired(start)
        while j < n:
            gap = ratings[j] - rating
            if gap > window:
                return -1
            if rated and addresses[j] == address:
                j = next_unpaired(run_end[j])
            elif gap <= windows[j]:
                return j
            else:
                j = next_unpaired(j + 1)
            skips[i] += 1
            if skips[i] > MAX_SKIPS:
                return -1
        return -1

    heap: list[tuple[float, float, int, int]] = []
    for i in range(n - 1):  # each seeker's first candidate
        j = candidate(i, i + 1)
        if j >= 0:
            heap.append((ratings[j] - ratings[i], min(joined[i], joined[j]), i, j))
    heapq.heapify(heap)
    pairs: list[tuple[Seeker, Seeker]] = []
    while heap:
        _, _, i, j = heapq.heappop(heap)
        if paired[i]:
            continue
        if paired[j]:
            j = candidate(i, j + 1)
            if j >= 0:
                heapq.heappush(heap, (ratings[j] - ratings[i], min(joined[i], joined[j]), i, j))
            continue
        paired[i] = paired[j] = True
        pairs.append((group[i], group[j]))
    return pairs


class Pools:
    """Every pool: one per game of ``games``, preset and kind, made up front (so that
    :meth:`counts` lists the empty ones too).

    A player may wait in several pools (the caller decides whether it should);
    :meth:`leave_all` takes it out of every one, as when it starts a game or its page
    closes. Each pool holds at most ``pool_size`` seekers and a player waits in at most
    ``pools_per_player`` pools (:class:`~lifearena.web.limits.TooMany` past either bound).
    ``rng`` chooses every pairing's seats (without one they alternate in each pool).

    >>> pools = Pools(pools_per_player=1)
    >>> ann = Seeker("ann", 1500, 60, False, "10.0.0.1", 0.0)
    >>> pools.join("war_of_life", "1+0", "people", ann)
    >>> pools.join("losat", "1+0", "people", ann)     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.limits.TooMany: ann already waits in 1 pools, the most allowed; ...
    >>> pools.pools_of("ann"), pools.leave_all("ann"), pools.pools_of("ann")
    ([PoolKey(game='war_of_life', preset='1+0', kind='people')], 1, [])
    """

    def __init__(self, games: tuple[str, ...] = GAMES, *, pool_size: int = POOL_SIZE,
                 pools_per_player: int = POOLS_PER_PLAYER,
                 rng: random.Random | None = None) -> None:
        if not (isinstance(pools_per_player, int) and pools_per_player >= 1):
            raise BadParameterError(f"pools_per_player {pools_per_player!r}; expected a "
                                    "whole number of at least 1")
        self.pools_per_player = pools_per_player
        self._pools: dict[PoolKey, Pool] = {}
        for game in games:
            for p in PRESETS:
                for kind in KINDS:
                    pool = Pool(game, p.key, kind, max_size=pool_size, rng=rng)
                    self._pools[pool.key] = pool

    def pool(self, game: str, preset_key: str, kind: str) -> Pool:
        """The pool of ``game``, ``preset_key`` and ``kind``
        (:class:`~lifearena.errors.BadParameterError` naming what is unknown)."""
        found = self._pools.get(PoolKey(game, preset_key, kind))
        if found is None:
            _game(game), preset(preset_key), _kind(kind)
            raise BadParameterError(f"no pool for {game} here")  # a game left out of games
        return found

    def join(self, game: str, preset_key: str, kind: str, seeker: Seeker) -> None:
        """Let ``seeker`` wait in that pool (:meth:`Pool.join`), unless it already waits in
        :attr:`pools_per_player` other pools."""
        pool = self.pool(game, preset_key, kind)
        if seeker.player not in pool:
            count = len(self.pools_of(seeker.player))
            if count >= self.pools_per_player:
                raise TooMany(f"{seeker.player} already waits in {count} pools, the most "
                              "allowed; leave one first")
        pool.join(seeker)

    def leave(self, game: str, preset_key: str, kind: str, player: str) -> bool:
        """Take ``player`` out of that pool; whether it was waiting there."""
        return self.pool(game, preset_key, kind).leave(player)

    def leave_all(self, player: str) -> int:
        """Take ``player`` out of every pool; how many it was waiting in."""
        return sum(pool.leave(player) for pool in self._pools.values())

    def pools_of(self, player: str) -> list[PoolKey]:
        """The pools ``player`` waits in."""
        return [key for key, pool in self._pools.items() if player in pool]

    def pair_all(self, now: float) -> list[Pairing]:
        """Pair whom each pool can at ``now`` (:meth:`Pool.pair`), pool by pool in
        :meth:`counts`'s order. A player paired in one pool is then taken out of the others,
        and a player waiting in two pools is paired in the first only."""
        seen: set[str] = set()
        several: set[str] = set()  # players waiting in more than one pool
        for pool in self._pools.values():
            for player in pool._seekers:
                (several if player in seen else seen).add(player)
        pairings: list[Pairing] = []
        for pool in self._pools.values():
            if len(pool) < 2:
                continue
            for pairing in pool.pair(now):
                for player in pairing.players:
                    if player in several:
                        self.leave_all(player)
                pairings.append(pairing)
        return pairings

    def counts(self) -> dict[PoolKey, int]:
        """Players waiting in each pool (games, then presets, then kinds, in order)."""
        return {key: len(pool) for key, pool in self._pools.items()}
