"""Maps on SQLite, written by a server's GMs (the `maps` table, migration 4).

A map's ``text`` is kept exactly as its GM typed it (comments included), so `/map edit` and
`/map export` give it back unchanged; the engine's ``parse_map`` reads it when it is shown.
Names are unique per server ignoring case and runs of spaces (``engine.names.name_key``).
"""

from __future__ import annotations

import aiosqlite

from bot.store.rows import MAP_COLUMNS, stored_map
from bot.store.sqlite.writes import writes
from bot.store.values import StoredMap, clean_name
from engine.names import name_key

__all__ = ["MapStore"]

# Milliseconds: a stale button can tell a deleted map from a new one that reused its id, and
# an edit can tell whether somebody saved the map since it was read.
_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
class MapStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    @writes
    async def add(
        self, *, guild_id: int, name: str, text: str, author_id: int
    ) -> StoredMap | None:
        """Save a new map; ``None`` (and nothing saved) when the server has one of that name."""
        name = clean_name(name)
        cursor = await self._db.execute(
            "INSERT INTO maps (guild_id, name, name_key, text, author_id, created_at, "
            f"updated_at) VALUES (?, ?, ?, ?, ?, {_NOW}, {_NOW}) "
            "ON CONFLICT (guild_id, name_key) DO NOTHING",
            (guild_id, name, name_key(name), text, author_id),
        )
        if cursor.rowcount != 1 or cursor.lastrowid is None:
            return None
        return await self.get_by_id(cursor.lastrowid)

    async def get(self, guild_id: int, name: str) -> StoredMap | None:
        """The server's map called ``name`` (any case), if there is one."""
        async with self._db.execute(
            f"SELECT {MAP_COLUMNS} FROM maps WHERE guild_id = ? AND name_key = ?",
            (guild_id, name_key(name)),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else stored_map(row)

    async def get_by_id(self, map_id: int) -> StoredMap | None:
        async with self._db.execute(
            f"SELECT {MAP_COLUMNS} FROM maps WHERE id = ?", (map_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else stored_map(row)

    async def in_guild(self, guild_id: int) -> list[StoredMap]:
        """Every map of the server, by name."""
        async with self._db.execute(
            f"SELECT {MAP_COLUMNS} FROM maps WHERE guild_id = ? ORDER BY name_key", (guild_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [stored_map(r) for r in rows]

    async def names(self, guild_id: int) -> list[str]:
        """The names of the server's maps, by name (for autocomplete)."""
        async with self._db.execute(
            "SELECT name FROM maps WHERE guild_id = ? ORDER BY name_key", (guild_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [r["name"] for r in rows]

    @writes
    async def replace_text(self, stored: StoredMap, text: str) -> StoredMap | None:
        """Save ``text`` if nobody changed or deleted the map since ``stored`` was read;
        else ``None`` and nothing changes."""
        cursor = await self._db.execute(
            f"UPDATE maps SET text = ?, updated_at = {_NOW} "
            "WHERE id = ? AND updated_at = ? AND text = ?",
            (text, stored.id, stored.updated_at, stored.text),
        )
        return await self.get_by_id(stored.id) if cursor.rowcount == 1 else None

    @writes
    async def delete(self, map_id: int, created_at: str) -> bool:
        """Delete the map ``map_id`` created at ``created_at``; False if it is already gone."""
        cursor = await self._db.execute(
            "DELETE FROM maps WHERE id = ? AND created_at = ?", (map_id, created_at)
        )
        return cursor.rowcount == 1
