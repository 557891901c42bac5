"""What the bot needs in a channel before a fight is applied there: what it takes to show the
fight (`bot.permissions`) and, for a start, to pin its board or give it a thread, as asked.
Refused first, with the permission named, so nothing is applied the table could not see."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.permissions import missing_permissions, missing_to_show_a_fight, permission_label
from bot.user_error import UserError
from engine.phrases import Said, phrase

__all__ = ["permissions_named", "require_channel_permissions", "require_start_permissions"]


def permissions_named(labels: Sequence[Said]) -> Said:
    """Permissions (or ways), each after the other: "Send Messages and Embed Links" (a label
    is Discord's own name of the permission, in the reader's language)."""
    said = labels[-1]
    for label in reversed(labels[:-1]):
        said = phrase("{first} and {last}", first=label, last=said)
    return said


def require_channel_permissions(interaction: discord.Interaction[Any]) -> None:
    """Refuse, before anything is applied, when the bot could not show a fight here."""
    missing = missing_to_show_a_fight(interaction.app_permissions,
                                      in_thread=isinstance(interaction.channel, discord.Thread))
    if missing:
        raise UserError(phrase(
            "I can't show the fight here: I lack the **{permissions}** permission in this "
            "channel. Ask a server admin to grant it. Nothing was changed.",
            permissions=permissions_named(missing)))


def require_start_permissions(interaction: discord.Interaction[Any], *, pin: bool,
                              thread: bool) -> None:
    """Refuse a fight's start, before anything is applied, when the bot could not pin its
    board or give it a thread of its own, as asked; the message says which permission."""
    flags = ["create_public_threads", "send_messages_in_threads"] if thread else []
    if pin:
        flags.append("pin_messages")
    missing = missing_permissions(interaction.app_permissions, flags)
    if missing:
        ways: list[Said] = []
        if permission_label("pin_messages") in missing:
            ways.append(phrase("`pin:False` to leave the board unpinned"))
        if thread:
            ways.append(phrase("no `thread:` to fight in this channel"))
        raise UserError(phrase(
            "I can't start that fight: I lack the **{permissions}** permission here. Ask a "
            "server admin to grant it, or start with {ways}. Nothing was changed.",
            permissions=permissions_named(missing), ways=permissions_named(ways)))
