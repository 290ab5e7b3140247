"""How the terminal commands say who won and why, in words rather than symbols.

``str(Outcome)`` is the compact form the records and tables use (``b wins (win)``); at the
end of a game the terminal says it in full: the side by the name its game gives it
(:attr:`GameInfo.side_names <lifearena.core.GameInfo.side_names>`, else ``player 1``), the
player's name where one was given, and the reason in a sentence. ``game`` is a game's
:class:`~lifearena.core.GameInfo` or its name.

>>> from lifearena.core import Outcome, Termination
>>> describe_outcome(Outcome(Termination.WIN, 0, "b"), "war_of_life", ["minimax", "random"])
'blue (minimax) wins: red (random) has no pieces left'
>>> describe_outcome(Outcome(Termination.NO_MOVES, 0, "1", "2 cannot move: queen on the "
...                          "origin"), "blocking_queen")
'player 1 wins: player 2 cannot move (queen on the origin)'
>>> describe_outcome(Outcome(Termination.EXHAUST, None, None), "war_of_life")
'draw: the move limit was reached'
"""

from __future__ import annotations

from collections.abc import Sequence

from lifearena.core import GameInfo, Outcome, Termination, load_game
from lifearena.errors import LifeArenaError

_DRAWS = {
    Termination.DRAW: "both sides died out at once",
    Termination.EXHAUST: "the move limit was reached",
    Termination.STALEMATE: "the side to move has pieces but no legal move",
    Termination.PASSES: "two passes in a row",
    Termination.LIMIT: "equal populations at the generation cap",
    Termination.FORFEIT: "both sides forfeited",
}


def _side_names(game: str | GameInfo) -> tuple[str, ...]:
    """The game's words for its sides; ``()`` for a game it does not know."""
    if isinstance(game, str):
        try:
            game = load_game(game).info
        except LifeArenaError:
            return ()
    return game.side_names


def player_name(game: str | GameInfo, player: int, labels: Sequence[str] = ()) -> str:
    """``blue (minimax)``: the side's colour and, when given and different, its label.

    >>> player_name("war_of_life", 1, ["human", "random"])
    'red (random)'
    >>> player_name("unknown_game", 0)
    'player 1'
    """
    names = _side_names(game)
    colour = names[player] if player < len(names) else f"player {player + 1}"
    label = labels[player] if player < len(labels) else ""
    return f"{colour} ({label})" if label and label != colour else colour


def describe_outcome(outcome: Outcome, game: str | GameInfo, labels: Sequence[str] = ()
                     ) -> str:
    """One sentence: who won (or that it is a draw) and why."""
    detail = outcome.detail
    if outcome.winner is None:
        reason = _DRAWS.get(outcome.termination, outcome.termination.value)
        if outcome.termination is Termination.FORFEIT or (detail and outcome.termination in (
                Termination.DRAW, Termination.PASSES)):
            reason = detail or reason
        elif detail:
            reason = f"{reason} ({detail})"
        return f"draw: {reason}"
    winner = player_name(game, outcome.winner, labels)
    loser = player_name(game, 1 - outcome.winner, labels)
    term = outcome.termination
    if term is Termination.WIN:
        why = f"{loser} has no pieces left"
    elif term is Termination.NO_MOVES:
        # the game's detail reads "2 cannot move: why"; say the loser by name instead
        why = f"{loser} cannot move"
        if ": " in detail:
            why += f" ({detail.split(': ', 1)[1]})"
    elif term is Termination.GOAL:
        why = "a stone reached the goal line"
    elif term is Termination.CAPTURES:
        why = f"{detail or 'enough captures'}"
    elif term is Termination.LIMIT:
        why = f"the larger population at the cap ({detail})" if detail else "at the cap"
    elif term is Termination.FORFEIT:
        why = f"{loser} forfeits" + (f" ({detail})" if detail else "")
    else:
        why = detail or term.value
    return f"{winner} wins: {why}"
