"""``lifearena ladder GAME``: a rated gauntlet of a game's agents (see ``arena/ladder.py``)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's top-level commands to the root ``app``."""
