"""Alembic migrations of the server's database, run at startup by `storage.migrate`."""
