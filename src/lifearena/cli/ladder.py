"""``lifearena ladder GAME``: a rated gauntlet of a game's agents (see ``arena/ladder.py``)."""

from __future__ import annotations

import math
from pathlib import Path
from time import perf_counter
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from lifearena import caps
from lifearena.arena.game_names import game_name
from lifearena.cli.checks import (
    check_bot_command,
    check_built,
    check_output,
    split_entrants,
)
from lifearena.cli.wide_tables import literal, print_whole
from lifearena.errors import BadParameterError, LifeArenaError


def _whole(value: float, sign: str = "") -> str:
    """``value`` rounded to a whole number, never ``-0`` (a bound of -0.3 Elo is 0).

    >>> _whole(-0.3), _whole(473.6), _whole(-0.2, "+"), _whole(float("nan"))
    ('0', '474', '+0', 'nan')
    """
    if not math.isfinite(value):  # no interval (nan), or an unbounded one
        return f"{value:{sign}.0f}"
    return f"{round(value):{sign}d}"


def _entrant(text: str, parse: Any) -> Any:
    """``parse(text)``, a bad limit value (``time=abc``) refused naming the entrant."""
    try:
        return parse(text)
    except LifeArenaError as error:
        raise BadParameterError(f"--agents {text!r}: {error}") from None
    except (TypeError, ValueError):
        raise BadParameterError(f"--agents {text!r}: a limit (time, nodes, simulations, depth) "
                                "is not a number; expected e.g. alphabeta:time=0.5") from None


def ladder(
    game: Annotated[str, typer.Argument(help="The game: war-of-life, losat, "
                                       "life-for-two, queen (blocking-queen)...")],
    games: Annotated[int, typer.Option("--games", "-n", help="Start positions per pair of "
                                       "entrants (each played twice, seats swapped).", min=1,
                                       max=caps.MAX_GAMES)] = 4,
    time: Annotated[float, typer.Option("--time", "--time-per-move", help="Seconds per move "
                                        "for the default timed search entrants and for bots.",
                                        min=caps.MIN_SECONDS, max=caps.MAX_SECONDS)] = 0.2,
    agent: Annotated[list[str] | None, typer.Option(
        "--agents", "--agent", "-a", help="Entrants [label=]agent[:key=value,...], e.g. "
        "'alphabeta:time=0.5', 'mine=module:callable' (an OpenSpiel bot or a policy, "
        "docs/interop.md) or 'mine=prolog:FILE:PREDICATE' (docs/prolog.md); several separated "
        "by commas or the option repeated (default: random, the game's agents and search "
        "agents at a few strengths).")] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", help="A bot speaking the JSON-lines protocol (docs/bots.md): "
        "'name=command args' (repeat).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Games played at once "
                                         "(processes).", min=1, max=caps.MAX_WORKERS)] = 1,
    db: Annotated[Path | None, typer.Option("--db", "--results", help="SQLite results file "
                                            "storing every game; an interrupted ladder resumes "
                                            "from it.")] = None,
    run_name: Annotated[str | None, typer.Option("--name", help="Run name in the results file "
                                             "(default: ladder-GAME).")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Start the stored run afresh.")] = False,
    chart: Annotated[Path | None, typer.Option("--chart", help="Write the ladder as a PNG "
                                               "chart here.")] = None,
    max_moves: Annotated[int | None, typer.Option("--max-moves", help="Stop long games as "
                                                  "draws after this many moves.", min=1,
                                                  max=caps.MAX_MOVES)] = None,
    samples: Annotated[int, typer.Option("--bootstrap", help="Bootstrap samples for the "
                                         "rating intervals.", min=1,
                                         max=caps.MAX_BOOTSTRAP)] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap.", min=0,
                                      max=caps.MAX_SEED)] = 0,
) -> None:
    """Rate a game's agents: Elo ladder with confidence intervals.

    A round robin with paired starts and swapped seats; prints Elo (random = 0) with 95%
    bootstrap intervals, scores, a crosstable and the first-player advantage.
    """
    from lifearena.agents.bot import parse_bot_spec
    from lifearena.arena import ladder as lad
    from lifearena.arena.executor import Executor
    from lifearena.core import load_game

    check_output(chart, "--chart", (".png",))
    name = load_game(game_name(game)).info.name
    named = split_entrants(agent)
    entrants = [_entrant(a, lad.Entrant.parse) for a in named] if named is not None else \
        lad.default_entrants(name, time)
    for spec in bot or []:
        label, argv = parse_bot_spec(spec)
        check_bot_command(label, argv)
        entrants.append(lad.Entrant.bot(label, argv, per_move=time))
    if named is not None and not any(e.label == "random" for e in entrants):
        entrants.insert(0, lad.Entrant("random", "random"))
    if len(entrants) < 2:
        raise BadParameterError(f"a ladder needs at least two entrants, got only "
                                f"{entrants[0].label if entrants else 'none'}; expected "
                                "another -a AGENT")
    plan = lad.ladder_plan(len(entrants), games)
    planned = plan["total"]
    if planned > caps.MAX_TOTAL_GAMES:
        raise BadParameterError(f"--games {games:,} with {len(entrants)} entrants is "
                                f"{planned:,} games; expected at most {caps.MAX_TOTAL_GAMES:,}")
    for entrant in entrants:
        if entrant.command is None:
            check_built(entrant.label, lambda e=entrant: e.make(name, 0))
    run = None
    if db is not None:
        from lifearena.arena.storage import ResultsDB

        config = {"game": name, "entrants": [
            {"label": e.label, "agent": e.agent, "options": dict(e.options),
             "limit": None if e.limit is None else repr(e.limit),
             "command": None if e.command is None else list(e.command)} for e in entrants],
            "max_moves": max_moves}
        # the plan is stored for the readers of the file (the lab shows games done / total);
        # it may grow: a ladder run again with more starts goes on from the stored games
        run = ResultsDB(db).open_run(run_name or f"ladder-{name}", "ladder", config,
                                     fresh=fresh, plan=plan)
    console = Console()
    started = perf_counter()
    # the bar appears with the first finished game, so that an error found before any game
    # is one line on stderr, not an empty bar and then the line
    progress = Progress(console=Console(stderr=True), transient=True)
    task = progress.add_task(f"{name} ladder", total=planned,
                             completed=0 if run is None else run.count_games())

    def finished(key: str, result: Any) -> None:
        if not progress.live.is_started:
            progress.start()
        progress.advance(task)

    try:
        with Executor(workers=workers, tasks=planned) as executor:
            result = lad.run_ladder(name, entrants, games, executor=executor,
                                    on_result=finished, max_moves=max_moves,
                                    samples=samples, seed=seed, store=run)
    finally:
        if progress.live.is_started:
            progress.stop()
    already = f", {result.stored_games} already stored" if result.stored_games else ""
    console.print(f"{result.new_games} new games in {perf_counter() - started:.1f} s{already}"
                  + (f"; stored in {db}" if db is not None else ""))
    table = Table(title=f"{name} ladder ({len(result.matches)} games)")
    for column in ("rank", "agent", "Elo", "95% interval", "games", "score", "forfeits"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for rank, row in enumerate(result.rows(), start=1):
        table.add_row(str(rank), literal(row["agent"]), _whole(row["elo"]),
                      f"[{_whole(row['low'])}, {_whole(row['high'])}]", str(row["games"]),
                      f"{100 * row['score']:.1f}%", str(row["forfeits"]))
    print_whole(console, table)
    first, n, (lo, hi) = result.first_score
    adv_lo, adv_hi = result.ratings.advantage_interval or (float("nan"), float("nan"))
    console.print(f"first player scores {100 * first:.1f}% (Wilson 95% [{100 * lo:.1f}%, "
                  f"{100 * hi:.1f}%]) over {n} games; fitted first-move advantage "
                  f"{_whole(result.ratings.advantage, '+')} Elo [{_whole(adv_lo, '+')}, "
                  f"{_whole(adv_hi, '+')}]")
    console.print("crosstable (score % of the row against the column):")
    console.print(result.table.to_text([r["agent"] for r in result.rows()]), markup=False,
                  highlight=False, soft_wrap=True)
    if chart is not None:
        lad.chart(result, str(chart))
        console.print(f"chart written to {chart}")


def register(app: typer.Typer) -> None:
    """Add this module's top-level commands to the root ``app``."""
    app.command("ladder")(ladder)
