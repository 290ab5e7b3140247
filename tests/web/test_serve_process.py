"""``lifearena serve`` as a process: its agent workers end with it, whatever signal ends it;
a port in use is one error line and exit 2, with nothing printed as if it started."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

STARTUP = 300.0
"""Seconds a server may take to start: on a fresh install its warm-up compiles the engine."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lifearena", "serve", "--port", str(port),
         "--db", str(tmp_path / "games.sqlite"), "--workers", "1", "--tournaments", "0",
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"})


def test_a_port_in_use_is_one_error_line_and_nothing_printed(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        process = _serve(tmp_path, port)
        out, err = process.communicate(timeout=STARTUP)
    assert process.returncode == 2
    assert out == ""
    assert err.strip() == (f"error: --port {port}: 127.0.0.1:{port} is already in use; "
                           "expected a free port (or stop the server using it)")
