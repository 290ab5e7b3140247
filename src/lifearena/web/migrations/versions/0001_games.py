"""The games table as it was before there were migrations (the baseline): files of earlier
versions are adopted at this revision (:func:`lifearena.web.database.adopt`).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("opponent", sa.Text, nullable=False),
        sa.Column("tokens", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False, server_default="[]"),
        sa.Column("pending", sa.Text, nullable=False, server_default="{}"),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("invites", sa.Text, nullable=False, server_default="{}"),
        sa.Column("cancelled", sa.Integer, nullable=False, server_default="0"),
        sa.Column("status", sa.Text, nullable=False, server_default="unknown"),
        sa.Column("outcome", sa.Text, nullable=False, server_default="null"),
        sa.Column("ending", sa.Text, nullable=False, server_default="null"),
        sa.Column("clock", sa.Text, nullable=False, server_default="null"),
        sa.Column("offers", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_index("games_by_status", "games", ["status", "updated"])


def downgrade() -> None:
    op.drop_index("games_by_status", table_name="games")
    op.drop_table("games")
