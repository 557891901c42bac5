"""The application's routes: who the bot is (``users/@me``, ``applications/@me``), where
its gateway is (``gateway/bot``), and its commands, synced globally or for a guild
(``interactions/application-commands``), kept with their localizations.
"""

from __future__ import annotations

from aiohttp import web

from localdiscord.locales import localized_command
from localdiscord.model import APP_ID, snowflake
from localdiscord.rest import BODY, answer, limit, server_of


async def me(request: web.Request) -> web.Response:
    bot = server_of(request).bot_user
    return answer(bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0})


async def application(request: web.Request) -> web.Response:
    server = server_of(request)
    bot = server.bot_user.payload()
    return answer({"id": str(APP_ID), "name": server.bot_name, "icon": None,
                   "description": "", "bot_public": True, "bot_require_code_grant": False,
                   "owner": bot, "summary": "", "verify_key": "0", "flags": 0, "team": None,
                   "bot": bot})


async def gateway_bot(request: web.Request) -> web.Response:
    server = server_of(request)
    return answer({"url": server.gateway.url(), "shards": 1,
                   "session_start_limit": {"total": 1000, "remaining": 1000,
                                           "reset_after": 0, "max_concurrency": 1}})


async def put_commands(request: web.Request) -> web.Response:
    server = server_of(request)
    guild = request.match_info.get("guild")
    limit(request, "other", f"commands:{guild}")
    made = [command | {"id": str(snowflake()), "application_id": str(APP_ID),
                       "version": str(snowflake()),
                       **({"guild_id": guild} if guild else {})}
            for command in request[BODY]]
    server.commands[None if guild is None else int(guild)] = made
    return answer(made)


async def get_commands(request: web.Request) -> web.Response:
    """The commands as synced; their localization dictionaries only ``with_localizations``,
    else each name and description in the requester's locale (``X-Discord-Locale``) where
    it has one, as Discord lists them."""
    guild = request.match_info.get("guild")
    commands = server_of(request).commands.get(None if guild is None else int(guild), [])
    if request.query.get("with_localizations", "").lower() in ("true", "1"):
        return answer(commands)
    locale = request.headers.get("X-Discord-Locale")
    return answer([localized_command(command, locale) for command in commands])


async def gateway_socket(request: web.Request) -> web.StreamResponse:
    """The gateway's websocket, where ``gateway/bot`` sends the bot."""
    return await server_of(request).gateway.handle(request)
