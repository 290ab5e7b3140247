"""``lifearena war-of-life``: War of Life (8x8): play, replay, test strategies.

``play`` plays in the terminal: two people (the default), a person against a strategy
(``--red minimax``) or two strategies. The board is drawn after every move with its
coordinates; pieces born in the crank are shown in capitals (``B``/``R``) and cells whose
piece died as ``x``, and a line lists both. Moves are typed ``r1,c1,r2,c2``, ``[r1,c1,r2,c2]``
or ``r1c1r2c2``; illegal input is refused with the reason and asked again. ``--layout
coursework`` draws the board as the coursework's Prolog program does. ``--save FILE`` writes
the record at the end (JSON if the name ends in ``.json``); ``replay FILE`` (or ``play
--replay FILE``) shows a saved game.

``test-strategy -n 1000 random random`` prints what the coursework's ``test_strategy/3``
prints (draws, wins for each player, longest non-exhaustive game, shortest game, average
length including exhausted games, average game time) plus 95% Wilson intervals of the rates.
A progress bar on standard error counts the games (the compiled path plays them in chunks);
``-n`` is capped at ``MAX_GAMES`` (a million games: about two minutes for random against
random, the per-game results kept in memory).
The rules live in :mod:`lifearena.games.war_of_life`; this module only parses and shows.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from lifearena import agents as agent_registry
from lifearena import caps
from lifearena.agents.bot import BotError
from lifearena.agents.war_of_life_fast import FastPlayer
from lifearena.arena.referee import play_game
from lifearena.cli.checks import check_output
from lifearena.cli.compiling import announces_compiling
from lifearena.cli.terminal_play import (
    HUMAN,
    Display,
    Seat,
    TerminalPlay,
    make_seats,
    replay_in_terminal,
)
from lifearena.core import Outcome, Record, State, Termination
from lifearena.errors import BadParameterError
from lifearena.games import war_of_life as wol

app = typer.Typer(
    help="War of Life (8x8): play, replay, test strategies.",
    no_args_is_help=True,
)

STRATEGIES = ("random", "bloodlust", "self_preservation", "land_grab", "minimax")
LAYOUTS = ("clear", "coursework", "both")
# test-strategy keeps every game's result in memory and Wilson intervals are already
# +-0.1% at a million games; more is a typo, not an experiment
MAX_GAMES = caps.MAX_GAMES
CHUNK = 1000  # games per call of the compiled path between progress updates
SHOWN = wol.WarOfLifePresentation()
"""The text boards and the status line."""


PROLOG = "prolog"
PROLOG_HELP = ("a War of Life strategy written in Prolog, FILE:PREDICATE (docs/prolog.md); "
               "name it 'prolog' as a player")


def _strategy(name: str, *, human: bool, prolog: str | None = None) -> str:
    """The player's key; ``prolog`` (the ``--prolog`` strategy) and ``prolog:FILE:PREDICATE``
    name Prolog strategies."""
    if name.strip().startswith(PROLOG + ":"):
        return name.strip()
    key = name.strip().lower().replace("-", "_")
    if key == PROLOG:
        if prolog is None:
            raise BadParameterError("player 'prolog' needs --prolog FILE:PREDICATE")
        return f"{PROLOG}:{prolog}"
    allowed = (HUMAN, *STRATEGIES) if human else STRATEGIES
    if key not in allowed:
        raise BadParameterError(f"unknown player {name!r}; expected one of {', '.join(allowed)}"
                                f", {PROLOG} (with --prolog) or {PROLOG}:FILE:PREDICATE")
    return key


def _make(name: str, seed: int, ties: str) -> agent_registry.Agent:
    """The agent for a player key of :func:`_strategy` (not human)."""
    if name.startswith(PROLOG + ":"):
        agent = agent_registry.make(name, game="war_of_life", seed=seed)
        try:
            # a file that does not load or lacks the predicate is refused before any game
            agent.check_loads()
        except BotError as error:
            raise BadParameterError(str(error)) from None
        return agent
    return agent_registry.make(name, game="war_of_life", seed=seed, ties=ties)


def _start(seed: int, position: str | None, to_move: str) -> wol.WarOfLifeState:
    if position is not None:
        return wol.from_prolog(position, to_move=to_move)
    if to_move != "b":
        raise BadParameterError("--to-move needs --position; a random start has blue to move")
    return wol.new_game(seed=seed)


def board_with_crank(state: wol.WarOfLifeState) -> str:
    """The clear board with the last crank marked: births in capitals, deaths as ``x``.

    >>> state = wol.from_prolog("[[[1,8],[4,4],[4,6]],[[6,5]]]")
    >>> _ = state.apply_move_text("1,8,1,7")
    >>> print(board_with_crank(state).splitlines()[6])
    5 | . . . . B . . . |
    """
    rows = [list(line) for line in SHOWN.board_text(state, "clear").splitlines()]
    for row, col, symbol in state.last_crank.births:
        rows[row + 1][2 + 2 * col] = symbol.upper()
    for row, col, _ in state.last_crank.deaths:
        if state.board[row - 1, col - 1] == wol.EMPTY:
            rows[row + 1][2 + 2 * col] = "x"
    return "\n".join("".join(r) for r in rows)


def _show(state: wol.WarOfLifeState, layout: str, *, describe: bool = True) -> None:
    """The board, the last move's births and deaths (unless ``describe`` is off: --quiet
    has already printed them), and the status line."""
    if layout in ("clear", "both"):
        typer.echo(board_with_crank(state))
    if layout in ("coursework", "both"):
        typer.echo(SHOWN.board_text(state, "coursework"))
    if describe and state.last_crank.move is not None:
        typer.echo(state.last_crank.describe())
    typer.echo(SHOWN.status(state))


class WarOfLifeDisplay(Display):
    """The board after every move with the crank marked, or one line per move (``quiet``)."""

    def __init__(self, layout: str, quiet: bool, header: str | None = None) -> None:
        super().__init__(typer.echo)
        self.layout, self.quiet, self.header = layout, quiet, header

    def start(self, state: State) -> None:
        if self.header is not None:
            typer.echo(self.header)
        if not self.quiet:
            _show(state, self.layout)  # type: ignore[arg-type]

    def board(self, state: State) -> None:
        _show(state, self.layout)  # type: ignore[arg-type]

    def prompt(self, state: State, player: int, seat: Seat) -> str:
        return f"{wol.SYMBOLS[player]} to move (r1,c1,r2,c2)"

    def moved(self, state: State, player: int, text: str) -> None:
        assert isinstance(state, wol.WarOfLifeState)
        if self.quiet:
            typer.echo(state.last_crank.describe())
        else:
            typer.echo(f"\nmove {state.moves_played}:")
            _show(state, self.layout)

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        assert isinstance(state, wol.WarOfLifeState)
        if self.quiet:
            _show(state, self.layout, describe=False)
        typer.echo(f"result: {self.result(state, outcome)} after {state.moves_played} moves")


@app.command()
def play(
    blue: Annotated[str, typer.Option(help="'human' or a strategy for blue (b, moves first): "
                                           + ", ".join(STRATEGIES))] = HUMAN,
    red: Annotated[str, typer.Option(help="'human' or a strategy for red (r)")] = HUMAN,
    seed: Annotated[int, typer.Option(help="seed of the random start position",
                                      min=0, max=caps.MAX_SEED)] = 0,
    position: Annotated[str | None, typer.Option(help="start here instead, in the Prolog form "
                                                      "[[[r,c],...],[[r,c],...]] (blue, red)")]
    = None,
    to_move: Annotated[str, typer.Option(help="who moves first from --position: b or r")] = "b",
    agent_seed: Annotated[int, typer.Option(help="seed of the strategies' random choices",
                                            min=0, max=caps.MAX_SEED)] = 0,
    ties: Annotated[str, typer.Option(help="strategies break ties: 'first' (coursework order) "
                                           "or 'random'")] = "first",
    layout: Annotated[str, typer.Option(help="board drawing: clear (coordinates, births and "
                                             "deaths marked), coursework, or both")] = "clear",
    save: Annotated[Path | None, typer.Option("--save", "--record",
                                              help="write the game record here at the end "
                                                   "(.json for JSON)")] = None,
    replay_file: Annotated[Path | None, typer.Option("--replay", help="show the game saved in "
                                                     "this record file instead of playing")]
    = None,
    quiet: Annotated[bool, typer.Option(help="show only the moves and the final board")]
    = False,
    prolog: Annotated[str | None, typer.Option(help=PROLOG_HELP)] = None,
) -> None:
    """Play War of Life in the terminal: people, strategies, or both."""
    if layout not in LAYOUTS:
        raise BadParameterError(f"--layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    if replay_file is not None:
        _replay(replay_file, layout, quiet)
        return
    check_output(save, "--save")
    names = (_strategy(blue, human=True, prolog=prolog),
             _strategy(red, human=True, prolog=prolog))
    seats = make_seats(names, lambda name, i: _make(name, agent_seed + i, ties))
    state = _start(seed, position, to_move)
    typer.echo(f"War of Life: b = {names[0]}, r = {names[1]}; start {state.setup()}")

    def hint(state: State, player: int) -> str:
        bot = agent_registry.make("minimax", game="war_of_life")
        return f"minimax suggests {state.action_to_string(bot.act(state.view(player), player))}"

    game = TerminalPlay(state, seats, WarOfLifeDisplay(layout, quiet), save=save, hint=hint,
                        commands={"coursework": lambda s, _: typer.echo(
                            SHOWN.board_text(s, "coursework"))},
                        record_extra={"seed": state.seed} if state.seed is not None else {})
    if HUMAN in names:
        typer.echo(f"moves: {state.move_help}; commands: {game.command_words()}")
    game.run()


def _replay(path: Path, layout: str, quiet: bool) -> None:
    record = Record.read(path)
    header = f"{' vs '.join(record.players)}; start {record.setup}"
    replay_in_terminal(path, "war_of_life", WarOfLifeDisplay(layout, quiet, header))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a record saved by 'play --save'")],
    layout: Annotated[str, typer.Option(help="clear, coursework, or both")] = "clear",
    quiet: Annotated[bool, typer.Option(help="show only the final board")] = False,
) -> None:
    """Show a saved War of Life game move by move."""
    if layout not in LAYOUTS:
        raise BadParameterError(f"--layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    _replay(file, layout, quiet)


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``).

    >>> low, high = wilson_interval(500, 1000)
    >>> round(low, 3), round(high, 3)
    (0.469, 0.531)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _progress(console: Console | None) -> Progress:
    """A bar counting games on ``console`` (standard error by default, so the table on
    standard output stays clean)."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("games"), TaskProgressColumn(), TimeElapsedColumn(),
                    TextColumn("eta"), TimeRemainingColumn(),
                    console=console or Console(stderr=True), transient=True)


def _compiled(first: str, second: str, *, ties: str, protocol: bool) -> bool:
    """Whether :func:`run_games` plays these strategies on the compiled bitboard path: the
    coursework's tie order, no Prolog strategy, and ``--protocol`` not asked for."""
    return not protocol and ties == "first" and not any(
        name.startswith(PROLOG + ":") for name in (first, second))


def run_games(first: str, second: str, games: int, seed: int, *, ties: str = "first",
              protocol: bool = False, progress: bool = False, console: Console | None = None
              ) -> list[tuple[int, object, float]]:
    """Play ``games`` games from the random starts ``seed, seed + 1, ...``; the strategies are
    seeded ``seed`` and ``seed + 1``. Returns (moves, outcome, seconds) per game. With
    ``progress`` a bar counts the games on ``console`` (default: standard error). A Prolog
    strategy (``prolog:FILE:PREDICATE``) plays through the referee, so that a failing one
    forfeits its game."""
    prolog = any(name.startswith(PROLOG + ":") for name in (first, second))
    setups = (wol.new_game(seed=seed + i).setup() for i in range(games))
    results: list[tuple[int, object, float]] = []
    chunk = CHUNK
    fast = _compiled(first, second, ties=ties, protocol=protocol)
    # the agents are made (a Prolog file loaded and checked) before the bar appears, so that
    # a strategy refused is one line, not a bar and a line
    bots = [] if fast else [_make(name, seed + i, ties) for i, name in enumerate((first, second))]
    with _progress(console) if progress else Progress(disable=True) as bar:
        task = bar.add_task(f"{first} vs {second}", total=games)
        if fast:
            player = FastPlayer((first, second), (seed, seed + 1))
            batch: list[str] = []
            for setup in setups:
                batch.append(setup)
                if len(batch) == chunk:
                    results += [(len(m), o, s) for m, o, s in player.play(batch)]
                    bar.advance(task, len(batch))
                    batch = []
            results += [(len(m), o, s) for m, o, s in player.play(batch)]
            bar.advance(task, len(batch))
        else:
            for setup in setups:
                start = time.perf_counter()
                if prolog:
                    result = play_game("war_of_life", bots, setup=setup)
                    results.append((len(result.moves), result.outcome,
                                    time.perf_counter() - start))
                else:
                    state = wol.play_all([wol.WarOfLifeState.from_setup(setup)], bots)[0]
                    results.append((state.moves_played, state.outcome(),
                                    time.perf_counter() - start))
                bar.advance(task)
    return results


@app.command("test-strategy")
@announces_compiling
def strategy_test(
    first: Annotated[str, typer.Argument(help="blue's strategy (player 1): "
                                              + ", ".join(STRATEGIES))],
    second: Annotated[str, typer.Argument(help="red's strategy (player 2)")],
    games: Annotated[int, typer.Option("-n", "--games", help="number of games",
                                       min=1, max=MAX_GAMES)] = 1000,
    seed: Annotated[int, typer.Option(help="first start seed (games use seed, seed+1, ...); "
                                           "also seeds the strategies",
                                           min=0, max=caps.MAX_SEED)] = 0,
    ties: Annotated[str, typer.Option(help="'first' (coursework order) or 'random'; random "
                                           "ties use the slower protocol path")] = "first",
    protocol: Annotated[bool, typer.Option(help="play with the agents on the game protocol "
                                                "instead of the compiled bitboard path")]
    = False,
    prolog: Annotated[str | None, typer.Option(help=PROLOG_HELP)] = None,
) -> None:
    """What the coursework's test_strategy/3 prints, with 95% Wilson intervals."""
    first = _strategy(first, human=False, prolog=prolog)
    second = _strategy(second, human=False, prolog=prolog)
    if ties not in ("first", "random"):
        raise BadParameterError(f"--ties {ties!r}; expected first or random")
    wall = time.perf_counter()
    compiled = _compiled(first, second, ties=ties, protocol=protocol)
    results = run_games(first, second, games, seed, ties=ties, protocol=protocol,
                        progress=True)
    wall = time.perf_counter() - wall
    kinds = Counter(outcome.termination for _, outcome, _ in results)  # type: ignore[attr-defined]
    wins = Counter(outcome.winner for _, outcome, _ in results)  # type: ignore[attr-defined]
    draws = games - wins[0] - wins[1]
    lengths = [n for n, _, _ in results]
    not_exhausted = [n for n, outcome, _ in results
                     if outcome.termination is not Termination.EXHAUST]  # type: ignore
    mean_time = sum(s for _, _, s in results) / games

    table = Table(title=f"{first} (b) vs {second} (r): {games} games, starts from seed {seed}")
    table.add_column("")
    table.add_column("count", justify="right")
    table.add_column("rate", justify="right")
    table.add_column("95% Wilson interval", justify="right")
    for label, count in (("draws", draws), (f"wins for player 1 (b, {first})", wins[0]),
                         (f"wins for player 2 (r, {second})", wins[1])):
        low, high = wilson_interval(count, games)
        table.add_row(label, str(count), f"{count / games:.1%}", f"{low:.1%} - {high:.1%}")
    console = Console(width=100)
    console.print(table)
    detail = ", ".join(f"{kinds[t]} {t.value}" for t in (Termination.DRAW, Termination.EXHAUST,
                                                         Termination.STALEMATE))
    console.print(f"draws by kind: {detail}")
    console.print(f"longest (non-exhaustive) game: "
                  f"{max(not_exhausted) if not_exhausted else 'none'}")
    console.print(f"shortest game: {min(lengths)}")
    console.print(f"average game length (including exhaustives): {sum(lengths) / games:.2f}")
    console.print(f"average game time: {mean_time * 1000:.4f} ms "
                  f"({'compiled' if compiled else 'protocol'} path; "
                  f"{wall:.2f} s in all)")
