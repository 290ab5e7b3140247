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

from lifearena import caps
from lifearena.agents import Limit, make
from lifearena.cli.checks import check_output
from lifearena.cli.spec_options import spec_option
from lifearena.cli.terminal_play import (
    HUMAN,
    Display,
    Seat,
    TerminalPlay,
    make_seats,
    replay_in_terminal,
)
from lifearena.core import Outcome, State
from lifearena.games import losat
from lifearena.params import spec_table

SPEC = spec_table(losat.SPECS)

app = typer.Typer(
    help="Losat, Life One Step at a Time (19x19 Go board).",
    no_args_is_help=True,
)


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


class LosatDisplay(Display):
    """The board after every move (only the final board with ``quiet``)."""

    def __init__(self, quiet: bool) -> None:
        super().__init__(typer.echo)
        self.quiet = quiet

    def start(self, state: State) -> None:
        if not self.quiet:
            typer.echo(str(state))

    def prompt(self, state: State, player: int, seat: Seat) -> str:
        return f"{seat.label} ({losat.SYMBOLS[player]}) to move"

    def moved(self, state: State, player: int, text: str) -> None:
        assert isinstance(state, losat.LosatState)
        if not self.quiet:
            typer.echo(f"{state.plies()}. {losat.SYMBOLS[player]} {text}")
            typer.echo(str(state))

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        if self.quiet:
            typer.echo(str(state))
        typer.echo(f"result: {self.result(state, outcome)}")


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
    width: Annotated[int | None, spec_option(
        SPEC["width"], help="board width (default: 19, or the --setup position's)")] = None,
    length: Annotated[int | None, spec_option(
        SPEC["length"], help="board length (rows; default: 19, or the --setup position's)")
    ] = None,
    offset: Annotated[int, spec_option(SPEC["offset"])] = SPEC["offset"].default,
    gap: Annotated[int, spec_option(SPEC["gap"])] = SPEC["gap"].default,
    first: Annotated[str, spec_option(SPEC["first"])] = SPEC["first"].default,
    own_colour_only: Annotated[bool, spec_option(
        SPEC["own_colour_only"], help="players may change only their own colour (and "
        "capture the opponent's)")] = False,
    capture_or_more: Annotated[bool, spec_option(
        SPEC["capture_or_more"], help="capture with 3 or more opposite neighbours")] = False,
    neighbours: Annotated[int, spec_option(SPEC["neighbours"], help="8 (Moore) or 4 (von "
                                           "Neumann)")] = SPEC["neighbours"].default,
    captures_to_win: Annotated[int, spec_option(
        SPEC["captures_to_win"], help="captures that win")] = SPEC["captures_to_win"].default,
    max_moves: Annotated[int, spec_option(SPEC["max_moves"])] = SPEC["max_moves"].default,
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
    seats = make_seats(names, lambda name, i: make(name, game="losat", seed=seed + i), think)

    def hint(state: State, player: int) -> str:
        agent = make("alphabeta", game="losat", seed=0)
        return f"hint: {state.action_to_string(agent.act(state.view(player), player, think))}"

    game = TerminalPlay(state, seats, LosatDisplay(quiet), save=save, hint=hint)
    if HUMAN in names:
        typer.echo(f"moves: {state.move_help}; commands: {game.command_words()}")
    game.run()


class LosatReplayDisplay(LosatDisplay):
    """A saved game: numbered moves as recorded, the players (:attr:`labels`, the record's)
    and the result at the end."""

    def moved(self, state: State, player: int, text: str) -> None:
        assert isinstance(state, losat.LosatState)
        if not self.quiet:
            typer.echo(f"{state.plies()}. {text}")
            typer.echo(str(state))

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        if self.quiet:
            typer.echo(str(state))
        typer.echo(f"{' vs '.join(self.labels)}: {self.result(state, outcome)}")


def _replay(path: Path, quiet: bool) -> None:
    replay_in_terminal(path, "losat", LosatReplayDisplay(quiet))
