"""The SQLite store: one long-lived aiosqlite connection in WAL mode, migrated at start-up.

Every method that changes something commits before it returns, so a caller that replies to
a user after the call has already made the change durable. Cogs see each aggregate through
its interface in :mod:`bot.store.interfaces`, never the connection.
"""

from __future__ import annotations

import logging
from pathlib import Path

import aiosqlite

from bot.store.characters import CharacterStore
from bot.store.combats import CombatStore
from bot.store.guilds import GuildStore
from bot.store.interfaces import Characters, Fights, Guilds, Maps, Meta, Rolls
from bot.store.maps import MapStore
from bot.store.meta import MetaStore
from bot.store.migrations import MIGRATIONS
from bot.store.rolls import RollStore
from bot.store.writes import SYNCHRONOUS

log = logging.getLogger(__name__)

__all__ = ["Store"]


class Store:
    """The bot's database. Open it with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.rolls: Rolls = RollStore(db)
        self.guilds: Guilds = GuildStore(db)
        self.characters: Characters = CharacterStore(db)
        self.maps: Maps = MapStore(db)
        self.combats: Fights = CombatStore(db)
        self.meta: Meta = MetaStore(db)

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        # Autocommit: a statement on its own is its own transaction (a fight's usual step is
        # one UPDATE, committed in one round trip); several statements that belong together
        # go through `bot.store.writes.transaction`, which opens one with BEGIN.
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA journal_mode=WAL")
            # Every step is on disk (the WAL synced) before anyone is told of it.
            await db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            store = cls(db)
            await store.migrate()
        except BaseException:
            # A refused or broken database must not leave the connection's thread running.
            await db.close()
            raise
        return store

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply, in order and each in its own transaction, the migrations not yet applied."""
        current = await self.schema_version()
        if current > len(MIGRATIONS):
            raise RuntimeError(
                f"The database is at schema {current}, newer than this bot knows "
                f"({len(MIGRATIONS)}). Update the bot."
            )
        for version, script in enumerate(MIGRATIONS[current:], start=current + 1):
            log.info("Migrating the database to schema %d", version)
            await self.db.executescript(
                f"BEGIN;\n{script}\nPRAGMA user_version = {version};\nCOMMIT;"
            )

    async def close(self) -> None:
        await self.db.close()
