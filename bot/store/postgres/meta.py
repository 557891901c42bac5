"""Facts about the bot itself, by key (the `bot_meta` table), on PostgreSQL."""

from __future__ import annotations

from bot.store.postgres.database import Database

__all__ = ["MetaStore"]


class MetaStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        value: str | None = await self._db.fetchval(
            "SELECT value FROM bot_meta WHERE key = $1", key)
        return value

    async def set(self, key: str, value: str | None) -> None:
        await self._db.execute(
            "INSERT INTO bot_meta (key, value) VALUES ($1, $2) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value)
