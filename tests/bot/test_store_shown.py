"""Recording which version of a fight the table sees: written without waiting for the disk,
while every other write still waits for it."""

from __future__ import annotations

from pathlib import Path

from bot.store.sqlite import SqliteStore
from bot.store.values import ShownRecord
from engine.combat import new_combat


async def _synchronous(store: SqliteStore) -> int:
    async with store.db.execute("PRAGMA synchronous") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def test_the_shown_version_is_recorded_and_steps_stay_synced_to_disk(
        tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "unhex.sqlite3")
    try:
        assert await _synchronous(store) == 2  # FULL
        stored = await store.combats.start(guild_id=1, channel_id=2, map_name="nightclub",
                                           state=new_combat("Bar -- Kitchen"))
        assert stored is not None
        await store.combats.shown([ShownRecord(stored.id, 0, 11, None, "1:0 'x'")])
        assert await _synchronous(store) == 2
        again = await store.combats.get(stored.id)
        assert again is not None
        assert (again.board_message_id, again.prompt_message_id, again.shown_version,
                again.announced_turn) == (11, None, 0, "1:0 'x'")
    finally:
        await store.close()
