"""Fights on SQLite: one active per channel. Each step of a fight is one transaction with
everything it changes: the new state, its log entry (with a patch back to the state before it,
for `/combat undo`, compressed), which characters the fight holds, and, when the fight ends,
every sheet's write-back, merged with the sheet as it is inside that transaction.

A character is in at most one active fight (the `fighting` table). While it is, the fight's
copy is the truth and the sheet is not changed elsewhere (:mod:`bot.store.sqlite.characters`
refuses).

Start-up reads only :class:`FightsToRestore` (deadlines, and the fights whose newest step
was not shown), never whole states: a fight is loaded when it is first touched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import cast

import aiosqlite

from bot.changes import mark_committed
from bot.operations.shards import ShardPlan
from bot.store.compact import compact_state
from bot.store.rows import (
    COMBAT_COLUMNS,
    on_shards,
    reminded_text,
    shown_updates,
    stored_combat,
)
from bot.store.sqlite.writes import SYNCHRONOUS, transaction, write_lock, writes
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

_STEP = (
    "UPDATE combats SET state = ?1, version = version + 1, active = ?2, next_deadline = ?3, "
    "updated_at = datetime('now'), step_user = ?4, step_command = ?5, step_events = ?6, "
    "step_patch = ?7{} WHERE id = ?8 AND version = ?9"
)
#: A step that also records what the table saw before it (?10: that version; ?11, ?12: its
#: board and prompt; ?13: the turn announced), unless a newer record is in already.
_STEP_SHOWN = _STEP.format(
    ", board_message_id = CASE WHEN shown_version < ?10 THEN ?11 ELSE board_message_id END, "
    "prompt_message_id = CASE WHEN shown_version < ?10 THEN ?12 ELSE prompt_message_id END, "
    "announced_turn = CASE WHEN shown_version < ?10 THEN COALESCE(?13, announced_turn) "
    "ELSE announced_turn END, shown_version = MAX(shown_version, ?10)")
_STEP = _STEP.format("")


class CombatStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    # -- reading -------------------------------------------------------------------------

    async def active(self, channel_id: int) -> StoredCombat | None:
        async with self._db.execute(
            f"SELECT {COMBAT_COLUMNS} FROM combats WHERE channel_id = ? AND active = 1",
            (channel_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else stored_combat(row)

    async def get(self, combat_id: int) -> StoredCombat | None:
        async with self._db.execute(
            f"SELECT {COMBAT_COLUMNS} FROM combats WHERE id = ?", (combat_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else stored_combat(row)

    async def to_restore(self, shards: ShardPlan) -> FightsToRestore:
        """What start-up must look after in the fights of ``shards``: their deadlines (only
        an active fight has one), and the fights (ended ones too) whose newest step was not
        shown. Each read from a partial index of its own (migration 13): a fight without a
        deadline and with nothing to show is not read at all."""
        mine = on_shards(shards)
        async with self._db.execute(
            f"SELECT channel_id, next_deadline FROM combats WHERE next_deadline IS NOT NULL{mine}"
        ) as cursor:
            cursor.row_factory = None  # (plain tuples: the dict is built from them at once)
            deadlines = dict(cast("list[tuple[int, float]]", await cursor.fetchall()))
        async with self._db.execute(
            f"SELECT channel_id, id FROM combats WHERE shown_version < version{mine}"
        ) as cursor:
            cursor.row_factory = None
            unshown = cast("list[tuple[int, int]]", await cursor.fetchall())
        return FightsToRestore(deadlines, unshown)

    async def fight_of(self, character_id: int) -> tuple[int, int] | None:
        """``(combat id, channel id)`` of the active fight holding the character, if any."""
        async with self._db.execute(
            "SELECT f.combat_id, c.channel_id FROM fighting AS f "
            "JOIN combats AS c ON c.id = f.combat_id WHERE f.character_id = ?",
            (character_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else (row[0], row[1])

    async def log(self, combat_id: int, limit: int | None = 30) -> list[LogEntry]:
        """The fight's last ``limit`` log entries (None: all of them), oldest first."""
        async with self._db.execute(
            "SELECT id, user_id, command, events, undone, created_at FROM combat_log "
            "WHERE combat_id = ? ORDER BY id DESC LIMIT ?",
            (combat_id, -1 if limit is None else limit)
        ) as cursor:
            rows = await cursor.fetchall()
        return [log_entry(r["id"], r["user_id"], r["command"], r["events"], bool(r["undone"]),
                          r["created_at"]) for r in reversed(list(rows))]

    # -- changing ------------------------------------------------------------------------

    @writes
    async def start(self, *, guild_id: int, channel_id: int, map_name: str, state: Combat,
                    pin: bool = False, report_channel_id: int | None = None,
                    map_identity: tuple[int, str] | None = None) -> StoredCombat | None:
        """A new fight in the channel, or ``None`` when one is already running there.
        ``map_identity``: the server map's ``(id, created_at)``; None for a built-in map."""
        map_id, map_created_at = map_identity or (None, None)
        state = compact_state(state)
        try:
            cursor = await self._db.execute(
                "INSERT INTO combats (guild_id, channel_id, map_name, state, pin, "
                "report_channel_id, map_id, map_created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, map_name, state.model_dump_json(), int(pin),
                 report_channel_id, map_id, map_created_at),
            )
        except aiosqlite.IntegrityError:
            return None
        assert cursor.lastrowid is not None
        return StoredCombat(cursor.lastrowid, guild_id, channel_id, map_name, state, 0, None,
                            None, -1, pin, report_channel_id, None, map_identity,
                            next_deadline(state))

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
            async with write_lock(self._db):
                cursor = await self._db.execute(statement, row)
                if cursor.rowcount != 1:
                    return None
                mark_committed()
            return replaced(stored, state, step.deadline)
        async with transaction(self._db) as db:
            cursor = await db.execute(statement, row)
            if cursor.rowcount != 1:
                return None
            await self._hold(stored.id, step.holds)
            if step.ended and write_back is not None:
                await self._write_back(state, write_back)
        return replaced(stored, state, step.deadline)

    async def _hold(self, combat_id: int, wanted: set[int]) -> None:
        """Make the `fighting` rows of this fight exactly ``wanted``."""
        async with self._db.execute(
            "SELECT character_id FROM fighting WHERE combat_id = ?", (combat_id,)
        ) as cursor:
            held = {row[0] for row in await cursor.fetchall()}
        for gone in held - wanted:
            await self._db.execute("DELETE FROM fighting WHERE character_id = ?", (gone,))
        for new in wanted - held:
            try:
                await self._db.execute(
                    "INSERT INTO fighting (character_id, combat_id) VALUES (?, ?)",
                    (new, combat_id))
            except aiosqlite.IntegrityError:
                other = await self.fight_of(new)
                raise AlreadyFighting(new, other[1] if other else 0) from None

    async def _write_back(self, state: Combat, write_back: WriteBack) -> None:
        for fighter in state.fighters:
            if fighter.character_id is None:
                continue
            async with self._db.execute(
                "SELECT data FROM characters WHERE id = ?", (fighter.character_id,)
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:  # deleted meanwhile
                continue
            await self._db.execute(
                "UPDATE characters SET data = ?, version = version + 1, updated_at = ? "
                "WHERE id = ?",
                (written_back(row[0], fighter, write_back), timestamp(), fighter.character_id),
            )

    async def undo(self, stored: StoredCombat) -> Undone | None:
        """Step back over the last command not yet undone (:func:`undo_last_step`)."""
        async with transaction(self._db) as db:
            return await undo_last_step(_UndoStatements(db, self._hold), stored)

    @writes
    async def remind(self, stored: StoredCombat,
                     reminded: tuple[float, ...]) -> StoredCombat | None:
        deadline = next_deadline(stored.state, reminded)
        cursor = await self._db.execute(
            "UPDATE combats SET reminded = ?, next_deadline = ? "
            "WHERE id = ? AND version = ? AND reminded = ?",
            (reminded_text(reminded), deadline, stored.id, stored.version,
             reminded_text(stored.reminded)),
        )
        if cursor.rowcount != 1:
            return None
        return dataclasses.replace(stored, reminded=reminded, next_deadline=deadline)

    @writes
    async def shown(self, records: Sequence[ShownRecord]) -> None:
        """The table now sees each record's version of its fight: its board and prompt
        message ids, and the turn whose players have been pinged (a record older than the one
        kept changes nothing).

        Committed without waiting for the disk (``synchronous=NORMAL``, for this transaction
        only): it survives the bot's crash, and the next step's commit syncs it with itself.
        Lost to a power cut, it only makes a restart show the version again (the nonces find
        the messages already posted), as a crash before this write does."""
        updates = shown_updates(records)
        script = (f"PRAGMA synchronous=NORMAL; BEGIN; {updates} COMMIT; "
                  f"PRAGMA synchronous={SYNCHRONOUS};")
        try:  # one round trip to the database's thread
            await self._db.executescript(script)
        except BaseException:
            if self._db.in_transaction:
                await self._db.rollback()
            await self._db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            raise


class _UndoStatements:
    """SQLite's statements of :func:`undo_last_step`, in the undo's transaction on ``db``;
    ``hold`` sets the characters a fight holds (:meth:`CombatStore._hold`)."""

    def __init__(self, db: aiosqlite.Connection,
                 hold: Callable[[int, set[int]], Awaitable[None]]) -> None:
        self._db = db
        self._hold = hold

    async def last_step(self, combat_id: int) -> LoggedStep | None:
        async with self._db.execute(
            "SELECT id, command, undo_patch, state_before, events FROM combat_log "
            "WHERE combat_id = ? AND undone = 0 ORDER BY id DESC LIMIT 1", (combat_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else LoggedStep(*row)

    async def restore(self, stored: StoredCombat, state: str, deadline: float | None) -> bool:
        cursor = await self._db.execute(
            "UPDATE combats SET state = ?, version = version + 1, next_deadline = ?, "
            "step_command = NULL, updated_at = datetime('now') WHERE id = ? AND version = ?",
            (state, deadline, stored.id, stored.version),
        )
        return cursor.rowcount == 1

    async def mark_undone(self, entry_id: int) -> None:
        await self._db.execute("UPDATE combat_log SET undone = 1 WHERE id = ?", (entry_id,))

    async def hold(self, combat_id: int, wanted: set[int]) -> None:
        await self._hold(combat_id, wanted)
