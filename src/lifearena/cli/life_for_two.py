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
from pathlib import Path
from typing import Annotated

import typer

from lifearena import agents
from lifearena.cli import caps
from lifearena.cli.checks import check_output, check_seed
from lifearena.core import Record, replay
from lifearena.errors import BadParameterError, ParseError
from lifearena.games.life_for_two import (
    LIMIT_RESULTS,
    SYMBOLS,
    LifeForTwo,
    cell_text,
    format_board,
)
from lifearena.games.life_for_two_classic import play_classic

app = typer.Typer(
    help="Life for Two (5x5, simultaneous hidden placement).",
    no_args_is_help=True,
)

HUMAN = "human"


def _ask_human(state: LifeForTwo, player: int, hidden: bool) -> int | None:
    """Prompt until the person types a legal choice; explain every rejection. ``None`` at the
    end of input or on 'quit'."""
    what = ("your 3 cells as x,y x,y x,y" if state.first_turn else "your cell as x,y")
    while True:
        try:
            text = typer.prompt(f"Player {player + 1} ({SYMBOLS[player]}), {what}",
                                hide_input=hidden)
        except (typer.Abort, EOFError):
            return None
        if text.strip().lower() in ("quit", "exit", "q"):
            return None
        try:
            return state.parse_choice(text, player)
        except ValueError as error:
            typer.echo(f"rejected: {error}", err=True)


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


def _make_player(name: str, seed: int) -> agents.Agent | None:
    if name.strip().lower() == HUMAN:
        return None
    return agents.make(name, game="life_for_two", seed=seed)


def _save(state: LifeForTwo, path: Path, players: tuple[str, str]) -> None:
    state.record(players=players).save(path)
    typer.echo(f"record saved to {path}")


def _replay(path: Path) -> None:
    record = Record.read(path)
    if record.game != LifeForTwo.info.name:
        raise ParseError(f"{path} records a game of {record.game!r}; expected life_for_two")
    final = replay(record)  # checks every move before anything is shown
    state = LifeForTwo.from_setup(record.setup, **record.params)
    names = " vs ".join(record.players)
    typer.echo(f"{names}\nstart:\n{state}")
    for number, item in enumerate(final.history(), start=1):
        assert isinstance(item, tuple)
        state.apply_actions(item, check=False)
        _show_turn(state, number)
    typer.echo(f"\nresult: {state.outcome() or 'unfinished'}")


@app.command()
def play(
    player1: Annotated[str, typer.Option(
        "--player1", help="'human' or an agent name (random, greedy, nash, ...) for "
        "player 1 (*).")] = HUMAN,
    player2: Annotated[str, typer.Option(
        "--player2", help="'human' or an agent name for player 2 (#).")] = HUMAN,
    seed: Annotated[int, typer.Option(
        help="Seed of the agents (player 2 gets seed + 1).", min=0, max=caps.MAX_SEED)] = 0,
    max_turns: Annotated[int, typer.Option(
        help="End an undecided game after this many turns (0: no limit, as in the "
        "original).", min=0, max=caps.MAX_MOVES)] = 0,
    limit_result: Annotated[str, typer.Option(
        help="How the move limit decides: 'draw' or 'population' (more pieces wins).")
    ] = "draw",
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
            ("--setup", setup, ""), ("--save", save, None)) if value != default]
        if given:
            raise BadParameterError(f"--classic runs the 1978 two-person program, reading both "
                                    f"players' answers from stdin; it cannot take "
                                    f"{', '.join(given)}")
        play_classic(sys.stdin, sys.stdout, echo=not sys.stdin.isatty())
        return
    if max_turns < 0:
        raise BadParameterError(f"--max-turns {max_turns} is negative; expected 0 (no limit) "
                                "or more")
    if limit_result not in LIMIT_RESULTS:
        raise BadParameterError(f"--limit-result {limit_result!r}; expected one of "
                                f"{', '.join(LIMIT_RESULTS)}")
    params = {"max_turns": max_turns or None, "limit_result": limit_result}
    state = (LifeForTwo.from_setup(setup, **params) if setup else LifeForTwo(**params))
    players = (_make_player(player1, check_seed(seed)), _make_player(player2, seed + 1))
    hidden = players[0] is None and players[1] is None
    typer.echo(f"Life for Two: player 1 (*) {player1}, player 2 (#) {player2}")
    typer.echo(str(state))
    number = 0
    while not state.is_terminal():
        number += 1
        choices: list[int | None] = []
        for player, agent in enumerate(players):
            if agent is None:
                choices.append(_ask_human(state, player, hidden))
            else:
                choices.append(agent.act(state.view(player), player))
        if None in choices:
            typer.echo("\ngame abandoned")
            break
        state.apply_actions(choices)
        _show_turn(state, number)
    typer.echo(f"\nresult: {state.outcome() or 'unfinished'}")
    if save is not None:
        _save(state, save, (player1, player2))

