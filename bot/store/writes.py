"""One write at a time on a connection.

Every store shares the bot's one aiosqlite connection, and a transaction on it is the
connection's, not the caller's: without this, one store's ``rollback()`` (a refused name, a
version conflict) could land between another store's UPDATE and its COMMIT and undo it. Each
method that writes holds the connection's lock from its first statement to its commit or
rollback.
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

__all__ = ["commit", "transaction", "write_lock", "writes"]

_LOCKS: WeakKeyDictionary[aiosqlite.Connection, asyncio.Lock] = WeakKeyDictionary()

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


async def commit(db: aiosqlite.Connection) -> None:
    """Commit ``db``'s transaction, and mark that this task changed something
    (:mod:`bot.changes`)."""
    await db.commit()
    mark_committed()


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
        async with write_lock(self._db):
            return await method(self, *args, **kwargs)

    return cast(F, locked)


@contextlib.asynccontextmanager
async def transaction(db: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
    """One transaction on ``db`` under its write lock: committed when the block ends, rolled
    back when it raises, so a refusal or a crash half-way never leaves a write behind or a
    transaction open.

    The caller must not already hold the write lock (``@writes`` methods take it too)."""
    async with write_lock(db):
        try:
            yield db
        except BaseException:
            await db.rollback()
            raise
        await commit(db)
