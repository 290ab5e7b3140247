"""``lifearena puzzles``: mine puzzles from games, show one, re-check the shipped ones.

* ``generate GAME`` runs the game's miner (:mod:`lifearena.puzzles.generate`) over the
  server's finished games of that game (``--db``) and then over agent-against-agent games,
  and writes the puzzles as gzipped JSON lines (by default the package's own data file);
* ``show GAME [N]`` draws the N-th puzzle (1-based) in the terminal: the board, the side to
  move, the theme, and with ``--solution`` its solutions and main line;
* ``check GAME`` re-verifies every puzzle of a file by search
  (the game's own searcher, or with ``--plain`` the plain
  :class:`~lifearena.puzzles.search.ExhaustiveSearch`): exit status 1 if one is wrong.

Bad input (an unknown game, a puzzle number out of range, an unreadable file or database) is
one line on stderr and exit status 2.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from lifearena import caps
from lifearena.arena.game_names import game_name
from lifearena.core import SIMULTANEOUS, Record, State, game_type, replay
from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.puzzles import generate as generating
from lifearena.puzzles import model
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.search import ExhaustiveSearch, Searcher, searcher

app = typer.Typer(help="Puzzles mined from games: generate, show, check.",
                  no_args_is_help=True)

MAX_GAMES = 100_000
"""Most agent games one ``generate`` may play."""
MAX_SERVER_GAMES = 100_000
"""Most finished server games one ``generate`` reads."""

GameArgument = Annotated[str, typer.Argument(
    help="The game: war-of-life or losat (or another game with a miner).")]
FileOption = Annotated[Path | None, typer.Option(
    "--file", "-f", help="A puzzles file (.jsonl.gz) instead of the shipped one.")]


def _game(text: str) -> str:
    """The registry name of a game with a puzzle miner (``war-of-life`` -> ``war_of_life``)."""
    name = game_name(text).strip().lower().replace("-", "_")
    generating.miner(name)  # refuses a game without a miner, naming those with one
    return name


def _puzzles(game: str, path: Path | None) -> tuple[Puzzle, ...]:
    """The puzzles of ``path``, or the shipped ones of ``game``; refused when there are none."""
    if path is None:
        found = model.load(game)
        if not found:
            raise BadParameterError(f"no puzzles shipped for {game}; expected a file made by "
                                    f"'lifearena puzzles generate {game}'")
        return found
    if not path.is_file():
        raise BadParameterError(f"--file {str(path)!r} is not a file; expected a puzzles "
                                "file (.jsonl.gz) made by 'lifearena puzzles generate'")
    try:
        puzzles = tuple(model.read(path))
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as error:
        if isinstance(error, BadParameterError):
            raise
        raise BadParameterError(f"--file {str(path)!r} does not read as puzzles ({error}); "
                                "expected gzipped JSON lines") from None
    wrong = [p.id for p in puzzles if p.game != game]
    if wrong:
        raise BadParameterError(f"--file {str(path)!r} holds puzzles of another game "
                                f"({wrong[0]}); expected {game} puzzles")
    return puzzles


def server_games(game: str, target: str) -> list[Record]:
    """The finished games of ``game`` in the server's store at ``target`` (a SQLite file or a
    database URL), oldest first, as records."""
    # the web store is read only here, when asked for (tests/test_import_layers.py allows it)
    from sqlalchemy.exc import SQLAlchemyError

    from lifearena.web.store import Store

    if "://" not in target and not Path(target).is_file():
        raise BadParameterError(f"--db {target!r} is not a file; expected the server's SQLite "
                                "file or a database URL")
    try:
        return _read_store(Store(target), game)
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0][:200]
        raise BadParameterError(f"--db {target!r} cannot be read ({reason}); expected the "
                                "server's SQLite file or the URL of its database") from None


def _read_store(store: Any, game: str) -> list[Record]:
    """The finished games of ``game`` in ``store`` (a web store, closed here after)."""
    try:
        listed = store.latest(True, MAX_SERVER_GAMES)
        version = game_type(game).info.rules_version
        records = []
        for item in reversed(listed):
            if item.game != game:
                continue
            try:
                row = store.get(item.id)
                if row is None or not row.moves:
                    continue
                record = Record(game, dict(row.params), row.setup, ["site", "site"],
                                list(row.moves), extra={"server_game": row.id},
                                version=version)
                replay(record)
            except LifeArenaError:
                continue  # a row that no longer reads or replays: its own page says so
            records.append(record)
        return records
    finally:
        store.close()


def _summary(console: Console, puzzles: list[Puzzle], stats: generating.Progress,
             themes: dict[str, str], out: Path) -> None:
    table = Table(title=f"{len(puzzles)} puzzles written to {out}")
    table.add_column("theme")
    table.add_column("puzzles", justify="right")
    table.add_column("ratings", justify="right")
    for theme in sorted({*themes, *stats.themes}):
        ratings = [p.rating for p in puzzles if p.theme == theme]
        span = f"{min(ratings):.0f}..{max(ratings):.0f}" if ratings else "-"
        table.add_row(theme, str(len(ratings)), span)
    console.print(table)
    ratings = [p.rating for p in puzzles]
    rating_range = f"{min(ratings):.0f}..{max(ratings):.0f}" if ratings else "-"
    minutes = stats.seconds / 60
    console.print(f"ratings {rating_range}; {stats.games} games, {stats.positions} positions "
                  f"examined in {stats.seconds:.1f} s ({stats.positions_per_second:.0f} "
                  f"positions/s, {len(puzzles) / minutes if minutes else 0:.0f} puzzles/min); "
                  f"{stats.duplicates} repeated positions left out")


@app.command()
def generate(
    game: GameArgument,
    games: Annotated[int, typer.Option("--games", "-n", help="Agent-against-agent games to "
                                       "play and mine (after the server's games).", min=0,
                                       max=MAX_GAMES)] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the agent games.", min=0,
                                      max=caps.MAX_SEED)] = 0,
    target: Annotated[int, typer.Option("--target", help="Stop at this many puzzles.", min=1,
                                        max=1_000_000)] = 500,
    db: Annotated[str | None, typer.Option("--db", help="Also mine the finished games of the "
                                           "server's store: its SQLite file or a database "
                                           "URL.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the puzzles here "
                                             "(default: the package's data file of the "
                                             "game).")] = None,
) -> None:
    """Mine puzzles from the server's games and agent games; write them as gzipped JSON
    lines."""
    name = _game(game)
    module = generating.miner(name)
    out = out or model.shipped_path(name)
    if (out.exists() and out.is_dir()) or not out.parent.is_dir():
        raise BadParameterError(f"--out {str(out)!r}: expected a file path in an existing "
                                "folder")
    served = server_games(name, db) if db else []
    console = Console(stderr=True)

    def sources() -> Iterator[Record]:
        yield from served
        yield from module.agent_games(games, seed)

    stats = generating.Progress()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[found]} puzzles"), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task(f"mining {name}", total=len(served) + games, found=0)

        def advance(progress: generating.Progress) -> None:
            bar.update(task, completed=progress.games, found=progress.puzzles)

        puzzles = generating.generate(name, sources(), target=target, progress=advance,
                                      stats=stats)
    model.write(puzzles, out)
    model.load.cache_clear()
    _summary(Console(), puzzles, stats, module.THEMES, out)


def _pick(puzzles: tuple[Puzzle, ...], number: int) -> Puzzle:
    if not 1 <= number <= len(puzzles):
        raise BadParameterError(f"puzzle {number}; expected 1..{len(puzzles)}")
    return puzzles[number - 1]


@app.command()
def show(
    game: GameArgument,
    number: Annotated[int, typer.Argument(help="Which puzzle (1 = the first).")] = 1,
    solution: Annotated[bool, typer.Option("--solution", help="Also show the solutions and "
                                           "the main line.")] = False,
    file: FileOption = None,
) -> None:
    """Draw one puzzle in the terminal."""
    name = _game(game)
    puzzles = _puzzles(name, file)
    puzzle = _pick(puzzles, number)
    state = puzzle.position()
    themes = generating.miner(name).THEMES
    side = state.info.side_names[puzzle.solver] if state.info.side_names else \
        f"player {puzzle.solver}"
    console = Console(highlight=False, markup=False)  # names and moves hold brackets
    console.print(f"Puzzle {number} of {len(puzzles)} ({puzzle.id}), rated "
                  f"{puzzle.rating:.0f}: {puzzle.theme}")
    console.print(themes.get(puzzle.theme, ""))
    players = " v ".join(puzzle.source.players)
    console.print(f"{side.capitalize()} to move and win within {puzzle.depth} "
                  f"move{'s' if puzzle.depth > 1 else ''}. (From {players}, after move "
                  f"{puzzle.ply}.)")
    console.print(str(state))
    if solution:
        console.print(f"solution{'s' if len(puzzle.solutions) > 1 else ''}: "
                      f"{', '.join(puzzle.solutions)}")
        console.print(f"main line: {' '.join(puzzle.line)}")


def check_puzzle(puzzle: Puzzle, search: Searcher | None = None, *,
                 plain: bool = False) -> str | None:
    """What is wrong with ``puzzle``, or ``None``: its solver must have a move now, its
    solutions must be exactly the winning first moves within its depth, and a line played
    out move by move must be legal and end in the solver's win.

    ``search`` judges the wins: by default the game's own searcher (the one whose meaning of
    a win the puzzle states: the queen game's palace numbers, p2life's every coin); with
    ``plain`` the plain :class:`ExhaustiveSearch`, which also checks that no win comes
    sooner (for games whose wins it defines: War of Life, Losat)."""
    search = search or (ExhaustiveSearch() if plain else searcher(puzzle.game))
    try:
        state: State = puzzle.position()
    except ValueError as error:
        return f"its position does not replay ({error})"
    current = state.current_player()
    if current not in (puzzle.solver, SIMULTANEOUS):
        return f"player {puzzle.solver} is not to move"
    found = search.winning_moves(state, puzzle.solver, puzzle.depth)
    if found != list(puzzle.solutions):
        return f"the winning moves are {found}, not {list(puzzle.solutions)}"
    if plain and puzzle.depth > 1 and search.winning_moves(state, puzzle.solver,
                                                           puzzle.depth - 1):
        return f"it is won in fewer than {puzzle.depth} moves"
    if current == SIMULTANEOUS:
        return None  # its line holds the solver's placements alone: nothing to play out
    after = state.clone()
    try:
        for move in puzzle.line:
            if after.is_terminal():
                return f"its line goes on after the game ended, at {move}"
            after.apply_move_text(move)
    except ValueError as error:
        return f"its line is not legal ({error})"
    outcome = after.outcome()
    if outcome is None or outcome.winner != puzzle.solver:
        return "its line does not end in the solver's win"
    return None


@app.command()
def check(game: GameArgument, file: FileOption = None,
          plain: Annotated[bool, typer.Option(
              "--plain", help="Judge with the plain exhaustive search over the game protocol "
              "(slow; for games whose wins it defines: War of Life, Losat) instead of the "
              "game's own searcher.")] = False) -> None:
    """Re-verify every puzzle by search; exit 1 on a wrong one."""
    name = _game(game)
    puzzles = _puzzles(name, file)
    search = ExhaustiveSearch() if plain else searcher(name)
    console = Console(stderr=True)
    bad = 0
    start = time.perf_counter()
    with Progress(TextColumn("[bold]checking"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        for puzzle in bar.track(puzzles):
            problem = check_puzzle(puzzle, search, plain=plain)
            if problem is not None:
                bad += 1
                typer.echo(f"{puzzle.id}: {problem}")
    seconds = time.perf_counter() - start
    if bad:
        typer.echo(f"{bad} of {len(puzzles)} {name} puzzles are wrong")
        raise typer.Exit(1)
    typer.echo(f"all {len(puzzles)} {name} puzzles verified ({seconds:.1f} s)")


def register(root: typer.Typer) -> None:
    """Add the ``puzzles`` group to the ``lifearena`` command."""
    root.add_typer(app, name="puzzles")
