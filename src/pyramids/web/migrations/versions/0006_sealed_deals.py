"""Sealed deals: until when a room's seed and record stay secret after its game.

The daily deal is the same for everyone that day, so a daily room's seed (which
names the whole deal, face-down tiles too) is not revealed when its game ends but
when the day is over (`rooms.sealed_until`). Rooms stored before this revision
have none: revealed at their end, as before.

Revision ID: 0006_sealed_deals
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_sealed_deals"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table copy): SQLite would cascade a copy's DROP TABLE.
    op.add_column("rooms", sa.Column("sealed_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "sealed_until")
