"""The players of a server, stored: identities, accounts, sessions, API tokens, who holds
each seat, and ratings (SQLAlchemy Core over :mod:`lifearena.web.tables`, on the games'
database).

Every browser is a player without signing up: an **anonymous** player, made the first time
it does something that needs one (makes a game, takes a seat, chooses a name), known by a
session cookie. It may choose a display name (:mod:`lifearena.web.player_names`), and may
become an **account** (a username and an Argon2 hash of a password) keeping its id, and so
its games. An account may become a **bot** (played by a program through the bot API) before
it has played. Each built-in agent level is a **computer** player. A deleted account keeps
its games, its name replaced by nothing (shown "deleted player").

Secrets (session cookies, API tokens) are stored as their SHA-256 only: a copy of the
database lets nobody in.

>>> from sqlalchemy import create_engine
>>> from lifearena.web.tables import metadata
>>> engine = create_engine("sqlite://"); metadata.create_all(engine)
>>> book = PlayerStore(engine)
>>> me = book.new_anonymous()
>>> me.kind, me.shown
('anonymous', 'Anonymous')
>>> book.set_name(me.id, "Alice").shown
'Alice'
>>> secret = book.new_session(me.id)
>>> book.session_player(secret) == book.get(me.id)
True
>>> book.set_name(book.new_anonymous().id, "ALICE")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.web.players.NameTaken: the name 'ALICE' is taken; choose another
"""

from __future__ import annotations

import collections
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from lifearena.arena.glicko2 import LICHESS, Rating, after_time_away
from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web.database import autocommit
from lifearena.web.player_names import check_name, name_key
from lifearena.web.tables import players, rating_history, ratings, seats, sessions, tokens

ANONYMOUS, ACCOUNT, BOT, COMPUTER, DELETED = "anonymous", "account", "bot", "computer", "deleted"
"""The kinds of player."""
SCOPES = ("bot:play", "challenge:write", "board:read")
"""What an API token may be allowed: play as a bot (stream events, move, resign, draw),
challenge players and answer challenges, read games."""
MAX_TOKENS = 20
"""Most live API tokens one account may hold."""
SEEN_EVERY = 300.0
"""Seconds between writes of a session's last use (not every request writes)."""
DAY = 86_400.0
REMEMBER_FOR = 30.0
"""Seconds a session's or token's player is remembered in memory after it was read (every
change this process makes to a player, session or token forgets it at once; one made by
another process is seen within this time)."""
REMEMBERED = 20_000
"""Most sessions and tokens remembered at once (the least recently used go first)."""


class NameTaken(LifeArenaError):
    """The name is another player's (compared case-insensitively)."""


class UnknownPlayer(LifeArenaError):
    """No player of that name."""


def digest(secret: str) -> str:
    """The SHA-256 of a secret, as stored in place of it.

    >>> len(digest("x"))
    64
    """
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Player:
    """A player as pages show it."""

    id: str
    name: str | None
    kind: str
    created: float

    @property
    def shown(self) -> str:
        """The name a page shows: the chosen one, else the kind's word."""
        if self.name:
            return self.name
        return {DELETED: "deleted player"}.get(self.kind, "Anonymous")

    @property
    def has_account(self) -> bool:
        """Whether it holds an account (a person's or a bot's): what a rated game needs."""
        return self.kind in (ACCOUNT, BOT)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.shown, "kind": self.kind,
                "named": self.name is not None}


@dataclass(frozen=True)
class Token:
    """An API token as its holder's list shows it (the secret itself is shown once)."""

    id: str
    label: str
    scopes: tuple[str, ...]
    hint: str
    created: float
    used: float | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id[:16], "label": self.label, "scopes": list(self.scopes),
                "hint": self.hint, "created": self.created, "used": self.used}


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game, with its rated results."""

    rating: Rating
    games: int
    wins: int
    draws: int
    losses: int
    updated: float

    def to_json(self) -> dict[str, Any]:
        return {"rating": round(self.rating.rating), "deviation": round(self.rating.deviation),
                "provisional": self.rating.provisional(), "shown": self.rating.shown(),
                "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses}


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.kind, row.created)


class PlayerStore:
    """The players' tables of one database (``engine``); every method is one short
    transaction, safe from the event loop and from worker threads alike."""

    def __init__(self, engine: Engine, clock: Any = time.time) -> None:
        self.engine = engine
        self._autocommit = autocommit(engine)  # reads: one round trip each on PostgreSQL
        self._clock = clock
        # secret digest -> (until when, its player, a token's scopes or None for a session):
        # a page's requests and its polls would otherwise each read the database
        self._known: collections.OrderedDict[str, tuple[float, Player, tuple[str, ...] | None]]
        self._known = collections.OrderedDict()
        self._known_lock = threading.Lock()

    def _recall(self, key: str) -> tuple[Player, tuple[str, ...] | None] | None:
        with self._known_lock:
            found = self._known.get(key)
            if found is None or found[0] < time.monotonic():
                self._known.pop(key, None)
                return None
            return found[1], found[2]

    def _remember(self, key: str, player: Player, scopes: tuple[str, ...] | None) -> None:
        with self._known_lock:
            self._known[key] = (time.monotonic() + REMEMBER_FOR, player, scopes)
            self._known.move_to_end(key)
            while len(self._known) > REMEMBERED:
                self._known.popitem(last=False)

    def _forget(self, key: str | None = None, player_id: str | None = None) -> None:
        """Drop what is remembered of the secret ``key``, or of every secret of
        ``player_id`` (its name, kind or sessions changed)."""
        with self._known_lock:
            if key is not None:
                self._known.pop(key, None)
            if player_id is not None:
                for known in [k for k, (_, p, _) in self._known.items() if p.id == player_id]:
                    del self._known[known]

    # -- identities --------------------------------------------------------------------------

    def new_anonymous(self) -> Player:
        """A new anonymous player."""
        now = self._clock()
        player_id = secrets.token_urlsafe(12)
        with self.engine.begin() as db:
            db.execute(insert(players).values(id=player_id, name=None, name_key=None,
                                              kind=ANONYMOUS, password=None, created=now,
                                              seen=now))
        return Player(player_id, None, ANONYMOUS, now)

    def get(self, player_id: str) -> Player | None:
        """The player ``player_id``, or ``None``."""
        with self._autocommit.connect() as db:
            row = db.execute(select(players).where(players.c.id == player_id)).first()
        return None if row is None else _player(row)

    def by_name(self, name: str) -> Player | None:
        """The player named ``name`` (any case), or ``None``."""
        with self._autocommit.connect() as db:
            row = db.execute(select(players).where(players.c.name_key == name_key(name))
                             ).first()
        return None if row is None else _player(row)

    def named(self, player_ids: Iterable[str]) -> dict[str, Player]:
        """The players of ``player_ids`` that exist, by id."""
        wanted = list(dict.fromkeys(player_ids))
        if not wanted:
            return {}
        with self._autocommit.connect() as db:
            rows = db.execute(select(players).where(players.c.id.in_(wanted))).all()
        return {row.id: _player(row) for row in rows}

    def ensure_computer(self, player_id: str, name: str) -> Player:
        """The computer player ``player_id`` (a built-in agent level), made if missing."""
        found = self.get(player_id)
        if found is not None:
            return found
        now = self._clock()
        try:
            with self.engine.begin() as db:
                db.execute(insert(players).values(id=player_id, name=name,
                                                  name_key=name_key(name), kind=COMPUTER,
                                                  password=None, created=now, seen=now))
        except IntegrityError:  # made meanwhile by another request
            pass
        found = self.get(player_id)
        assert found is not None
        return found

    def set_name(self, player_id: str, name: str) -> Player:
        """Give ``player_id`` the display name ``name`` (checked; :class:`NameTaken` when
        another player has it in any case). Accounts keep the name they signed up with."""
        name = check_name(name)
        player = self._require(player_id)
        if player.kind not in (ANONYMOUS,):
            raise BadParameterError("an account keeps the name it signed up with")
        return self._rename(player_id, name, ANONYMOUS, None)

    def _rename(self, player_id: str, name: str, kind: str, password: str | None
                ) -> Player:
        self._forget(player_id=player_id)
        values: dict[str, Any] = {"name": name, "name_key": name_key(name), "kind": kind}
        if password is not None:
            values["password"] = password
        try:
            with self.engine.begin() as db:
                db.execute(update(players).where(players.c.id == player_id).values(**values))
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken; choose another") from None
        return self._require(player_id)

    def _require(self, player_id: str) -> Player:
        player = self.get(player_id)
        if player is None:
            raise UnknownPlayer(f"no player {player_id!r}")
        return player

    def make_account(self, player_id: str, name: str, password_hash: str) -> Player:
        """Turn the anonymous player ``player_id`` into an account named ``name`` (its own
        chosen name, or a free one) with the password hash given: its games stay its own."""
        name = check_name(name)
        player = self._require(player_id)
        if player.kind != ANONYMOUS:
            raise BadParameterError("this player already has an account; log out first")
        return self._rename(player_id, name, ACCOUNT, password_hash)

    def new_account(self, name: str, password_hash: str) -> Player:
        """A new account named ``name`` (for a browser with no player yet)."""
        return self.make_account(self.new_anonymous().id, name, password_hash)

    def password_of(self, name: str) -> tuple[Player, str] | None:
        """The account named ``name`` and its password hash, or ``None``."""
        with self._autocommit.connect() as db:
            row = db.execute(select(players).where(players.c.name_key == name_key(name))
                             ).first()
        if row is None or row.password is None or row.kind not in (ACCOUNT, BOT):
            return None
        return _player(row), str(row.password)

    def set_password(self, player_id: str, password_hash: str) -> None:
        """Store a new hash of the account's password."""
        with self.engine.begin() as db:
            db.execute(update(players).where(players.c.id == player_id)
                       .values(password=password_hash))

    def delete_account(self, player_id: str) -> Player:
        """Delete the account ``player_id``: its name and password go, its sessions and
        tokens end, its games stay (shown as a deleted player's)."""
        self._forget(player_id=player_id)
        with self.engine.begin() as db:
            db.execute(update(players).where(players.c.id == player_id).values(
                name=None, name_key=None, password=None, kind=DELETED))
            db.execute(delete(sessions).where(sessions.c.player == player_id))
            db.execute(delete(tokens).where(tokens.c.player == player_id))
        return self._require(player_id)

    def become_bot(self, player_id: str) -> Player:
        """Make the account ``player_id`` a bot account: for good, and only before it has
        played any game."""
        player = self._require(player_id)
        if player.kind == BOT:
            return player
        if player.kind != ACCOUNT:
            raise BadParameterError("only an account can become a bot account; sign up first")
        with self.engine.begin() as db:
            played = db.execute(select(func.count()).select_from(seats)
                                .where(seats.c.player == player_id)).scalar_one()
            if played:
                raise BadParameterError(f"this account has played {played} games; only an "
                                        "account that has played none can become a bot")
            db.execute(update(players).where(players.c.id == player_id).values(kind=BOT))
        self._forget(player_id=player_id)
        return self._require(player_id)

    # -- sessions ----------------------------------------------------------------------------

    def new_session(self, player_id: str) -> str:
        """A new session of ``player_id``: the secret its cookie carries."""
        secret = secrets.token_urlsafe(32)
        now = self._clock()
        with self.engine.begin() as db:
            db.execute(insert(sessions).values(id=digest(secret), player=player_id,
                                               created=now, seen=now))
        return secret

    def session_player(self, secret: str) -> Player | None:
        """The player whose session ``secret`` is, or ``None`` (unknown or ended)."""
        key = digest(secret)
        known = self._recall(key)
        if known is not None and known[1] is None:
            return known[0]
        with self._autocommit.connect() as db:
            row = db.execute(select(players, sessions.c.seen.label("session_seen"))
                             .join(sessions, sessions.c.player == players.c.id)
                             .where(sessions.c.id == key)).first()
        if row is None:
            return None
        now = self._clock()
        if now - row.session_seen > SEEN_EVERY:
            with self.engine.begin() as db:
                db.execute(update(sessions).where(sessions.c.id == key).values(seen=now))
                db.execute(update(players).where(players.c.id == row.id).values(seen=now))
        player = _player(row)
        self._remember(key, player, None)
        return player

    def end_session(self, secret: str) -> None:
        """End the session ``secret`` (logging out)."""
        self._forget(digest(secret))
        with self.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.id == digest(secret)))

    # -- API tokens --------------------------------------------------------------------------

    def new_token(self, player_id: str, label: str, scopes: Sequence[str]) -> tuple[str, Token]:
        """A new API token of the account ``player_id``: its secret (shown once) and its
        entry."""
        unknown = [scope for scope in scopes if scope not in SCOPES]
        if unknown or not scopes:
            raise BadParameterError(f"scopes {list(scopes)}; expected some of "
                                    f"{', '.join(SCOPES)}")
        player = self._require(player_id)
        if not player.has_account:
            raise BadParameterError("API tokens are for accounts; sign up first")
        if len(self.tokens_of(player_id)) >= MAX_TOKENS:
            raise BadParameterError(f"this account holds {MAX_TOKENS} tokens; revoke one "
                                    "first")
        secret = "lat_" + secrets.token_urlsafe(30)
        entry = Token(digest(secret), label, tuple(dict.fromkeys(scopes)), secret[:8],
                      self._clock(), None)
        with self.engine.begin() as db:
            db.execute(insert(tokens).values(id=entry.id, player=player_id, label=label,
                                             scopes=json.dumps(list(entry.scopes)),
                                             hint=entry.hint, created=entry.created,
                                             used=None))
        return secret, entry

    def token_player(self, secret: str) -> tuple[Player, tuple[str, ...]] | None:
        """The player a token is of and its scopes, or ``None`` (unknown or revoked)."""
        key = digest(secret)
        known = self._recall(key)
        if known is not None and known[1] is not None:
            return known[0], known[1]
        with self._autocommit.connect() as db:
            row = db.execute(select(players, tokens.c.scopes, tokens.c.used)
                             .join(tokens, tokens.c.player == players.c.id)
                             .where(tokens.c.id == key)).first()
        if row is None:
            return None
        now = self._clock()
        if row.used is None or now - row.used > SEEN_EVERY:
            with self.engine.begin() as db:
                db.execute(update(tokens).where(tokens.c.id == key).values(used=now))
        player, scopes = _player(row), tuple(json.loads(row.scopes))
        self._remember(key, player, scopes)
        return player, scopes

    def tokens_of(self, player_id: str) -> list[Token]:
        """The account's live tokens, newest first."""
        with self._autocommit.connect() as db:
            rows = db.execute(select(tokens).where(tokens.c.player == player_id)
                              .order_by(tokens.c.created.desc())).all()
        return [Token(row.id, row.label, tuple(json.loads(row.scopes)), row.hint,
                      row.created, row.used) for row in rows]

    def revoke_token(self, player_id: str, token_id: str) -> None:
        """Revoke the account's token whose id begins with ``token_id`` (as listed)."""
        for token in self.tokens_of(player_id):
            if token.id[:16] == token_id:
                self._forget(token.id)
                with self.engine.begin() as db:
                    db.execute(delete(tokens).where(tokens.c.id == token.id))
                return
        raise BadParameterError(f"no token {token_id[:20]!r} of this account")

    # -- seats -------------------------------------------------------------------------------

    def seat_all(self, game_id: str, holders: dict[int, str], game: str, rated: bool
                 ) -> None:
        """Record who holds the seats ``holders`` (seat to player id) of ``game_id``, in one
        transaction."""
        now = self._clock()
        with self.engine.begin() as db:
            db.execute(delete(seats).where(and_(seats.c.game_id == game_id,
                                                seats.c.seat.in_(list(holders)))))
            db.execute(insert(seats), [
                {"game_id": game_id, "seat": seat, "player": player_id, "game": game,
                 "rated": int(rated), "result": None, "created": now, "finished": None}
                for seat, player_id in sorted(holders.items())])

    def people_of(self, game_id: str) -> dict[int, tuple[Player, float | None, float | None]]:
        """Each seat of ``game_id``: its player, and its rating before the game and the
        change the game made (a rated game, once over), in one query."""
        with self._autocommit.connect() as db:
            rows = db.execute(select(seats.c.seat, seats.c.rating_before,
                                     seats.c.rating_change, players)
                              .join(players, players.c.id == seats.c.player)
                              .where(seats.c.game_id == game_id)).all()
        return {int(row.seat): (_player(row), row.rating_before, row.rating_change)
                for row in rows}

    def seated(self, game_id: str) -> dict[int, str]:
        """Who holds each seat of ``game_id`` (seat to player id)."""
        with self._autocommit.connect() as db:
            rows = db.execute(select(seats.c.seat, seats.c.player)
                              .where(seats.c.game_id == game_id)).all()
        return {int(row.seat): str(row.player) for row in rows}

    def games_of(self, player_id: str, *, finished: bool, game: str | None = None,
                 result: str | None = None, before: float | None = None,
                 limit: int = 20) -> list[dict[str, Any]]:
        """The player's games, newest first: those in progress, or those finished (of one
        ``game``, with one ``result``, begun before ``before``), each with its seat."""
        query = select(seats).where(seats.c.player == player_id)
        query = query.where(seats.c.finished.is_not(None) if finished
                            else seats.c.finished.is_(None))
        if game is not None:
            query = query.where(seats.c.game == game)
        if result is not None:
            query = query.where(seats.c.result == result)
        if before is not None:
            query = query.where(seats.c.created < before)
        query = query.order_by(seats.c.created.desc()).limit(limit)
        with self._autocommit.connect() as db:
            rows = db.execute(query).all()
        return [{"game_id": row.game_id, "seat": row.seat, "game": row.game,
                 "rated": bool(row.rated), "result": row.result,
                 "rating_before": row.rating_before, "rating_change": row.rating_change,
                 "created": row.created, "finished": row.finished} for row in rows]

    def counts(self, player_id: str) -> dict[str, int]:
        """The player's games: finished (and its wins, draws and losses among them; a game
        at one screen, where it held both seats, has no result) and in progress."""
        finished = seats.c.finished.is_not(None)
        games = func.count(func.distinct(seats.c.game_id))
        with self._autocommit.connect() as db:
            rows = db.execute(select(seats.c.result, func.count())
                              .where(and_(seats.c.player == player_id, finished))
                              .group_by(seats.c.result)).all()
            done = db.execute(select(games).where(and_(seats.c.player == player_id,
                                                       finished))).scalar_one()
            playing = db.execute(select(games).where(and_(seats.c.player == player_id,
                                                          ~finished))).scalar_one()
        found = {row[0]: int(row[1]) for row in rows}
        return {"games": int(done), "wins": found.get("win", 0),
                "draws": found.get("draw", 0), "losses": found.get("loss", 0),
                "playing": int(playing)}

    def finish(self, game_id: str, results: dict[int, str]) -> bool:
        """Mark the seats of ``game_id`` finished with their ``results`` (seat to ``win``,
        ``draw``, ``loss``, or absent for no result: an aborted game). ``True`` the first
        time only: the caller rates the game then, and never twice."""
        now = self._clock()
        with self.engine.begin() as db:
            changed = 0
            held = db.execute(select(seats.c.seat).where(seats.c.game_id == game_id)
                              ).scalars().all()
            for seat in held:
                changed += db.execute(
                    update(seats).where(and_(seats.c.game_id == game_id, seats.c.seat == seat,
                                             seats.c.finished.is_(None)))
                    .values(finished=now, result=results.get(seat))).rowcount
        return changed > 0

    # -- ratings -----------------------------------------------------------------------------

    def rating(self, player_id: str, game: str) -> RatingRow:
        """The player's rating in ``game`` now (its deviation grown with the time since its
        last rated game); a new rating (1500, 500) for a player with none."""
        with self._autocommit.connect() as db:
            row = db.execute(select(ratings).where(and_(ratings.c.player == player_id,
                                                        ratings.c.game == game))).first()
        now = self._clock()
        if row is None:
            return RatingRow(Rating.new(LICHESS), 0, 0, 0, 0, now)
        stored = Rating(row.rating, row.deviation, row.volatility)
        grown = after_time_away(stored, max(0.0, now - row.updated) / DAY, LICHESS)
        return RatingRow(grown, row.rated_games, row.wins, row.draws, row.losses, row.updated)

    def ratings_of(self, player_id: str) -> dict[str, RatingRow]:
        """The player's ratings, by game."""
        with self._autocommit.connect() as db:
            games = db.execute(select(ratings.c.game).where(ratings.c.player == player_id)
                               ).scalars().all()
        return {game: self.rating(player_id, game) for game in games}

    def set_rating(self, player_id: str, game: str, rating: Rating, *,
                   result: str | None = None, game_id: str | None = None) -> None:
        """Store ``player_id``'s new rating in ``game`` (after the rated game ``game_id``,
        which ended in ``result`` for it: a history point and a count), or its first
        estimate (no game)."""
        now = self._clock()
        counts = {"win": "wins", "draw": "draws", "loss": "losses"}
        with self.engine.begin() as db:
            row = db.execute(select(ratings).where(and_(ratings.c.player == player_id,
                                                        ratings.c.game == game))).first()
            values: dict[str, Any] = {"rating": rating.rating, "deviation": rating.deviation,
                                      "volatility": rating.volatility, "updated": now}
            if row is None:
                base = {"rated_games": 0, "wins": 0, "draws": 0, "losses": 0}
                if result is not None:
                    base["rated_games"], base[counts[result]] = 1, 1
                db.execute(insert(ratings).values(player=player_id, game=game, **values,
                                                  **base))
            else:
                if result is not None:
                    values["rated_games"] = row.rated_games + 1
                    values[counts[result]] = getattr(row, counts[result]) + 1
                db.execute(update(ratings).where(and_(ratings.c.player == player_id,
                                                      ratings.c.game == game))
                           .values(**values))
            if game_id is not None:
                db.execute(insert(rating_history).values(
                    player=player_id, game=game, game_id=game_id, at=now,
                    rating=rating.rating, deviation=rating.deviation))

    def note_rating_change(self, game_id: str, seat: int, before: float, change: float
                           ) -> None:
        """Keep, on the seat of a rated game, the rating before it and the change it made."""
        with self.engine.begin() as db:
            db.execute(update(seats).where(and_(seats.c.game_id == game_id,
                                                seats.c.seat == seat))
                       .values(rating_before=before, rating_change=change))

    def history(self, player_id: str, game: str, limit: int = 1000) -> list[dict[str, float]]:
        """The player's rating in ``game`` after each rated game, oldest first."""
        with self._autocommit.connect() as db:
            rows = db.execute(select(rating_history.c.at, rating_history.c.rating,
                                     rating_history.c.deviation)
                              .where(and_(rating_history.c.player == player_id,
                                          rating_history.c.game == game))
                              .order_by(rating_history.c.at.desc()).limit(limit)).all()
        return [{"at": row.at, "rating": round(row.rating, 1),
                 "deviation": round(row.deviation, 1)} for row in reversed(rows)]

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[Player, RatingRow]]:
        """The established (not provisional) ratings of ``game``, best first; people, bots
        and the computer alike."""
        with self._autocommit.connect() as db:
            rows = db.execute(select(ratings.c.player).join(players,
                                                            players.c.id == ratings.c.player)
                              .where(and_(ratings.c.game == game,
                                          ratings.c.deviation < LICHESS.provisional,
                                          players.c.kind != DELETED))
                              .order_by(ratings.c.rating.desc()).limit(4 * limit)
                              ).scalars().all()
        found = self.named(rows)
        board = [(found[player_id], self.rating(player_id, game)) for player_id in rows
                 if player_id in found]
        board = [(player, row) for player, row in board if not row.rating.provisional()]
        board.sort(key=lambda entry: -entry[1].rating.rating)
        return board[:limit]
