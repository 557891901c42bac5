"""Per-server settings on PostgreSQL."""

from __future__ import annotations

from bot.store.guilds import LanguageCache
from bot.store.postgres.database import Database

__all__ = ["GuildStore"]


class GuildStore:
    def __init__(self, db: Database) -> None:
        self._db = db
        # Asked for every message a fight's channel reads: kept a while (another process's
        # `/settings language` shows within LANGUAGE_FRESH_FOR seconds), this one's at once.
        self.languages = LanguageCache()

    async def gm_role(self, guild_id: int) -> int | None:
        # Read each time (one indexed row, once per interaction at most): several processes
        # share the database, and while a guild changes hands two of them may serve it, so
        # a copy kept in memory could miss a `/gm role` made in the other.
        role: int | None = await self._db.fetchval(
            "SELECT gm_role_id FROM guild_settings WHERE guild_id = $1", guild_id)
        return role

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, gm_role_id) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id",
            guild_id, role_id)

    def kept_language(self, guild_id: int) -> str | None:
        return self.languages.get(guild_id)

    async def language(self, guild_id: int) -> str | None:
        try:
            return self.languages.get(guild_id)
        except KeyError:
            pass
        language: str | None = await self._db.fetchval(
            "SELECT language FROM guild_settings WHERE guild_id = $1", guild_id)
        self.languages.keep(guild_id, language)
        return language

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            guild_id, language)
        self.languages.keep(guild_id, language)
