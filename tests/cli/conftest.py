"""Counts the bad inputs the command-line tests try, and reports the count at the end.

``test_bad_input.py`` calls :func:`count_bad_input` (the ``bad_input`` fixture) once per
hostile command line it runs; the terminal summary then says how many were tried (all
refused with one line and exit 2, or the run has failed), the figure quoted in
docs/reliability.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

BAD_INPUTS: Counter[str] = Counter()
FAILED: list[str] = []  # the bad-input tests that failed


def count_bad_input(kind: str) -> None:
    """Record one bad input of ``kind`` (an option, a malformed file type...)."""
    BAD_INPUTS[kind] += 1


@pytest.fixture(scope="session")
def bad_input() -> Callable[[str], None]:
    """The counter of bad inputs, for tests (hypothesis included) to call."""
    return count_bad_input


def pytest_runtest_logreport(report) -> None:  # type: ignore[no-untyped-def]
    if report.failed and "test_bad_input" in report.nodeid:
        FAILED.append(report.nodeid)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore
    if not BAD_INPUTS:
        return
    total = sum(BAD_INPUTS.values())
    verdict = ("each refused with one line on stderr and exit 2" if not FAILED else
               f"{len(FAILED)} TESTS OF THEM FAILED (see the failures above)")
    terminalreporter.write_sep("-", "bad command-line inputs")
    terminalreporter.write_line(f"{total} bad inputs tried over {len(BAD_INPUTS)} kinds, "
                                f"{verdict}")
