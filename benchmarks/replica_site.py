"""A site of several ``lifearena serve`` replicas on loopback for the benchmarks: a PostgreSQL
cluster of its own, a ``redis-server`` of its own, N replicas over them and nginx in front
(its configuration written by :mod:`lifearena.web.nginx`), every one on a free port in a
temporary folder, and every process stopped (the folder removed) on leaving, also after an
error or Ctrl-C.

The PostgreSQL cluster runs with ``fsync=off`` (a benchmark's throwaway data: its writes cost
what PostgreSQL's work costs, not what the disk of this shared machine costs) and trusts
loopback connections; as root it runs as ``nobody`` (PostgreSQL refuses root), as .ci/postgres
does. Redis runs without persistence (``--save '' --appendonly no``), as docs/deploy.md
advises.

    with ReplicaSite(3) as site:
        httpx.get(site.url + "/api/catalog")
        site.kill(0)  # SIGKILL, as a crash
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

from lifearena.web.nginx import site_config, standalone_config

READY_TIMEOUT = 600.0
"""Seconds a replica may take to answer (minutes when numba's cache is cold)."""
NGINX_CONNECTIONS = 16384
"""nginx's ``worker_connections`` here: a socket through nginx holds two connections (the
client's and the upstream one), and the benchmark keeps hundreds of sockets open at once,
past the 1,024 of :func:`standalone_config`."""


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    """Whether something accepts TCP connections on ``127.0.0.1:port``."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
        return True
    return False


def wait_for(check: object, what: str, process: subprocess.Popen[bytes] | None,
             within: float, log: Path | None = None) -> None:
    """Return once ``check()`` is true; raise naming ``what`` when ``process`` exits first or
    ``within`` seconds pass (with the end of ``log``, when given)."""
    assert callable(check)
    deadline = time.monotonic() + within
    while not check():
        tail = log.read_text(errors="replace")[-1500:] if log and log.exists() else ""
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what}: exited with status {process.returncode}\n{tail}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within {within:g} s\n{tail}")
        time.sleep(0.05)


def postgres_bin() -> Path:
    """The folder of PostgreSQL's ``initdb`` and ``pg_ctl`` (on PATH, else Debian's newest)."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                    key=lambda p: [int(x) for x in p.parts[-3].split(".") if x.isdigit()])
    if not debian:
        raise RuntimeError("PostgreSQL: no initdb/pg_ctl on PATH nor in "
                           "/usr/lib/postgresql/*/bin (apt-get install postgresql)")
    return debian[-1].parent


class ReplicaSite:
    """``replicas`` processes of ``lifearena serve --broker`` behind nginx on loopback."""

    def __init__(self, replicas: int, serve_options: list[str] | None = None,
                 lanes: bool = True) -> None:
        if replicas < 1:
            raise ValueError(f"{replicas} replicas; expected 1 or more")
        self.count = replicas
        self.serve_options = serve_options or []
        self.lanes = lanes
        """Whether replica ``K`` runs in lane ``K`` (``serve --lane``), as docs/deploy.md
        advises; without, nginx spreads a game's requests over every replica."""
        self.folder = Path(tempfile.mkdtemp(prefix="lifearena-site-"))
        self.as_nobody = os.geteuid() == 0
        self.pg_bin = postgres_bin()
        self.pg_port = free_port()
        self.redis_port = free_port()
        self.port = free_port()
        """nginx's port: the site's one address."""
        self.replica_ports: list[int] = []
        self.replicas: list[subprocess.Popen[bytes]] = []
        self.redis: subprocess.Popen[bytes] | None = None
        self.nginx: subprocess.Popen[bytes] | None = None
        self.pg_started = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.pg_port}/postgres"

    @property
    def broker(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    def __enter__(self) -> ReplicaSite:
        try:
            self._start_postgres()
            self._start_redis()
            for index in range(self.count):
                self._start_replica(index)
            for index, process in enumerate(self.replicas):
                log = self.folder / f"r{index}.log"
                # a replica prints its URL once it answers, after its warm-up (it listens
                # before, while the engine compiles)
                wait_for(lambda log=log: "lifearena web:" in log.read_text(errors="replace"),
                         f"replica r{index}", process, READY_TIMEOUT, log)
            self._start_nginx()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def _run_as_owner(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", "nobody", "--", *command] if self.as_nobody else command

    def _start_postgres(self) -> None:
        data = self.folder / "pg"
        if self.as_nobody:
            shutil.chown(self.folder, "nobody")
        log = self.folder / "initdb.log"
        with log.open("wb") as out:
            done = subprocess.run(self._run_as_owner(
                [str(self.pg_bin / "initdb"), "-D", str(data), "-U", "postgres",
                 "--auth=trust", "-E", "UTF8", "--no-sync"]), stdout=out,
                stderr=subprocess.STDOUT, check=False)
        if done.returncode:
            raise RuntimeError(f"initdb failed:\n{log.read_text()[-1500:]}")
        started = subprocess.run(self._run_as_owner(
            [str(self.pg_bin / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "pg.log"),
             "-w", "-t", "60", "-o", f"-c listen_addresses=127.0.0.1 -p {self.pg_port} "
             f"-k {self.folder} -c fsync=off -c max_connections=400", "start"]),
            stdout=subprocess.DEVNULL, check=False)
        self.pg_started = True
        if started.returncode:
            raise RuntimeError("pg_ctl start failed:\n"
                               + (self.folder / "pg.log").read_text()[-1500:])

    def _start_redis(self) -> None:
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: listening(self.redis_port), "redis-server", self.redis, 30)

    def _start_replica(self, index: int) -> None:
        port = free_port()
        log = self.folder / f"r{index}.log"
        with log.open("wb") as out:
            self.replicas.append(subprocess.Popen(
                [sys.executable, "-m", "lifearena", "serve", "--port", str(port), "--db",
                 self.db, "--broker", self.broker, "--replica-id", f"r{index}",
                 *(("--lane", str(index)) if self.lanes else ()),
                 "--forwarded-allow-ips", "127.0.0.1", "--tournaments", "0",
                 *self.serve_options],
                stdout=out, stderr=subprocess.STDOUT, cwd=self.folder,
                env={**os.environ, "NO_COLOR": "1"}))
        self.replica_ports.append(port)

    def _start_nginx(self) -> None:
        site = site_config([f"127.0.0.1:{p}" for p in self.replica_ports],
                           listen=f"127.0.0.1:{self.port}")
        conf = standalone_config(site, self.folder).replace(
            "worker_connections 1024;", f"worker_connections {NGINX_CONNECTIONS};")
        (self.folder / "nginx.conf").write_text(conf)
        self.nginx = subprocess.Popen(
            ["nginx", "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: listening(self.port), "nginx", self.nginx, 30,
                 self.folder / "error.log")

    def kill(self, index: int) -> None:
        """SIGKILL replica ``index``, as a crash."""
        self.replicas[index].send_signal(signal.SIGKILL)
        self.replicas[index].wait()

    def close(self) -> None:
        """Stop everything started (replicas, nginx, Redis, PostgreSQL), remove the folder."""
        for process in self.replicas:
            if process.poll() is None:
                process.terminate()
        for process in self.replicas:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for helper in (self.nginx, self.redis):
            if helper is not None and helper.poll() is None:
                helper.terminate()
                try:
                    helper.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    helper.kill()
                    helper.wait()
        if self.pg_started:
            subprocess.run(self._run_as_owner(
                [str(self.pg_bin / "pg_ctl"), "-D", str(self.folder / "pg"), "-m", "immediate",
                 "-w", "stop"]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                check=False)
            self.pg_started = False
        shutil.rmtree(self.folder, ignore_errors=True)
