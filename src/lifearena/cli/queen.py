"""``lifearena queen``: The blocking queen game: palace numbers, pictures, play.

``play --save FILE`` writes the game record at the end (JSON if the name ends in ``.json``,
else the PGN-like text); ``play --replay FILE`` shows a saved game move by move, the position
after each move.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from lifearena import caps
from lifearena.cli.checks import check_output
from lifearena.cli.compiling import announces_compiling
from lifearena.cli.spec_options import spec_option
from lifearena.cli.terminal_play import (
    Display,
    Seat,
    TerminalPlay,
    make_seats,
    replay_in_terminal,
)
from lifearena.core import Outcome, Record, State, presentation_of
from lifearena.errors import BadParameterError
from lifearena.extras import require
from lifearena.games.blocking_queen import BlockingQueenGame
from lifearena.games.blocking_queen.palace import check_k, p_positions, palace_numbers
from lifearena.studies.palace_picture import Window, choose_block, fold_picture, render_png

app = typer.Typer(help="The blocking queen game: palace numbers, pictures, play.",
                  no_args_is_help=True)
console = Console(soft_wrap=True)  # long move and status lines stay whole


class Downsample(StrEnum):
    mean = "mean"
    mode = "mode"


@app.command()
@announces_compiling
def picture(
    k: Annotated[int, typer.Option("-k", help="The blocking parameter k >= 1.",
                                   min=1, max=caps.MAX_K)] = 1000,
    size: Annotated[int, typer.Option(
        "--size", help="Draw the square 0 <= x, y < SIZE (ignored with --window).",
        min=1, max=caps.MAX_PALACE_SIDE)] = 5000,
    window: Annotated[str | None, typer.Option(
        "--window", help="Draw this rectangle instead: 'x,y,w,h' (columns x..x+w-1, "
        "rows y..y+h-1, y growing downward).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Picture file to write: .png (or "
                                      ".svg, .pdf, .jpg... as matplotlib writes them).")] = Path(
        "palace.png"),
    pixels: Annotated[int, typer.Option(
        "--pixels", help="Largest picture side in pixels; bigger regions are downsampled "
        "in square blocks.", min=1, max=caps.MAX_PIXELS)] = 2000,
    block: Annotated[int | None, typer.Option(
        "--block", help="Board squares per pixel side (overrides --pixels).",
        min=1, max=MAX_BLOCK)] = None,
    downsample: Annotated[Downsample, typer.Option(
        "--downsample", help="How a block becomes one pixel: 'mean' of the clipped n - k, "
        "or its 'mode' (most frequent value, ties to the palace side).")] = Downsample.mean,
    saturation: Annotated[int, typer.Option(
        "--saturation", help="Colours saturate at n - k = ±SATURATION.", min=1, max=1000)] = 4,
    colorbar: Annotated[bool, typer.Option(
        "--colorbar/--no-colorbar", help="Draw a colour bar beside the picture.")] = True,
    title: Annotated[str | None, typer.Option(
        "--title", help="Title above the picture (default: k and the window).")] = None,
) -> None:
    """Draw n - k over a region: palaces blue, non-palaces red, diverging at 0."""
    k = check_k(k)
    _check_picture_path(out)
    if window is not None:
        region = Window.parse(window)
        if max(region.w, region.h) > caps.MAX_PALACE_SIDE:
            raise BadParameterError(f"--window {window} is {region.w:,} x {region.h:,} squares; "
                                    f"expected at most {caps.MAX_PALACE_SIDE:,} a side")
    else:
        region = Window.square(size)
    block = _check_block(region, block, pixels, saturation,
                         f"--window {window}" if window is not None else f"--size {size:,}")
    total = region.y + region.h
    with Progress(TextColumn("[bold]palace numbers[/]"), BarColumn(),
                  TextColumn("{task.completed:,}/{task.total:,} rows"), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("rows", total=total)
        result = fold_picture(k, region, pixels=pixels, block=block, saturation=saturation,
                              mode=downsample.value,
                              progress=lambda done, _total: bar.update(task, completed=done))
    if title is None:
        title = (f"blocking queen, k = {k}: n - k over x {region.x}..{region.x + region.w - 1}, "
                 f"y {region.y}..{region.y + region.h - 1}"
                 + (f" ({result.block}x{result.block} blocks, {result.mode})"
                    if result.block > 1 else ""))
    render_png(result, out, colorbar=colorbar, title=title)
    ph, pw = result.values.shape
    console.print(f"wrote {out} ({pw}x{ph} pixels, block {result.block})")


MAX_BLOCK = 1_000_000  # fold_picture's limit: the block sums are 32-bit


def _check_block(region: Window, block: int | None, pixels: int, saturation: int,
                 region_text: str) -> int:
    """The squares per pixel side, refused up front in the terms of the options the user
    gave (the library would name only the block size it derived). A ``--block`` is within
    ``1..MAX_BLOCK`` and ``--saturation`` within ``1..1000`` (click's ranges), so their
    product is below ``2**31``; only the block chosen for ``--pixels`` needs checking."""
    if block is not None:
        return block
    chosen = choose_block(region, pixels)
    if chosen > MAX_BLOCK or chosen * saturation >= 2**31:
        raise BadParameterError(f"{region_text} is too large to draw in {pixels:,} pixels "
                                f"(each pixel would cover {chosen:,} x {chosen:,} squares); "
                                f"expected at most {MAX_BLOCK:,} squares per pixel side "
                                f"(block * --saturation < 2**31): a smaller region or more "
                                "--pixels")
    return chosen


def _check_picture_path(path: Path) -> None:
    """Refuse, before the long computation, a name matplotlib cannot write or a missing
    folder."""
    require("studies", "a palace picture")
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    check_output(path, "--out", tuple("." + kind for kind in sorted(kinds)))


# computing the listing takes MAX x MAX palace numbers: 10**10 squares at the limit, ~30 s
MAX_LISTING = 100_000


@app.command()
def positions(
    k: Annotated[int, typer.Option("-k", help="The blocking parameter k >= 1.",
                                   min=1, max=caps.MAX_K)] = 2,
    max_: Annotated[int, typer.Option(
        "--max", help="List P-positions (x, y) with x <= y < MAX.", min=1, max=MAX_LISTING)] = 100,
    plain: Annotated[bool, typer.Option(
        "--plain", help="Print one 'x,y' per line instead of a table.")] = False,
) -> None:
    """List the P-positions (palaces) with x <= y < MAX; (y, x) is one too."""
    found = p_positions(check_k(k), max_)
    if plain:
        for x, y in found:
            typer.echo(f"{x},{y}")
        return
    table = Table(title=f"P-positions of the blocking queen game, k = {k}, x <= y < {max_}")
    table.add_column("#", justify="right")
    table.add_column("x", justify="right")
    table.add_column("y", justify="right")
    table.add_column("y - x", justify="right")
    for index, (x, y) in enumerate(found):
        table.add_row(str(index), str(x), str(y), str(y - x))
    console.print(table)


def _palace_note(k: int, square: tuple[int, int]) -> str:
    x, y = square
    n = int(palace_numbers(k, x + 1, y + 1)[y, x])
    return f"n = {n}, {'a palace' if n < k else 'not a palace'}"


@app.command()
def play(
    k: Annotated[int, spec_option(BlockingQueenGame.spec("k"), "-k",
                                  help="The blocking parameter k.")] = 2,
    start: Annotated[str, typer.Option(
        "--from", help="The queen's start square 'x,y' (0 <= x, y < 128).")] = "20,33",
    first: Annotated[str, typer.Option(
        "--first", help="Who moves first: 'human' or an agent (perfect, greedy, random, "
        "alphabeta, mcts).")] = "human",
    second: Annotated[str, typer.Option(
        "--second", help="Who moves second: 'human' or an agent.")] = "perfect",
    seed: Annotated[int, typer.Option("--seed", help="Seed for agents that draw.",
                                      min=0, max=caps.MAX_SEED)] = 0,
    hints: Annotated[bool, typer.Option(
        "--hints/--no-hints", help="Show the palace number of each square the queen "
        "reaches.")] = False,
    save: Annotated[Path | None, typer.Option(
        "--save", "--record", help="Write the game record here at the end (.json for JSON, else "
        "PGN-like text).")] = None,
    replay_file: Annotated[Path | None, typer.Option(
        "--replay", help="Show the game saved in this record file move by move instead of "
        "playing.")] = None,
) -> None:
    """Play the blocking queen game: a person at the terminal or agents on either side.

    A turn is the queen's move 'x,y' (west, north or north-west), then up to k - 1 blocks
    '#x,y' of squares the opponent could reach, one per prompt; '-' stops blocking early.
    """
    from lifearena.agents import make
    from lifearena.games.blocking_queen import BlockingQueen

    if replay_file is not None:
        _replay(replay_file, hints)
        return
    check_output(save, "--save")
    state = BlockingQueen.from_setup(start, k=check_k(k))
    seats = make_seats((first, second),
                       lambda who, _: make(who, game="blocking_queen", seed=seed))
    names = [who if who != "human" else "you" for who in (first, second)]
    TerminalPlay(state, seats, QueenDisplay(start, names, hints), save=save).run()


class QueenDisplay(Display):
    """One line per move (with the palace note on request), the board before each prompt."""

    def __init__(self, start: str, names: list[str], hints: bool) -> None:
        super().__init__(lambda line: console.print(line, highlight=False))
        self.start_square, self.names, self.hints = start, names, hints

    def _name(self, player: int) -> str:
        return self.names[player]

    def start(self, state: State) -> None:
        console.print(f"blocking queen game, k = {state.k}, queen on {self.start_square}: "
                      f"player 1 = {self._name(0)}, player 2 = {self._name(1)}")

    def before_prompt(self, state: State, player: int) -> None:
        console.print(str(state))

    def prompt(self, state: State, player: int, seat: Seat) -> str:
        return f"player {player + 1}, {presentation_of(state).move_prompt(state, player)}"

    def moved(self, state: State, player: int, text: str) -> None:
        console.print(_move_line(state, player, self._name(player), text, self.hints),
                      highlight=False)

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        console.print(f"[bold]{escape(self.result(state, outcome))}[/]")
        console.print(f"moves: {' '.join(state.history_strings())}")


def _move_line(state, player: int, name: str, text: str, hints: bool) -> str:  # type: ignore
    """``player 1 (perfect): 20,9`` with, on request, the palace note of a queen move."""
    note = ""
    if hints and not text.startswith(("#", "-")):
        note = f"  ({_palace_note(state.k, state.queen)})"
    return f"player {player + 1} ({name}): {text}{note}"


class QueenReplayDisplay(QueenDisplay):
    """A saved game: numbered move lines, the position after each, the result."""

    def start(self, state: State) -> None:
        console.print(f"blocking queen game, k = {state.k}, queen on {self.start_square}: "
                      f"player 1 = {self.names[0]}, player 2 = {self.names[1]}", highlight=False)
        console.print(str(state), highlight=False)

    def moved(self, state: State, player: int, text: str) -> None:
        console.print(f"{state.move_number()}. "
                      + _move_line(state, player, self.names[player], text, self.hints),
                      highlight=False)
        console.print(f"   {state}", highlight=False)

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        console.print(f"[bold]{escape(self.result(state, outcome))}[/]")


def _replay(path: Path, hints: bool) -> None:
    """Show a saved game move by move (every move checked before anything is shown)."""
    record = Record.read(path)
    names = list(record.players) if len(record.players) == 2 else ["1", "2"]
    replay_in_terminal(path, "blocking_queen", QueenReplayDisplay(record.setup, names, hints))
