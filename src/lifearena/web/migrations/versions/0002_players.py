"""The players' tables: identities, sessions, API tokens, Glicko-2 ratings and their
history, and who holds each seat of a game.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("name_key", sa.String(40), nullable=True, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("password", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("sessions_by_player", "sessions", ["player"])
    op.create_table(
        "tokens",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("scopes", sa.Text, nullable=False),
        sa.Column("hint", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("tokens_by_player", "tokens", ["player"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("draws", sa.Integer, nullable=False, server_default="0"),
        sa.Column("losses", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("player", "game"),
    )
    op.create_index("ratings_by_game", "ratings", ["game", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
    )
    op.create_index("rating_history_by_player", "rating_history", ["player", "game", "at"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rated", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("rating_before", sa.Float, nullable=True),
        sa.Column("rating_change", sa.Float, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index("seats_by_player", "seats", ["player", "created"])


def downgrade() -> None:
    for index, table in (("seats_by_player", "seats"),
                         ("rating_history_by_player", "rating_history"),
                         ("ratings_by_game", "ratings"), ("tokens_by_player", "tokens"),
                         ("sessions_by_player", "sessions")):
        op.drop_index(index, table_name=table)
        op.drop_table(table)
    op.drop_table("players")
