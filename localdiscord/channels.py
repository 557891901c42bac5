"""The channels' route handlers (``resources/message``, ``resources/channel``): messages
posted (in a guild's channel or a person's DM), read, edited and deleted, pins, threads.

Each route spends its bucket first (Discord's limiter stands before the rest), then checks
the bot's permissions in the channel, then what the message or thread allows.
"""

from __future__ import annotations

from aiohttp import web

from localdiscord.enums import ChannelType, MessageFlag
from localdiscord.model import (
    APP_ID,
    MAX_PINS,
    Channel,
    DirectMessages,
    Permission,
    iso,
    snowflake,
)
from localdiscord.rest import (
    BODY,
    FILES,
    DiscordError,
    answer,
    apply_edit,
    attachments,
    channel_of,
    limit,
    message_of,
    require,
    server_of,
    validate,
)

#: What a message may keep of the flags it is sent with.
SENT_FLAGS = int(MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS)
#: An hour: an edit of an older message spends the channel's smaller bucket.
OLD_MESSAGE_SECONDS = 3600.0


async def create_message(request: web.Request) -> web.Response:
    server = server_of(request)
    direct = server.find_dm(int(request.match_info["channel"]))
    if direct is not None:
        return _create_direct_message(request, direct)
    channel = channel_of(request)
    body, files = request[BODY] or {}, request[FILES]
    limit(request, "create", channel.id)
    needed = Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else \
        Permission.SEND_MESSAGES
    require(server, channel, needed | (Permission.ATTACH_FILES if files else 0))
    if channel.archived and channel.locked:
        raise DiscordError(50083)
    validate(body, files)
    again = _sent_before(request, channel.id)
    if again is not None:
        return again
    if channel.archived:  # posting in an unlocked archived thread unarchives it
        channel.archived = False
        server.channel_changed(channel)
    return _post(request, channel.id, channel.guild_id)


def _create_direct_message(request: web.Request, direct: DirectMessages) -> web.Response:
    """A message in someone's DM with the bot: refused (50007) when they take none from it
    (no guild shared with the bot, direct messages from server members turned off, the bot
    blocked); seen by them alone."""
    server, body, files = server_of(request), request[BODY] or {}, request[FILES]
    limit(request, "create", direct.id)
    if not server.takes_dms(direct.user.id):
        raise DiscordError(50007)
    validate(body, files)
    again = _sent_before(request, direct.id)
    return again if again is not None else _post(request, direct.id, None,
                                                 reader=direct.user.id)


def _sent_before(request: web.Request, channel_id: int) -> web.Response | None:
    """With ``enforce_nonce``: the message this nonce already made in the channel."""
    server, body = server_of(request), request[BODY] or {}
    if not body.get("enforce_nonce"):
        return None
    made = server.nonces.get((channel_id, str(body.get("nonce"))))
    return None if made not in server.messages else \
        answer(server.message_payload(server.messages[made]))


def _post(request: web.Request, channel_id: int, guild_id: int | None, *,
          reader: int | None = None) -> web.Response:
    """The request's message, posted in ``channel_id`` by the bot."""
    server, body, files = server_of(request), request[BODY] or {}, request[FILES]
    message = server.new_message(
        channel_id, guild_id, server.bot_user, content=body.get("content") or "",
        components=body.get("components") or [], embeds=body.get("embeds") or [],
        attachments=attachments(body, files), flags=int(body.get("flags") or 0) & SENT_FLAGS,
        nonce=body.get("nonce"), visible_to=reader)
    if body.get("enforce_nonce"):
        server.nonces[(channel_id, str(body.get("nonce")))] = message.id
    server.post(message)
    return answer(server.message_payload(message))


async def list_messages(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    limit(request, "other", channel.id)
    require(server, channel, Permission.VIEW_CHANNEL)
    if not server.permissions(APP_ID, channel) & Permission.READ_MESSAGE_HISTORY:
        return answer([])  # Discord: "no messages will be returned", and no error
    count = min(int(request.query.get("limit", "50")), 100)
    newest = [m for m in reversed(server.channel_messages(channel.id)) if not m.ephemeral]
    return answer([server.message_payload(m) for m in newest[:count]])


async def get_message(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    limit(request, "other", channel.id)
    require(server, channel, Permission.READ_MESSAGE_HISTORY)
    return answer(server.message_payload(message_of(request, channel)))


async def edit_message(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    message = message_of(request, channel)
    old = message.age(server.clock.now()) > OLD_MESSAGE_SECONDS
    limit(request, "edit", channel.id, old=old)
    require(server, channel, 0)
    if message.author.id != APP_ID:
        raise DiscordError(50005)
    if channel.archived:
        raise DiscordError(50083)
    body, files = request[BODY] or {}, request[FILES]
    validate(body, files, empty_ok=True)
    changed = apply_edit(message, body, files)
    server.edited(message, content_changed=changed)
    return answer(server.message_payload(message))


async def delete_message(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    message = message_of(request, channel)
    limit(request, "other", f"delete:{channel.id}")
    require(server, channel, 0 if message.author.id == APP_ID else Permission.MANAGE_MESSAGES)
    if channel.archived:
        raise DiscordError(50083)
    server.delete(message)
    return answer(None)


async def pin(request: web.Request) -> web.Response:
    return await _pin(request, pinned=True)


async def unpin(request: web.Request) -> web.Response:
    return await _pin(request, pinned=False)


async def _pin(request: web.Request, *, pinned: bool) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    limit(request, "other", f"pins:{channel.id}")
    require(server, channel, Permission.PIN_MESSAGES)
    message = message_of(request, channel)
    if channel.archived:
        raise DiscordError(50083)
    if pinned and not message.pinned and len(server.pins(channel.id)) >= MAX_PINS:
        raise DiscordError(30003)
    if message.pinned != pinned:
        server.set_pinned(message, pinned)
    return answer(None)


async def list_pins(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    require(server, channel, Permission.READ_MESSAGE_HISTORY)
    items = [{"pinned_at": iso(m.created_at), "message": server.message_payload(m)}
             for m in reversed(server.pins(channel.id))]
    return answer({"items": items, "has_more": False})


async def list_pins_legacy(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    require(server, channel, Permission.READ_MESSAGE_HISTORY)
    return answer([server.message_payload(m) for m in reversed(server.pins(channel.id))])


async def start_thread(request: web.Request) -> web.Response:
    """A public thread off a text channel (off one of its messages: with that id)."""
    server, channel = server_of(request), channel_of(request)
    limit(request, "other", f"threads:{channel.id}")
    require(server, channel, Permission.CREATE_PUBLIC_THREADS)
    body = request[BODY] or {}
    now = server.clock.now()
    ident = snowflake(now)
    if "message" in request.match_info:
        ident = message_of(request, channel).id
    if channel.is_thread:
        raise DiscordError(50035, {"parent": {"_errors": [
            {"code": "CHANNEL_TYPE_INVALID", "message": "A thread cannot hold threads."}]}})
    thread = Channel(ident, channel.guild_id, str(body.get("name") or "thread")[:100],
                     kind=ChannelType.PUBLIC_THREAD, parent_id=channel.id, owner_id=APP_ID,
                     created_at=now)
    server.guilds[channel.guild_id].channels[thread.id] = thread
    server.thread_created(thread)
    return answer(thread.payload() | {"member": {"id": str(thread.id),
                                                 "user_id": str(APP_ID),
                                                 "join_timestamp": iso(thread.created_at),
                                                 "flags": 0}}, 201)


async def get_channel(request: web.Request) -> web.Response:
    server, channel = server_of(request), channel_of(request)
    require(server, channel, 0)
    return answer(channel.payload())
