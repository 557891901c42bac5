"""The SQLite store: one long-lived aiosqlite connection in WAL mode, migrated at start-up.

Right for one group's own bot: a file, nothing to install. Every method that changes something
commits (``synchronous=FULL``: on disk) before it returns.
"""

from __future__ import annotations

import logging
from pathlib import Path

import aiosqlite

from bot.store.interfaces import (
    Characters,
    Fights,
    Guilds,
    Maps,
    Meta,
    Players,
    Rolls,
    Sessions,
)
from bot.store.migrations import migrations, refuse_newer
from bot.store.sqlite.characters import CharacterStore
from bot.store.sqlite.combats import CombatStore
from bot.store.sqlite.guilds import GuildStore
from bot.store.sqlite.maps import MapStore
from bot.store.sqlite.meta import MetaStore
from bot.store.sqlite.players import PlayerStore
from bot.store.sqlite.rolls import RollStore
from bot.store.sqlite.sessions import SessionStore
from bot.store.sqlite.writes import SYNCHRONOUS

log = logging.getLogger(__name__)

__all__ = ["MIGRATIONS", "SqliteStore"]

#: This engine's migrations; a database's ``PRAGMA user_version`` is how many were applied.
MIGRATIONS = migrations(__name__)


class SqliteStore:
    """The bot's database in a SQLite file. Open it with :meth:`open`; close it with
    :meth:`close`."""

    engine = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.rolls: Rolls = RollStore(db)
        self.guilds: Guilds = GuildStore(db)
        self.characters: Characters = CharacterStore(db)
        self.maps: Maps = MapStore(db)
        self.combats: Fights = CombatStore(db)
        self.sessions: Sessions = SessionStore(db)
        self.players: Players = PlayerStore(db)
        self.meta: Meta = MetaStore(db)

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
        # Autocommit: a statement on its own is its own transaction (a fight's usual step is
        # one UPDATE, committed in one round trip); several statements that belong together
        # go through `bot.store.sqlite.writes.transaction`, which opens one with BEGIN.
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
        refuse_newer(current, len(MIGRATIONS))
        for migration in MIGRATIONS[current:]:
            log.info("Migrating the database to schema %d (%s)", migration.version,
                     migration.name)
            await self.db.executescript(
                f"BEGIN;\n{migration.script}\n"
                f"PRAGMA user_version = {migration.version};\nCOMMIT;"
            )

    async def close(self) -> None:
        await self.db.close()
