"""Shared fixtures: a `table` is the real bot on a temporary database, driven through the
real discord.py dispatch (see testbed/harness.py).

The database is SQLite, or, in the modules marked ``both_engines``, SQLite and then
PostgreSQL: a test of such a module runs once per engine (``[sqlite]``, ``[postgresql]``).
The PostgreSQL tests share one throwaway server, started by the first test that needs it and
stopped at the end of the session, and one migrated database, emptied before each test. Where
the server programs are missing they are skipped (and fail under ``CI=true``).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.client import EXTENSIONS
from bot.store import open_store
from testbed.harness import Table
from testbed.postgres_server import MISSING, PostgresServer, server_programs
from tests import pseudo_run

ENGINES = ("sqlite", "postgresql")
#: The migrated database the PostgreSQL tests share, emptied before each.
SHARED = "unhex_tests"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_engines: run the module's store-touching tests on SQLite and PostgreSQL")
    config.addinivalue_line("markers", "sqlite_only: a test of SQLite's own, in such a module")
    if pseudo_run.asked():  # UNHEX_PSEUDO=1: tests/pseudo_run.py
        config.pluginmanager.register(pseudo_run.PseudoRun(config), "unhex-pseudo-run")


@pytest.fixture(autouse=True)
def _bot_modules_kept() -> Iterator[None]:
    """A bot closed in a test unloads its extensions, and discord.py then deletes their modules
    from ``sys.modules``: the next bot would import them anew, with classes of their own, and a
    check such as ``isinstance(bot.fights, FightSession)`` would fail for the rest of the
    worker's tests. Put back the modules as they were before the test; the extensions are
    imported first, so one first imported by a bot the test closes is put back too (else a
    test's ``import bot.cogs.x.y`` would find the old module on its package and patch it
    while the next bot runs a fresh one)."""
    for extension in EXTENSIONS:
        importlib.import_module(extension)
    kept = {name: module for name, module in sys.modules.items()
            if name == "bot" or name.startswith("bot.")}
    yield
    sys.modules.update(kept)
    for name, module in kept.items():  # a package's attribute names its submodule too
        parent, _, child = name.rpartition(".")
        if parent in kept:
            setattr(kept[parent], child, module)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine" in metafunc.fixturenames:
        both = (metafunc.definition.get_closest_marker("both_engines") is not None
                and metafunc.definition.get_closest_marker("sqlite_only") is None)
        metafunc.parametrize("engine", ENGINES if both else ENGINES[:1], scope="function")


def _programs_or_skip() -> Path:
    programs = server_programs()
    if programs is None:
        if os.environ.get("CI") == "true":
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    return programs


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server, with a migrated template database."""
    server = PostgresServer(_programs_or_skip()).start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture(scope="session")
def postgres_tests_database(postgres_server: PostgresServer) -> str:
    """The migrated database the PostgreSQL tests share, one after the other."""
    import asyncio

    async def migrate() -> str:
        url = await postgres_server.create_database(SHARED)
        store = await open_store(url)
        await store.close()
        return url

    return asyncio.run(migrate())


@pytest.fixture
async def postgres_database(postgres_tests_database: str) -> str:
    """The shared PostgreSQL database's URL, emptied for this test (ids start again at 1):
    emptying it takes a few milliseconds where a new database takes half a second."""
    connection = await asyncpg.connect(postgres_tests_database)
    try:
        # A bot a failed test left running must not keep a lock on a table.
        await connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        tables = [r["tablename"] for r in await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
            "AND tablename <> 'schema_migrations'")]
        await connection.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
    finally:
        await connection.close()
    return postgres_tests_database


@pytest.fixture
def own_postgres_server() -> Iterator[PostgresServer]:
    """A server of the test's own, which it may stop and start again. (Its folder is not in
    pytest's: the server's user must be able to reach it.)"""
    server = PostgresServer(_programs_or_skip()).start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def database(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The test's database: a SQLite file, or a fresh PostgreSQL database's URL."""
    if engine == "sqlite":
        return str(tmp_path / "unhex.sqlite3")
    url: str = request.getfixturevalue("postgres_database")
    return url


@pytest.fixture
async def table(database: str) -> AsyncIterator[Table]:
    t = await Table(database).start()
    yield t
    await t.stop()
