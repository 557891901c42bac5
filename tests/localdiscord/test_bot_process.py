"""The unchanged bot process against the local Discord: it logs in, connects, syncs its
commands, and answers people in the guild's channels."""

from __future__ import annotations

from pathlib import Path

from localdiscord import APP_ID, LocalDiscord


async def test_the_bot_syncs_and_answers_a_roll_in_the_fight_channel(
        discord: LocalDiscord, bot: Path) -> None:
    assert {c["name"] for c in discord.commands[None]} >= {"roll", "character", "combat"}
    assert discord.gateway.state.identifies == 1

    reply = await discord.people.slash("alice", "fight", "roll", level=40)

    assert reply.kind == "message"
    kept = discord.channel_messages("fight")
    assert [m.id for m in kept] == [reply.message.id]
    assert kept[0].author.id == APP_ID and "40" in kept[0].content
    assert discord.feed.of("message_create", discord.channel("fight").id)
