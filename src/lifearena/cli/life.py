"""``lifearena life``: run, step and inspect two-colour Life patterns from the terminal."""

from __future__ import annotations

import math
import re
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from lifearena.cli.checks import check_output
from lifearena.errors import BadParameterError
from lifearena.life import picture
from lifearena.life.grid import check_size, population, random_grid
from lifearena.life.patterns import load_pattern, save_pattern, write_text
from lifearena.life.rules import COIN, Rule, as_rule, available_rules
from lifearena.life.run import run_until_stable
from lifearena.life.step import KERNELS, evolve

app = typer.Typer(
    help="The two-colour Life engine: run, step and inspect patterns.",
    no_args_is_help=True,
)
console = Console()
SHOW_LIMIT = 100


class Topology(StrEnum):
    bounded = "bounded"
    torus = "torus"


def parse_size(text: str) -> tuple[int, int]:
    """``"WxH"`` (or one number for a square) as ``(height, width)``.

    >>> parse_size("64x32"), parse_size("10")
    ((32, 64), (10, 10))
    """
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX*]\s*(\d+))?\s*", text)
    if not match:
        raise BadParameterError(f"bad size {text!r}; expected WIDTHxHEIGHT such as 256x128")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    check_size(height, width)
    return height, width


def _kernel(name: str) -> str:
    if name not in KERNELS:
        raise BadParameterError(f"unknown kernel {name!r}; expected one of {', '.join(KERNELS)}")
    return name


def _is_one_colour(rule: Rule) -> bool:
    """True when nothing in the rule ever makes colour 2 from an empty or colour-1 cell."""
    return not np.any((rule.table[:2] == 2) | (rule.table[:2] == COIN))


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


def _show(cells: np.ndarray, title: str) -> None:
    if max(cells.shape) > SHOW_LIMIT:
        return
    console.print(f"[bold]{title}[/]")
    glyphs = {0: "[grey30]·[/]", 1: "[bold blue]O[/]", 2: "[bold red]X[/]"}
    for row in cells:
        console.print(" ".join(glyphs[int(v)] for v in row), highlight=False)


def _summary(rule: Rule, cells: np.ndarray, topology: str, generations: int, seconds: float,
             stop: str, period: int | None) -> Table:
    one, two = population(cells)
    table = Table(title="Run summary", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("rule", f"{rule.name}  [dim]{rule.description}[/]")
    table.add_row("grid", f"{cells.shape[1]} x {cells.shape[0]}, {topology}")
    table.add_row("generations", str(generations))
    table.add_row("stopped", stop + (f" (period {period})" if period else ""))
    table.add_row("colour 1 (blue, O)", f"{one:,}")
    table.add_row("colour 2 (red, X)", f"{two:,}")
    table.add_row("density", f"{(one + two) / cells.size:.4f}")
    rate = cells.size * generations / seconds if seconds > 0 else float("inf")
    table.add_row("time", f"{seconds:.3f} s ({rate:,.0f} cell-updates/s)")
    return table


def _progress() -> Progress:
    return Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True)


@app.command()
def run(
    rule: Annotated[str | None, typer.Option("--rule", "-r", help="Rule name (see 'lifearena "
                                             "life rules'), a B.../S... string, a table text, "
                                             "or @FILE (default: the --input pattern's rule, "
                                             "else p2life).")] = None,
    size: Annotated[str | None, typer.Option(help="Grid size WIDTHxHEIGHT (default 128x128, or "
                                             "the input pattern's size).")] = None,
    topology: Annotated[Topology, typer.Option(help="bounded: cells outside are always empty; "
                                               "torus: edges wrap.")] = Topology.torus,
    density: Annotated[float, typer.Option(help="Fraction of live cells in the random soup.")
                       ] = 0.5,
    colours: Annotated[int | None, typer.Option(help="Colours in the soup: 1 or 2 (default: 1 "
                                                "for one-colour rules like life, else 2).")
                       ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the soup and of coin births.")] = 0,
    generations: Annotated[int, typer.Option("--generations", "-n", help="Generations to run "
                                             "(the cap with --until-stable).")] = 200,
    until_stable: Annotated[bool, typer.Option("--until-stable", help="Stop as soon as the "
                                               "configuration is stable or periodic.")] = False,
    input_file: Annotated[Path | None, typer.Option("--input", "-i", help="Start from this RLE "
                                                    "or text pattern instead of a soup.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the final grid "
                                                "(.rle for RLE, else text).")] = None,
    png: Annotated[Path | None, typer.Option(help="Write a PNG of the final grid.")] = None,
    gif: Annotated[Path | None, typer.Option(help="Write an animated GIF of the run.")] = None,
    frames: Annotated[int, typer.Option(help="At most this many GIF frames (the start "
                                         "included).")] = 120,
    scale: Annotated[int | None, typer.Option(help="Pixels per cell in pictures "
                                              "(default: fit about 512 pixels).")] = None,
    kernel: Annotated[str, typer.Option(help=f"Step kernel: {', '.join(KERNELS)}.")] = "auto",
    show: Annotated[bool | None, typer.Option(help="Print the grid in the terminal (default: "
                                              f"when at most {SHOW_LIMIT} wide).")] = None,
) -> None:
    """Run a rule on a random soup or a pattern; print populations, save RLE, PNG, GIF."""
    # the pattern is read first: its RLE header's rule is the default, as in 'life step'
    pattern = load_pattern(input_file) if input_file is not None else None
    the_rule = as_rule(rule or (pattern.rule if pattern is not None else None) or "p2life")
    kernel = _kernel(kernel)
    if generations < 0:
        raise BadParameterError(f"--generations {generations} is negative; expected >= 0")
    if frames < 1 or (scale is not None and scale < 1):
        raise BadParameterError("--frames and --scale must be at least 1")
    check_output(png, "--png", (".png",))
    check_output(gif, "--gif", (".gif",))
    check_output(output, "--output", ())
    torus = topology is Topology.torus
    if pattern is not None:
        cells = pattern.cells if size is None else _embed(pattern.cells, parse_size(size))
    else:
        height, width = parse_size(size or "128x128")
        if colours is None:
            colours = 1 if _is_one_colour(the_rule) else 2
        cells = random_grid(height, width, density=density, seed=seed, colours=colours)
    show = max(cells.shape) <= SHOW_LIMIT if show is None else show
    if show:
        _show(cells, "start")

    # load (or compile) the kernel on a tiny grid first, so the timing is the run's alone
    tiny = cells[:3, :3]
    if until_stable:
        run_until_stable(tiny, the_rule, torus=torus, seed=seed, max_generations=2, kernel=kernel)
    else:
        evolve(tiny, the_rule, 1, torus=torus, seed=seed, kernel=kernel)
    start = time.perf_counter()
    stop, period = "generation limit", None
    if until_stable:
        with _progress() as bar:
            task = bar.add_task("running until stable", total=generations)
            result = run_until_stable(cells, the_rule, torus=torus, seed=seed,
                                      max_generations=generations, kernel=kernel,
                                      progress=lambda g: bar.update(task, completed=g))
        final, done = result.cells, result.generation
        stop = {"cap": "generation cap reached"}.get(result.stopped, result.stopped)
        period = result.period
    else:
        final, done = cells, 0
        chunk = max(1, math.ceil(generations / 100))
        with _progress() as bar:
            task = bar.add_task("running", total=generations)
            while done < generations:
                n = min(chunk, generations - done)
                final = evolve(final, the_rule, n, torus=torus, seed=seed, generation=done,
                               kernel=kernel)
                done += n
                bar.update(task, completed=done)
    seconds = time.perf_counter() - start

    if gif is not None:
        every = max(1, math.ceil(done / max(1, frames - 1)))
        shots, current = [cells], cells
        for g in range(0, done, every):
            n = min(every, done - g)
            current = evolve(current, the_rule, n, torus=torus, seed=seed, generation=g,
                             kernel=kernel)
            shots.append(current)
        picture.save_gif(gif, shots, scale=scale)
    if png is not None:
        picture.save_png(png, final, scale=scale)
    if output is not None:
        save_pattern(output, final, rule=the_rule.name,
                     comments=[f"{the_rule.name} after {done} generations (lifearena)"])
    if show:
        _show(final, f"after {done} generations")
    console.print(_summary(the_rule, final, topology.value, done, seconds, stop, period))
    for label, path in (("GIF", gif), ("PNG", png), ("pattern", output)):
        if path is not None:
            console.print(f"wrote {label} {path}")


@app.command("step")
def step_command(
    pattern_file: Annotated[Path, typer.Argument(help="RLE (.rle) or text pattern file.")],
    generations: Annotated[int, typer.Option("--generations", "-n", help="Steps to take.")] = 1,
    rule: Annotated[str | None, typer.Option("--rule", "-r", help="Rule (default: the RLE "
                                             "header's rule, else life).")] = None,
    topology: Annotated[Topology, typer.Option(help="bounded or torus.")] = Topology.bounded,
    seed: Annotated[int, typer.Option(help="Seed of coin births.")] = 0,
    generation: Annotated[int, typer.Option(help="Number of the first generation (for coins)."
                                            )] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the result here "
                                                "(.rle for RLE, else text); default: print.")
                      ] = None,
) -> None:
    """Step a pattern file one or N generations; print it or write it."""
    if generations < 0:
        raise BadParameterError(f"--generations {generations} is negative; expected >= 0")
    check_output(output, "--output", ())
    pattern = load_pattern(pattern_file)
    the_rule = as_rule(rule or pattern.rule or "life")
    cells = evolve(pattern.cells, the_rule, generations, torus=topology is Topology.torus,
                   seed=seed, generation=generation)
    if output is None:
        typer.echo(write_text(cells), nl=False)
    else:
        save_pattern(output, cells, rule=the_rule.name,
                     comments=[f"{the_rule.name}, generation {generation + generations}"])
        one, two = population(cells)
        console.print(f"wrote {output}: {cells.shape[1]} x {cells.shape[0]}, "
                      f"population {one} + {two}")


@app.command()
def rules(
    name: Annotated[str | None, typer.Argument(help="Print this rule's full table.")] = None,
) -> None:
    """List the named rules, or print one rule as a table you can edit and load back."""
    if name is not None:
        typer.echo(as_rule(name).to_table_text(), nl=False)
        return
    table = Table(title="Named rules (also: any B.../S... string, a table text, or @FILE)")
    table.add_column("name", style="bold")
    table.add_column("rule")
    for rule_name, description in available_rules().items():
        table.add_row(rule_name, description)
    console.print(table)
