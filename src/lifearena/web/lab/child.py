"""The process of a tournament launched from the lab: ``lifearena tournament ...`` that ends
when the server that launched it is gone.

``python -m lifearena.web.lab.child SERVER_PID tournament GAME ...`` runs the command line
after its first argument, watching the server's process id meanwhile. A launch runs in a
process group of its own (a Ctrl-C in the server's terminal is not meant for it), so nothing
else would end it if the server were killed; left running, a restarted server would list it
as stopped and *Resume* would start a second writer on its file. When the server is gone
the command is interrupted as *Stop* interrupts it (SIGINT: it marks the run ``interrupted``
and exits; it can be resumed from the file), and ends unconditionally after a grace period.

The command runs in this process as ``python -m lifearena`` runs it: through the package's
``__main__`` (:mod:`runpy`), the program's entry point, never by importing the command
line's modules, which belong to another interface (``tests/test_import_layers.py``).
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
import time

POLL = 0.5
"""Seconds between two looks at the server's process id."""
GRACE = 10.0
"""Seconds an interrupted command has to store its last block before it is ended."""


def watch_server(server: int, poll: float = POLL, grace: float = GRACE) -> threading.Thread:
    """Start a daemon thread that interrupts this process (SIGINT) once ``server`` is no
    longer its parent, and ends it ``grace`` seconds later if it is still running."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(poll)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(grace)
        os._exit(130)

    thread = threading.Thread(target=watch, name="lifearena-server-watch", daemon=True)
    thread.start()
    return thread


def main(argv: list[str]) -> None:
    """Run ``lifearena`` with ``argv[1:]`` while the process ``argv[0]`` is the parent.

    The command is ``python -m lifearena argv[1:]`` run in this process, so that the watcher
    thread runs beside it: it reads its arguments from :data:`sys.argv` and ends the process
    with its own exit status, as the ``lifearena`` program does.
    """
    watch_server(int(argv[0]))
    sys.argv = [sys.argv[0], *argv[1:]]
    runpy.run_module("lifearena", run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
