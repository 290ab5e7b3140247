"""Rating the site's games: who played, what each seat scored, and the Glicko-2 update.

A game is **rated** when both seats are held by accounts (people or bots) or one by an
account and the other by the computer at one of its levels, and its maker asked for a rated
game; everything else is casual and changes nobody's rating. When a rated game ends, each
side's rating in that game is updated by :func:`lifearena.arena.glicko2.rate_game` with
lichess's settings (each game its own rating period, after the deviation has grown for the
time away), once: the seats' ``finished`` mark makes a second call change nothing. An
aborted game has no result and rates nobody.

Each built-in agent level of the computer is a player of its own (``computer-easy``, ...),
with a rating per game that its rated games against people and bots move. Its first rating
comes from the ladder (``computer_ratings.json`` beside this module, made by
``scripts/estimate_computer_ratings.py``; ``docs/ratings.md`` says how); a game the file
does not cover starts at 1500 with deviation 350.

>>> results_of({"termination": "win", "winner": 1, "winner_symbol": "r", "detail": ""})
{0: 'loss', 1: 'win'}
>>> results_of({"termination": "aborted", "winner": None, "winner_symbol": None,
...             "detail": ""}) is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lifearena.arena.glicko2 import LICHESS, Rating, rate_game
from lifearena.core import Outcome, Termination
from lifearena.web.players import PlayerStore

COMPUTER_RATINGS = Path(__file__).with_name("computer_ratings.json")
"""The ladder's first estimate of each computer level's rating, by game then level."""
COMPUTER_PREFIX = "computer-"
UNKNOWN_COMPUTER = Rating(1500.0, 350.0, LICHESS.volatility)
"""A computer level's first rating in a game the ladder's file does not cover."""


def results_of(outcome: dict[str, Any] | None) -> dict[int, str] | None:
    """Each seat's result (``win``, ``draw``, ``loss``) of a stored outcome; ``None`` for an
    aborted game or none."""
    if outcome is None:
        return None
    ended = Outcome.from_dict(outcome)
    if ended.termination == Termination.ABORTED:
        return None
    if ended.winner is None:
        return {0: "draw", 1: "draw"}
    return {seat: "win" if seat == ended.winner else "loss" for seat in (0, 1)}


SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}
MIN_RATED_MOVES = 2
"""Moves a rated game must have for its result to count (a game resigned or lost on time
before each side moved once is kept, unrated, as lichess aborts such games)."""


def computer_id(level: str) -> str:
    """The player id of the computer at ``level``.

    >>> computer_id("hard")
    'computer-hard'
    """
    return COMPUTER_PREFIX + level


def read_estimates(text: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The levels' estimates in the text of ``computer_ratings.json``, by game then level.

    Keys starting with ``_`` say how the file was made (``_about``: the command, the date,
    the games per pairing, the time scale) and are no game or level; a level without a
    rating is skipped, so a partial or newer file never gives a level a rating it lacks.

    >>> text = '{"_about": {"runs": {}}, "losat": {"easy": {"rating": 1012.5, ' \\
    ...        '"deviation": 120.0, "agent": "greedy"}, "_note": "x", "hard": {}}}'
    >>> read_estimates(text)
    {'losat': {'easy': {'rating': 1012.5, 'deviation': 120.0, 'agent': 'greedy'}}}
    """
    data = json.loads(text)
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for game, levels in data.items():
        if game.startswith("_") or not isinstance(levels, dict):
            continue
        found[game] = {level: entry for level, entry in levels.items()
                       if not level.startswith("_") and isinstance(entry, dict)
                       and "rating" in entry and "deviation" in entry}
    return found


@cache
def ladder_estimates() -> dict[str, dict[str, dict[str, Any]]]:
    """The ladder's estimates of :data:`COMPUTER_RATINGS` (``{}`` when the file is
    missing): :func:`read_estimates` of it, read once."""
    if not COMPUTER_RATINGS.exists():
        return {}
    return read_estimates(COMPUTER_RATINGS.read_text())


def first_computer_rating(game: str, level: str) -> Rating:
    """The rating the computer at ``level`` starts ``game`` with: the ladder's estimate
    (``random`` is the ladder's anchor, fixed at 800), or :data:`UNKNOWN_COMPUTER`.

    >>> first_computer_rating("war_of_life", "random").rating
    800.0
    >>> first_computer_rating("_about", "random") == UNKNOWN_COMPUTER
    True
    """
    found = ladder_estimates().get(game, {}).get(level)
    if found is None:
        return UNKNOWN_COMPUTER
    return Rating(float(found["rating"]), float(found["deviation"]), LICHESS.volatility)


@dataclass
class Ratings:
    """The site's ratings over its players' store."""

    book: PlayerStore

    def computer(self, game: str, level: str) -> str:
        """The computer player of ``level``, made (and its rating in ``game`` first
        estimated) when missing; its id."""
        player_id = computer_id(level)
        self.book.ensure_computer(player_id, player_id)
        if game not in self.book.ratings_of(player_id):
            self.book.set_rating(player_id, game, first_computer_rating(game, level))
        return player_id

    def finish(self, game_id: str, game: str, rated: bool,
               outcome: dict[str, Any] | None, moves: int = MIN_RATED_MOVES
               ) -> dict[int, float] | None:
        """Close the seats of the finished game ``game_id`` and, if it is rated, has a
        result and lasted ``moves`` >= :data:`MIN_RATED_MOVES`, update both sides' ratings
        in ``game``: the change of each seat's rating, or ``None`` when nothing was rated
        (or it was already done)."""
        results = results_of(outcome)
        seated = self.book.seated(game_id)
        if len(set(seated.values())) < 2:  # one player on both seats: no result for it
            results = None
        if not self.book.finish(game_id, results or {}):
            return None
        if not rated or results is None or set(seated) != {0, 1} or moves < MIN_RATED_MOVES:
            return None
        first, second = (self.book.rating(seated[seat], game).rating for seat in (0, 1))
        new_first, new_second = rate_game(first, second, SCORES[results[0]], LICHESS)
        changes = {}
        for seat, before, after in ((0, first, new_first), (1, second, new_second)):
            self.book.set_rating(seated[seat], game, after, result=results[seat],
                                 game_id=game_id)
            changes[seat] = after.rating - before.rating
            self.book.note_rating_change(game_id, seat, before.rating, changes[seat])
        return changes

    def computer_levels(self, game: str, levels: list[str]) -> dict[str, dict[str, Any]]:
        """The computer's rating at each of ``levels`` in ``game`` (as the home page lists
        them: "easy 1210")."""
        shown = {}
        for level in levels:
            player_id = self.computer(game, level)
            row = self.book.rating(player_id, game)
            shown[level] = {"player": player_id, **row.to_json()}
        return shown
