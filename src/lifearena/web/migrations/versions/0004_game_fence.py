"""The games' fencing tokens: the highest lease token that wrote each game's row.

Several replicas of the server share one store; the replica that owns a live game holds its
lease (:mod:`lifearena.web.leases`) and writes the row only where the stored ``fence`` is
not above its own token, so a replica that lost the lease without knowing it cannot
overwrite the new owner's moves. Rows of a single server keep 0.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("games")}
    if "fence" in have:  # a file adopted from before migrations is made with today's table
        return
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("fence", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("fence")
