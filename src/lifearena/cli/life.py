"""``lifearena life``: run, step and inspect two-colour Life patterns from the terminal."""

from __future__ import annotations

import math
import re
import shutil
import time
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, cast

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from lifearena import caps
from lifearena.caps import check_cells
from lifearena.cli.checks import check_output
from lifearena.cli.compiling import announces_compiling
from lifearena.errors import BadParameterError
from lifearena.life import picture
from lifearena.life.grid import population, random_grid
from lifearena.life.growing import GrowingRun, GrowthLimitError, Snapshot, run_growing
from lifearena.life.patterns import load_pattern, save_pattern, write_text
from lifearena.life.rules import COIN, Rule, as_rule, available_rules
from lifearena.life.run import run_until_stable
from lifearena.life.step import KERNELS, Kernel, evolve

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


def _is_one_colour(rule: Rule) -> bool:
    """True when nothing in the rule ever makes colour 2 from an empty or colour-1 cell."""
    return not bool(np.any((rule.table[:2] == 2) | (rule.table[:2] == COIN)))


def _torus(topology: Topology | None, default: Topology, plane: bool, rule: Rule) -> bool:
    """Whether the grid wraps; refuses what the unbounded plane cannot do: an edge given to
    it (``--topology``), or a B0 rule, which would fill it at once."""
    if plane and topology is not None:
        raise BadParameterError(f"--topology {topology.value} sets the edges of a grid given "
                                "by --size or --pad, and a pattern without them runs on the "
                                "unbounded plane, which has none; expected --size WxH or "
                                "--pad N with it, or no --topology")
    if plane and rule.table[0, 0, 0] != 0:
        raise BadParameterError(f"rule {rule.name} gives birth with no neighbours (B0), so a "
                                "pattern would fill the unbounded plane at once; expected "
                                "--size WxH or --pad N for a fixed grid")
    return (topology or default) is Topology.torus


def _embed(cells: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``cells`` centred on an empty grid of ``shape`` (which must be at least as large)."""
    height, width = shape
    if cells.shape[0] > height or cells.shape[1] > width:
        raise BadParameterError(f"pattern is {cells.shape[1]}x{cells.shape[0]} but --size is "
                                f"{width}x{height}; expected a size at least the pattern's")
    out = np.zeros(shape, dtype=np.int8)
    top, left = (height - cells.shape[0]) // 2, (width - cells.shape[1]) // 2
    out[top : top + cells.shape[0], left : left + cells.shape[1]] = cells
    return out


def fits_terminal(cells: np.ndarray, columns: int | None = None) -> bool:
    """Whether the grid drawn by :func:`_show` (two characters a cell) fits the terminal's
    width (``columns``, default :func:`shutil.get_terminal_size`'s, 80 when unknown) and is
    at most :data:`SHOW_LIMIT` rows high, so that no row wraps.

    >>> fits_terminal(np.zeros((64, 64)), 80), fits_terminal(np.zeros((64, 64)), 140)
    (False, True)
    >>> fits_terminal(np.zeros((3, 40)), 80), fits_terminal(np.zeros((101, 10)), 400)
    (True, False)
    """
    if columns is None:
        columns = shutil.get_terminal_size().columns
    height, width = (int(side) for side in cells.shape)
    return 2 * width - 1 <= columns and height <= SHOW_LIMIT


def _show(cells: np.ndarray, title: str) -> None:
    if max(cells.shape) > SHOW_LIMIT:
        return
    console.print(f"[bold]{title}[/]")
    glyphs = {0: "[grey30]·[/]", 1: "[bold blue]O[/]", 2: "[bold red]X[/]"}
    for row in cells:
        console.print(" ".join(glyphs[int(v)] for v in row), highlight=False)


def _summary(rule: Rule, cells: np.ndarray, grid: str, generations: int, seconds: float,
             stop: str, period: int | None, updates: int | None = None) -> Table:
    """The run's summary table; ``updates`` is the number of cells stepped (default: the
    grid's size times the generations, as on a grid that never moved)."""
    one, two = population(cells)
    table = Table(title="Run summary", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("rule", f"{rule.name}  [dim]{rule.description}[/]")
    table.add_row("grid", grid)
    table.add_row("generations", str(generations))
    table.add_row("stopped", stop + (f" (period {period})" if period else ""))
    table.add_row("colour 1 (blue, O)", f"{one:,}")
    table.add_row("colour 2 (red, X)", f"{two:,}")
    table.add_row("density", f"{(one + two) / cells.size:.4f}")
    if updates is None:
        updates = cells.size * generations
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
    if rule is not None and not rule.strip():
        raise BadParameterError("--rule ''; expected a rule name, a B.../S... string, a table "
                                "or @FILE (see 'lifearena life rules')")
    return as_rule(rule if rule is not None else default or "p2life")


def _check_pictures(shape: tuple[int, int], png: Path | None, gif: Path | None,
                    frames: int, scale: int | None) -> None:
    """Refuse, before the run, pictures that would not fit in memory: a PNG over
    ``caps.MAX_PICTURE_PIXELS`` pixels, or a GIF whose frames (grids and images) would."""
    if png is None and gif is None:
        return
    height, width = shape
    side = scale or picture.auto_scale(shape)
    pixels = math.prod(picture.image_size(shape, scale))
    if pixels > caps.MAX_PICTURE_PIXELS:
        raise BadParameterError(f"--scale {side} draws a {width}x{height} grid as {pixels:,} "
                                f"pixels; expected at most {caps.MAX_PICTURE_PIXELS:,} (a "
                                "smaller --scale)")
    if gif is not None and frames * (height * width + 4 * pixels) > caps.MAX_GIF_BYTES:
        raise BadParameterError(f"--gif with --frames {frames} of a {width}x{height} grid at "
                                f"scale {side} needs more than {caps.MAX_GIF_BYTES >> 20} MiB; "
                                "expected fewer --frames, a smaller --scale or grid")


@app.command()
@announces_compiling
def run(
    rule: Annotated[str | None, typer.Option("--rule", "-r", help="Rule name (see 'lifearena "
                                             "life rules'), a B.../S... string, a table text, "
                                             "or @FILE (default: the --input pattern's rule, "
                                             "else p2life).")] = None,
    size: Annotated[str | None, typer.Option(help="Grid size WIDTHxHEIGHT (default: 128x128 "
                                             "for a soup; with --input, a fixed grid the "
                                             "pattern is centred on); at most "
                                             f"{caps.MAX_GRID_CELLS:,} cells.")] = None,
    pad: Annotated[int | None, typer.Option(help="With --input: a fixed grid of the pattern "
                                            "with this many empty cells added on each side. "
                                            "Without --pad or --size a pattern runs on the "
                                            "unbounded plane: its grid (padded by the number "
                                            f"of generations up to {DEFAULT_PAD}) moves to a "
                                            "new one, with room round the live cells, when a "
                                            "live cell reaches the edge, up to "
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
                                               "configuration is stable or periodic.")] = False,
    input_file: Annotated[Path | None, typer.Option("--input", "-i", help="Start from this RLE "
                                                    "or text pattern instead of a soup.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the final grid "
                                                "(.rle for RLE, else text).")] = None,
    png: Annotated[Path | None, typer.Option(help="Write a PNG of the final grid.")] = None,
    gif: Annotated[Path | None, typer.Option(help="Write an animated GIF of the run.")] = None,
    frames: Annotated[int, typer.Option(help="At most this many GIF frames (the start "
                                         "included).", min=1, max=caps.MAX_FRAMES)] = 120,
    scale: Annotated[int | None, typer.Option(help="Pixels per cell in pictures (default: fit "
                                              "about 512 pixels); a picture has at most "
                                              f"{caps.MAX_PICTURE_PIXELS:,} pixels.", min=1,
                                              max=caps.MAX_SCALE)] = None,
    kernel: Annotated[str, typer.Option(help=f"Step kernel: {', '.join(KERNELS)}.")] = "auto",
    show: Annotated[bool | None, typer.Option(help="Print the start and final grids in the "
                                              "terminal (default: when a row fits the "
                                              "terminal's width and at most "
                                              f"{SHOW_LIMIT} rows).")] = None,
) -> None:
    """Run a rule on a random soup or a pattern; print populations, save RLE, PNG, GIF."""
    # the pattern is read first: its RLE header's rule is the default, as in 'life step'
    pattern = (load_pattern(input_file, max_cells=caps.MAX_GRID_CELLS)
               if input_file is not None else None)
    the_rule = _rule_option(rule, pattern.rule if pattern is not None else None)
    chosen = _kernel(kernel)
    check_output(png, "--png", (".png",))
    check_output(gif, "--gif", (".gif",))
    check_output(output, "--output", ())
    if pad is not None and size is not None:
        raise BadParameterError("give either --pad or --size, not both")
    if pad is not None and pattern is None:
        raise BadParameterError(f"--pad {pad} pads an --input pattern; expected --input FILE, "
                                "or --size for a soup")
    # a pattern on a grid the user did not size runs on the unbounded plane
    plane = pattern is not None and size is None and pad is None
    torus = _torus(topology, Topology.torus, plane, the_rule)
    if plane and kernel not in ("auto", "bitwise"):
        raise BadParameterError(f"--kernel {kernel} steps a fixed grid, and a pattern without "
                                "--size or --pad runs on the unbounded plane (bitwise kernel); "
                                "expected --size WxH or --pad N with it")
    if pattern is not None:
        if size is None:
            pad = min(generations, DEFAULT_PAD) if pad is None else pad
            height, width = pattern.cells.shape
            check_cells(height + 2 * pad, width + 2 * pad, f"--pad {pad} round a "
                        f"{width}x{height} pattern")
            shape = (height + 2 * pad, width + 2 * pad)
        else:
            shape = parse_size(size)
    else:
        shape = parse_size(size if size is not None else "128x128")
    _check_pictures(shape, png, gif, frames, scale)
    if pattern is not None:
        cells = _pad(pattern.cells, pad or 0) if size is None else _embed(pattern.cells, shape)
    else:
        if colours is None:
            colours = 1 if _is_one_colour(the_rule) else 2
        cells = random_grid(*shape, density=density, seed=seed, colours=colours)
    show = fits_terminal(cells) if show is None else show
    if show:
        _show(cells, "start")

    # load (or compile) the kernel on a tiny grid first, so the timing is the run's alone
    tiny = cells[:3, :3]
    if plane:
        _on_plane(run_growing, tiny, the_rule, 2, cycle_window=2 if until_stable else 0)
    elif until_stable:
        run_until_stable(tiny, the_rule, torus=torus, seed=seed, max_generations=2,
                         kernel=chosen)
    else:
        evolve(tiny, the_rule, 1, torus=torus, seed=seed, kernel=chosen)
    start = time.perf_counter()
    stop, period = "generation limit", None
    grid = f"{cells.shape[1]} x {cells.shape[0]}, {'torus' if torus else 'bounded'}"
    shots: list[np.ndarray] | None = None
    updates = None
    if plane:
        every = max(1, math.ceil(generations / max(1, frames - 1))) if gif is not None else 0

        def pictures_fit(new_shape: tuple[int, int], at: int) -> None:
            try:
                _check_pictures(new_shape, png, gif, frames, scale)
            except BadParameterError as error:
                raise BadParameterError(f"at generation {at} the pattern outgrew its grid "
                                        f"(the next would be {new_shape[1]}x{new_shape[0]}): "
                                        f"{error}") from None

        with _progress() as bar:
            task = bar.add_task("running until stable" if until_stable else "running",
                                total=generations)
            plane_run = _on_plane(run_growing, cells, the_rule, generations, seed=seed,
                                  cycle_window=generations if until_stable else 0,
                                  snapshot_every=every, check_growth=pictures_fit,
                                  progress=lambda g: bar.update(task, completed=g))
        final, done = plane_run.cells, plane_run.generation
        if plane_run.period is not None:
            period = plane_run.period
            stop = ("extinct" if not final.any() else
                    "stable" if period == 1 else "periodic")
        elif until_stable:
            stop = "generation cap reached"
        grid = _plane_text(plane_run, cells.shape)
        updates = plane_run.cell_updates
        if gif is not None:
            shots = _frames(plane_run.snapshots, gif, frames, scale)
    elif until_stable:
        with _progress() as bar:
            task = bar.add_task("running until stable", total=generations)
            result = run_until_stable(cells, the_rule, torus=torus, seed=seed,
                                      max_generations=generations, kernel=chosen,
                                      progress=_every(PROGRESS_EVERY,
                                                      lambda g: bar.update(task, completed=g)))
        final, done = result.cells, result.generation
        stop = {"cap": "generation cap reached"}.get(result.stopped, result.stopped)
        period = result.period
    else:
        final, done = cells, 0
        chunk = _chunk(generations, cells.size)
        with _progress() as bar:
            task = bar.add_task("running", total=generations)
            while done < generations:
                n = min(chunk, generations - done)
                final = evolve(final, the_rule, n, torus=torus, seed=seed, generation=done,
                               kernel=chosen)
                done += n
                bar.update(task, completed=done)
    seconds = time.perf_counter() - start

    if gif is not None:
        if shots is None:  # a fixed grid: step again from the start for the frames
            every = max(1, math.ceil(done / max(1, frames - 1)))
            shots, current = [cells], cells
            for g in range(0, done, every):
                n = min(every, done - g)
                current = evolve(current, the_rule, n, torus=torus, seed=seed, generation=g,
                                 kernel=chosen)
                shots.append(current)
        picture.save_gif(gif, shots, scale=scale)
    if png is not None:
        picture.save_png(png, final, scale=scale)
    if output is not None:
        save_pattern(output, final, rule=the_rule.name,
                     comments=[f"{the_rule.name} after {done} generations (lifearena)"])
    if show:
        _show(final, f"after {done} generations")
    console.print(_summary(the_rule, final, grid, done, seconds, stop, period, updates))
    for label, path in (("GIF", gif), ("PNG", png), ("pattern", output)):
        if path is not None:
            console.print(f"wrote {label} {path}")


def _on_plane(run: Callable[..., GrowingRun], *args: object, **kwargs: object) -> GrowingRun:
    """``run(*args, **kwargs)`` (:func:`run_growing`), with a pattern that outgrew the
    largest grid turned into one line that says what to give instead. The grid may grow up
    to :data:`lifearena.caps.MAX_GRID_CELLS` cells, the cap ``--size`` has."""
    try:
        return run(*args, max_cells=caps.MAX_GRID_CELLS, **kwargs)
    except GrowthLimitError as error:
        raise BadParameterError(
            f"{error}; expected fewer --generations, or --size WxH for a fixed "
            "grid (bounded clips the pattern at its edges, torus wraps it)") from None


def _plane_text(grown: GrowingRun, start: tuple[int, int]) -> str:
    """The summary's "grid" line for a run on the unbounded plane."""
    height, width = grown.cells.shape
    if not grown.moves:
        return f"{width} x {height}, unbounded plane (the pattern never reached the edge)"
    times = "once" if grown.moves == 1 else f"{grown.moves} times"
    return (f"{width} x {height}, unbounded plane (moved to a new grid {times} as the "
            f"pattern reached the edge; started on {start[1]} x {start[0]})")


def _frames(snapshots: list[Snapshot], gif: Path, frames: int, scale: int | None
            ) -> list[np.ndarray]:
    """The snapshots of a run on the plane, each placed where it lies on a canvas that holds
    them all (the grids they were taken on moved with the pattern), so that the animation
    shows the pattern moving; refused, as ``--gif`` is before a run, when too large."""
    tops = [-shot.origin[0] for shot in snapshots]
    lefts = [-shot.origin[1] for shot in snapshots]
    top, left = min(tops), min(lefts)
    height = max(t + shot.cells.shape[0] for t, shot in zip(tops, snapshots, strict=True)) - top
    width = max(x + shot.cells.shape[1] for x, shot in zip(lefts, snapshots, strict=True)) - left
    try:
        _check_pictures((height, width), None, gif, frames, scale)
    except BadParameterError as error:
        raise BadParameterError(f"the pattern travelled across {width}x{height} cells: "
                                f"{error}") from None
    canvas = []
    for t, x, shot in zip(tops, lefts, snapshots, strict=True):
        frame = np.zeros((height, width), dtype=np.int8)
        frame[t - top : t - top + shot.cells.shape[0],
              x - left : x - left + shot.cells.shape[1]] = shot.cells
        canvas.append(frame)
    return canvas


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
    """:func:`_step_far` on the unbounded plane (:func:`run_growing`): the cells, the number
    of the generation they are at, and a note when the pattern repeated. A grid that moved
    comes back cut to its live cells with ``pad`` empty cells round them."""
    coin = rule.uses_coin
    window = min(generations, CYCLE_WINDOW) if not coin or generation == 0 else 0
    with _progress() as bar:
        task = bar.add_task("stepping", total=generations)
        stepped = _on_plane(run_growing, cells, rule, generations, seed=seed,
                            generation=generation, cycle_window=window,
                            progress=lambda g: bar.update(task, completed=g))
    moved, note = stepped.moves, None
    if stepped.period is not None:
        where = (f"the pattern repeats with period {stepped.period} from generation "
                 f"{generation + (stepped.cycle_start or 0)}")
        if coin:
            note = (f"{where}; stopped at generation {generation + stepped.generation} (coin "
                    "births may leave the cycle: step on from there)")
        else:
            left = (generations - stepped.generation) % stepped.period
            rest = _on_plane(run_growing, stepped.cells, rule, left, seed=seed,
                             generation=generation + stepped.generation)
            moved += rest.moves
            stepped = GrowingRun(rest.cells, generations, rest.origin, moved)
            note = f"{where}; generation {generation + generations} read off the cycle"
    out = _cut(stepped.cells, pad) if moved else stepped.cells
    return out, generation + stepped.generation, note


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
    pattern_file: Annotated[Path, typer.Argument(help="RLE (.rle) or text pattern file.")],
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
) -> None:
    """Step a pattern file one or N generations (on the unbounded plane, or a grid given by
    --pad or --size); print it or write it."""
    check_output(output, "--output", ())
    if pad is not None and size is not None:
        raise BadParameterError("give either --pad or --size, not both")
    pattern = load_pattern(pattern_file, max_cells=caps.MAX_GRID_CELLS)
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
