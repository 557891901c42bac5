"""The PostgreSQL store: an asyncpg pool on a server that several bot processes may share,
migrated at start-up under an advisory lock (two processes starting together migrate once).

For a bot that outgrows one machine. Each statement commits with PostgreSQL's default
synchronous commit (on the server's disk) before the method returns.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

import asyncpg

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
from bot.store.migrations import DatabaseRefused, migrations, refuse_newer
from bot.store.postgres.characters import CharacterStore
from bot.store.postgres.combats import CombatStore
from bot.store.postgres.database import Database, unavailable
from bot.store.postgres.guilds import GuildStore
from bot.store.postgres.maps import MapStore
from bot.store.postgres.meta import MetaStore
from bot.store.postgres.players import PlayerStore
from bot.store.postgres.rolls import RollStore
from bot.store.postgres.sessions import SessionStore
from bot.store.urls import describe_database

log = logging.getLogger(__name__)

__all__ = ["MIGRATIONS", "PostgresStore"]

#: This engine's migrations; the `schema_migrations` table records those applied.
MIGRATIONS = migrations(__name__)
#: The advisory lock held while migrating ("unhex" in ASCII).
MIGRATION_LOCK = 0x756E686578
#: Seconds to wait for a new connection: a command waits no longer for an unreachable server.
CONNECT_TIMEOUT = 5.0
#: Seconds a statement may take before it is given up (and the command refused): a stuck
#: server never holds a channel's lock for long.
STATEMENT_TIMEOUT = 30.0
#: Seconds a migration (or waiting for another process's) may take: longer, on a big database.
MIGRATION_TIMEOUT = 600.0


class PostgresStore:
    """The bot's database on a PostgreSQL server. Open it with :meth:`open`; close it with
    :meth:`close`."""

    engine = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        db = Database(pool)
        self.rolls: Rolls = RollStore(db)
        self.guilds: Guilds = GuildStore(db)
        self.characters: Characters = CharacterStore(db)
        self.maps: Maps = MapStore(db)
        self.combats: Fights = CombatStore(db)
        self.sessions: Sessions = SessionStore(db)
        self.players: Players = PlayerStore(db)
        self.meta: Meta = MetaStore(db)

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 4) -> PostgresStore:
        # No floor of open connections: a pool keeping one would retry (and log) in the
        # background while the server is away; connections open when commands need them.
        pool = asyncpg.create_pool(url, min_size=0, max_size=pool_size, timeout=CONNECT_TIMEOUT,
                                   command_timeout=STATEMENT_TIMEOUT, reset=_end_transaction)
        try:
            await pool
            store = cls(pool)
            await store.migrate()
        except BaseException as error:
            await pool.close()
            if isinstance(error, Exception) and not isinstance(error, DatabaseRefused):
                raise DatabaseRefused(_why_not(url, error)) from None
            raise
        return store

    async def schema_version(self, connection: asyncpg.Connection | None = None) -> int:
        """The schema's version; ``connection``: read through it (one the caller holds: a
        pool of one connection has no other to give)."""
        version: int = await (connection or self.pool).fetchval(
            "SELECT coalesce(max(version), 0) FROM schema_migrations")
        return version

    async def migrate(self) -> None:
        """Apply, in order and each in its own transaction, the migrations not yet applied;
        one process at a time."""
        async with self.pool.acquire() as connection:
            await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK,
                                     timeout=MIGRATION_TIMEOUT)
            try:
                await connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                    " name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
                current = await self.schema_version(connection)
                refuse_newer(current, len(MIGRATIONS))
                for migration in MIGRATIONS[current:]:
                    log.info("Migrating the database to schema %d (%s)", migration.version,
                             migration.name)
                    async with connection.transaction():
                        await connection.execute(migration.script, timeout=MIGRATION_TIMEOUT)
                        await connection.execute(
                            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                            migration.version, migration.name)
            finally:
                await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def close(self) -> None:
        await self.pool.close()


async def _end_transaction(connection: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool: a transaction left open rolled
    back. (asyncpg's default reset also clears session state the store never sets, at the
    cost of a round trip on every call.)"""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


def _why_not(url: str, error: BaseException) -> str:
    """Why the database at ``url`` could not be opened, in one sentence without its password."""
    parts = urlsplit(url)
    where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
    name = (parts.path or "/").lstrip("/") or parts.username or "?"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return (f"The PostgreSQL database “{name}” does not exist on {where}: create it "
                f"(createdb {name}), or fix UNHEX_DATABASE.")
    if isinstance(error, asyncpg.InvalidAuthorizationSpecificationError
                  | asyncpg.InvalidPasswordError):
        return (f"The PostgreSQL server at {where} refused the user or password in "
                "UNHEX_DATABASE.")
    if unavailable(error):
        reason = type(error).__name__ if not str(error) else str(error).splitlines()[0]
        return (f"Could not reach the PostgreSQL server at {where} ({reason}); is it running? "
                f"UNHEX_DATABASE is {describe_database(url)}.")
    return f"Could not open the PostgreSQL database {describe_database(url)}: {error}"
