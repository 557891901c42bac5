"""Each player's own settings (the `player_settings` table): where they are reminded, and
whether they were told that their direct message was refused."""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from bot.store.sqlite.writes import writes

__all__ = ["PlayerStore"]


class PlayerStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def reminded_by_dm(self, user_ids: Sequence[int]) -> set[int]:
        if not user_ids:
            return set()
        marks = ", ".join("?" * len(user_ids))
        async with self._db.execute(
            f"SELECT user_id FROM player_settings WHERE reminders = 'dm' "
            f"AND user_id IN ({marks})", tuple(user_ids)
        ) as cursor:
            return {row["user_id"] for row in await cursor.fetchall()}

    @writes
    async def set_reminded_by_dm(self, user_id: int, by_dm: bool) -> None:
        await self._db.execute(
            "INSERT INTO player_settings (user_id, reminders) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders, dm_refused = 0",
            (user_id, "dm" if by_dm else "channel"),
        )

    async def dm_refused(self, user_ids: Sequence[int]) -> set[int]:
        if not user_ids:
            return set()
        marks = ", ".join("?" * len(user_ids))
        async with self._db.execute(
            f"SELECT user_id FROM player_settings WHERE dm_refused AND user_id IN ({marks})",
            tuple(user_ids)
        ) as cursor:
            return {row["user_id"] for row in await cursor.fetchall()}

    @writes
    async def set_dm_refused(self, user_id: int, refused: bool) -> None:
        await self._db.execute(
            "INSERT INTO player_settings (user_id, dm_refused) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_refused = excluded.dm_refused",
            (user_id, int(refused)),
        )
