"""``lifearena p2life``: p2life: the Levene-Roussos two-player Life, studied and played.

Commands: ``meanfield`` (the one-step density polynomial), ``density`` (asymptotic-density
sweeps, resumable, over all cores or a Dask cluster), ``ratio`` (the loser/winner ratio
histogram), ``report`` (the Markdown reproduction report) and ``play`` (the game in the
terminal).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from lifearena import caps
from lifearena.caps import check_cells
from lifearena.cli.checks import check_output
from lifearena.cli.spec_options import spec_option
from lifearena.cli.terminal_play import (
    Display,
    Seat,
    TerminalPlay,
    make_seats,
    replay_in_terminal,
)
from lifearena.core import Outcome, Record, State
from lifearena.errors import BadParameterError
from lifearena.games.p2life import SPECS as P2LIFE_SPECS
from lifearena.params import spec_table

P2LIFE_SPEC = spec_table(P2LIFE_SPECS)

app = typer.Typer(
    help="p2life: the Levene-Roussos two-player Life, studied and played.",
    no_args_is_help=True,
)
console = Console()
DEFAULT_PS_TEXT = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0"
DEFAULT_RESULTS = Path("p2life-density.sqlite")


def _floats(text: str, what: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise BadParameterError(f"bad {what} {text!r}; expected numbers separated by commas")\
            from None
    if not values:
        raise BadParameterError(f"no {what} given; expected numbers separated by commas")
    return values


def _list(text: str, option: str) -> tuple[str, ...]:
    """The comma-separated items of ``option``'s value; an empty list is refused (it would
    be a sweep of nothing, reported as a success)."""
    items = tuple(v.strip() for v in text.split(",") if v.strip())
    if not items:
        raise BadParameterError(f"{option} {text!r} lists nothing; expected one or more values "
                                "separated by commas")
    return items


def _size(text: str) -> tuple[int, int]:
    """A lattice size ``N`` or ``WxH`` as ``(height, width)``, refused before any run when
    it is not a size or over the cap on grid cells."""
    from lifearena.studies.p2life_density import parse_size

    height, width = parse_size(text)
    check_cells(height, width, f"--size {text.strip()}")
    return height, width


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console, transient=False)


class _LazyBar:
    """Progress bars that appear at their first tick, when the total is known: a sweep
    checks its results file, scheduler and options before the first tick, and an error found
    there should be one line, not an empty 'runs 0/?' bar and then the line."""

    def __init__(self) -> None:
        self.bar: Progress | None = None
        self.tasks: dict[str, TaskID] = {}

    def tick(self, description: str, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = _progress()
            self.bar.start()
        if description not in self.tasks:
            self.tasks[description] = self.bar.add_task(description, total=total)
        self.bar.update(self.tasks[description], completed=done, total=total)

    def runs(self, done: int, total: int) -> None:
        self.tick("runs", done, total)

    def __enter__(self) -> _LazyBar:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _summary_table(summaries: list) -> Table:
    table = Table(title="asymptotic density")
    for column in ("rule", "boundary", "lattice", "p", "runs", "density", "SE", "capped",
                   "ratio>0.5"):
        table.add_column(column, justify="right")
    for s in summaries:
        table.add_row(s.rule, s.boundary, f"{s.height}x{s.width}", f"{s.p:g}", str(s.runs),
                      f"{s.density:.4f}", f"{s.density_se:.4f}", str(s.capped),
                      "-" if s.ratio_above_half is None else f"{s.ratio_above_half:.2f}")
    return table


def polynomial_lines(text: str) -> list[str]:
    """A polynomial's text one term per line, signs in a column, so that a narrow terminal
    never wraps it in the middle of a term.

    >>> polynomial_lines("21 p^3 - 63 p^4 + 105/2 p^5")
    ['    21 p^3', '  - 63 p^4', '  + 105/2 p^5']
    """
    first, *rest = re.split(r" (?=[+-] )", text.strip())
    return [f"    {first}", *(f"  {term}" for term in rest)]


@app.command()
def meanfield(
    rule: Annotated[str, typer.Option(
        help="Rule name, B.../S... string or rule table.")] = "p2life",
    colours: Annotated[int, typer.Option(
        help="Colour model of the soup: 2 = each live cell of either colour (p2life paper), 1 "
             "= one colour (Life).", min=1, max=2)] = 2,
    png: Annotated[Path | None, typer.Option(
        help="Write a plot of the polynomial with simulated one-step densities to "
             "this PNG.")] = None,
    sim_size: Annotated[int, typer.Option(help="Torus side of the simulations in the plot.",
                                          min=3, max=16_384)] = 256,
) -> None:
    """The exact one-step density polynomial of a rule, its maximum and fixed points."""
    from lifearena.studies.p2life import describe, mean_field, simulated_one_step_density

    check_output(png, "--png", (".png",))
    info = describe(rule, colours=colours)
    console.print(f"[bold]{info['rule']}[/] (colours={colours}): rho(p) =", highlight=False)
    for term in polynomial_lines(str(info["polynomial"])):
        console.print(term, highlight=False, soft_wrap=True)
    console.print(f"coefficients p^0..p^9: {', '.join(info['coefficients'])}", soft_wrap=True)
    console.print(f"maximum {info['max']:.6f} at p = {info['argmax']:.6f}; "
                  f"rho(1) = {info['value_at_1']:.6f}; fixed points in [0, 1]: "
                  f"{[round(x, 6) for x in info['fixed_points']]}", soft_wrap=True)
    if png is not None:
        from lifearena.studies.p2life_report import _plt

        plt = _plt()
        poly = mean_field(rule, colours=colours)
        grid = [i / 200 for i in range(201)]
        points = [i / 10 for i in range(1, 11)]
        sims = [simulated_one_step_density(rule, p, size=sim_size, seed=1, colours=colours)
                for p in points]
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(grid, [float(poly(x)) for x in grid], label="mean field")
        ax.plot(points, sims, "o", mfc="none", label=f"simulated, {sim_size}² torus")
        ax.set_xlabel("initial density p")
        ax.set_ylabel("density after one generation")
        ax.set_title(str(info["rule"]))
        ax.legend()
        fig.tight_layout()
        fig.savefig(png, dpi=110)
        plt.close(fig)
        console.print(f"wrote {png}")


@app.command()
def density(
    rules: Annotated[str, typer.Option("--rule", help="Rules, comma-separated.")] = "p2life",
    ps: Annotated[str, typer.Option(
        "--p", help="Initial densities, comma-separated.")] = DEFAULT_PS_TEXT,
    sizes: Annotated[str, typer.Option(
        "--size", help="Lattice sizes N or WIDTHxHEIGHT, comma-separated.")] = "256",
    boundaries: Annotated[str, typer.Option(
        "--boundary", help="torus (periodic) and/or bounded (cutoff).")] = "torus,bounded",
    runs: Annotated[int, typer.Option(help="Runs per point.", min=1, max=caps.MAX_RUNS)] = 100,
    seed: Annotated[int, typer.Option(help="Master seed; every run's seed derives from it.",
                                      min=0, max=caps.MAX_SEED)] = 0,
    max_generations: Annotated[int, typer.Option(
        help="Cap on generations per run (runs that reach it are recorded as capped).",
        min=1, max=caps.MAX_RUN_GENERATIONS)] = 20_000,
    colours: Annotated[int, typer.Option(
        help="Colour model: 2 (p2life soup) or 1 (one colour).", min=1, max=2)] = 2,
    results: Annotated[Path, typer.Option(
        "--results", "--db",
        help="SQLite results file; an interrupted sweep resumes from it.")] = DEFAULT_RESULTS,
    workers: Annotated[int | None, typer.Option(
        help="Local processes (default: every core).", min=1, max=caps.MAX_WORKERS)] = None,
    scheduler: Annotated[str | None, typer.Option(
        help="Dask scheduler address, e.g. tcp://10.0.0.1:8786.")] = None,
    chunk: Annotated[int, typer.Option(help="Runs per task sent to a worker.",
                                       min=1, max=caps.MAX_CHUNK)] = 4,
    export_path: Annotated[Path | None, typer.Option(
        "--export", help="Write results to this .csv or .json file.")] = None,
    what: Annotated[str, typer.Option(
        help="What to export: summary (per point) or runs.")] = "summary",
) -> None:
    """Asymptotic density of random soups against p (resumable sweep)."""
    from lifearena.studies.p2life_density import SweepSpec, export, summarise, sweep

    if what not in ("summary", "runs"):
        raise BadParameterError(f"bad --what {what!r}; expected summary or runs")
    # refused before the sweep, not after hours of runs
    check_output(export_path, "--export", (".csv", ".json"))
    check_output(results, "--results")
    spec = SweepSpec(rules=_list(rules, "--rule"), ps=_floats(ps, "densities"),
                     sizes=tuple(_size(s) for s in _list(sizes, "--size")),
                     boundaries=_list(boundaries, "--boundary"), runs=runs, master_seed=seed,
                     max_generations=max_generations, colours=colours)
    with _LazyBar() as bar:
        rows = sweep(spec, results, workers=workers, scheduler=scheduler, chunk_size=chunk,
                     progress=bar.runs)
    summaries = summarise(rows)
    console.print(_summary_table(summaries))
    if export_path is not None:
        export_path.write_text(export(rows if what == "runs" else summaries,
                                      export_path.suffix.lstrip(".").lower()),
                               encoding="utf-8")
        console.print(f"wrote {export_path}")


@app.command()
def ratio(
    runs: Annotated[int, typer.Option(help="Runs at each of p = 0.25, 0.5, 0.75, 1.0.",
                                      min=1, max=caps.MAX_RUNS)] = 100,
    size: Annotated[str, typer.Option(help="Lattice size N or WIDTHxHEIGHT.")] = "256",
    boundary: Annotated[str, typer.Option(help="torus (periodic) or bounded (cutoff).")] = "torus",
    seed: Annotated[int, typer.Option(help="Master seed.", min=0, max=caps.MAX_SEED)] = 0,
    max_generations: Annotated[int, typer.Option(help="Cap on generations per run.",
                                                 min=1, max=caps.MAX_RUN_GENERATIONS)] = 20_000,
    results: Annotated[Path, typer.Option(
        "--results", "--db",
        help="SQLite results file (shared with `density`; finished runs are "
             "reused).")] = DEFAULT_RESULTS,
    png: Annotated[Path, typer.Option(help="Histogram PNG to write.")] = Path("p2life-ratio.png"),
    workers: Annotated[int | None, typer.Option(
        help="Local processes (default: every core).", min=1, max=caps.MAX_WORKERS)] = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address.")] = None,
) -> None:
    """Histogram of loser/winner population ratios at the end of the runs (PNG)."""
    from lifearena.studies.p2life_density import RATIO_PS, SweepSpec, sweep
    from lifearena.studies.p2life_report import estimate, figure_ratio

    check_output(png, "--png", (".png",))
    check_output(results, "--results")
    spec = SweepSpec(ps=RATIO_PS, sizes=(_size(size),), boundaries=(boundary,),
                     runs=runs, master_seed=seed, max_generations=max_generations)
    with _LazyBar() as bar:
        rows = sweep(spec, results, workers=workers, scheduler=scheduler, progress=bar.runs)
    figure_ratio(png, rows)
    ratios = [r.ratio for r in rows if r.ratio is not None]
    above = estimate([1.0 if x > 0.5 else 0.0 for x in ratios])
    console.print(f"{len(ratios)} runs with survivors; ratio > 0.5 in "
                  f"{100 * above.value:.1f}% ± {100 * above.se:.1f}% (paper: over 69%)")
    console.print(f"wrote {png}")


@app.command()
def report(
    out: Annotated[Path, typer.Option(
        help="Directory for the Markdown and figures.")] = Path("docs"),
    name: Annotated[str, typer.Option(help="Markdown file name.")] = "p2life.md",
    runs: Annotated[int, typer.Option(help="Runs per point.", min=1, max=caps.MAX_RUNS)] = 100,
    sizes: Annotated[str, typer.Option(
        help="Lattice sizes, comma-separated; the largest is used for the ratio and Life "
             "calibration.")] = "64,128,256",
    ps: Annotated[str, typer.Option(
        "--p", help="Initial densities of the main sweep.")] = DEFAULT_PS_TEXT,
    seed: Annotated[int, typer.Option(help="Master seed.", min=0, max=caps.MAX_SEED)] = 0,
    max_generations: Annotated[int, typer.Option(help="Cap on generations per run.",
                                                 min=1, max=caps.MAX_RUN_GENERATIONS)] = 20_000,
    results: Annotated[Path | None, typer.Option(
        "--results", "--db",
        help="SQLite results file (default: next to the report); reruns resume from it.")] = None,
    workers: Annotated[int | None, typer.Option(
        help="Local processes (default: every core).", min=1, max=caps.MAX_WORKERS)] = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite a report and figures "
                                        "already in --out (default: refuse).")] = False,
) -> None:
    """Run the paper's experiments and write a Markdown report with PNG figures."""
    from lifearena.studies.p2life_report import ReportSpec, make_report

    _check_report_paths(out, name, results, force)
    spec = ReportSpec(runs=runs, ps=_floats(ps, "densities"),
                      sizes=tuple(_size(s) for s in _list(sizes, "--sizes")),
                      master_seed=seed,
                      max_generations=max_generations)
    with _LazyBar() as bar:
        path = make_report(out, spec, results=results, workers=workers, scheduler=scheduler,
                           progress=bar.tick, markdown_name=name,
                           figures_dir=Path(name).stem)
    console.print(f"wrote {path}")


def _check_report_paths(out: Path, name: str, results: Path | None, force: bool) -> None:
    """Refuse, before the experiments, a report folder or file name that cannot be written,
    or (without ``force``) a report or figures folder that is already there: the default
    ``--out docs`` in a checkout would otherwise replace the repository's own report."""
    if out.exists() and not out.is_dir():
        raise BadParameterError(f"--out {str(out)!r} is a file; expected a folder for the "
                                "report")
    if not out.exists() and not out.parent.is_dir():
        raise BadParameterError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not "
                                "exist")
    if Path(name).name != name or Path(name).suffix.lower() != ".md":
        raise BadParameterError(f"--name {name!r}; expected a file name ending in .md (no "
                                "folder: the report goes in --out)")
    check_output(results, "--results")
    if force:
        return
    for existing in (out / name, out / Path(name).stem):
        if existing.exists() and not (existing.is_dir() and not any(existing.iterdir())):
            raise BadParameterError(f"--out {str(out)!r} already holds {str(existing)!r}; "
                                    "expected a new folder, or --force to overwrite it")


@app.command()
def play(
    white: Annotated[str, typer.Option(
        help="Agent for white (w): human, random, greedy...")] = "human",
    black: Annotated[str, typer.Option(help="Agent for black (b).")] = "greedy",
    size: Annotated[int, spec_option(P2LIFE_SPEC["size"], help="Board side.")] = 12,
    density_: Annotated[float, spec_option(
        P2LIFE_SPEC["density"], "--density", help="Density of the starting soup.")] = 0.35,
    seed: Annotated[int, spec_option(P2LIFE_SPEC["seed"],
                                     help="Seed of the soup and of the coins.")] = 0,
    max_generations: Annotated[int, spec_option(
        P2LIFE_SPEC["max_generations"], help="Generations before population decides.")] = 64,
    moves: Annotated[int, spec_option(
        P2LIFE_SPEC["moves"], help="Turns (each: pass, +x,y or -x,y) per generation.")] = 1,
    bounded: Annotated[bool, typer.Option(help="A bounded board instead of a torus.")] = False,
    record: Annotated[Path | None, typer.Option(
        "--record", "--save", help="Write the game record to this file (.json for JSON, "
        "else PGN-like text).")
    ] = None,
    replay_file: Annotated[Path | None, typer.Option(
        "--replay", help="Show the game saved in this record file turn by turn instead of "
        "playing.")] = None,
) -> None:
    """Play p2life in the terminal: both sides choose at once, then a generation runs."""
    from lifearena.agents import make
    from lifearena.games.p2life import P2LifeGame

    if replay_file is not None:
        _replay(replay_file)
        return
    check_output(record, "--record")
    state = P2LifeGame(size=size, density=density_, seed=seed, torus=not bounded,
                       max_generations=max_generations, moves=moves).new_initial_state()
    names = (white, black)
    seats = make_seats(names, lambda name, p: make(name, game="p2life", seed=seed + p))
    TerminalPlay(state, seats, P2LifeDisplay(names), save=record, seed=seed).run()


class P2LifeDisplay(Display):
    """The position before each turn, both moves after it, the end; as the replay shows."""

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__(lambda line: console.print(line, highlight=False))
        self.names = names

    def start(self, state: State) -> None:
        pass

    def before_turn(self, state: State) -> None:
        _show_position(state)

    def prompt(self, state: State, player: int, seat: Seat) -> str:
        from lifearena.games.p2life import SYMBOLS

        return f"{SYMBOLS[player]} to move (pass, +x,y place, -x,y remove, quit)"

    def moved_together(self, state: State, texts: Sequence[str]) -> None:
        from lifearena.games.p2life import SYMBOLS

        console.print(" | ".join(f"{SYMBOLS[p]} ({self.names[p]}): {t}"
                                 for p, t in enumerate(texts)), highlight=False)

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        _show_end(state, self.result(state, outcome))

    def saved(self, record: Record, path: Path) -> None:
        console.print(f"wrote {path}")


def _show_position(state) -> None:  # type: ignore[no-untyped-def]
    w, b = state.populations()
    moves = state.params.get("moves", 1)
    console.print(f"\n[bold]generation {state.generation}[/] (turn {state.moved + 1} of "
                  f"{moves}): w {w}, b {b}")
    console.print(str(state), highlight=False)


def _show_end(state, result: str) -> None:  # type: ignore[no-untyped-def]
    console.print(str(state), highlight=False)
    w, b = state.populations()
    console.print(f"[bold]{escape(result)}[/] after {state.generation} "
                  f"generations; w {w}, b {b}")


class P2LifeReplayDisplay(P2LifeDisplay):
    """A saved game as ``play`` showed it, after a line naming the players and the start."""

    def __init__(self, names: tuple[str, ...], setup: str) -> None:
        super().__init__(names)
        self.setup = setup

    def start(self, state: State) -> None:
        console.print(f"{' vs '.join(self.names)}; start {self.setup}", highlight=False)


def _replay(path: Path) -> None:
    """Show a saved game turn by turn, as ``play`` shows it (every move checked first)."""
    record = Record.read(path)
    names = tuple(record.players) if len(record.players) == 2 else ("w", "b")
    replay_in_terminal(path, "p2life", P2LifeReplayDisplay(names, record.setup))
