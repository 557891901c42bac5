"""Many fights at once, cheaply: a real fight played once, then its rows copied to more
channels of the same server (SQLite or PostgreSQL), each channel known to the table."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import asyncpg
import discord.ext.test.backend as dpytest_backend

from bot.store import is_postgres
from testbed.fight import Fight
from testbed.harness import CHANNEL_ID, GUILD_ID, Table

__all__ = ["add_channels", "copied_fights", "copy_fights", "copy_fights_in",
           "copy_fights_postgres"]


def add_channels(table: Table, channel_ids: list[int]) -> None:
    """More text channels on the table's server (the harness makes two)."""
    guild = table.bot.get_guild(GUILD_ID)
    assert guild is not None
    for number, channel_id in enumerate(channel_ids):
        if guild.get_channel(channel_id) is None:
            dpytest_backend.make_text_channel(f"fight-{number}", guild, id_num=channel_id,
                                              position=number + 3)


def copy_fights(database: Path, count: int, first_channel: int,
                templates: list[int] | None = None) -> list[int]:
    """Insert ``count`` copies of the active fights in ``templates`` (channel ids; default:
    every active fight), round robin, into channels ``first_channel``, +1, ...; each copy is
    the fight's row with its channel changed, plus copies of the rows that belong to it in
    every table with a ``combat_id`` column (its log). Returns the new channel ids.

    The copy reads the column lists from the database itself, so it follows the schema the
    bot's own migrations made."""
    db = sqlite3.connect(database)
    try:
        columns = [r[1] for r in db.execute("PRAGMA table_info(combats)")]
        assert "channel_id" in columns, f"combats has no channel_id column: {columns}"
        children = [t for (t,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'combats'")
            if {"id", "combat_id"} <= {r[1] for r in db.execute(f"PRAGMA table_info({t})")}]
        # (`fighting` is left out: a copy is a fight of no character of the server.)
        if templates is None:
            ids = [i for (i,) in db.execute("SELECT id FROM combats WHERE active = 1 ORDER BY id")]
        else:
            ids = [db.execute("SELECT id FROM combats WHERE channel_id = ? AND active = 1",
                              (c,)).fetchone()[0] for c in templates]
        assert ids, "no active fight to copy"
        fight_cols = [c for c in columns if c != "id"]
        select = ", ".join("?" if c == "channel_id" else c for c in fight_cols)
        insert_fight = (f"INSERT INTO combats ({', '.join(fight_cols)}) "
                        f"SELECT {select} FROM combats WHERE id = ?")
        insert_children = []
        for table in children:
            cols = [r[1] for r in db.execute(f"PRAGMA table_info({table})") if r[1] != "id"]
            select = ", ".join("?" if c == "combat_id" else c for c in cols)
            insert_children.append(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {select} "
                                   f"FROM {table} WHERE combat_id = ? ORDER BY id")
        channels = [first_channel + i for i in range(count)]
        unlinked = {template: _unlinked(db.execute("SELECT state FROM combats WHERE id = ?",
                                                   (template,)).fetchone()[0])
                    for template in ids}
        with db:
            for i, channel in enumerate(channels):
                template = ids[i % len(ids)]
                new_id = db.execute(insert_fight, (channel, template)).lastrowid
                db.execute("UPDATE combats SET state = ? WHERE id = ?",
                           (unlinked[template], new_id))
                for sql in insert_children:
                    db.execute(sql, (new_id, template))
        return channels
    finally:
        db.close()


def _unlinked(text: str) -> str:
    """A fight's state whose fighters are of no character of the server (a character fights in
    one fight at a time): the copy's state forgets their character ids."""
    state = json.loads(text)
    for fighter in state["fighters"]:
        fighter["character_id"] = None
    return json.dumps(state)


async def copy_fights_postgres(url: str, count: int, first_channel: int,
                               templates: list[int] | None = None) -> list[int]:
    """:func:`copy_fights` on the PostgreSQL database ``url``: the same rows copied the same
    way (new ids from the identity columns), through asyncpg, in one transaction."""
    db = await asyncpg.connect(url)
    try:
        async def columns(table: str) -> list[str]:
            return [r[0] for r in await db.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                "current_schema() AND table_name = $1 ORDER BY ordinal_position", table)]

        fight_cols = [c for c in await columns("combats") if c != "id"]
        assert "channel_id" in fight_cols, f"combats has no channel_id column: {fight_cols}"
        children = {}
        for (table,) in await db.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                "current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'combats'"):
            cols = await columns(table)
            if {"id", "combat_id"} <= set(cols):  # (`fighting` is left out, as on SQLite)
                children[table] = [c for c in cols if c != "id"]
        if templates is None:
            ids = [r[0] for r in await db.fetch("SELECT id FROM combats WHERE active ORDER BY id")]
        else:
            ids = [await db.fetchval("SELECT id FROM combats WHERE channel_id = $1 AND active",
                                     c) for c in templates]
        assert ids, "no active fight to copy"
        given = {"channel_id": "$1::bigint", "state": "$2::text"}
        insert_fight = (f"INSERT INTO combats ({', '.join(fight_cols)}) SELECT "
                        f"{', '.join(given.get(c, c) for c in fight_cols)} FROM combats "
                        "WHERE id = $3 RETURNING id")
        insert_children = [
            f"INSERT INTO {table} ({', '.join(cols)}) SELECT "
            f"{', '.join('$1::bigint' if c == 'combat_id' else c for c in cols)} FROM {table} "
            "WHERE combat_id = $2 ORDER BY id" for table, cols in children.items()]
        unlinked = {template: _unlinked(await db.fetchval(
            "SELECT state FROM combats WHERE id = $1", template)) for template in ids}
        channels = [first_channel + i for i in range(count)]
        async with db.transaction():
            for i, channel in enumerate(channels):
                template = ids[i % len(ids)]
                new_id = await db.fetchval(insert_fight, channel, unlinked[template], template)
                for sql in insert_children:
                    await db.execute(sql, new_id, template)
        return channels
    finally:
        await db.close()


async def copy_fights_in(database: Path | str, count: int, first_channel: int,
                         templates: list[int] | None = None) -> list[int]:
    """:func:`copy_fights` or :func:`copy_fights_postgres`, whichever ``database`` (a SQLite
    file or a PostgreSQL URL) is; no bot may be writing to it meanwhile."""
    if isinstance(database, str) and is_postgres(database):
        return await copy_fights_postgres(database, count, first_channel, templates)
    return copy_fights(Path(database), count, first_channel, templates)


async def copied_fights(database: Path | str, count: int, first_channel: int, *,
                        checks: bool = True) -> tuple[Table, list[int]]:
    """A started table on ``database`` (a SQLite file or a PostgreSQL URL) holding ``count``
    copies of the same fight, the first in ``CHANNEL_ID`` and the others from ``first_channel``
    on, every channel known to it; ``checks``: the table's (see :class:`Table`)."""
    table = await Table(database, checks=checks).start()
    try:
        await Fight.characters(table)
        await Fight(table, CHANNEL_ID).start()
    finally:
        await table.stop()
    copies = await copy_fights_in(database, count - 1, first_channel, templates=[CHANNEL_ID])
    table = await table.start()
    add_channels(table, copies)
    return table, [CHANNEL_ID, *copies]
