"""Per-server settings on PostgreSQL."""

from __future__ import annotations

from bot.store.postgres.database import Database

__all__ = ["GuildStore"]


class GuildStore:
    def __init__(self, db: Database) -> None:
        self._db = db
        # Asked on nearly every command (who is a GM), changed by `/gm role` only: kept in
        # memory once read. A server's commands all reach the process that runs its shard.
        self._gm_roles: dict[int, int | None] = {}

    async def gm_role(self, guild_id: int) -> int | None:
        if guild_id in self._gm_roles:
            return self._gm_roles[guild_id]
        role: int | None = await self._db.fetchval(
            "SELECT gm_role_id FROM guild_settings WHERE guild_id = $1", guild_id)
        self._gm_roles[guild_id] = role
        return role

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, gm_role_id) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id",
            guild_id, role_id)
        self._gm_roles[guild_id] = role_id
