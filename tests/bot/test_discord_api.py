"""The bot as a real process against a local stand-in for Discord (``UNHEX_DISCORD_API``):
every REST call and interaction answer goes to the configured base URL, as it would to a
rate-limiting proxy shared by several processes; ``/healthz`` is 503 until the shard is
connected (and while it reconnects); ``/metrics`` counts Discord's responses (the 429
included), the command and the time to its answer."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.discord_standin import APP_ID, DiscordStandIn
from tests.postgres_server import free_port
from tests.processes_io import metric

ROOT = Path(__file__).resolve().parents[2]
USER = {"id": "800000000000000001", "username": "alice", "discriminator": "0",
        "global_name": "alice", "avatar": None}
DM_CHANNEL = "900000000000000400"


def _roll_in_a_dm(level: int) -> dict[str, object]:
    """INTERACTION_CREATE for ``/roll level:<level>`` in a direct message with the bot."""
    return {
        "id": "960000000000000001", "application_id": str(APP_ID), "type": 2,
        "token": "standin-interaction-token", "version": 1, "channel_id": DM_CHANNEL,
        "channel": {"id": DM_CHANNEL, "type": 1, "last_message_id": None, "recipients": [USER]},
        "user": USER, "locale": "en-US", "app_permissions": "0", "entitlements": [],
        "attachment_size_limit": 10_485_760,
        "authorizing_integration_owners": {"1": USER["id"]}, "context": 1,
        "data": {"id": "960000000000000002", "name": "roll", "type": 1,
                 "options": [{"name": "level", "type": 4, "value": level}]},
    }


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    server = await DiscordStandIn().start()
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
        standin: DiscordStandIn, tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNHEX_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "standin-token", "UNHEX_DATABASE": str(tmp_path / "db.sqlite3"),
            "UNHEX_DISCORD_API": standin.api, "UNHEX_HTTP_PORT": str(port),
            "PYTHONPATH": str(ROOT)}
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=(tmp_path / "bot.log").open("wb"))
    health, metrics = f"http://127.0.0.1:{port}/healthz", f"http://127.0.0.1:{port}/metrics"
    try:
        async with aiohttp.ClientSession() as session:
            await asyncio.wait_for(standin.identified.wait(), 60)
            reason = await _until(session, health, 503)  # connected, not READY yet
            assert reason == "shard not connected: 0\n"

            standin.ready.set()
            assert (await _until(session, health, 200)).startswith("ok")
            await standin.drop_connection()
            assert await _until(session, health, 503) == "shard not connected: 0\n"
            standin.resume.set()
            await asyncio.wait_for(standin.resumed.wait(), 30)
            await _until(session, health, 200)
            standin.dispatch("INTERACTION_CREATE", _roll_in_a_dm(40))
            await asyncio.wait_for(standin.answered.wait(), 30)
            _, text = await _get(session, metrics)
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGINT)
        await asyncio.wait_for(bot.wait(), 30)

    calls = [(c.method, c.path, c.status) for c in standin.calls]
    sync = f"/applications/{APP_ID}/commands"
    assert ("PUT", sync, 429) in calls and ("PUT", sync, 200) in calls
    answer = next(c for c in standin.calls if c.path.endswith("/callback"))
    assert answer.body["type"] == 4 and "40" in answer.body["data"]["content"]
    assert metric(text, "unhex_discord_http_responses_total", status="429") == 1
    assert metric(text, "unhex_discord_http_responses_total", status="200") == sum(
        1 for c in standin.calls if c.status == 200)
    assert metric(text, "unhex_interactions_total", kind="command", command="roll",
                   outcome="ok") == 1
    assert metric(text, "unhex_first_response_seconds_count", kind="command") == 1
    assert 'unhex_gateway_latency_seconds{shard="0"}' in text
    log = (tmp_path / "bot.log").read_text()
    assert "This process runs every shard Discord recommends" in log
    assert "Traceback" not in log
