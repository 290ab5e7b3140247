"""``lifearena life-for-two``: Life for Two (5x5, simultaneous hidden placement).

``play`` runs a game at the terminal between people (each choice typed without echo, so the
other player cannot read it), agents, or both; prints the board as placed and after every
generation; saves the record (``--save``). ``--replay`` shows a saved game turn by turn.
``--classic`` runs the 1978 BASIC program instead, reading one ``x,y`` answer per line from
standard input (echoing the answers when standard input is not a terminal, so the output
is the full transcript).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from lifearena import agents, caps
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
from lifearena.core import Outcome, Record, State, presentation_of
from lifearena.errors import BadParameterError
from lifearena.games.life_for_two import (
    SYMBOLS,
    LifeForTwo,
    LifeForTwoGame,
    cell_text,
    format_board,
)
from lifearena.games.life_for_two.classic import ClassicState, play_classic

app = typer.Typer(
    help="Life for Two (5x5, simultaneous hidden placement).",
    no_args_is_help=True,
)


def _show_turn(state: LifeForTwo, number: int) -> None:
    assert state.last_moves is not None and state.placed is not None
    chosen = ", ".join(f"{SYMBOLS[p]} chose {m}" for p, m in enumerate(state.last_moves))
    typer.echo(f"\nTurn {number}: {chosen}")
    if state.last_collisions:
        both = " ".join(cell_text(c) for c in state.last_collisions)
        typer.echo(f"both chose {both}: left empty")
    typer.echo("as placed:")
    typer.echo(format_board(state.placed))
    ones, twos = state.populations()
    typer.echo(f"after the generation (* {ones}, # {twos}):")
    typer.echo(str(state))


class LifeForTwoDisplay(Display):
    """Each turn's choices, the board as placed and after the generation."""

    def __init__(self) -> None:
        super().__init__(typer.echo)

    def prompt(self, state: State, player: int, seat: Seat) -> str:
        asked = presentation_of(state).move_prompt(state, player)
        return f"Player {player + 1} ({SYMBOLS[player]}), {asked}"

    def moved_together(self, state: State, texts: Sequence[str]) -> None:
        assert isinstance(state, LifeForTwo)
        _show_turn(state, state.move_number())

    def abandoned(self, state: State) -> None:
        typer.echo("\ngame abandoned")

    def end(self, state: State, outcome: Outcome | None = None) -> None:
        typer.echo(f"\nresult: {self.result(state, outcome)}")

    def saved(self, record: Record, path: Path) -> None:
        typer.echo(f"record saved to {path}")


class LifeForTwoReplayDisplay(LifeForTwoDisplay):
    """A saved game: the players (:attr:`labels`, the record's), the start, then every turn
    as ``play`` shows it."""

    def start(self, state: State) -> None:
        typer.echo(f"{' vs '.join(self.labels)}\nstart:\n{state}")


def _replay(path: Path) -> None:
    replay_in_terminal(path, "life_for_two", LifeForTwoReplayDisplay())


@app.command()
def play(
    player1: Annotated[str, typer.Option(
        "--player1", help="'human' or an agent name (random, greedy, nash, ...) for "
        "player 1 (*).")] = HUMAN,
    player2: Annotated[str, typer.Option(
        "--player2", help="'human' or an agent name for player 2 (#).")] = HUMAN,
    seed: Annotated[int, typer.Option(
        help="Seed of the agents (player 2 gets seed + 1).", min=0, max=caps.MAX_SEED)] = 0,
    max_turns: Annotated[int, spec_option(
        LifeForTwoGame.spec("max_turns"), help="End an undecided game after this many turns "
        "(0: no limit, as in the original).")] = 0,
    limit_result: Annotated[str, spec_option(
        LifeForTwoGame.spec("limit_result"), help="How the move limit decides: 'draw' or "
        "'population' (more pieces wins).")] = "draw",
    setup: Annotated[str, typer.Option(
        help="Start from this position instead of the empty board (rows joined by '/', "
        "then the turn number).")] = "",
    classic: Annotated[bool, typer.Option(
        "--classic", help="Run the 1978 BASIC program exactly, reading one x,y answer per "
        "line from stdin.")] = False,
    save: Annotated[Path | None, typer.Option(
        "--save", "--record", help="Write the game record here (.json for JSON, else "
        "PGN-like text).")] = None,
    replay_file: Annotated[Path | None, typer.Option(
        "--replay", help="Show a saved game turn by turn instead of playing.")] = None,
) -> None:
    """Play Life for Two: people, agents, or the classic 1978 program."""
    if replay_file is not None:
        _replay(replay_file)
        return
    check_output(save, "--save")
    if classic:
        # the 1978 program has its own rules of play and reads both people's answers from
        # stdin: an option it cannot honour is refused rather than silently ignored
        given = [f"{name} {value}" for name, value, default in (
            ("--player1", player1, HUMAN), ("--player2", player2, HUMAN), ("--seed", seed, 0),
            ("--max-turns", max_turns, 0), ("--limit-result", limit_result, "draw"),
            ("--setup", setup, "")) if value != default]
        if given:
            raise BadParameterError(f"--classic runs the 1978 two-person program, reading both "
                                    f"players' answers from stdin; it cannot take "
                                    f"{', '.join(given)}")
        program = ClassicState()
        try:
            play_classic(sys.stdin, sys.stdout, echo=not sys.stdin.isatty(), state=program)
        finally:  # the answers so far are kept, as every play command keeps its game
            if save is not None:
                record = program.record(players=["player 1", "player 2"])
                record.save(save)
                typer.echo(f"saved {len(record.moves)} moves to {save}", err=True)
        return
    game = LifeForTwoGame(max_turns=max_turns or None, limit_result=limit_result)
    state = game.state_from_setup(setup) if setup else game.new_initial_state()
    seats = make_seats((player1, player2), lambda name, player: agents.make(
        name, game="life_for_two", seed=seed + player))
    typer.echo(f"Life for Two: player 1 (*) {player1}, player 2 (#) {player2}")
    TerminalPlay(state, seats, LifeForTwoDisplay(), save=save).run()
