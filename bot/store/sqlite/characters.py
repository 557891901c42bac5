"""Characters on SQLite, per server (the `characters` table, migration 3).

A row keeps the engine's `Character` as JSON in ``data``, with what the bot looks a character up
by beside it: its name, the name's key (:func:`name_key`; names are unique per server ignoring
case and runs of spaces), who owns it and whether it is an NPC. ``version`` goes up by one at
every change: a change is saved only if nobody saved the character since it was read
(:meth:`CharacterStore.replace`), like rolls. Times carry microseconds, so "the most recently
changed" is well defined.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite

from bot.store.rows import CHARACTER_COLUMNS, stored_character
from bot.store.sqlite.writes import transaction, writes
from bot.store.values import CharacterEntry, InFight, NameTaken, StoredCharacter, timestamp
from engine.character import Character
from engine.names import name_key

__all__ = ["CharacterStore", "refuse_in_fight"]


async def refuse_in_fight(db: aiosqlite.Connection, character_id: int, name: str) -> None:
    """:class:`InFight` when the character is in an active fight (called under the write
    lock, so no fight can take it between this check and the change)."""
    async with db.execute(
        "SELECT c.channel_id FROM fighting AS f JOIN combats AS c ON c.id = f.combat_id "
        "WHERE f.character_id = ?", (character_id,)
    ) as cursor:
        row = await cursor.fetchone()
    if row is not None:
        raise InFight(name, row[0])


class CharacterStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    # -- reading -------------------------------------------------------------------------

    async def get(self, guild_id: int, name: str) -> StoredCharacter | None:
        """The server's character called ``name`` (any case, any spacing), if there is one."""
        async with self._db.execute(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE guild_id = ? AND name_key = ?",
            (guild_id, name_key(name)),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else stored_character(row)

    async def get_by_id(self, character_id: int) -> StoredCharacter | None:
        async with self._db.execute(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE id = ?", (character_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else stored_character(row)

    async def list(self, guild_id: int) -> Sequence[StoredCharacter]:
        """Every character of the server, by name."""
        async with self._db.execute(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE guild_id = ? ORDER BY name_key",
            (guild_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [stored_character(r) for r in rows]

    async def entries(self, guild_id: int) -> Sequence[CharacterEntry]:
        """Every character of the server, by name, without reading their data."""
        async with self._db.execute(
            "SELECT id, name, owner_id, npc, updated_at FROM characters WHERE guild_id = ? "
            "ORDER BY name_key", (guild_id,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [CharacterEntry(r["id"], r["name"], r["owner_id"], bool(r["npc"]), r["updated_at"])
                for r in rows]

    async def latest_pc(self, guild_id: int, owner_id: int) -> tuple[StoredCharacter | None, int]:
        """The user's most recently changed PC on the server, and how many PCs they have."""
        async with self._db.execute(
            f"SELECT {CHARACTER_COLUMNS} FROM characters WHERE guild_id = ? AND owner_id = ? "
            "AND npc = 0 ORDER BY updated_at DESC, id DESC", (guild_id, owner_id),
        ) as cursor:
            rows = list(await cursor.fetchall())
        return (stored_character(rows[0]) if rows else None), len(rows)

    # -- changing ------------------------------------------------------------------------


    @writes
    async def add(self, *, guild_id: int, owner_id: int, character: Character) -> StoredCharacter:
        """Save a new character; :class:`NameTaken` (nothing saved) when the name is taken."""
        now = timestamp()
        cursor = await self._db.execute(
            "INSERT INTO characters (guild_id, name, name_key, owner_id, npc, data, created_at, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, name_key) DO NOTHING",
            (guild_id, character.name, name_key(character.name), owner_id, int(character.npc),
             character.model_dump_json(), now, now),
        )
        if cursor.rowcount != 1 or cursor.lastrowid is None:
            raise NameTaken(character.name)
        return StoredCharacter(cursor.lastrowid, guild_id, owner_id, character, 0, now, now)

    async def add_many(self, *, guild_id: int, owner_id: int,
                       characters: Sequence[Character]) -> Sequence[StoredCharacter]:
        """Save new characters in one transaction: all of them, or none and :class:`NameTaken`
        for the first name that is taken (also by another of ``characters``)."""
        now = timestamp()
        saved: list[StoredCharacter] = []
        async with transaction(self._db) as db:
            for character in characters:
                cursor = await db.execute(
                    "INSERT INTO characters (guild_id, name, name_key, owner_id, npc, data, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, name_key) DO NOTHING",
                    (guild_id, character.name, name_key(character.name), owner_id,
                     int(character.npc), character.model_dump_json(), now, now),
                )
                if cursor.rowcount != 1 or cursor.lastrowid is None:
                    raise NameTaken(character.name)
                saved.append(StoredCharacter(cursor.lastrowid, guild_id, owner_id, character,
                                             0, now, now))
        return saved

    @writes
    async def replace(
        self, stored: StoredCharacter, character: Character
    ) -> StoredCharacter | None:
        """Save ``character`` (a new name too) if nobody changed or deleted it since ``stored``
        was read; else ``None`` and nothing changes. :class:`NameTaken` when a new name is
        another character's."""
        await refuse_in_fight(self._db, stored.id, stored.name)
        now = timestamp()
        try:
            cursor = await self._db.execute(
                "UPDATE characters SET name = ?, name_key = ?, npc = ?, data = ?, "
                "version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                (character.name, name_key(character.name), int(character.npc),
                 character.model_dump_json(), now, stored.id, stored.version),
            )
        except aiosqlite.IntegrityError:
            raise NameTaken(character.name) from None
        if cursor.rowcount != 1:
            return None
        return StoredCharacter(stored.id, stored.guild_id, stored.owner_id, character,
                               stored.version + 1, stored.created_at, now)

    @writes
    async def delete(self, character_id: int, created_at: str) -> bool:
        """Delete the character ``character_id`` created at ``created_at``; False if it is
        already gone (a new character that reused the id has another ``created_at``)."""
        async with self._db.execute(
            "SELECT name FROM characters WHERE id = ?", (character_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is not None:
            await refuse_in_fight(self._db, character_id, row[0])
        cursor = await self._db.execute(
            "DELETE FROM characters WHERE id = ? AND created_at = ?", (character_id, created_at)
        )
        return cursor.rowcount == 1
