"""Starting the bot: settings, the missing or bad token line, the store, command sync."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiosqlite
import discord
import pytest

import bot.__main__ as main_module
import bot.client
from bot import create_bot
from bot.client import EXTENSIONS, SYNCED_COMMANDS
from bot.settings import Settings
from bot.store.sqlite import MIGRATIONS, SqliteStore
from testbed.harness import APP_ID, GUILD_ID, Table
from testbed.postgres_server import PostgresServer, free_port

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
    assert main_module.main([]) == 2
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
    assert settings.database == "games.db"
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
    store = await SqliteStore.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    async with store.db.execute("PRAGMA journal_mode") as cursor:
        row = await cursor.fetchone()
    assert row is not None and row[0] == "wal"
    await store.close()
    again = await SqliteStore.open(path)  # opening again applies nothing twice
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
        await SqliteStore.open(path)
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


# -- syncing commands only when they changed --------------------------------------------------


def _names(payload: list[dict[str, Any]]) -> set[str]:
    return {c["name"] for c in payload}


async def test_a_start_with_the_same_commands_does_not_sync_again(tmp_path: Path) -> None:
    table = await Table(tmp_path / "a.sqlite3").start()
    assert len(table.synced) == 1
    await table.restart()
    await table.restart()
    assert len(table.synced) == 1
    assert table.bot.sync_report == (
        "Commands unchanged since they were last synced globally: not syncing "
        "(`python -m bot sync` forces it).")
    table.dice(3, 4)
    reply = await table.slash("roll", level=40)  # the commands work all the same
    assert "**34** (3·4) — SUCCESS" in reply.content
    await table.stop()


async def test_changed_commands_or_another_target_sync_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.sqlite3"
    table = await Table(path).start()
    assert "gm" in _names(table.synced[-1][1])
    monkeypatch.setattr(bot.client, "EXTENSIONS", tuple(e for e in EXTENSIONS
                                                        if e != "bot.cogs.gm"))
    await table.restart()  # a release without /gm
    assert len(table.synced) == 2 and table.synced[-1][0] is None
    assert "gm" not in _names(table.synced[-1][1]) and "roll" in _names(table.synced[-1][1])
    monkeypatch.setattr(bot.client, "EXTENSIONS", EXTENSIONS)
    await table.restart()
    assert len(table.synced) == 3 and "gm" in _names(table.synced[-1][1])
    await table.stop()

    dev = await Table(path, dev_guild=GUILD_ID).start()  # same commands, another target
    assert [scope for scope, _ in dev.synced] == [GUILD_ID]
    assert dev.bot.sync_report.endswith(f"commands to the development server {GUILD_ID}.")
    await dev.restart()
    assert len(dev.synced) == 1
    await dev.stop()
    again = await Table(path).start()  # back to global: Discord's global copy may be stale
    assert [scope for scope, _ in again.synced] == [None]
    await again.stop()


async def test_the_fingerprint_is_kept_only_once_discord_took_the_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await Table(tmp_path / "a.sqlite3").start()
    kept = await table.bot.store.meta.get(SYNCED_COMMANDS)
    assert kept is not None and len(table.synced) == 1
    table.bot.tree.remove_command("sheet")

    async def refuse(*_: Any, **__: Any) -> Any:
        raise discord.HTTPException(SimpleNamespace(status=500, reason="Server Error"), "down")

    monkeypatch.setattr(discord.app_commands.CommandTree, "sync", refuse)
    with pytest.raises(discord.HTTPException):
        await table.bot.sync_commands()
    assert await table.bot.store.meta.get(SYNCED_COMMANDS) == kept
    monkeypatch.undo()
    assert (await table.bot.sync_commands()).startswith("Synced ")
    assert "sheet" not in _names(table.synced[-1][1])
    assert await table.bot.store.meta.get(SYNCED_COMMANDS) not in (None, kept)
    await table.stop()


@pytest.fixture
def discord_api(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Discord's HTTP API for logging in and syncing, answered in-process; the calls made."""
    calls: list[tuple[str, Any]] = []

    async def static_login(self: discord.http.HTTPClient, token: str) -> dict[str, Any]:
        calls.append(("login", token))
        if token != "good-token":
            raise discord.LoginFailure("Improper token has been passed.")
        return {"id": str(APP_ID), "username": "Unhex", "discriminator": "0", "avatar": None,
                "bot": True}

    async def application_info(self: discord.Client) -> Any:
        return SimpleNamespace(id=APP_ID, interactions_endpoint_url=None,
                               flags=discord.ApplicationFlags())

    async def bulk_upsert_global_commands(self: discord.http.HTTPClient, application_id: int,
                                          *, payload: Any) -> list[Any]:
        calls.append(("sync", payload))
        return []

    async def connect(self: discord.Client, **_: Any) -> None:
        calls.append(("connect", None))

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setattr(discord.Client, "application_info", application_info)
    monkeypatch.setattr(discord.http.HTTPClient, "bulk_upsert_global_commands",
                        bulk_upsert_global_commands)
    monkeypatch.setattr(discord.Client, "connect", connect)
    return calls


def test_python_m_bot_sync_syncs_even_unchanged_commands_and_exits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    discord_api: list[tuple[str, Any]],
) -> None:
    path = tmp_path / "db.sqlite3"
    monkeypatch.setenv("DISCORD_TOKEN", "good-token")
    monkeypatch.setenv("UNHEX_DATABASE", str(path))
    monkeypatch.delenv("UNHEX_DEV_GUILD", raising=False)
    for _ in range(2):  # the second time nothing changed, and it syncs all the same
        assert main_module.main(["sync"]) == 0
        out = capsys.readouterr().out.strip().splitlines()
        assert len(out) == 1 and out[0].startswith("Synced ") and out[0].endswith(" globally.")
    assert [kind for kind, _ in discord_api] == ["login", "sync", "login", "sync"]
    assert "roll" in _names(discord_api[1][1])

    async def start_after_sync() -> list[Any]:
        table = await Table(path).start()
        await table.stop()
        return table.synced

    assert asyncio.run(start_after_sync()) == []  # `make run` next: nothing to sync


def test_python_m_bot_sync_with_a_bad_token_or_argument_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    discord_api: list[tuple[str, Any]],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "reset-token")
    monkeypatch.setenv("UNHEX_DATABASE", str(tmp_path / "db.sqlite3"))
    assert main_module.main(["sync"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Discord refused DISCORD_TOKEN" in err[0]
    assert main_module.main(["snyc"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("Usage: python -m bot [sync | copy-database")
    assert "invalid choice: 'snyc'" in err[0]
    assert [kind for kind, _ in discord_api] == ["login"]


def test_a_database_the_bot_cannot_use_stops_it_in_one_line(
        tmp_path: Path, postgres_server: PostgresServer) -> None:
    newer = tmp_path / "newer.sqlite3"
    with closing(sqlite3.connect(newer)) as db:
        db.execute("PRAGMA user_version = 999")
    cases = {
        f"postgresql://unhex:s3cret@127.0.0.1:{free_port()}/unhex":
            "Could not reach the PostgreSQL server",
        postgres_server.url("nowhere").replace("unhex@", "unhex:s3cret@"):
            "“nowhere” does not exist",
        str(newer): "newer than this bot knows",
    }
    for database, reason in cases.items():
        result = _run_bot(tmp_path, DISCORD_TOKEN="not-used", UNHEX_DATABASE=database)
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 1, result.stderr
        assert len(lines) == 1 and reason in lines[0], result.stderr
        assert "s3cret" not in result.stderr + result.stdout
