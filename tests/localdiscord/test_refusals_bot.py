"""A fight step that Discord or the database gets in the way of, with the real bot process:
a permission taken away while a press is on its way, the database paused for 4 s during a
press or a command (PostgreSQL), a prompt a moderator deleted. Each time the presser gets an
answer, the step is in the database once, and the table ends with a board of the fight's
current state and exactly one message with live buttons."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from localdiscord import LocalDiscord
from localdiscord.model import Interaction, Message, Permission
from localdiscord.people import Reply
from tests.localdiscord.two_fighters import begun_fight, live_prompts

#: The fight's steps, in order, as kept.
STEPS = "SELECT command FROM combat_log ORDER BY id"


@pytest.fixture
def bot_env() -> dict[str, str]:
    """The dice as the boards' tests roll them: the PCs win initiative."""
    return {"UNHEX_DICE_SEED": "7"}


@pytest.fixture(autouse=True)
def roomy_channel(discord: LocalDiscord) -> None:
    """The channel's buckets roomy: each test meets only the trouble it is about."""
    discord.limiter.limits.edit = discord.limiter.limits.create = (50, 5.0)


def _boards(discord: LocalDiscord) -> list[Message]:
    return [m for m in discord.channel_messages("fight") if m.content.startswith("```text")]


def _done_steps(commands: list[str]) -> int:
    """How many of the kept steps are a team saying it is done."""
    return sum(json.loads(c).get("kind") == "done" for c in commands)


def _answers(discord: LocalDiscord, reply: Reply) -> list[int]:
    """The statuses Discord gave the bot's answers to ``reply``'s interaction."""
    return [c.status for c in discord.calls if reply.interaction.token in c.path]


async def _the_table_shows(discord: LocalDiscord, board_says: str, asks: str) -> None:
    """Once the bot is done: one board, saying ``board_says``, and one live prompt, with the
    button ``asks``."""
    for _ in range(100):
        boards, live = _boards(discord), live_prompts(discord)
        if len(boards) == 1 and board_says in boards[0].content and len(live) == 1 \
                and asks in live[0].labels:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"boards: {[b.content[:60] for b in boards]}; live prompts: "
                         f"{[(m.content[:60], m.labels) for m in live]}")


async def test_a_press_while_send_messages_is_taken_away_is_kept_and_shown_once_it_is_back(
        discord: LocalDiscord, bot: Path) -> None:
    prompt = await begun_fight(discord)
    # A moderator deleted the board, so showing the next step takes a new message: the one
    # thing a bot without Send Messages cannot do (it may still edit its own messages, and
    # an interaction's answers go through its token).
    (board,) = _boards(discord)
    discord.faults.delete(board.id)
    pressed = discord.people.send_press("alice", prompt, "Done (PCs)")
    discord.faults.revoke("fight", Permission.SEND_MESSAGES)  # while the press is on its way
    reply = await discord.people.wait(pressed)

    assert reply.interaction.answer_kind == "update" and _answers(discord, reply)[0] == 200
    assert not discord.messages[prompt.id].components  # the prompt pressed keeps its text
    (said,) = [m.content for m in discord.channel_messages("fight") if m.id > prompt.id
               and "PCs are done." in m.content]  # the turn handed over: at the bottom
    assert "**Send Messages**" in said, said
    database = sqlite3.connect(bot.parent / "db.sqlite3")
    try:
        commands = [c for (c,) in database.execute(STEPS)]
    finally:
        database.close()
    assert _done_steps(commands) == 1
    assert not _boards(discord)  # refused: nothing is retried until the permission is back

    discord.faults.restore("fight")  # CHANNEL_UPDATE: the bot may post again

    await _the_table_shows(discord, "NPCs acting", "Done (NPCs)")
    (board,) = _boards(discord)
    assert [m.id for m in discord.pins(discord.channel("fight").id)] == [board.id]


async def test_a_deleted_prompt_is_asked_again_by_the_next_step(
        discord: LocalDiscord, bot: Path) -> None:
    prompt = await begun_fight(discord)
    discord.faults.delete(prompt.id)  # a moderator tidies the channel
    set_by_gm = await discord.people.slash("gamemaster", "fight", "combat set",
                                           character="Goon", level=30)
    assert any("→ 30." in m.content for m in set_by_gm.messages), set_by_gm.content

    await _the_table_shows(discord, "Goon [NPCs] Dance Floor 30/40", "Done (PCs)")
    (asking,) = live_prompts(discord)
    await discord.people.press("alice", asking, "Done (PCs)")  # the new prompt answers
    await _the_table_shows(discord, "NPCs acting", "Done (NPCs)")


async def _while_paused(discord: LocalDiscord, url: str, send: Callable[[], Interaction],
                        seconds: float = 4.0) -> Reply:
    """``send()`` an interaction while the database is paused for the bot for ``seconds``
    (its fights' table locked from another connection); the bot's answer."""
    paused = await asyncpg.connect(url)
    try:
        async with paused.transaction():
            await paused.execute("LOCK TABLE combats IN ACCESS EXCLUSIVE MODE")
            sent = send()
            await asyncio.sleep(seconds)
    finally:
        await paused.close()
    return await discord.people.wait(sent)


class TestOnPostgreSQL:
    @pytest.fixture
    def bot_env(self, postgres_database: str) -> dict[str, str]:
        return {"UNHEX_DICE_SEED": "7", "UNHEX_DATABASE": postgres_database}

    async def test_a_press_while_the_database_is_paused_for_4_s_is_deferred_and_applied_once(
            self, discord: LocalDiscord, bot: Path, postgres_database: str) -> None:
        prompt = await begun_fight(discord)
        reply = await _while_paused(discord, postgres_database,
                                    lambda: discord.people.send_press("alice", prompt,
                                                                      "Done (PCs)"))
        reading = await asyncpg.connect(postgres_database)
        try:
            commands = [r["command"] for r in await reading.fetch(STEPS)]
        finally:
            await reading.close()

        assert reply.interaction.answer_kind == "defer-update"  # in time, before the answer
        assert set(_answers(discord, reply)) == {200}  # never 10062
        assert any("PCs are done." in m.content for m in discord.channel_messages("fight")
                   if m.id > prompt.id)  # the turn handed over: at the bottom
        assert _done_steps(commands) == 1
        await _the_table_shows(discord, "NPCs acting", "Done (NPCs)")

    async def test_a_command_while_the_database_is_paused_for_4_s_is_deferred_then_answered(
            self, discord: LocalDiscord, bot: Path, postgres_database: str) -> None:
        await begun_fight(discord)
        fight, people = discord.channel("fight"), discord.people
        command = people.command_data(fight, "combat set", {"character": "Goon", "level": 30},
                                      focused=None)
        reply = await _while_paused(discord, postgres_database,
                                    lambda: people.send("gamemaster", fight, 2, command))

        assert reply.interaction.answer_kind == "defer"  # "thinking…", then the answer in it
        assert set(_answers(discord, reply)) == {200}
        answer = discord.messages[reply.interaction.original_id or 0]
        assert "→ 30." in answer.content and not answer.ephemeral
        await _the_table_shows(discord, "Goon [NPCs] Dance Floor 30/40", "Done (PCs)")
