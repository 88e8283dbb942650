"""Alembic environment: runs on the connection `storage.migrate` hands over.

Logging is left as the server configured it (no `fileConfig`).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from pyramids.web.storage import metadata

config = context.config


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as fresh:
        context.configure(connection=fresh, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
