"""What an operator does with the database: move a group from SQLite to PostgreSQL with
`python -m bot copy-database`, and back up SQLite with `python -m bot backup`. (A start on a
database the bot cannot use is in tests/bot/test_startup.py.)"""

from __future__ import annotations

import asyncio
import itertools
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot import __main__ as main_module
from bot.store import open_store
from bot.store.backup import backup_sqlite
from engine.character import Character
from testbed.harness import ALICE, CHANNEL_ID, GM, GUILD_ID, Table
from testbed.postgres_server import PostgresServer
from tests.bot.fights import ana_and_goon_on_the_dance_floor

_targets = itertools.count(1)


def _new_database(server: PostgresServer) -> str:
    return asyncio.run(server.create_database(f"unhex_copy_{os.getpid()}_{next(_targets)}"))


def _group_in_a_fight(path: Path) -> Table:
    """A SQLite database with two characters, a map and a fight half-way through a round;
    the table (stopped) where it was played."""

    async def play() -> Table:
        table = await Table(path).start()
        await ana_and_goon_on_the_dance_floor(table)
        await table.bot.store.maps.add(guild_id=GUILD_ID, name="Docks", text="Pier -- Boat",
                                       author_id=ALICE.id)
        table.dice(3, 5)
        await table.slash("attack", target="Goon")
        await table.stop()
        return table

    return asyncio.run(play())


def _snapshot(database: str) -> dict[str, object]:
    async def read() -> dict[str, object]:
        store = await open_store(database)
        try:
            fight = await store.combats.active(CHANNEL_ID)
            assert fight is not None
            return {"fight": (fight.id, fight.version, fight.state, fight.next_deadline),
                    "log": await store.combats.log(fight.id, None),
                    "sheets": await store.characters.list(GUILD_ID),
                    "maps": await store.maps.in_guild(GUILD_ID),
                    "holds": await store.combats.fight_of(
                        (await store.characters.list(GUILD_ID))[0].id)}
        finally:
            await store.close()

    return asyncio.run(read())


def test_a_group_moves_to_postgresql_with_its_fight_where_it_was(
        tmp_path: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "unhex.sqlite3"
    table = _group_in_a_fight(source)
    target = _new_database(postgres_server).replace("unhex@", "unhex:s3cret@")
    monkeypatch.setenv("UNHEX_DATABASE", str(source))
    assert main_module.main(["copy-database", "--to", target]) == 0
    said = capsys.readouterr().out
    assert "s3cret" not in said and "every table checked" in said
    assert any(line.startswith("combat_log") for line in said.splitlines())
    assert _snapshot(target) == _snapshot(str(source))

    async def carry_on() -> None:
        """The bot started again on PostgreSQL: the fight goes on; new ids come after."""
        store = await open_store(target)
        new = await store.characters.add(guild_id=GUILD_ID, owner_id=ALICE.id,
                                         character=Character.new("Cat"))
        assert new.id > max(c.id for c in await store.characters.list(GUILD_ID) if c != new)
        await store.close()
        table.database = target
        await table.start()
        asked = next(m for m in reversed(table.channel_messages())
                     if "Resolve now (GM)" in m.labels)  # the prompt shown before the move
        table.dice(9, 9)
        reply = await table.click(asked, "Resolve now (GM)", user=GM)
        assert not reply.ephemeral, reply.content
        await table.stop()

    asyncio.run(carry_on())


def test_a_target_that_holds_data_is_refused_and_left_alone(
        tmp_path: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "unhex.sqlite3"
    _group_in_a_fight(source)
    target = _new_database(postgres_server)
    monkeypatch.setenv("UNHEX_DATABASE", str(source))
    assert main_module.main(["copy-database", "--to", target]) == 0
    before = _snapshot(target)
    capsys.readouterr()
    assert main_module.main(["copy-database", "--to", target]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already holds the bot's data" in err[0], err
    assert _snapshot(target) == before
    monkeypatch.setenv("UNHEX_DATABASE", target)
    assert main_module.main(["copy-database", "--to", target]) == 1
    assert "copy-database copies a SQLite database" in capsys.readouterr().err


async def test_a_backup_taken_while_the_bot_writes_opens_with_the_same_rows(
        tmp_path: Path) -> None:
    table = await Table(tmp_path / "unhex.sqlite3").start()
    try:
        await ana_and_goon_on_the_dance_floor(table)
        copy = tmp_path / "backup.sqlite3"
        writing = asyncio.create_task(table.slash("character create", name="Dora"))
        await asyncio.to_thread(backup_sqlite, str(table.database), copy)
        await writing
        with closing(sqlite3.connect(copy)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            names = {r[0] for r in db.execute("SELECT name FROM characters")}
            assert {"Ana", "Goon"} <= names <= {"Ana", "Goon", "Dora"}
            assert db.execute("SELECT count(*) FROM combats WHERE active = 1").fetchone() == (1,)
    finally:
        await table.stop()


def test_backup_says_what_it_wrote_and_refuses_to_overwrite(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _group_in_a_fight(tmp_path / "unhex.sqlite3")
    monkeypatch.setenv("UNHEX_DATABASE", str(tmp_path / "unhex.sqlite3"))
    assert main_module.main(["backup", str(tmp_path / "copy.sqlite3")]) == 0
    assert "Backed up" in capsys.readouterr().out
    assert main_module.main(["backup", str(tmp_path / "copy.sqlite3")]) == 1
    assert "already exists" in capsys.readouterr().err
    monkeypatch.setenv("UNHEX_DATABASE", "postgresql://unhex@127.0.0.1:1/unhex")
    assert main_module.main(["backup", str(tmp_path / "other.sqlite3")]) == 2
    assert "pg_dump" in capsys.readouterr().err
