"""Characters on PostgreSQL, per server (see :mod:`bot.store.sqlite.characters` for the
columns). Names are unique per server, case and runs of spaces aside, by the table's
constraint on ``name_key``.

There is no single writer here (a pool of connections, and several processes): a change to a
character locks its row first, then checks that no fight holds it; a fight that takes a
character locks the same row before it writes its `fighting` row. Whichever comes second
sees what the first committed.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from bot.store.postgres.database import Database, changed_rows
from bot.store.rows import CHARACTER_COLUMNS, stored_character
from bot.store.values import CharacterEntry, InFight, NameTaken, StoredCharacter, timestamp
from engine.character import Character
from engine.names import name_key

__all__ = ["CharacterStore", "refuse_in_fight"]

async def refuse_in_fight(connection: asyncpg.Connection, character_id: int,
                           name: str) -> None:
    """:class:`InFight` when the character is in an active fight (the caller holds the
    character's row lock, so no fight can take it between this check and the change)."""
    channel_id = await connection.fetchval(
        "SELECT c.channel_id FROM fighting AS f JOIN combats AS c ON c.id = f.combat_id "
        "WHERE f.character_id = $1", character_id)
    if channel_id is not None:
        raise InFight(name, channel_id)


class CharacterStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    # -- reading -------------------------------------------------------------------------

    async def get(self, guild_id: int, name: str) -> StoredCharacter | None:
        """The server's character called ``name`` (any case, any spacing), if there is one."""
        row = await self._db.fetchrow(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE guild_id = $1 AND name_key = $2",
            guild_id, name_key(name))
        return None if row is None else stored_character(row)

    async def get_by_id(self, character_id: int) -> StoredCharacter | None:
        row = await self._db.fetchrow(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE id = $1", character_id)
        return None if row is None else stored_character(row)

    async def list(self, guild_id: int) -> Sequence[StoredCharacter]:
        """Every character of the server, by name."""
        rows = await self._db.fetch(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE guild_id = $1 ORDER BY name_key",
            guild_id)
        return [stored_character(r) for r in rows]

    async def entries(self, guild_id: int) -> Sequence[CharacterEntry]:
        """Every character of the server, by name, without reading their data."""
        rows = await self._db.fetch(
            "SELECT id, name, owner_id, npc, updated_at FROM characters WHERE guild_id = $1 "
            "ORDER BY name_key", guild_id)
        return [CharacterEntry(r["id"], r["name"], r["owner_id"], r["npc"], r["updated_at"])
                for r in rows]

    async def latest_pc(self, guild_id: int, owner_id: int) -> tuple[StoredCharacter | None, int]:
        """The user's most recently changed PC on the server, and how many PCs they have."""
        rows = await self._db.fetch(
            f"SELECT {CHARACTER_COLUMNS}, count(*) OVER () AS pcs FROM characters "
            "WHERE guild_id = $1 AND owner_id = $2 AND NOT npc "
            "ORDER BY updated_at DESC, id DESC LIMIT 1", guild_id, owner_id)
        return (stored_character(rows[0]), rows[0]["pcs"]) if rows else (None, 0)

    # -- changing ------------------------------------------------------------------------

    async def add(self, *, guild_id: int, owner_id: int, character: Character) -> StoredCharacter:
        """Save a new character; :class:`NameTaken` (nothing saved) when the name is taken."""
        now = timestamp()
        row = await self._db.write_row(
            "INSERT INTO characters (guild_id, name, name_key, owner_id, npc, data, created_at, "
            "updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) "
            "ON CONFLICT (guild_id, name_key) DO NOTHING RETURNING id",
            guild_id, character.name, name_key(character.name), owner_id, character.npc,
            character.model_dump_json(), now)
        if row is None:
            raise NameTaken(character.name)
        return StoredCharacter(row["id"], guild_id, owner_id, character, 0, now, now)

    async def add_many(self, *, guild_id: int, owner_id: int,
                       characters: Sequence[Character]) -> Sequence[StoredCharacter]:
        """Save new characters in one transaction: all of them, or none and :class:`NameTaken`
        for the first name that is taken (also by another of ``characters``)."""
        now = timestamp()
        saved: list[StoredCharacter] = []
        async with self._db.transaction() as connection:
            for character in characters:
                character_id = await connection.fetchval(
                    "INSERT INTO characters (guild_id, name, name_key, owner_id, npc, data, "
                    "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) "
                    "ON CONFLICT (guild_id, name_key) DO NOTHING RETURNING id",
                    guild_id, character.name, name_key(character.name), owner_id,
                    character.npc, character.model_dump_json(), now)
                if character_id is None:
                    raise NameTaken(character.name)
                saved.append(StoredCharacter(character_id, guild_id, owner_id, character,
                                             0, now, now))
        return saved

    async def replace(
        self, stored: StoredCharacter, character: Character
    ) -> StoredCharacter | None:
        """Save ``character`` (a new name too) if nobody changed or deleted it since ``stored``
        was read; else ``None`` and nothing changes. :class:`NameTaken` when a new name is
        another character's."""
        now = timestamp()
        async with self._db.transaction() as connection:
            version = await connection.fetchval(
                "SELECT version FROM characters WHERE id = $1 FOR UPDATE", stored.id)
            await refuse_in_fight(connection, stored.id, stored.name)
            if version != stored.version:
                return None
            try:
                await connection.execute(
                    "UPDATE characters SET name = $1, name_key = $2, npc = $3, data = $4, "
                    "version = version + 1, updated_at = $5 WHERE id = $6",
                    character.name, name_key(character.name), character.npc,
                    character.model_dump_json(), now, stored.id)
            except asyncpg.UniqueViolationError:
                raise NameTaken(character.name) from None
        return StoredCharacter(stored.id, stored.guild_id, stored.owner_id, character,
                               stored.version + 1, stored.created_at, now)

    async def delete(self, character_id: int, created_at: str) -> bool:
        """Delete the character ``character_id`` created at ``created_at``; False if it is
        already gone (a new character that reused the id has another ``created_at``)."""
        async with self._db.transaction() as connection:
            name = await connection.fetchval(
                "SELECT name FROM characters WHERE id = $1 AND created_at = $2 FOR UPDATE",
                character_id, created_at)
            if name is None:
                return False
            await refuse_in_fight(connection, character_id, name)
            status = await connection.execute(
                "DELETE FROM characters WHERE id = $1", character_id)
        return changed_rows(status) == 1
