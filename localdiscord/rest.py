"""How every REST request (``/api/v10``) is read, checked and answered as Discord does: its
error JSON ``{"code": …, "message": …}`` with Discord's status, 429s from
:mod:`localdiscord.buckets` with their headers, the outages :mod:`localdiscord.faults`
switches on; the checks the route handlers share (the channel, the bot's permissions, the
message, what a message may hold) and how a body becomes a message's attachments or edit.
The handlers are in :mod:`localdiscord.channels`, :mod:`localdiscord.interactions` and
:mod:`localdiscord.applications`; :mod:`localdiscord.routes` maps paths to them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from localdiscord.buckets import Verdict
from localdiscord.enums import MessageFlag
from localdiscord.faults import Faults
from localdiscord.limits import message_errors
from localdiscord.model import APP_ID, Attachment, Channel, Message, Permission, snowflake
from localdiscord.state import Call, DiscordState

SERVER = web.AppKey("server", DiscordState)
FAULTS = web.AppKey("faults", Faults)
Files = list[tuple[str, bytes, str | None]]
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
FILES: web.RequestKey[Files] = web.RequestKey("files", list)
RATELIMIT: web.RequestKey[dict[str, str]] = web.RequestKey("ratelimit", dict)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: Discord's JSON error codes (``topics/opcodes-and-status-codes``): status, message.
ERRORS = {
    0: (404, "404: Not Found"),
    10003: (404, "Unknown Channel"),
    10008: (404, "Unknown Message"),
    10013: (404, "Unknown User"),
    10015: (404, "Unknown Webhook"),
    10062: (404, "Unknown interaction"),
    30003: (400, "Maximum number of pins reached (250)"),
    40060: (400, "Interaction has already been acknowledged."),
    50001: (403, "Missing Access"),
    50005: (403, "Cannot edit a message authored by another user"),
    50006: (400, "Cannot send an empty message"),
    50007: (403, "Cannot send messages to this user"),
    50013: (403, "Missing Permissions"),
    50027: (401, "Invalid Webhook Token"),
    50035: (400, "Invalid Form Body"),
    50083: (400, "Thread is archived"),
}


class DiscordError(Exception):
    """Discord's refusal ``code`` (its usual status, unless ``status`` says another: a code
    some routes give with another status)."""

    def __init__(self, code: int, errors: dict[str, Any] | None = None, *,
                 status: int | None = None) -> None:
        usual, self.text = ERRORS[code]
        self.status = usual if status is None else status
        self.code, self.errors = code, errors
        super().__init__(f"{code} {self.text}")

    def payload(self) -> dict[str, Any]:
        made: dict[str, Any] = {"code": self.code, "message": self.text}
        if self.errors:
            made["errors"] = self.errors
        return made


class RateLimited(Exception):
    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict


def answer(data: Any, status: int = 200) -> web.Response:
    if data is None:
        return web.Response(status=204)
    # (exactly `application/json`, as Discord says it: discord.py compares the header)
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def server_of(request: web.Request) -> DiscordState:
    return request.config_dict[SERVER]


def limit(request: web.Request, kind: str, major: object, *, old: bool = False) -> None:
    """Spend the request from its bucket; its headers go on the answer, or it is a 429."""
    verdict = server_of(request).limiter.take(kind, str(major), old_message=old)
    request[RATELIMIT] = verdict.headers
    if verdict.refused:
        raise RateLimited(verdict)


# -- what every request goes through ----------------------------------------------------

@web.middleware
async def like_discord(request: web.Request, handler: Handler) -> web.StreamResponse:
    server = server_of(request)
    request[BODY], request[FILES] = await _read_body(request)
    await request.config_dict[FAULTS].arrival(request.method, request.path)
    instead = request.config_dict[FAULTS].outage(request.method, request.path)
    try:
        # (a response is a mapping, empty and so false: compare with None)
        response: web.StreamResponse = (instead if instead is not None
                                        else await handler(request))
        response = await request.config_dict[FAULTS].lost_answer(request.method, request.path,
                                                                  response)
    except DiscordError as error:
        response = answer(error.payload(), error.status)
    except RateLimited as refused:
        verdict = refused.verdict
        response = answer(verdict.body(), 429)
        response.headers.update(verdict.refusal_headers())
    except web.HTTPNotFound:
        response = answer(DiscordError(0).payload(), 404)
    response.headers.update(request.get(RATELIMIT) or {})
    server.calls.append(Call(request.method, request.path.removeprefix("/api/v10"),
                             response.status, request[BODY], time.time()))
    return response


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes, str | None]]]:
    """The JSON body (or a multipart's ``payload_json``) and the files sent beside it."""
    if not request.can_read_body:
        return None, []
    if request.content_type == "application/json":
        return await request.json(), []
    if not request.content_type.startswith("multipart/"):
        return None, []
    body, files = None, []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        assert isinstance(part, BodyPartReader)
        if part.name == "payload_json":
            body = json.loads(await part.text())
        else:
            data = await part.read()
            files.append((part.filename or "file", bytes(data), part.headers.get("Content-Type")))
    return body, files


# -- checks ------------------------------------------------------------------------------

def channel_of(request: web.Request) -> Channel:
    found = server_of(request).find_channel(int(request.match_info["channel"]))
    if found is None:
        raise DiscordError(10003)
    return found


def require(server: DiscordState, channel: Channel, needed: int) -> None:
    """The bot's permissions in ``channel``: 50001 unseen, 50013 short of ``needed``."""
    bits = server.permissions(APP_ID, channel)
    if not bits & Permission.VIEW_CHANNEL:
        raise DiscordError(50001)
    if bits & needed != needed:
        raise DiscordError(50013)


def message_of(request: web.Request, channel: Channel) -> Message:
    found = server_of(request).messages.get(int(request.match_info["message"]))
    if found is None or found.channel_id != channel.id:
        raise DiscordError(10008)
    return found


def validate(body: dict[str, Any], files: list[Any], *, empty_ok: bool = False,
             at: str = "") -> None:
    """What Discord refuses in a message (:mod:`localdiscord.limits`): 50035 with the field at
    fault, or 50006 for nothing at all. ``at`` is where the message sits in the request's
    body (``"data"`` in an interaction's answer)."""
    errors = message_errors(body, at=at)
    if errors:
        raise DiscordError(50035, errors)
    shown = (body.get("content"), body.get("components"), body.get("embeds"), files,
             body.get("attachments"), body.get("poll"), body.get("sticker_ids"))
    if not empty_ok and not any(shown):
        raise DiscordError(50006)


def attachments(body: dict[str, Any], files: list[tuple[str, bytes, str | None]],
                kept: tuple[Attachment, ...] = ()) -> list[Attachment]:
    """The attachments a body asks for: kept ones by their id, files just sent by their
    index (discord.py numbers them 0, 1, …); without a list, the kept and every file."""
    made = []
    for name, data, kind in files:
        made.append(Attachment(snowflake(), name, data, kind))
    asked = body.get("attachments")
    if asked is None:
        return [*kept, *made]
    by_id = {a.id: a for a in kept}
    chosen = []
    for entry in asked:
        ident = int(entry["id"])
        if ident in by_id:
            chosen.append(by_id[ident])
        elif ident < len(made):
            made[ident].filename = entry.get("filename") or made[ident].filename
            chosen.append(made[ident])
    return chosen


def apply_edit(message: Message, body: dict[str, Any],
               files: list[tuple[str, bytes, str | None]]) -> bool:
    """Change ``message`` as an edit's ``body`` says; whether its text or embeds changed
    (Discord then shows "(edited)"; components alone do not)."""
    changed = False
    if "content" in body:
        changed |= (body["content"] or "") != message.content
        message.content = body["content"] or ""
    if "embeds" in body:
        changed |= (body["embeds"] or []) != message.embeds
        message.embeds = body["embeds"] or []
    if "components" in body:
        message.components = body["components"] or []
    if "attachments" in body or files:
        message.attachments = attachments(body, files, tuple(message.attachments))
    if "flags" in body and body["flags"] is not None:
        suppress = int(MessageFlag.SUPPRESS_EMBEDS)  # (an int: ~ of a flag drops unknown bits)
        message.flags = (message.flags & ~suppress) | (int(body["flags"]) & suppress)
    message.flags &= ~int(MessageFlag.LOADING)  # no longer "thinking"
    return changed
