"""Maps on PostgreSQL, written by a server's GMs; kept exactly as typed (see
:mod:`bot.store.sqlite.maps`). Names are unique per server ignoring case and runs of spaces
(``engine.names.name_key``), by the table's constraint."""

from __future__ import annotations

from bot.store.postgres.database import Database, changed_rows
from bot.store.rows import MAP_COLUMNS, stored_map
from bot.store.values import StoredMap, clean_name
from engine.names import name_key

__all__ = ["MapStore"]

# Milliseconds, in UTC, as SQLite keeps them: a stale button can tell a deleted map from a new
# one that reused its id, and an edit can tell whether somebody saved the map since it was read.
_NOW = "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')"
class MapStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(
        self, *, guild_id: int, name: str, text: str, author_id: int
    ) -> StoredMap | None:
        """Save a new map; ``None`` (and nothing saved) when the server has one of that name."""
        name = clean_name(name)
        row = await self._db.write_row(
            "INSERT INTO maps (guild_id, name, name_key, text, author_id, created_at, "
            f"updated_at) VALUES ($1, $2, $3, $4, $5, {_NOW}, {_NOW}) "
            f"ON CONFLICT (guild_id, name_key) DO NOTHING RETURNING {MAP_COLUMNS}",
            guild_id, name, name_key(name), text, author_id,
        )
        return None if row is None else stored_map(row)

    async def get(self, guild_id: int, name: str) -> StoredMap | None:
        """The server's map called ``name`` (any case), if there is one."""
        row = await self._db.fetchrow(
            f"SELECT {MAP_COLUMNS} FROM maps WHERE guild_id = $1 AND name_key = $2",
            guild_id, name_key(name))
        return None if row is None else stored_map(row)

    async def get_by_id(self, map_id: int) -> StoredMap | None:
        row = await self._db.fetchrow(f"SELECT {MAP_COLUMNS} FROM maps WHERE id = $1", map_id)
        return None if row is None else stored_map(row)

    async def in_guild(self, guild_id: int) -> list[StoredMap]:
        """Every map of the server, by name."""
        rows = await self._db.fetch(
            f"SELECT {MAP_COLUMNS} FROM maps WHERE guild_id = $1 ORDER BY name_key", guild_id)
        return [stored_map(r) for r in rows]

    async def names(self, guild_id: int) -> list[str]:
        """The names of the server's maps, by name (for autocomplete)."""
        rows = await self._db.fetch(
            "SELECT name FROM maps WHERE guild_id = $1 ORDER BY name_key", guild_id)
        return [r["name"] for r in rows]

    async def replace_text(self, stored: StoredMap, text: str) -> StoredMap | None:
        """Save ``text`` if nobody changed or deleted the map since ``stored`` was read;
        else ``None`` and nothing changes."""
        row = await self._db.write_row(
            f"UPDATE maps SET text = $1, updated_at = {_NOW} "
            f"WHERE id = $2 AND updated_at = $3 AND text = $4 RETURNING {MAP_COLUMNS}",
            text, stored.id, stored.updated_at, stored.text)
        return None if row is None else stored_map(row)

    async def delete(self, map_id: int, created_at: str) -> bool:
        """Delete the map ``map_id`` created at ``created_at``; False if it is already gone."""
        status = await self._db.execute(
            "DELETE FROM maps WHERE id = $1 AND created_at = $2", map_id, created_at)
        return changed_rows(status) == 1
