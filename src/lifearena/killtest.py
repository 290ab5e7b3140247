"""Kill a long run at random moments and resume it: the harness of the kill-and-resume tests
and of ``benchmarks/soak_kill_resume.py``.

:func:`run_with_kills` starts a command that stores its work in an SQLite file, waits until
the file holds more finished rows than at the last kill (so every kill lands in the middle of
real work), waits a further random moment, kills the command with SIGKILL, checks that none of
its worker processes outlives it, and starts it again; after the asked number of kills it lets
the command finish. The caller then compares the file with an uninterrupted run.

>>> report = KillReport(kills=3, restarts=4, leftover=[], rows_seen=[5, 9, 14])
>>> report.survived
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


@dataclass
class KillReport:
    """What :func:`run_with_kills` did: kills injected, starts, processes found alive after a
    kill (should be none), and the stored row count seen at each kill."""

    kills: int
    restarts: int
    leftover: list[int] = field(default_factory=list)
    rows_seen: list[int] = field(default_factory=list)
    output: str = ""
    workers_seen: int = 0
    """Processes found below the killed command (its workers) at the moments of the kills."""

    @property
    def survived(self) -> bool:
        """True when no worker outlived a kill (the stored results are checked by the caller)."""
        return not self.leftover


def count_rows(path: str | Path, sql: str) -> int:
    """``sql`` (a ``SELECT COUNT(*)``) on the file read-only; 0 while it cannot be read."""
    if not Path(path).exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True,
                                                timeout=1.0)) as conn:
            return int(conn.execute(sql).fetchone()[0])
    except sqlite3.Error:
        return 0


def integrity(path: str | Path) -> str:
    """``PRAGMA integrity_check`` of the file: ``"ok"`` when intact."""
    with contextlib.closing(sqlite3.connect(str(path))) as conn:
        return "; ".join(row[0] for row in conn.execute("PRAGMA integrity_check"))


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (read from /proc; empty where there is no /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def run_with_kills(argv: Sequence[str], *, db: str | Path, count_sql: str, kills: int,
                   seed: int = 0, jitter: float = 0.3, timeout: float = 120.0,
                   env: dict[str, str] | None = None, cwd: str | Path | None = None
                   ) -> KillReport:
    """Run ``argv`` to completion, SIGKILLing it ``kills`` times on the way (see the module
    doc). Raises ``RuntimeError`` if the last run fails or the whole exceeds ``timeout``."""
    rng = np.random.default_rng(seed)
    report = KillReport(kills=0, restarts=0)
    deadline = time.monotonic() + timeout
    last = count_rows(db, count_sql)
    while True:
        report.restarts += 1
        log = tempfile.TemporaryFile()  # noqa: SIM115 - closed below; a pipe could fill up
        proc = subprocess.Popen(list(argv), stdout=log, stderr=subprocess.STDOUT,
                                env=env, cwd=cwd)
        try:
            if report.kills < kills:
                # wait for new work to be stored, then for a random moment more
                while proc.poll() is None and count_rows(db, count_sql) <= last:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{argv[0]} made no progress within {timeout} s")
                    time.sleep(0.01)
                if proc.poll() is None:
                    time.sleep(float(rng.uniform(0, jitter)))
                if proc.poll() is None:
                    workers = _descendants(proc.pid)
                    report.workers_seen += len(workers)
                    os.kill(proc.pid, signal.SIGKILL)
                    proc.wait()
                    report.kills += 1
                    last = count_rows(db, count_sql)
                    report.rows_seen.append(last)
                    stop = time.monotonic() + 5.0
                    while any(_alive(p) for p in workers) and time.monotonic() < stop:
                        time.sleep(0.02)
                    report.leftover += [p for p in workers if _alive(p)]
                    continue
            proc.wait(timeout=max(1.0, deadline - time.monotonic()))
            log.seek(0)
            report.output = log.read().decode("utf-8", "replace")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            log.close()
        if proc.returncode != 0:
            raise RuntimeError(f"the resumed run failed (exit status {proc.returncode}): "
                               f"{report.output[-2000:]}")
        return report
