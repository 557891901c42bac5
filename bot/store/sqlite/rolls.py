"""Chat rolls waiting for their roller's decision, kept so buttons work after a restart."""

from __future__ import annotations

import aiosqlite

from bot.store.sqlite.writes import writes
from bot.store.values import StoredRoll
from engine.quickroll import QuickRoll

__all__ = ["RollStore"]


class RollStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    @writes
    async def add(
        self, *, guild_id: int | None, channel_id: int, user_id: int, note: str | None,
        state: QuickRoll,
    ) -> StoredRoll:
        cursor = await self._db.execute(
            "INSERT INTO rolls (guild_id, channel_id, user_id, note, state) VALUES (?, ?, ?, ?, ?)",
            (guild_id, channel_id, user_id, note, state.model_dump_json()),
        )
        assert cursor.lastrowid is not None
        return StoredRoll(cursor.lastrowid, guild_id, channel_id, user_id, note, state, 0)

    async def get(self, roll_id: int) -> StoredRoll | None:
        async with self._db.execute(
            "SELECT id, guild_id, channel_id, user_id, note, state, version "
            "FROM rolls WHERE id = ?",
            (roll_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return StoredRoll(
            row["id"], row["guild_id"], row["channel_id"], row["user_id"], row["note"],
            QuickRoll.model_validate_json(row["state"]), row["version"],
        )

    @writes
    async def replace(self, stored: StoredRoll, state: QuickRoll) -> StoredRoll | None:
        """Save ``state`` if nobody changed the roll since ``stored`` was read; else ``None``."""
        cursor = await self._db.execute(
            "UPDATE rolls SET state = ?, version = version + 1 WHERE id = ? AND version = ?",
            (state.model_dump_json(), stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            return None
        return StoredRoll(
            stored.id, stored.guild_id, stored.channel_id, stored.user_id, stored.note, state,
            stored.version + 1,
        )
