"""Shared test set-up.

* The tiny games and misbehaving agents of ``toy_games.py``: tests are imported with
  ``--import-mode=importlib``, so this folder is put on ``sys.path`` for ``import toy_games``;
  importing it here registers its games and agents for every test.
* The fault tally: tests that inject a fault (a SIGKILL, a hostile bot, a second writer, a
  damaged file or record) count it with the ``faults`` fixture, and the session ends with one
  line saying how many were injected and how many were survived (docs/reliability.md)::

    def test_x(faults):
        faults.injected("sigkill")
        ...                      # the fault, then the checks that it did no harm
        faults.survived("sigkill")
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import toy_games  # noqa: F401  (registers toy_nim, toy_pennies_rounds, ... and agents)


class FaultTally:
    """Counts of faults injected and survived, by kind, over the whole session."""

    def __init__(self) -> None:
        self.injected_by_kind: Counter[str] = Counter()
        self.survived_by_kind: Counter[str] = Counter()

    def injected(self, kind: str, count: int = 1) -> None:
        self.injected_by_kind[kind] += count

    def survived(self, kind: str, count: int = 1) -> None:
        self.survived_by_kind[kind] += count

    def summary(self) -> str:
        injected = sum(self.injected_by_kind.values())
        survived = sum(self.survived_by_kind.values())
        kinds = ", ".join(f"{kind} {self.survived_by_kind[kind]}/{n}"
                          for kind, n in sorted(self.injected_by_kind.items()))
        return f"faults: {injected} injected, {survived} survived ({kinds})"


TALLY = FaultTally()


@pytest.fixture(scope="session")
def faults() -> FaultTally:
    """The session's :class:`FaultTally`."""
    return TALLY


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLY.injected_by_kind:
        terminalreporter.write_line(TALLY.summary())
