"""Moving a group to PostgreSQL: every table of a SQLite database copied into an empty,
migrated PostgreSQL database in one transaction, ids kept and identity sequences moved past
them, then checked table by table (row counts and a checksum computed alike on both sides)
before the transaction commits. A copy that does not check out leaves the target empty.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.store import describe_database, open_store
from bot.store.migrations import DatabaseRefused

__all__ = ["CopiedTable", "copy_database", "table_checksum"]

#: Tables of the database itself, not the bot's data.
_BOOKKEEPING = {"schema_migrations"}


@dataclass(frozen=True, slots=True)
class CopiedTable:
    name: str
    rows: int
    checksum: str


def _normalised(value: Any) -> str:
    if value is None:
        return "\x00"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def table_checksum(rows: Iterable[Sequence[Any]]) -> str:
    """A SHA-256 of ``rows`` (in their order), each value written down the same way whichever
    engine read it (SQLite's 0/1 and PostgreSQL's booleans alike).

    >>> table_checksum([(1, True, None)]) == table_checksum([(1, 1, None)])
    True
    """
    digest = hashlib.sha256()
    for row in rows:
        digest.update("\x1f".join(_normalised(v) for v in row).encode())
        digest.update(b"\x1e")
    return digest.hexdigest()


def _sqlite_tables(db: sqlite3.Connection) -> list[str]:
    """The bot's tables, each after the tables it refers to."""
    names = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    refers = {n: {r[2] for r in db.execute(f"PRAGMA foreign_key_list({n})")} for n in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and refers[n] <= set(ordered)]
        if not ready:
            raise DatabaseRefused("The SQLite database's tables refer to each other in a circle.")
        ordered.extend(ready)
    return ordered


def _sqlite_rows(db: sqlite3.Connection, table: str,
                 columns: Sequence[str]) -> tuple[list[tuple[Any, ...]], str]:
    key = next((r[1] for r in db.execute(f"PRAGMA table_info({table})") if r[5] == 1),
               columns[0])
    rows = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {key}").fetchall()
    return rows, key


_CONVERT: dict[str, Callable[[Any], Any]] = {
    "boolean": lambda v: bool(v),
    "bytea": lambda v: bytes(v) if not isinstance(v, str) else v.encode(),
    "bigint": int,
    "integer": int,
    "double precision": float,
    "text": lambda v: v if isinstance(v, str) else str(v),
}


def _as_is(value: Any) -> Any:
    return value


async def _target_columns(target: asyncpg.Connection, table: str) -> dict[str, str]:
    rows = await target.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name = $1", table)
    return {r["column_name"]: r["data_type"] for r in rows}


async def _refuse_data(target: asyncpg.Connection, url: str, tables: Sequence[str]) -> None:
    held = []
    for table in tables:
        count = await target.fetchval(f"SELECT count(*) FROM {table}")
        if count:
            held.append(f"{count} in {table}")
    if held:
        raise DatabaseRefused(
            f"{describe_database(url)} already holds the bot's data ({', '.join(held)}): copy "
            "into an empty database. Nothing was copied.")


async def _copy_table(db: sqlite3.Connection, target: asyncpg.Connection,
                      table: str) -> CopiedTable:
    types = await _target_columns(target, table)
    columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
    if set(columns) != set(types):
        raise DatabaseRefused(
            f"The table {table} has other columns in the two databases (SQLite: "
            f"{', '.join(sorted(columns))}; PostgreSQL: {', '.join(sorted(types))}). Nothing "
            "was copied.")
    rows, key = _sqlite_rows(db, table, columns)
    converters = [_CONVERT.get(types[c], _as_is) for c in columns]
    await target.copy_records_to_table(table, columns=columns, records=[
        tuple(None if v is None else convert(v) for convert, v in zip(converters, row,
                                                                       strict=True))
        for row in rows])
    if rows and types.get("id") == "bigint":
        await target.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}")
    back = await target.fetch(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {key}")
    checksum = table_checksum(tuple(r) for r in back)
    if len(back) != len(rows) or checksum != table_checksum(rows):
        raise DatabaseRefused(f"The copy of {table} does not match the original ({len(rows)} "
                              f"rows, {len(back)} copied). Nothing was copied.")
    return CopiedTable(table, len(rows), checksum)


async def copy_database(source: str, target_url: str) -> list[CopiedTable]:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``target_url``
    (both migrated to this bot's schema first); what was copied, table by table.
    :class:`DatabaseRefused` (nothing copied) when the target holds data or a table does
    not check out."""
    await (await open_store(source)).close()
    await (await open_store(target_url)).close()
    with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db:
        tables = [t for t in _sqlite_tables(db) if t not in _BOOKKEEPING]
        target = await asyncpg.connect(target_url)
        try:
            await _refuse_data(target, target_url, tables)
            async with target.transaction():
                return [await _copy_table(db, target, table) for table in tables]
        finally:
            await target.close()
