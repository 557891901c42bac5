"""Shared fixtures: a `table` is the real bot on a temporary database, driven through the
real discord.py dispatch (see tests/harness.py).

The database is SQLite, or, in the modules marked ``both_engines``, SQLite and then
PostgreSQL: a test of such a module runs once per engine (``[sqlite]``, ``[postgresql]``).
The PostgreSQL tests share one throwaway server, started by the first test that needs it and
stopped at the end of the session; each test gets a fresh database, copied from one migrated
once. Where the server programs are missing they are skipped (and fail under ``CI=true``).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store import open_store
from tests.harness import Table
from tests.postgres_server import MISSING, PostgresServer, server_programs

ENGINES = ("sqlite", "postgresql")
#: The migrated database each test's PostgreSQL database is copied from.
TEMPLATE = "unhex_template"
_names = itertools.count(1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_engines: run the module's store-touching tests on SQLite and PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine" in metafunc.fixturenames:
        both = metafunc.definition.get_closest_marker("both_engines") is not None
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
def postgres_template(postgres_server: PostgresServer) -> str:
    import asyncio

    async def migrate() -> None:
        url = await postgres_server.create_database(TEMPLATE)
        store = await open_store(url)
        await store.close()

    asyncio.run(migrate())
    return TEMPLATE


@pytest.fixture
async def postgres_database(postgres_server: PostgresServer,
                            postgres_template: str) -> AsyncIterator[str]:
    """A fresh, migrated PostgreSQL database's URL, dropped after the test."""
    name = f"unhex_test_{os.getpid()}_{next(_names)}"
    url = await postgres_server.create_database(name, template=postgres_template)
    yield url
    await postgres_server.drop_database(name)


@pytest.fixture
def own_postgres_server(tmp_path: Path) -> Iterator[PostgresServer]:
    """A server of the test's own, which it may stop and start again."""
    folder = tmp_path / "postgres"
    folder.mkdir()
    server = PostgresServer(_programs_or_skip(), folder).start()
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
