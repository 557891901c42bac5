"""Discord's refusals, each switched on by a test, seen as the bot's HTTP client sees them:
rate limits with their headers, an hour-old message's edits, a deleted message, a permission
taken away, an archived thread, an outage, the pins' limit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from localdiscord import LocalDiscord
from localdiscord.model import APP_ID, MAX_PINS, Message, Permission, snowflake


@pytest.fixture
async def http(discord: LocalDiscord) -> AsyncIterator[Any]:
    """``await http(method, path, json)`` against the server's API: status, JSON, headers."""
    async with aiohttp.ClientSession(headers={"Authorization": "Bot local"}) as session:
        async def call(method: str, path: str, body: Any = None) -> tuple[int, Any, Any]:
            async with session.request(method, discord.api + path, json=body) as response:
                data = await response.json() if response.content_type == "application/json" \
                    else await response.text()
                return response.status, data, response.headers
        yield call


def _messages(discord: LocalDiscord, channel: str = "fight") -> str:
    return f"/channels/{discord.channel(channel).id}/messages"


async def test_a_channels_creates_count_down_then_429_with_retry_after(
        discord: LocalDiscord, http: Any) -> None:
    remaining = []
    for n in range(5):
        status, _, headers = await http("POST", _messages(discord), {"content": f"#{n}"})
        assert status == 200
        remaining.append(headers["X-RateLimit-Remaining"])
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5
    assert remaining == ["4", "3", "2", "1", "0"]

    status, body, headers = await http("POST", _messages(discord), {"content": "#5"})
    assert status == 429 and 0 < body["retry_after"] <= 5 and body["global"] is False
    assert headers["X-RateLimit-Scope"] == "user" and headers["Via"]  # Discord's, not a ban
    assert float(headers["Retry-After"]) == pytest.approx(body["retry_after"], abs=0.01)
    assert len(discord.channel_messages("fight")) == 5  # the refused one was not posted
    # another channel has a bucket of its own
    status, _, headers = await http("POST", _messages(discord, "tavern"), {"content": "hi"})
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"


async def test_an_hour_old_messages_edits_are_refused_with_30046_past_3_per_6_s(
        discord: LocalDiscord, http: Any) -> None:
    _, board, _ = await http("POST", _messages(discord), {"content": "board"})
    _, fresh, _ = await http("POST", _messages(discord), {"content": "fresh"})
    discord.faults.age(int(board["id"]))
    for n in range(3):
        status, edited, _ = await http("PATCH", f"{_messages(discord)}/{board['id']}",
                                       {"content": f"board {n}"})
        assert status == 200 and edited["edited_timestamp"]
    status, body, headers = await http("PATCH", f"{_messages(discord)}/{board['id']}",
                                       {"content": "board 3"})
    assert status == 429 and body["code"] == 30046 and 0 < body["retry_after"] <= 6
    assert headers["Via"]
    assert discord.messages[int(board["id"])].content == "board 2"
    # a message younger than an hour is edited from the channel's ordinary bucket
    status, _, _ = await http("PATCH", f"{_messages(discord)}/{fresh['id']}", {"content": "x"})
    assert status == 200


async def test_a_message_a_moderator_deleted_is_unknown(discord: LocalDiscord,
                                                        http: Any) -> None:
    _, posted, _ = await http("POST", _messages(discord), {"content": "prompt"})
    discord.faults.delete(int(posted["id"]))
    for method in ("PATCH", "GET", "DELETE"):
        status, body, _ = await http(method, f"{_messages(discord)}/{posted['id']}",
                                     {"content": "again"} if method == "PATCH" else None)
        assert (status, body["code"], body["message"]) == (404, 10008, "Unknown Message")
    deleted = discord.feed.of("message_delete")
    assert [c.data["id"] for c in deleted] == [posted["id"]]


async def test_a_permission_taken_away_refuses_with_50013_until_given_back(
        discord: LocalDiscord, http: Any) -> None:
    discord.faults.revoke("fight", Permission.SEND_MESSAGES)
    status, body, _ = await http("POST", _messages(discord), {"content": "board"})
    assert (status, body["code"]) == (403, 50013)
    status, _, _ = await http("POST", _messages(discord, "tavern"), {"content": "still here"})
    assert status == 200  # only the fight channel changed
    discord.faults.revoke("fight", Permission.VIEW_CHANNEL)
    status, body, _ = await http("POST", _messages(discord), {"content": "board"})
    assert (status, body["code"]) == (403, 50001)
    discord.faults.restore("fight")
    status, _, _ = await http("POST", _messages(discord), {"content": "board"})
    assert status == 200


async def test_without_read_message_history_the_channel_reads_as_empty(
        discord: LocalDiscord, http: Any) -> None:
    """Discord answers a history read without the permission with no messages, not an error
    (``resources/message``: "no messages will be returned")."""
    status, _, _ = await http("POST", _messages(discord), {"content": "board"})
    status, body, _ = await http("GET", _messages(discord) + "?limit=50")
    assert status == 200 and [m["content"] for m in body] == ["board"]
    discord.faults.revoke("fight", Permission.READ_MESSAGE_HISTORY)
    status, body, _ = await http("GET", _messages(discord) + "?limit=50")
    assert (status, body) == (200, [])
    discord.faults.revoke("fight", Permission.VIEW_CHANNEL)
    status, body, _ = await http("GET", _messages(discord) + "?limit=50")
    assert (status, body["code"]) == (403, 50001)


async def test_an_archived_thread_refuses_edits_and_a_post_unarchives_it(
        discord: LocalDiscord, http: Any) -> None:
    fight = discord.channel("fight").id
    status, thread, _ = await http("POST", f"/channels/{fight}/threads",
                                   {"name": "Fight on the docks", "type": 11})
    assert status == 201 and thread["parent_id"] == str(fight)
    _, board, _ = await http("POST", f"/channels/{thread['id']}/messages", {"content": "b"})
    discord.faults.archive(int(thread["id"]))
    status, body, _ = await http("PATCH", f"/channels/{thread['id']}/messages/{board['id']}",
                                 {"content": "b2"})
    assert (status, body["code"]) == (400, 50083)
    status, _, _ = await http("POST", f"/channels/{thread['id']}/messages", {"content": "n"})
    assert status == 200 and not discord.channel(int(thread["id"])).archived
    discord.faults.archive(int(thread["id"]), locked=True)
    status, body, _ = await http("POST", f"/channels/{thread['id']}/messages", {"content": "n"})
    assert (status, body["code"]) == (400, 50083)


async def test_an_outage_answers_5xx_then_recovers(discord: LocalDiscord, http: Any) -> None:
    discord.faults.fail_next(2, status=502)
    assert [(await http("GET", "/users/@me"))[0] for _ in range(3)] == [502, 502, 200]


async def test_a_channel_holds_250_pins(discord: LocalDiscord, http: Any) -> None:
    fight = discord.channel("fight")
    for _ in range(MAX_PINS):
        old = Message(snowflake(), fight.id, fight.guild_id, discord.bot_user, "old",
                      pinned=True)
        discord.messages[old.id] = old
    _, board, _ = await http("POST", _messages(discord), {"content": "board"})
    status, body, _ = await http("PUT", f"/channels/{fight.id}/messages/pins/{board['id']}")
    assert (status, body["code"]) == (400, 30003)
    await http("DELETE", f"/channels/{fight.id}/messages/pins/{old.id}")
    status, _, _ = await http("PUT", f"/channels/{fight.id}/messages/pins/{board['id']}")
    assert status == 204 and discord.messages[int(board["id"])].pinned
    assert discord.feed.of("pins_update")[-1].data["message_id"] == board["id"]


async def test_a_viewer_follows_the_changes(discord: LocalDiscord, http: Any) -> None:
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(f"{discord.base}/localdiscord/feed/ws") as feed:
        _, posted, _ = await http("POST", _messages(discord), {"content": "board"})
        await http("PATCH", f"{_messages(discord)}/{posted['id']}", {"content": "board 2"})
        await http("PUT", f"/channels/{posted['channel_id']}/messages/pins/{posted['id']}")
        kinds = [(await feed.receive_json(timeout=5))["kind"] for _ in range(4)]
        async with session.get(f"{discord.base}/localdiscord/feed?since=1") as response:
            later = await response.json()
    assert kinds == ["message_create", "message_update", "pins_update", "message_create"]
    assert [c["kind"] for c in later] == kinds[1:]
    assert later[0]["data"]["content"] == "board 2"


async def test_a_request_refused_once_with_a_429_passes_when_tried_again(
        discord: LocalDiscord, http: Any) -> None:
    commands = f"/applications/{APP_ID}/commands"
    discord.faults.refuse_next(commands, 429, method="PUT", retry_after=0.25)
    assert (await http("GET", commands))[0] == 200  # another method: not refused
    status, body, headers = await http("PUT", commands, [])
    assert status == 429 and body == {"message": "You are being rate limited.",
                                      "retry_after": 0.25, "global": False}
    assert headers["Retry-After"] == "0.250" and headers["Via"]  # Discord's, not a ban
    assert headers["X-RateLimit-Scope"] == "user"
    assert (await http("PUT", commands, []))[0] == 200
    assert [c.status for c in discord.calls if c.method == "PUT"] == [429, 200]
