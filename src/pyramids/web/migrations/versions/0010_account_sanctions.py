"""The operator's sanctions on an account: its chat muted, or the account banned.

`accounts.chat_muted_at`: since when the server's operator muted the account's
chat (None: it may write). `accounts.banned_at`: since when the account is banned
(None: it is not); a banned account cannot log in, take or claim seats, and its
seat sockets are refused (`POST /api/admin/accounts/{name}/mute` and `.../ban`).
Accounts stored before this revision are neither muted nor banned.

Revision ID: 0010_account_sanctions
Revises: 0007_name_looks
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_account_sanctions"
down_revision = "0007_name_looks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table copy): SQLite would cascade a copy's DROP TABLE.
    op.add_column("accounts", sa.Column("chat_muted_at", sa.DateTime(timezone=True),
                                        nullable=True))
    op.add_column("accounts", sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "banned_at")
    op.drop_column("accounts", "chat_muted_at")
