"""The puzzles' side of the server's database: each puzzle's rating, each player's puzzle
rating and their tries (SQLAlchemy Core over :mod:`lifearena.web.tables`, on the same engine
as :class:`~lifearena.web.players.PlayerStore`; SQLite or PostgreSQL).

A player has **one** puzzle rating across every game's puzzles, as lichess keeps one (a
game's puzzles are few, and a rating per game would stay provisional for long). A player's
first finished try of a puzzle is rated: a Glicko-2 game (:func:`lifearena.arena.glicko2.
rate_game`, lichess's settings) between the player and the puzzle, the player scoring 1 when
solved and 0 when not, so the puzzle's rating moves too. A puzzle's rating starts, at its
first rated try, from the rating it shipped with and a deviation of
:data:`PUZZLE_DEVIATION`. Every later try of that puzzle (a retry after a failure, a second
solve) is kept, unrated.

>>> from sqlalchemy import create_engine
>>> from lifearena.web.tables import metadata
>>> from lifearena.web.players import PlayerStore
>>> engine = create_engine("sqlite://"); metadata.create_all(engine)
>>> me = PlayerStore(engine).new_anonymous()
>>> book = PuzzleStore(engine)
>>> first = book.finish(me.id, "p1", "war_of_life", 1500.0, solved=True)
>>> first.rated, first.player_after.rating > 1500, first.puzzle_after.rating < 1500
(True, True, True)
>>> book.finish(me.id, "p1", "war_of_life", 1500.0, solved=True).rated
False
>>> book.tried(me.id, "war_of_life")
{'p1': True}
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from lifearena.arena.glicko2 import LICHESS, Rating, after_time_away, rate_game
from lifearena.web.tables import puzzle_attempts, puzzle_players, puzzles

PUZZLE_DEVIATION = 300.0
"""The deviation a puzzle's shipped rating starts with (an estimate from its search, firmer
than a new player's 500)."""
DAY = 86_400.0


@dataclass(frozen=True)
class PuzzleRating:
    """A player's puzzle rating now (its deviation grown with the time since its last
    rated try), with its rated tries and the solved ones."""

    rating: Rating
    plays: int
    wins: int

    def to_json(self) -> dict[str, Any]:
        return {"rating": round(self.rating.rating), "deviation": round(self.rating.deviation),
                "provisional": self.rating.provisional(), "shown": self.rating.shown(),
                "plays": self.plays, "wins": self.wins}


@dataclass(frozen=True)
class Finished:
    """A finished try: whether it was rated and, if so, the player's and the puzzle's
    ratings before and after it."""

    rated: bool
    solved: bool
    player_before: Rating | None = None
    player_after: Rating | None = None
    puzzle_before: Rating | None = None
    puzzle_after: Rating | None = None

    def to_json(self) -> dict[str, Any]:
        def change(before: Rating | None, after: Rating | None) -> dict[str, Any] | None:
            if before is None or after is None:
                return None
            return {"before": round(before.rating), "after": round(after.rating),
                    "change": round(after.rating - before.rating),
                    "shown": after.shown()}
        return {"rated": self.rated, "player": change(self.player_before, self.player_after),
                "puzzle": change(self.puzzle_before, self.puzzle_after)}


class PuzzleStore:
    """The puzzles' tables of one database (``engine``); every method is one short
    transaction (or two, for a try that turns out not to be the first)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self._clock = clock

    # -- reading -----------------------------------------------------------------------------

    def player_rating(self, player_id: str) -> PuzzleRating:
        """The player's puzzle rating now (a new one, 1500 and 500, for a player with none)."""
        with self.engine.connect() as db:
            row = db.execute(select(puzzle_players)
                             .where(puzzle_players.c.player == player_id)).first()
        return self._player_row(row)

    def _player_row(self, row: Any) -> PuzzleRating:
        if row is None:
            return PuzzleRating(Rating.new(LICHESS), 0, 0)
        stored = Rating(row.rating, row.deviation, row.volatility)
        days = max(0.0, self._clock() - row.updated) / DAY
        return PuzzleRating(after_time_away(stored, days, LICHESS), row.plays, row.wins)

    def puzzle_rating(self, puzzle_id: str, shipped: float) -> Rating:
        """The puzzle's rating: as its tries moved it, else its ``shipped`` one."""
        with self.engine.connect() as db:
            row = db.execute(select(puzzles).where(puzzles.c.id == puzzle_id)).first()
        return _puzzle_rating(row, shipped)

    def puzzle_ratings(self, game: str) -> dict[str, float]:
        """The ratings of ``game``'s puzzles that tries have moved, by id (the others keep
        their shipped ratings)."""
        with self.engine.connect() as db:
            rows = db.execute(select(puzzles.c.id, puzzles.c.rating)
                              .where(puzzles.c.game == game)).all()
        return {str(row.id): float(row.rating) for row in rows}

    def tried(self, player_id: str, game: str | None = None) -> dict[str, bool]:
        """The puzzles the player has finished a try of (of ``game``, or any), each with
        whether any try solved it."""
        query = (select(puzzle_attempts.c.puzzle, func.max(puzzle_attempts.c.solved))
                 .where(puzzle_attempts.c.player == player_id)
                 .group_by(puzzle_attempts.c.puzzle))
        if game is not None:
            query = query.where(puzzle_attempts.c.game == game)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return {str(row[0]): bool(row[1]) for row in rows}

    def attempts(self, player_id: str, puzzle_id: str) -> list[dict[str, Any]]:
        """The player's finished tries of one puzzle, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(select(puzzle_attempts)
                              .where(and_(puzzle_attempts.c.player == player_id,
                                          puzzle_attempts.c.puzzle == puzzle_id))
                              .order_by(puzzle_attempts.c.id)).all()
        return [{"solved": bool(row.solved), "rated": bool(row.rated), "at": row.at,
                 "rating_before": row.rating_before, "rating_change": row.rating_change}
                for row in rows]

    # -- a finished try ----------------------------------------------------------------------

    def finish(self, player_id: str, puzzle_id: str, game: str, shipped: float, *,
               solved: bool) -> Finished:
        """Keep a finished try of ``puzzle_id`` (``shipped``: its rating as shipped). The
        player's first try is rated and moves both ratings, in the transaction that keeps
        it; any later one is kept unrated."""
        for _ in range(3):  # a first rating row made meanwhile by another request: again
            try:
                return self._rated(player_id, puzzle_id, game, shipped, solved)
            except IntegrityError:
                if self._has_rated(player_id, puzzle_id):
                    break
        now = self._clock()
        with self.engine.begin() as db:
            db.execute(insert(puzzle_attempts).values(
                player=player_id, puzzle=puzzle_id, game=game, solved=int(solved), rated=0,
                at=now, rating_before=None, rating_change=None))
        return Finished(False, solved)

    def _has_rated(self, player_id: str, puzzle_id: str) -> bool:
        with self.engine.connect() as db:
            return db.execute(select(puzzle_attempts.c.id).where(and_(
                puzzle_attempts.c.player == player_id, puzzle_attempts.c.puzzle == puzzle_id,
                puzzle_attempts.c.rated == 1))).first() is not None

    def _rated(self, player_id: str, puzzle_id: str, game: str, shipped: float,
               solved: bool) -> Finished:
        now = self._clock()
        with self.engine.begin() as db:
            # the rated row first: a second first try fails here, having changed nothing
            attempt = db.execute(insert(puzzle_attempts).values(
                player=player_id, puzzle=puzzle_id, game=game, solved=int(solved), rated=1,
                at=now, rating_before=None, rating_change=None)).inserted_primary_key
            assert attempt is not None
            mine_row = db.execute(select(puzzle_players)
                                  .where(puzzle_players.c.player == player_id)).first()
            mine = self._player_row(mine_row)
            its_row = db.execute(select(puzzles).where(puzzles.c.id == puzzle_id)).first()
            its = _puzzle_rating(its_row, shipped)
            mine_after, its_after = rate_game(mine.rating, its, 1.0 if solved else 0.0,
                                              LICHESS)
            values = {"rating": mine_after.rating, "deviation": mine_after.deviation,
                      "volatility": mine_after.volatility, "updated": now,
                      "plays": mine.plays + 1, "wins": mine.wins + int(solved)}
            if mine_row is None:
                db.execute(insert(puzzle_players).values(player=player_id, **values))
            else:
                db.execute(update(puzzle_players).where(puzzle_players.c.player == player_id)
                           .values(**values))
            values = {"rating": its_after.rating, "deviation": its_after.deviation,
                      "volatility": its_after.volatility, "updated": now}
            if its_row is None:
                db.execute(insert(puzzles).values(id=puzzle_id, game=game, plays=1,
                                                  wins=int(solved), **values))
            else:
                db.execute(update(puzzles).where(puzzles.c.id == puzzle_id).values(
                    plays=its_row.plays + 1, wins=its_row.wins + int(solved), **values))
            db.execute(update(puzzle_attempts).where(puzzle_attempts.c.id == attempt[0]).values(
                rating_before=mine.rating.rating,
                rating_change=mine_after.rating - mine.rating.rating))
        return Finished(True, solved, mine.rating, mine_after, its, its_after)


def _puzzle_rating(row: Any, shipped: float) -> Rating:
    if row is None:
        return Rating(shipped, PUZZLE_DEVIATION, LICHESS.volatility)
    return Rating(row.rating, row.deviation, row.volatility)
