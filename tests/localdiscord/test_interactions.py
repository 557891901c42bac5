"""Interaction answers as Discord takes them: once, within 3 s, keyed by the token (not the
channel's buckets); then follow-ups and edits of the original for 15 minutes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from localdiscord import APP_ID, LocalDiscord
from localdiscord.model import Interaction, Permission


@pytest.fixture
async def post(discord: LocalDiscord) -> AsyncIterator[Any]:
    async with aiohttp.ClientSession() as session:
        async def call(path: str, body: Any, method: str = "POST") -> tuple[int, Any]:
            async with session.request(method, discord.api + path, json=body) as response:
                data = await response.json() if response.content_type == "application/json" \
                    else None
                return response.status, data
        yield call


def _pressed(discord: LocalDiscord) -> Interaction:
    return discord.people.send("alice", discord.channel("fight"), 2, {"name": "roll"})


def _callback(interaction: Interaction) -> str:
    return f"/interactions/{interaction.id}/{interaction.token}/callback?with_response=true"


async def test_an_answer_is_taken_once_and_not_from_the_channels_bucket(
        discord: LocalDiscord, post: Any) -> None:
    fight = discord.channel("fight").id
    for n in range(5):  # the channel's create bucket is empty now
        assert (await post(f"/channels/{fight}/messages", {"content": f"#{n}"}))[0] == 200
    interaction = _pressed(discord)
    status, body = await post(_callback(interaction), {"type": 4, "data": {"content": "40"}})
    assert status == 200 and body["resource"]["message"]["content"] == "40"
    assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]
    status, body = await post(_callback(interaction), {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060)


async def test_an_answer_after_3_s_is_refused_with_10062(discord: LocalDiscord,
                                                         post: Any) -> None:
    interaction = _pressed(discord)
    discord.faults.expire(interaction)
    status, body = await post(_callback(interaction), {"type": 5})
    assert (status, body["code"]) == (404, 10062)
    assert not discord.channel_messages("fight")


async def test_a_deferred_answer_is_the_first_follow_up_then_15_minutes_end_the_token(
        discord: LocalDiscord, post: Any) -> None:
    interaction = _pressed(discord)
    status, body = await post(_callback(interaction), {"type": 5})
    assert status == 200 and body["interaction"]["response_message_loading"] is True
    webhook = f"/webhooks/{APP_ID}/{interaction.token}?wait=true"
    status, first = await post(webhook, {"content": "done"})
    assert status == 200 and first["id"] == body["interaction"]["response_message_id"]
    status, second = await post(webhook, {"content": "and more"})
    assert status == 200 and second["id"] != first["id"]
    original = f"/webhooks/{APP_ID}/{interaction.token}/messages/@original"
    status, edited = await post(original, {"content": "done, edited"}, "PATCH")
    assert status == 200 and edited["content"] == "done, edited"
    assert [m.content for m in discord.channel_messages("fight")] == ["done, edited",
                                                                      "and more"]
    discord.faults.expire(interaction, 15 * 60)
    status, body = await post(webhook, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)


async def test_answers_and_follow_ups_need_no_permission_in_the_channel_its_posts_do(
        discord: LocalDiscord, post: Any) -> None:
    fight = discord.channel("fight").id
    _, board = await post(f"/channels/{fight}/messages", {"content": "board"})
    interaction = _pressed(discord)
    discord.faults.revoke("fight", Permission.SEND_MESSAGES)
    status, _ = await post(_callback(interaction), {"type": 4, "data": {"content": "40"}})
    assert status == 200
    status, _ = await post(f"/webhooks/{APP_ID}/{interaction.token}?wait=true",
                          {"content": "next"})
    assert status == 200
    status, _ = await post(f"/channels/{fight}/messages/{board['id']}", {"content": "b2"},
                           "PATCH")
    assert status == 200  # the bot's own message: Send Messages is for new ones
    status, body = await post(f"/channels/{fight}/messages", {"content": "new"})
    assert (status, body["code"]) == (403, 50013)


async def test_a_command_in_a_dm_names_its_user_and_is_answered_there(
        discord: LocalDiscord, post: Any) -> None:
    discord.commands[None] = [{"id": "1", "name": "roll", "type": 1, "options": [
        {"name": "level", "type": 4, "description": "level"}]}]
    dm = discord.people.dm("alice")
    assert discord.people.dm("alice") == dm != discord.people.dm("bob")
    data = discord.people.command_data(dm, "roll", {"level": 40}, focused=None)
    interaction = discord.people.send("alice", dm, 2, data)
    made = discord.people.payload(interaction, data, None)
    assert made["user"]["username"] == "alice" and "member" not in made
    assert "guild_id" not in made and made["context"] == 1
    assert made["channel"]["type"] == 1 and made["channel_id"] == str(dm.id)
    assert made["data"]["options"] == [{"name": "level", "type": 4, "value": 40}]
    status, body = await post(_callback(interaction), {"type": 4, "data": {"content": "40"}})
    assert status == 200 and body["resource"]["message"]["channel_id"] == str(dm.id)
    assert "guild_id" not in body["resource"]["message"]


async def test_a_day_on_discords_clock_ages_every_message_token_and_bucket_without_sleeping(
        discord: LocalDiscord, post: Any) -> None:
    fight = discord.channel("fight").id
    _, board = await post(f"/channels/{fight}/messages", {"content": "board"})
    yesterday = _pressed(discord)
    assert (await post(_callback(yesterday), {"type": 5}))[0] == 200
    for n in range(4):  # the channel's create bucket is empty now
        assert (await post(f"/channels/{fight}/messages", {"content": f"#{n}"}))[0] == 200
    assert (await post(f"/channels/{fight}/messages", {"content": "#4"}))[0] == 429

    discord.clock.advance(24 * 3600)

    assert (await post(f"/channels/{fight}/messages", {"content": "a day on"}))[0] == 200
    status, body = await post(f"/webhooks/{APP_ID}/{yesterday.token}?wait=true",
                              {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)
    edits = [await post(f"/channels/{fight}/messages/{board['id']}", {"content": f"b{n}"},
                        "PATCH") for n in range(4)]
    assert [status for status, _ in edits] == [200, 200, 200, 429]
    assert edits[-1][1]["code"] == 30046
    today = _pressed(discord)  # made by Discord's clock: its token is fresh
    assert (await post(_callback(today), {"type": 5}))[0] == 200
    status, made = await post(f"/webhooks/{APP_ID}/{today.token}?wait=true", {"content": "ok"})
    assert status == 200 and int(made["id"]) >> 22 > int(board["id"]) >> 22
    assert discord.messages[int(made["id"])].age(discord.clock.now()) < 60
