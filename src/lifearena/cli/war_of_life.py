"""``lifearena war-of-life``: War of Life (8x8): play, test strategies."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="War of Life (8x8): play, test strategies.",
    no_args_is_help=True,
)
