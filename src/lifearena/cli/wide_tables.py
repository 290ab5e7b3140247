"""Printing result tables whole: agent names as the user wrote them, never cut.

rich fits a table into the console's width (80 columns when the output is a file or a
pipe) by wrapping cells and cutting them with an ellipsis, so a long agent label
(``ppo=policy:runs/seed-0/policy.npz``) came out as ``ppo=poli…``. A result table is
printed here at its natural width instead: wider than the console if it must be (a
terminal wraps the long lines; a file keeps them), and every cell's text taken
literally, so a label with square brackets is not read as rich markup.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

_UNBOUNDED = 1 << 20
"""A width no table reaches: the room in which a table's natural width is measured."""


def literal(text: str) -> Text:
    """A cell showing ``text`` exactly (no markup, no highlighting)."""
    return Text(text)


def natural_width(console: Console, table: Table) -> int:
    """The columns ``table`` takes when no cell is wrapped or cut."""
    return console.measure(table, options=console.options.update_width(_UNBOUNDED)).maximum


def print_whole(console: Console, table: Table) -> None:
    """Print ``table`` on ``console`` at its natural width when that is wider than the
    console (the console's width is restored afterwards)."""
    needed = natural_width(console, table)
    width = console.width
    if needed <= width:
        console.print(table)
        return
    console.width = needed
    try:
        console.print(table)
    finally:
        console.width = width
