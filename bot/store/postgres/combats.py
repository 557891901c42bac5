"""Fights on PostgreSQL, one active per channel (the schema's partial unique index). As on
SQLite (:mod:`bot.store.sqlite.combats`), each step is one transaction with everything it
changes; the usual step is one UPDATE, whose trigger writes its log entry: one round trip.

A save is refused when the fight changed since it was read (``version``): two processes that
both hold a copy of a fight (a guild changing hands) never apply a step twice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import asyncpg

from bot.operations.shards import ShardPlan
from bot.store.compact import compact_state
from bot.store.postgres.database import Database, changed_rows
from bot.store.rows import (
    COMBAT_COLUMNS,
    on_shards,
    reminded_text,
    shown_updates,
    stored_combat,
)
from bot.store.steps import Step, log_entry, replaced, written_back
from bot.store.undo import LoggedStep, undo_last_step
from bot.store.values import (
    AlreadyFighting,
    FightsToRestore,
    LogEntry,
    ShownRecord,
    StoredCombat,
    Undone,
    WriteBack,
    next_deadline,
    timestamp,
)
from engine.combat import Combat, Event

__all__ = ["CombatStore"]

_NOW = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"
_STEP = (
    f"UPDATE combats SET state = $1, version = version + 1, active = $2, next_deadline = $3, "
    f"updated_at = {_NOW}, step_user = $4, step_command = $5, step_events = $6, "
    "step_patch = $7{} WHERE id = $8 AND version = $9"
)
#: A step that also records what the table saw before it ($10: that version; $11, $12: its
#: board and prompt; $13: the turn announced), unless a newer record is in already.
_STEP_SHOWN = _STEP.format(
    ", board_message_id = CASE WHEN shown_version < $10 THEN $11 ELSE board_message_id END, "
    "prompt_message_id = CASE WHEN shown_version < $10 THEN $12 ELSE prompt_message_id END, "
    "announced_turn = CASE WHEN shown_version < $10 THEN COALESCE($13, announced_turn) "
    "ELSE announced_turn END, shown_version = GREATEST(shown_version, $10)")
_STEP = _STEP.format("")


async def _hold(connection: asyncpg.Connection, combat_id: int, wanted: set[int]) -> None:
    """Make the `fighting` rows of this fight exactly ``wanted``; a character taken is first
    locked (see :mod:`bot.store.postgres.characters`)."""
    held = {r["character_id"] for r in await connection.fetch(
        "SELECT character_id FROM fighting WHERE combat_id = $1", combat_id)}
    if held - wanted:
        await connection.execute("DELETE FROM fighting WHERE character_id = ANY($1::bigint[])",
                                 sorted(held - wanted))
    new = sorted(wanted - held)
    if not new:
        return
    await connection.execute(
        "SELECT 1 FROM characters WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE", new)
    for character_id in new:
        taken = await connection.fetchval(
            "INSERT INTO fighting (character_id, combat_id) VALUES ($1, $2) "
            "ON CONFLICT (character_id) DO NOTHING RETURNING character_id",
            character_id, combat_id)
        if taken is None:
            channel_id = await connection.fetchval(
                "SELECT c.channel_id FROM fighting AS f JOIN combats AS c ON c.id = f.combat_id "
                "WHERE f.character_id = $1", character_id)
            raise AlreadyFighting(character_id, channel_id or 0)


async def _write_back(connection: asyncpg.Connection, state: Combat,
                      write_back: WriteBack) -> None:
    for fighter in state.fighters:
        if fighter.character_id is None:
            continue
        data = await connection.fetchval(
            "SELECT data FROM characters WHERE id = $1 FOR UPDATE", fighter.character_id)
        if data is None:  # deleted meanwhile
            continue
        await connection.execute(
            "UPDATE characters SET data = $1, version = version + 1, updated_at = $2 "
            "WHERE id = $3", written_back(data, fighter, write_back), timestamp(),
            fighter.character_id)


class _UndoStatements:
    """PostgreSQL's statements of :func:`undo_last_step`, on the undo's transaction."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def last_step(self, combat_id: int) -> LoggedStep | None:
        row = await self._connection.fetchrow(
            "SELECT id, command, undo_patch, state_before, events FROM combat_log "
            "WHERE combat_id = $1 AND NOT undone ORDER BY id DESC LIMIT 1", combat_id)
        return None if row is None else LoggedStep(*row)

    async def restore(self, stored: StoredCombat, state: str, deadline: float | None) -> bool:
        status = await self._connection.execute(
            "UPDATE combats SET state = $1, version = version + 1, next_deadline = $2, "
            f"step_command = NULL, updated_at = {_NOW} WHERE id = $3 AND version = $4",
            state, deadline, stored.id, stored.version)
        return changed_rows(status) == 1

    async def mark_undone(self, entry_id: int) -> None:
        await self._connection.execute("UPDATE combat_log SET undone = TRUE WHERE id = $1",
                                       entry_id)

    async def hold(self, combat_id: int, wanted: set[int]) -> None:
        await _hold(self._connection, combat_id, wanted)


class CombatStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    # -- reading -------------------------------------------------------------------------

    async def active(self, channel_id: int) -> StoredCombat | None:
        row = await self._db.fetchrow(
            f"SELECT {COMBAT_COLUMNS} FROM combats WHERE channel_id = $1 AND active", channel_id)
        return None if row is None else stored_combat(row)

    async def get(self, combat_id: int) -> StoredCombat | None:
        row = await self._db.fetchrow(f"SELECT {COMBAT_COLUMNS} FROM combats WHERE id = $1",
                                      combat_id)
        return None if row is None else stored_combat(row)

    async def to_restore(self, shards: ShardPlan) -> FightsToRestore:
        """What start-up must look after in the fights of ``shards``: their deadlines (only
        an active fight has one), and the fights (ended ones too) whose newest step was not
        shown, each from a partial index of its own (migration 4)."""
        mine = on_shards(shards)
        deadlines = await self._db.fetch(
            f"SELECT channel_id, next_deadline FROM combats WHERE next_deadline IS NOT NULL{mine}")
        unshown = await self._db.fetch(
            f"SELECT channel_id, id FROM combats WHERE shown_version < version{mine}")
        return FightsToRestore(dict(deadlines), [(r[0], r[1]) for r in unshown])

    async def fight_of(self, character_id: int) -> tuple[int, int] | None:
        """``(combat id, channel id)`` of the active fight holding the character, if any."""
        row = await self._db.fetchrow(
            "SELECT f.combat_id, c.channel_id FROM fighting AS f "
            "JOIN combats AS c ON c.id = f.combat_id WHERE f.character_id = $1", character_id)
        return None if row is None else (row[0], row[1])

    async def log(self, combat_id: int, limit: int | None = 30) -> list[LogEntry]:
        """The fight's last ``limit`` log entries (None: all of them), oldest first."""
        rows = await self._db.fetch(
            "SELECT id, user_id, command, events, undone, created_at FROM combat_log "
            "WHERE combat_id = $1 ORDER BY id DESC LIMIT $2", combat_id, limit)
        return [log_entry(r["id"], r["user_id"], r["command"], r["events"], r["undone"],
                          r["created_at"]) for r in reversed(rows)]

    # -- changing ------------------------------------------------------------------------

    async def start(self, *, guild_id: int, channel_id: int, map_name: str, state: Combat,
                    pin: bool = False, report_channel_id: int | None = None,
                    map_identity: tuple[int, str] | None = None) -> StoredCombat | None:
        """A new fight in the channel, or ``None`` when one is already running there.
        ``map_identity``: the server map's ``(id, created_at)``; None for a built-in map."""
        map_id, map_created_at = map_identity or (None, None)
        state = compact_state(state)
        row = await self._db.write_row(
            "INSERT INTO combats (guild_id, channel_id, map_name, state, pin, "
            "report_channel_id, map_id, map_created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
            "ON CONFLICT (channel_id) WHERE active DO NOTHING RETURNING id",
            guild_id, channel_id, map_name, state.model_dump_json(), pin, report_channel_id,
            map_id, map_created_at)
        if row is None:
            return None
        return StoredCombat(row["id"], guild_id, channel_id, map_name, state, 0, None, None, -1,
                            pin, report_channel_id, None, map_identity, next_deadline(state))

    async def save(self, stored: StoredCombat, state: Combat, *, user_id: int, command: str,
                   events: Sequence[Event], write_back: WriteBack | None = None,
                   shown: ShownRecord | None = None) -> StoredCombat | None:
        """Save the state an applied command produced, in one transaction with its log entry,
        the fight's characters and, when the fight has ended, each sheet's write-back; and
        ``shown``, what the table saw of the fight before this step, with it.

        ``None`` (nothing saved) when the fight changed since ``stored`` was read;
        :class:`AlreadyFighting` (nothing saved) when it would hold a character that is in
        another active fight."""
        step = Step.of(stored, state, user_id=user_id, command=command, events=events)
        statement, row = _STEP if shown is None else _STEP_SHOWN, step.arguments(shown)
        if step.usual:  # one statement, its own transaction (the trigger logs it)
            if changed_rows(await self._db.execute(statement, *row)) != 1:
                return None
            return replaced(stored, state, step.deadline)
        async with self._db.transaction() as connection:
            if changed_rows(await connection.execute(statement, *row)) != 1:
                return None
            await _hold(connection, stored.id, step.holds)
            if step.ended and write_back is not None:
                await _write_back(connection, state, write_back)
        return replaced(stored, state, step.deadline)

    async def undo(self, stored: StoredCombat) -> Undone | None:
        """Step back over the last command not yet undone (:func:`undo_last_step`)."""
        async with self._db.transaction() as connection:
            return await undo_last_step(_UndoStatements(connection), stored)

    async def remind(self, stored: StoredCombat,
                     reminded: tuple[float, ...]) -> StoredCombat | None:
        deadline = next_deadline(stored.state, reminded)
        status = await self._db.execute(
            "UPDATE combats SET reminded = $1, next_deadline = $2 "
            "WHERE id = $3 AND version = $4 AND reminded = $5",
            reminded_text(reminded), deadline, stored.id, stored.version,
            reminded_text(stored.reminded))
        if changed_rows(status) != 1:
            return None
        return dataclasses.replace(stored, reminded=reminded, next_deadline=deadline)

    async def shown(self, records: Sequence[ShownRecord]) -> None:
        """The table now sees each record's version of its fight: its board and prompt
        message ids, and the turn whose players have been pinged (a record older than the one
        kept changes nothing).

        Committed without waiting for the server's disk (``synchronous_commit = off`` for
        this transaction only), in one round trip, as SQLite writes it: it survives the bot's
        crash, and lost to the server's, it only makes a restart show the version again."""
        updates = shown_updates(records)
        await self._db.execute(
            f"BEGIN; SET LOCAL synchronous_commit = off; {updates} COMMIT;")
