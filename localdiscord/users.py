"""The users' route handler (``resources/user``): a direct message channel opened with a
person (Create DM). Messages are sent into it by :func:`localdiscord.channels.create_message`,
as into any channel."""

from __future__ import annotations

from aiohttp import web

from localdiscord.rest import BODY, DiscordError, answer, limit, server_of

#: Discord answers a DM opened with a bot user with 50007, but as a bad request.
BOT_RECIPIENT_STATUS = 400


async def create_dm(request: web.Request) -> web.Response:
    """The DM channel with ``recipient_id`` (type 1): the same one for the same person every
    time. Opening it asks nothing of the person; whether they take the bot's messages is
    decided when one is sent (50007)."""
    server = server_of(request)
    limit(request, "other", "dm")
    body = request[BODY] or {}
    recipient = str(body.get("recipient_id") or "")
    if not recipient.isdigit():
        raise DiscordError(50035, {"recipient_id": {"_errors": [
            {"code": "NUMBER_TYPE_COERCE", "message": "Value is not snowflake."}]}})
    user = server.find_user(int(recipient))
    if user is None:
        raise DiscordError(10013)
    if user.bot:
        raise DiscordError(50007, status=BOT_RECIPIENT_STATUS)
    return answer(server.open_dm(user).payload())
