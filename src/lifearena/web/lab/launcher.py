"""Tournaments started from the lab's page: ``lifearena tournament`` run by the server.

Each start is a child process ``lifearena tournament GAME -n N -a A,B --seed S -w 1 --db
FILE`` (which ends when the server is gone, even killed: :mod:`lifearena.web.lab.child`)
whose results file the server owns: it lives in a folder beside the server's games
database (``<db stem>-tournaments/``), named by the launch's id (``lab-1``, ``lab-2``, ...)
and addressed by that id, never by a path a client sends. The process runs in its own
process group, off the event loop; *Stop* sends it SIGINT (the CLI marks the run
``interrupted`` and exits; SIGKILL after a grace period), *Resume* starts the same command
again, which resumes from the file (docs/reliability.md: a killed run loses nothing).

Bounds, each refused with one line (:class:`TooManyRunning` and its subclasses, HTTP 429):
at most ``limit`` launches run at once; at most ``max_launches`` are kept
(:class:`TooManyLaunches`); the folder (results files, their ``-wal``/``-shm``, logs and
notes) holds at most ``disk_budget`` bytes (:class:`DiskBudgetUsed`). A watcher thread looks
at the folder every :data:`WATCH_POLL` seconds while anything runs, whether or not a page is
open, and stops every running launch (SIGINT, as *Stop*) once the budget is used up; those
say why in their ``message``. A launch's command is kept in ``<id>.json`` beside its file,
so a restarted server lists its launches again (stopped) and can resume them.

>>> isinstance(DiskBudgetUsed("x"), TooManyRunning), isinstance(TooManyRunning("x"), ValueError)
(True, True)
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lifearena import caps
from lifearena.agents.registry import available_agents
from lifearena.arena.game_names import game_name
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import TournamentConfig, default_params, parse_agents
from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web import catalog
from lifearena.web.lab.models import LaunchBody
from lifearena.web.lab.results import ResultsFile, UnknownResults

MAX_RUNNING = 2
"""Launched tournaments running at once, by default."""
MAX_LAUNCHES = 50
"""Launched tournaments a server keeps (running or not), by default."""
DISK_BUDGET = 1 << 30
"""Bytes the tournaments folder may hold, by default (1 GiB)."""
WATCH_POLL = 0.5
"""Seconds between two looks at the folder's size while a launch runs."""
STOP_GRACE = 10.0
"""Seconds a stopped tournament has to store its last block before it is killed."""
_ID = re.compile(r"^lab-[0-9]{1,9}$")
#: agents the page does not offer: a bot needs a command line, which a page never sends
UNOFFERED = frozenset({"bot"})


class TooManyRunning(LifeArenaError):
    """More launched tournaments than the server runs at once (answered as 429)."""


class TooManyLaunches(TooManyRunning):
    """More launched tournaments than the server keeps (answered as 429)."""


class DiskBudgetUsed(TooManyRunning):
    """The tournaments folder holds the server's disk budget or more (answered as 429)."""


def megabytes(size: int) -> str:
    """A size in bytes as the messages say it, in MB (10**6 bytes).

    >>> megabytes(1 << 30), megabytes(25_500_000), megabytes(300_000), megabytes(36_945)
    ('1,074 MB', '25.5 MB', '0.30 MB', '0.04 MB')
    """
    mb = size / 1e6
    if mb >= 100:
        return f"{mb:,.0f} MB"
    return f"{mb:.1f} MB" if mb >= 1 else f"{mb:.2f} MB"


def budget_message(budget: int) -> str:
    """What a launch stopped by the watcher says.

    >>> budget_message(300_000)
    "stopped: the server's disk budget for tournaments (0.30 MB) is used up"
    """
    return f"stopped: the server's disk budget for tournaments ({megabytes(budget)}) is used up"


def folder_size(folder: Path) -> int:
    """Bytes held by the files of ``folder`` (0 when there is no such folder).

    >>> folder_size(Path("/no/such/folder"))
    0
    """
    total = 0
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder):
            with contextlib.suppress(OSError):  # a -wal file removed as it was listed
                if entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
    return total


class UnknownLaunch(UnknownResults):
    """No launched tournament with that id (answered as 404)."""


@dataclass(frozen=True)
class LaunchSpec:
    """What the page asked for, checked: the game, its entrants, games per pairing, seed."""

    game: str
    agents: tuple[str, ...]
    games: int
    seed: int

    @classmethod
    def from_json(cls, data: object) -> LaunchSpec:
        """A spec from JSON data (a launch's note, or a body), checked as the page's body is.

        >>> LaunchSpec.from_json({"game": "war_of_life", "agents": ["random", "bloodlust"],
        ...                       "games": 2, "seed": 7}).total()
        8
        >>> LaunchSpec.from_json({"game": "war_of_life", "agents": [], "games": 2})
        Traceback (most recent call last):
        ...
        lifearena.errors.BadParameterError: tournament agents: List should have at least 1 \
item after validation, not 0
        """
        try:
            body = LaunchBody.model_validate(data)
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise BadParameterError(f"tournament {where}: {first['msg']}".strip()) from None
        return cls.from_body(body)

    @classmethod
    def from_body(cls, body: LaunchBody) -> LaunchSpec:
        """A spec from the page's declared body, checked against the game: its agents, and
        the cap on a tournament's games that the CLI applies too
        (:data:`lifearena.caps.MAX_TOTAL_GAMES`).

        >>> LaunchSpec.from_body(LaunchBody(game="chess", agents=["random"], games=1)
        ...                      )  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lifearena.errors.BadParameterError: unknown game 'chess'; expected one of war_of_life, ...
        """
        game = catalog.entry_of(body.game).name
        offered = entrants_of(game)
        for agent in body.agents:
            if agent not in offered:
                raise BadParameterError(f"agent {agent[:40]!r} for {game}; expected one of "
                                        f"{', '.join(offered)}")
        if len(set(body.agents)) != len(body.agents):
            raise BadParameterError(f"agents {', '.join(body.agents)} name one twice; "
                                    "expected each entrant once")
        spec = cls(game, tuple(body.agents), body.games, body.seed)
        if spec.total() > caps.MAX_TOTAL_GAMES:
            raise BadParameterError(f"{body.games:,} games per pairing with "
                                    f"{len(body.agents)} agents is {spec.total():,} games; "
                                    f"expected at most {caps.MAX_TOTAL_GAMES:,}")
        return spec

    def config(self) -> TournamentConfig:
        """The configuration ``lifearena tournament`` builds from the same command line."""
        game = game_name(self.game)
        return TournamentConfig(game, parse_agents(list(self.agents)), games=self.games,
                                seed=self.seed, params=default_params(game))

    def total(self) -> int:
        return self.config().total_games()

    def run_name(self) -> str:
        return f"tournament-{self.config().game}"

    def argv(self, db: Path) -> list[str]:
        """The command line of the child process: the tournament command, run by
        :mod:`lifearena.web.lab.child` so that it ends when this server is gone."""
        return [sys.executable, "-m", "lifearena.web.lab.child", str(os.getpid()),
                "tournament", self.game,
                "--games", str(self.games), "--agents", ",".join(self.agents),
                "--seed", str(self.seed), "--workers", "1", "--name", self.run_name(),
                "--db", str(db)]


def entrants_of(game: str) -> list[str]:
    """The agents the page offers for ``game``: the registry's, less those needing a
    command line.

    >>> "bloodlust" in entrants_of("war_of_life"), "bot" in entrants_of("war_of_life")
    (True, False)
    """
    return [name for name in available_agents(game) if name not in UNOFFERED]


@dataclass
class Launch:
    """One launched tournament: its id, spec, results file and child process."""

    id: str
    spec: LaunchSpec
    path: Path
    process: subprocess.Popen[bytes] | None = None
    stopped: bool = False
    why: str = ""
    """Why the server stopped it by itself (the disk budget), shown while it is stopped."""

    def state(self) -> str:
        """``running``, ``stopped``, ``done`` or ``failed`` (the child's last words are in
        :meth:`log_tail`)."""
        code = None if self.process is None else self.process.poll()
        if self.process is not None and code is None:
            return "running"
        # the file has the last word: a stop that came as the last block was stored, or a
        # launch listed again by a restarted server, may be a finished run
        if self.run_status() == "done":
            return "done"
        if self.process is None or self.stopped:
            return "stopped"
        return "failed"

    def run_status(self) -> str | None:
        """The run's status as its file stores it (``None`` when it cannot be read)."""
        try:
            with ResultsFile(self.id, self.path, "arena").connect() as connection:
                row = connection.execute("SELECT status FROM runs WHERE name=?",
                                         (self.spec.run_name(),)).fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else str(row[0])

    def mark_interrupted(self) -> None:
        """Mark the stopped run ``interrupted`` in its file where its process could not (it
        was killed after the grace period, or stopped before it set its handlers): a stopped
        run never reads as running."""
        if self.run_status() != "running":
            return
        with contextlib.suppress(sqlite3.Error, ValueError), ResultsDB(self.path) as db:
            db.get_run(self.spec.run_name()).set_status("interrupted")

    def log_tail(self) -> str:
        log = self.path.with_suffix(".log")
        try:
            lines = log.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        # the CLI's error line; the server's folder is not shown to a client
        return lines[-1].replace(str(self.path.parent), "…")[:300] if lines else ""

    def describe(self) -> dict[str, Any]:
        state = self.state()
        message = (self.log_tail() if state == "failed"
                   else self.why if state == "stopped" else "")
        return {"id": self.id, "run": self.spec.run_name(), "state": state,
                "total": self.spec.total(), **asdict(self.spec), "message": message}


class Launcher:
    """The tournaments this server started: at most ``limit`` running at once, at most
    ``max_launches`` kept, their folder under ``disk_budget`` bytes (watched every ``poll``
    seconds while one runs)."""

    def __init__(self, folder: Path, limit: int = MAX_RUNNING,
                 max_launches: int = MAX_LAUNCHES, disk_budget: int = DISK_BUDGET,
                 poll: float = WATCH_POLL) -> None:
        self.folder = folder
        self.limit = limit
        self.max_launches = max_launches
        self.disk_budget = disk_budget
        self.poll = poll
        self.launches: dict[str, Launch] = {}
        self._lock = threading.RLock()
        self._watcher: threading.Thread | None = None
        self._closing = threading.Event()
        if folder.is_dir():
            for meta in sorted(folder.glob("lab-*.json")):
                try:
                    spec = LaunchSpec.from_json(json.loads(meta.read_text()))
                except (OSError, ValueError):
                    continue  # a damaged note: its file stays, unlisted
                launch_id, path = meta.stem, meta.with_suffix(".sqlite")
                if _ID.match(launch_id) and path.is_file():  # a removed file is not listed
                    launch = Launch(launch_id, spec, path)
                    # no process of this launcher runs it: a run its file still calls running
                    # lost its process before the process could say so (killed with its
                    # server on a machine too loaded to store its last block in time)
                    launch.mark_interrupted()
                    self.launches[launch_id] = launch

    def running(self) -> int:
        return sum(1 for launch in list(self.launches.values())
                   if launch.state() == "running")

    def disk_used(self) -> int:
        """Bytes the tournaments folder holds now."""
        return folder_size(self.folder)

    def get(self, launch_id: str) -> Launch:
        launch = self.launches.get(launch_id) if _ID.match(launch_id) else None
        if launch is None:
            raise UnknownLaunch(f"no tournament started here with id {launch_id[:40]!r}")
        return launch

    def start(self, spec: LaunchSpec) -> Launch:
        """A new results file and a child process playing into it."""
        config = spec.config()
        for entrant in config.agents:
            entrant.build(config.game, 0)  # a bad option is refused here, not in the child
        with self._lock:
            if len(self.launches) >= self.max_launches:
                raise TooManyLaunches(
                    f"this server keeps {len(self.launches)} started tournaments, its most; "
                    "expected fewer: its operator can remove old ones from the tournaments "
                    "folder and restart it")
            self._check_room()
            self.folder.mkdir(parents=True, exist_ok=True)
            number = 1 + max((int(i.split("-")[1]) for i in self.launches), default=0)
            launch = Launch(f"lab-{number}", spec, self.folder / f"lab-{number}.sqlite")
            # the run exists before the child starts, so the page can show 0 / total at once
            with ResultsDB(launch.path) as db:
                db.open_run(spec.run_name(), "tournament", config.to_dict())
            launch.path.with_suffix(".json").write_text(json.dumps(asdict(spec)))
            self.launches[launch.id] = launch
            self._spawn(launch)
            return launch

    def resume(self, launch_id: str) -> Launch:
        """Start a stopped (or failed) launch's command again; it resumes from its file."""
        launch = self.get(launch_id)
        with self._lock:
            if launch.state() == "running":
                raise BadParameterError(f"tournament {launch_id} is running; expected a "
                                        "stopped one")
            if launch.state() == "done":
                raise BadParameterError(f"tournament {launch_id} is done; nothing to resume")
            self._check_room()
            self._spawn(launch)
            return launch

    def stop(self, launch_id: str, grace: float = STOP_GRACE) -> Launch:
        """Interrupt a running launch (SIGINT to its process group, SIGKILL after
        ``grace`` seconds); what it stored stays."""
        launch = self.get(launch_id)
        with self._lock:
            process = launch.process
            if process is None or process.poll() is not None:
                raise BadParameterError(f"tournament {launch_id} is {launch.state()}; "
                                        "expected a running one")
            launch.stopped = True
            _signal(process, signal.SIGINT)
        _wait(process, grace)
        launch.mark_interrupted()
        return launch

    def close(self) -> None:
        """Stop every running launch (the server is going away; each can be resumed)."""
        self._closing.set()
        for launch in list(self.launches.values()):
            if launch.state() == "running":
                with contextlib.suppress(BadParameterError):  # it ended meanwhile
                    self.stop(launch.id, grace=3.0)

    def describe(self) -> dict[str, Any]:
        """The bounds, what is used of them, and every launch."""
        launches = [launch.describe() for launch in list(self.launches.values())]
        return {"limit": self.limit,
                "running": sum(1 for d in launches if d["state"] == "running"),
                "max_launches": self.max_launches, "disk_used": self.disk_used(),
                "disk_budget": self.disk_budget, "launches": launches}

    def check_budget(self) -> list[Launch]:
        """Stop every running launch (SIGINT, as :meth:`stop`) when the folder holds the
        disk budget or more, marking why; answer the launches so stopped."""
        if self.disk_used() < self.disk_budget:
            return []
        why = budget_message(self.disk_budget)
        stopped = []
        with self._lock:
            for launch in self.launches.values():
                process = launch.process
                if process is not None and process.poll() is None:
                    launch.stopped, launch.why = True, why
                    _signal(process, signal.SIGINT)
                    stopped.append(launch)
        for launch in stopped:
            assert launch.process is not None
            _wait(launch.process, STOP_GRACE)
            launch.mark_interrupted()
        return stopped

    def _check_room(self) -> None:
        running = self.running()
        if running >= self.limit:
            raise TooManyRunning(f"{running} tournaments are running; this server runs at "
                                 f"most {self.limit} at once: stop one or wait")
        used = self.disk_used()
        if used >= self.disk_budget:
            raise DiskBudgetUsed(f"the server's disk budget for tournaments "
                                 f"({megabytes(self.disk_budget)}) is used up "
                                 f"({megabytes(used)} stored); expected room for more games: "
                                 "its operator can remove old tournaments")

    def _spawn(self, launch: Launch) -> None:
        with launch.path.with_suffix(".log").open("ab") as log:
            launch.process = subprocess.Popen(
                launch.spec.argv(launch.path), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
                env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120"})
        launch.stopped, launch.why = False, ""
        if self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, daemon=True,
                                             name="lifearena-tournaments-budget")
            self._watcher.start()

    def _watch(self) -> None:
        """The watcher thread: the budget checked every ``poll`` seconds while a launch
        runs; it ends when none does (the next start makes another)."""
        while not self._closing.wait(self.poll):
            self.check_budget()
            with self._lock:
                if not any(launch.process is not None and launch.process.poll() is None
                           for launch in self.launches.values()):
                    self._watcher = None
                    return
        with self._lock:
            self._watcher = None


def _wait(process: subprocess.Popen[bytes], grace: float) -> None:
    """Wait for an interrupted process; SIGKILL after ``grace`` seconds."""
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        _signal(process, signal.SIGKILL)
        process.wait()


def _signal(process: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended by itself meanwhile
        os.killpg(process.pid, signum)
