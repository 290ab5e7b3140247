"""``lifearena <game> rules``: a game's rules card (its presentation's
:meth:`~lifearena.core.Presentation.rules`) at the terminal, one command made the same way
for every game's group.

>>> print(picture_text({"grid": {"cells": [[0, 1], [2, 0]]}, "before": [[1, 1], [2, 0]]},
...                    ("b", "r")))
before   after
b b      . b
r .      r .
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import typer

from lifearena.cli.tournament import parse_params
from lifearena.core import get_game, presentation_of


def picture_text(picture: Mapping[str, Any], symbols: Sequence[str]) -> str:
    """A grid picture as text: the board before its generation beside the board after
    (``.`` empty, the sides' symbols); ``""`` for a picture that is no grid."""
    grid = picture.get("grid")
    if not isinstance(grid, Mapping):
        return ""
    chars = (".", *symbols)
    after = grid["cells"]
    before = picture.get("before") or after

    def row_text(row: Sequence[int]) -> str:
        return " ".join(chars[value] for value in row)

    width = max(len(row_text(after[0])) if after else 0, len("before"))
    lines = [f"{'before':<{width}}   after"]
    lines += [f"{row_text(old):<{width}}   {row_text(new)}"
              for old, new in zip(before, after, strict=True)]
    return "\n".join(lines)


def add_rules_command(group: typer.Typer, game: str) -> None:
    """Give ``group`` (a game's sub-command group) a ``rules`` command printing ``game``'s
    rules card under the parameters given with ``--param``."""

    @group.command("rules", help="Print the game's rules on one card: your move, the rule of "
                   "Life it runs, how to win, and a small example.")
    def rules(
        param: Annotated[list[str] | None, typer.Option(
            "--param", "-p", help="A game parameter KEY=VALUE (JSON value, else text), e.g. "
            "torus=false; the card is worded for them.")] = None,
    ) -> None:
        state = get_game(game, parse_params(param or [])).new_initial_state()
        card = presentation_of(state).rules(state)
        typer.echo(card.to_text())
        drawn = picture_text(card.picture, state.info.player_symbols)
        if drawn:
            typer.echo("\n" + drawn)
        typer.echo(f"\nLesson: {card.lesson} on a lifearena server ('lifearena serve').")
