"""What each account's name looks like, so that no new name can pass for it.

`accounts.name_look` is `pyramids.web.names.name_look(name)`: equal for names a
reader could take for one another ("Веа" in Cyrillic letters and "Bea"). A new
account, or a guest, whose name looks like an account's name is refused. Accounts
stored before this revision get their look here; two of them that already look
alike both stay (nothing a user saved is lost).

Revision ID: 0007_name_looks
Revises: 0005_accounts_ratings
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pyramids.web.names import name_look

revision = "0007_name_looks"
down_revision = "0005_accounts_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table copy): SQLite would cascade a copy's DROP TABLE.
    op.add_column("accounts", sa.Column("name_look", sa.String(256), nullable=True))
    op.create_index("ix_accounts_name_look", "accounts", ["name_look"])
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_look", sa.String))
    connection = op.get_bind()
    for account_id, name in connection.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        connection.execute(accounts.update().where(accounts.c.id == account_id)
                           .values(name_look=name_look(name)))


def downgrade() -> None:
    op.drop_index("ix_accounts_name_look", "accounts")
    op.drop_column("accounts", "name_look")
