"""Rooms, seats and the action list of each room.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
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
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("agent", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column(
            "room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("by_bot", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
