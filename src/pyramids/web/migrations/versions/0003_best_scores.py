"""One-player games on a shipped board, for the best-score and daily tables; secrets.

`solitaire_games` holds one row per one-player game started through the
solitaire API: its board, rules variant, kind (`ranked`: a deal the server drew;
`daily`: the day's deal; `practice`: a game number the player chose; `retry`: a
later daily game of a name that already played that day), the player's name and
the server's start and finish times with the result. `server_secrets` keeps
secrets the server draws once (the daily deal's key), so a restart keeps them.

Revision ID: 0003_best_scores
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_best_scores"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "solitaire_games",
        sa.Column(
            "room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("board", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(400), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("day", sa.Date, nullable=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("player_key", sa.String(64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("moves", sa.Integer, nullable=True),
    )
    op.create_index("ix_solitaire_board", "solitaire_games",
                    ["game", "board", "variant", "kind"])
    op.create_index("ix_solitaire_day", "solitaire_games", ["game", "kind", "day"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_index("ix_solitaire_day", table_name="solitaire_games")
    op.drop_index("ix_solitaire_board", table_name="solitaire_games")
    op.drop_table("solitaire_games")
