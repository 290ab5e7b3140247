"""``lifearena queen``: The blocking queen game: palace numbers, pictures, play."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="The blocking queen game: palace numbers, pictures, play.",
    no_args_is_help=True,
)
