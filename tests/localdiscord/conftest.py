"""The local Discord on a free port, and the real bot process connected to it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.local_table import local_discord
from localdiscord import LocalDiscord

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def discord() -> AsyncIterator[LocalDiscord]:
    server = await local_discord().start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def bot_env() -> dict[str, str]:
    """More of the bot's settings, by their environment names (a test overrides it)."""
    return {}


@pytest.fixture
async def bot(discord: LocalDiscord, tmp_path: Path,
              bot_env: dict[str, str]) -> AsyncIterator[Path]:
    """``python -m bot`` on a temporary database, connected to ``discord`` (READY and its
    commands synced); the log's path. The bot is stopped at the end and its log must hold
    no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNHEX_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "local-token", "UNHEX_DATABASE": str(tmp_path / "db.sqlite3"),
            "UNHEX_DISCORD_API": discord.api, "PYTHONPATH": str(ROOT)} | bot_env
    log = tmp_path / "bot.log"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=log.open("wb"))
    try:
        await asyncio.wait_for(discord.gateway.state.ready.wait(), 60)
        for _ in range(600):  # the guild arrived and the commands are synced
            if discord.commands and any(c.method == "PUT" for c in discord.calls):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        yield log
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.wait(), 30)
    assert "Traceback" not in log.read_text(), log.read_text()
