"""``lifearena life-for-two``: Life for Two (5x5, simultaneous hidden placement)."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Life for Two (5x5, simultaneous hidden placement).",
    no_args_is_help=True,
)
