"""What only PostgreSQL has to show: processes starting together migrate once, the
constraints hold at the server itself, several connections never change a held sheet, and
the server going away is a plain refusal that ends when it is back."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.store import open_store
from bot.store.interfaces import Store
from bot.store.migrations import DatabaseRefused
from bot.store.postgres import MIGRATIONS
from bot.store.values import DatabaseUnavailable, InFight
from engine.character import Character
from engine.combat import new_combat
from testbed.postgres_server import PostgresServer, free_port
from tests.bot.test_store_engines import MAP, add_fighter

_names = itertools.count(1)


async def _empty_database(server: PostgresServer) -> str:
    return await server.create_database(f"unhex_empty_{next(_names)}")


async def test_two_processes_starting_together_migrate_once(
        postgres_server: PostgresServer) -> None:
    url = await _empty_database(postgres_server)
    stores = await asyncio.gather(*(open_store(url) for _ in range(3)))
    try:
        rows = await stores[0].pool.fetch(  # type: ignore[attr-defined]
            "SELECT version FROM schema_migrations ORDER BY version")
        assert [r["version"] for r in rows] == [m.version for m in MIGRATIONS]
    finally:
        for store in stores:
            await store.close()


async def test_a_database_from_a_newer_bot_is_refused(
        postgres_server: PostgresServer) -> None:
    url = await _empty_database(postgres_server)
    await (await open_store(url)).close()
    connection = await asyncpg.connect(url)
    await connection.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, 'x')",
                             len(MIGRATIONS) + 1)
    await connection.close()
    with pytest.raises(DatabaseRefused, match="newer than this bot knows"):
        await open_store(url)


async def test_the_server_itself_enforces_the_store_s_rules(postgres_database: str) -> None:
    store = await open_store(postgres_database)
    await store.close()
    db = await asyncpg.connect(postgres_database)
    try:
        fight = ("INSERT INTO combats (guild_id, channel_id, map_name, state) "
                 "VALUES (1, 2, 'm', '{}') RETURNING id")
        first = await db.fetchval(fight)
        with pytest.raises(asyncpg.UniqueViolationError):  # a second active fight in a channel
            await db.execute(fight)
        await db.execute("INSERT INTO fighting (character_id, combat_id) VALUES (5, $1)", first)
        with pytest.raises(asyncpg.UniqueViolationError):  # one character, two fights
            await db.execute("INSERT INTO fighting (character_id, combat_id) VALUES (5, $1)",
                             first)
        name = ("INSERT INTO characters (guild_id, name, name_key, owner_id, npc, data) "
                "VALUES (1, $1, 'ana', 7, FALSE, '{}')")
        await db.execute(name, "Ana")
        with pytest.raises(asyncpg.UniqueViolationError):  # one name per server
            await db.execute(name, "ANA")
    finally:
        await db.close()


async def test_a_sheet_change_racing_a_fight_that_takes_it_never_lands_while_held(
        postgres_database: str) -> None:
    store = await open_store(postgres_database, pool_size=4)
    try:
        for attempt in range(10):
            ana = await store.characters.add(guild_id=1, owner_id=7,
                                             character=Character.new(f"Ana {attempt}"))
            fight = await store.combats.start(guild_id=1, channel_id=100 + attempt,
                                              map_name="m", state=new_combat(MAP))
            assert fight is not None
            taking = add_fighter(fight.state, ana.character, "Bar", owner_id=7,
                                 character_id=ana.id)
            saved, changed = await asyncio.gather(
                store.combats.save(fight, taking, user_id=7, command="{}", events=()),
                store.characters.replace(ana, Character.new(f"Ana {attempt}", level=10)),
                return_exceptions=True)
            assert saved is not None and not isinstance(saved, BaseException)
            if isinstance(changed, InFight):
                continue  # the fight came first: the change was refused
            # The change came first: the fight holds the sheet as it was when it was read,
            # and the sheet is not changed again while it is held.
            assert changed is not None and not isinstance(changed, BaseException)
            with pytest.raises(InFight):
                await store.characters.replace(changed, Character.new("Ana", level=5))
    finally:
        await store.close()


@pytest.fixture
async def store_on_own_server(own_postgres_server: PostgresServer) -> AsyncIterator[Store]:
    """A store on a server the test may stop and start again."""
    store = await open_store(await own_postgres_server.create_database("unhex"), pool_size=2)
    yield store
    await store.close()


async def test_a_stopped_server_is_a_plain_refusal_until_it_is_back(
        store_on_own_server: Store, own_postgres_server: PostgresServer) -> None:
    store = store_on_own_server
    ana = await store.characters.add(guild_id=1, owner_id=7, character=Character.new("Ana"))
    own_postgres_server.stop()
    with pytest.raises(DatabaseUnavailable):
        await store.characters.get_by_id(ana.id)
    with pytest.raises(DatabaseUnavailable):
        await store.characters.replace(ana, Character.new("Ana", level=60))
    own_postgres_server.start()
    kept = await store.characters.get_by_id(ana.id)  # the pool reconnected by itself
    assert kept is not None and kept.character.level == 50
    assert await store.characters.replace(ana, Character.new("Ana", level=60)) is not None


async def test_an_idle_pool_survives_a_server_restart(
        store_on_own_server: Store, own_postgres_server: PostgresServer) -> None:
    store = store_on_own_server
    await store.meta.set("k", "before")
    own_postgres_server.stop()
    own_postgres_server.start()
    await asyncio.sleep(0.1)  # the closed connections are noticed while idle
    assert await store.meta.get("k") == "before"


async def test_an_unusable_database_is_refused_in_one_line_without_its_password(
        postgres_server: PostgresServer) -> None:
    with pytest.raises(DatabaseRefused) as unreachable:
        await open_store(f"postgresql://unhex:s3cret@127.0.0.1:{free_port()}/unhex")
    missing_url = postgres_server.url("no_such_database").replace("unhex@", "unhex:s3cret@")
    with pytest.raises(DatabaseRefused) as missing:
        await open_store(missing_url)
    for refused in (unreachable.value, missing.value):
        text = str(refused)
        assert "s3cret" not in text and "\n" not in text, text
    assert "Could not reach the PostgreSQL server" in str(unreachable.value)
    assert "“no_such_database” does not exist" in str(missing.value)


async def test_a_gm_role_set_in_one_process_is_seen_by_another(postgres_database: str) -> None:
    """While a guild changes hands two processes may serve it: neither keeps an old role."""
    first, second = await open_store(postgres_database), await open_store(postgres_database)
    try:
        assert await first.guilds.gm_role(42) is None
        await second.guilds.set_gm_role(42, 7)
        assert await first.guilds.gm_role(42) == 7
        await second.guilds.set_gm_role(42, None)
        assert await first.guilds.gm_role(42) is None
    finally:
        await first.close()
        await second.close()
