"""The bot's database: SQLite (a file, nothing to install: one group's own bot) or PostgreSQL
(a server several bot processes share), chosen by one setting, ``UNHEX_DATABASE``.

Cogs see it only through :mod:`bot.store.interfaces` and the values of :mod:`bot.store.values`;
every method that changes something has committed when it returns, so a caller that answers a
user after the call has already made the change durable.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from bot.store.interfaces import Store

__all__ = ["describe_database", "is_postgres", "open_store"]

_POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres(database: str) -> bool:
    """Whether ``database`` is a PostgreSQL URL (else it is a SQLite file's path).

    >>> is_postgres("postgresql://unhex@db:5432/unhex"), is_postgres("unhex.sqlite3")
    (True, False)
    """
    return urlsplit(database).scheme in _POSTGRES_SCHEMES


def describe_database(database: str) -> str:
    """``database`` as a log line may show it: a URL's password replaced by ``***``.

    >>> describe_database("postgresql://unhex:s3cret@db:5432/unhex")
    'postgresql://unhex:***@db:5432/unhex'
    """
    if not is_postgres(database):
        return database
    parts = urlsplit(database)
    if parts.password is None:
        return database
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


async def open_store(database: str, *, pool_size: int = 4) -> Store:
    """Open (and migrate) the database ``database`` names: a PostgreSQL URL, with a pool of up
    to ``pool_size`` connections, or a SQLite file's path."""
    if is_postgres(database):
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(database, pool_size=pool_size)
    from bot.store.sqlite import SqliteStore

    return await SqliteStore.open(database)
