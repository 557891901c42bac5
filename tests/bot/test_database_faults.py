"""The PostgreSQL server stopped in the middle of a fight, and started again: every command
meanwhile gets a clear ephemeral answer and changes nothing, a reaction window that expires
meanwhile closes once the server is back, and the fight goes on where it was."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot.errors import SAVED_THEN_UNAVAILABLE
from bot.store.values import DatabaseUnavailable
from testbed.harness import ALICE, CHANNEL_ID, GM, Table
from testbed.postgres_server import PostgresServer
from tests.bot.fights import add_character, ana_and_goon_on_the_dance_floor

UNAVAILABLE = "The bot's database is unavailable right now: nothing was changed."


@pytest.fixture
async def table_on_own_server(own_postgres_server: PostgresServer) -> AsyncIterator[Table]:
    table = await Table(await own_postgres_server.create_database("unhex")).start()
    yield table
    await table.stop()


async def _steps(table: Table) -> list[str]:
    stored = await table.bot.store.combats.active(CHANNEL_ID)
    assert stored is not None
    return [entry.command for entry in await table.bot.store.combats.log(stored.id, None)]


async def test_a_stopped_database_refuses_clearly_and_the_fight_goes_on_when_it_is_back(
        table_on_own_server: Table, own_postgres_server: PostgresServer) -> None:
    table = table_on_own_server
    await ana_and_goon_on_the_dance_floor(table)
    before = await _steps(table)
    own_postgres_server.stop()
    for reply in (await table.slash("attack", target="Goon"),
                  await table.slash("sheet", character="Ana"),
                  await table.slash("combat end", user=GM)):
        assert reply.ephemeral and reply.content.startswith(UNAVAILABLE), reply.content
    own_postgres_server.start()
    table.dice(3, 5, 6, 0)
    attacked = await table.slash("attack", target="Goon", user=ALICE)
    assert not attacked.ephemeral, attacked.content
    after = await _steps(table)
    assert after[:len(before)] == before and len(after) == len(before) + 1  # applied once
    assert '"attack"' in after[-1]


async def test_a_window_that_expires_while_the_database_is_away_closes_once_it_is_back(
        table_on_own_server: Table, own_postgres_server: PostgresServer) -> None:
    table = table_on_own_server
    table.bot.fights.deadline_retry = 0.05
    await ana_and_goon_on_the_dance_floor(table)
    await table.slash("attack", target="Goon")  # Goon's reaction window opens
    own_postgres_server.stop()
    table.dice(*[3, 5] * 100)  # each try rolls before it finds the database away
    table.bot.fights.clock = lambda: time.time() + 60  # past the 45-second window
    table.bot.fights._arm(CHANNEL_ID, time.time())  # as its timer would, on time
    await asyncio.sleep(0.3)  # it tries, fails and tries again meanwhile
    assert not any("Time is up" in m.content for m in table.channel_messages())
    own_postgres_server.start()
    for _ in range(300):
        if any("Time is up" in m.content for m in table.channel_messages()):
            break
        await asyncio.sleep(0.01)
    await table.settle()
    closed = [m for m in table.channel_messages() if "Time is up" in m.content]
    assert len(closed) == 1, [m.content for m in closed]
    assert sum('"close_window"' in c for c in await _steps(table)) == 1


async def test_the_database_lost_after_a_change_was_saved_says_it_was_saved(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.cogs.characters.cog as character_commands

    await add_character(table, "Ana", level=40, weapon=None)

    def gone(summary: str) -> str:  # the database goes away just after the advance is saved
        raise DatabaseUnavailable()

    monkeypatch.setattr(character_commands, "escaped_summary", gone)
    advanced = await table.slash("character advance", character="Ana")
    assert advanced.ephemeral and advanced.content == SAVED_THEN_UNAVAILABLE
