"""The bot's database: SQLite (a file, nothing to install: one group's own bot) or PostgreSQL
(a server several bot processes share), chosen by one setting, ``UNHEX_DATABASE``.

Cogs see it only through :mod:`bot.store.interfaces` and the values of :mod:`bot.store.values`;
every method that changes something has committed when it returns, so a caller that answers a
user after the call has already made the change durable.
"""

from __future__ import annotations

from bot.store.interfaces import Store
from bot.store.urls import describe_database, is_postgres

__all__ = ["describe_database", "is_postgres", "open_store"]


async def open_store(database: str, *, pool_size: int = 4) -> Store:
    """Open (and migrate) the database ``database`` names: a PostgreSQL URL, with a pool of up
    to ``pool_size`` connections, or a SQLite file's path."""
    if is_postgres(database):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(database, pool_size=pool_size)
    from bot.store.sqlite import SqliteStore

    return await SqliteStore.open(database)
