"""Interaction answers (``interactions/receiving-and-responding``): the callback (types 4, 5,
6, 7, 8 and 9) within 3 s of the interaction, once; then, for 15 minutes, follow-ups and the
original answer's edits through the interaction's webhook. Their buckets are keyed by the
interaction's token, not the channel.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from localdiscord.limits import autocomplete_errors, modal_errors
from localdiscord.model import Message, User, snowflake
from localdiscord.rest import (
    BODY,
    FILES,
    DiscordError,
    answer,
    apply_edit,
    attachments,
    limit,
    server_of,
)
from localdiscord.rest import validate as validate_message
from localdiscord.server import BOT_USER, LocalDiscord

FIRST_ANSWER_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0
EPHEMERAL, LOADING = 1 << 6, 1 << 7
#: What an answer's message may keep of its flags: suppress embeds, ephemeral, silent.
ANSWER_FLAGS = 4 | EPHEMERAL | 4096
NAMES = {4: "message", 5: "defer", 6: "defer-update", 7: "update", 8: "autocomplete",
         9: "modal"}


@dataclass
class Interaction:
    """One interaction sent to the bot, and what it has answered so far."""

    id: int
    token: str
    kind: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    channel_id: int
    guild_id: int | None
    user: User
    message_id: int | None = None  # the message whose component was used
    created_at: float = field(default_factory=time.time)
    answered: int | None = None  # the callback's type
    original_id: int | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    #: The messages posted or edited through this interaction, as they were then.
    shown: list[dict[str, Any]] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    #: Where the feed stood when it was sent (what the bot changed since is its work).
    feed_start: int = 0

    @property
    def answer_kind(self) -> str | None:
        return None if self.answered is None else NAMES.get(self.answered, str(self.answered))


def add_routes(router: web.UrlDispatcher) -> None:
    router.add_post("/interactions/{id}/{token}/callback", callback)
    router.add_post("/webhooks/{app}/{token}", follow_up)
    message = "/webhooks/{app}/{token}/messages/{message}"
    router.add_get(message, get_original)
    router.add_patch(message, edit_original)
    router.add_delete(message, delete_original)


def _interaction(server: LocalDiscord, token: str) -> Interaction:
    found = server.interactions.get(token)
    if found is None:
        raise DiscordError(10015)
    if time.time() - found.created_at > TOKEN_SECONDS:
        raise DiscordError(50027)
    return found


async def callback(request: web.Request) -> web.Response:
    server, token = server_of(request), request.match_info["token"]
    interaction = server.interactions.get(token)
    if interaction is None or str(interaction.id) != request.match_info["id"]:
        raise DiscordError(10062)
    limit(request, "callback", token)
    if time.time() - interaction.created_at > FIRST_ANSWER_SECONDS:
        raise DiscordError(10062)
    if interaction.answered is not None:
        raise DiscordError(40060)
    body = request[BODY] or {}
    kind, data = int(body.get("type", 0)), body.get("data") or {}
    resource = _respond(server, interaction, kind, data, request[FILES])
    interaction.answered = kind
    interaction.done.set()
    if request.query.get("with_response") not in ("1", "true", "True"):
        return answer(None)
    original = server.messages.get(interaction.original_id or 0)
    return answer({"interaction": {
        "id": str(interaction.id), "type": interaction.kind,
        **({"response_message_id": str(original.id),
            "response_message_loading": bool(original.flags & LOADING),
            "response_message_ephemeral": original.ephemeral} if original else {})},
        "resource": resource})


def _respond(server: LocalDiscord, interaction: Interaction, kind: int, data: dict[str, Any],
             files: list[Any]) -> dict[str, Any]:
    """Do what the callback ``kind`` says; Discord's ``resource`` for it."""
    resource: dict[str, Any] = {"type": kind}
    on_message = interaction.kind in (3, 5) and interaction.message_id is not None
    if kind in (4, 5):
        if kind == 4:
            validate_message(data, files, at="data")
        flags = int(data.get("flags") or 0) & ANSWER_FLAGS | (LOADING if kind == 5 else 0)
        shown = data if kind == 4 else {}
        made = Message(snowflake(), interaction.channel_id, interaction.guild_id, BOT_USER,
                       content=shown.get("content") or "",
                       components=shown.get("components") or [],
                       embeds=shown.get("embeds") or [],
                       attachments=attachments(shown, files if kind == 4 else []),
                       flags=flags, interaction_id=interaction.id,
                       visible_to=interaction.user.id if flags & EPHEMERAL else None)
        interaction.original_id = made.id
        _show(server, interaction, server.post(made))
        resource["message"] = server.message_payload(made)
    elif kind in (6, 7) and on_message:
        interaction.original_id = interaction.message_id
        if kind == 7:
            target = server.messages.get(interaction.message_id or 0)
            if target is None:
                raise DiscordError(10008)
            validate_message(data, files, empty_ok=True, at="data")
            changed = apply_edit(target, data, files)
            _show(server, interaction, server.edited(target, content_changed=changed))
            resource["message"] = server.message_payload(target)
    elif kind == 8 and interaction.kind == 4:
        refused = autocomplete_errors(data)
        if refused:
            raise DiscordError(50035, refused)
        interaction.choices = list(data.get("choices") or [])
    elif kind == 9 and interaction.kind in (2, 3):
        refused = modal_errors(data)
        if refused:
            raise DiscordError(50035, refused)
        interaction.modal = data
    else:
        raise DiscordError(50035, {"type": {"_errors": [
            {"code": "INTERACTION_RESPONSE_TYPE_INVALID",
             "message": f"Type {kind} does not answer this interaction."}]}})
    return resource


def _show(server: LocalDiscord, interaction: Interaction, message: Message) -> None:
    interaction.shown.append(server.message_payload(message))


def _original(server: LocalDiscord, interaction: Interaction, which: str) -> Message:
    ident = interaction.original_id if which == "@original" else int(which)
    found = server.messages.get(ident or 0)
    if found is None:
        raise DiscordError(10008)
    return found


async def follow_up(request: web.Request) -> web.Response:
    """A follow-up message; the first after a deferred answer (type 5) takes its place."""
    server = server_of(request)
    interaction = _interaction(server, request.match_info["token"])
    limit(request, "followup", interaction.token)
    if interaction.answered is None:
        raise DiscordError(10015)
    body, files = request[BODY] or {}, request[FILES]
    validate_message(body, files)
    loading = server.messages.get(interaction.original_id or 0)
    if interaction.answered == 5 and loading is not None and loading.flags & LOADING:
        changed = apply_edit(loading, body, files)
        _show(server, interaction, server.edited(loading, content_changed=changed))
        made = loading
    else:
        made = Message(snowflake(), interaction.channel_id, interaction.guild_id, BOT_USER,
                       content=body.get("content") or "",
                       components=body.get("components") or [],
                       embeds=body.get("embeds") or [], attachments=attachments(body, files),
                       flags=int(body.get("flags") or 0) & ANSWER_FLAGS,
                       interaction_id=interaction.id,
                       visible_to=interaction.user.id
                       if int(body.get("flags") or 0) & EPHEMERAL else None)
        _show(server, interaction, server.post(made))
    if request.query.get("wait") not in ("1", "true", "True"):
        return answer(None)
    return answer(server.message_payload(made))


async def get_original(request: web.Request) -> web.Response:
    server = server_of(request)
    interaction = _interaction(server, request.match_info["token"])
    limit(request, "followup", interaction.token)
    return answer(server.message_payload(
        _original(server, interaction, request.match_info["message"])))


async def edit_original(request: web.Request) -> web.Response:
    server = server_of(request)
    interaction = _interaction(server, request.match_info["token"])
    limit(request, "followup", interaction.token)
    message = _original(server, interaction, request.match_info["message"])
    body, files = request[BODY] or {}, request[FILES]
    validate_message(body, files, empty_ok=True)
    changed = apply_edit(message, body, files)
    _show(server, interaction, server.edited(message, content_changed=changed))
    return answer(server.message_payload(message))


async def delete_original(request: web.Request) -> web.Response:
    server = server_of(request)
    interaction = _interaction(server, request.match_info["token"])
    limit(request, "followup", interaction.token)
    server.delete(_original(server, interaction, request.match_info["message"]))
    return answer(None)
