"""``lifearena losat``: Losat, Life One Step at a Time (19x19 Go board).

``lifearena losat play`` plays in the terminal: person vs person (the default), person vs
agent (``--white alphabeta``), or agent vs agent; ``--save FILE`` writes the record (JSON if
the name ends in ``.json``, else the PGN-like text), ``--replay FILE`` shows a saved game.
At a person's turn type a move (``+bD4``, ``+wD4``, ``+D4`` for your own colour, ``-D4``,
``xD4``, ``pass``) or a command: ``moves`` (every legal move), ``hint`` (a suggestion from the
search agent), ``board``, ``help``, ``quit``. Bad input is refused with the reason and asked
again. The rules live in :mod:`lifearena.games.losat`; this module only parses and shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lifearena.agents import Limit, make
from lifearena.cli import caps
from lifearena.cli.checks import check_output, check_seed
from lifearena.core import Record
from lifearena.core import replay as check_record
from lifearena.errors import BadParameterError, LifeArenaError, ParseError
from lifearena.games import losat

app = typer.Typer(
    help="Losat, Life One Step at a Time (19x19 Go board).",
    no_args_is_help=True,
)

HUMAN = "human"
COMMANDS = "moves, hint, board, help, quit"


def board(state: losat.LosatState) -> str:
    """The board as the game draws it (coordinates on every edge, goal lines marked).

    >>> lines = board(losat.new_game(width=5, length=11, gap=5)).splitlines()
    >>> print(lines[1]); print(lines[11])
    11 . . O O O 11   <- b goal
     1 . X X X .  1   <- w goal
    """
    return losat.render(state)


def _params(width: int, length: int, offset: int, gap: int, first: str, own_colour_only: bool,
            capture_or_more: bool, neighbours: int, captures_to_win: int,
            max_moves: int) -> dict[str, Any]:
    return losat.check_params({
        "width": width, "length": length, "offset": offset, "gap": gap, "first": first,
        "own_colour_only": own_colour_only, "capture_or_more": capture_or_more,
        "neighbours": neighbours, "captures_to_win": captures_to_win, "max_moves": max_moves,
    })


def _grouped_moves(state: losat.LosatState) -> str:
    groups: dict[str, list[str]] = {}
    for action in state.legal_actions():
        groups.setdefault(state.move_kind(action), []).append(state.action_to_string(action))
    return "\n".join(f"  {kind:<8} {' '.join(texts)}" for kind, texts in groups.items())


def _read_move(state: losat.LosatState, name: str, hint_limit: Limit) -> int | None:
    """Ask the person to move until the input is a legal move; ``None`` on quit or EOF."""
    player = state.current_player()
    while True:
        try:
            text = input(f"{name} ({losat.SYMBOLS[player]}) to move> ").strip()
        except EOFError:
            typer.echo("")
            return None
        command = text.lower()
        if command in ("quit", "exit", "q"):
            return None
        if command in ("moves", "legal"):
            typer.echo(_grouped_moves(state))
            continue
        if command == "hint":
            agent = make("alphabeta", game="losat", seed=0)
            suggestion = agent.act(state.view(player), player, hint_limit)
            typer.echo(f"hint: {state.action_to_string(suggestion)}")
            continue
        if command == "board":
            typer.echo(board(state))
            continue
        if command in ("help", "?", ""):
            typer.echo(f"type a move (+bD4, +wD4, +D4 own colour, -D4 remove, xD4 capture, "
                       f"pass) or a command ({COMMANDS})")
            continue
        try:
            action = state.string_to_action(text, player)
            if action not in state.legal_actions():
                kind = state.move_kind(action)
                raise ParseError(f"{text!r} is not a legal {kind} here (Life's rules, superko, "
                                 "or pass only when nothing else is legal); type 'moves'")
            return action
        except LifeArenaError as error:
            typer.echo(f"refused: {error}")


def _save(state: losat.LosatState, path: Path, players: tuple[str, str]) -> None:
    record = state.record(players=players)
    record.save(path)
    typer.echo(f"saved {len(record.moves)} moves to {path}")


@app.command()
def play(
    black: Annotated[str, typer.Option(help="'human' or an agent name (random, greedy, "
                                            "alphabeta) for Black (X)")] = HUMAN,
    white: Annotated[str, typer.Option(help="'human' or an agent name for White (O)")] = HUMAN,
    limit: Annotated[str, typer.Option(help="agents' thinking limit, e.g. 'nodes=2000' or "
                                            "'time=1.5'")] = "nodes=2000",
    seed: Annotated[int, typer.Option(help="seed of the agents' random choices",
                                      min=0, max=caps.MAX_SEED)] = 0,
    setup: Annotated[str | None, typer.Option(help="start position in Losat position "
                                                   "notation (default: the two heptominoes)")]
    = None,
    width: Annotated[int | None, typer.Option(help="board width, 5..25 (default: 19, or the "
                                                   "--setup position's)", min=5, max=25)] = None,
    length: Annotated[int | None, typer.Option(help="board length (rows; default: 19, or the "
                                                    "--setup position's)", min=6, max=99)] = None,
    offset: Annotated[int, typer.Option(help="columns between the heptominoes' centres",
                                        min=-25, max=25)] = 1,
    gap: Annotated[int, typer.Option(help="empty rows between the heptominoes", min=0, max=93)] = 3,
    first: Annotated[str, typer.Option(help="who moves first: b or w")] = "b",
    own_colour_only: Annotated[bool, typer.Option(help="players may change only their own "
                                                       "colour (and capture the opponent's)")]
    = False,
    capture_or_more: Annotated[bool, typer.Option(help="capture with 3 or more opposite "
                                                       "neighbours")] = False,
    neighbours: Annotated[int, typer.Option(help="8 (Moore) or 4 (von Neumann)", min=4, max=8)] = 8,
    captures_to_win: Annotated[int, typer.Option(help="captures that win", min=1, max=1000)] = 5,
    max_moves: Annotated[int, typer.Option(help="moves after which the game is drawn",
                                           min=1, max=caps.MAX_MOVES)] = 400,
    save: Annotated[Path | None, typer.Option("--save", "--record",
                                              help="write the game record here (.json for "
                                                   "JSON)")] = None,
    replay_file: Annotated[Path | None, typer.Option("--replay", help="show the game saved in "
                                                     "this record file instead of playing")]
    = None,
    quiet: Annotated[bool, typer.Option(help="show only the final board")] = False,
) -> None:
    """Play Losat in the terminal: people, agents, or both."""
    if replay_file is not None:
        _replay(replay_file, quiet)
        return
    check_output(save, "--save")
    # the board's size comes from --setup's position unless the user asked for one
    rows, columns = losat.parse_position(setup)[0].shape if setup else (19, 19)
    width = columns if width is None else width
    length = rows if length is None else length
    params = _params(width, length, offset, gap, first, own_colour_only, capture_or_more,
                     neighbours, captures_to_win, max_moves)
    think = Limit.from_text(limit)
    state = losat.from_setup(setup, **params) if setup else losat.new_game(**params)
    names = (black.strip().lower(), white.strip().lower())
    check_seed(seed)
    agents = [None if name == HUMAN else make(name, game="losat", seed=seed + i)
              for i, name in enumerate(names)]
    if HUMAN in names:
        typer.echo(f"moves: +bD4 / +wD4 add, -D4 remove, xD4 capture, pass; commands: "
                   f"{COMMANDS}")
    if not quiet:
        typer.echo(board(state))
    while not state.is_terminal():
        player = state.current_player()
        agent = agents[player]
        if agent is None:
            action = _read_move(state, names[player], think)
            if action is None:
                typer.echo("game abandoned")
                break
        else:
            action = agent.act(state.view(player), player, think)
        text = state.action_to_string(action)
        state.apply_action(action)
        if not quiet:
            typer.echo(f"{state.plies()}. {losat.SYMBOLS[player]} {text}")
            typer.echo(board(state))
    if quiet:
        typer.echo(board(state))
    outcome = state.outcome()
    typer.echo(f"result: {outcome if outcome else 'unfinished'}")
    if save is not None:
        _save(state, save, (names[0], names[1]))


def _replay(path: Path, quiet: bool) -> None:
    record = Record.read(path)
    if record.game != "losat":
        raise BadParameterError(f"{path} holds a {record.game!r} game; expected losat")
    try:
        check_record(record)  # every move checked before anything is shown
    except LifeArenaError as error:
        raise ParseError(f"{path}: {error}") from None
    state = losat.from_setup(record.setup, **record.params)
    if not quiet:
        typer.echo(board(state))
    for number, text in enumerate(record.moves, start=1):
        try:
            state.apply_move_text(text)
        except LifeArenaError as error:
            raise ParseError(f"{path}: move {number} {text!r}: {error}") from None
        if not quiet:
            typer.echo(f"{number}. {text}")
            typer.echo(board(state))
    if quiet:
        typer.echo(board(state))
    names = " vs ".join(record.players)
    typer.echo(f"{names}: {state.outcome() or 'unfinished'}")
