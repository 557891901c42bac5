"""Fights: one active per channel, saved after every command together with its log entry, so
a restart continues where the fight was and `/combat undo` can step back."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from bot.store.writes import writes
from engine.combat import Combat, Event


@dataclass(frozen=True, slots=True)
class StoredCombat:
    id: int
    guild_id: int
    channel_id: int
    map_name: str
    state: Combat
    version: int
    board_message_id: int | None
    prompt_message_id: int | None


@dataclass(frozen=True, slots=True)
class LogEntry:
    id: int
    user_id: int
    command: str
    events: tuple[str, ...]
    undone: bool
    created_at: str


_COLUMNS = (
    "id, guild_id, channel_id, map_name, state, version, board_message_id, prompt_message_id"
)


def _combat(row: aiosqlite.Row) -> StoredCombat:
    return StoredCombat(
        row["id"], row["guild_id"], row["channel_id"], row["map_name"],
        Combat.model_validate_json(row["state"]), row["version"], row["board_message_id"],
        row["prompt_message_id"],
    )


class CombatStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def active(self, channel_id: int) -> StoredCombat | None:
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM combats WHERE channel_id = ? AND active = 1", (channel_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _combat(row)

    async def all_active(self) -> list[StoredCombat]:
        async with self._db.execute(f"SELECT {_COLUMNS} FROM combats WHERE active = 1") as cur:
            return [_combat(row) for row in await cur.fetchall()]

    @writes
    async def start(self, *, guild_id: int, channel_id: int, map_name: str,
                    state: Combat) -> StoredCombat | None:
        """A new fight in the channel, or ``None`` when one is already running there."""
        try:
            cursor = await self._db.execute(
                "INSERT INTO combats (guild_id, channel_id, map_name, state) VALUES (?, ?, ?, ?)",
                (guild_id, channel_id, map_name, state.model_dump_json()),
            )
        except aiosqlite.IntegrityError:
            await self._db.rollback()
            return None
        await self._db.commit()
        assert cursor.lastrowid is not None
        return StoredCombat(cursor.lastrowid, guild_id, channel_id, map_name, state, 0, None, None)

    @writes
    async def save(self, stored: StoredCombat, state: Combat, *, user_id: int, command: str,
                   events: Sequence[Event], active: bool = True) -> StoredCombat | None:
        """Save the state an applied command produced and log the command, in one transaction;
        ``None`` (nothing saved) when the fight changed since ``stored`` was read."""
        cursor = await self._db.execute(
            "UPDATE combats SET state = ?, version = version + 1, active = ?, "
            "updated_at = datetime('now') WHERE id = ? AND version = ?",
            (state.model_dump_json(), int(active), stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            await self._db.rollback()
            return None
        await self._db.execute(
            "INSERT INTO combat_log (combat_id, user_id, command, events, state_before) "
            "VALUES (?, ?, ?, ?, ?)",
            (stored.id, user_id, command, json.dumps([e.text for e in events]),
             stored.state.model_dump_json()),
        )
        await self._db.commit()
        return StoredCombat(stored.id, stored.guild_id, stored.channel_id, stored.map_name, state,
                            stored.version + 1, stored.board_message_id,
                            stored.prompt_message_id)

    @writes
    async def undo(self, stored: StoredCombat) -> tuple[StoredCombat, str] | None:
        """Step back over the last command not yet undone: ``(restored, its command)``."""
        async with self._db.execute(
            "SELECT id, command, state_before FROM combat_log "
            "WHERE combat_id = ? AND undone = 0 ORDER BY id DESC LIMIT 1", (stored.id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        cursor = await self._db.execute(
            "UPDATE combats SET state = ?, version = version + 1, updated_at = datetime('now') "
            "WHERE id = ? AND version = ?", (row["state_before"], stored.id, stored.version),
        )
        if cursor.rowcount != 1:
            await self._db.rollback()
            return None
        await self._db.execute("UPDATE combat_log SET undone = 1 WHERE id = ?", (row["id"],))
        await self._db.commit()
        restored = Combat.model_validate_json(row["state_before"])
        return (
            StoredCombat(stored.id, stored.guild_id, stored.channel_id, stored.map_name,
                         restored, stored.version + 1, stored.board_message_id,
                         stored.prompt_message_id),
            row["command"],
        )

    @writes
    async def set_messages(self, combat_id: int, *, board: int | None = None,
                           prompt: int | None = None, clear_prompt: bool = False) -> None:
        if board is not None:
            await self._db.execute(
                "UPDATE combats SET board_message_id = ? WHERE id = ?", (board, combat_id))
        if prompt is not None or clear_prompt:
            await self._db.execute(
                "UPDATE combats SET prompt_message_id = ? WHERE id = ?", (prompt, combat_id))
        await self._db.commit()

    async def log(self, combat_id: int, limit: int = 30) -> list[LogEntry]:
        async with self._db.execute(
            "SELECT id, user_id, command, events, undone, created_at FROM combat_log "
            "WHERE combat_id = ? ORDER BY id DESC LIMIT ?", (combat_id, limit)
        ) as cursor:
            rows = await cursor.fetchall()
        return [LogEntry(r["id"], r["user_id"], r["command"], tuple(json.loads(r["events"])),
                         bool(r["undone"]), r["created_at"]) for r in reversed(list(rows))]
