"""What the tests that send Ctrl-C to a child process share (on the path through
tests/conftest.py, like toy_games)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def ctrl_c_reaches_children() -> Iterator[None]:
    """Processes started inside get Ctrl-C's default action, as a terminal's foreground job
    does, even when these tests run with SIGINT ignored (as a shell's background job or under
    nohup), which a child would otherwise inherit and so never see the Ctrl-C sent to it.

    >>> with ctrl_c_reaches_children():
    ...     signal.getsignal(signal.SIGINT) is signal.default_int_handler
    True
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
