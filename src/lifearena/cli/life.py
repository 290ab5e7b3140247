"""``lifearena life``: The two-colour Life engine: run, step and convert patterns."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="The two-colour Life engine: run, step and convert patterns.",
    no_args_is_help=True,
)
