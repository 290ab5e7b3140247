"""The web server under load: online games between scripted clients on loopback, played once
as they are (*ordinary*) and once beside hostile clients (*hostile*), each scenario on a
fresh ``lifearena serve``; the lobby, the agents and the players' accounts and pools under
load in scenarios of their own.

Each scenario starts ``lifearena serve`` in its own process on a free port with a fresh
database and keeps ``--games`` online War of Life games (random starts) going at once for
``--seconds``: a game is created over HTTP (the creator's seat token and an invitation),
its invitation claimed (``POST /api/games/{id}/claim``: the other seat's token), and each
seat opens a WebSocket and says hello with its token. On its turn a seat thinks (``--think``
seconds on average: uniformly 0.5 to 1.5 times it), then sends a random legal move with the
view's ply and waits for the server's push that shows it played; a move's latency is that
WebSocket round trip. With the default second of thought, 200 games offer about 190 moves a
second, as 400 quick players would: a load the server carries with room to spare, so the
latencies say how long a player waits, not how long a queue is. ``--think 0`` plays as fast
as the server answers instead: the moves/s are then the server's capacity (with this
benchmark's clients on the same machine), and the latencies mostly time the queue. A game
ends at its end or after ``--moves`` moves, and its slot then starts a new one, until
``--seconds`` have passed. No agent is involved. Every game's two seats come from a loopback
address of their own (``127.1.x.y``: Linux routes all of 127/8 to the loopback), as players
on machines of their own would, so the server's bounds per address (32 sockets) apply to
each pair, not to the whole benchmark.

The *hostile* scenario plays the same games while

* ``--spectators`` (10) spectator sockets, from one address, each on one of the games being
  played (a new one when the slot starts a new game), say hello and then flood: pings, text
  that is not JSON, a spectator's move and a JSON array, written as fast as the connection
  takes them (``--flood-rate`` per socket and second to pace them instead), while never
  reading a byte of what the server sends (raw TCP sockets with a 4 KiB receive buffer,
  reading paused after the handshake, so their TCP buffers fill). The server answers a
  burst of them, tells the page once to slow down, drops the rest unread and then closes the
  socket for flooding (1008), stops reading from it and refuses that address's sockets for
  30 s; the spectator reconnects at once, and goes on flooding the refused socket until the
  server ends the connection (the report counts those drops);
* ``--position-clients`` (4) clients, from an address each, keep ``--position-inflight`` (2,
  the server's bound of slow requests running per address) ``GET /api/games/{id}/position
  ?upto=N`` requests outstanding, N random in 0..10,000, on ``--long-games`` (2) games of
  10,000 turns opened with ``POST /api/records`` before the clock starts. They are p2life
  games on a 32x32 torus of 25 blocks (still lifes, so the game never ends early) whose every
  turn is ``pass | pass`` with ``max_generations`` 10,000 (p2life's own bound on a game's
  length: War of Life, Losat and Blocking Queen cannot reach 10,000 plies). A position
  request replays the game from its start in a replay worker: about 0.05 ms of CPU a turn
  (0.5 CPU s for all 10,000, 0.25 s for a random N), so these requests keep the server's pool
  of replay workers busy for the whole scenario. The uploads are timed and reported too
  (the server replays an uploaded record before it answers);
* ``--huge-readers`` (16) clients from one address GET, again and again and all at once, the
  view of a huge game as its seat holder sees it: a p2life game of ``--huge-turns`` (9,990)
  turns of passes on a ``--huge-side`` (64) torus, opened with ``POST /api/records`` before
  the clock (its view listed every move and every cell a move may take: half a megabyte,
  27-77 ms to build on the event loop for every request before views were built once per
  change); past their address's bytes a second of views they are refused (429), and ask
  again at once, as an attacker would (the report counts the refusals apart from errors);
* ``--replay-clients`` (2) clients, from an address each, ask the lab for the replay of a
  ``--replay-turns`` (1,000) turn record on the same board (``POST /api/lab/replay``: 17 MiB
  of positions) again and again, reading every answer;
* ``--unread-clients`` (20) clients from one address ask for that replay and never read a
  byte of the answer (raw sockets with a 4 KiB receive buffer) until the scenario ends, when
  each reads its status line: the server holds at most its per-address byte budget of
  their answers (32 MiB) and refuses the rest (429).

Beside them, a client from an address of its own, in a process of its own (so that this
benchmark's busy event loop is not timed as the server), GETs a small game's view every
20 ms: first alone for ``--baseline-seconds`` (3) before the clock (the baseline), then for
the whole scenario (in the ordinary scenario too, for comparison). The report gives that
small request's p50 and p99 alone and among the hostile clients (target: p99 under
``--small-target-ms``, 50), and the server's memory growth during the scenario (its peak RSS
less its RSS when the clock started), with the ordinary scenario's growth as its baseline
when both run: the same games grow the server by themselves (their live copies, views and
clocks), so the target (under ``--growth-target-mib``, 100 MiB) is judged on the hostile
clients' share, the growth beyond the ordinary scenario's (on the whole growth when only the
hostile scenario runs).

The *lobby* scenario plays the same games while the lobby is live: before the clock starts,
``--challenges`` (1,000) open challenges are made from addresses of their own (five each, the
lobby's bound per address) and ``--watchers`` (200) pages open ``/ws/lobby`` (ten per address)
and read its snapshot; during the scenario every game is itself started through the lobby (its
creator makes a challenge from the slot's address, the benchmark's main client accepts it,
the creator learns its seat token with ``GET /api/challenges/{id}`` and its owner secret), and
``--churn`` (20) standing challenges a second are cancelled and made again, so every watcher
reads a stream of ``challenge-added`` and ``challenge-removed`` deltas as a home page does.
Each watcher notes when each challenge reached it; the *listing lag* is that moment less
when its creator's request was sent (the lobby gathers changes for 50 ms before it tells the
pages, so that a burst is one message a page). Its target: the games' move p99 under
``--target-ms`` with no errors.

The *agents* scenario measures something else: how long a quiet person waits for the
computer while another address keeps the agents as busy as it may. One server, two phases
of ``--seconds`` each. A quiet player, from an address of its own, plays easy War of Life
games against the computer (random starts; it moves first, thinks ``--agent-think`` seconds
before each move, and starts a new game when one ends or reaches ``--moves`` moves); a
reply's latency is from its move's send to the push of the view where the computer has
answered (one WebSocket round trip and the search). The first phase is the baseline: the
quiet player alone. In the second, a hostile address plays ``hard`` Losat against the
computer (Losat hard, alpha-beta for 2 s a move, is the slowest level), the computer moving
first: it makes as many games as the server lets it (its bound of searches waiting or
running: the next game is refused with 429, counted; ``--greedy-games`` caps them, for a
server with no such bound) and answers every reply of the computer
at once, so all of its games have a search waiting or running for the whole phase; a game
that ends is replaced. Its target: the quiet player's p99 reply under ``--agents-target-ms``
(1,000) in the hostile phase, no errors; the report gives the quiet player's median and p99
in each phase, their ratio, and how many searches the hostile address had answered.

The *players* scenario plays ``--players-games`` (200) rated games through the quick-pairing
pools while a login flood hashes as much as the server lets it. Before the clock
``2 * min(--games, --players-games)`` players sign up (``POST /api/account/signup``, each
from a loopback address of its own, its client keeping the session cookie), so that at most
``--games`` rated games go on at once; with the defaults, 400 players each play one game.
Each player joins the rated War of Life pool of the ``unlimited`` preset (no clock: no game
ends on time; its first join at a random moment of the first ``FIRST_JOIN_WITHIN`` (5)
seconds), asks ``GET /api/pools/me?wait=POOL_WAIT`` (20 s) until it is paired (as the home
page does: the server answers that request when the player is paired),
then opens the game's socket with its cookie and says hello with no token (the socket plays
the seat its player holds), and plays it as the other scenarios' seats do (``--think``, a
random legal move, the move's latency its WebSocket round trip); at ``--moves`` moves the
player to move resigns, so that every game ends and is rated. Then it joins again, until two
joins a game have been made. A pairing's time is from its player's join request being sent
to its client seeing the pairing in ``GET /api/pools/me``'s answer: the pools' wait (they
pair every 0.5 s, by rating: players of ratings far apart wait longer). The
login flood sends ``--logins-per-second`` (20) logins with wrong passwords, each when due
whether or not the earlier ones were answered, from a new loopback address every 20 (the
server's bound an address) and to names that each stay under the bound a name (every other
attempt a player's name, at most 8 times each; the others names with no account, which the
server checks against a hash all the same): every attempt is hashed, or refused (429) once
the server's queue of hashes is full, the worst case. The scenario runs twice on fresh
servers: ``players-quiet`` first (no flood: the baseline), then ``players``; the report gives
move p50/p99 (target: the flooded p99 under ``--target-ms``, 50, with no errors), pairing
p50/p99, the games paired and ended, the logins by their answer's status, and the ratio of
the flooded move p99 to the quiet one. ``--seconds`` does not bound it: it ends when its
games have. Its clock starts once every player has signed up.

Errors are what a player met (an error message on its socket, a lost connection, a step
that took over ``STEP_TIMEOUT``, a pairing not seen within ``SEEK_TIMEOUT``) and, in the
hostile scenario, position requests answered other than 200 or 429 (429 is the server's
per-address bound: counted, not an error), in the players scenario logins answered other
than 401 or 429. The spectators' closed connections are the defence working, not errors,
and so are logins the server left unanswered for ``STEP_TIMEOUT`` (counted).

Prints two tables with a row per scenario (per run with ``--repeat``, then the medians of
the runs): games, moves, moves/s, p50/p99/max move latency, errors and the server process's
resident memory after the scenario (``psutil``); then the CPU seconds used while the games
were played by the server process, by its worker processes (agents and replays), by this
benchmark's clients and by every other process on the machine (the machine's share that went
elsewhere: numbers taken on a busy machine say so), the server's peak RSS (sampled every
0.25 s) and its workers' RSS. Then what the hostile clients did, the ratio of the hostile to
the ordinary p99, the players scenario's pairings and logins and the ratio of its p99 to the
quiet baseline's, and whether the targets (hostile, lobby and players p99 under
``--target-ms``, no errors) were met. The clock of a scenario starts once the server printed
its URL (after its warm-up) and, in the hostile scenario, once the long games are stored and
the replay workers have answered a first request, and in the lobby scenario once its
challenges stand and its pages have read their snapshots. With the defaults a run takes about
three minutes; ``--quick`` about one and a half.

``--replicas N`` makes the run a *sizing* run instead (docs/deploy.md "Sizing" quotes one):
in one run, and on the same machine, the ordinary scenario and the capacity (the ordinary
scenario with ``--think 0``) are played once against one ``lifearena serve`` over SQLite, as
above (the baseline), and once through N replicas: a PostgreSQL cluster of the benchmark's
own (a temporary folder, a free port, ``fsync=off``: throwaway data, so that its writes cost
PostgreSQL's work and not this machine's disk), a ``redis-server`` without persistence, N
``lifearena serve --db postgresql://... --broker redis://... --forwarded-allow-ips
127.0.0.1`` processes and nginx in front (its configuration from ``lifearena.web.nginx``,
with more ``worker_connections``), started by ``benchmarks/replica_site.py`` and all
stopped at the end, also on an error or Ctrl-C. The clients talk to nginx, which sets
``X-Forwarded-For`` to each client's own ``127.x.y.z`` address, so the replicas' bounds per
address count the players, not nginx (each replica keeps its own counts: they are not
shared). Then the ``--through-replicas`` scenarios (hostile, lobby, players: the flooded
players run, without its quiet twin) play through the same replicas (the lobby's challenges
and the pools are shared between replicas: docs/deploy.md, Several replicas). Last
the *failover* scenario: the ordinary scenario during which the last replica is killed
(SIGKILL) a third of ``--seconds`` in; a game whose sockets are lost (or are told an error)
reconnects through nginx every 0.1 s, as a page does, and sends its move again if it was not
played: its *failover time* is from the kill to its first view again, and the moves sent
while it failed over are timed from their first send to the view that shows them played
(their p99 is reported). The report is one table of medians over ``--repeat`` runs (the
replicas' CPU seconds and RSS are their sums), each replica's peak RSS, peak of open TCP
connections and peak of games whose lease it held (read from Redis), the failover figures,
and the ratios of the replicas' p99 and capacity to the single process's.

    .venv/bin/python benchmarks/bench_server.py
    .venv/bin/python benchmarks/bench_server.py --quick
    .venv/bin/python benchmarks/bench_server.py --repeat 3 --seconds 20
    .venv/bin/python benchmarks/bench_server.py --scenario lobby
    .venv/bin/python benchmarks/bench_server.py --scenario agents --seconds 30
    .venv/bin/python benchmarks/bench_server.py --scenario players
    .venv/bin/python benchmarks/bench_server.py --replicas 3 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import json
import multiprocessing
import os
import random
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import psutil
import websockets

from lifearena.core import Record
from lifearena.web.attempts import ACCOUNT_FAILURES, ADDRESS_ATTEMPTS
from lifearena.web.identity import COOKIE
from lifearena.web.lobby import OPEN_PER_ADDRESS

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replica_site import ReplicaSite  # beside this file, not a package

T = TypeVar("T")

STEP_TIMEOUT = 30.0
"""Seconds one step of a player (a request, a connection, a push awaited) may take before it
counts as an error."""
KEEPALIVE_EXPIRY = 1.0
"""Seconds an idle HTTP connection of a client is kept for its next request."""
READY_TIMEOUT = 600.0
"""Seconds ``lifearena serve`` may take to print its URL (minutes when numba's cache is cold)."""
WATCHERS_PER_ADDRESS = 10
"""Lobby pages opened from one loopback address (the server allows 32 sockets an address)."""
SPECTATOR_ADDRESS = "127.66.0.1"
"""The one address every hostile spectator connects from."""
LONG_SIDE = 32
"""Side of the long p2life games' board."""
FLOOD_RECEIVE_BUFFER = 4096
"""The hostile spectators' TCP receive buffer, in bytes (the kernel doubles it): small, so
that what the server sends them backs up into the server's own buffers sooner."""
STOP_TIMEOUT = 30.0
"""Seconds the server has to stop after SIGTERM before it is killed."""
UNREAD_ADDRESS = "127.88.0.1"
"""The one address every client that never reads its big answer connects from."""
HUGE_ADDRESS = "127.55.0.1"
"""The one address the readers of the huge game's view connect from."""
SMALL_ADDRESS = "127.99.0.1"
"""The address of the client timing a small request."""
SMALL_EVERY = 0.02
"""Seconds between two small requests of that client."""
PROBE_START = 3.0
"""Seconds a new process of that client takes to start, at most (it imports httpx)."""
FAILOVER_WINDOW = 60.0
"""Seconds after the kill in which a game that loses its sockets reconnects rather than
counting an error (the failover scenario)."""
RECONNECT_PAUSE = 0.1
"""Seconds a game waits before it reconnects (the failover scenario)."""
FLOOD_MESSAGES = (b'{"type": "ping"}', b"this is not JSON {", b'[1, 2, 3]',
                  b'{"type": "move", "move": "pass", "ply": 0}')
"""What a hostile spectator sends, in turn (a spectator's move is refused too)."""


# -- the server -------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(server: subprocess.Popen[str], seconds: float = READY_TIMEOUT) -> None:
    """Return once ``lifearena serve`` prints its URL, which it does when it answers (after
    its warm-up); exit naming what went wrong else."""
    assert server.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if select.select([server.stdout], [], [], 1.0)[0]:
            line = server.stdout.readline()
            if not line:
                sys.exit(f"lifearena serve exited with status {server.wait()} before it was "
                         "ready")
            if line.startswith("lifearena web:"):
                return
    sys.exit(f"lifearena serve was not ready after {seconds:.0f} s")


class Memory:
    """Samples the resident memory of a process (and of its children) every ``period``
    seconds in a thread, keeping the peak."""

    def __init__(self, pid: int, period: float = 0.25) -> None:
        self.process = psutil.Process(pid)
        self.period = period
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="rss", daemon=True)

    def __enter__(self) -> Memory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(psutil.Error):
                self.peak = max(self.peak, self.process.memory_info().rss)
            self._stop.wait(self.period)

    def now(self) -> tuple[int, int]:
        """The process's RSS and the sum of its children's, in bytes."""
        own = self.process.memory_info().rss
        children = 0
        for child in self.process.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                children += child.memory_info().rss
        self.peak = max(self.peak, own)
        return own, children

    def cpu(self) -> tuple[float, float]:
        """CPU seconds (user and system) used so far by the process and by its children."""
        times = self.process.cpu_times()
        children = 0.0
        for child in self.process.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                child_times = child.cpu_times()
                children += child_times.user + child_times.system
        return times.user + times.system, children


class ReplicasMemory(Memory):
    """:class:`Memory` over every replica of a :class:`ReplicaSite` (their sum; a killed
    replica counts no more), also sampling, about every second, each replica's peak RSS,
    its peak of open TCP connections (the pages' sockets and HTTP connections from nginx,
    and its connections to PostgreSQL and Redis) and the games whose lease it holds."""

    def __init__(self, site: ReplicaSite, period: float = 0.25) -> None:
        self.site = site
        self.replicas = [psutil.Process(p.pid) for p in site.replicas]
        super().__init__(site.replicas[0].pid, period)
        count = len(self.replicas)
        self.rss = [0] * count
        self.sockets = [0] * count
        self.games = [0] * count
        self.cpu_seen = [(0.0, 0.0)] * count
        """Each replica's CPU seconds (its own, its children's) when last read: a killed
        replica's last reading still counts in the sum."""

    def _alive(self) -> list[tuple[int, psutil.Process]]:
        return [(i, p) for i, p in enumerate(self.replicas)
                if self.site.replicas[i].poll() is None]

    def _sample(self) -> None:
        import redis

        client = redis.Redis.from_url(self.site.broker, socket_connect_timeout=2)
        rounds = 0
        try:
            while not self._stop.is_set():
                with contextlib.suppress(psutil.Error, ValueError):
                    self.now()
                if rounds % 4 == 0:
                    with contextlib.suppress(psutil.Error, redis.RedisError):
                        self._count(client)
                rounds += 1
                self._stop.wait(self.period)
        finally:
            client.close()

    def _count(self, client: Any) -> None:
        for index, process in self._alive():
            self.sockets[index] = max(self.sockets[index], sum(
                1 for c in process.net_connections("tcp") if c.status == "ESTABLISHED"))
        owners: dict[str, int] = {}
        for key in client.scan_iter("lifearena:lease:game:*", count=1000):
            owner = client.get(key)
            if owner is not None:
                owners[owner.decode()] = owners.get(owner.decode(), 0) + 1
        for index in range(len(self.replicas)):
            self.games[index] = max(self.games[index], owners.get(f"r{index}", 0))

    def now(self) -> tuple[int, int]:
        own = children = 0
        for index, process in self._alive():
            with contextlib.suppress(psutil.Error):
                rss = process.memory_info().rss
                self.rss[index] = max(self.rss[index], rss)
                own += rss
                for child in process.children(recursive=True):
                    with contextlib.suppress(psutil.Error):
                        children += child.memory_info().rss
        self.peak = max(self.peak, own)
        return own, children

    def cpu(self) -> tuple[float, float]:
        for index, process in self._alive():
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                children = 0.0
                for child in process.children(recursive=True):
                    with contextlib.suppress(psutil.Error):
                        child_times = child.cpu_times()
                        children += child_times.user + child_times.system
                self.cpu_seen[index] = (times.user + times.system, children)
        return (sum(own for own, _ in self.cpu_seen),
                sum(children for _, children in self.cpu_seen))


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (all cores, every process) since boot."""
    times = psutil.cpu_times()
    return sum(getattr(times, name, 0.0)
               for name in ("user", "nice", "system", "irq", "softirq", "steal"))


class CpuMeter:
    """CPU seconds used between :meth:`start` and :meth:`stop` by the server, its workers,
    this process and the whole machine."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.bench = psutil.Process()
        self._start = (0.0, 0.0, 0.0, 0.0)
        self.used = (0.0, 0.0, 0.0, 0.0)

    def _now(self) -> tuple[float, float, float, float]:
        server, workers = self.memory.cpu()
        bench = self.bench.cpu_times()
        return server, workers, bench.user + bench.system, busy_seconds()

    def start(self) -> None:
        self._start = self._now()

    def stop(self) -> None:
        now = self._now()
        used = [b - a for a, b in zip(self._start, now, strict=True)]
        self.used = (used[0], used[1], used[2], used[3])


# -- shared state of one scenario ---------------------------------------------------------------

@dataclass
class Scenario:
    """What the clients of one scenario share, and what they measured."""

    port: int
    args: argparse.Namespace
    cpu: CpuMeter
    deadline: float = 0.0
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    current: dict[int, str] = field(default_factory=dict)
    """The game each slot plays now (spectators watch these)."""
    started: dict[int, asyncio.Event] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    long_games: list[str] = field(default_factory=list)
    upload_seconds: list[float] = field(default_factory=list)
    # the hostile clients
    flood_connections: int = 0
    flood_refused: int = 0
    flood_frames: int = 0
    flood_dropped: int = 0
    position_latencies: list[float] = field(default_factory=list)
    position_refused: int = 0
    huge_game: str = ""
    huge_token: str = ""
    huge_upload: float = 0.0
    huge_reads: int = 0
    huge_refused: int = 0
    huge_view_bytes: int = 0
    replay_record: str = ""
    replay_latencies: list[float] = field(default_factory=list)
    replay_bytes: int = 0
    replay_refused: int = 0
    unread_statuses: list[int] = field(default_factory=list)
    small_game: str = ""
    small_baseline: list[float] = field(default_factory=list)
    """Latencies of the small request alone, before the clock (no other client)."""
    small_latencies: list[float] = field(default_factory=list)
    """Latencies of the small request during the scenario."""
    rss_start: int = 0
    # the lobby
    lobby: bool = False
    standing: list[tuple[str, str, str]] = field(default_factory=list)
    """The standing challenges: id, owner secret, the address that made it."""
    created_at: dict[str, float] = field(default_factory=dict)
    """When each challenge made during the scenario was asked for (perf_counter)."""
    arrivals: dict[str, list[float]] = field(default_factory=dict)
    """When each challenge reached each page (perf_counter), by id."""
    lobby_messages: int = 0
    lobby_changes: int = 0
    churned: int = 0
    snapshot_sizes: list[int] = field(default_factory=list)
    # the players
    clock_started: float = 0.0
    """When the clock started (``time.monotonic``)."""
    tickets: int = 0
    """Joins of a pool still to be made (two a rated game)."""
    pairing_times: list[float] = field(default_factory=list)
    """Seconds from each join of a pool to its player's client seeing the pairing."""
    rated_games: set[str] = field(default_factory=set)
    """The rated games the pools started (as their players saw them)."""
    rated_over: set[str] = field(default_factory=set)
    """The rated games a player saw end."""
    resigned: int = 0
    """Rated games resigned at ``--moves`` moves."""
    logins: dict[str, int] = field(default_factory=dict)
    """The flood's logins by their answer's status (``timeout``: none within
    :data:`STEP_TIMEOUT`; ``failed``: a transport's error; ``unanswered``: none yet when the
    scenario ended)."""
    logins_sent: int = 0
    login_latencies: list[float] = field(default_factory=list)
    """Seconds to each wrong password's answer (401)."""
    # the failover scenario
    killed_at: float = 0.0
    """When a replica was killed (``time.monotonic``; 0: none was)."""
    killed_perf: float = 0.0
    """The same moment on ``time.perf_counter``'s clock."""
    lost_games: set[str] = field(default_factory=set)
    """The games whose sockets were lost (or told an error) after the kill."""
    recovered: dict[str, float] = field(default_factory=dict)
    """Seconds from the kill to each lost game's first view again, by game."""
    recovered_perf: dict[str, float] = field(default_factory=dict)
    """When each lost game answered again (``time.perf_counter``)."""
    delayed: list[float] = field(default_factory=list)
    """Latencies of the moves of a lost game first sent before it answered again (timed
    from that first send, across the reconnection, to the view that shows them played)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def error(self, what: str) -> None:
        """Count an error, with when it happened (seconds into the scenario)."""
        self.errors.append(f"{time.monotonic() - self.clock_started:.1f} s: {what}")


def describe(error: BaseException) -> str:
    """An error in one line: its type, the request it ended (for HTTP), its message."""
    where = ""
    with contextlib.suppress(AttributeError, RuntimeError):
        request = error.request  # type: ignore[attr-defined]
        where = f" ({request.method} {request.url.path})"
    return f"{type(error).__name__}{where}: {str(error)[:160]}"


class PlayerError(Exception):
    """What the server told a player went wrong (an error message on its socket)."""


def player_address(slot: int) -> str:
    """The loopback address of slot ``slot``'s two seats."""
    return f"127.1.{slot // 250}.{slot % 250 + 1}"


async def step(awaitable: Awaitable[T]) -> T:
    """``awaitable`` within :data:`STEP_TIMEOUT` (a :class:`TimeoutError` otherwise)."""
    async with asyncio.timeout(STEP_TIMEOUT):
        return await awaitable


# -- the players ------------------------------------------------------------------------------

async def new_game(lobby: httpx.AsyncClient, seed: int) -> tuple[str, list[str]]:
    """A new online War of Life game and the two seats' tokens (the creator's, then the one
    its invitation was claimed for)."""
    created = await step(lobby.post("/api/games", json={
        "game": "war_of_life", "opponent": "online", "params": {"start": "random",
                                                                "seed": seed}}))
    if created.status_code != 201:
        raise PlayerError(f"create: {created.status_code} {created.text[:120]}")
    game = created.json()
    secret = game["links"]["invite"].split("#i=")[1]
    claimed = await step(lobby.post(f"/api/games/{game['id']}/claim",
                                    json={"invitation": secret}))
    if claimed.status_code != 200:
        raise PlayerError(f"claim: {claimed.status_code} {claimed.text[:120]}")
    tokens = [game["token"], claimed.json()["token"]]
    if game["seat"] == 1:
        tokens.reverse()
    return game["id"], tokens


async def receive_state(ws: Any, ply: int) -> dict[str, Any]:
    """The first view on ``ws`` at move ``ply`` or later (or of the game over)."""
    while True:
        message = json.loads(await step(ws.recv()))
        if message.get("type") == "error":
            raise PlayerError(message["error"])
        if message.get("type") == "state" and (message["ply"] >= ply or message["outcome"]):
            return message


async def play_game(scenario: Scenario, game_id: str, tokens: list[str], address: str,
                    rng: random.Random) -> None:
    """Play one game between two seats until its end, ``--moves`` moves, or the deadline.

    In the failover scenario, a game that loses its sockets (or is told an error) once the
    replica was killed reconnects, as a page does, until it answers again: the first view
    after the kill is its recovery, and a move sent before the loss is a delayed move, timed
    from its first send to the view that shows it played (sent again when it was not)."""
    pending: list[float] = []  # when the move in flight was first sent (at most one)
    made = [0]
    while True:
        try:
            await play_connected(scenario, game_id, tokens, address, rng, pending, made)
            return
        except Exception:
            if not scenario.killed_at or time.monotonic() > scenario.deadline:
                raise
            lost = time.monotonic()
            if not pending and lost - scenario.killed_at > FAILOVER_WINDOW:
                raise
            scenario.lost_games.add(game_id)
            await asyncio.sleep(RECONNECT_PAUSE)


async def play_connected(scenario: Scenario, game_id: str, tokens: list[str], address: str,
                         rng: random.Random, pending: list[float], made: list[int]) -> None:
    """The moves of :func:`play_game` over one pair of sockets (``pending``: the first send
    of a move not yet seen played; ``made``: the game's moves so far)."""
    url = f"ws://127.0.0.1:{scenario.port}/ws/{game_id}"
    options: dict[str, Any] = {"proxy": None, "open_timeout": STEP_TIMEOUT,
                               "local_addr": (address, 0)}
    async with contextlib.AsyncExitStack() as stack:
        sockets = []
        for token in tokens:  # each socket says hello as soon as it is open
            ws = await stack.enter_async_context(websockets.connect(url, **options))
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sockets.append(ws)
        states = [await receive_state(ws, 0) for ws in sockets]
        if game_id in scenario.lost_games and game_id not in scenario.recovered:
            scenario.recovered[game_id] = time.monotonic() - scenario.killed_at
            scenario.recovered_perf[game_id] = time.perf_counter()
        while (made[0] < scenario.args.moves and not states[0]["outcome"]
               and time.monotonic() < scenario.deadline):
            seat = states[0]["awaiting"][0]
            legal = states[seat]["legal"][str(seat)]["moves"]
            if not legal:
                raise PlayerError(f"the view of seat {seat} lists no legal moves")
            ply = states[seat]["ply"]
            if pending:  # sent before the sockets were lost, and not played: sent again
                started = pending[0]
            else:
                if scenario.args.think > 0:  # a player's thought: the load's shape
                    await asyncio.sleep(scenario.args.think * rng.uniform(0.5, 1.5))
                started = time.perf_counter()
                pending.append(started)
            await sockets[seat].send(json.dumps({"type": "move", "ply": ply,
                                                 "move": rng.choice(legal)["move"]}))
            mine = await receive_state(sockets[seat], ply + 1)
            latency = time.perf_counter() - started
            scenario.latencies.append(latency)
            if game_id in scenario.lost_games and started < scenario.recovered_perf.get(
                    game_id, float("inf")):  # sent while its game was failing over
                scenario.delayed.append(latency)
            pending.clear()
            scenario.moves += 1
            other = await receive_state(sockets[1 - seat], ply + 1)
            states = [mine, other] if seat == 0 else [other, mine]
            made[0] += 1


async def new_game_through_lobby(creator: httpx.AsyncClient, acceptor: httpx.AsyncClient,
                                 seed: int) -> tuple[str, list[str]]:
    """A new War of Life game started as people start one from the lobby: ``creator`` makes
    a challenge (it plays first), ``acceptor`` accepts it, and the creator asks for its seat
    token with its owner secret. The two seats' tokens."""
    made = await step(creator.post("/api/challenges", json={
        "game": "war_of_life", "params": {"start": "random", "seed": seed}, "colour": 0}))
    if made.status_code != 201:
        raise PlayerError(f"challenge: {made.status_code} {made.text[:120]}")
    challenge = made.json()
    accepted = await step(acceptor.post(f"/api/challenges/{challenge['id']}/accept", json={}))
    if accepted.status_code != 200:
        raise PlayerError(f"accept: {accepted.status_code} {accepted.text[:120]}")
    status = await step(creator.get(f"/api/challenges/{challenge['id']}",
                                    headers={"X-Challenge-Owner": challenge["owner"]}))
    if status.status_code != 200 or "token" not in status.json():
        raise PlayerError(f"creator's seat: {status.status_code} {status.text[:120]}")
    game = accepted.json()
    return game["id"], [status.json()["token"], game["token"]]


def client_at(scenario: Scenario, address: str, connections: int = 2) -> httpx.AsyncClient:
    """An HTTP client of the server whose requests come from ``address``."""
    return httpx.AsyncClient(
        base_url=scenario.base, timeout=STEP_TIMEOUT,
        transport=httpx.AsyncHTTPTransport(local_address=address, limits=httpx.Limits(
            max_connections=connections, keepalive_expiry=KEEPALIVE_EXPIRY)))


async def play_slot(scenario: Scenario, lobby: httpx.AsyncClient, slot: int) -> None:
    """Games one after another in slot ``slot`` until the deadline."""
    async with contextlib.AsyncExitStack() as stack:
        creator = (await stack.enter_async_context(client_at(scenario, player_address(slot)))
                   if scenario.lobby else None)
        await play_games(scenario, lobby, creator, slot)


async def play_games(scenario: Scenario, lobby: httpx.AsyncClient,
                     creator: httpx.AsyncClient | None, slot: int) -> None:
    """Slot ``slot``'s games, each started through the lobby when ``creator`` is given."""
    rng = random.Random(slot)
    number = 0
    while time.monotonic() < scenario.deadline:
        try:
            seed = slot * 100_000 + number
            game_id, tokens = await (new_game(lobby, seed) if creator is None
                                     else new_game_through_lobby(creator, lobby, seed))
            scenario.current[slot] = game_id
            scenario.started[slot].set()
            scenario.games += 1
            await play_game(scenario, game_id, tokens, player_address(slot), rng)
        except Exception as error:  # every failure of a player counts; the slot goes on
            scenario.error(describe(error))
        number += 1


# -- the lobby ---------------------------------------------------------------------------------

def standing_address(index: int) -> str:
    """The loopback address standing challenge ``index`` is made from."""
    number = index // OPEN_PER_ADDRESS
    return f"127.3.{number // 250}.{number % 250 + 1}"


def watcher_address(index: int) -> str:
    """The loopback address lobby page ``index`` watches from."""
    number = index // WATCHERS_PER_ADDRESS
    return f"127.4.{number // 250}.{number % 250 + 1}"


async def make_challenge(scenario: Scenario, client: httpx.AsyncClient, address: str,
                         seed: int) -> None:
    """One standing challenge (a Losat game nobody accepts), made from ``address``."""
    started = time.perf_counter()
    made = await step(client.post("/api/challenges", json={
        "game": "losat", "params": {"captures_to_win": 1 + seed % 5},
        "clock": {"kind": "live", "minutes": 5, "increment": 3}, "colour": "random"}))
    if made.status_code != 201:
        raise PlayerError(f"standing challenge: {made.status_code} {made.text[:120]}")
    answer = made.json()
    scenario.created_at[answer["id"]] = started
    scenario.standing.append((answer["id"], answer["owner"], address))


async def prepare_lobby(scenario: Scenario, clients: dict[str, httpx.AsyncClient]) -> None:
    """Make ``--challenges`` standing challenges, five from each address."""
    count = scenario.args.challenges
    addresses = [standing_address(index) for index in range(count)]
    for address in dict.fromkeys(addresses):
        clients[address] = client_at(scenario, address)
    for start in range(0, count, 50):
        await asyncio.gather(*(make_challenge(scenario, clients[addresses[i]], addresses[i], i)
                               for i in range(start, min(count, start + 50))))
    scenario.created_at.clear()  # the listing lag is timed on the challenges made later


async def close_all(clients: dict[str, httpx.AsyncClient]) -> None:
    """Close every client of ``clients``."""
    for client in clients.values():
        await client.aclose()


async def watch_lobby(scenario: Scenario, index: int, ready: asyncio.Event,
                      connected: list[int]) -> None:
    """A home page: open ``/ws/lobby``, read the snapshot, then every delta until stopped,
    timing each challenge from its creator's request to this page."""
    url = f"ws://127.0.0.1:{scenario.port}/ws/lobby"
    async with websockets.connect(url, proxy=None, open_timeout=STEP_TIMEOUT,
                                  local_addr=(watcher_address(index), 0),
                                  max_size=2**24) as ws:
        snapshot = json.loads(await step(ws.recv()))
        if snapshot.get("type") != "snapshot":
            raise PlayerError(f"lobby page {index}: first message {snapshot.get('type')!r}")
        scenario.snapshot_sizes.append(len(snapshot["challenges"]))
        connected[0] += 1
        if connected[0] == scenario.args.watchers:
            ready.set()
        while not scenario.stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            arrived = time.perf_counter()
            scenario.lobby_messages += 1
            message = json.loads(text)
            changes = message["changes"] if message.get("type") == "changes" else [message]
            for change in changes:
                scenario.lobby_changes += 1
                if change.get("type") == "challenge-added":
                    scenario.arrivals.setdefault(change["challenge"]["id"], []).append(arrived)


async def churn(scenario: Scenario, clients: dict[str, httpx.AsyncClient],
                rng: random.Random) -> None:
    """Cancel a random standing challenge and make a new one from its address, ``--churn``
    times a second, until stopped."""
    period = 1.0 / scenario.args.churn
    next_at = time.perf_counter()
    number = scenario.args.challenges
    while not scenario.stop.is_set() and time.monotonic() < scenario.deadline:
        next_at += period
        challenge_id, owner, address = scenario.standing.pop(
            rng.randrange(len(scenario.standing)))
        try:
            cancelled = await step(clients[address].post(
                f"/api/challenges/{challenge_id}/cancel", json={},
                headers={"X-Challenge-Owner": owner}))
            if cancelled.status_code != 200:
                raise PlayerError(f"cancel: {cancelled.status_code} {cancelled.text[:120]}")
            await make_challenge(scenario, clients[address], address, number)
            scenario.churned += 1
        except Exception as error:
            scenario.error(describe(error))
        number += 1
        # the load's pace, not a synchronization
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))


# -- the hostile clients ------------------------------------------------------------------------

def frame(payload: bytes) -> bytes:
    """A client's masked WebSocket text frame of ``payload`` (under 126 bytes)."""
    assert len(payload) < 126
    mask = os.urandom(4)
    return (bytes([0x81, 0x80 | len(payload)]) + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


FLOOD_CHUNK = b"".join(frame(FLOOD_MESSAGES[i % len(FLOOD_MESSAGES)]) for i in range(1024))
"""1,024 flood messages, written at once when the flood is not paced."""


async def flood_once(scenario: Scenario, game_id: str) -> None:
    """One hostile spectator connection: handshake, hello, then messages until the server
    drops it, never reading anything past the handshake's answer."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, FLOOD_RECEIVE_BUFFER)
    raw.bind((SPECTATOR_ADDRESS, 0))
    raw.setblocking(False)
    try:
        await step(asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", scenario.port)))
    except BaseException:
        raw.close()
        raise
    reader, writer = await step(asyncio.open_connection(sock=raw))
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{scenario.port}\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                      ).encode())
        answer = await step(reader.readuntil(b"\r\n\r\n"))
        if b" 101 " not in answer.split(b"\r\n", 1)[0]:
            scenario.flood_refused += 1
            return
        scenario.flood_connections += 1
        writer.transport.pause_reading()  # from now on nothing is read: the buffers fill
        try:
            await flood_messages(scenario, writer)
        except OSError:  # the server closed or aborted the connection
            if not scenario.stop.is_set():
                scenario.flood_dropped += 1
    finally:
        writer.transport.abort()


async def flood_messages(scenario: Scenario, writer: asyncio.StreamWriter) -> None:
    """Say hello as a spectator, then write messages until stopped or dropped."""
    writer.write(frame(b'{"type": "hello", "token": null}'))
    rate = scenario.args.flood_rate
    if rate <= 0:
        while not scenario.stop.is_set():
            writer.write(FLOOD_CHUNK)
            await writer.drain()
            scenario.flood_frames += 1024
        return
    # paced: a batch every 10 ms (this is the load's shape, not a synchronization)
    batch, index = max(1, round(rate / 100)), 0
    while not scenario.stop.is_set():
        writer.write(b"".join(frame(FLOOD_MESSAGES[(index + i) % len(FLOOD_MESSAGES)])
                              for i in range(batch)))
        index += batch
        await writer.drain()
        scenario.flood_frames += batch
        await asyncio.sleep(0.01)


async def flood(scenario: Scenario, index: int) -> None:
    """A hostile spectator on slot ``index``'s game, reconnecting whenever dropped."""
    slot = index % scenario.args.games
    try:  # the slot's first game, if it starts before the scenario ends (loop.time is monotonic)
        async with asyncio.timeout_at(scenario.deadline):
            await scenario.started[slot].wait()
    except TimeoutError:
        return
    while not scenario.stop.is_set():
        try:
            await flood_once(scenario, scenario.current[slot])
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            if not scenario.stop.is_set():
                scenario.flood_refused += 1  # no connection, or no answer to the handshake


async def ask_positions(scenario: Scenario, client: httpx.AsyncClient, seed: int) -> None:
    """Position requests on the long games, one after another, until stopped."""
    rng = random.Random(seed)
    turns = scenario.args.long_turns
    while not scenario.stop.is_set():
        game = rng.choice(scenario.long_games)
        started = time.perf_counter()
        try:
            answer = await client.get(f"/api/games/{game}/position",
                                      params={"upto": rng.randint(0, turns)})
        except httpx.HTTPError as error:
            scenario.error(describe(error))
            continue
        if answer.status_code == 200:
            scenario.position_latencies.append(time.perf_counter() - started)
        elif answer.status_code == 429:
            scenario.position_refused += 1
        else:
            scenario.error(f"GET position: {answer.status_code} {answer.text[:120]}")


def blocks_record(turns: int, side: int, limit: int, seed: int) -> str:
    """A p2life record of ``turns`` turns, every one ``pass | pass``, on a ``side`` x ``side``
    torus of blocks (still lifes: nobody's tokens die out, so the game lasts all its turns),
    with ``max_generations`` ``limit``."""
    rows = [["."] * side for _ in range(side)]
    for y in range(2, side - 3, 6):
        for x in range(2, side - 3, 6):
            colour = "w" if (x // 6 + y // 6) % 2 == 0 else "b"
            for dy in (0, 1):
                for dx in (0, 1):
                    rows[y + dy][x + dx] = colour
    setup = "/".join("".join(row) for row in rows) + " 0:0"
    params = {"max_generations": limit, "moves": 1, "torus": True, "seed": seed}
    return Record("p2life", params, setup, ["bench", "bench"], ["pass | pass"] * turns
                  ).to_json()


def long_record(turns: int, seed: int) -> str:
    """A long game of the position clients: ``turns`` turns of passes that end it."""
    return blocks_record(turns, LONG_SIDE, turns, seed)


async def prepare_hostile(scenario: Scenario, lobby: httpx.AsyncClient,
                          clients: list[httpx.AsyncClient]) -> None:
    """Store the long games and have every position client's first request answered (the
    replay workers are started by the first one)."""
    for index in range(scenario.args.long_games):
        started = time.perf_counter()
        answer = await lobby.post("/api/records", json={
            "record": long_record(scenario.args.long_turns, index)}, timeout=300)
        if answer.status_code != 201:
            sys.exit(f"POST /api/records of a {scenario.args.long_turns}-turn game: "
                     f"{answer.status_code} {answer.text[:200]}")
        scenario.upload_seconds.append(time.perf_counter() - started)
        scenario.long_games.append(answer.json()["id"])
    async with asyncio.timeout(300):
        answers = await asyncio.gather(*(
            client.get(f"/api/games/{scenario.long_games[0]}/position", params={"upto": 1})
            for client in clients))
    for answer in answers:
        if answer.status_code != 200:
            sys.exit(f"first position request: {answer.status_code} {answer.text[:200]}")


def huge_record(turns: int, side: int, limit: int = 10_000) -> str:
    """A huge game: ``turns`` turns of passes on a ``side`` x ``side`` torus, still going
    (``max_generations`` ``limit``): on 64x64 with 9,990 turns its view was half a megabyte,
    and 1,000 turns of it replay to 17 MiB of positions."""
    return blocks_record(turns, side, max(limit, turns), 1)


async def read_huge_view(scenario: Scenario, client: httpx.AsyncClient) -> None:
    """GET the huge game's view as its seat holder (the biggest view), again and again."""
    headers = {"X-Seat-Token": scenario.huge_token}
    while not scenario.stop.is_set():
        try:
            answer = await client.get(f"/api/games/{scenario.huge_game}", headers=headers)
        except httpx.HTTPError as error:
            scenario.error(describe(error))
            continue
        if answer.status_code == 429:  # past its address's bytes a second: asked again at once
            scenario.huge_refused += 1
            continue
        if answer.status_code != 200:
            scenario.error(f"GET huge view: {answer.status_code} {answer.text[:120]}")
            continue
        scenario.huge_reads += 1
        scenario.huge_view_bytes = len(answer.content)


async def ask_replays(scenario: Scenario, client: httpx.AsyncClient) -> None:
    """POST the big replay again and again, reading every answer."""
    body = {"record": scenario.replay_record}
    while not scenario.stop.is_set():
        started = time.perf_counter()
        try:
            answer = await client.post("/api/lab/replay", json=body)
        except httpx.HTTPError as error:
            scenario.error(describe(error))
            continue
        if answer.status_code == 200:
            scenario.replay_latencies.append(time.perf_counter() - started)
            scenario.replay_bytes = len(answer.content)
        elif answer.status_code == 429:
            scenario.replay_refused += 1
            await asyncio.sleep(0.5)  # the load's pace after a refusal, not a synchronization
        else:
            scenario.error(f"POST replay: {answer.status_code} {answer.text[:120]}")


async def unread_replay(scenario: Scenario) -> None:
    """Ask for the big replay from :data:`UNREAD_ADDRESS` and never read the answer (a 4 KiB
    receive buffer, reading paused) until the scenario ends; then read its status line."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, FLOOD_RECEIVE_BUFFER)
    raw.bind((UNREAD_ADDRESS, 0))
    raw.setblocking(False)
    loop = asyncio.get_running_loop()
    try:
        await step(loop.sock_connect(raw, ("127.0.0.1", scenario.port)))
        body = json.dumps({"record": scenario.replay_record}).encode()
        await step(loop.sock_sendall(raw, (
            f"POST /api/lab/replay HTTP/1.1\r\nHost: 127.0.0.1:{scenario.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode() + body))
        await scenario.stop.wait()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(1.0):
                head = await loop.sock_recv(raw, 64)
                scenario.unread_statuses.append(int(head.split()[1]))
    finally:
        raw.close()


def time_small_requests(url: str, until: float, results: Any) -> None:
    """GET ``url`` every :data:`SMALL_EVERY` seconds until ``until`` (``time.monotonic``,
    one clock for every process on Linux) from :data:`SMALL_ADDRESS`, timing each; put the
    latencies (and the errors) on ``results``.
    Run in a process of its own: this benchmark's own event loop, busy with hundreds of
    clients, would otherwise be timed as the server."""
    latencies: list[float] = []
    errors: list[str] = []
    with httpx.Client(transport=httpx.HTTPTransport(local_address=SMALL_ADDRESS),
                      timeout=STEP_TIMEOUT) as client:
        while time.monotonic() < until:
            started = time.perf_counter()
            try:
                answer = client.get(url)
            except httpx.HTTPError as error:
                errors.append(describe(error))
                continue
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                errors.append(f"GET small view: {answer.status_code} {answer.text[:120]}")
            time.sleep(SMALL_EVERY)  # the probe's pace
    results.put((latencies, errors))


async def probe_small(scenario: Scenario, into: list[float], until: float) -> None:
    """Time the small request until ``until`` (monotonic) in a process of its own
    (:func:`time_small_requests`), adding its latencies to ``into``."""
    context = multiprocessing.get_context("spawn")
    results = context.SimpleQueue()
    prober = context.Process(target=time_small_requests, daemon=True, args=(
        f"{scenario.base}/api/games/{scenario.small_game}", until, results))
    prober.start()
    try:
        latencies, errors = await asyncio.to_thread(results.get)
    finally:
        await asyncio.to_thread(prober.join, 10)
    into.extend(latencies)
    for error in errors:
        scenario.error(error)


async def prepare_small(scenario: Scenario, lobby: httpx.AsyncClient) -> None:
    """Make the small game and time the small request alone for ``--baseline-seconds``."""
    made = await lobby.post("/api/games", json={"game": "war_of_life", "opponent": "hotseat",
                                                "params": {"start": "random", "seed": 5}})
    if made.status_code != 201:
        sys.exit(f"POST /api/games of the small game: {made.status_code} {made.text[:200]}")
    scenario.small_game = made.json()["id"]
    await probe_small(scenario, scenario.small_baseline,
                      time.monotonic() + scenario.args.baseline_seconds + PROBE_START)


async def prepare_big(scenario: Scenario, lobby: httpx.AsyncClient) -> None:
    """Open the huge game (timed)."""
    args = scenario.args
    started = time.perf_counter()
    answer = await lobby.post("/api/records", json={
        "record": huge_record(args.huge_turns, args.huge_side)}, timeout=READY_TIMEOUT)
    if answer.status_code != 201:
        sys.exit(f"POST /api/records of the huge game: {answer.status_code} "
                 f"{answer.text[:200]}")
    scenario.huge_upload = time.perf_counter() - started
    scenario.huge_game, scenario.huge_token = answer.json()["id"], answer.json()["token"]
    scenario.replay_record = huge_record(args.replay_turns, args.huge_side)


async def run_scenario(scenario: Scenario, kind: str) -> float:
    """Play the scenario ``kind`` (ordinary, hostile or lobby); answer its duration in
    seconds."""
    args = scenario.args
    hostile = kind == "hostile"
    scenario.lobby = kind == "lobby"
    # an idle connection is let go well before the server's keep-alive timeout (uvicorn's 5 s)
    # closes it, so that no request is sent on a connection the server is closing
    limits = httpx.Limits(max_connections=args.games + 8, max_keepalive_connections=args.games,
                          keepalive_expiry=KEEPALIVE_EXPIRY)
    async with contextlib.AsyncExitStack() as stack:
        lobby = await stack.enter_async_context(httpx.AsyncClient(
            base_url=scenario.base, timeout=STEP_TIMEOUT, limits=limits))
        clients = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=scenario.base, timeout=120,
            transport=httpx.AsyncHTTPTransport(
                local_address=f"127.77.0.{index + 1}",
                limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY))))
            for index in range(args.position_clients if hostile else 0)]
        if not scenario.lobby:
            await prepare_small(scenario, lobby)
        if hostile:
            await prepare_big(scenario, lobby)
            await prepare_hostile(scenario, lobby, clients)
        huge = await stack.enter_async_context(client_at(scenario, HUGE_ADDRESS,
                                                         max(1, args.huge_readers)))
        replayers = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=scenario.base, timeout=READY_TIMEOUT,  # a replay may wait minutes
            transport=httpx.AsyncHTTPTransport(local_address=f"127.56.0.{i + 1}")))
            for i in range(args.replay_clients if hostile else 0)]
        attackers: list[asyncio.Task[None]] = []
        unread: list[asyncio.Task[None]] = []
        standing: dict[str, httpx.AsyncClient] = {}
        if scenario.lobby:
            stack.push_async_callback(close_all, standing)
            await prepare_lobby(scenario, standing)
            ready, connected = asyncio.Event(), [0]
            attackers += [asyncio.create_task(watch_lobby(scenario, index, ready, connected))
                          for index in range(args.watchers)]
            async with asyncio.timeout(READY_TIMEOUT):
                waiting = asyncio.create_task(ready.wait())
                await asyncio.wait([waiting, *attackers], return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
            for task in attackers:  # a page that could not connect stops the scenario
                if task.done() and task.exception() is not None:
                    sys.exit(f"a lobby page failed before the clock: {task.exception()}")
        scenario.started = {slot: asyncio.Event() for slot in range(args.games)}
        # this process's own full collections would stop all 400 players at once and be
        # timed as the server's: what is loaded so far is left out of them
        gc.freeze()
        scenario.cpu.start()
        scenario.rss_start = scenario.cpu.memory.now()[0]
        scenario.cpu.memory.peak = scenario.rss_start  # the scenario's own peak from here
        started = time.perf_counter()
        scenario.clock_started = time.monotonic()
        scenario.deadline = scenario.clock_started + args.seconds
        if scenario.small_game:  # timed for the whole scenario
            timing = asyncio.create_task(probe_small(scenario, scenario.small_latencies,
                                                     scenario.deadline))
        if scenario.lobby:
            attackers.append(asyncio.create_task(churn(scenario, standing, random.Random(7))))
        if hostile:
            attackers += [asyncio.create_task(flood(scenario, index))
                          for index in range(args.spectators)]
            attackers += [asyncio.create_task(ask_positions(scenario, client,
                                                            1000 * index + slot))
                          for index, client in enumerate(clients)
                          for slot in range(args.position_inflight)]
            attackers += [asyncio.create_task(read_huge_view(scenario, huge))
                          for _ in range(args.huge_readers)]
            attackers += [asyncio.create_task(ask_replays(scenario, client))
                          for client in replayers]
            unread = [asyncio.create_task(unread_replay(scenario))
                      for _ in range(args.unread_clients)]
            attackers += unread
        await asyncio.gather(*(play_slot(scenario, lobby, slot) for slot in range(args.games)))
        if scenario.small_game:
            await timing
        elapsed = time.perf_counter() - started
        scenario.cpu.stop()
        scenario.stop.set()
        if unread:  # they read their status lines once stopped
            await asyncio.wait(unread, timeout=5)
        for task in attackers:
            task.cancel()
        for outcome in await asyncio.gather(*attackers, return_exceptions=True):
            if isinstance(outcome, BaseException) and not isinstance(
                    outcome, asyncio.CancelledError):
                scenario.error(f"{'lobby' if scenario.lobby else 'hostile'} client: "
                               f"{describe(outcome)}")
    return elapsed


# -- accounts, quick pairing and a login flood ----------------------------------------------

PLAYERS = ("players-quiet", "players")
"""The players scenario's two runs: without the login flood (its baseline), then with it."""
POOL_GAME, POOL_PRESET = "war_of_life", "unlimited"
"""The pool the players scenario's players wait in (no clock: no game ends on time)."""
PASSWORD = "bench password 1"
"""Every player's password."""
POOL_WAIT = 20
"""Seconds a waiting player's ``GET /api/pools/me?wait=`` may be held by the server before it
answers (at once when the player is paired). Asking every 0.5 s instead, 400 players waiting
at once made 800 requests a second, a load of their own that slowed the moves and the
pairings it timed."""
FIRST_JOIN_WITHIN = 5.0
"""Seconds over which the players' first joins are spread (uniformly)."""
SEEK_TIMEOUT = 90.0
"""Seconds a player waits for a pairing before it leaves and counts an error (a seeker
accepts any rating after 60 s)."""
SIGNUPS_AT_ONCE = 8
"""Sign-ups sent at once before the clock (the server hashes one password at a time and
keeps at most 32 waiting)."""
LOGIN_GRACE = 5.0
"""Seconds the flood's last logins have to be answered once the games are over."""


def pool_player_address(index: int) -> str:
    """The loopback address of player ``index`` of the players scenario."""
    return f"127.5.{index // 250}.{index % 250 + 1}"


def login_address(index: int) -> str:
    """The loopback address of the flood's ``index``-th address."""
    return f"127.6.{index // 250 % 250}.{index % 250 + 1}"


def player_name(index: int) -> str:
    """The account name of player ``index``."""
    return f"Bench{index:04d}"


async def sign_up(scenario: Scenario, client: httpx.AsyncClient, name: str) -> None:
    """Sign ``client`` up as ``name`` (its cookie kept by the client), asking again while
    the server's queue of hashes is full (429)."""
    while True:
        answer = await step(client.post("/api/account/signup",
                                        json={"name": name, "password": PASSWORD}))
        if answer.status_code == 201:
            return
        if answer.status_code != 429:
            sys.exit(f"sign-up of {name}: {answer.status_code} {answer.text[:200]}")
        await asyncio.sleep(0.5)  # the hashes waiting: asked again a little later


async def seek(scenario: Scenario, client: httpx.AsyncClient) -> str:
    """Join the rated pool, then wait (:data:`POOL_WAIT` s a request) until it is paired: the
    new game's id (the pairing time noted)."""
    started = time.perf_counter()
    joined = await step(client.post(f"/api/pools/{POOL_GAME}/{POOL_PRESET}/join",
                                    json={"rated": True}))
    if joined.status_code != 200:
        raise PlayerError(f"join: {joined.status_code} {joined.text[:120]}")
    while time.perf_counter() - started < SEEK_TIMEOUT:
        answer = await step(client.get("/api/pools/me", params={"wait": POOL_WAIT}))
        if answer.status_code != 200:
            raise PlayerError(f"pools/me: {answer.status_code} {answer.text[:120]}")
        paired = answer.json()["paired"]
        if paired is not None:
            scenario.pairing_times.append(time.perf_counter() - started)
            if not paired["rated"]:
                raise PlayerError(f"paired for a casual game: {paired}")
            scenario.rated_games.add(paired["id"])
            return str(paired["id"])
    await step(client.post("/api/pools/leave", json={}))
    raise PlayerError(f"not paired within {SEEK_TIMEOUT:.0f} s")


async def play_rated(scenario: Scenario, cookie: str, game_id: str, address: str,
                     rng: random.Random) -> None:
    """Play the seat the player holds in ``game_id`` (its socket says hello with no token
    and the session cookie) until the game ends; at ``--moves`` moves the player to move
    resigns, so that every game ends and is rated."""
    async with websockets.connect(
            f"ws://127.0.0.1:{scenario.port}/ws/{game_id}", proxy=None,
            open_timeout=STEP_TIMEOUT, local_addr=(address, 0),
            additional_headers={"Cookie": f"{COOKIE}={cookie}"}) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        state = await receive_state(ws, 0)
        if len(state["seats"]) != 1 or not state["rated"]:
            raise PlayerError(f"seats {state['seats']} of a game rated {state['rated']}")
        seat = state["seats"][0]
        while not state["outcome"]:
            ply = state["ply"]
            if seat not in state["awaiting"]:
                state = await receive_state(ws, ply + 1)
                continue
            if ply >= scenario.args.moves:
                await ws.send(json.dumps({"type": "resign"}))
                while not state["outcome"]:
                    state = await receive_state(ws, ply + 1)
                scenario.resigned += 1
                break
            legal = state["legal"][str(seat)]["moves"]
            if not legal:
                raise PlayerError(f"the view of seat {seat} lists no legal moves")
            if scenario.args.think > 0:  # a player's thought: the load's shape
                await asyncio.sleep(scenario.args.think * rng.uniform(0.5, 1.5))
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "ply": ply,
                                      "move": rng.choice(legal)["move"]}))
            state = await receive_state(ws, ply + 1)
            scenario.latencies.append(time.perf_counter() - started)
            scenario.moves += 1
        scenario.rated_over.add(game_id)


async def pool_player(scenario: Scenario, client: httpx.AsyncClient, index: int) -> None:
    """Rated games from the pool one after another, while joins are left to be made."""
    rng = random.Random(index)
    address = pool_player_address(index)
    await asyncio.sleep(rng.uniform(0, FIRST_JOIN_WITHIN))  # the joins' spread
    while scenario.tickets > 0:
        scenario.tickets -= 1
        try:
            game_id = await seek(scenario, client)
            await play_rated(scenario, client.cookies[COOKIE], game_id, address, rng)
        except Exception as error:  # every failure of a player counts; it goes on
            scenario.error(describe(error))


async def try_login(scenario: Scenario, client: httpx.AsyncClient, name: str) -> None:
    """One login with a wrong password: its answer counted by status (no answer within
    :data:`STEP_TIMEOUT` is counted as ``timeout``, a transport's error as ``failed``: what
    the flood met, not a player)."""
    started = time.perf_counter()
    try:
        answer = await step(client.post("/api/account/login",
                                        json={"name": name, "password": "wrong password"}))
    except (httpx.HTTPError, TimeoutError) as error:
        status = "timeout" if isinstance(error, TimeoutError | httpx.TimeoutException) else (
            "failed")
        scenario.logins[status] = scenario.logins.get(status, 0) + 1
        return
    status = str(answer.status_code)
    scenario.logins[status] = scenario.logins.get(status, 0) + 1
    if answer.status_code == 401:
        scenario.login_latencies.append(time.perf_counter() - started)
    elif answer.status_code != 429:  # 429: a bound of the server, counted
        scenario.error(f"login: {answer.status_code} {answer.text[:120]}")


def flood_name(attempt: int, players: int) -> str:
    """The name login ``attempt`` tries: every other one a player's (each at most
    ``ACCOUNT_FAILURES`` times, past which its logins would be refused unhashed), the others
    names that have no account (checked against a hash all the same)."""
    turn = attempt // 2
    if attempt % 2 == 0 and turn < players * ACCOUNT_FAILURES:
        return player_name(turn % players)
    return f"Nobody{attempt}"


async def flood_from(scenario: Scenario, number: int, first: int, due: float) -> None:
    """Flood address ``number``'s logins, attempts ``first`` on (``ADDRESS_ATTEMPTS`` of them,
    all its bound lets through), each sent when due at ``--logins-per-second`` from the
    flood's start ``due`` (``perf_counter``) whether or not the earlier ones were answered."""
    period = 1.0 / scenario.args.logins_per_second
    players = 2 * min(scenario.args.games, scenario.args.players_games)
    sent: list[asyncio.Task[None]] = []
    async with client_at(scenario, login_address(number), ADDRESS_ATTEMPTS) as client:
        try:
            for attempt in range(first, first + ADDRESS_ATTEMPTS):
                # the flood's pace, not a synchronization
                await asyncio.sleep(max(0.0, due + attempt * period - time.perf_counter()))
                if scenario.stop.is_set():
                    break
                sent.append(asyncio.create_task(try_login(
                    scenario, client, flood_name(attempt, players))))
                scenario.logins_sent += 1
            if sent:
                await asyncio.wait(sent)
        finally:
            for task in sent:
                task.cancel()
            await asyncio.gather(*sent, return_exceptions=True)


async def flood_logins(scenario: Scenario) -> None:
    """``--logins-per-second`` logins with wrong passwords until stopped, from a new address
    every ``ADDRESS_ATTEMPTS`` attempts (so that no address or account is past its bound and
    every login is hashed)."""
    due = time.perf_counter()
    addresses: list[asyncio.Task[None]] = []
    number = 0
    period = ADDRESS_ATTEMPTS / scenario.args.logins_per_second
    try:
        while not scenario.stop.is_set():
            addresses.append(asyncio.create_task(
                flood_from(scenario, number, number * ADDRESS_ATTEMPTS, due)))
            number += 1
            with contextlib.suppress(TimeoutError):  # the next address's turn, or stopped
                await asyncio.wait_for(scenario.stop.wait(),
                                       max(0.0, due + number * period - time.perf_counter()))
        await asyncio.wait(addresses, timeout=LOGIN_GRACE)
    finally:
        for task in addresses:
            task.cancel()
        await asyncio.gather(*addresses, return_exceptions=True)
    answered = sum(scenario.logins.values())
    if scenario.logins_sent > answered:
        scenario.logins["unanswered"] = scenario.logins_sent - answered


async def run_players(scenario: Scenario, flood: bool) -> float:
    """Play the players scenario (with the login flood when ``flood``); answer its duration
    in seconds."""
    args = scenario.args
    count = 2 * min(args.games, args.players_games)
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(client_at(scenario, pool_player_address(i)))
                   for i in range(count)]
        for start in range(0, count, SIGNUPS_AT_ONCE):
            await asyncio.gather(*(sign_up(scenario, clients[i], player_name(i))
                                   for i in range(start, min(count, start + SIGNUPS_AT_ONCE))))
        scenario.tickets = 2 * args.players_games
        gc.freeze()  # as in run_scenario
        scenario.cpu.start()
        scenario.rss_start = scenario.cpu.memory.now()[0]
        scenario.cpu.memory.peak = scenario.rss_start
        started = time.perf_counter()
        scenario.clock_started = time.monotonic()
        flooding = asyncio.create_task(flood_logins(scenario)) if flood else None
        await asyncio.gather(*(pool_player(scenario, client, index)
                               for index, client in enumerate(clients)))
        elapsed = time.perf_counter() - started
        scenario.cpu.stop()
        scenario.stop.set()
        if flooding is not None:
            await flooding
    return elapsed


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of sorted ``values`` (NaN for none)."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def site_scenario_run(args: argparse.Namespace, kind: str, site: ReplicaSite
                      ) -> dict[str, Any]:
    """One scenario through ``site``'s nginx (ordinary, hostile, lobby, a players run, or
    failover: ordinary with the last replica killed after a third of ``--seconds``): its
    figures, with each replica's peak RSS, sockets and games."""
    memory = ReplicasMemory(site)
    with memory:
        scenario = Scenario(site.port, args, CpuMeter(memory))

        async def play() -> float:
            if kind != "failover":
                return await (run_players(scenario, kind == "players") if kind in PLAYERS
                              else run_scenario(scenario, kind))
            killer = asyncio.create_task(kill_later(scenario, site))
            try:
                return await run_scenario(scenario, "ordinary")
            finally:
                killer.cancel()

        elapsed = asyncio.run(play())
        rss, workers = memory.now()
    figures = scenario_figures(scenario, "players" if kind == "players" else kind, elapsed,
                               rss, workers, memory.peak)
    delayed = sorted(scenario.delayed)
    recovered = sorted(scenario.recovered.values())
    figures.update({
        "replica_rss": [r / 2**20 for r in memory.rss], "replica_sockets": memory.sockets,
        "replica_games": memory.games, "lost_games": len(scenario.lost_games),
        "recovered": len(recovered), "failover_p50": percentile(recovered, 0.5),
        "failover_max": recovered[-1] if recovered else float("nan"),
        "delayed": len(delayed), "delayed_p99": 1000 * percentile(delayed, 0.99)})
    return figures


async def kill_later(scenario: Scenario, site: ReplicaSite) -> None:
    """SIGKILL the site's last replica a third of ``--seconds`` into the clock."""
    while not scenario.clock_started:
        await asyncio.sleep(0.05)
    await asyncio.sleep(scenario.args.seconds / 3)
    scenario.killed_perf = time.perf_counter()
    scenario.killed_at = time.monotonic()
    site.kill(len(site.replicas) - 1)
    print(f"  replica r{len(site.replicas) - 1} killed (SIGKILL) at "
          f"{scenario.killed_at - scenario.clock_started:.1f} s", flush=True)


def scenario_run(args: argparse.Namespace, kind: str) -> dict[str, Any]:
    """One scenario on a fresh server: its figures."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "lifearena", "serve", "--port", str(port), "--db",
             os.path.join(folder, "bench.sqlite"), "--creates-per-minute", "100000",
             # the benchmark's main client makes every game (and accepts every challenge)
             # from one address, as no person does: the bound of games in progress an
             # address may have is lifted with the creation quota
             "--games-in-progress", "100000"],
            stdout=subprocess.PIPE, text=True)
        try:
            wait_ready(server)
            with Memory(server.pid) as memory:
                scenario = Scenario(port, args, CpuMeter(memory))
                elapsed = asyncio.run(run_players(scenario, kind == "players")
                                      if kind in PLAYERS else run_scenario(scenario, kind))
                rss, workers = memory.now()
        finally:
            server.terminate()
            try:
                server.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:  # said, then ended: the next run goes on
                print(f"the server did not stop within {STOP_TIMEOUT:.0f} s of SIGTERM; "
                      "killed", flush=True)
                server.kill()
                server.wait()
    return scenario_figures(scenario, kind, elapsed, rss, workers, memory.peak)


def scenario_figures(scenario: Scenario, kind: str, elapsed: float, rss: int, workers: int,
                     peak: int) -> dict[str, Any]:
    """What one scenario measured (``rss``, ``workers``, ``peak``: the server's bytes)."""
    latencies = sorted(scenario.latencies)
    positions = sorted(scenario.position_latencies)
    lags = sorted(arrived - scenario.created_at[made]
                  for made, times in scenario.arrivals.items() if made in scenario.created_at
                  for arrived in times)
    pairings = sorted(scenario.pairing_times)
    logins = sorted(scenario.login_latencies)
    server_cpu, workers_cpu, bench_cpu, machine = scenario.cpu.used
    return {
        "scenario": kind, "games": len(scenario.rated_games) if kind in PLAYERS
        else scenario.games,
        "moves": scenario.moves, "elapsed": elapsed, "rate": scenario.moves / elapsed,
        "p50": 1000 * percentile(latencies, 0.5), "p99": 1000 * percentile(latencies, 0.99),
        "max": 1000 * (latencies[-1] if latencies else float("nan")),
        "errors": len(scenario.errors), "error_samples": scenario.errors[:6],
        "cpu": server_cpu, "workers_cpu": workers_cpu, "bench_cpu": bench_cpu,
        "others_cpu": max(0.0, machine - server_cpu - workers_cpu - bench_cpu),
        "rss": rss / 2**20, "peak": peak / 2**20, "workers": workers / 2**20,
        "uploads": scenario.upload_seconds, "positions": len(positions),
        "position_p50": percentile(positions, 0.5), "position_max": (
            positions[-1] if positions else float("nan")),
        "position_refused": scenario.position_refused,
        "small_p50": 1000 * percentile(sorted(scenario.small_latencies), 0.5),
        "small_p99": 1000 * percentile(sorted(scenario.small_latencies), 0.99),
        "small_count": len(scenario.small_latencies),
        "small_base_p50": 1000 * percentile(sorted(scenario.small_baseline), 0.5),
        "small_base_p99": 1000 * percentile(sorted(scenario.small_baseline), 0.99),
        "growth": (peak - scenario.rss_start) / 2**20,
        "huge_upload": scenario.huge_upload, "huge_reads": scenario.huge_reads,
        "huge_refused": scenario.huge_refused,
        "huge_view_bytes": scenario.huge_view_bytes,
        "replays": len(scenario.replay_latencies), "replay_bytes": scenario.replay_bytes,
        "replay_refused": scenario.replay_refused,
        "replay_p50": percentile(sorted(scenario.replay_latencies), 0.5),
        "unread_statuses": sorted(scenario.unread_statuses),
        "flood_connections": scenario.flood_connections, "flood_refused": scenario.flood_refused,
        "flood_frames": scenario.flood_frames, "flood_dropped": scenario.flood_dropped,
        "lobby_messages": scenario.lobby_messages, "lobby_changes": scenario.lobby_changes,
        "churned": scenario.churned,
        "listing_p50": 1000 * percentile(lags, 0.5), "listing_p99": 1000 * percentile(lags, 0.99),
        "listed": len(lags), "snapshot": max(scenario.snapshot_sizes, default=0),
        "pairing_p50": 1000 * percentile(pairings, 0.5),
        "pairing_p99": 1000 * percentile(pairings, 0.99),
        "pairing_max": 1000 * (pairings[-1] if pairings else float("nan")),
        "pairings": len(pairings), "rated_over": len(scenario.rated_over),
        "resigned": scenario.resigned, "logins_sent": scenario.logins_sent,
        "logins": dict(sorted(scenario.logins.items())),
        "logins_hashed": scenario.logins.get("401", 0),
        "login_p50": 1000 * percentile(logins, 0.5),
        "login_p99": 1000 * percentile(logins, 0.99),
    }


# -- the agents ------------------------------------------------------------------------------

QUIET_ADDRESS = "127.80.0.1"
"""The quiet player's address (the agents scenario)."""
GREEDY_ADDRESS = "127.81.0.1"
"""The address that keeps the agents busy (the agents scenario)."""


@dataclass
class AgentsPhase:
    """What one phase of the agents scenario measured."""

    replies: list[float] = field(default_factory=list)
    """The quiet player's waits for the computer's replies, in seconds."""
    errors: list[str] = field(default_factory=list)
    greedy_games: int = 0
    greedy_refused: int = 0
    greedy_replies: int = 0
    """Replies of the computer the hostile address received (searches it had answered)."""


async def quiet_player(port: int, args: argparse.Namespace, phase: AgentsPhase,
                       deadline: float, rng: random.Random) -> None:
    """Easy War of Life games against the computer until ``deadline``, timing its replies."""
    async with client_at_port(port, QUIET_ADDRESS) as http:
        while time.monotonic() < deadline:
            try:
                made = await step(http.post("/api/games", json={
                    "game": "war_of_life", "opponent": "agent", "level": "easy", "side": 0,
                    "params": {"start": "random", "seed": rng.randrange(2**31)}}))
                if made.status_code != 201:
                    raise PlayerError(f"create: {made.status_code} {made.text[:120]}")
                game = made.json()
                await quiet_game(port, args, phase, game["id"], game["token"], deadline, rng)
            except Exception as error:
                phase.errors.append(describe(error))
                await asyncio.sleep(0.5)  # not a busy loop of failures


async def quiet_game(port: int, args: argparse.Namespace, phase: AgentsPhase, game_id: str,
                     token: str, deadline: float, rng: random.Random) -> None:
    """One game of the quiet player: a move, then the wait for the computer's reply."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{game_id}", proxy=None,
                                  open_timeout=STEP_TIMEOUT,
                                  local_addr=(QUIET_ADDRESS, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        state = await receive_state(ws, 0)
        for _ in range(args.moves):
            if state["outcome"] or time.monotonic() >= deadline:
                return
            await asyncio.sleep(args.agent_think * rng.uniform(0.5, 1.5))
            legal = state["legal"]["0"]["moves"]
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "ply": state["ply"],
                                      "move": rng.choice(legal)["move"]}))
            # the computer has replied once the game waits for the player again (or is over)
            while True:
                state = await receive_state(ws, state["ply"] + 1)
                if state["outcome"] or 0 in state["awaiting"]:
                    break
            if state.get("agent_error"):
                raise PlayerError(f"agent: {state['agent_error']}")
            phase.replies.append(time.perf_counter() - started)


async def greedy_address(port: int, phase: AgentsPhase, stop: asyncio.Event,
                         ready: asyncio.Event, most: int) -> None:
    """Hard Losat games against the computer, as many as the server allows (``most`` at
    most, if not 0), each answered at once, until ``stop``; ``ready`` is set once the server
    refused one more game (or ``most`` are going)."""
    games: set[asyncio.Task[None]] = set()
    rng = random.Random(11)
    async with client_at_port(port, GREEDY_ADDRESS, connections=8) as http:
        while not stop.is_set():
            if most and len(games) >= most:
                ready.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.5)
                continue
            made = await step(http.post("/api/games", json={
                "game": "losat", "opponent": "agent", "level": "hard", "side": 1}))
            if made.status_code == 429:
                phase.greedy_refused += 1
                ready.set()
                # a place comes free when one of its games ends: try again a little later
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.5)
                continue
            if made.status_code != 201:
                phase.errors.append(f"greedy create: {made.status_code} {made.text[:120]}")
                continue
            phase.greedy_games += 1
            game = made.json()
            task = asyncio.create_task(greedy_game(port, phase, game["id"], game["token"],
                                                   stop, rng))
            games.add(task)
            task.add_done_callback(games.discard)
        for task in list(games):
            task.cancel()
        await asyncio.gather(*games, return_exceptions=True)


async def greedy_game(port: int, phase: AgentsPhase, game_id: str, token: str,
                      stop: asyncio.Event, rng: random.Random) -> None:
    """Answer every reply of the computer in one hard Losat game at once, until it ends."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{game_id}", proxy=None,
                                  open_timeout=STEP_TIMEOUT, max_size=2**24,
                                  local_addr=(GREEDY_ADDRESS, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        ply = 0
        while not stop.is_set():
            message = json.loads(await ws.recv())
            if message.get("type") != "state" or message["ply"] < ply:
                continue
            if message["outcome"]:
                return
            if 1 in message["awaiting"]:
                phase.greedy_replies += 1
                ply = message["ply"] + 1
                legal = message["legal"]["1"]["moves"]
                await ws.send(json.dumps({"type": "move", "ply": message["ply"],
                                          "move": rng.choice(legal)["move"]}))


def client_at_port(port: int, address: str, connections: int = 2) -> httpx.AsyncClient:
    """An HTTP client of the server on ``port`` whose requests come from ``address``."""
    return httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=STEP_TIMEOUT,
        transport=httpx.AsyncHTTPTransport(local_address=address, limits=httpx.Limits(
            max_connections=connections, keepalive_expiry=KEEPALIVE_EXPIRY)))


async def agents_phases(port: int, args: argparse.Namespace) -> tuple[AgentsPhase,
                                                                      AgentsPhase]:
    """The baseline phase (the quiet player alone), then the hostile phase."""
    baseline, hostile = AgentsPhase(), AgentsPhase()
    await quiet_player(port, args, baseline, time.monotonic() + args.seconds,
                       random.Random(1))
    stop, ready = asyncio.Event(), asyncio.Event()
    greedy = asyncio.create_task(greedy_address(port, hostile, stop, ready,
                                                args.greedy_games))
    async with asyncio.timeout(60):  # its games made, up to its bound
        waiting = asyncio.create_task(ready.wait())
        await asyncio.wait([waiting, greedy], return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
    if greedy.done():
        greedy.result()  # its failure, said
    try:
        await quiet_player(port, args, hostile, time.monotonic() + args.seconds,
                           random.Random(2))
    finally:
        stop.set()
        await greedy
    return baseline, hostile


def agents_run(args: argparse.Namespace) -> dict[str, Any]:
    """The agents scenario on a fresh server: its figures."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "lifearena", "serve", "--port", str(port), "--db",
             os.path.join(folder, "bench.sqlite"), "--creates-per-minute", "100000"],
            stdout=subprocess.PIPE, text=True)
        try:
            wait_ready(server)
            baseline, hostile = asyncio.run(agents_phases(port, args))
        finally:
            server.terminate()
            server.wait(timeout=20)
    figures: dict[str, Any] = {}
    for name, phase in (("baseline", baseline), ("hostile", hostile)):
        replies = sorted(phase.replies)
        figures.update({f"{name}_replies": len(replies),
                        f"{name}_p50": 1000 * percentile(replies, 0.5),
                        f"{name}_p99": 1000 * percentile(replies, 0.99),
                        f"{name}_max": 1000 * (replies[-1] if replies else float("nan")),
                        f"{name}_errors": len(phase.errors),
                        f"{name}_error_samples": phase.errors[:6]})
    figures.update(greedy_games=hostile.greedy_games, greedy_refused=hostile.greedy_refused,
                   greedy_replies=hostile.greedy_replies)
    return figures


AGENT_COLUMNS = (("run", "", 8, "s"), ("baseline_replies", "replies", 7, "d"),
                 ("baseline_p50", "p50 ms", 8, ".1f"), ("baseline_p99", "p99 ms", 8, ".1f"),
                 ("hostile_replies", "replies", 7, "d"), ("hostile_p50", "p50 ms", 8, ".1f"),
                 ("hostile_p99", "p99 ms", 8, ".1f"), ("hostile_max", "max ms", 8, ".1f"),
                 ("greedy_replies", "greedy replies", 14, "d"),
                 ("greedy_refused", "greedy 429s", 11, "d"))
"""The agents scenario's columns: the quiet player's replies alone (baseline) and beside the
greedy address (hostile)."""


def report_agents(args: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    rows: list[tuple[str, dict[str, Any]]] = [(f"run {n}", run)
                                              for n, run in enumerate(runs, start=1)]
    keys = [key for key, _, _, kind in AGENT_COLUMNS if kind != "s"]
    medians = {key: statistics.median(run[key] for run in runs) for key in keys}
    if len(runs) > 1:
        rows.append(("median", medians))
    print()
    print(f"a quiet address's easy War of Life games against the computer, {args.seconds:g} s "
          f"alone (baseline), then {args.seconds:g} s beside an address keeping its most hard "
          "Losat games against the computer searching (hostile); a reply's latency is from "
          "the quiet player's move to the push of the computer's answer")
    print(f"{'':8}  {'baseline':^29}  {'hostile':^37}")
    table(AGENT_COLUMNS, rows)
    for number, run in enumerate(runs, start=1):
        for name in ("baseline", "hostile"):
            if run[f"{name}_error_samples"]:
                print(f"run {number} {name} errors ({run[f'{name}_errors']}), the first "
                      f"{len(run[f'{name}_error_samples'])}:")
                for sample in run[f"{name}_error_samples"]:
                    print(f"  {sample}")
    which = " (medians)" if len(runs) > 1 else ""
    print(f"hostile / baseline{which}: p50 "
          f"{medians['hostile_p50'] / medians['baseline_p50']:.2f}x, p99 "
          f"{medians['hostile_p99'] / medians['baseline_p99']:.2f}x; the greedy address made "
          f"{runs[-1]['greedy_games']} games and was refused {runs[-1]['greedy_refused']} "
          "(429) in the last run")
    errors = sum(run["baseline_errors"] + run["hostile_errors"] for run in runs)
    met = medians["hostile_p99"] < args.agents_target_ms and errors == 0
    print(f"target (hostile p99 < {args.agents_target_ms:g} ms, no errors): "
          f"{'met' if met else 'MISSED'} (p99 {medians['hostile_p99']:.1f} ms, errors {errors})")


# -- the report --------------------------------------------------------------------------------

LATENCY = (("scenario", "", 20, "s"), ("games", "games", 6, "d"), ("moves", "moves", 6, "d"),
           ("rate", "moves/s", 8, ".0f"), ("p50", "p50 ms", 8, ".1f"),
           ("p99", "p99 ms", 8, ".1f"), ("max", "max ms", 8, ".1f"), ("errors", "errors", 6, "d"),
           ("rss", "server RSS MiB", 14, ".0f"))
"""The first table's columns: key, title, width, format."""
RESOURCES = (("scenario", "", 20, "s"), ("elapsed", "elapsed s", 9, ".1f"),
             ("cpu", "server CPU s", 12, ".1f"),
             ("workers_cpu", "workers CPU s", 13, ".1f"), ("bench_cpu", "bench CPU s", 11, ".1f"),
             ("others_cpu", "others CPU s", 12, ".1f"), ("peak", "RSS peak MiB", 12, ".0f"),
             ("workers", "workers RSS MiB", 15, ".0f"))
"""The second table's columns."""


def table(columns: tuple[tuple[str, str, int, str], ...],
          rows: list[tuple[str, dict[str, Any]]]) -> None:
    print("  ".join(f"{title:<{width}}" if kind == "s" else f"{title:>{width}}"
                    for _, title, width, kind in columns))
    for label, figures in rows:
        cells = []
        for key, _, width, kind in columns:
            if kind == "s":
                cells.append(f"{label:<{width}}")
            else:
                value = figures[key]
                cells.append(f"{round(value) if kind == 'd' else value:>{width}{kind}}")
        print("  ".join(cells))


BIG_FIGURES = ("small_p50", "small_p99", "small_base_p50", "small_base_p99", "growth")
"""The figures of the big views and answers, whose medians are quoted too."""
PLAYER_FIGURES = ("pairing_p50", "pairing_p99", "pairing_max", "pairings", "rated_over",
                  "resigned", "logins_sent", "logins_hashed", "login_p50", "login_p99")
"""The figures of the players scenario, whose medians are quoted too."""


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ({key for key, _, _, kind in LATENCY + RESOURCES if kind != "s"} | set(BIG_FIGURES)
            | set(PLAYER_FIGURES))
    return {key: statistics.median(run[key] for run in runs) for key in keys}


def report(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]]) -> None:
    rows: list[tuple[str, dict[str, Any]]] = []
    medians: dict[str, dict[str, Any]] = {}
    for name, scenario_runs in runs.items():
        for number, run in enumerate(scenario_runs, start=1):
            rows.append((name if args.repeat == 1 else f"{name} {number}", run))
        medians[name] = median_of(scenario_runs) if args.repeat > 1 else scenario_runs[0]
    if args.repeat > 1:
        rows += [(f"{name} median", figures) for name, figures in medians.items()]
    print()
    thought = (f"players think {args.think:g} s a move on average" if args.think > 0
               else "players move as fast as the server answers")
    if any(name not in PLAYERS for name in runs):
        print(f"{args.games} online War of Life games at once for {args.seconds:g} s a "
              f"scenario (at most {args.moves} moves a game; {thought}); a move's latency is "
              "its WebSocket round trip")
    if any(name in PLAYERS for name in runs):
        at_once = min(args.games, args.players_games)
        print(f"players scenarios: {args.players_games} rated {POOL_GAME} games from the "
              f"quick-pairing pool ({POOL_PRESET}), {at_once} at once between "
              f"{2 * at_once} accounts (at most {args.moves} moves a game, then the player to "
              f"move resigns; {thought}); a move's latency is its WebSocket round trip")
    table(LATENCY, rows)
    print()
    table(RESOURCES, rows)
    print(f"(CPU seconds used while the games were played (elapsed s; {os.cpu_count()} cores "
          "offer that many CPU s a second) by the server process, by its agent and replay worker "
          "processes, by this benchmark's clients, and by every other process on the machine; "
          "server RSS: after the scenario, RSS peak: its largest sample; workers RSS: the "
          "worker processes' after)")
    for name, scenario_runs in runs.items():
        for run in scenario_runs:
            if run["error_samples"]:
                print(f"{name} errors ({run['errors']}), the first {len(run['error_samples'])}:")
                for sample in run["error_samples"]:
                    print(f"  {sample}")
    hostile = runs.get("hostile", [])
    if hostile:
        last = hostile[-1]
        uploads = ", ".join(f"{s:.1f}" for s in last["uploads"])
        print(f"hostile load ({'the last run' if len(hostile) > 1 else 'the run'}): "
              f"{args.spectators} flooding spectators made {last['flood_connections']} "
              f"connections ({last['flood_refused']} refused or failed at the handshake, "
              f"{last['flood_dropped']} closed or aborted by the server) and handed TCP "
              f"{last['flood_frames']} messages; {args.position_clients} position clients got "
              f"{last['positions']} positions (p50 {last['position_p50']:.2f} s, max "
              f"{last['position_max']:.2f} s) and {last['position_refused']} refusals (429); "
              f"POST /api/records of each {args.long_turns}-turn game took {uploads} s")
    lobby = runs.get("lobby", [])
    if lobby:
        last = lobby[-1]
        print(f"lobby ({'the last run' if len(lobby) > 1 else 'the run'}): {args.watchers} "
              f"pages each read a snapshot of {last['snapshot']} open challenges, then "
              f"{last['lobby_changes']} changes in all, in {last['lobby_messages']} messages "
              f"({last['churned']} challenges cancelled and made again, besides the games' "
              f"own); a new challenge reached each page in "
              f"p50 {last['listing_p50']:.1f} ms, p99 {last['listing_p99']:.1f} ms "
              f"({last['listed']} deliveries timed, from its creator's request)")
    if hostile:
        big_report(args, runs, medians)
    if "ordinary" in medians and "hostile" in medians:
        ratio = medians["hostile"]["p99"] / medians["ordinary"]["p99"]
        print(f"hostile / ordinary p99{' (medians)' if args.repeat > 1 else ''}: {ratio:.2f}x")
    if any(runs.get(name) for name in PLAYERS):
        players_report(args, runs, medians)
    for name in ("hostile", "lobby", "players"):
        if not runs.get(name):
            continue
        figures = medians[name]
        errors = sum(run["errors"] for run in runs[name])
        met = figures["p99"] < args.target_ms and errors == 0
        print(f"target ({name} p99 < {args.target_ms:g} ms, no errors): "
              f"{'met' if met else 'MISSED'} (p99 {figures['p99']:.1f} ms, errors {errors})")


def players_report(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]],
                   medians: dict[str, dict[str, Any]]) -> None:
    """The players scenario's pools and login flood, and its move p99 against the quiet
    baseline's."""
    quoted = " (medians)" if args.repeat > 1 else ""
    for name in PLAYERS:
        if not runs.get(name):
            continue
        figures, last = medians[name], runs[name][-1]
        print(f"{name}{quoted}: {figures['games']:.0f} rated games paired, "
              f"{figures['rated_over']:.0f} ended ({figures['resigned']:.0f} resigned at "
              f"{args.moves} moves); pairing time (join to the client seeing the pairing, "
              f"the server answering a waiting request; the pools pair every 0.5 s): p50 "
              f"{figures['pairing_p50']:.0f} ms, p99 {figures['pairing_p99']:.0f} ms, max "
              f"{figures['pairing_max']:.0f} ms ({figures['pairings']:.0f} pairings seen)")
        if name == "players":
            answers = ", ".join(f"{status}: {count}" for status, count in last["logins"].items())
            print(f"login flood ({'the last run' if len(runs[name]) > 1 else 'the run'}): "
                  f"{last['logins_sent']} logins with wrong passwords sent at "
                  f"{args.logins_per_second:g} a second (a new address every "
                  f"{ADDRESS_ATTEMPTS}, account names at most {ACCOUNT_FAILURES} times each, "
                  f"half of them names with no account); answered {answers} (401: hashed, "
                  f"answered in p50 {last['login_p50']:.0f} ms, p99 {last['login_p99']:.0f} "
                  "ms; 429: refused unhashed, past the server's bounds on hashes: 32 "
                  "waiting, 10 a second)")
    if "players" in medians and "players-quiet" in medians:
        flood, quiet = medians["players"], medians["players-quiet"]
        print(f"players / players-quiet{quoted}: move p99 {flood['p99']:.1f} / "
              f"{quiet['p99']:.1f} ms = {flood['p99'] / quiet['p99']:.2f}x, move p50 "
              f"{flood['p50'] / quiet['p50']:.2f}x, pairing p99 "
              f"{flood['pairing_p99'] / quiet['pairing_p99']:.2f}x")


def big_report(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]],
               medians: dict[str, dict[str, Any]]) -> None:
    """What the hostile clients of big views and answers did, another client's small
    request beside them and alone, and the server's memory growth, against their targets."""
    last = runs["hostile"][-1]
    print(f"big views and answers ({'the last run' if len(runs['hostile']) > 1 else 'the run'}"
          f"): POST /api/records of the {args.huge_turns}-turn {args.huge_side}x"
          f"{args.huge_side} p2life game took {last['huge_upload']:.1f} s; "
          f"{args.huge_readers} parallel readers of its seat's view (from one address) "
          f"read it {last['huge_reads']} times ({last['huge_view_bytes'] / 1024:.0f} KiB) and "
          f"were refused {last['huge_refused']} times (429: their address's bytes a second); "
          f"{args.replay_clients} replay clients got {last['replays']} replays of "
          f"{args.replay_turns} turns ({last['replay_bytes'] / 2**20:.1f} MiB, p50 "
          f"{last['replay_p50']:.1f} s) and {last['replay_refused']} refusals (429); "
          f"{args.unread_clients} clients from one address that never read their replay "
          f"were answered {last['unread_statuses']}")
    figures = medians["hostile"]
    quoted = " (medians)" if args.repeat > 1 else ""
    met = figures["small_p99"] < args.small_target_ms
    ordinary = (f"; in the ordinary scenario (the games alone): p99 "
                f"{medians['ordinary']['small_p99']:.1f} ms, p50 "
                f"{medians['ordinary']['small_p50']:.1f} ms" if "ordinary" in medians else "")
    print(f"another client's small request (GET of a small game's view){quoted}: p99 "
          f"{figures['small_p99']:.1f} ms, p50 {figures['small_p50']:.1f} ms among the hostile "
          f"clients; alone before the clock (baseline): p99 {figures['small_base_p99']:.1f} ms, "
          f"p50 {figures['small_base_p50']:.1f} ms{ordinary}; target p99 < "
          f"{args.small_target_ms:g} ms: {'met' if met else 'MISSED'}")
    growth = figures["growth"]
    if "ordinary" in medians:
        # the games themselves grow the server (their live copies, views and clocks): the
        # hostile clients' own share is what the same games did not grow it by without them
        baseline = medians["ordinary"]["growth"]
        judged, what = growth - baseline, "beyond the ordinary scenario's"
        base = (f"; ordinary scenario's (the same games, no hostile client): "
                f"{baseline:.0f} MiB; the hostile clients' share: {judged:.0f} MiB")
    else:
        judged, what, base = growth, "in all (run --scenario both to part the games' share)", ""
    print(f"server memory growth{quoted} (peak RSS less RSS when the clock started) while "
          f"{args.unread_clients} clients hold unread big answers: {growth:.0f} MiB{base}; "
          f"target < {args.growth_target_mib:g} MiB {what}: "
          f"{'met' if judged < args.growth_target_mib else 'MISSED'}")


SIZING_SERVE = ["--creates-per-minute", "100000", "--games-in-progress", "100000"]
"""The replicas' options beside the site's own (those of the single server's, see
:func:`scenario_run`)."""


def sizing(args: argparse.Namespace) -> None:
    """The sizing run: the ordinary scenario and the capacity (``--think 0``) through
    ``--replicas`` replicas against one SQLite process, the ``--through-replicas`` scenarios
    and a replica killed during an ordinary run; medians over ``--repeat`` runs."""
    capacity_args = argparse.Namespace(**{**vars(args), "think": 0.0})
    runs: dict[str, list[dict[str, Any]]] = {}

    def interrupt(number: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {number}")

    # Ctrl-C and SIGTERM end the run at once, through every ``finally`` that stops a server
    # or the replicas' site: asyncio.run's own SIGINT handler only cancels the scenario's
    # task, which the players' loops outlive, and SIGTERM would skip the ``finally``s
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, interrupt)

    def measure(name: str, run: Any) -> None:
        print(f"  {name} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
              "as it starts) ...", flush=True)
        runs.setdefault(name, []).append(run())

    for number in range(args.repeat):
        print(f"run {number + 1}/{args.repeat}:", flush=True)
        measure("ordinary, 1 process", lambda: scenario_run(args, "ordinary"))
        measure("capacity, 1 process", lambda: scenario_run(capacity_args, "ordinary"))
        started = time.monotonic()
        with ReplicaSite(args.replicas, SIZING_SERVE, lanes=args.lanes) as site:
            print(f"  {args.replicas} replicas, PostgreSQL (fsync=off), Redis and nginx "
                  f"answering after {time.monotonic() - started:.0f} s", flush=True)
            replicas = f"{args.replicas} replicas"
            measure(f"ordinary, {replicas}", lambda: site_scenario_run(args, "ordinary", site))
            measure(f"capacity, {replicas}",
                    lambda: site_scenario_run(capacity_args, "ordinary", site))
            for extra in args.through_replicas:
                measure(f"{extra}, {replicas}", lambda e=extra: site_scenario_run(args, e, site))
            measure(f"failover, {replicas}", lambda: site_scenario_run(args, "failover", site))
    sizing_report(args, runs)


SIZING = (("scenario", "", 26, "s"), ("games", "games", 6, "d"), ("moves", "moves", 6, "d"),
          ("rate", "moves/s", 8, ".0f"), ("p50", "p50 ms", 8, ".1f"),
          ("p99", "p99 ms", 8, ".1f"), ("max", "max ms", 9, ".1f"), ("errors", "errors", 6, "d"),
          ("cpu", "server CPU s", 12, ".1f"), ("others_cpu", "others CPU s", 12, ".1f"),
          ("peak", "RSS peak MiB", 12, ".0f"))
"""The sizing table's columns (the replicas' CPU and RSS are their sums)."""


def sizing_report(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]]) -> None:
    """The sizing table (medians over the runs), each replica's figures, the failover."""
    keys = [key for key, _, _, kind in SIZING if kind != "s"]
    medians = {name: {key: statistics.median(run[key] for run in scenario_runs)
                      for key in keys} for name, scenario_runs in runs.items()}
    print()
    print(f"{args.games} online War of Life games at once for {args.seconds:g} s a scenario "
          f"(at most {args.moves} moves a game; players think {args.think:g} s a move, "
          f"capacity: 0 s); medians of {args.repeat} run(s); {os.cpu_count()} cores shared by "
          "the server(s), PostgreSQL, Redis, nginx and this benchmark's clients")
    table(SIZING, list(medians.items()))
    for name, scenario_runs in runs.items():
        last = scenario_runs[-1]
        if "replica_rss" in last:
            print(f"{name} (the last run), each replica: peak RSS "
                  + ", ".join(f"{m:.0f}" for m in last["replica_rss"]) + " MiB; peak sockets "
                  + ", ".join(str(n) for n in last["replica_sockets"]) + "; peak games owned "
                  + ", ".join(str(n) for n in last["replica_games"]))
        for run in scenario_runs:
            for sample in run["error_samples"][:3]:
                print(f"  {name} error: {' '.join(sample.split())[:160]}")
    failover = [run for name, rs in runs.items() if name.startswith("failover") for run in rs]
    if failover:
        median = {key: statistics.median(run[key] for run in failover)
                  for key in ("lost_games", "recovered", "failover_p50", "failover_max",
                              "delayed", "delayed_p99")}
        print(f"failover (medians): the killed replica's sockets reached "
              f"{median['lost_games']:.0f} games; {median['recovered']:.0f} answered again, "
              f"{median['failover_p50']:.1f} s after the kill at the median, "
              f"{median['failover_max']:.1f} s at the latest (failover time); "
              f"{median['delayed']:.0f} moves were sent while their game failed over, "
              f"p99 {median['delayed_p99']:.0f} ms")
    for one, many in (("ordinary", "p99"), ("capacity", "rate")):
        base = medians.get(f"{one}, 1 process")
        site = medians.get(f"{one}, {args.replicas} replicas")
        if base and site:
            print(f"{one}: {args.replicas} replicas / 1 process {many}: "
                  f"{site[many] / base[many]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (1..1000)")
    parser.add_argument("--moves", type=int, default=30, help="moves per game at most")
    parser.add_argument("--think", type=float, default=1.0,
                        help="a player's mean thought before each move, in seconds (0: play "
                        "as fast as the server answers, which measures its capacity)")
    parser.add_argument("--seconds", type=float, default=30,
                        help="how long each scenario plays (seconds)")
    parser.add_argument("--scenario",
                        choices=("all", "both", "ordinary", "hostile", "lobby", "agents",
                                 "players"),
                        default="all", help="both: ordinary and hostile; all: those and the "
                        "lobby; agents: a quiet player's agent beside a greedy address's; "
                        "players: rated games from the quick-pairing pools without, then "
                        "with, a login flood")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each scenario (medians quoted when more than one)")
    parser.add_argument("--spectators", type=int, default=10, help="flooding spectator sockets")
    parser.add_argument("--flood-rate", type=float, default=0,
                        help="messages per second per spectator (0: as fast as TCP takes them)")
    parser.add_argument("--position-clients", type=int, default=4,
                        help="clients asking for positions of the long games")
    parser.add_argument("--position-inflight", type=int, default=2,
                        help="position requests each of those clients keeps outstanding")
    parser.add_argument("--long-games", type=int, default=2, help="games of --long-turns turns")
    parser.add_argument("--long-turns", type=int, default=10_000,
                        help="turns of each long p2life game (1..10000)")
    parser.add_argument("--huge-readers", type=int, default=16,
                        help="parallel readers of the huge game's view (hostile scenario)")
    parser.add_argument("--huge-turns", type=int, default=9990,
                        help="turns of the huge p2life game")
    parser.add_argument("--huge-side", type=int, default=64,
                        help="side of the huge game's and the big replay's board")
    parser.add_argument("--replay-clients", type=int, default=2,
                        help="clients asking for the big replay and reading it")
    parser.add_argument("--replay-turns", type=int, default=1000,
                        help="turns of the big replay's record")
    parser.add_argument("--unread-clients", type=int, default=20,
                        help="clients asking for the big replay and never reading it")
    parser.add_argument("--baseline-seconds", type=float, default=3,
                        help="how long the small request is timed alone before the clock")
    parser.add_argument("--small-target-ms", type=float, default=50,
                        help="the small request's p99 target among the hostile clients")
    parser.add_argument("--growth-target-mib", type=float, default=100,
                        help="the server's memory growth target in the hostile scenario")
    parser.add_argument("--challenges", type=int, default=1000,
                        help="open challenges standing in the lobby scenario")
    parser.add_argument("--watchers", type=int, default=200,
                        help="pages watching the lobby in the lobby scenario")
    parser.add_argument("--churn", type=float, default=20,
                        help="standing challenges cancelled and made again a second")
    parser.add_argument("--target-ms", type=float, default=50,
                        help="the hostile, lobby and players scenarios' p99 target")
    parser.add_argument("--agent-think", type=float, default=0.3,
                        help="the quiet player's mean thought before each move, in seconds "
                        "(the agents scenario)")
    parser.add_argument("--greedy-games", type=int, default=0,
                        help="the greedy address's games at most (0: as many as the server "
                        "allows; a server with no bound would take them without end)")
    parser.add_argument("--agents-target-ms", type=float, default=1000,
                        help="the agents scenario's target for the quiet player's p99 reply")
    parser.add_argument("--players-games", type=int, default=200,
                        help="rated games the players scenario plays through the pools "
                        "(--games of them at once)")
    parser.add_argument("--logins-per-second", type=float, default=20,
                        help="logins with wrong passwords a second in the players scenario")
    parser.add_argument("--quick", action="store_true",
                        help="a short run: 50 games for 8 s a scenario, one long game, "
                        "50 rated games")
    parser.add_argument("--replicas", type=int, default=0,
                        help="0: one process over SQLite (as before); N: the sizing run, N "
                        "replicas over PostgreSQL and Redis behind nginx against one SQLite "
                        "process, measured in the same run (see the docstring)")
    parser.add_argument("--lanes", action=argparse.BooleanOptionalAction, default=True,
                        help="with --replicas: replica K runs in lane K (serve --lane), so "
                        "nginx sends a game's requests to the replica that made it; "
                        "--no-lanes: any replica, the owner forwarded to")
    parser.add_argument("--through-replicas", default="hostile,lobby,players",
                        help="with --replicas: the other scenarios also played through the "
                        "replicas, comma-separated among hostile, lobby, players (or none)")
    args = parser.parse_args()
    extras = [] if args.through_replicas in ("", "none") else args.through_replicas.split(",")
    if not 0 <= args.replicas <= 16 or not set(extras) <= {"hostile", "lobby", "players"}:
        parser.error(f"--replicas {args.replicas} --through-replicas "
                     f"{args.through_replicas!r}; expected --replicas 0..16 and "
                     "--through-replicas a comma-separated subset of hostile,lobby,players "
                     "or none")
    args.through_replicas = extras
    if args.quick:
        args.games, args.seconds, args.long_games = min(args.games, 50), 8.0, 1
        args.players_games = min(args.players_games, 50)
    if (not 1 <= args.games <= 1000 or not 1 <= args.moves <= 250 or args.seconds <= 0
            or args.repeat < 1 or not 0 <= args.spectators <= 32 or not 0 <= args.think <= 60
            or not 1 <= args.long_turns <= 10_000 or args.long_games < 1
            or not 0 <= args.position_clients <= 250 or args.position_inflight < 1
            or not 1 <= args.challenges <= 5000 or not 1 <= args.watchers <= 2000
            or not 0 < args.churn <= 1000 or not 1 <= args.players_games <= 10_000
            or not 0 < args.logins_per_second <= 1000):
        parser.error("--games 1..1000, --moves 1..250, --think 0..60, --seconds > 0, "
                     "--repeat >= 1, "
                     "--spectators 0..32, --long-turns 1..10000, --long-games >= 1, "
                     "--position-clients 0..250, --position-inflight >= 1, "
                     "--challenges 1..5000, --watchers 1..2000, --churn 0..1000 (> 0), "
                     "--players-games 1..10000, --logins-per-second 0..1000 (> 0)")
    if args.replicas:
        sizing(args)
        return
    if args.scenario == "agents":
        agent_runs = []
        for number in range(args.repeat):
            print(f"run {number + 1}/{args.repeat}: agents (load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores as it starts) ...",
                  flush=True)
            agent_runs.append(agents_run(args))
        report_agents(args, agent_runs)
        return
    names = {"both": ["ordinary", "hostile"], "all": ["ordinary", "hostile", "lobby"],
             "players": list(PLAYERS)}.get(args.scenario, [args.scenario])
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for number in range(args.repeat):
        for name in names:
            load = os.getloadavg()[0]
            print(f"run {number + 1}/{args.repeat}: {name} (load average {load:.1f} on "
                  f"{os.cpu_count()} cores as it starts) ...", flush=True)
            runs[name].append(scenario_run(args, name))
    report(args, runs)


if __name__ == "__main__":
    main()
