"""The ``lifearena`` command's entry point (and ``python -m lifearena``'s).

The command line is imported inside a guard: loading it takes a second or more on a cold
start, and a Ctrl-C then ends with the one line a Ctrl-C in a command prints (status 130),
not a traceback of whatever module was loading
(``tests/cli/test_bad_input.py::test_ctrl_c_while_the_command_line_loads_is_one_line``).
"""

from __future__ import annotations

import sys


def main() -> None:
    """Load the command line, then run it (see :func:`lifearena.cli.main`)."""
    try:
        from lifearena.cli import main as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    run()
