"""A fight's board on a Discord that refuses it, with the real bot process: an hour-old board
edited too often, a board a moderator deleted, pins full or Pin Messages taken away, an
archived fight thread, an outage. Each time the table ends with a board of the fight's
current state (pinned when it may be), exactly one message with live buttons, and every
step in the database once, in order."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from localdiscord import LocalDiscord
from localdiscord.model import MAX_PINS, Channel, Message, Permission, snowflake
from localdiscord.people import Reply
from testbed.postgres_server import free_port
from tests.processes_io import metric


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"UNHEX_DICE_SEED": "7", "UNHEX_HTTP_PORT": str(free_port())}


@pytest.fixture(autouse=True)
def roomy_channel(discord: LocalDiscord) -> None:
    """The channel's creates and edits roomy (as once answers carry the prompts): each step
    edits the board at once, and meets only the refusal its test is about (an hour-old
    board's own 3 edits per 6 s stay as Discord's)."""
    discord.limiter.limits.edit = discord.limiter.limits.create = (50, 5.0)


async def _fight(discord: LocalDiscord, **start: object) -> Channel:
    """Ana (Alice's PC) and Goon (an NPC) in a begun fight, the PCs first; its channel."""
    people = discord.people
    for name, user, npc in (("Ana", "alice", False), ("Goon", "gamemaster", True)):
        made = await people.slash(user, "fight", "character create", name=name, level=40,
                                  **({"npc": True} if npc else {}))
        assert made.kind == "message", made.content
    started = await people.slash("gamemaster", "fight", "combat start", map="Nightclub",
                                 **start)
    assert _said(started, "A fight starts")
    where = discord.channel("fight")
    if start.get("thread"):
        where = next(c for c in discord.guild.channels.values() if c.parent_id == where.id)
    for name, user in (("Ana", "alice"), ("Goon", "gamemaster")):
        added = await people.slash(user, where.id, "combat add", character=name,
                                   area="Dance Floor")
        assert _said(added, "joins the fight")
    begun = await people.slash("gamemaster", where.id, "combat begin")
    asking = next(m for m in begun.messages if "PCs first" in m.labels)
    await people.press("alice", asking, "PCs first")
    return where


async def _goon_at(discord: LocalDiscord, where: Channel, *levels: int) -> None:
    """The GM corrects Goon's level to each of ``levels``, one step each."""
    for level in levels:
        reply = await discord.people.slash("gamemaster", where.id, "combat set",
                                           character="Goon", level=level)
        assert reply.kind == "message" and _said(reply, f"→ {level}.")


def _said(reply: Reply, text: str) -> bool:
    """Whether one of the messages the bot showed for ``reply`` says ``text``."""
    return any(text in m.content for m in reply.messages) or \
        pytest.fail(f"nothing says {text!r}: {[m.content[:80] for m in reply.messages]}")


def _live(discord: LocalDiscord, where: Channel) -> list[Message]:
    """The channel's messages with buttons (or menus) one may still use."""
    return [m for m in discord.channel_messages(where.id) if m.components and not m.ephemeral]


def _boards(discord: LocalDiscord, where: Channel) -> list[Message]:
    return [m for m in discord.channel_messages(where.id) if m.content.startswith("```text")]


@pytest.fixture
def database(bot: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(bot.parent / "db.sqlite3")
    try:
        yield connection
    finally:
        connection.close()


async def _settled(db: sqlite3.Connection) -> tuple[int, int | None, int | None]:
    """Once the bot shows the fight's newest version: (version, board, prompt) as kept."""
    for _ in range(100):
        version, shown, board, prompt = db.execute(
            "SELECT version, shown_version, board_message_id, prompt_message_id "
            "FROM combats").fetchone()
        if version == shown:
            return version, board, prompt
        await asyncio.sleep(0.1)
    raise AssertionError(f"version {version} never shown (shown: {shown})")


def _levels_set(db: sqlite3.Connection) -> list[int]:
    """Goon's levels as the GM set them, from the fight's log, in order."""
    commands = [json.loads(c) for (c,) in db.execute(
        "SELECT command FROM combat_log ORDER BY id")]
    return [c["level"] for c in commands if c.get("kind") == "gm_set" and
            c.get("level") is not None]


async def _one_live_prompt_and_the_board(discord: LocalDiscord, where: Channel,
                                         db: sqlite3.Connection, level: int) -> Message:
    """The table's view once settled: one live prompt (the one kept), one current board
    (the one kept); that board."""
    _, board_id, prompt_id = await _settled(db)
    assert [m.id for m in _live(discord, where)] == [prompt_id]
    board = discord.messages[board_id or 0]
    assert f"Goon [NPCs] Dance Floor {level}/40" in board.content, board.content
    return board


async def test_an_hour_old_board_edited_too_often_is_posted_afresh_and_pinned(
        discord: LocalDiscord, bot: Path, database: sqlite3.Connection,
        bot_env: dict[str, str]) -> None:
    where = await _fight(discord)
    (old,) = discord.pins(where.id)
    discord.faults.age(old.id)

    await _goon_at(discord, where, 30, 29, 28, 27, 26)

    board = await _one_live_prompt_and_the_board(discord, where, database, 26)
    assert board.id != old.id and [m.id for m in discord.pins(where.id)] == [board.id]
    assert not discord.messages[old.id].pinned and "28/40" in discord.messages[old.id].content
    edits = [c.status for c in discord.calls if c.method == "PATCH" and str(old.id) in c.path]
    assert edits[-1] == 429 and edits.count(429) == 1  # refused once: not waited on
    assert _levels_set(database) == [30, 29, 28, 27, 26]
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{bot_env['UNHEX_HTTP_PORT']}/metrics") as response:
        text = await response.text()
    assert metric(text, "unhex_discord_refusals_total", status="429", code="30046") == 1


async def test_a_deleted_board_without_pin_messages_is_posted_again_and_the_table_told_once(
        discord: LocalDiscord, bot: Path, database: sqlite3.Connection) -> None:
    where = await _fight(discord)
    (old,) = discord.pins(where.id)
    discord.faults.revoke(where.id, Permission.PIN_MESSAGES)
    discord.faults.delete(old.id)

    await _goon_at(discord, where, 30, 29)

    board = await _one_live_prompt_and_the_board(discord, where, database, 29)
    assert board.id != old.id and not board.pinned and len(_boards(discord, where)) == 1
    (told,) = [m for m in discord.channel_messages(where.id) if "not pinned" in m.content]
    assert "**Pin Messages**" in told.content and str(board.id) in told.content
    assert _levels_set(database) == [30, 29]


async def test_with_250_pins_the_fight_goes_on_and_the_table_is_told_once_where_the_board_is(
        discord: LocalDiscord, bot: Path, database: sqlite3.Connection) -> None:
    fight = discord.channel("fight")
    for _ in range(MAX_PINS):
        pinned = Message(snowflake(), fight.id, fight.guild_id, discord.bot_user, "old",
                         pinned=True)
        discord.messages[pinned.id] = pinned
    where = await _fight(discord)

    await _goon_at(discord, where, 30, 29)

    board = await _one_live_prompt_and_the_board(discord, where, database, 29)
    assert not board.pinned and len(discord.pins(where.id)) == MAX_PINS
    (told,) = [m for m in discord.channel_messages(where.id) if "not pinned" in m.content]
    assert "250" in told.content and str(board.id) in told.content
    assert _levels_set(database) == [30, 29]


async def test_an_archived_fight_thread_comes_back_with_a_new_board(
        discord: LocalDiscord, bot: Path, database: sqlite3.Connection) -> None:
    thread = await _fight(discord, thread=True)
    (old,) = discord.pins(thread.id)
    discord.faults.archive(thread.id)

    await _goon_at(discord, thread, 30)

    board = await _one_live_prompt_and_the_board(discord, thread, database, 30)
    assert not discord.channel(thread.id).archived
    assert [m.id for m in discord.pins(thread.id)] == [board.id] and board.id != old.id
    await _goon_at(discord, thread, 29)  # the new board is the one edited from now on
    assert await _one_live_prompt_and_the_board(discord, thread, database, 29) == board
    assert _levels_set(database) == [30, 29]


async def test_a_502_on_the_board_edit_is_retried(
        discord: LocalDiscord, bot: Path, database: sqlite3.Connection) -> None:
    where = await _fight(discord)
    (board,) = discord.pins(where.id)
    discord.faults.fail_next(1, status=502, path=f"/messages/{board.id}")

    await _goon_at(discord, where, 30)

    assert await _one_live_prompt_and_the_board(discord, where, database, 30) == board
    edits = [c.status for c in discord.calls if c.method == "PATCH" and str(board.id) in c.path]
    assert edits[-2:] == [502, 200] and len(_boards(discord, where)) == 1
    assert _levels_set(database) == [30]


async def test_a_board_refused_for_good_keeps_the_prompt_posted_meanwhile(
        discord: LocalDiscord, bot: Path, database: sqlite3.Connection) -> None:
    where = await _fight(discord)
    (board,) = discord.pins(where.id)
    discord.faults.fail_next(1, status=503, path=f"/messages/{board.id}")  # not retried

    await _goon_at(discord, where, 30)
    await _goon_at(discord, where, 29)  # before the refused step is shown again

    assert len(_live(discord, where)) == 1  # the refused step's prompt lost its buttons
    assert await _one_live_prompt_and_the_board(discord, where, database, 29) == board
    assert _levels_set(database) == [30, 29]
