"""pytest: the vector environments' doctests need Gymnasium (the optional extra) and numba;
without them, skip this package's modules."""

from __future__ import annotations

import importlib
from pathlib import Path


def _missing(library: str) -> bool:
    try:
        importlib.import_module(library)
    except ImportError:
        return True
    return False


collect_ignore = [path.name for path in Path(__file__).parent.glob("*.py")
                  if path.name != "conftest.py"] \
    if _missing("gymnasium") or _missing("numba") else []
