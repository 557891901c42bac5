"""A consistent copy of a SQLite database while the bot runs (SQLite's online backup: the
copy is the database as of one moment, whatever the bot writes meanwhile)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.store.migrations import DatabaseRefused

__all__ = ["backup_sqlite"]


def backup_sqlite(source: str, target: Path) -> int:
    """Copy the SQLite database ``source`` to the new file ``target``; its size in bytes.
    :class:`DatabaseRefused` when ``target`` exists or ``source`` does not."""
    if target.exists():
        raise DatabaseRefused(f"{target} already exists: name a new file for the backup.")
    if not Path(source).is_file():
        raise DatabaseRefused(f"There is no SQLite database at {source} to back up.")
    with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db, \
            closing(sqlite3.connect(target)) as copy:
        db.backup(copy)
    return target.stat().st_size
