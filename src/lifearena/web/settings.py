"""What one ``lifearena serve`` is configured with (:class:`Settings`), read by the rooms
(:mod:`lifearena.web.rooms`), the routes and the lab alike; no web framework here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lifearena.web.agent_queue import PER_ADDRESS
from lifearena.web.clock import steady_wall
from lifearena.web.database import database_url
from lifearena.web.limits import (
    ANSWER_BYTES_PER_ADDRESS,
    ANSWER_BYTES_TOTAL,
    GAMES_IN_PROGRESS,
    VIEW_BYTES_PER_SECOND,
)


@dataclass
class Settings:
    """What a server instance is configured with."""

    db: str | Path
    """The games database: a SQLite file's path, or a URL
    (:func:`~lifearena.web.database.database_url`: ``postgresql://user@host:port/name``)."""
    agent_workers: str = "process"
    """``"process"`` (process pools for agents and slow work, the default) or ``"thread"``
    (tests)."""
    workers: int = 2
    creates_per_minute: int = 30
    max_cached: int = 5_000
    results: tuple[Path, ...] = ()
    tournaments_running: int = 2
    """Tournaments started from the lab's page that may run at once (0: none can be
    started)."""
    lab_admin: str | None = None
    """The operator's secret that starts, stops and resumes tournaments from the lab
    (``serve --lab-admin``); without it the tournament pages are read only."""
    bind_host: str = "127.0.0.1"
    allowed_hosts: tuple[str, ...] = ()
    """Host names the server answers to besides the loopback names and ``bind_host``
    (``--allowed-host``); ``"*"`` for any."""
    on_ready: Callable[[], None] | None = None
    """Called once the server is about to answer requests (its agent workers warm)."""
    challenge_expiry: float = 1800.0
    """Seconds an open challenge of the lobby waits for an opponent (30 minutes)."""
    now: Callable[[], float] = steady_wall
    """The clock games' clocks read, in seconds since the epoch (tests give their own)."""
    shortest_clock: float = 0.5
    """The shortest live time control a new game may have, in minutes."""
    view_bytes_per_second: int = VIEW_BYTES_PER_SECOND
    """Bytes of game views one client address may fetch over HTTP a second, on average
    (:class:`~lifearena.web.limits.ByteRate`)."""
    games_in_progress: int = GAMES_IN_PROGRESS
    """Unfinished games one client address may have made or hold a seat in at once
    (:class:`~lifearena.web.limits.GamesInProgress`)."""
    agent_searches: int = PER_ADDRESS
    """Searches of the computer one client address may have waiting or running; past it,
    its new games against the computer are refused (:mod:`lifearena.web.agent_queue`)."""
    answer_bytes_per_address: int = ANSWER_BYTES_PER_ADDRESS
    """Bytes of big answers (replays) not yet read that one address may hold before its
    next big request is refused (:mod:`lifearena.web.answers`)."""
    answer_bytes_total: int = ANSWER_BYTES_TOTAL
    """The same, for every address together."""
    rated_within_address: bool = False
    """Whether two accounts at one client address may play a rated game together (off: a
    person cannot feed one of its accounts wins from another; ``serve --rated-within-address``
    for a site behind one address, such as a club's)."""
    tournaments_dir: Path | None = None
    """Where the lab's tournaments keep their results files (``None``:
    :func:`tournaments_folder` chooses)."""
    puzzles_dir: Path | None = None
    """A folder of ``<game>.jsonl.gz`` puzzle files offered in place of the shipped ones
    (:mod:`lifearena.web.puzzle_routes`)."""
    broker: str | None = None
    """The broker shared with the other replicas of this site (``redis://host:port/db``,
    ``serve --broker``; :mod:`lifearena.web.rooms.cluster`), or ``None``: one process,
    nothing shared (the store may then be SQLite)."""
    replica_id: str | None = None
    """This replica's name among the others (``serve --replica-id``; default
    ``host-pid-random``)."""
    lane: int | None = None
    """This replica's lane (``serve --lane``; :mod:`lifearena.web.lanes`): the games it
    makes have ids that nginx sends to it first. ``None``: ids of no lane."""


TOURNAMENTS_DIR = "lifearena-tournaments"
"""The folder, in the working directory, of the lab's tournaments of a server whose games
are in a database server (PostgreSQL): there is no games file to put them beside."""


def tournaments_folder(db: str | Path, chosen: Path | None = None) -> Path:
    """Where the tournaments started from the lab keep their results files (each a SQLite
    file of its own): ``chosen`` when given (``serve --tournaments-dir``), else a folder
    beside the games file ``db``, or :data:`TOURNAMENTS_DIR` in the working directory when
    ``db`` is a database server's URL.

    >>> tournaments_folder(Path("/srv/web.sqlite")).as_posix()
    '/srv/web-tournaments'
    >>> tournaments_folder("sqlite:////srv/web.sqlite").as_posix()
    '/srv/web-tournaments'
    >>> tournaments_folder("postgresql://me@db/arena", Path("/srv/lab")).as_posix()
    '/srv/lab'
    >>> tournaments_folder("postgresql://me@db/arena") == Path.cwd() / TOURNAMENTS_DIR
    True
    """
    if chosen is not None:
        return chosen
    url = database_url(db)
    if url.startswith("sqlite:///"):
        file = Path(url.removeprefix("sqlite:///"))
        return file.parent / f"{file.stem}-tournaments"
    return Path.cwd() / TOURNAMENTS_DIR
