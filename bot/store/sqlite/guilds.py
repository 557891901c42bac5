"""Per-server settings."""

from __future__ import annotations

import aiosqlite

from bot.store.guilds import LanguageCache
from bot.store.sqlite.writes import writes


class GuildStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # Asked on nearly every command (who is a GM), changed by `/gm role` only: kept in
        # memory once read. The bot is the database's only writer.
        self._gm_roles: dict[int, int | None] = {}
        # Asked for each message a channel reads, changed by `/settings language` only.
        self.languages = LanguageCache(fresh_for=None)

    async def gm_role(self, guild_id: int) -> int | None:
        if guild_id in self._gm_roles:
            return self._gm_roles[guild_id]
        async with self._db.execute(
            "SELECT gm_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        role: int | None = None if row is None else row["gm_role_id"]
        self._gm_roles[guild_id] = role
        return role

    @writes
    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, gm_role_id) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id",
            (guild_id, role_id),
        )
        self._gm_roles[guild_id] = role_id

    def kept_language(self, guild_id: int) -> str | None:
        return self.languages.get(guild_id)

    async def language(self, guild_id: int) -> str | None:
        try:
            return self.languages.get(guild_id)
        except KeyError:
            pass
        async with self._db.execute(
            "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        language: str | None = None if row is None else row["language"]
        self.languages.keep(guild_id, language)
        return language

    @writes
    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )
        self.languages.keep(guild_id, language)
