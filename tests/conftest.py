"""Shared fixtures: a `table` is the real bot on a temporary database, driven through the
real discord.py dispatch (see tests/harness.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = await Table(tmp_path / "unhex.sqlite3").start()
    yield t
    await t.stop()
