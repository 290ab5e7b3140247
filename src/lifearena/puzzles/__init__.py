"""Puzzles mined from real games: positions where one move wins by force, each verified by
exhaustive search to have exactly its stated solutions (:mod:`lifearena.puzzles.model`).

Each game has a miner module here (``war_of_life.py``, ``losat.py``, ``blocking_queen.py``,
``life_for_two.py``, ``p2life.py``); ``lifearena puzzles generate GAME`` runs it.
"""

from lifearena.puzzles.model import Puzzle, load, read, write

__all__ = ["Puzzle", "load", "read", "write"]
