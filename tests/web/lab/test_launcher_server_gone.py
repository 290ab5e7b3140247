"""A tournament launched from the lab ends when the server that launched it is killed, so a
restarted server never resumes it beside a still-running writer.

Every wait is a polled condition or a wait on a process with a generous deadline: the
tournament's process starts and plays slowly on a loaded machine.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil

from lifearena.web.lab.launcher import Launcher

from .conftest import until

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
        printed = server.stdout.readline()  # the launch's process id, once it is started
        assert printed.strip().isdigit(), f"the server script printed {printed!r}"
        child = psutil.Process(int(printed))
        path = folder / "lab-1.sqlite"
        until(lambda: _games(path), 300, "the tournament to store its first games")
        assert child.is_running(), "the tournament ended before its server was killed"
        server.send_signal(signal.SIGKILL)
        server.wait(60)
        # it notices within half a second and has 10 s to store its block; a loaded machine
        # may take longer: psutil.TimeoutExpired here means it outlived its server
        child.wait(timeout=120)
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
