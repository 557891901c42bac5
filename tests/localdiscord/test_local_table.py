"""`python -m bot local` and `python -m bot play` without a token: the local table starts,
says in one line where to open it, and its page answers; another address is refused unless
named; an ephemeral answer reaches only its reader's feed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from localdiscord import LocalDiscord
from testbed.postgres_server import free_port

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "UNHEX_"))}
    return clean | {"PYTHONPATH": str(ROOT)}


def test_play_without_a_token_opens_the_local_table_and_says_where_in_one_line(
        tmp_path: Path) -> None:
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--port", str(port)], cwd=tmp_path, env=_env(),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "DISCORD_TOKEN" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        assert time.monotonic() - started < 30
    finally:
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)
    assert process.returncode == 0
    assert errors == "", errors  # nothing else said
    assert (tmp_path / "unhex.sqlite3").exists()  # the bot's own database, kept


def test_every_address_at_once_is_refused_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "bot", "local", "--host", "0.0.0.0"],
                            cwd=tmp_path, env=_env(), capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "name the one to listen on" in lines[0]


def test_a_named_address_is_served_with_a_warning() -> None:
    from bot.local import OPEN_TO_OTHERS, is_loopback, refusal

    assert refusal("192.168.1.20") is None and refusal("::") is not None
    assert not is_loopback("192.168.1.20") and is_loopback("127.0.0.1")
    assert "act as anyone" in OPEN_TO_OTHERS


async def test_an_ephemeral_answer_is_in_its_readers_feed_only(discord: LocalDiscord,
                                                                 bot: Path) -> None:
    alice, bob = discord.user("alice"), discord.user("bob")
    listed = await discord.people.slash("alice", "tavern", "character list")
    assert listed.message.ephemeral
    ident = str(listed.message.id)

    async def seen_by(user_id: int) -> set[str]:
        url = f"{discord.base}/localdiscord/feed?as={user_id}"
        text = await asyncio.to_thread(lambda: urllib.request.urlopen(url).read())

        return {change["data"].get("id") for change in json.loads(text)}

    assert ident in await seen_by(alice.id)
    assert ident not in await seen_by(bob.id)
