"""One ranking daily game per account and day, decided by the database.

The processes of a cluster (`serve --cluster`) share one database: an account's
starts sent to two of them at once could each find no daily game stored yet and
both rank. A unique index on (game, day, player_key) over the rows of kind
`daily` lets only one of them be stored as `daily`; the start that loses the race
is stored as `retry` (`SolitaireRecords.add`). Rows stored before this revision
that break the rule (two processes raced) keep their account's first game as
`daily`, the earliest started, and the others become `retry`.

Revision ID: 0009_one_daily
Revises: 0003_best_scores
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_one_daily"
down_revision = "0003_best_scores"
branch_labels = None
depends_on = None

ONLY_DAILY = sa.text("kind = 'daily'")


def upgrade() -> None:
    op.execute(
        "UPDATE solitaire_games SET kind = 'retry' WHERE kind = 'daily' AND EXISTS ("
        " SELECT 1 FROM solitaire_games AS earlier WHERE earlier.kind = 'daily'"
        " AND earlier.game = solitaire_games.game AND earlier.day = solitaire_games.day"
        " AND earlier.player_key = solitaire_games.player_key"
        " AND (earlier.started_at < solitaire_games.started_at"
        " OR (earlier.started_at = solitaire_games.started_at"
        " AND earlier.room_id < solitaire_games.room_id)))"
    )
    op.create_index("ux_solitaire_one_daily", "solitaire_games", ["game", "day", "player_key"],
                    unique=True, sqlite_where=ONLY_DAILY, postgresql_where=ONLY_DAILY)


def downgrade() -> None:
    op.drop_index("ux_solitaire_one_daily", table_name="solitaire_games")
