"""`python -m bot local` stopped and started again: Ctrl+C (or SIGTERM) stops it at once even
with a page following the feed, and what was played stays: the same #fight, its messages, a
fight's prompt that still answers its button."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.local_table import local_discord
from localdiscord import APP_ID
from localdiscord.enums import ChannelType
from localdiscord.keep import WRITE_DELAY_SECONDS
from localdiscord.model import (
    Attachment,
    Channel,
    Message,
    Overwrite,
    Permission,
    snowflake,
)
from testbed.postgres_server import free_port

ROOT = Path(__file__).resolve().parents[2]
#: What a prompt fresh from /combat begin asks, and its button.
INITIATIVE, PCS_FIRST = "won initiative", "PCs first"
#: The turn's prompt that pressing it brings.
TURN = "Round 1, the PCs' turn"


class Table:
    """A running `python -m bot local`, reached as its page reaches it."""

    def __init__(self, process: asyncio.subprocess.Process, base: str,
                 session: aiohttp.ClientSession) -> None:
        self.process, self.base, self.session = process, base, session

    async def post(self, route: str, body: dict[str, Any]) -> Any:
        async with self.session.post(f"{self.base}/table/{route}", json=body) as answer:
            assert answer.status == 200, await answer.text()
            return await answer.json()

    async def state(self) -> Any:
        async with self.session.get(f"{self.base}/table/state") as answer:
            return await answer.json()

    async def stop(self, how: signal.Signals = signal.SIGINT) -> float:
        """Send ``how``; the seconds until the process ended (it must end with 0)."""
        started = time.monotonic()
        self.process.send_signal(how)
        code = await asyncio.wait_for(self.process.wait(), 15)
        assert code == 0, code
        return time.monotonic() - started


@asynccontextmanager
async def local_table(database: Path) -> AsyncIterator[Table]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "UNHEX_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "local", "--port", str(port), "--database", str(database),
        cwd=database.parent, env=env | {"PYTHONPATH": str(ROOT), "UNHEX_DICE_SEED": "12"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        assert process.stdout is not None
        said = await asyncio.wait_for(process.stdout.readline(), 60)
        assert f":{port}/" in said.decode(), said
        async with aiohttp.ClientSession() as session:
            yield Table(process, f"http://127.0.0.1:{port}", session)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.stderr is not None
    errors = (await process.stderr.read()).decode()
    assert errors == "", errors


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_it_stops_at_once_with_a_page_following_the_feed(
        tmp_path: Path, how: signal.Signals) -> None:
    async with local_table(tmp_path / "db.sqlite3") as table:
        feed = await table.session.ws_connect(f"{table.base}/localdiscord/feed/ws?since=0")
        await asyncio.sleep(0.2)  # (the server has the page's connection)
        seconds = await table.stop(how)
        closed = await asyncio.wait_for(feed.receive(), 2)
        assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        await feed.close()
    assert seconds < 3, f"{seconds:.1f} s to stop"


def _prompt(state: dict[str, Any], channel: str) -> dict[str, Any]:
    """The newest message in ``channel`` with the initiative prompt's button."""
    found = [m for m in state["messages"] if m["channel_id"] == channel
             and INITIATIVE in m["content"]
             and any(b.get("label") == PCS_FIRST for row in m["components"]
                     for b in row["components"])]
    assert found, [m["content"][:60] for m in state["messages"] if m["channel_id"] == channel]
    return found[-1]


def _fight_channel(state: dict[str, Any]) -> str:
    return next(c["id"] for c in state["channels"] if c["name"] == "fight")


async def test_a_fight_stays_across_a_restart_and_its_prompt_still_answers(
        tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    async with local_table(database) as table:
        for step in ("characters", "fight"):
            told = await table.post("example", {"step": step})
            assert told["accepted"] and not told["refused"], told
        before = await table.state()
        fight = _fight_channel(before)
        gm_id = next(m["id"] for m in before["members"] if m["name"] == "gamemaster")
        await table.post("slash", {"as": gm_id, "channel": fight, "command": "combat begin"})
        await asyncio.sleep(1.0)  # (the board and the prompt posted)
        before = await table.state()
        prompt = _prompt(before, fight)
        await table.stop()
    assert (tmp_path / "db.sqlite3.discord.json").exists()

    async with local_table(database) as table:
        after = await table.state()
        assert _fight_channel(after) == fight
        kept = [m["id"] for m in before["messages"] if m["channel_id"] == fight]
        assert [m["id"] for m in after["messages"] if m["channel_id"] == fight][:len(kept)] \
            == kept
        assert _prompt(after, fight)["id"] == prompt["id"]
        alice = next(m["id"] for m in after["members"] if m["name"] == "alice")
        button = next(b for row in prompt["components"] for b in row["components"]
                      if b.get("label") == PCS_FIRST)
        pressed = await table.post("press", {"as": alice, "message": prompt["id"],
                                             "custom_id": button["custom_id"]})
        assert pressed["answered"] is not None
        await asyncio.sleep(1.0)
        now = {m["id"]: m for m in (await table.state())["messages"]
               if m["channel_id"] == fight}
        assert "PCs choose the order" in now[prompt["id"]]["content"]
        assert not now[prompt["id"]]["components"]  # answered: its buttons gone
        turn = [m for ident, m in now.items() if ident not in kept]
        assert any(TURN in m["content"] for m in turn), [m["content"] for m in turn]
        await table.stop()


async def test_an_unreadable_state_file_starts_afresh_with_one_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    kept = tmp_path / "db.sqlite3.discord.json"
    kept.write_text('{"version": 1, "channels": [{"id"')
    server = await local_discord(kept).start()
    try:
        assert [c.name for c in server.guild.channels.values()] == ["fight", "tavern"]
        assert [r.getMessage() for r in caplog.records] == [
            f"The local table's state in {kept} could not be read (Expecting ':' delimiter: "
            "line 1 column 34 (char 33)): starting afresh, the file kept as "
            "db.sqlite3.discord.json.unreadable."]
    finally:
        await server.stop()
    assert (tmp_path / "db.sqlite3.discord.json.unreadable").read_text().startswith('{"ver')
    assert '"fight"' in kept.read_text()  # the fresh table's


async def test_a_server_without_a_state_file_keeps_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server = await local_discord().start()
    server.post(Message(snowflake(), server.channel("fight").id, server.guild.id,
                        server.bot_user, content="hello"))
    await server.stop()
    assert server.keeper is None and not os.listdir(tmp_path)


async def test_threads_attachments_and_pins_come_back_as_they_were(tmp_path: Path) -> None:
    kept = tmp_path / "db.sqlite3.discord.json"
    server = await local_discord(kept).start()
    fight = server.channel("fight")
    thread = Channel(snowflake(), fight.guild_id, "Round 2", kind=ChannelType.PUBLIC_THREAD,
                     parent_id=fight.id, owner_id=APP_ID, archived=True)
    fight.overwrites.append(Overwrite(server.guild.id, 0, deny=Permission.SEND_MESSAGES))
    server.guild.channels[thread.id] = thread
    server.thread_created(thread)
    log = Attachment(snowflake(), "fight-1-log.txt", b"Ana hits\xff", "text/plain")
    posted = server.post(Message(snowflake(), thread.id, fight.guild_id, server.bot_user,
                                 content="the log", attachments=[log],
                                 components=[{"type": 1, "components": [
                                     {"type": 2, "style": 1, "label": "Go",
                                      "custom_id": "go"}]}]))
    server.set_pinned(posted, True)
    before = [server.message_payload(m) for m in server.channel_messages(thread.id)]
    await asyncio.sleep(WRITE_DELAY_SECONDS + 0.5)
    assert str(posted.id) in kept.read_text()  # written soon after, not only at a stop
    await server.stop()

    again = await local_discord(kept).start()
    try:
        assert again.channel(thread.id).payload() == thread.payload()
        assert again.channel("fight").payload() == fight.payload()
        after = [again.message_payload(m) for m in again.channel_messages(thread.id)]
        assert [a | {"attachments": []} for a in after] == \
            [b | {"attachments": []} for b in before]
        assert again.messages[posted.id].attachments == [log] and again.pins(thread.id)
    finally:
        await again.stop()


async def test_time_made_to_pass_for_discord_stays_passed_across_a_restart(
        tmp_path: Path) -> None:
    kept = tmp_path / "db.sqlite3.discord.json"
    server = await local_discord(kept).start()
    posted = server.post(server.new_message(server.channel("fight").id, server.guild.id,
                                            server.bot_user, content="a day ago"))
    server.clock.advance(24 * 3600)
    await server.stop()

    again = await local_discord(kept).start()
    try:
        assert again.messages[posted.id].age(again.clock.now()) >= 24 * 3600
    finally:
        await again.stop()
