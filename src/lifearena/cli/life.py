"""``lifearena life``: run, step and inspect two-colour Life patterns from the terminal."""

from __future__ import annotations

import math
import re
import shutil
import sys
import time
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Literal, Protocol, TypeVar, cast

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from lifearena import caps
from lifearena.caps import check_cells
from lifearena.cli.compiling import announces_compiling
from lifearena.errors import BadParameterError
from lifearena.extras import require
from lifearena.life.drive import Driven, drive, frame_every
from lifearena.life.frames import FrameRecorder, fitted_box
from lifearena.life.grid import population, random_grid
from lifearena.life.lookup_rule import LookupRule, as_any_rule
from lifearena.life.pattern_library import library, load_library_pattern
from lifearena.life.patterns import Pattern, load_pattern, save_pattern, write_text
from lifearena.life.rules import COIN, Rule, as_rule, available_rules
from lifearena.life.series import write_atomically, write_csv, write_plot
from lifearena.life.settle import CHECK_EVERY, Repeat, Settle, Settled, life_like_ships
from lifearena.life.topology import Topology as GridTopology
from lifearena.life.universe import Box, Universe, transition_table
from lifearena.life.universes import (
    MAX_STEP_EXPONENT,
    Algorithm,
    GrowingPlane,
    KernelGrid,
    choose_universe,
    plane_algorithm,
)

# The engine's compiled kernels (numba) are imported inside the commands that step, and
# only when they do: 'lifearena --help' and a small run never load numba
# (tests/cli/test_cli_startup.py).

Kernel = Literal["auto", "reference", "numpy", "bitwise"]
KERNELS = ("auto", "reference", "numpy", "bitwise")
"""The kernels of :data:`lifearena.life.step.KERNELS` (a test holds the two equal)."""

T = TypeVar("T")

SMALL_WORK = 2**20
"""Cell-updates at most for a run stepped by the numpy kernel (no compiled code to load):
a small pattern for a few generations costs less than loading numba would."""


SETTLE_TORUS_CELLS = 2**18
"""The largest torus on which ``--until-stable`` looks for escaping spaceships (512x512)."""


class EdgedGrid(Protocol):
    """A grid with edges (:class:`~lifearena.life.packed.PackedGrid`,
    :class:`~lifearena.life.universes.KernelGrid`)."""

    height: int
    width: int
    torus: bool


def _edged(universe: object) -> EdgedGrid | None:
    """``universe`` when it is a grid with edges, else ``None`` (the plane)."""
    if not hasattr(universe, "torus") or getattr(universe, "on_plane", False):
        return None
    return cast(EdgedGrid, universe)


app = typer.Typer(
    help="The two-colour Life engine: run, step and inspect patterns.",
    no_args_is_help=True,
)
console = Console()
SHOW_LIMIT = 100
DEFAULT_PAD = 32  # 'life step' and 'life run' pad a pattern by min(generations, this)


class Topology(StrEnum):
    bounded = "bounded"
    torus = "torus"


def parse_size(text: str) -> tuple[int, int]:
    """``"WxH"`` (or one number for a square) as ``(height, width)``.

    >>> parse_size("64x32"), parse_size("10")
    ((32, 64), (10, 10))
    """
    match = re.fullmatch(r"\s*(\d{1,30})\s*(?:[xX*]\s*(\d{1,30}))?\s*", text)
    if not match:
        raise BadParameterError(f"--size {text!r}; expected WIDTHxHEIGHT such as 256x128")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    check_cells(height, width, f"--size {text.strip()}")
    return height, width


def _kernel(name: str) -> Kernel:
    if name not in KERNELS:
        raise BadParameterError(f"unknown kernel {name!r}; expected one of {', '.join(KERNELS)}")
    return cast(Kernel, name)


def _is_one_colour(rule: Rule | LookupRule) -> bool:
    """True when nothing in the rule ever makes colour 2 from an empty or colour-1 cell."""
    table = transition_table(rule)[: 2 * 3**8]
    return not bool(np.any((table == 2) | (table == COIN)))


def _torus(topology: Topology | None, default: Topology, plane: bool,
           rule: Rule | LookupRule) -> bool:
    """Whether the grid wraps; refuses what the unbounded plane cannot do: an edge given to
    it (``--topology``), or a B0 rule, which would fill it at once."""
    if plane and topology is not None:
        raise BadParameterError(f"--topology {topology.value} sets the edges of a grid given "
                                "by --size or --pad, and a pattern without them runs on the "
                                "unbounded plane, which has none; expected --size WxH or "
                                "--pad N with it, or no --topology")
    if plane and transition_table(rule)[0] != 0:
        raise BadParameterError(f"rule {rule.name} gives birth with no neighbours (B0), so a "
                                "pattern would fill the unbounded plane at once; expected "
                                "--size WxH or --pad N for a fixed grid")
    return (topology or default) is Topology.torus


def _embed(cells: np.ndarray, shape: tuple[int, int],
           origin: tuple[int, int] | None = None, *, wrap: bool = False) -> np.ndarray:
    """``cells`` on an empty grid of ``shape`` (which must be at least as large): centred, or
    with its top-left cell at Golly's ``origin`` (``#CXRLE Pos=x,y``) on a grid whose cell
    ``(0, 0)`` is Golly's, in the middle (Golly's bounded grids run from ``-width // 2``);
    on a torus (``wrap``) a pattern placed across an edge wraps round, as there.

    >>> _embed(np.ones((1, 2), dtype=np.int8), (2, 4), origin=(-2, 0)).tolist()
    [[0, 0, 0, 0], [1, 1, 0, 0]]
    >>> _embed(np.ones((1, 2), dtype=np.int8), (2, 4), origin=(1, 0), wrap=True).tolist()
    [[0, 0, 0, 0], [1, 0, 0, 1]]
    """
    height, width = shape
    if cells.shape[0] > height or cells.shape[1] > width:
        raise BadParameterError(f"pattern is {cells.shape[1]}x{cells.shape[0]} but --size is "
                                f"{width}x{height}; expected a size at least the pattern's")
    out = np.zeros(shape, dtype=np.int8)
    if origin is None:
        top, left = (height - cells.shape[0]) // 2, (width - cells.shape[1]) // 2
    elif wrap:
        out[: cells.shape[0], : cells.shape[1]] = cells
        return np.roll(out, (origin[1] + height // 2, origin[0] + width // 2), axis=(0, 1))
    else:
        top, left = origin[1] + height // 2, origin[0] + width // 2
        if not (0 <= top <= height - cells.shape[0] and 0 <= left <= width - cells.shape[1]):
            raise BadParameterError(f"the pattern at #CXRLE Pos={origin[0]},{origin[1]} lies "
                                    f"outside its {width}x{height} grid; expected it inside")
    out[top : top + cells.shape[0], left : left + cells.shape[1]] = cells
    return out


def fits_terminal(cells: np.ndarray | tuple[int, int], columns: int | None = None) -> bool:
    """Whether the grid drawn by :func:`_show` (two characters a cell) fits the terminal's
    width (``columns``, default :func:`shutil.get_terminal_size`'s, 80 when unknown) and is
    at most :data:`SHOW_LIMIT` rows high, so that no row wraps. ``cells`` may be a shape.

    >>> fits_terminal(np.zeros((64, 64)), 80), fits_terminal(np.zeros((64, 64)), 140)
    (False, True)
    >>> fits_terminal(np.zeros((3, 40)), 80), fits_terminal(np.zeros((101, 10)), 400)
    (True, False)
    """
    if columns is None:
        columns = shutil.get_terminal_size().columns
    height, width = (int(side) for side in (cells if isinstance(cells, tuple)
                                            else cells.shape))
    return 2 * width - 1 <= columns and height <= SHOW_LIMIT


def _show(cells: np.ndarray, title: str) -> None:
    if max(cells.shape) > SHOW_LIMIT:
        return
    console.print(f"[bold]{title}[/]")
    glyphs = {0: "[grey30]·[/]", 1: "[bold blue]O[/]", 2: "[bold red]X[/]"}
    for row in cells:
        console.print(" ".join(glyphs[int(v)] for v in row), highlight=False)


def _summary(rule: Rule, populations: tuple[int, int], grid: str, generations: int,
             seconds: float, stop: str, period: int | None, updates: int | None = None, *,
             cells: int, settled: str | None = None) -> Table:
    """The run's summary table; ``cells`` is the grid's size (the live box's on the plane),
    ``updates`` the number of cells stepped (default: ``cells`` times the generations)."""
    one, two = populations
    table = Table(title="Run summary", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("rule", f"{rule.name}  [dim]{rule.description}[/]")
    table.add_row("grid", grid)
    table.add_row("generations", str(generations))
    table.add_row("stopped", stop + (f" (period {period})" if period else ""))
    if settled is not None:
        table.add_row("settled", settled)
    table.add_row("colour 1 (blue, O)", f"{one:,}")
    table.add_row("colour 2 (red, X)", f"{two:,}")
    table.add_row("density", f"{(one + two) / cells:.4f}")
    if updates is None:
        updates = cells * generations
    if updates < 0:  # HashLife: no cell is stepped one at a time, so no rate to give
        table.add_row("time", f"{seconds:.3f} s")
    else:
        rate = updates / seconds if seconds > 0 else float("inf")
        table.add_row("time", f"{seconds:.3f} s ({rate:,.0f} cell-updates/s)")
    return table


def _progress() -> Progress:
    """A bar on standard error, so that what a command prints on standard output stays
    clean ('life step' prints the pattern there)."""
    return Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), console=Console(stderr=True),
                    transient=True)


def _rule_option(rule: str | None, default: str | None) -> Rule:
    """The rule given by ``--rule`` (an empty one is refused, not read as "the default")."""
    found = _any_rule_option(rule, default)
    if isinstance(found, LookupRule):
        raise BadParameterError(f"rule {found.name} is a lookup over the neighbourhood, which "
                                "'life step' does not run; expected a rule of neighbour "
                                "counts, or 'life run', which runs it")
    return found


def _rule_and_grid(rule: str | None) -> tuple[str | None, GridTopology | None]:
    """``--rule`` without Golly's grid suffix, and the grid it names: ``B3/S23:T72,48`` is
    Life on a 72 x 48 torus, ``B3/S23:P40,30`` on a bounded 40 x 30 grid (a rule table's
    text, which may hold colons, is left alone).

    >>> _rule_and_grid("B3/S23:T72,48")
    ('B3/S23', Topology(kind='torus', width=72, height=48))
    >>> _rule_and_grid("life")
    ('life', None)
    """
    if rule is None or not re.fullmatch(r"[^\s:;@]+:[A-Za-z][^\s;]*", rule.strip()):
        return rule, None
    from lifearena.life.topology import split_rule

    name, grid = split_rule(rule)
    return name, grid


def _any_rule_option(rule: str | None, default: str | None) -> Rule | LookupRule:
    """:func:`_rule_option`, lookup rules (Hensel notation, Golly rule tables) included."""
    if rule is not None and not rule.strip():
        raise BadParameterError("--rule ''; expected a rule name, a B.../S... string, a table "
                                "or @FILE (see 'lifearena life rules')")
    return as_any_rule(rule if rule is not None else default or "p2life")


def _picture_scale(shape: tuple[int, int], scale: int | None) -> int:
    """Pixels per cell for a picture of ``shape`` blocks: ``--scale`` (or the automatic one)
    lowered until the picture fits :data:`lifearena.caps.MAX_PICTURE_PIXELS`."""
    from lifearena.life import picture

    side = scale or picture.auto_scale(shape)
    while side > 1 and math.prod(picture.image_size(shape, side)) > caps.MAX_PICTURE_PIXELS:
        side -= 1
    return side


def _load_start(input_file: Path | None, pattern_name: str | None,
                trees: bool = False) -> Pattern | None:
    """The pattern of ``--input`` or ``--pattern`` (``None`` for a soup); with ``trees``, a
    macrocell file too large for a grid as its HashLife universe (``Pattern.tree``)."""
    if input_file is not None and pattern_name is not None:
        raise BadParameterError(f"{str(input_file)!r} and --pattern {pattern_name}: two "
                                "patterns; expected a pattern file or --pattern NAME, not both")
    if pattern_name is not None:
        return load_library_pattern(pattern_name)
    if input_file is not None:
        return load_pattern(input_file, max_cells=caps.MAX_GRID_CELLS, trees=trees)
    return None


def _check_every(every: int | None, step: int, populations: Path | None,
                 plot: Path | None) -> int | None:
    """The generations between two rows of the population series (``None``: no series)."""
    if every is not None and populations is None and plot is None:
        raise BadParameterError(f"--every {every} thins the --populations or --plot series; "
                                "expected one of them with it")
    if populations is None and plot is None:
        return None
    every = every or step
    if every % step:
        raise BadParameterError(f"--every {every} is not a multiple of the step 2**K = {step} "
                                "of --step-exponent; expected a multiple of it")
    return every


def _stop_text(settled: Settled | None, until_stable: bool, empty: bool
               ) -> tuple[str, int | None, str | None]:
    """The summary's "stopped" line, period and "settled" line."""
    if settled is None:
        return ("generation cap reached" if until_stable else "generation limit"), None, None
    if empty:
        return "extinct", settled.period, f"empty from generation {settled.generation}"
    return ("stable" if settled.period == 1 else "periodic"), settled.period, settled.describe()


@app.command()
@announces_compiling
def run(
    rule: Annotated[str | None, typer.Option("--rule", "-r", help="Rule name (see 'lifearena "
                                             "life rules'), a B.../S... string, a table text, "
                                             "or @FILE (default: the pattern's rule, else "
                                             "p2life).")] = None,
    size: Annotated[str | None, typer.Option(help="Grid size WIDTHxHEIGHT (default: 128x128 "
                                             "for a soup; with a pattern, a fixed grid the "
                                             "pattern is centred on); at most "
                                             f"{caps.MAX_GRID_CELLS:,} cells.")] = None,
    pad: Annotated[int | None, typer.Option(help="With a pattern: a fixed grid of the pattern "
                                            "with this many empty cells added on each side. "
                                            "Without --pad or --size a pattern runs on the "
                                            "unbounded plane (see --algorithm), up to "
                                            f"{caps.MAX_GRID_CELLS:,} cells, past which the "
                                            "run stops with an error.",
                                            min=0, max=caps.MAX_PAD)] = None,
    topology: Annotated[Topology | None, typer.Option(
        help="bounded: cells outside are always empty; torus: edges wrap (default). For a "
        "grid given by --size or --pad, or a soup's; a pattern without them runs on the "
        "unbounded plane, which has no edges.")] = None,
    density: Annotated[float, typer.Option(help="Fraction of live cells in the random soup.",
                                           min=0.0, max=1.0)] = 0.5,
    colours: Annotated[int | None, typer.Option(help="Colours in the soup: 1 or 2 (default: 1 "
                                                "for one-colour rules like life, else 2).",
                                                min=1, max=2)] = None,
    seed: Annotated[int, typer.Option(help="Seed of the soup and of coin births.", min=0,
                                      max=caps.MAX_SEED)] = 0,
    generations: Annotated[int, typer.Option("--generations", "-n", help="Generations to run "
                                             "(the cap with --until-stable).", min=0,
                                             max=caps.MAX_GENERATIONS)] = 200,
    until_stable: Annotated[bool, typer.Option("--until-stable", help="Stop as soon as the "
                                               "pattern is stable or periodic; on the plane "
                                               "and a torus, once what is left after its "
                                               "escaping gliders and spaceships (Life-like "
                                               "rules) repeats, saying what escaped.")] = False,
    input_file: Annotated[Path | None, typer.Option("--input", "-i", help="Start from this RLE "
                                                    "or text pattern instead of a soup.")] = None,
    pattern_name: Annotated[str | None, typer.Option(
        "--pattern", "-p", help="Start from this pattern of the library (see 'lifearena life "
        "patterns').")] = None,
    algorithm: Annotated[Algorithm, typer.Option(
        help="How the unbounded plane runs: tiles (sparse tiles, every rule of neighbour "
        "counts), hashlife (deterministic rules, lookup rules included), auto (HashLife for a "
        "run of 2**17 generations or more from at most 100,000 live cells, for "
        "--step-exponent and for lookup rules; else tiles). The summary says which and "
        "why.")] = Algorithm.auto,
    step_exponent: Annotated[int | None, typer.Option(
        "--step-exponent", help="Advance 2**K generations at a time (Golly's step exponent): "
        "--generations must be a multiple of it; --populations rows and progress fall on its "
        "multiples.", min=0, max=MAX_STEP_EXPONENT)] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the final "
                                                "pattern (.rle, .rle.gz, .lif, .life, .mc, "
                                                "else text): the whole grid, or on the plane "
                                                "the live cells' box at its place."
                                                )] = None,
    png: Annotated[Path | None, typer.Option(help="Write a PNG of the final pattern, fitted "
                                             "to its live cells' box.")] = None,
    gif: Annotated[Path | None, typer.Option(help="Write an animated GIF of the run, frames "
                                             "taken during the run in one box that holds "
                                             "them all, shrunk to fit.")] = None,
    frames: Annotated[int, typer.Option(help="At most this many GIF frames (the start "
                                         "included).", min=1, max=caps.MAX_FRAMES)] = 120,
    scale: Annotated[int | None, typer.Option(help="Pixels per cell in pictures (default: fit "
                                              "about 512 pixels); lowered where a picture "
                                              "would pass "
                                              f"{caps.MAX_PICTURE_PIXELS:,} pixels.", min=1,
                                              max=caps.MAX_SCALE)] = None,
    populations: Annotated[Path | None, typer.Option(
        help="Write the population series as CSV: generation, colour 1, colour 2 and the "
        "live cells' box x, y, width, height.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Plot each colour's population against "
                                              "the generation as a PNG (needs the studies "
                                              "extra).")] = None,
    every: Annotated[int | None, typer.Option(help="Rows of --populations and --plot every "
                                              "this many generations (default: every one).",
                                              min=1, max=caps.MAX_GENERATIONS)] = None,
    kernel: Annotated[str, typer.Option(help=f"Step kernel: {', '.join(KERNELS)}.")] = "auto",
    show: Annotated[bool | None, typer.Option(help="Print the start and final grids in the "
                                              "terminal (default: when a row fits the "
                                              "terminal's width and at most "
                                              f"{SHOW_LIMIT} rows).")] = None,
) -> None:
    """Run a rule on a random soup or a pattern; print populations, save RLE, PNG, GIF, the
    population series and its plot."""
    # the pattern is read first: its RLE header's rule is the default, as in 'life step'
    from lifearena.cli.checks import check_output

    pattern = _load_start(input_file, pattern_name, trees=True)
    tree = pattern.tree if pattern is not None else None
    rule, rule_grid = _rule_and_grid(rule)
    the_rule = _any_rule_option(rule, pattern.rule if pattern is not None else None)
    lookup = isinstance(the_rule, LookupRule)
    chosen = _kernel(kernel)
    for path, option, suffixes in ((png, "--png", (".png",)), (gif, "--gif", (".gif",)),
                                   (output, "--output", ()), (plot, "--plot", (".png",)),
                                   (populations, "--populations", (".csv",))):
        check_output(path, option, suffixes)
    if plot is not None:
        require("studies", "--plot")
    if (output is not None and output.name.lower().endswith((".mc", ".mc.gz"))
            and np.any(transition_table(the_rule) == COIN)):
        raise BadParameterError(f"--output {output.name}: a macrocell file holds a HashLife "
                                f"tree, and {the_rule.name} has coin births, which HashLife "
                                "cannot run; expected .rle")
    step = 1 << (step_exponent or 0)
    if generations % step:
        raise BadParameterError(f"--generations {generations} is not a multiple of the step "
                                f"2**{step_exponent} = {step}; expected a multiple of it")
    series_every = _check_every(every, step, populations, plot)
    if pad is not None and size is not None:
        raise BadParameterError("give either --pad or --size, not both")
    if pad is not None and pattern is None:
        raise BadParameterError(f"--pad {pad} pads a pattern; expected --input FILE or "
                                "--pattern NAME, or --size for a soup")
    # a grid named in Golly's notation (':T72,48' torus, ':P40,30' bounded), by --rule or
    # the pattern file, is run unless --size or --pad says otherwise; any other pattern the
    # user did not size runs on the unbounded plane
    named_grid = rule_grid or (pattern.topology if pattern is not None else None)
    on_file_grid = (size is None and pad is None and named_grid is not None
                    and named_grid.kind != "plane")
    if on_file_grid:
        assert named_grid is not None
        if not (named_grid.width and named_grid.height):
            raise BadParameterError(
                f"the grid {named_grid.golly_suffix()} is infinite one way (a cylinder or "
                "strip), which lifearena does not run; expected --size WxH")
        size = f"{named_grid.width}x{named_grid.height}"
        if topology is None:
            topology = Topology.torus if named_grid.torus else Topology.bounded
    plane = pattern is not None and size is None and pad is None
    torus = _torus(topology, Topology.torus, plane, the_rule)
    if plane and kernel not in ("auto", "bitwise"):
        raise BadParameterError(f"--kernel {kernel} steps a fixed grid, and a pattern without "
                                "--size or --pad runs on the unbounded plane (bitwise kernel); "
                                "expected --size WxH or --pad N with it")
    if plane:  # refuse what the plane's algorithms cannot do before anything is shown
        plane_algorithm(the_rule, generations, algorithm, step_exponent=step_exponent)
    if not plane and algorithm is not Algorithm.auto:
        raise BadParameterError(f"--algorithm {algorithm.value} runs the unbounded plane, and "
                                "a grid given by --size or --pad (or a soup) has edges; "
                                "expected a pattern without --size and --pad")
    if pattern is not None:
        if size is None:
            pad = min(generations, DEFAULT_PAD) if pad is None else pad
            height, width = pattern.cells.shape
            check_cells(height + 2 * pad, width + 2 * pad, f"--pad {pad} round a "
                        f"{width}x{height} pattern")
            cells = _pad(pattern.cells, pad)
        else:
            cells = _embed(pattern.cells, parse_size(size),
                           pattern.origin if on_file_grid and pattern.topology else None,
                           wrap=torus)
    else:
        shape = parse_size(size if size is not None else "128x128")
        if colours is None:
            colours = 1 if _is_one_colour(the_rule) else 2
        cells = random_grid(*shape, density=density, seed=seed, colours=colours)
    if tree is not None and (not plane or algorithm is Algorithm.tiles or lookup):
        raise BadParameterError(
            "the macrocell pattern is larger than the largest grid, so it runs only as "
            "HashLife's tree on the plane; expected no --size/--pad, --algorithm auto or "
            "hashlife, and a rule of neighbour counts")
    show = (fits_terminal(cells) and tree is None) if show is None else show
    if show:
        _show(cells, "start")
    universe: Universe
    # a small run (a pattern for a few generations) steps unpacked with numpy: exactly the
    # plane's answer while nothing can reach the padding (generations <= the padding)
    small = (chosen == "auto" and not until_stable and step_exponent is None
             and algorithm is Algorithm.auto and cells.size * generations <= SMALL_WORK
             and (not plane or generations <= (pad or 0)) and not lookup and tree is None)
    # the plane's cell of the start grid's top-left cell: Golly's #CXRLE Pos, less the pad
    pattern_origin = (pattern.origin if plane and pattern is not None and pattern.origin
                      else (0, 0))
    offset = (pattern_origin[0] - (pad or 0), pattern_origin[1] - (pad or 0))
    reason: str | None = None
    if plane and not small:
        live = int(np.count_nonzero(cells))
        _, reason = plane_algorithm(the_rule, generations, algorithm,
                                    step_exponent=step_exponent, start_cells=live)
    if tree is not None:  # a macrocell file larger than a grid: its own tree runs
        from lifearena.life.hashlife import HashLife

        plane_algorithm(the_rule, generations, "hashlife", step_exponent=step_exponent)
        universe = HashLife.from_root(tree.root, the_rule, 0, step_exponent=step_exponent)
        reason = "a macrocell file larger than a grid runs as its own tree"
    elif lookup and not plane:
        universe = KernelGrid(cells, the_rule, torus=torus, seed=seed)
    elif lookup:
        universe = choose_universe(the_rule, generations, algorithm, seed=seed,
                                   step_exponent=step_exponent, start_cells=live)
        universe.add(cells, *offset)
    elif small or chosen in ("reference", "numpy"):
        universe = KernelGrid(cells, the_rule, torus=torus and not plane, seed=seed,
                              kernel="numpy" if small else chosen, on_plane=plane)
    else:
        from lifearena.cli.compiling import listen
        from lifearena.life.packed import PackedGrid

        listen()
        # load (or compile) the kernels on a tiny grid first: the timing is the run's alone
        if plane:
            warm = choose_universe(the_rule, generations, algorithm, seed=seed,
                                   step_exponent=step_exponent, start_cells=live)
            warm.add(cells[:3, :3])
            warm.step(1)
        else:
            tiny = PackedGrid(cells[:3, :3], the_rule, torus=torus, seed=seed)
            tiny.step(1)
            if series_every is not None:
                tiny.record(1)
        if plane:
            universe = choose_universe(the_rule, generations, algorithm, seed=seed,
                                       step_exponent=step_exponent, start_cells=live)
            universe.add(cells, *offset)
        else:
            universe = PackedGrid(cells, the_rule, torus=torus, seed=seed)
    del cells
    recorder = FrameRecorder(frames) if gif is not None else None
    watcher: Settle | Repeat | None = None
    if until_stable:
        # gliders wrapping round a torus are looked for on tori up to SETTLE_TORUS_CELLS
        # (each look reads the whole grid); a larger one stops on a whole repeat
        ships = isinstance(the_rule, Rule) and (
            plane or (torus and life_like_ships(the_rule)
                      and math.prod(universe_shape(universe)) <= SETTLE_TORUS_CELLS))
        watcher = (Settle(cast(Rule, the_rule), None if plane else universe_shape(universe))
                   if ships else Repeat())
    start = time.perf_counter()
    start_generation = universe.generation
    with _progress() as bar:
        task = bar.add_task("running until stable" if until_stable else "running",
                            total=generations)

        def advance(g: int) -> None:
            bar.update(task, completed=g)

        repeat = getattr(universe, "run_until_repeat", None)
        if (isinstance(watcher, Repeat) and repeat is not None and recorder is None
                and series_every is None):
            # the whole grid repeating, found in compiled code
            first, cycle = repeat(generations, progress=advance)
            if first >= 0:
                watcher.result = Settled(first, cycle, {})
            driven = drive(universe, 0)
        else:
            watch = 1
            if isinstance(watcher, Settle):
                watch = max(step, CHECK_EVERY - CHECK_EVERY % step)
            stop = watcher.check if watcher is not None else None
            driven = _within_cap(lambda: drive(
                universe, generations, every=series_every, recorder=recorder,
                frame_step=step * max(1, frame_every(generations, frames) // step),
                stop=stop, stop_every=watch, progress=advance))
        settled = watcher.result if watcher is not None else None
        if settled is not None:
            # the settle check may see the repeat ahead of the run: step on to it, within
            # the cap (past it the run did not settle in the generations it was given)
            repeat_at = settled.generation + settled.period
            if repeat_at > start_generation + generations:
                settled = None
            elif universe.generation < repeat_at:
                universe.step(repeat_at - universe.generation, advance)
    seconds = time.perf_counter() - start
    done = universe.generation
    one, two = universe.population()
    stopped, period, settled_text = _stop_text(settled, until_stable, one + two == 0)
    _write_outputs(universe, the_rule, pattern_name or (input_file.name if input_file else
                                                         "random soup"),
                   driven, recorder, output=output, png=png, gif=gif, scale=scale,
                   populations=populations, plot=plot,
                   offset=offset if isinstance(universe, KernelGrid) else (0, 0),
                   start_generation=pattern.generation if pattern is not None else 0)
    final_box = _grid_box(universe) if show else None
    if final_box is not None and fits_terminal((final_box.height, final_box.width)):
        _show(universe.cells(final_box), f"after {done} generations")
    grid, updates = _grid_text(universe, cells_shape=(universe_shape(universe)), reason=reason)
    console.print(_summary(the_rule, (one, two), grid, done, seconds, stopped, period, updates,
                           cells=_cell_count(universe), settled=settled_text))
    for label, path in (("GIF", gif), ("PNG", png), ("pattern", output),
                        ("populations", populations), ("plot", plot)):
        if path is not None:
            console.print(f"wrote {label} {path}")


def universe_shape(universe: Universe) -> tuple[int, int]:
    """``(height, width)`` of a grid with edges, or of the plane's live cells' box."""
    grid = _edged(universe)
    if grid is not None:
        return grid.height, grid.width
    box = universe.bounding_box()
    return (0, 0) if box is None else (box.height, box.width)


def _grid_box(universe: Universe) -> Box | None:
    """The whole grid of a grid with edges; the live cells' box on the plane."""
    grid = _edged(universe)
    if grid is not None:
        return Box(0, 0, grid.width, grid.height)
    return universe.bounding_box()


def _cell_count(universe: Universe) -> int:
    height, width = universe_shape(universe)
    return max(1, height * width)


def _grid_text(universe: Universe, cells_shape: tuple[int, int],
               reason: str | None = None) -> tuple[str, int | None]:
    """The summary's "grid" line and the cell-updates done (``None``: the grid's size
    times the generations)."""
    grid = _edged(universe)
    if grid is not None:
        return (f"{grid.width} x {grid.height}, {'torus' if grid.torus else 'bounded'}"), None
    height, width = cells_shape
    if isinstance(universe, GrowingPlane) or getattr(universe, "on_plane", False):
        moved = getattr(universe, "moves", 0)
        how = ("the pattern never reached the edge" if not moved else
               f"moved to a new grid {'once' if moved == 1 else f'{moved} times'} as the "
               "pattern reached the edge")
        return (f"{width} x {height} live box, unbounded plane ({how})",
                getattr(universe, "cell_updates", None))
    hashlife = type(universe).__name__ == "HashLife"
    why = f"; {reason}" if reason else ""
    tiles = getattr(universe, "tiles", None)
    held = f", {tiles:,} tiles at the end" if isinstance(tiles, int) else ""
    text = (f"{width:,} x {height:,} live box, unbounded plane "
            f"({'HashLife' if hashlife else 'tiles'}{why}{held})")
    # tiles: the cells of the rows it computed (a row of a tile is 64 cells)
    rows = getattr(universe, "row_steps", None)
    return text, -1 if hashlife else (64 * rows if isinstance(rows, int) else None)


def _write_outputs(universe: Universe, rule: Rule | LookupRule, name: str, driven: Driven,
                   recorder: FrameRecorder | None, *, output: Path | None, png: Path | None,
                   gif: Path | None, scale: int | None, populations: Path | None,
                   plot: Path | None, offset: tuple[int, int] = (0, 0),
                   start_generation: int = 0) -> None:
    """Every file the run was asked for, each written whole or not at all. ``offset`` is the
    plane cell of a plane's stand-in grid's top-left cell; ``start_generation`` the pattern
    file's ``Gen``, which the written file's counts on from."""
    if png is not None or gif is not None:
        from lifearena.life import picture

    if populations is not None:
        write_csv(populations, driven.rows)
    if plot is not None:
        write_plot(plot, driven.rows, rule=rule.name, pattern=name)
    if recorder is not None and gif is not None:
        shots = recorder.grids()
        side = _picture_scale(shots[0].shape, scale)
        write_atomically(gif, lambda stream: picture.save_gif(stream, shots, scale=side))
    if png is not None:
        box = fitted_box(universe)
        grid = _edged(universe)
        if grid is not None and box is not None:
            box = _clip(box, grid)
        cells = (np.zeros((1, 1), dtype=np.int8) if box is None
                 else _shrunk(universe, box))
        side = _picture_scale(cells.shape, scale)
        write_atomically(png, lambda stream: picture.save_png(stream, cells, scale=side))
    if output is not None:
        _write_pattern(output, universe, rule, offset, start_generation + universe.generation)


def _write_pattern(output: Path, universe: Universe, rule: Rule | LookupRule,
                   offset: tuple[int, int], generation: int) -> None:
    """The final pattern as the file name asks: a grid with its Golly topology and origin; a
    plane's live cells at their place (``#CXRLE Pos``); a macrocell file from the tree."""
    comments = [f"{rule.name} after {universe.generation} generations (lifearena)"]
    if output.name.lower().endswith((".mc", ".mc.gz")):
        from lifearena.life.hashlife import HashLife
        from lifearena.life.macrocell import save_macrocell

        tree = universe if isinstance(universe, HashLife) else None
        if tree is None:
            found = universe.bounding_box()
            tree = HashLife(rule)
            if found is not None:
                tree.add(universe.cells(found), found.x + offset[0], found.y + offset[1])
        tree.generation = generation
        save_macrocell(output, tree, comments=comments)
        return
    grid = _edged(universe)
    if grid is not None:
        box: Box | None = Box(0, 0, grid.width, grid.height)
        topology: GridTopology | None = GridTopology("torus" if grid.torus else "bounded",
                                                     grid.width, grid.height)
        origin = (-(grid.width // 2), -(grid.height // 2))
    else:
        box, topology = universe.bounding_box(), None
        origin = (0, 0) if box is None else (box.x + offset[0], box.y + offset[1])
        if box is not None and box.width * box.height > caps.MAX_GRID_CELLS:
            raise BadParameterError(
                f"the pattern spans {box.width:,} x {box.height:,} cells, past the "
                f"{caps.MAX_GRID_CELLS:,} cells of the largest grid a {output.suffix} file is "
                "written from; expected --output FILE.mc (a macrocell file keeps any size)")
    cells = np.zeros((1, 1), dtype=np.int8) if box is None else universe.cells(box)
    save_pattern(output, cells, rule=rule.name, comments=comments, topology=topology,
                 origin=origin, generation=generation)


def _clip(box: Box, grid: EdgedGrid) -> Box:
    """``box`` cut to the grid (a grid's margin lies inside it)."""
    x, y = max(box.x, 0), max(box.y, 0)
    return Box(x, y, min(box.right, grid.width) - x, min(box.bottom, grid.height) - y)


def _shrunk(universe: Universe, box: Box) -> np.ndarray:
    """The cells of ``box`` for a picture, shrunk by blocks where larger than
    :data:`lifearena.life.picture.MAX_SIDE` a side (never unpacked whole)."""
    recorder = FrameRecorder(1, margin=0)
    factor = recorder._factor_for(box)
    if factor == 1:
        return universe.cells(box)
    recorder.factor = factor
    recorder.capture(universe)
    return recorder.grids()[0]


def _within_cap(run: Callable[[], T]) -> T:
    """``run()``, with a pattern that outgrew the largest grid of the plane turned into one
    line that says what to give instead."""
    try:
        return run()
    except BadParameterError as error:
        # the plane's growth limit (its module is loaded by then, if it ran at all)
        growing = sys.modules.get("lifearena.life.growing")
        if growing is None or not isinstance(error, growing.GrowthLimitError):
            raise
        raise BadParameterError(
            f"{error}; expected fewer --generations, or --size WxH for a fixed "
            "grid (bounded clips the pattern at its edges, torus wraps it)") from None


PROGRESS_EVERY = 256  # generations between two redraws of a progress bar
CYCLE_WINDOW = 1_000_000  # generations whose digests 'life step' keeps to find a repeat


CALL_UPDATES = 2**31  # cell-updates in one compiled call: about 0.05 s, so Ctrl-C is prompt


def _chunk(generations: int, cells: int) -> int:
    """Generations per compiled call: a hundredth of the run for the progress bar, but never
    so many that the call outlasts a fraction of a second (numba code does not see Ctrl-C
    until it returns).

    >>> _chunk(10**9, 4096 * 4096), _chunk(1000, 100)
    (128, 10)
    """
    return max(1, min(math.ceil(generations / 100), CALL_UPDATES // max(1, cells)))


def _every(n: int, update: Callable[[int], None]) -> Callable[[int], None]:
    """``update`` called only on every ``n``-th generation (a redraw per step would cost more
    than the step)."""
    return lambda g: update(g) if g % n == 0 else None


def _pad(cells: np.ndarray, pad: int) -> np.ndarray:
    """``cells`` with ``pad`` empty cells added on every side.

    >>> _pad(np.ones((1, 2), dtype=np.int8), 1).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
    """
    return np.pad(cells, pad) if pad else cells


def _step_far(cells: np.ndarray, rule: Rule, generations: int, *, torus: bool, seed: int,
              generation: int) -> tuple[np.ndarray, int, str | None]:
    """``cells`` after ``generations`` steps (or fewer, see below), with a progress bar: the
    cells, the number of the generation they are at, and a note when the pattern repeated.

    When a configuration repeats, a rule without coins is periodic from there on, so the
    answer is read off the cycle instead of stepping to the end. A rule with coins may leave
    its cycle later, so the run stops at the repeat and says so. Repeats are looked for in
    the first :data:`CYCLE_WINDOW` generations (their digests are kept in memory); after
    that the steps go on without the check.
    """
    from lifearena.cli.compiling import listen
    from lifearena.life.run import run_until_stable
    from lifearena.life.step import evolve

    listen()
    coin = rule.uses_coin
    checked = 0
    if not coin or generation == 0:
        checked = min(generations, CYCLE_WINDOW)
    with _progress() as bar:
        task = bar.add_task("stepping", total=generations)
        if checked:
            result = run_until_stable(cells, rule, torus=torus, seed=seed,
                                      max_generations=checked,
                                      progress=_every(PROGRESS_EVERY,
                                                      lambda g: bar.update(task, completed=g)))
            cells, done = result.cells, result.generation
            if result.period is not None:
                where = (f"the pattern repeats with period {result.period} from generation "
                         f"{generation + (result.cycle_start or 0)}")
                if coin:
                    return cells, generation + done, (
                        f"{where}; stopped at generation {generation + done} (coin births may "
                        "leave the cycle: step on from there)")
                left = (generations - done) % result.period
                cells = evolve(cells, rule, left, torus=torus, seed=seed,
                               generation=generation + done)
                return cells, generation + generations, (
                    f"{where}; generation {generation + generations} read off the cycle")
        else:
            done = 0
        chunk = _chunk(generations - done, cells.size)
        while done < generations:
            n = min(chunk, generations - done)
            cells = evolve(cells, rule, n, torus=torus, seed=seed, generation=generation + done)
            done += n
            bar.update(task, completed=done)
    return cells, generation + generations, None


def _step_on_plane(cells: np.ndarray, rule: Rule, generations: int, *, seed: int,
                   generation: int, pad: int) -> tuple[np.ndarray, int, str | None]:
    """:func:`_step_far` on the unbounded plane, by the algorithm :func:`plane_algorithm`
    chooses (tiles, or HashLife for a long run of a deterministic rule): the live cells'
    bounding box with ``pad`` empty cells round them, the generation they are at, and a note
    naming the algorithm and why."""
    from lifearena.cli.compiling import listen

    listen()
    live = int(np.count_nonzero(cells))
    algorithm, reason = plane_algorithm(rule, generations, "auto", start_cells=live)
    universe = choose_universe(rule, generations, algorithm, seed=seed, start_cells=live)
    universe.add(cells)
    universe.generation = generation
    with _progress() as bar:
        task = bar.add_task("stepping", total=generations)
        _within_cap(lambda: universe.step(
            generations, lambda g: bar.update(task, completed=g - generation)))
    box = universe.bounding_box()
    height, width = cells.shape
    if box is None or (box.x >= 0 and box.y >= 0 and box.right <= width
                       and box.bottom <= height):  # still inside the start grid: kept
        out = universe.cells(Box(0, 0, width, height))
    else:  # outgrew it: the live cells with the padding round them
        out = np.pad(universe.cells(box), pad)
    return out, universe.generation, f"on the unbounded plane by {algorithm.value} ({reason})"


def _cut(cells: np.ndarray, pad: int) -> np.ndarray:
    """The live cells' bounding box with ``pad`` empty cells on each side (``cells`` as it
    is when none is alive).

    >>> _cut(np.pad(np.ones((1, 2), dtype=np.int8), 5), 1).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
    """
    rows = np.flatnonzero(cells.any(axis=1))
    if rows.size == 0:
        return cells
    columns = np.flatnonzero(cells.any(axis=0))
    box = cells[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]
    return np.pad(box, pad)


@app.command("step")
@announces_compiling
def step_command(
    pattern_file: Annotated[Path | None, typer.Argument(
        help="RLE (.rle) or text pattern file (or --pattern NAME).")] = None,
    generations: Annotated[int, typer.Option("--generations", "-n", help="Steps to take; a "
                                             "repeating pattern is noticed and the rest read "
                                             "off its cycle.", min=0,
                                             max=caps.MAX_GENERATIONS)] = 1,
    rule: Annotated[str | None, typer.Option("--rule", "-r", help="Rule (default: the RLE "
                                             "header's rule, else life).")] = None,
    topology: Annotated[Topology | None, typer.Option(
        help="bounded (default) or torus: the edges of a grid given by --pad or --size (the "
        "unbounded plane has none).")] = None,
    pad: Annotated[int | None, typer.Option(help="Step on a fixed grid: the pattern with this "
                                            "many empty cells added on each side. Without "
                                            "--pad or --size the pattern steps on the "
                                            "unbounded plane: it is padded by the number of "
                                            f"generations up to {DEFAULT_PAD}, it moves to a "
                                            "new grid with room round the live cells when a "
                                            "live cell reaches the edge, up to "
                                            f"{caps.MAX_GRID_CELLS:,} cells (past which it "
                                            "stops with an error), and a grid that moved is "
                                            "printed cut to the live cells and that padding.",
                                            min=0, max=caps.MAX_PAD)] = None,
    size: Annotated[str | None, typer.Option(help="Step on a fixed WIDTHxHEIGHT grid, the "
                                             "pattern centred on it; at most "
                                             f"{caps.MAX_GRID_CELLS:,} cells.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of coin births.", min=0,
                                      max=caps.MAX_SEED)] = 0,
    generation: Annotated[int, typer.Option(help="Number of the first generation (for coins).",
                                            min=0, max=caps.MAX_GENERATIONS)] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the result here "
                                                "(.rle for RLE, else text); default: print.")
                      ] = None,
    pattern_name: Annotated[str | None, typer.Option(
        "--pattern", "-p", help="Step this pattern of the library (see 'lifearena life "
        "patterns') instead of a file.")] = None,
) -> None:
    """Step a pattern file one or N generations (on the unbounded plane, or a grid given by
    --pad or --size); print it or write it."""
    from lifearena.cli.checks import check_output

    check_output(output, "--output", ())
    if pad is not None and size is not None:
        raise BadParameterError("give either --pad or --size, not both")
    pattern = _load_start(pattern_file, pattern_name)
    if pattern is None:
        raise BadParameterError("no pattern to step; expected a pattern file or --pattern NAME "
                                "(see 'lifearena life patterns')")
    the_rule = _rule_option(rule, pattern.rule or "life")
    plane = size is None and pad is None
    torus = _torus(topology, Topology.bounded, plane, the_rule)
    if size is not None:
        cells = _embed(pattern.cells, parse_size(size))
    else:
        if pad is None:
            pad = min(generations, DEFAULT_PAD)
        height, width = pattern.cells.shape
        check_cells(height + 2 * pad, width + 2 * pad, f"--pad {pad} round a {width}x{height} "
                    "pattern")
        cells = _pad(pattern.cells, pad)
    if plane:
        cells, reached, note = _step_on_plane(cells, the_rule, generations, seed=seed,
                                              generation=generation, pad=pad or 0)
    else:
        cells, reached, note = _step_far(cells, the_rule, generations, torus=torus, seed=seed,
                                         generation=generation)
    if note is not None:
        typer.echo(note, err=True)
    if output is None:
        typer.echo(write_text(cells), nl=False)
    else:
        save_pattern(output, cells, rule=the_rule.name,
                     comments=[f"{the_rule.name}, generation {reached}"])
        one, two = population(cells)
        console.print(f"wrote {output}: {cells.shape[1]} x {cells.shape[0]}, "
                      f"population {one} + {two}")


@app.command()
def rules(
    name: Annotated[str | None, typer.Argument(help="Print this rule's full table.")] = None,
    golly: Annotated[str | None, typer.Option(
        "--golly", help="Write this rule (any deterministic rule: a name, B.../S..., Hensel "
                        "letters, a table) as a Golly .rule file named after it.")] = None,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", help="With --golly: the file to write (default: stdout).")] = None,
) -> None:
    """List the named rules, print one rule as a table you can edit and load back, or write
    one as a Golly @RULE/@TABLE file (``--golly immigration -o Immigration.rule``)."""
    if golly is not None:
        from lifearena.cli.checks import check_output
        from lifearena.life.golly_rules import to_golly_rule
        from lifearena.life.lookup_rule import as_any_rule
        from lifearena.life.patterns import golly_rule_name

        check_output(output, "--output", (".rule",))
        rule = as_any_rule(golly)
        title = golly_rule_name(rule.name).replace("/", "_")
        text = to_golly_rule(rule, title)
        if output is None:
            typer.echo(text, nl=False)
        else:
            partial = output.with_name(output.name + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(output)
            console.print(f"wrote {output}: Golly rule {title}")
        return
    if name is not None:
        typer.echo(as_rule(name).to_table_text(), nl=False)
        return
    table = Table(title="Named rules (also: any B.../S... string, a table text, or @FILE)")
    table.add_column("name", style="bold")
    table.add_column("rule")
    for rule_name, description in available_rules().items():
        table.add_row(rule_name, description)
    console.print(table)


@app.command()
def patterns() -> None:
    """List the patterns shipped with lifearena (for --pattern NAME): rule, discoverer,
    year and source."""
    table = Table(title="Pattern library (lifearena life run --pattern NAME)")
    for column in ("name", "rule", "discoverer", "year", "about", "source"):
        # names whole: they are what --pattern takes
        table.add_column(column, style="bold" if column == "name" else None,
                         no_wrap=column in ("name", "rule", "year"), overflow="fold")
    for entry in library().values():
        table.add_row(entry.name, entry.rule, entry.discoverer,
                      str(entry.year) if entry.year else "", entry.note, entry.source)
    console.print(table)
