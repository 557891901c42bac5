"""The bot as a real process against the local Discord (``UNHEX_DISCORD_API``):
every REST call and interaction answer goes to the configured base URL, as it would to a
rate-limiting proxy shared by several processes; ``/healthz`` is 503 until the shard is
connected (and while it reconnects); ``/metrics`` counts Discord's responses (a 429 on the
first command sync included), the command and the time to its answer."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.local_table.seed import table_seed
from localdiscord import LocalDiscord
from localdiscord.model import APP_ID
from testbed.postgres_server import free_port
from tests.processes_io import metric

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def discord() -> AsyncIterator[LocalDiscord]:
    """The local Discord, holding READY back and refusing the first command sync with a
    429 (as Discord's limiter may)."""
    server = LocalDiscord(table_seed())
    server.gateway.state.answer_identify.clear()
    server.faults.refuse_next(f"/applications/{APP_ID}/commands", 429, method="PUT")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    try:
        async with session.get(url) as response:
            return response.status, await response.text()
    except aiohttp.ClientConnectionError:
        return 0, ""


async def _until(session: aiohttp.ClientSession, url: str, status: int) -> str:
    for _ in range(300):
        got, text = await _get(session, url)
        if got == status:
            return text
        await asyncio.sleep(0.1)
    raise AssertionError(f"{url} never answered {status} (last: {got} {text!r})")


async def test_the_bot_talks_to_the_configured_api_and_reports_on_itself(
        discord: LocalDiscord, tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNHEX_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "local-token", "UNHEX_DATABASE": str(tmp_path / "db.sqlite3"),
            "UNHEX_DISCORD_API": discord.api, "UNHEX_HTTP_PORT": str(port),
            "PYTHONPATH": str(ROOT)}
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=(tmp_path / "bot.log").open("wb"))
    health, metrics = f"http://127.0.0.1:{port}/healthz", f"http://127.0.0.1:{port}/metrics"
    try:
        async with aiohttp.ClientSession() as session:
            gateway = discord.gateway.state
            await asyncio.wait_for(gateway.identified.wait(), 60)
            reason = await _until(session, health, 503)  # connected, not READY yet
            assert reason == "shard not connected: 0\n"

            gateway.answer_identify.set()
            assert (await _until(session, health, 200)).startswith("ok")
            gateway.answer_resume.clear()
            await discord.faults.drop()
            assert await _until(session, health, 503) == "shard not connected: 0\n"
            gateway.answer_resume.set()
            await asyncio.wait_for(gateway.resumed.wait(), 30)
            await _until(session, health, 200)
            for _ in range(300):  # the commands synced, after the refused first try
                if discord.commands.get(None):
                    break
                await asyncio.sleep(0.1)
            rolled = await discord.people.slash("alice", discord.people.dm("alice"), "roll",
                                                level=40)
            _, text = await _get(session, metrics)
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGINT)
        await asyncio.wait_for(bot.wait(), 30)

    calls = [(c.method, c.path, c.status) for c in discord.calls]
    sync = f"/applications/{APP_ID}/commands"
    assert ("PUT", sync, 429) in calls and ("PUT", sync, 200) in calls
    assert rolled.kind == "message" and "40" in rolled.content, rolled.content
    assert rolled.message.channel_id == discord.people.dm("alice").id
    assert metric(text, "unhex_discord_http_responses_total", status="429") == 1
    assert metric(text, "unhex_discord_http_responses_total", status="200") == sum(
        1 for c in discord.calls if c.status == 200)
    assert metric(text, "unhex_interactions_total", kind="command", command="roll",
                   outcome="ok") == 1
    assert metric(text, "unhex_first_response_seconds_count", kind="command") == 1
    assert 'unhex_gateway_latency_seconds{shard="0"}' in text
    log = (tmp_path / "bot.log").read_text()
    assert "This process runs every shard Discord recommends" in log
    assert "Traceback" not in log
