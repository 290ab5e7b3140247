"""``lifearena p2life``: p2life: the Levene-Roussos two-player Life, studied and played."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="p2life: the Levene-Roussos two-player Life, studied and played.",
    no_args_is_help=True,
)
