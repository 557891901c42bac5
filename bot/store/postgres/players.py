"""Each player's own settings (the `player_settings` table: where they are reminded, and
whether they were told that their direct message was refused), on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.postgres.database import Database

__all__ = ["PlayerStore"]


class PlayerStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def reminded_by_dm(self, user_ids: Sequence[int]) -> set[int]:
        if not user_ids:
            return set()
        rows = await self._db.fetch(
            "SELECT user_id FROM player_settings WHERE reminders = 'dm' "
            "AND user_id = ANY($1::bigint[])", list(user_ids))
        return {row["user_id"] for row in rows}

    async def set_reminded_by_dm(self, user_id: int, by_dm: bool) -> None:
        await self._db.execute(
            "INSERT INTO player_settings (user_id, reminders) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders, "
            "dm_refused = FALSE", user_id, "dm" if by_dm else "channel")

    async def dm_refused(self, user_ids: Sequence[int]) -> set[int]:
        if not user_ids:
            return set()
        rows = await self._db.fetch(
            "SELECT user_id FROM player_settings WHERE dm_refused "
            "AND user_id = ANY($1::bigint[])", list(user_ids))
        return {row["user_id"] for row in rows}

    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        await self._db.execute(
            "INSERT INTO player_settings (user_id, dm_refused) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_refused = excluded.dm_refused",
            user_id, refused)
