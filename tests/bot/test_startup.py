"""Starting the bot: settings, the missing or bad token line, the store, command sync."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiosqlite
import discord
import pytest

import bot.__main__ as main_module
from bot import create_bot
from bot.settings import Settings
from bot.store import Store
from bot.store.migrations import MIGRATIONS
from tests.harness import GUILD_ID, Table

ROOT = Path(__file__).resolve().parents[2]


def _run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "UNHEX_"))}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=clean | env,
        capture_output=True, text=True, timeout=60, check=False,
    )


def test_without_a_token_exits_2_with_one_clear_line(tmp_path: Path) -> None:
    result = _run_bot(tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0]
    assert "Traceback" not in result.stderr


def test_a_blank_token_in_dotenv_counts_as_missing(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nUNHEX_DEV_GUILD=\n")
    result = _run_bot(tmp_path)
    assert result.returncode == 2 and "DISCORD_TOKEN is not set" in result.stderr


def test_a_bad_setting_gets_one_clear_line(tmp_path: Path) -> None:
    result = _run_bot(tmp_path, DISCORD_TOKEN="x", UNHEX_DEV_GUILD="not-a-number")
    assert result.returncode == 2
    assert "Bad setting" in result.stderr and "UNHEX_DEV_GUILD" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_invalid_token_gets_a_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def refuse(self: discord.Client, token: str, **_: object) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "run", refuse)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("UNHEX_DATABASE", str(tmp_path / "db.sqlite3"))
    assert main_module.main() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Discord refused DISCORD_TOKEN" in err[0]


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("UNHEX_DATABASE", "games.db")
    monkeypatch.setenv("UNHEX_DEV_GUILD", "42")
    monkeypatch.setenv("UNHEX_LOG_LEVEL", "debug")
    settings = Settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc"
    assert settings.database == Path("games.db")
    assert settings.dev_guild == 42 and settings.log_level == "DEBUG"
    assert "abc" not in repr(settings)  # the token is never printed


def test_create_bot_needs_no_privileged_intents() -> None:
    bot = create_bot(Settings(DISCORD_TOKEN=None))
    assert not bot.intents.members and not bot.intents.presences
    assert not bot.intents.message_content
    assert bot.allowed_mentions is not None
    assert bot.allowed_mentions.to_dict() == {"parse": []}


async def test_store_uses_wal_and_migrates_in_order(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    store = await Store.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    async with store.db.execute("PRAGMA journal_mode") as cursor:
        row = await cursor.fetchone()
    assert row is not None and row[0] == "wal"
    await store.close()
    again = await Store.open(path)  # opening again applies nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_a_database_from_a_newer_bot_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    opened: list[aiosqlite.Connection] = []
    connect = aiosqlite.connect

    def recording(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(aiosqlite, "connect", recording)
    with pytest.raises(RuntimeError, match="newer than this bot knows"):
        await Store.open(path)
    # The refused store closed its connection: no worker thread outlives the event loop.
    assert len(opened) == 1
    with pytest.raises(ValueError, match=r"no active connection|Connection closed"):
        await opened[0].execute("SELECT 1")


async def test_commands_sync_globally_or_to_the_dev_server(tmp_path: Path) -> None:
    table = await Table(tmp_path / "a.sqlite3").start()
    scope, payload = table.synced[-1]
    assert scope is None and "roll" in {c["name"] for c in payload}
    await table.stop()
    dev = await Table(tmp_path / "b.sqlite3", dev_guild=GUILD_ID).start()
    scope, payload = dev.synced[-1]
    assert scope == GUILD_ID and "roll" in {c["name"] for c in payload}
    await dev.stop()
