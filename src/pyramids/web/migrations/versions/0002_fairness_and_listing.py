"""The commitment's salt, practice rooms (a chosen seed) and unlisted rooms.

Rooms stored before this revision keep no salt: they show no commitment. The
rooms' last-change time (`updated_at`) is indexed with the status, for expiry.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table copy): SQLite would cascade a copy's DROP TABLE
    # to the seats and actions of every room.
    op.add_column("rooms", sa.Column("salt", sa.String(64), nullable=True))
    op.add_column(
        "rooms", sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column(
        "rooms", sa.Column("unlisted", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_index("ix_rooms_status_updated", "rooms", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_rooms_status_updated", table_name="rooms")
    for column in ("unlisted", "practice", "salt"):
        op.drop_column("rooms", column)
