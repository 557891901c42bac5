"""A fight's next question, posted as the press's follow-up, that Discord made though the bot
never learnt its id, with the real bot process: Discord answers 502 after making it, or the
bot is killed before the answer comes. Either way the table ends with one board and exactly
one live prompt (the follow-up Discord made, not a second one beside it), and the step is
in the database once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from tests.localdiscord.two_fighters import begun_fight, live_prompts

ROOT = Path(__file__).resolve().parents[2]
#: The step the press makes, and the question that follows it.
DONE_PCS, DONE_NPCS = "Done (PCs)", "Done (NPCs)"


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The dice as the boards' tests roll them: the PCs win initiative."""
    return {"UNHEX_DICE_SEED": "7"}


@pytest.fixture(autouse=True)
def roomy_channel(discord: LocalDiscord) -> None:
    """The channel's buckets roomy: each test meets only the trouble it is about."""
    discord.limiter.limits.edit = discord.limiter.limits.create = (50, 5.0)


@asynccontextmanager
async def bot_process(discord: LocalDiscord, folder: Path, name: str) -> AsyncIterator[
        asyncio.subprocess.Process]:
    """``python -m bot`` on ``folder``'s database, connected to ``discord`` (READY, and on a
    new database its commands synced); stopped at the end if still running. Its log
    (``name``.log) must hold no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UNHEX_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "local-token", "UNHEX_DATABASE": str(folder / "db.sqlite3"),
            "UNHEX_DISCORD_API": discord.api, "PYTHONPATH": str(ROOT),
            "UNHEX_DICE_SEED": "7"}
    log = folder / f"{name}.log"
    discord.gateway.state.ready.clear()
    synced = sum(c.method == "PUT" for c in discord.calls)
    # (a restart on the same database syncs nothing: its commands are as last synced)
    first_start = not (folder / "db.sqlite3").exists()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=folder, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=log.open("wb"))
    try:
        await asyncio.wait_for(discord.gateway.state.ready.wait(), 60)
        for _ in range(600 if first_start else 0):
            if sum(c.method == "PUT" for c in discord.calls) > synced:
                break
            await asyncio.sleep(0.05)
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.wait(), 30)
    assert "Traceback" not in log.read_text(), log.read_text()


def _kept(folder: Path) -> tuple[list[str], tuple[int, int, int | None]]:
    """The steps kept, and the fight's (version, shown version, prompt message id)."""
    database = sqlite3.connect(folder / "db.sqlite3")
    try:
        steps = [c for (c,) in database.execute("SELECT command FROM combat_log ORDER BY id")]
        fight = database.execute(
            "SELECT version, shown_version, prompt_message_id FROM combats").fetchone()
    finally:
        database.close()
    return steps, fight


async def _shown(folder: Path) -> tuple[list[str], int | None]:
    """Once the bot recorded the fight's newest version as shown: the steps kept and the
    prompt it recorded as live."""
    for _ in range(600):
        steps, (version, shown, prompt) = _kept(folder)
        if shown == version:
            return steps, prompt
        await asyncio.sleep(0.05)
    raise AssertionError(f"version {version} never recorded as shown (shown: {shown})")


def _done_steps(steps: list[str]) -> int:
    return sum(json.loads(c).get("kind") == "done" for c in steps)


def _told_after(discord: LocalDiscord, pressed: int, text: str) -> bool:
    """Whether a message below the prompt pressed tells ``text`` (a turn handed over is told
    at the bottom of the channel, not in the prompt pressed)."""
    return any(text in m.content for m in discord.channel_messages("fight") if m.id > pressed)


def _follow_up_posts(discord: LocalDiscord) -> list[int]:
    """The statuses of the bot's follow-up posts (a webhook's POST), in order."""
    return [c.status for c in discord.calls if c.method == "POST" and "/webhooks/" in c.path]


async def test_a_follow_up_made_though_discord_answered_502_is_the_one_live_prompt(
        discord: LocalDiscord, bot: Path) -> None:
    prompt = await begun_fight(discord)
    posts = len(_follow_up_posts(discord))
    discord.faults.fail_after_making(1, status=502, skip=1)  # (the first: the turn's news)

    await discord.people.press("alice", prompt, DONE_PCS)
    steps, recorded = await _shown(bot.parent)

    assert _follow_up_posts(discord)[posts:] == [200, 502]  # not repeated: no second prompt
    (live,) = live_prompts(discord)
    assert DONE_NPCS in live.labels and live.id == recorded
    made = discord.messages[live.id]
    assert made.interaction_id is not None  # the follow-up Discord made, found again
    assert _done_steps(steps) == 1

    answered = await discord.people.press("gamemaster", live, DONE_NPCS)
    assert _told_after(discord, live.id, "NPCs are done."), answered.content
    assert _done_steps((await _shown(bot.parent))[0]) == 2
    # The same button pressed again (a client that has not seen the edit) applies nothing.
    button = next(p["custom_id"] for p in live.parts if p.get("label") == DONE_NPCS)
    again = discord.people.send("gamemaster", discord.channel("fight"), 3,
                                {"custom_id": button, "component_type": 2}, live)
    refused = await discord.people.wait(again)
    assert "use the newest buttons" in refused.content, refused.content
    assert _done_steps(_kept(bot.parent)[0]) == 2


async def test_a_follow_up_made_as_the_bot_is_killed_is_found_again_after_the_restart(
        discord: LocalDiscord, tmp_path: Path) -> None:
    held = asyncio.Event()
    async with bot_process(discord, tmp_path, "killed") as process:
        prompt = await begun_fight(discord)
        before = {m.id for m in discord.channel_messages("fight")}
        discord.faults.fail_after_making(1, status=502, until=held, skip=1)  # (past the news)
        discord.people.send_press("alice", prompt, DONE_PCS)
        for _ in range(600):  # Discord made the follow-up; its answer is held
            made = [m for m in discord.channel_messages("fight") if m.id not in before
                    and m.interaction_id is not None and m.components]
            if made:
                break
            await asyncio.sleep(0.05)
        (orphan,) = made
        process.kill()
        await process.wait()
    held.set()
    steps, (version, shown, _) = _kept(tmp_path)
    assert shown < version and _done_steps(steps) == 1  # the crash came before the record

    async with bot_process(discord, tmp_path, "restarted"):
        steps, recorded = await _shown(tmp_path)
        (live,) = live_prompts(discord)
        assert live.id == orphan.id == recorded and DONE_NPCS in live.labels
        assert _done_steps(steps) == 1
        await discord.people.press("gamemaster", live, DONE_NPCS)
        assert _told_after(discord, live.id, "NPCs are done.")
