"""Tournaments started from the lab's page: ``lifearena tournament`` run by the server.

Each start is a child process ``lifearena tournament GAME -n N -a A,B --seed S -w 1 --db
FILE`` (which ends when the server is gone, even killed: :mod:`lifearena.web.lab.child`)
whose results file the server owns: it lives in a folder beside the server's games
database (``<db stem>-tournaments/``), named by the launch's id (``lab-1``, ``lab-2``, ...)
and addressed by that id, never by a path a client sends. The process runs in its own
process group, off the event loop; *Stop* sends it SIGINT (the CLI marks the run
``interrupted`` and exits; SIGKILL after a grace period), *Resume* starts the same command
again, which resumes from the file (docs/reliability.md: a killed run loses nothing).

At most ``limit`` launches run at once; one more is refused with :class:`TooManyRunning`
(HTTP 429). A launch's command is kept in ``<id>.json`` beside its file, so a restarted
server lists its launches again (stopped) and can resume them.

>>> isinstance(TooManyRunning("x"), ValueError)
True
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

from lifearena.agents.registry import available_agents
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import TournamentConfig, default_params, parse_agents
from lifearena.cli import caps
from lifearena.cli.checks import game_name
from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web import catalog
from lifearena.web.lab.results import ResultsFile, UnknownResults

MAX_RUNNING = 2
"""Launched tournaments running at once, by default."""
STOP_GRACE = 10.0
"""Seconds a stopped tournament has to store its last block before it is killed."""
MAX_ENTRANTS = 12
_ID = re.compile(r"^lab-[0-9]{1,9}$")
#: agents the page does not offer: a bot needs a command line, which a page never sends
UNOFFERED = frozenset({"bot"})


class TooManyRunning(LifeArenaError):
    """More launched tournaments than the server runs at once (answered as 429)."""


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
    def from_json(cls, data: dict[str, Any]) -> LaunchSpec:
        """A spec from the page's JSON, every field checked against the CLI's caps.

        >>> LaunchSpec.from_json({"game": "war_of_life", "agents": ["random", "bloodlust"],
        ...                       "games": 2, "seed": 7}).total()
        8
        >>> LaunchSpec.from_json({"game": "chess", "agents": ["random"], "games": 1,
        ...                       "seed": 0})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lifearena.errors.BadParameterError: unknown game 'chess'; expected one of war_of_life, ...
        """
        if not isinstance(data, dict):
            raise BadParameterError(f"tournament {str(data)[:40]}; expected a JSON object")
        game = catalog.entry_of(str(data.get("game", ""))).name
        offered = entrants_of(game)
        agents = data.get("agents")
        if (not isinstance(agents, list) or not 1 <= len(agents) <= MAX_ENTRANTS
                or not all(isinstance(a, str) for a in agents)):
            raise BadParameterError(f"agents {str(agents)[:60]}; expected a list of 1 to "
                                    f"{MAX_ENTRANTS} agent names")
        for agent in agents:
            if agent not in offered:
                raise BadParameterError(f"agent {agent[:40]!r} for {game}; expected one of "
                                        f"{', '.join(offered)}")
        if len(set(agents)) != len(agents):
            raise BadParameterError(f"agents {', '.join(agents)} name one twice; expected "
                                    "each entrant once")
        games = _number(data.get("games"), "games per pairing", 1, caps.MAX_GAMES)
        seed = _number(data.get("seed", 0), "seed", 0, caps.MAX_SEED)
        spec = cls(game, tuple(agents), games, seed)
        if spec.total() > caps.MAX_TOTAL_GAMES:
            raise BadParameterError(f"{games:,} games per pairing with {len(agents)} agents "
                                    f"is {spec.total():,} games; expected at most "
                                    f"{caps.MAX_TOTAL_GAMES:,}")
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


def _number(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadParameterError(f"{what} {str(value)[:30]}; expected a whole number from "
                                f"{low:,} to {high:,}")
    return value


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
        return {"id": self.id, "run": self.spec.run_name(), "state": state,
                "total": self.spec.total(), **asdict(self.spec),
                "message": self.log_tail() if state == "failed" else ""}


class Launcher:
    """The tournaments this server started, at most ``limit`` running at once."""

    def __init__(self, folder: Path, limit: int = MAX_RUNNING) -> None:
        self.folder = folder
        self.limit = limit
        self.launches: dict[str, Launch] = {}
        self._lock = threading.Lock()
        if folder.is_dir():
            for meta in sorted(folder.glob("lab-*.json")):
                try:
                    spec = LaunchSpec.from_json(json.loads(meta.read_text()))
                except (OSError, ValueError):
                    continue  # a damaged note: its file stays, unlisted
                launch_id, path = meta.stem, meta.with_suffix(".sqlite")
                if _ID.match(launch_id) and path.is_file():  # a removed file is not listed
                    self.launches[launch_id] = Launch(launch_id, spec, path)

    def running(self) -> int:
        return sum(1 for launch in self.launches.values() if launch.state() == "running")

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
        process = launch.process
        if process is None or process.poll() is not None:
            raise BadParameterError(f"tournament {launch_id} is {launch.state()}; expected a "
                                    "running one")
        launch.stopped = True
        _signal(process, signal.SIGINT)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            _signal(process, signal.SIGKILL)
            process.wait()
        return launch

    def close(self) -> None:
        """Stop every running launch (the server is going away; each can be resumed)."""
        for launch in list(self.launches.values()):
            if launch.state() == "running":
                self.stop(launch.id, grace=3.0)

    def describe(self) -> dict[str, Any]:
        return {"limit": self.limit, "running": self.running(),
                "launches": [launch.describe() for launch in self.launches.values()]}

    def _check_room(self) -> None:
        if self.running() >= self.limit:
            raise TooManyRunning(f"{self.running()} tournaments are running; this server runs "
                                 f"at most {self.limit} at once: stop one or wait")

    def _spawn(self, launch: Launch) -> None:
        with launch.path.with_suffix(".log").open("ab") as log:
            launch.process = subprocess.Popen(
                launch.spec.argv(launch.path), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=log, start_new_session=True,
                env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120"})
        launch.stopped = False


def _signal(process: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended by itself meanwhile
        os.killpg(process.pid, signum)
