"""Shared test set-up: the tiny games and misbehaving agents of ``toy_games.py``.

Tests are imported with ``--import-mode=importlib``, so this folder is put on ``sys.path``
for ``import toy_games``; importing it here registers its games and agents for every test.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import toy_games  # noqa: F401  (registers toy_nim, toy_pennies_rounds, ... and agents)
