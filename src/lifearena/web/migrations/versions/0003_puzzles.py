"""The puzzles' tables: each puzzle's rating, each player's puzzle rating, and the tries.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("puzzles_by_game", "puzzles", ["game", "rating"])
    op.create_table(
        "puzzle_players",
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("puzzle", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=True),
        sa.Column("rating_change", sa.Float, nullable=True),
    )
    op.create_index("puzzle_attempts_by_player", "puzzle_attempts", ["player", "puzzle"])
    op.create_index("puzzle_attempts_first", "puzzle_attempts", ["player", "puzzle"],
                    unique=True, sqlite_where=sa.text("rated = 1"),
                    postgresql_where=sa.text("rated = 1"))


def downgrade() -> None:
    op.drop_index("puzzle_attempts_first", table_name="puzzle_attempts")
    op.drop_index("puzzle_attempts_by_player", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_index("puzzles_by_game", table_name="puzzles")
    op.drop_table("puzzles")
