"""``lifearena ladder GAME``: a rated gauntlet of a game's agents (see ``arena/ladder.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from lifearena.errors import BadParameterError


def _game_key(key: str) -> Any:
    """The storage key of a ladder game ``game|first|second|seed``: the pairing in sorted
    order, the start index, and the seat order."""
    from lifearena.arena.storage import GameKey

    _, first, second, seed = key.split("|")
    a, b = sorted((first, second))
    return GameKey(f"{a}|{b}", int(seed), 0 if first == a else 1)


def _ladder_key(game: str, key: Any) -> str:
    a, b = key.pairing.split("|")
    first, second = (a, b) if key.seat == 0 else (b, a)
    return f"{game}|{first}|{second}|{key.index}"


def ladder(
    game: Annotated[str, typer.Argument(help="The game: war-of-life, losat, life-for-two...")],
    games: Annotated[int, typer.Option("--games", "-n", help="Start positions per pair of "
                                       "entrants (each played twice, seats swapped).")] = 4,
    time: Annotated[float, typer.Option("--time", help="Seconds per move for the default "
                                        "timed search entrants and for bots.")] = 0.2,
    agent: Annotated[list[str] | None, typer.Option(
        "--agent", "-a", help="An entrant [label=]agent[:key=value,...], e.g. "
        "'alphabeta:time=0.5' or 'mine=module:callable' (an OpenSpiel bot or a policy, "
        "docs/interop.md) (repeat; default: random, the game's agents and search agents "
        "at a few strengths).")] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", help="A bot speaking the JSON-lines protocol (docs/bots.md): "
        "'name=command args' (repeat).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Games played at once "
                                         "(processes).")] = 1,
    db: Annotated[Path | None, typer.Option("--db", help="SQLite results file storing every "
                                            "game; an interrupted ladder resumes from it.")] = None,
    run_name: Annotated[str | None, typer.Option("--name", help="Run name in the results file "
                                             "(default: ladder-GAME).")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Start the stored run afresh.")] = False,
    chart: Annotated[Path | None, typer.Option("--chart", help="Write the ladder as a PNG "
                                               "chart here.")] = None,
    max_moves: Annotated[int | None, typer.Option("--max-moves", help="Stop long games as "
                                                  "draws after this many moves.")] = None,
    samples: Annotated[int, typer.Option("--bootstrap", help="Bootstrap samples for the "
                                         "rating intervals.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the bootstrap.")] = 0,
) -> None:
    """Rate a game's agents: Elo ladder with confidence intervals.

    A round robin with paired starts and swapped seats; prints Elo (random = 0) with 95%
    bootstrap intervals, scores, a crosstable and the first-player advantage.
    """
    from lifearena.agents.bot import parse_bot_spec
    from lifearena.arena import ladder as lad
    from lifearena.arena.executor import Executor
    from lifearena.core import load_game

    if games < 1:
        raise BadParameterError(f"--games {games}; expected at least 1")
    if time <= 0:
        raise BadParameterError(f"--time {time}; expected a positive number of seconds")
    name = load_game(game).info.name
    entrants = [lad.Entrant.parse(a) for a in agent] if agent else \
        lad.default_entrants(name, time)
    for spec in bot or []:
        label, argv = parse_bot_spec(spec)
        entrants.append(lad.Entrant.bot(label, argv, per_move=time))
    if agent and not any(e.label == "random" for e in entrants):
        entrants.insert(0, lad.Entrant("random", "random"))
    run = None
    done: dict[str, Any] = {}
    if db is not None:
        from lifearena.arena.storage import ResultsDB

        config = {"game": name, "entrants": [
            {"label": e.label, "agent": e.agent, "options": dict(e.options),
             "limit": None if e.limit is None else repr(e.limit),
             "command": None if e.command is None else list(e.command)} for e in entrants],
            "max_moves": max_moves}
        run = ResultsDB(db).open_run(run_name or f"ladder-{name}", "ladder", config,
                                     fresh=fresh)
        done = {_ladder_key(name, k): r for k, r in run.games()}
    console = Console()
    total = len(lad.schedule(name, [e.label for e in entrants], games))
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{name} ladder", total=total, completed=len(done))

        def finished(key: str, result: Any) -> None:
            if run is not None:
                run.add_games([(_game_key(key), result)])
            progress.advance(task)

        with Executor(workers=workers) as executor:
            result = lad.run_ladder(name, entrants, games, executor=executor, done=done,
                                    on_result=finished, max_moves=max_moves,
                                    samples=samples, seed=seed)
    table = Table(title=f"{name} ladder ({len(result.matches)} games)")
    for column in ("rank", "agent", "Elo", "95% interval", "games", "score", "forfeits"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for rank, row in enumerate(result.rows(), start=1):
        table.add_row(str(rank), row["agent"], f"{row['elo']:.0f}",
                      f"[{row['low']:.0f}, {row['high']:.0f}]", str(row["games"]),
                      f"{100 * row['score']:.1f}%", str(row["forfeits"]))
    console.print(table)
    first, n, (lo, hi) = result.first_score
    adv_lo, adv_hi = result.ratings.advantage_interval or (float("nan"), float("nan"))
    console.print(f"first player scores {100 * first:.1f}% (Wilson 95% [{100 * lo:.1f}%, "
                  f"{100 * hi:.1f}%]) over {n} games; fitted first-move advantage "
                  f"{result.ratings.advantage:+.0f} Elo [{adv_lo:+.0f}, {adv_hi:+.0f}]")
    console.print("crosstable (score % of the row against the column):")
    console.print(result.table.to_text([r["agent"] for r in result.rows()]), markup=False,
                  highlight=False)
    if chart is not None:
        lad.chart(result, str(chart))
        console.print(f"chart written to {chart}")


def register(app: typer.Typer) -> None:
    """Add this module's top-level commands to the root ``app``."""
    app.command("ladder")(ladder)
