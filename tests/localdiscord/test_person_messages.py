"""A person's message, as their client posts it: made in the channel, told to the bot over
the gateway and to every viewer's feed, mentioning nobody; refused where they may not send."""

from __future__ import annotations

import pytest

from localdiscord import LocalDiscord
from localdiscord.gateway import Session
from localdiscord.model import Overwrite, Permission


async def test_a_persons_message_is_seen_by_the_bot_and_every_viewer_and_pings_nobody(
        discord: LocalDiscord) -> None:
    bot = discord.gateway.sessions.setdefault(0, Session((0, 1)))
    alice = discord.user("alice")
    text = f"hello table, @everyone and <@{discord.user('bob').id}>"

    said = discord.people.say("alice", "tavern", text)

    assert said.content == text and said.raw["author"]["id"] == str(alice.id)
    assert said.raw["mentions"] == [] and said.raw["mention_everyone"] is False
    assert [m.content for m in discord.channel_messages("tavern")] == [text]
    created = [e["d"] for e in bot.events if e["t"] == "MESSAGE_CREATE"]
    assert [(d["id"], d["content"]) for d in created] == [(said.raw["id"], text)]
    change = discord.feed.of("message_create", discord.channel("tavern").id)[-1]
    assert change.data["id"] == said.raw["id"] and change.seen_by(discord.user("bob").id)


async def test_a_person_is_refused_an_empty_message_or_one_where_they_may_not_send(
        discord: LocalDiscord) -> None:
    tavern = discord.channel("tavern")
    with pytest.raises(ValueError, match="empty"):
        discord.people.say("alice", tavern, "   ")
    with pytest.raises(ValueError, match="2000"):
        discord.people.say("alice", tavern, "x" * 2001)
    alice = discord.user("alice").id
    tavern.overwrites.append(Overwrite(alice, 1, deny=Permission.SEND_MESSAGES))
    with pytest.raises(PermissionError, match="alice may not send messages in #tavern"):
        discord.people.say("alice", tavern, "hello")
    discord.people.say("bob", tavern, "hello")  # only alice is kept quiet
    assert [m.author.name for m in discord.channel_messages("tavern")] == ["bob"]
