"""Play sessions on PostgreSQL: one open per server (a partial unique index), its PCs, and its
end with every advanced sheet in one transaction (each sheet's row locked as it is checked)."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from bot.store.postgres.characters import refuse_in_fight
from bot.store.postgres.database import Database
from bot.store.rows import COMBAT_COLUMNS, stored_combat
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
    def __init__(self, db: Database) -> None:
        self._db = db

    async def current(self, guild_id: int) -> StoredSession | None:
        row = await self._db.fetchrow(
            f"SELECT {_COLUMNS}, ARRAY(SELECT character_id FROM play_session_members "
            "WHERE session_id = play_sessions.id ORDER BY character_id) AS members "
            "FROM play_sessions WHERE guild_id = $1 AND closed_at IS NULL", guild_id)
        if row is None:
            return None
        return StoredSession(row["id"], row["guild_id"], row["goal"], row["opened_by"],
                             row["opened_at"], tuple(row["members"]))

    async def open(self, *, guild_id: int, goal: str, opened_by: int) -> StoredSession:
        now = timestamp()[:19]  # to the second, as a fight's created_at is compared with it
        row = await self._db.write_row(
            "INSERT INTO play_sessions (guild_id, goal, opened_by, opened_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id",
            guild_id, goal, opened_by, now)
        if row is None:
            existing = await self.current(guild_id)
            assert existing is not None
            raise SessionOpen(existing)
        return StoredSession(row["id"], guild_id, goal, opened_by, now)

    async def join(self, session: StoredSession, character_id: int) -> bool:
        row = await self._db.write_row(
            "INSERT INTO play_session_members (session_id, character_id) VALUES ($1, $2) "
            "ON CONFLICT DO NOTHING RETURNING session_id", session.id, character_id)
        return row is not None

    async def set_goal(self, session: StoredSession, goal: str) -> bool:
        """The open session's goal reworded; False when it was ended meanwhile."""
        status = await self._db.execute(
            "UPDATE play_sessions SET goal = $1 WHERE id = $2 AND closed_at IS NULL",
            goal, session.id)
        return status == "UPDATE 1"

    async def fights(self, session: StoredSession) -> Sequence[StoredCombat]:
        """The server's fights started since the session opened, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {COMBAT_COLUMNS} FROM combats WHERE guild_id = $1 AND created_at >= $2 "
            "ORDER BY id", session.guild_id, session.opened_at)
        return [stored_combat(row) for row in rows]

    async def close(self, session: StoredSession, *, achieved: bool,
                    advanced: Sequence[tuple[StoredCharacter, Character]]) -> bool:
        """End the session and save each advanced sheet, in one transaction; False (nothing
        saved) when it was ended already or a sheet changed since it was read; InFight when
        one of them is in a fight."""
        now = timestamp()
        try:
            async with self._db.transaction() as connection:
                status = await connection.execute(
                    "UPDATE play_sessions SET closed_at = $1, achieved = $2 WHERE id = $3 "
                    "AND closed_at IS NULL", now, achieved, session.id)
                if status != "UPDATE 1":
                    raise _Changed
                for stored, character in advanced:
                    await _save_sheet(connection, stored, character, now)
        except _Changed:
            return False
        return True


class _Changed(Exception):
    """The session or a sheet changed since it was read: the whole end is rolled back."""


async def _save_sheet(connection: asyncpg.Connection, stored: StoredCharacter,
                      character: Character, now: str) -> None:
    version = await connection.fetchval(
        "SELECT version FROM characters WHERE id = $1 FOR UPDATE", stored.id)
    await refuse_in_fight(connection, stored.id, stored.name)
    if version != stored.version:
        raise _Changed
    await connection.execute(
        "UPDATE characters SET data = $1, version = version + 1, updated_at = $2 "
        "WHERE id = $3", character.model_dump_json(), now, stored.id)
