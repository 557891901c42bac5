"""Direct messages as Discord has them: the bot opens a DM with a person (the same channel
every time) and posts into it; Discord refuses the post (403, 50007) when the person takes no
DM from the bot: they turned direct messages off, or share no guild with it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from localdiscord import APP_ID, LocalDiscord
from localdiscord.model import Guild, Member, User

OPEN = "/users/@me/channels"


@pytest.fixture
async def post(discord: LocalDiscord) -> AsyncIterator[Any]:
    async with aiohttp.ClientSession() as session:
        async def call(path: str, body: Any) -> tuple[int, Any]:
            async with session.post(discord.api + path, json=body) as response:
                return response.status, await response.json()
        yield call


async def test_a_dm_opened_twice_is_one_channel_and_its_message_is_the_recipients_alone(
        discord: LocalDiscord, post: Any) -> None:
    alice, bob = discord.user("alice"), discord.user("bob")
    status, opened = await post(OPEN, {"recipient_id": str(alice.id)})
    assert status == 200 and opened["type"] == 1, opened
    assert [r["id"] for r in opened["recipients"]] == [str(alice.id)]
    assert (await post(OPEN, {"recipient_id": str(alice.id)}))[1]["id"] == opened["id"]
    assert int(opened["id"]) == discord.people.dm("alice").id  # where she uses commands too
    assert (await post(OPEN, {"recipient_id": str(bob.id)}))[1]["id"] != opened["id"]

    status, sent = await post(f"/channels/{opened['id']}/messages", {"content": "hello"})
    assert status == 200 and sent["channel_id"] == opened["id"] and "guild_id" not in sent
    assert [m.content for m in discord.channel_messages(int(opened["id"]))] == ["hello"]
    [made] = discord.feed.of("message_create", int(opened["id"]))
    assert made.seen_by(alice.id) and not made.seen_by(bob.id)


async def test_a_person_who_turned_dms_off_is_refused_50007_until_they_turn_them_on(
        discord: LocalDiscord, post: Any) -> None:
    alice = discord.user("alice")
    _, opened = await post(OPEN, {"recipient_id": str(alice.id)})
    discord.people.refuse_dms("alice")
    status, refused = await post(f"/channels/{opened['id']}/messages", {"content": "hello"})
    assert (status, refused) == (403, {"code": 50007,
                                       "message": "Cannot send messages to this user"})
    assert discord.channel_messages(int(opened["id"])) == []
    discord.people.refuse_dms("alice", refused=False)
    assert (await post(f"/channels/{opened['id']}/messages", {"content": "again"}))[0] == 200


async def test_a_person_who_shares_no_guild_with_the_bot_is_refused(
        discord: LocalDiscord, post: Any) -> None:
    stranger = User(700_000_000_000_000_001, "stranger")
    elsewhere = Guild(700_000_000_000_000_100, "Elsewhere", owner_id=stranger.id)
    elsewhere.members[stranger.id] = Member(stranger)  # the bot is no member there
    discord.guilds[elsewhere.id] = elsewhere
    status, opened = await post(OPEN, {"recipient_id": str(stranger.id)})
    assert status == 200  # opening asks nothing of them; the message is what is refused
    status, refused = await post(f"/channels/{opened['id']}/messages", {"content": "hi"})
    assert (status, refused["code"]) == (403, 50007)


async def test_a_dm_with_a_bot_or_nobody_is_refused_when_opened(
        discord: LocalDiscord, post: Any) -> None:
    status, refused = await post(OPEN, {"recipient_id": str(APP_ID)})
    assert (status, refused["code"]) == (400, 50007)
    status, refused = await post(OPEN, {"recipient_id": "12345"})
    assert (status, refused["code"]) == (404, 10013)
    status, refused = await post(OPEN, {})
    assert (status, refused["code"]) == (400, 50035)
