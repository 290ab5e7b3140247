"""Make the tiny test games of arena_tinygames.py importable (and registered) in these tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import arena_tinygames  # noqa: F401  (registers nim_test and pennies_test)
