"""The puzzle tests' set-up: this folder on ``sys.path``, for ``import independent_search``
(tests are imported with ``--import-mode=importlib``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
