"""Benchmark what a fight costs on disk: the bytes stored per action over a 500-action fight
played through the bot (rounds of attack, pass, damage for both sides, initiative, and a GM's
`/combat set` every few rounds to keep both standing), as the growth of the database file
(after a full checkpoint, WAL included) and as the sum of the fight's row sizes, against the
1 KB goal; and, for scale, the same for the bare bot's one row per command. Prints numbers;
asserts nothing.

Run: python bench/bench_storage.py [--quick]
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import tempfile
from pathlib import Path

from _driver import bench_args, database_bytes, machine, ratio_line

from testbed.bare_bot import BareTable
from testbed.fight import Fight
from testbed.harness import CHANNEL_ID, Table

ACTIONS, QUICK_ACTIONS = 500, 30
GOAL = 1024


def fight_rows(database: Path, channel: int) -> dict[str, tuple[int, int]]:
    """``{table: (rows, bytes)}`` for the channel's fight and every row in a table with a
    ``combat_id`` column that belongs to it; bytes are the stored length of every column."""
    found: dict[str, tuple[int, int]] = {}
    with contextlib.closing(sqlite3.connect(database)) as db:
        (combat_id,) = db.execute("SELECT id FROM combats WHERE channel_id = ? "
                                  "ORDER BY id DESC LIMIT 1", (channel,)).fetchone()
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
            key = "id" if table == "combats" else "combat_id"
            if key not in columns:
                continue
            size = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in columns)
            rows, total = db.execute(f"SELECT count(*), coalesce(sum({size}), 0) FROM {table} "
                                     f"WHERE {key} = ?", (combat_id,)).fetchone()
            found[table] = (rows, total)
    return found


async def fight_bytes(directory: Path, actions: int) -> tuple[int, int, dict[str, tuple[int, int]]]:
    database = directory / "unhex.sqlite3"
    table = await Table(database).start()
    await Fight.characters(table)
    await table.stop()
    before = database_bytes(database)
    table = await table.start()
    try:
        fight = Fight(table)
        await fight.start()
        while fight.actions < actions:
            for _, step in fight.steps():
                await step()
                if fight.actions >= actions:
                    break
            else:
                await fight.heal_if_due()
        done = fight.actions
    finally:
        await table.stop()
    return done, database_bytes(database) - before, fight_rows(database, CHANNEL_ID)


async def bare_bytes(directory: Path, actions: int) -> int:
    database = directory / "bare.sqlite3"
    table = await BareTable(database).start()
    await table.stop()
    before = database_bytes(database)
    table = await table.start()
    try:
        for i in range(actions):
            await table.slash("ping", note=f"action {i}")
    finally:
        await table.stop()
    return database_bytes(database) - before


async def main() -> None:
    args = bench_args(__doc__)
    actions = QUICK_ACTIONS if args.quick else ACTIONS
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="unhex-bench-") as tmp:
        done, grown, rows = await fight_bytes(Path(tmp), actions)
        bare = await bare_bytes(Path(tmp), done)
    row_bytes = sum(b for _, b in rows.values())
    print(f"\none fight, {done} actions (each a slash command or a button the bot saved)")
    print(f"  database file growth: {grown:,} bytes = {grown / done:,.0f} bytes/action "
          "(after a checkpoint, WAL included)")
    print(f"  the fight's rows: {row_bytes:,} bytes = {row_bytes / done:,.0f} bytes/action")
    for name, (count, size) in rows.items():
        print(f"    {name:14} {count:5} rows {size:12,} bytes  {size / max(count, 1):8,.0f} "
              "bytes/row")
    print(f"  bare bot, {done} × /ping (one row each): {bare:,} bytes = "
          f"{bare / done:,.0f} bytes/action")
    print()
    print(ratio_line("bytes per action (file) / 1 KB goal", grown / done / GOAL, 1.0,
                     detail=f"{grown / done:,.0f} bytes/action"))
    print(ratio_line("bytes per action (rows) / 1 KB goal", row_bytes / done / GOAL, 1.0,
                     detail=f"{row_bytes / done:,.0f} bytes/action"))


if __name__ == "__main__":
    asyncio.run(main())
