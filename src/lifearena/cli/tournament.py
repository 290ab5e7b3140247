"""``lifearena tournament`` (and later ``ladder``): top-level commands over ``arena/``."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's top-level commands to the root ``app``."""
