"""The local table's gateway and the bot in one process, as `make run` starts them: the
bot measures its heartbeats' real round trip, not the interval between them (which
discord.py reports as "Can't keep up … websocket is 41.3s behind" once it passes 10 s)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import discord.gateway
import pytest

from bot import local
from bot.settings import Settings
from localdiscord import gateway
from testbed.postgres_server import free_port

INTERVAL_MS = 250


async def test_the_local_table_keeps_its_heartbeats_without_a_lag_that_is_not_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gateway, "HEARTBEAT_MS", INTERVAL_MS)
    latencies: list[float] = []
    acknowledged = discord.gateway.KeepAliveHandler.ack

    def ack(handler: Any) -> None:
        acknowledged(handler)
        latencies.append(handler.latency)

    monkeypatch.setattr(discord.gateway.KeepAliveHandler, "ack", ack)
    serving = asyncio.create_task(
        local.serve(Settings(_env_file=None), free_port(), "127.0.0.1",
                    str(tmp_path / "table.sqlite3")))
    try:
        await asyncio.sleep(4.5)  # some fifteen heartbeats once connected
    finally:
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
    assert len(latencies) >= 5
    # A lag as long as the interval is the ack outrunning discord.py's note of the send
    # (a race: a bot that lost it once here would on most runs).
    assert max(latencies) < INTERVAL_MS / 1000 * 0.8, latencies
