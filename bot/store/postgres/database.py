"""Talking to PostgreSQL through a pool: every statement and transaction of the store goes
through a :class:`Database`, which

- marks the task committed after a write commits (:mod:`bot.changes`), so an unexpected error
  after it never says "Nothing was changed";
- turns the server going away (restarted, stopped, out of reach) into
  :class:`~bot.store.values.DatabaseUnavailable`, a plain refusal the user reads; the pool
  replaces a closed connection by itself at the next acquire.

A statement on its own is its own transaction (autocommit): a fight's usual step is one UPDATE,
one round trip. Statements that belong together go through :meth:`Database.transaction`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import asyncpg

from bot.changes import mark_committed
from bot.store.values import DatabaseUnavailable

log = logging.getLogger(__name__)

__all__ = ["Database", "changed_rows", "unavailable"]

#: What the server going away looks like to asyncpg (not its misuse errors, which are bugs).
_GONE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,  # shut down, cannot connect now
    # A pooled connection the server closed while it was idle, reused before asyncpg saw it
    # close, fails with this ("another operation is in progress").
    asyncpg.exceptions.InternalClientError,
)


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database is out of reach, not that a statement is wrong."""
    if isinstance(error, asyncpg.InterfaceError):
        return "connection is closed" in str(error) or "connection was closed" in str(error)
    return isinstance(error, _GONE)


def changed_rows(status: str) -> int:
    """How many rows a statement changed, from its status ("UPDATE 1", "INSERT 0 1"); 0 for a
    script's, which is its last statement's ("COMMIT").

    >>> changed_rows("UPDATE 1"), changed_rows("INSERT 0 3"), changed_rows("COMMIT")
    (1, 3, 0)
    """
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


class Database:
    """The pool, used the way every store of this engine uses it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @contextlib.asynccontextmanager
    async def _guarded(self) -> AsyncIterator[None]:
        try:
            yield
        except Exception as error:
            if not unavailable(error):
                raise
            log.warning("The database is unavailable: %s", type(error).__name__)
            # Every pooled connection may be as dead as this one: each is replaced by a new
            # one when it is next acquired, rather than failing a later command.
            await self.pool.expire_connections()
            raise DatabaseUnavailable() from error

    async def _read(self, how: str, query: str, *args: Any) -> Any:
        """A read, tried once more on a fresh connection when the first one it got had been
        closed by the server unnoticed (a read changes nothing, so trying again is safe)."""
        try:
            return await getattr(self.pool, how)(query, *args)
        except Exception as error:
            if not unavailable(error):
                raise
            await self.pool.expire_connections()
        async with self._guarded():
            return await getattr(self.pool, how)(query, *args)

    async def fetch(self, query: str, *args: Any) -> list[asyncpg.Record]:
        rows: list[asyncpg.Record] = await self._read("fetch", query, *args)
        return rows

    async def fetchrow(self, query: str, *args: Any) -> asyncpg.Record | None:
        row: asyncpg.Record | None = await self._read("fetchrow", query, *args)
        return row

    async def fetchval(self, query: str, *args: Any) -> Any:
        return await self._read("fetchval", query, *args)

    async def execute(self, query: str, *args: Any) -> str:
        """One statement, its own transaction; the status ("UPDATE 1")."""
        async with self._guarded():
            status: str = await self.pool.execute(query, *args)
        if changed_rows(status):
            mark_committed()
        return status

    async def write_row(self, query: str, *args: Any) -> asyncpg.Record | None:
        """One statement that changes rows and returns one (``… RETURNING``), committed."""
        async with self._guarded():
            row: asyncpg.Record | None = await self.pool.fetchrow(query, *args)
        if row is not None:
            mark_committed()
        return row

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on one connection: committed when the block ends, rolled back when
        it raises (a refusal, a crash half-way)."""
        async with (self._guarded(), self.pool.acquire() as connection,
                    connection.transaction()):
            yield connection
        mark_committed()
