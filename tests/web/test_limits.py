"""The server's bounds (:mod:`lifearena.web.limits`): tables that never outgrow their size,
game creations per address and minute (refused requests use no quota), messages per socket
and second, open sockets per game and per address."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web.limits import (
    MAX_ADDRESSES,
    SOCKETS_PER_ADDRESS,
    SOCKETS_PER_GAME,
    BoundedTable,
    CreationRate,
    GamesInProgress,
    MessageRate,
    SocketCounts,
    TooMany,
    TooManySockets,
    address_key,
)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def one_line(error: BaseException) -> str:
    text = str(error)
    assert text and "\n" not in text, text
    return text


# -- BoundedTable -----------------------------------------------------------------------------

operations = st.lists(st.tuples(st.sampled_from(["set", "get", "del", "peek"]),
                                st.integers(0, 12), st.integers()), max_size=200)


@given(size=st.integers(1, 6), ops=operations)
def test_a_bounded_table_never_outgrows_its_size_and_forgets_the_least_recently_used(
        size: int, ops: list[tuple[str, int, int]]) -> None:
    table: BoundedTable[int, int] = BoundedTable(size)
    model: collections.OrderedDict[int, int] = collections.OrderedDict()  # oldest first
    for op, key, value in ops:
        if op == "set":
            table[key] = value
            model[key] = value
            model.move_to_end(key)
            while len(model) > size:
                model.popitem(last=False)
        elif op == "get":
            assert table.get(key) == model.get(key)
            if key in model:
                model.move_to_end(key)
        elif op == "del":
            if key in model:
                del table[key]
                del model[key]
            else:
                with pytest.raises(KeyError):
                    del table[key]
        else:
            assert table.peek(key) == model.get(key)
        assert len(table) <= size
        assert list(table.items()) == list(model.items())
        assert table.oldest() == next(iter(model), None)


def test_a_bounded_table_defaults_to_the_address_bound_and_refuses_a_size_below_one() -> None:
    assert BoundedTable().max_size == MAX_ADDRESSES == 10_000
    with pytest.raises(BadParameterError) as refused:
        BoundedTable(0)
    assert one_line(refused.value) == "max_size 0; expected a number of at least 1"


def test_membership_and_iteration_do_not_count_as_use() -> None:
    table: BoundedTable[str, int] = BoundedTable(2)
    table["a"], table["b"] = 1, 2
    assert "a" in table and list(table) == ["a", "b"]
    table["c"] = 3
    assert list(table) == ["b", "c"]


# -- CreationRate -----------------------------------------------------------------------------

@given(per_minute=st.integers(1, 5),
       steps=st.lists(st.tuples(st.floats(0, 40, allow_nan=False), st.booleans()),
                      max_size=80))
def test_creation_rate_allows_exactly_per_minute_in_any_minute(
        per_minute: int, steps: list[tuple[float, bool]]) -> None:
    clock = Clock()
    rate = CreationRate(per_minute, clock=clock)
    counted: list[float] = []
    for advance, succeeds in steps:
        clock.now += advance
        recent = [t for t in counted if clock.now - t < 60]
        try:
            rate.check("198.51.100.1")
        except TooMany:
            assert len(recent) == per_minute  # refused only when the minute is full
            continue
        assert len(recent) < per_minute       # allowed whenever it is not
        if succeeds:  # the game was really made: only then is it counted
            rate.count("198.51.100.1")
            counted.append(clock.now)
        assert rate.used("198.51.100.1") == len([t for t in counted if clock.now - t < 60])
    for i, start in enumerate(counted):  # never more than per_minute in a minute
        assert len([t for t in counted[i:] if t - start < 60]) <= per_minute


def test_refused_requests_use_no_quota() -> None:
    rate = CreationRate(2, clock=Clock())
    for _ in range(100):  # checked, but refused as bad afterwards: never counted
        rate.check("198.51.100.1")
    rate.count("198.51.100.1")
    rate.check("198.51.100.1")
    rate.count("198.51.100.1")
    with pytest.raises(TooMany) as refused:
        rate.check("198.51.100.1")
    assert one_line(refused.value) == ("2 games created from this address in the last minute, "
                                       "the most allowed; try again in 60 s")
    assert isinstance(refused.value, LifeArenaError)
    rate.check("198.51.100.2")  # another address has its own quota


def test_the_wait_named_is_until_the_oldest_creation_leaves_the_minute() -> None:
    clock = Clock()
    rate = CreationRate(2, clock=clock)
    rate.count("a")
    clock.now += 45.2
    rate.count("a")
    with pytest.raises(TooMany, match=r"try again in 15 s"):
        rate.check("a")
    clock.now += 14.8  # exactly a minute after the first
    rate.check("a")


def test_the_creation_table_shrinks_when_the_minute_is_over() -> None:
    clock = Clock()
    rate = CreationRate(3, clock=clock)
    for n in range(500):
        rate.count(f"10.0.{n // 256}.{n % 256}")
    assert len(rate) == 500
    clock.now += 30
    rate.count("192.0.2.1")
    assert len(rate) == 501
    clock.now += 30  # a minute after the 500: they are forgotten at the next look
    rate.check("192.0.2.9")
    assert len(rate) == 1 and rate.used("192.0.2.1") == 1
    clock.now += 60
    assert rate.used("192.0.2.1") == 0 and len(rate) == 0


def test_the_creation_table_keeps_at_most_max_addresses() -> None:
    rate = CreationRate(1, max_addresses=50, clock=Clock())
    for n in range(1000):
        rate.count(f"10.1.{n // 256}.{n % 256}")
        assert len(rate) <= 50
    with pytest.raises(TooMany):
        rate.check("10.1.3.231")  # the latest is remembered


def test_creation_rate_refuses_a_bound_below_one() -> None:
    with pytest.raises(BadParameterError, match=r"^per_minute 0; expected a number of at "
                                                r"least 1$"):
        CreationRate(0)


# -- GamesInProgress --------------------------------------------------------------------------


def test_games_in_progress_forget_finished_and_stale_games() -> None:
    clock = Clock()
    games = GamesInProgress(bound=2, within=100, clock=clock)
    games.add("a", "g1")
    games.add("a", "g2")
    games.add("b", "g2")  # an accepted challenge: in progress for both players
    with pytest.raises(TooMany, match="2 unfinished games") as refused:
        games.check("a")
    one_line(refused.value)
    games.check("b")
    games.finished("g2")  # ended: it counts for nobody
    assert games.of("a") == 1 and games.of("b") == 0
    clock.now += 60
    games.touch("g1")  # a move: its hour (here 100 s) starts again
    clock.now += 60
    assert games.of("a") == 1
    clock.now += 40
    assert games.of("a") == 0 and games.tracked == (0, 0)  # untouched for 100 s
    games.finished("never-counted")  # harmless


@given(st.lists(st.tuples(st.sampled_from(["add", "touch", "finished", "wait"]),
                          st.integers(0, 3), st.integers(0, 5)), max_size=80))
def test_games_in_progress_match_a_model(ops: list[tuple[str, int, int]]) -> None:
    """Every count equals a plain model's: the games added for an address, less those that
    finished, less those untouched for ``within``; the tables hold nothing else."""
    clock = Clock()
    games = GamesInProgress(bound=3, within=10, clock=clock)
    model: dict[str, dict[str, float]] = {}
    for kind, who, game in ops:
        address, game_id = f"10.0.0.{who}", f"game{game}"
        if kind == "add":
            games.add(address, game_id)
            model.setdefault(address, {})[game_id] = clock.now
        elif kind == "touch":
            games.touch(game_id)
            for held in model.values():
                if game_id in held and clock.now - held[game_id] < 10:
                    held[game_id] = clock.now
        elif kind == "finished":
            games.finished(game_id)
            for held in model.values():
                held.pop(game_id, None)
        else:
            clock.now += game
        for held_address, held in model.items():
            live = sum(1 for at in held.values() if clock.now - at < 10)
            assert games.of(held_address) == live
            if live >= 3:
                with pytest.raises(TooMany):
                    games.check(held_address)
            else:
                games.check(held_address)
        for held in model.values():  # the model forgets what the bound forgot
            for stale in [g for g, at in held.items() if clock.now - at >= 10]:
                del held[stale]
    addresses, tracked_games = games.tracked
    assert addresses == sum(1 for held in model.values() if held)
    assert tracked_games == len({g for held in model.values() for g in held})


# -- MessageRate ------------------------------------------------------------------------------

def test_a_message_rate_allows_its_burst_at_once_then_its_rate() -> None:
    clock = Clock()
    rate = MessageRate(20, 40, clock=clock)
    assert sum(rate.allow() for _ in range(1000)) == 40
    clock.now += 1.0
    assert sum(rate.allow() for _ in range(1000)) == 20
    clock.now += 100.0  # a long pause refills no more than the burst
    assert sum(rate.allow() for _ in range(1000)) == 40


@given(per_second=st.floats(0.5, 50), burst=st.integers(1, 50),
       gaps=st.lists(st.floats(0, 0.5, allow_nan=False), min_size=1, max_size=300))
def test_a_message_rate_never_allows_more_than_burst_plus_rate_times_time(
        per_second: float, burst: int, gaps: list[float]) -> None:
    clock = Clock()
    rate = MessageRate(per_second, burst, clock=clock)
    start, allowed = clock.now, 0
    for gap in gaps:
        clock.now += gap
        allowed += rate.allow()
        assert allowed <= burst + per_second * (clock.now - start) + 1e-6


@given(per_second=st.floats(1, 50), burst=st.integers(1, 50), excess=st.integers(1, 50),
       factor=st.floats(0.1, 1.9), count=st.integers(1, 400))
def test_a_page_under_twice_the_rate_never_floods(per_second: float, burst: int,
                                                     excess: int, factor: float,
                                                     count: int) -> None:
    """Refusals are forgiven at the rate, so a page that sends under twice the rate (fewer
    refusals than messages allowed) loses messages but is never flooding."""
    clock = Clock()
    rate = MessageRate(per_second, burst, excess=excess, clock=clock)
    for _ in range(count):
        clock.now += 1 / (factor * per_second)
        rate.allow()
        assert not rate.flooding


@given(per_second=st.floats(1, 50), burst=st.integers(1, 50), excess=st.integers(0, 50))
def test_a_page_that_keeps_sending_regardless_floods_after_its_excess(
        per_second: float, burst: int, excess: int) -> None:
    """At once: the burst is allowed, then exactly ``excess`` more are refused before the
    page counts as flooding."""
    rate = MessageRate(per_second, burst, excess=excess, clock=Clock())
    assert all(rate.allow() for _ in range(burst))
    for _ in range(excess):
        assert not rate.allow() and not rate.flooding
    assert not rate.allow() and rate.flooding


def test_an_address_held_off_opens_no_socket_until_its_time_is_up() -> None:
    clock = Clock()
    counts = SocketCounts(clock=clock)
    counts.hold_off("203.0.113.7", 30)
    with pytest.raises(TooManySockets) as refused:
        counts.acquire("game1", "203.0.113.7")
    assert "flooded" in one_line(refused.value) and "30 s" in str(refused.value)
    counts.acquire("game1", "203.0.113.8")  # another address is not held off
    counts.hold_off("203.0.113.7", 5)  # a shorter hold-off never shortens a longer one
    clock.now += 29
    with pytest.raises(TooManySockets):
        counts.acquire("game1", "203.0.113.7")
    clock.now += 1
    counts.acquire("game1", "203.0.113.7")
    assert counts.of_address("203.0.113.7") == 1


def test_a_message_rate_refuses_nonsense_bounds() -> None:
    with pytest.raises(BadParameterError, match="per_second 0"):
        MessageRate(0, 10)
    with pytest.raises(BadParameterError, match="burst 0"):
        MessageRate(10, 0)


# -- SocketCounts -----------------------------------------------------------------------------

def test_sockets_per_address_are_bounded_over_every_game() -> None:
    counts = SocketCounts()
    assert (counts.per_game, counts.per_address) == (SOCKETS_PER_GAME, SOCKETS_PER_ADDRESS)
    for n in range(SOCKETS_PER_ADDRESS):
        counts.acquire(f"game{n % 3}", "198.51.100.1")
    with pytest.raises(TooManySockets) as refused:  # the 33rd idle socket of one address
        counts.acquire("game9", "198.51.100.1")
    assert one_line(refused.value) == ("32 sockets already open from this address, the most "
                                       "allowed; close a page first")
    assert isinstance(refused.value, TooMany)  # answered 429 like every other TooMany
    assert counts.of_address("198.51.100.1") == 32 and counts.of_game("game9") == 0
    counts.acquire("game9", "198.51.100.2")


def test_sockets_per_game_are_bounded() -> None:
    counts = SocketCounts(per_game=3, per_address=100)
    for n in range(3):
        counts.acquire("game1", f"198.51.100.{n}")
    with pytest.raises(TooManySockets, match=r"^3 sockets already open on this game"):
        counts.acquire("game1", "198.51.100.9")
    assert counts.of_address("198.51.100.9") == 0  # a refusal counts nothing
    counts.release("game1", "198.51.100.0")
    counts.acquire("game1", "198.51.100.9")


def test_released_sockets_leave_no_entries() -> None:
    counts = SocketCounts()
    with counts.holding("game1", "a"), counts.holding("game2", "a"):
        assert counts.tracked == (2, 1) and counts.total == 2
    assert counts.tracked == (0, 0) and counts.total == 0
    with pytest.raises(RuntimeError, match="never acquired"):
        counts.release("game1", "a")


def test_holding_releases_even_when_the_block_fails() -> None:
    counts = SocketCounts()
    with pytest.raises(KeyError), counts.holding("game1", "a"):
        raise KeyError("boom")
    assert counts.tracked == (0, 0)


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3), st.integers(0, 3)), max_size=200))
def test_socket_counts_match_a_model_and_stay_in_bounds(
        ops: list[tuple[bool, int, int]]) -> None:
    counts = SocketCounts(per_game=4, per_address=3)
    held: collections.Counter[tuple[str, str]] = collections.Counter()
    for acquire, game, address in ops:
        key = (f"g{game}", f"a{address}")
        if acquire:
            games = sum(n for (g, _), n in held.items() if g == key[0])
            addresses = sum(n for (_, a), n in held.items() if a == key[1])
            if games >= 4 or addresses >= 3:
                with pytest.raises(TooManySockets):
                    counts.acquire(*key)
            else:
                counts.acquire(*key)
                held[key] += 1
        elif held[key]:
            counts.release(*key)
            held[key] -= 1
        for g in range(4):
            assert counts.of_game(f"g{g}") == sum(n for (x, _), n in held.items()
                                                   if x == f"g{g}") <= 4
        for a in range(4):
            assert counts.of_address(f"a{a}") == sum(n for (_, x), n in held.items()
                                                      if x == f"a{a}") <= 3
        live = +held
        assert counts.tracked == (len({g for g, _ in live}), len({a for _, a in live}))


# -- address keys -----------------------------------------------------------------------------

@pytest.mark.parametrize(("host", "key"), [
    ("192.0.2.1", "192.0.2.1"),
    ("2001:db8::1", "2001:db8::/64"),
    ("2001:db8::ffff:1", "2001:db8::/64"),
    ("2001:db8:0:1::1", "2001:db8:0:1::/64"),
    ("::ffff:192.0.2.1", "192.0.2.1"),
    ("::1", "::/64"),
    ("testclient", "testclient"),
    ("?", "?"),
])
def test_address_keys_count_an_ipv6_client_by_its_network(host: str, key: str) -> None:
    assert address_key(host) == key
