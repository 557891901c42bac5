"""Play sessions on SQLite: one open per server (a partial unique index), its PCs, and its end
with every advanced sheet in one transaction."""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from bot.store.rows import COMBAT_COLUMNS, stored_combat
from bot.store.sqlite.characters import refuse_in_fight
from bot.store.sqlite.writes import transaction, writes
from bot.store.values import (
    SessionOpen,
    StoredCharacter,
    StoredCombat,
    StoredSession,
    timestamp,
)
from engine.character import Character

_COLUMNS = "id, guild_id, goal, opened_by, opened_at, closed_at, achieved"


class SessionStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def current(self, guild_id: int) -> StoredSession | None:
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM play_sessions WHERE guild_id = ? AND closed_at IS NULL",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT character_id FROM play_session_members WHERE session_id = ? "
            "ORDER BY character_id", (row[0],),
        ) as cursor:
            members = tuple(r[0] for r in await cursor.fetchall())
        return StoredSession(row[0], row[1], row[2], row[3], row[4], members)

    @writes
    async def open(self, *, guild_id: int, goal: str, opened_by: int) -> StoredSession:
        now = timestamp()[:19]  # to the second, as a fight's created_at is compared with it
        cursor = await self._db.execute(
            "INSERT INTO play_sessions (guild_id, goal, opened_by, opened_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (guild_id, goal, opened_by, now))
        if cursor.rowcount != 1 or cursor.lastrowid is None:
            existing = await self.current(guild_id)
            assert existing is not None
            raise SessionOpen(existing)
        return StoredSession(cursor.lastrowid, guild_id, goal, opened_by, now)

    @writes
    async def join(self, session: StoredSession, character_id: int) -> bool:
        cursor = await self._db.execute(
            "INSERT INTO play_session_members (session_id, character_id) VALUES (?, ?) "
            "ON CONFLICT DO NOTHING", (session.id, character_id))
        return cursor.rowcount == 1

    @writes
    async def set_goal(self, session: StoredSession, goal: str) -> bool:
        """The open session's goal reworded; False when it was ended meanwhile."""
        cursor = await self._db.execute(
            "UPDATE play_sessions SET goal = ? WHERE id = ? AND closed_at IS NULL",
            (goal, session.id))
        return cursor.rowcount == 1

    async def fights(self, session: StoredSession) -> Sequence[StoredCombat]:
        """The server's fights started since the session opened, oldest first."""
        async with self._db.execute(
            f"SELECT {COMBAT_COLUMNS} FROM combats WHERE guild_id = ? "
            "AND created_at >= ? ORDER BY id", (session.guild_id, session.opened_at),
        ) as cursor:
            rows = await cursor.fetchall()
        return [stored_combat(row) for row in rows]

    async def close(self, session: StoredSession, *, achieved: bool,
                    advanced: Sequence[tuple[StoredCharacter, Character]]) -> bool:
        """End the session and save each advanced sheet, in one transaction; False (nothing
        saved) when it was ended already or a sheet changed since it was read; InFight when
        one of them is in a fight."""
        now = timestamp()
        try:
            async with transaction(self._db) as db:
                cursor = await db.execute(
                    "UPDATE play_sessions SET closed_at = ?, achieved = ? WHERE id = ? "
                    "AND closed_at IS NULL", (now, int(achieved), session.id))
                if cursor.rowcount != 1:
                    raise _Changed
                for stored, character in advanced:
                    await refuse_in_fight(db, stored.id, stored.name)
                    cursor = await db.execute(
                        "UPDATE characters SET data = ?, version = version + 1, "
                        "updated_at = ? WHERE id = ? AND version = ?",
                        (character.model_dump_json(), now, stored.id, stored.version))
                    if cursor.rowcount != 1:
                        raise _Changed
        except _Changed:
            return False
        return True


class _Changed(Exception):
    """A sheet changed since it was read: the whole end is rolled back."""
