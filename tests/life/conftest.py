"""Shared by the Golly format and rule tests: Golly's ``bgolly`` as an independent reference: run a
pattern file some generations and read back what it wrote (skipped with a reason when
Debian's ``golly`` is not installed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lifearena.life.patterns import read_rle, write_rle

BGOLLY = shutil.which("bgolly")
PATTERNS = Path("/usr/share/golly/Patterns")
needs_bgolly = pytest.mark.skipif(BGOLLY is None, reason="bgolly missing (apt-get install golly)")


def bgolly_run(pattern: Path, generations: int, tmp: Path, *, rule_dir: Path | None = None,
               rule: str | None = None) -> np.ndarray:
    """The cells (bounding box) of ``pattern`` after ``generations`` generations in Golly;
    ``rule_dir`` makes Golly load ``.rule`` files from there (its RuleLoader algorithm)."""
    assert BGOLLY is not None
    out = tmp / "bgolly-out.rle"
    command = [BGOLLY, "-q", "-q", "-m", str(generations), "-o", str(out)]
    if rule_dir is not None:
        command += ["-a", "RuleLoader", "-s", f"{rule_dir}/"]
    if rule is not None:
        command += ["-r", rule]
    subprocess.run([*command, str(pattern)], check=True, capture_output=True, timeout=60)
    return read_rle(out.read_text()).cells


def crop(cells: np.ndarray) -> np.ndarray:
    """``cells`` cut to the bounding box of its live cells (``(0, 0)`` when empty)."""
    ys, xs = np.nonzero(cells)
    if ys.size == 0:
        return np.zeros((0, 0), dtype=np.int8)
    return cells[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def golly_crop(cells: np.ndarray) -> np.ndarray:
    """What bgolly wrote, cut the same way (an empty universe comes back as one cell)."""
    return crop(cells)


def write_for_golly(path: Path, cells: np.ndarray, rule: str) -> Path:
    path.write_text(write_rle(cells, rule=rule))
    return path
