"""Which database engine a ``UNHEX_DATABASE`` value names, and how a log line shows it."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

__all__ = ["describe_database", "is_postgres"]

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
