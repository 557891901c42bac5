"""Facts about the bot itself, by key (the `bot_meta` table): such as the fingerprint of the
slash commands last sent to Discord, so a start with the same commands does not send them
again."""

from __future__ import annotations

import aiosqlite

from bot.store.sqlite.writes import writes

__all__ = ["MetaStore"]


class MetaStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM bot_meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row["value"]

    @writes
    async def set(self, key: str, value: str | None) -> None:
        await self._db.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
