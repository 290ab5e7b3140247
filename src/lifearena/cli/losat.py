"""``lifearena losat``: Losat, Life One Step at a Time (19x19 Go board)."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Losat, Life One Step at a Time (19x19 Go board).",
    no_args_is_help=True,
)
