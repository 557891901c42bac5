"""Per-server settings."""

from __future__ import annotations

import aiosqlite

from bot.store.writes import writes


class GuildStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def gm_role(self, guild_id: int) -> int | None:
        async with self._db.execute(
            "SELECT gm_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row["gm_role_id"]

    @writes
    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, gm_role_id) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id",
            (guild_id, role_id),
        )
        await self._db.commit()
