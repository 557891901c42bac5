"""Read a test's database the same way on either engine: a SQLite file's path or a PostgreSQL
URL, queries written with SQLite's ``?`` placeholders, rows returned as tuples.

Tests use it to look at what the bot stored without going through the store they check.
:class:`AsyncReader` is for code already inside an event loop (the crash test's driver);
:class:`Reader` is the same for synchronous code, on an event loop of its own. A PostgreSQL
reader keeps one connection until :meth:`~Reader.close`; every read sees the newest commit.

Values come back as each engine keeps them: a BOOLEAN is ``True``/``False`` on PostgreSQL and
``1``/``0`` on SQLite, so compare booleans with ``bool(...)``.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any

import asyncpg

from bot.store import is_postgres

__all__ = ["AsyncReader", "Reader", "Row", "postgres_sql"]

Row = tuple[Any, ...]

_PLACEHOLDER = re.compile(r"\?")
#: The tables of the database, by name: SQLite's own catalogue, and PostgreSQL's for the schema
#: the connection uses.
_TABLES = {
    False: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    True: "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1",
}


def postgres_sql(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL wants them.

    >>> postgres_sql("SELECT id FROM combats WHERE channel_id = ? AND active = ?")
    'SELECT id FROM combats WHERE channel_id = $1 AND active = $2'
    """
    number = itertools.count(1)
    return _PLACEHOLDER.sub(lambda _: f"${next(number)}", sql)


class AsyncReader:
    """Reads one database from inside an event loop (see the module docstring)."""

    def __init__(self, database: str | Path) -> None:
        self.database = str(database)
        self.postgres = is_postgres(self.database)
        self._sqlite: sqlite3.Connection | None = None
        self._postgres: asyncpg.Connection | None = None

    async def __call__(self, sql: str, *params: Any) -> list[Row]:
        """Every row ``sql`` selects, ``params`` bound to its ``?`` in order."""
        if self.postgres:
            if self._postgres is None:
                self._postgres = await asyncpg.connect(self.database)
            return [tuple(r) for r in await self._postgres.fetch(postgres_sql(sql), *params)]
        if self._sqlite is None:
            # In autocommit mode every statement is its own transaction: it sees the newest.
            self._sqlite = sqlite3.connect(self.database, isolation_level=None)
        return self._sqlite.execute(sql, params).fetchall()

    async def tables(self) -> list[str]:
        """The names of the database's tables, sorted."""
        return [name for (name,) in await self(_TABLES[self.postgres])]

    async def every_row(self) -> dict[str, list[Row]]:
        """Every row of every table, each table's rows sorted (PostgreSQL has no row order of
        its own), to compare the database before and after something."""
        return {table: sorted(await self(f'SELECT * FROM "{table}"'), key=repr)
                for table in await self.tables()}

    async def close(self) -> None:
        if self._postgres is not None:
            await self._postgres.close()
            self._postgres = None
        if self._sqlite is not None:
            self._sqlite.close()
            self._sqlite = None


class Reader:
    """Reads one database from synchronous code: an :class:`AsyncReader` on a private event
    loop (never the current one, so a caller's own loop is left alone)."""

    def __init__(self, database: str | Path) -> None:
        self._reader = AsyncReader(database)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.database = self._reader.database
        self.postgres = self._reader.postgres

    def _run(self, coro: Any) -> Any:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(coro)

    def __call__(self, sql: str, *params: Any) -> list[Row]:
        """Every row ``sql`` selects, ``params`` bound to its ``?`` in order."""
        result: list[Row] = self._run(self._reader(sql, *params))
        return result

    def one(self, sql: str, *params: Any) -> Row | None:
        """The first row ``sql`` selects, or ``None``."""
        rows = self(sql, *params)
        return rows[0] if rows else None

    def tables(self) -> list[str]:
        """The names of the database's tables, sorted."""
        result: list[str] = self._run(self._reader.tables())
        return result

    def every_row(self) -> dict[str, list[Row]]:
        """See :meth:`AsyncReader.every_row`."""
        result: dict[str, list[Row]] = self._run(self._reader.every_row())
        return result

    def close(self) -> None:
        """Close the connection (a PostgreSQL database with a connection cannot be dropped,
        nor copied as a template); the next read opens another."""
        if self._loop is not None:  # without a loop, nothing was read: nothing is open
            self._loop.run_until_complete(self._reader.close())
            self._loop.close()
            self._loop = None

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
