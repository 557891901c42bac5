"""The interactions' route handlers (``interactions/receiving-and-responding``): the
callback (a :class:`~localdiscord.enums.CallbackType`) within 3 s of the interaction, once;
then, for 15 minutes, follow-ups and the original answer's edits through the interaction's
webhook. Their buckets are keyed by the interaction's token, not the channel.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from localdiscord.enums import CallbackType, InteractionType, MessageFlag
from localdiscord.limits import autocomplete_errors, modal_errors
from localdiscord.model import Interaction, Message
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
from localdiscord.state import DiscordState

FIRST_ANSWER_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0
EPHEMERAL, LOADING = int(MessageFlag.EPHEMERAL), int(MessageFlag.LOADING)
#: What an answer's message may keep of its flags.
ANSWER_FLAGS = int(MessageFlag.SUPPRESS_EMBEDS | MessageFlag.EPHEMERAL
                   | MessageFlag.SUPPRESS_NOTIFICATIONS)


def _interaction(server: DiscordState, token: str) -> Interaction:
    found = server.interactions.get(token)
    if found is None:
        raise DiscordError(10015)
    if server.clock.now() - found.created_at > TOKEN_SECONDS:
        raise DiscordError(50027)
    return found


async def callback(request: web.Request) -> web.Response:
    server, token = server_of(request), request.match_info["token"]
    interaction = server.interactions.get(token)
    if interaction is None or str(interaction.id) != request.match_info["id"]:
        raise DiscordError(10062)
    limit(request, "callback", token)
    if server.clock.now() - interaction.created_at > FIRST_ANSWER_SECONDS:
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


def _respond(server: DiscordState, interaction: Interaction, kind: int, data: dict[str, Any],
             files: list[Any]) -> dict[str, Any]:
    """Do what the callback ``kind`` says; Discord's ``resource`` for it."""
    resource: dict[str, Any] = {"type": kind}
    on_message = (interaction.kind in (InteractionType.MESSAGE_COMPONENT,
                                       InteractionType.MODAL_SUBMIT)
                  and interaction.message_id is not None)
    with_message = kind == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    if with_message or kind == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
        if with_message:
            validate_message(data, files, at="data")
        flags = int(data.get("flags") or 0) & ANSWER_FLAGS | (0 if with_message else LOADING)
        shown = data if with_message else {}
        made = server.new_message(
            interaction.channel_id, interaction.guild_id, server.bot_user,
            content=shown.get("content") or "", components=shown.get("components") or [],
            embeds=shown.get("embeds") or [],
            attachments=attachments(shown, files if with_message else []), flags=flags,
            interaction_id=interaction.id,
            visible_to=interaction.user.id if flags & EPHEMERAL else None)
        interaction.original_id = made.id
        _show(server, interaction, server.post(made))
        resource["message"] = server.message_payload(made)
    elif kind in (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE) \
            and on_message:
        interaction.original_id = interaction.message_id
        if kind == CallbackType.UPDATE_MESSAGE:
            target = server.messages.get(interaction.message_id or 0)
            if target is None:
                raise DiscordError(10008)
            validate_message(data, files, empty_ok=True, at="data")
            changed = apply_edit(target, data, files)
            _show(server, interaction, server.edited(target, content_changed=changed))
            resource["message"] = server.message_payload(target)
    elif kind == CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT \
            and interaction.kind == InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE:
        refused = autocomplete_errors(data)
        if refused:
            raise DiscordError(50035, refused)
        interaction.choices = list(data.get("choices") or [])
    elif kind == CallbackType.MODAL and interaction.kind in (
            InteractionType.APPLICATION_COMMAND, InteractionType.MESSAGE_COMPONENT):
        refused = modal_errors(data)
        if refused:
            raise DiscordError(50035, refused)
        interaction.modal = data
    else:
        raise DiscordError(50035, {"type": {"_errors": [
            {"code": "INTERACTION_RESPONSE_TYPE_INVALID",
             "message": f"Type {kind} does not answer this interaction."}]}})
    return resource


def _show(server: DiscordState, interaction: Interaction, message: Message) -> None:
    interaction.shown.append(server.message_payload(message))


def _original(server: DiscordState, interaction: Interaction, which: str) -> Message:
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
    deferred = interaction.answered == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    if deferred and loading is not None and loading.flags & LOADING:
        changed = apply_edit(loading, body, files)
        _show(server, interaction, server.edited(loading, content_changed=changed))
        made = loading
    else:
        flags = int(body.get("flags") or 0)
        made = server.new_message(
            interaction.channel_id, interaction.guild_id, server.bot_user,
            content=body.get("content") or "", components=body.get("components") or [],
            embeds=body.get("embeds") or [], attachments=attachments(body, files),
            flags=flags & ANSWER_FLAGS, interaction_id=interaction.id,
            visible_to=interaction.user.id if flags & EPHEMERAL else None)
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
