"""``lifearena analyse RECORD``: every move of a game record judged by its game's search.

Prints, move by move, the evaluation (the expected score in [-1, 1] of the side to move;
the first side's on a simultaneous turn), the played move with its mark (``?!``
inaccuracy, ``?`` mistake, ``??`` blunder), the best move (a simultaneous turn: the mixed
strategy's support), then an evaluation graph of the game and each side's summary.
``--json`` prints the analysis as JSON instead (:meth:`lifearena.analysis.Analysis.to_dict`).
A record that does not read or replay is one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from lifearena.analysis import Analysis, analyse
from lifearena.core import Record
from lifearena.errors import ParseError

PROGRESS_FROM = 12
"""Records of at least this many moves show a progress bar on stderr (erased once done on a
terminal; its last state left where stderr is a file or a pipe)."""
BARS = "▁▂▃▄▅▆▇█"
"""The graph's levels, lowest first."""
MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}


def read_record(source: str) -> Record:
    """The record in file ``source`` (``-``: standard input), JSON or text."""
    if source == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise ParseError("standard input is empty; expected a JSON or text record")
        return Record.load(text)
    return Record.read(Path(source))


def eval_graph(values: list[float], width: int = 60) -> list[str]:
    """Two text lines drawing ``values`` (in [-1, 1], the first side's view): the first
    line's bars grow with the first side's advantage, the second line's with the second
    side's (an even position is a low bar on both); a long game is sampled to ``width``
    columns.

    >>> eval_graph([1.0, 0.0, -1.0])
    ['█▁ ', ' ▁█']
    """
    if len(values) > width:
        values = [values[int(i * len(values) / width)] for i in range(width)]

    def bars(ahead: list[float]) -> str:
        return "".join(" " if v < 0 else BARS[round(v * (len(BARS) - 1))] for v in ahead)

    return [bars(values), bars([-v for v in values])]


def print_analysis(result: Analysis, console: Console) -> None:
    """The analysis as a table of moves, a graph and a summary per side."""
    table = Table(title=escape(f"{result.game}: {result.method}"), show_lines=False)
    for column in ("#", "side", "eval", "played", "best"):
        table.add_column(column, justify="right" if column in ("#", "eval") else "left")
    for ply in result.plies:
        for side in ply.sides:
            mark = side.mark
            played = escape(f"{side.played or ''}{' ' + _symbol(mark) if mark else ''}")
            if mark:
                played = f"[{MARK_STYLES[mark]}]{played}[/]"
            if side.strategy is not None:
                best = ", ".join(f"{m} {p:.0%}" for m, p in side.strategy[:4])
            else:
                best = ", ".join(side.best[:4]) + (" …" if len(side.best) > 4 else "")
            value = ply.eval_first if side.player == 0 else -ply.eval_first
            table.add_row(str(ply.ply + 1), result.players[side.player]
                          if side.player < len(result.players) else str(side.player),
                          f"{value:+.2f}{'!' if ply.exact else ''}", played, escape(best))
    console.print(table)
    top, bottom = eval_graph([p.eval_first for p in result.plies] + [result.final],
                             width=max(10, min(80, console.width - 10)))
    console.print(f"first side ahead  {top}\nsecond side ahead {bottom}")
    for summary in result.summary():
        average = summary.average_loss
        console.print(
            f"{escape(_name(result, summary.player))}: {summary.moves} "
            f"move{'' if summary.moves == 1 else 's'}, "
            f"{summary.counts['inaccuracy']} inaccuracies, {summary.counts['mistake']} "
            f"mistakes, {summary.counts['blunder']} blunders, average loss "
            f"{'-' if average is None else f'{average:.3f}'}")


def _symbol(mark: str) -> str:
    return {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[mark]


def _name(result: Analysis, player: int) -> str:
    return result.players[player] if player < len(result.players) else f"player {player}"


def register(app: typer.Typer) -> None:
    """Add the ``analyse`` command to ``app``."""

    @app.command("analyse")
    def analyse_command(
        record: Annotated[str, typer.Argument(
            help="a game record file, JSON or text ('-': read it from standard input)")],
        as_json: Annotated[bool, typer.Option(
            "--json", help="print the analysis as JSON")] = False,
    ) -> None:
        """Judge every move of a game record with its game's search (see docs/analysis.md)."""
        loaded = read_record(record)
        errors = Console(stderr=True)
        if len(loaded.moves) >= PROGRESS_FROM:
            with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(),
                          console=errors, transient=errors.is_terminal) as bar:
                task = bar.add_task("analysing", total=len(loaded.moves))
                result = analyse(loaded, lambda done, _: bar.update(task, completed=done))
        else:
            result = analyse(loaded)
        if as_json:
            typer.echo(json.dumps(result.to_dict()))
        else:
            print_analysis(result, Console())
