"""Every table of the server's database, as SQLAlchemy Core ``Table`` objects on one
:data:`metadata`: the games (:mod:`lifearena.web.store`) and the players beside them (their
identities, sessions, API tokens, ratings and the seats they hold), and the puzzles' ratings
and attempts (:mod:`lifearena.web.puzzle_store`).

The schema of a database on disk is made and brought up to date by Alembic's migrations
(:mod:`lifearena.web.database`); these tables are what the code reads and writes.

>>> sorted(metadata.tables)  # doctest: +NORMALIZE_WHITESPACE
['games', 'players', 'puzzle_attempts', 'puzzle_players', 'puzzles', 'rating_history',
 'ratings', 'seats', 'sessions', 'tokens']
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    text,
)

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", Text, primary_key=True),
    Column("game", Text, nullable=False),
    Column("params", Text, nullable=False),
    Column("setup", Text, nullable=False),
    Column("opponent", Text, nullable=False),
    Column("tokens", Text, nullable=False),
    Column("moves", Text, nullable=False, server_default="[]"),
    Column("pending", Text, nullable=False, server_default="{}"),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("invites", Text, nullable=False, server_default="{}"),
    Column("cancelled", Integer, nullable=False, server_default="0"),
    Column("status", Text, nullable=False, server_default="unknown"),
    Column("outcome", Text, nullable=False, server_default="null"),
    Column("ending", Text, nullable=False, server_default="null"),
    Column("clock", Text, nullable=False, server_default="null"),
    Column("offers", Text, nullable=False, server_default="{}"),
    Column("fence", Integer, nullable=False, server_default="0"),
    Index("games_by_status", "status", "updated"),
)
"""One row per game: what rebuilds it exactly (:class:`lifearena.web.store.GameRow`);
``fence``: the highest lease token that wrote it (replicas, :mod:`lifearena.web.leases`)."""

players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=True),
    Column("name_key", String(40), nullable=True, unique=True),
    Column("kind", String(16), nullable=False),
    Column("password", Text, nullable=True),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)
"""Every player: ``kind`` is ``anonymous`` (a browser that has not signed up), ``account``
(a username and a password), ``bot`` (an account played by a program through the bot API),
``computer`` (a built-in agent level) or ``deleted`` (an account its holder deleted: its
games stay, under no name). ``name`` is the display name (``None`` until an anonymous player
chooses one), ``name_key`` its case-folded form, unique; ``password`` an Argon2 hash."""

sessions = Table(
    "sessions", metadata,
    Column("id", String(64), primary_key=True),
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Index("sessions_by_player", "player"),
)
"""A browser's session: ``id`` is the SHA-256 of the secret in its cookie (the secret itself
is stored nowhere)."""

tokens = Table(
    "tokens", metadata,
    Column("id", String(64), primary_key=True),
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("label", String(80), nullable=False),
    Column("scopes", Text, nullable=False),
    Column("hint", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("used", Float, nullable=True),
    Index("tokens_by_player", "player"),
)
"""A personal API token: ``id`` is the SHA-256 of the token (shown once, when made),
``scopes`` a JSON list, ``hint`` its first characters (to tell tokens apart in a list)."""

ratings = Table(
    "ratings", metadata,
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("game", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("rated_games", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("draws", Integer, nullable=False, server_default="0"),
    Column("losses", Integer, nullable=False, server_default="0"),
    Column("updated", Float, nullable=False),
    PrimaryKeyConstraint("player", "game"),
    Index("ratings_by_game", "game", "rating"),
)
"""A player's Glicko-2 rating in one game (:mod:`lifearena.arena.glicko2`), and its rated
results; ``updated``: when it last changed (its deviation grows with the time since)."""

rating_history = Table(
    "rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("game", String(32), nullable=False),
    Column("game_id", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Index("rating_history_by_player", "player", "game", "at"),
)
"""A player's rating in a game after each of its rated games (the player page's chart)."""

seats = Table(
    "seats", metadata,
    Column("game_id", Text, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player", String(32), nullable=False),
    Column("game", String(32), nullable=False),
    Column("rated", Integer, nullable=False, server_default="0"),
    Column("result", String(8), nullable=True),
    Column("rating_before", Float, nullable=True),
    Column("rating_change", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    PrimaryKeyConstraint("game_id", "seat"),
    Index("seats_by_player", "player", "created"),
)
"""Who holds each seat of a game: the player, the game's name, whether the game is rated,
the seat's result once it ended (``win``, ``draw`` or ``loss``) and, for a rated game, the
seat's rating before it and the change it made."""

puzzles = Table(
    "puzzles", metadata,
    Column("id", String(80), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("plays", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("updated", Float, nullable=False),
    Index("puzzles_by_game", "game", "rating"),
)
"""A puzzle's Glicko-2 rating as its rated tries moved it (a row is made at its first rated
try, from the rating it shipped with); ``plays`` its rated tries, ``wins`` the solved ones."""

puzzle_players = Table(
    "puzzle_players", metadata,
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("plays", Integer, nullable=False, server_default="0"),
    Column("wins", Integer, nullable=False, server_default="0"),
    Column("updated", Float, nullable=False),
)
"""A player's one puzzle rating, across every game's puzzles (as lichess keeps one), with
its rated tries and the solved ones."""

puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(32), ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("puzzle", String(80), nullable=False),
    Column("game", String(32), nullable=False),
    Column("solved", Integer, nullable=False),
    Column("rated", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("rating_before", Float, nullable=True),
    Column("rating_change", Float, nullable=True),
    Index("puzzle_attempts_by_player", "player", "puzzle"),
    Index("puzzle_attempts_first", "player", "puzzle", unique=True,
          sqlite_where=text("rated = 1"), postgresql_where=text("rated = 1")),
)
"""Each finished try of a puzzle: solved or not, and whether it was rated (a player's first
try of a puzzle only: the unique index on its rated row makes a second one impossible, even
from two requests at once); a rated try keeps the player's rating before it and the change."""
