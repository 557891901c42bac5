"""Every route of the local Discord, in one table: Discord's REST API (under ``/api/v10``,
each request through :func:`~localdiscord.rest.like_discord`), then the server's own (the
gateway's websocket, attachments, the feed a viewer follows); :func:`build_app` registers
them on the aiohttp application.
"""

from __future__ import annotations

from aiohttp import web

import localdiscord.applications as applications
import localdiscord.channels as channels
import localdiscord.interactions as interactions
import localdiscord.users as users
import localdiscord.viewer as viewer
from localdiscord.faults import Faults
from localdiscord.rest import FAULTS, SERVER, Handler, like_discord
from localdiscord.state import DiscordState

Route = tuple[str, str, Handler]

_MESSAGES = "/channels/{channel}/messages"
_ORIGINAL = "/webhooks/{app}/{token}/messages/{message}"
_COMMANDS = "/applications/{app}/commands"
_GUILD_COMMANDS = "/applications/{app}/guilds/{guild}/commands"

#: Discord's REST API, below ``/api/v10``: method, path, handler.
API: list[Route] = [
    ("GET", "/users/@me", applications.me),
    ("POST", "/users/@me/channels", users.create_dm),
    ("GET", "/oauth2/applications/@me", applications.application),
    ("GET", "/applications/@me", applications.application),
    ("GET", "/gateway/bot", applications.gateway_bot),
    ("PUT", _COMMANDS, applications.put_commands),
    ("GET", _COMMANDS, applications.get_commands),
    ("PUT", _GUILD_COMMANDS, applications.put_commands),
    ("GET", _GUILD_COMMANDS, applications.get_commands),
    ("GET", "/channels/{channel}", channels.get_channel),
    ("POST", _MESSAGES, channels.create_message),
    ("GET", _MESSAGES, channels.list_messages),
    ("GET", _MESSAGES + "/pins", channels.list_pins),
    ("GET", "/channels/{channel}/pins", channels.list_pins_legacy),
    ("GET", _MESSAGES + "/{message}", channels.get_message),
    ("PATCH", _MESSAGES + "/{message}", channels.edit_message),
    ("DELETE", _MESSAGES + "/{message}", channels.delete_message),
    ("PUT", _MESSAGES + "/pins/{message}", channels.pin),
    ("DELETE", _MESSAGES + "/pins/{message}", channels.unpin),
    ("PUT", "/channels/{channel}/pins/{message}", channels.pin),
    ("DELETE", "/channels/{channel}/pins/{message}", channels.unpin),
    ("POST", "/channels/{channel}/threads", channels.start_thread),
    ("POST", _MESSAGES + "/{message}/threads", channels.start_thread),
    ("POST", "/interactions/{id}/{token}/callback", interactions.callback),
    ("POST", "/webhooks/{app}/{token}", interactions.follow_up),
    ("GET", _ORIGINAL, interactions.get_original),
    ("PATCH", _ORIGINAL, interactions.edit_original),
    ("DELETE", _ORIGINAL, interactions.delete_original),
]

#: The server's own routes, beside the API: the gateway, and what a viewer reads.
OWN: list[Route] = [
    ("GET", "/gateway", applications.gateway_socket),
    ("GET", "/attachments/{id}/{filename}", viewer.attachment),
    ("GET", "/localdiscord/feed", viewer.feed),
    ("GET", "/localdiscord/feed/ws", viewer.feed_socket),
]


def build_app(server: DiscordState, faults: Faults) -> web.Application:
    """The application serving ``server``: :data:`OWN` at the root, :data:`API` below
    ``/api/v10``."""
    api = web.Application(middlewares=[like_discord])
    app = web.Application()
    for made, routes in ((api, API), (app, OWN)):
        made[SERVER], made[FAULTS] = server, faults
        for method, path, handler in routes:
            made.router.add_route(method, path, handler)
    app.add_subapp("/api/v10", api)
    return app
