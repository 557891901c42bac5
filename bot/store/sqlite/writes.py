"""One write at a time on a connection.

Every store shares the bot's one aiosqlite connection, which autocommits: a single statement
is its own transaction, committed (and durable) when it returns. Writes that must stand or
fall together go through :func:`transaction` (BEGIN … COMMIT, or ROLLBACK on any error).
Either way the writer holds the connection's lock, so no other store's statement lands
inside its transaction; and the task that changed something is marked (:mod:`bot.changes`),
so an unexpected error after it never says "Nothing was changed".
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar, cast
from weakref import WeakKeyDictionary

import aiosqlite

from bot.changes import mark_committed

__all__ = ["SYNCHRONOUS", "transaction", "write_lock", "writes"]

#: SQLite's ``synchronous`` for every write that must be on disk when it returns (a fight's
#: step, a sheet): FULL syncs the WAL at each commit.
SYNCHRONOUS = "FULL"

_LOCKS: WeakKeyDictionary[aiosqlite.Connection, asyncio.Lock] = WeakKeyDictionary()

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def write_lock(db: aiosqlite.Connection) -> asyncio.Lock:
    """The lock every writer on ``db`` holds for the length of its transaction."""
    lock = _LOCKS.get(db)
    if lock is None:
        lock = _LOCKS[db] = asyncio.Lock()
    return lock


def writes(method: F) -> F:
    """Run a store method that writes (on ``self._db``) under that connection's lock."""

    @functools.wraps(method)
    async def locked(self: Any, *args: Any, **kwargs: Any) -> Any:
        db: aiosqlite.Connection = self._db
        async with write_lock(db):
            before = db.total_changes
            try:
                return await method(self, *args, **kwargs)
            finally:
                if db.total_changes > before:
                    mark_committed()

    return cast(F, locked)


@contextlib.asynccontextmanager
async def transaction(db: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One transaction on ``db`` under its write lock: committed when the block ends, rolled
    back when it raises, so a refusal or a crash half-way never leaves a write behind or a
    transaction open.

    The caller must not already hold the write lock (``@writes`` methods take it too)."""
    async with write_lock(db):
        await db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            await db.rollback()
            raise
        await db.commit()
        mark_committed()
