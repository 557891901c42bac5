"""The local table in a browser: the page (``web/``, plain ES modules and CSS, no build step)
and the small JSON routes it calls, added to the local Discord's own. The page is a client of
that server, as Discord's app is of Discord: it reads what a person sees (``/table/state``,
then the feed's websocket with ``?as=<user id>``) and acts through
:class:`~localdiscord.people.People` as the person chosen in its "who you are" switch.

Anyone who reaches the server may act as anyone: it listens on 127.0.0.1 unless told
otherwise (``python -m bot local --host``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.local_table.example import run_example
from localdiscord.enums import InteractionType
from localdiscord.interactions import FIRST_ANSWER_SECONDS
from localdiscord.locales import LOCALES, offered_locales
from localdiscord.model import APP_ID, Channel, Interaction, Permission
from localdiscord.people import Shown
from localdiscord.server import LocalDiscord

WEB = Path(__file__).parent / "web"
TABLE = web.AppKey("table", LocalDiscord)
#: Slack beyond Discord's 3 s for the bot's answer to travel back.
ANSWER_SLACK_SECONDS = 0.5


def add_page(server: LocalDiscord, app: web.Application) -> None:
    """The page's routes on ``server``'s application (``LocalDiscord(extend=add_page)``)."""
    app[TABLE] = server
    router = app.router
    router.add_get("/", index)
    router.add_static("/web/", WEB)
    router.add_get("/table/state", state)
    for name, handler in (("slash", slash), ("autocomplete", autocomplete), ("press", press),
                          ("pick", pick), ("submit", submit), ("say", say),
                          ("example", example), ("locale", locale),
                          ("guild_locale", guild_locale)):
        router.add_post(f"/table/{name}", handler)


def _server(request: web.Request) -> LocalDiscord:
    return request.config_dict[TABLE]


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(text=json.dumps(data), status=status, content_type="application/json")


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})


# -- what a person sees ------------------------------------------------------------------

async def state(request: web.Request) -> web.Response:
    """The guild as ``?as=<user id>`` sees it now, and the feed's index to follow from."""
    server = _server(request)
    guild = server.guild
    viewer = int(request.query.get("as") or guild.owner_id)
    members = [{"id": str(m.user.id), "name": m.user.name, "gm": is_gm(server, m.user.id),
                "roles": [guild.roles[r].name for r in m.roles]}
               for m in guild.members.values() if not m.user.bot]
    channels = sorted(guild.channels.values(), key=lambda c: (c.is_thread, c.position, c.id))
    messages = [server.message_payload(m) for m in sorted(server.messages.values(),
                                                          key=lambda m: m.id)
                if m.visible_to in (None, viewer) and m.guild_id == guild.id]
    commands = server.commands.get(guild.id, []) + server.commands.get(None, [])
    return _json({
        "guild": {"id": str(guild.id), "name": guild.name}, "app_id": str(APP_ID),
        "members": members, "roles": {str(r.id): r.name for r in guild.roles.values()},
        "channels": [c.payload() for c in channels], "messages": messages,
        "commands": commands, "since": len(server.feed.events),
        "locale": server.locale_of(viewer), "guild_locale": guild.preferred_locale,
        "locales": [{"code": code, "name": LOCALES[code]}
                    for code in offered_locales(commands)]})


def is_gm(server: LocalDiscord, user_id: int) -> bool:
    """Whether the bot counts ``user_id`` a GM on its own (Manage Server)."""
    return bool(server.guild.base_permissions(user_id) & Permission.MANAGE_GUILD)


# -- what a person does ------------------------------------------------------------------

async def _body(request: web.Request) -> dict[str, Any]:
    body = await request.json()
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="a JSON object, please")
    return body


def _user(server: LocalDiscord, body: dict[str, Any]) -> Any:
    member = server.guild.members.get(int(body.get("as") or 0))
    if member is None or member.user.bot:
        raise web.HTTPBadRequest(text="nobody by that id at this table")
    return member.user


def _channel(server: LocalDiscord, ident: Any) -> Channel:
    found = server.find_channel(int(ident or 0))
    if found is None:
        raise web.HTTPBadRequest(text="no such channel")
    return found


async def _answered(interaction: Interaction) -> web.Response:
    """What the bot answered within Discord's 3 s (the messages come over the feed)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(interaction.done.wait(),
                               FIRST_ANSWER_SECONDS + ANSWER_SLACK_SECONDS)
    # "message": the answer's message (Discord's ``response_message_id``): what the page
    # brings into view, as an answer to what its person did.
    original = None if interaction.original_id is None else str(interaction.original_id)
    return _json({"answered": interaction.answer_kind, "token": interaction.token,
                  "modal": interaction.modal, "choices": interaction.choices,
                  "message": original})


async def slash(request: web.Request) -> web.Response:
    """``{"as", "channel", "command": "character create", "options": {...}}``, the options
    typed as the command declares them."""
    server, body = _server(request), await _body(request)
    where = _channel(server, body.get("channel"))
    try:
        data = server.people.command_data(where, str(body.get("command") or ""),
                                          dict(body.get("options") or {}), focused=None)
    except (AssertionError, KeyError) as problem:
        return _json({"error": str(problem)}, 400)
    return await _answered(server.people.send(_user(server, body), where,
                                                InteractionType.APPLICATION_COMMAND, data))


async def autocomplete(request: web.Request) -> web.Response:
    server, body = _server(request), await _body(request)
    where = _channel(server, body.get("channel"))
    focused = str(body.get("focused") or "")
    options = dict(body.get("options") or {})
    options.setdefault(focused, "")
    try:
        data = server.people.command_data(where, str(body.get("command") or ""), options,
                                          focused=focused)
    except (AssertionError, KeyError) as problem:
        return _json({"error": str(problem)}, 400)
    return await _answered(server.people.send(
        _user(server, body), where, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE, data))


def _message(server: LocalDiscord, body: dict[str, Any]) -> Shown:
    found = server.messages.get(int(body.get("message") or 0))
    if found is None:
        raise web.HTTPNotFound(text="that message is gone")
    return Shown(server.message_payload(found))


async def press(request: web.Request) -> web.Response:
    """A button: ``{"as", "message", "custom_id"}``."""
    return await _component(request, lambda body: {"component_type": 2})


async def pick(request: web.Request) -> web.Response:
    """A select menu: ``{"as", "message", "custom_id", "component_type", "values"}``."""
    return await _component(request, lambda body: {
        "component_type": int(body.get("component_type") or 3),
        "values": [str(v) for v in body.get("values") or []]})


async def _component(request: web.Request,
                     data_of: Callable[[dict[str, Any]], dict[str, Any]]) -> web.Response:
    """A press or a pick on a message's component, sent as Discord's client sends it."""
    server, body = _server(request), await _body(request)
    shown = _message(server, body)
    data = {"custom_id": str(body.get("custom_id")), **data_of(body)}
    return await _answered(server.people.send(_user(server, body),
                                              _channel(server, shown.channel_id),
                                              InteractionType.MESSAGE_COMPONENT, data,
                                              shown))


async def submit(request: web.Request) -> web.Response:
    """A modal: ``{"as", "token": the interaction it answered, "custom_id", "fields": [{
    "custom_id", "type", "labelled", "value" or "values"}]}``."""
    server, body = _server(request), await _body(request)
    origin = server.interactions.get(str(body.get("token")))
    if origin is None or origin.modal is None:
        raise web.HTTPBadRequest(text="no form was asked for there")
    rows = []
    for field in body.get("fields") or []:
        kind = int(field.get("type") or 4)
        part = {"type": kind, "custom_id": str(field.get("custom_id")),
                **({"values": [str(v) for v in field.get("values") or []]} if kind != 4
                   else {"value": str(field.get("value") or "")})}
        rows.append({"type": 18, "component": part} if field.get("labelled")
                    else {"type": 1, "components": [part]})
    data = {"custom_id": origin.modal.get("custom_id"), "components": rows}
    on = server.messages.get(origin.message_id or 0)
    shown = None if on is None else Shown(server.message_payload(on))
    return await _answered(server.people.send(_user(server, body),
                                              _channel(server, origin.channel_id),
                                              InteractionType.MODAL_SUBMIT, data,
                                              shown))


async def say(request: web.Request) -> web.Response:
    """A message in the channel: ``{"as", "channel", "content"}``, posted as that person
    (it mentions nobody); the message made."""
    server, body = _server(request), await _body(request)
    where = _channel(server, body.get("channel"))
    try:
        shown = server.people.say(_user(server, body), where, str(body.get("content") or ""))
    except ValueError as problem:
        return _json({"error": str(problem)}, 400)
    except PermissionError as problem:
        return _json({"error": str(problem)}, 403)
    return _json({"message": shown.raw})


async def locale(request: web.Request) -> web.Response:
    """``{"as", "locale"}``: that person's client set to a language of Discord's (their
    interactions say it from now on)."""
    server, body = _server(request), await _body(request)
    try:
        server.set_locale(_user(server, body).id, str(body.get("locale") or ""))
    except ValueError as problem:
        return _json({"error": str(problem)}, 400)
    return _json({"locale": server.locale_of(_user(server, body).id)})


async def guild_locale(request: web.Request) -> web.Response:
    """``{"as", "locale"}``: the server's preferred language (its community settings), set
    by someone who may manage the server."""
    server, body = _server(request), await _body(request)
    if not is_gm(server, _user(server, body).id):
        return _json({"error": "Only someone who may manage the server sets its language"},
                     403)
    try:
        server.set_preferred_locale(server.guild, str(body.get("locale") or ""))
    except ValueError as problem:
        return _json({"error": str(problem)}, 400)
    return _json({"guild_locale": server.guild.preferred_locale})


async def example(request: web.Request) -> web.Response:
    """``{"step": "characters"}`` or ``{"step": "fight"}``: the newcomer's example table;
    ``{"accepted": [command], "refused": [{"command", "answer"}], "kept": [what existed]}``."""
    server, body = _server(request), await _body(request)
    told = await run_example(server, str(body.get("step") or ""))
    return _json(told.payload())
