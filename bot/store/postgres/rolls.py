"""Chat rolls on PostgreSQL, waiting for their roller's decision."""

from __future__ import annotations

from bot.store.postgres.database import Database, changed_rows
from bot.store.values import StoredRoll
from engine.quickroll import QuickRoll

__all__ = ["RollStore"]


class RollStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(
        self, *, guild_id: int | None, channel_id: int, user_id: int, note: str | None,
        state: QuickRoll,
    ) -> StoredRoll:
        row = await self._db.write_row(
            "INSERT INTO rolls (guild_id, channel_id, user_id, note, state) "
            "VALUES ($1, $2, $3, $4, $5) RETURNING id",
            guild_id, channel_id, user_id, note, state.model_dump_json(),
        )
        assert row is not None
        return StoredRoll(row["id"], guild_id, channel_id, user_id, note, state, 0)

    async def get(self, roll_id: int) -> StoredRoll | None:
        row = await self._db.fetchrow(
            "SELECT id, guild_id, channel_id, user_id, note, state, version "
            "FROM rolls WHERE id = $1", roll_id)
        if row is None:
            return None
        return StoredRoll(row["id"], row["guild_id"], row["channel_id"], row["user_id"],
                          row["note"], QuickRoll.model_validate_json(row["state"]),
                          row["version"])

    async def replace(self, stored: StoredRoll, state: QuickRoll) -> StoredRoll | None:
        """Save ``state`` if nobody changed the roll since ``stored`` was read; else ``None``."""
        status = await self._db.execute(
            "UPDATE rolls SET state = $1, version = version + 1 WHERE id = $2 AND version = $3",
            state.model_dump_json(), stored.id, stored.version,
        )
        if changed_rows(status) != 1:
            return None
        return StoredRoll(stored.id, stored.guild_id, stored.channel_id, stored.user_id,
                          stored.note, state, stored.version + 1)
