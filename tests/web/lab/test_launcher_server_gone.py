"""A tournament launched from the lab ends when the server that launched it is killed, so a
restarted server never resumes it beside a still-running writer."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil

from lifearena.web.lab.launcher import Launcher

# long enough to be running when its server is killed (greedy Life for Two: ~20 games a second)
LONG = {"game": "life_for_two", "agents": ["random", "greedy"], "games": 500, "seed": 3}

SERVER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from lifearena.web.lab.launcher import Launcher, LaunchSpec
    launch = Launcher(Path(sys.argv[1])).start(LaunchSpec.from_json({spec!r}))
    print(launch.process.pid, flush=True)
    time.sleep(600)
""").format(spec=LONG)


def test_a_launch_is_interrupted_when_its_server_is_killed(tmp_path: Path) -> None:
    folder = tmp_path / "web-tournaments"
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(folder)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        child = psutil.Process(int(server.stdout.readline()))
        path = folder / "lab-1.sqlite"
        deadline = time.monotonic() + 120
        while not _games(path) and time.monotonic() < deadline:  # it has started playing
            time.sleep(0.2)
        assert child.is_running(), "the tournament ended before its server was killed"
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        child.wait(timeout=30)  # psutil.TimeoutExpired here: it outlived its server
    finally:
        server.kill()
        server.communicate()
    restarted = Launcher(folder).get("lab-1")
    assert restarted.run_status() == "interrupted"
    assert restarted.state() == "stopped"
    assert 0 < _games(restarted.path) < restarted.spec.total()


def _games(path: Path) -> int:
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        connection.close()
