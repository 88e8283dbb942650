"""Accounts, their sessions and ratings; the account of a seat; turn clocks.

`accounts` hold a name and an argon2 hash of the password (never the password);
`sessions` the SHA-256 of each session cookie; `ratings` a Glicko-2 rating per
account and game; `rated_games` each ranked game's change of rating, per seat.
A seat taken by a logged-in person names its account (`seats.account_id`); a room
with a turn clock stores it (`rooms.clock`, JSON) so that it survives a restart.
Rooms and seats stored before this revision have neither: unranked, no clock.

Revision ID: 0005_accounts_ratings
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_accounts_ratings"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        # The name folded to lower case: "Ana" and "ana" are one account.
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "rated_games",
        sa.Column("room_id", sa.String(32),
                  sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("deviation_after", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    # Plain ADD COLUMN (no table copy): SQLite would cascade a copy's DROP TABLE.
    op.add_column("seats", sa.Column("account_id", sa.Integer, nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column("rooms", sa.Column("clock", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "clock")
    op.drop_index("ix_seats_account_id", table_name="seats")
    op.drop_column("seats", "account_id")
    op.drop_table("rated_games")
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("sessions")
    op.drop_table("accounts")
