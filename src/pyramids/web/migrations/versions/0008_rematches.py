"""Rematches: where the rematch of a finished room is (`rooms.rematch`).

Kept in the database, not in one process's memory, so that with several server
processes (`serve --cluster`) a player whose page asks another process still
finds it, and a restart loses none. Rooms stored before this revision have none.

Revision ID: 0008_rematches
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_rematches"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table copy): SQLite would cascade a copy's DROP TABLE.
    op.add_column("rooms", sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "rematch")
