"""``lifearena tournament GAME``: a round robin between a game's agents over ``arena/``.

It plays every pairing from the same random starts in both seat orders, stores every finished
game in SQLite (``--db``; resumes when given the same file again), spreads the games over all
cores or a Dask cluster, and prints the table, a ranking and the first-player advantage.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from lifearena import caps
from lifearena.agents.bot import parse_bot_spec
from lifearena.arena.executor import Executor
from lifearena.arena.game_names import game_name
from lifearena.arena.referee import TimeControl
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import (
    AgentSpec,
    TournamentConfig,
    TournamentReport,
    default_agents,
    default_params,
    parse_agents,
    run_tournament,
)
from lifearena.cli.checks import (
    check_bot_command,
    check_built,
    check_output,
    split_entrants,
)
from lifearena.cli.wide_tables import literal, print_whole
from lifearena.errors import BadParameterError


def _pct(rate: float, low: float, high: float) -> str:
    return f"{100 * rate:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def print_report(report: TournamentReport, console: Console) -> None:
    """The table, the ranking and the first-player advantage as rich tables, each at its
    natural width so that agent names are printed whole (:mod:`lifearena.cli.wide_tables`)."""
    cfg = report.config
    table = Table(title=f"{cfg.game}: {report.games} games, {cfg.games} per pairing "
                        f"(seed {cfg.seed})")
    for name in ("P1 strategy", "P2 strategy"):
        table.add_column(name)
    for name in ("games", "P1 wins", "P2 wins", "draws", "forfeits", "avg length",
                 "avg time (ms)"):
        table.add_column(name, justify="right")
    for r in report.table:
        table.add_row(literal(r.p1), literal(r.p2), str(r.games), str(r.p1_wins),
                      str(r.p2_wins), str(r.draws), str(r.forfeits), f"{r.avg_length:.2f}",
                      f"{1000 * r.avg_time:.3f}")
    print_whole(console, table)

    ranks = Table(title="Ranking (self-play excluded; score = wins + draws/2 per game)")
    ranks.add_column("#", justify="right")
    ranks.add_column("agent")
    for name in ("games", "wins", "draws", "losses", "score", "win rate [95% CI]"):
        ranks.add_column(name, justify="right")
    for i, r in enumerate(report.ranking, start=1):
        ranks.add_row(str(i), literal(r.agent), str(r.games), str(r.wins), str(r.draws),
                      str(r.losses), f"{r.score:.3f}", _pct(r.win_rate, r.win_low, r.win_high))
    if report.ranking:
        print_whole(console, ranks)

    first = Table(title="First-player advantage (win rate moving first vs moving second)")
    first.add_column("agent")
    for name in ("moving first [95% CI]", "moving second [95% CI]", "advantage [95% CI]"):
        first.add_column(name, justify="right")
    for r in report.first_player:
        first.add_row(literal(r.agent), _pct(r.first_rate, r.first_low, r.first_high),
                      _pct(r.second_rate, r.second_low, r.second_high),
                      f"{100 * r.advantage:+.1f} pts [{100 * r.advantage_low:+.1f}, "
                      f"{100 * r.advantage_high:+.1f}]")
    print_whole(console, first)
    wins, decisive, share, low, high = report.decisive
    console.print(f"The first player won {wins} of {decisive} decisive games: "
                  f"{_pct(share, low, high).strip()}.")
    for row in report.forfeits:
        console.print(row.describe(), markup=False, highlight=False, soft_wrap=True)


def _stop(progress: Progress) -> None:
    """Stop a bar that was started (stopping one that never was prints an empty line)."""
    if progress.live.is_started:
        progress.stop()


def parse_params(items: list[str]) -> dict[str, object]:
    """``["max_turns=200", "torus=true"]`` -> ``{"max_turns": 200, "torus": True}``.

    >>> parse_params(["max_turns=200", "rule=B3/S23"])
    {'max_turns': 200, 'rule': 'B3/S23'}
    """
    params: dict[str, object] = {}
    for item in items:
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise BadParameterError(f"--param {item!r}; expected KEY=VALUE")
        try:
            params[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            params[key.strip()] = raw
    return params


def tournament(
    game: Annotated[str, typer.Argument(help="The game, e.g. war-of-life "
                                       "(queen: blocking-queen).")],
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games per pairing and seat order (the same starts for all).",
        min=1, max=caps.MAX_GAMES)] = 100,
    agents: Annotated[list[str] | None, typer.Option(
        "--agents", "--agent", "-a",
        help="Entrants: NAME, or LABEL=NAME:key=value,...; NAME may be module:callable or "
             "file.py:callable (an OpenSpiel bot or a policy, docs/interop.md) or "
             "prolog:FILE:PREDICATE (docs/prolog.md); several separated by commas or the "
             "option repeated (default: the game's standard set, for War of Life the "
             "coursework's five).")] = None,
    db: Annotated[Path | None, typer.Option(
        "--db", "--results", help="SQLite file for the results and every game's record; "
        "giving the same file again resumes (default: kept in memory only).")] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="Run name inside the --db file (default tournament-GAME).")] = None,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Delete the stored run of that name and start over.")] = False,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Processes to use (default: all cores; 1 = serial).", min=1,
        max=caps.MAX_WORKERS)] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="Dask scheduler address (tcp://host:8786) to spread the games "
                            "over a cluster.")] = None,
    export: Annotated[list[Path] | None, typer.Option(
        "--export", "-o", help="Write the report to a .md, .csv or .json file (repeatable).")
    ] = None,
    seed: Annotated[int, typer.Option(
        "--seed", help="Master seed of the starts and the agents.", min=0,
        max=caps.MAX_SEED)] = 0,
    seats: Annotated[str, typer.Option(
        "--seats", help="'both': each pair plays both seat orders; 'one': only the "
                        "first-listed agent moves first.")] = "both",
    self_play: Annotated[bool, typer.Option(
        "--self-play/--no-self-play", help="Let each agent also play itself.")] = True,
    chunk: Annotated[int | None, typer.Option(
        "--chunk", help="Games per task (default: 50 on a fast path, else 4); part of the "
                        "configuration.", min=1, max=caps.MAX_CHUNK)] = None,
    time_per_move: Annotated[float | None, typer.Option(
        "--time-per-move", "--time", help="Seconds an agent may think per move; slower "
        "forfeits.", min=caps.MIN_SECONDS, max=caps.MAX_SECONDS)] = None,
    time_per_game: Annotated[float | None, typer.Option(
        "--time-per-game", help="Seconds an agent may think per game; slower forfeits.",
        min=caps.MIN_SECONDS, max=caps.MAX_SECONDS)] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", "-p", help="A game parameter KEY=VALUE (JSON value, else text), e.g. "
                              "max_turns=200; repeatable. Life for Two defaults to "
                              "max_turns=100 decided by population.")] = None,
    fast: Annotated[bool, typer.Option(
        "--fast/--no-fast", help="Use the game's compiled fast path where it has one.")] = True,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", help="Add a bot speaking the JSON-lines protocol (docs/bots.md), as "
                      "'NAME=COMMAND ARGS', e.g. --bot 'mine=python3 mybot.py'; repeatable. "
                      "A bot that times out, crashes or plays an illegal move forfeits.")
    ] = None,
) -> None:
    """Round robin between a game's agents, stored and resumable.

    Paired starts, both seat orders; prints the table, a ranking and the first-player
    advantage.
    """
    console = Console()
    export = export or []
    for path in export:
        check_output(path, "--export", (".md", ".markdown", ".csv", ".json"))
    if scheduler is not None and workers is not None:
        raise BadParameterError("give either --workers or --scheduler, not both")
    game = game_name(game)
    named = split_entrants(agents)
    entrants = parse_agents(named) if named is not None else default_agents(game)
    for spec in bot or []:
        label, argv = parse_bot_spec(spec)
        check_bot_command(label, argv)
        if any(e.label == label for e in entrants):
            raise BadParameterError(f"--bot {spec!r}: the name {label!r} is taken; give the "
                                    "bot another NAME=")
        entrants = (*entrants, AgentSpec(label, "bot", {"command": shlex.join(argv)}))
    control = None
    if time_per_move is not None or time_per_game is not None:
        control = TimeControl(per_move=time_per_move, total=time_per_game)
    params = {**default_params(game), **parse_params(param or [])}
    config = TournamentConfig(game, entrants, games=games, seed=seed, seats=seats,
                              self_play=self_play, params=params,
                              time_control=control, chunk=chunk, fast=fast)
    if config.total_games() > caps.MAX_TOTAL_GAMES:
        raise BadParameterError(f"--games {games:,} with {len(entrants)} agents is "
                                f"{config.total_games():,} games; expected at most "
                                f"{caps.MAX_TOTAL_GAMES:,}")
    if config.total_games() == 0:
        raise BadParameterError(f"--agents {','.join(e.label for e in entrants)} with "
                                "--no-self-play makes no game; expected at least two agents")
    for entrant in entrants:
        if entrant.name != "bot":
            check_built(entrant.label, lambda e=entrant: e.build(config.game, 0))
    executor = Executor(workers, scheduler=scheduler, tasks=config.total_blocks())
    # the results file is checked before any progress is shown or any game played
    database = ResultsDB(db) if db is not None else None
    started = time.perf_counter()
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn())
    # the bar starts at the first finished games: an error found while the results file is
    # opened is then one line, not an empty bar and a line
    progress = Progress(*columns, console=Console(stderr=True))
    task = progress.add_task(f"{config.game} on {executor.describe()}",
                             total=config.total_games())

    counts: list[int] = []  # the games already stored, then those played in this run

    def advance(new: int, total: int) -> None:
        counts.append(new)
        if not progress.live.is_started:
            progress.start()
        progress.update(task, advance=new, total=total)

    try:
        report = run_tournament(config, db=database, name=name, executor=executor,
                                progress=advance, fresh=fresh)
    except BadParameterError as error:
        if "another configuration" not in str(error):
            raise
        raise BadParameterError(f"{error} (--db FILE, --name NAME or --fresh)") from None
    except KeyboardInterrupt:
        _stop(progress)
        hint = (f"; run the same command to resume from {db}" if db is not None
                else " (no --db: nothing kept)")
        print(f"interrupted{hint}", file=sys.stderr)
        raise typer.Exit(130) from None
    finally:
        _stop(progress)
    seconds = time.perf_counter() - started
    print_report(report, console)
    stored, played = (counts[0], sum(counts[1:])) if counts else (0, 0)
    already = f", {stored} already stored" if stored else ""
    console.print(f"{played} new games in {seconds:.1f} s on {executor.describe()}{already}"
                  + (f"; {report.games} stored in {db}" if db is not None else ""))
    for path in export:
        console.print(f"wrote {report.export(path)}")
    if database is not None:
        database.close()


def register(app: typer.Typer) -> None:
    """Add this module's top-level commands to the root ``app``."""
    app.command("tournament")(tournament)
