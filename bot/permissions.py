"""Who may do what: GMs are members with Manage Server or the server's GM role (`/gm role`);
the bot itself needs the permissions of :data:`BOT_PERMISSIONS`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import N_
from bot.user_error import UserError
from engine.phrases import Phrase, Said, phrase

if TYPE_CHECKING:
    from bot.host import Host


#: Where an interaction keeps the answer of :func:`is_gm` (a command asks it once).
_IS_GM = "unhex_is_gm"


async def is_gm(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user is a GM of the server the interaction comes from (worked out once
    per interaction: a command's checks, its actor and its handler ask the same question)."""
    known = interaction.extras.get(_IS_GM)
    if known is None:
        known = interaction.extras[_IS_GM] = await _is_gm(interaction)
    return bool(known)


async def _is_gm(interaction: discord.Interaction[Any]) -> bool:
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    bot: Host = interaction.client
    role_id = await bot.store.guilds.gm_role(interaction.guild_id)
    user = interaction.user
    return (
        role_id is not None
        and isinstance(user, discord.Member)
        and any(role.id == role_id for role in user.roles)
    )


async def require_gm(interaction: discord.Interaction[Any], doing: Said) -> None:
    """Refuse, with the reason, unless the user is a GM. ``doing``: ``phrase("delete a map")``
    (said in the user's language; a plain string stays as it is)."""
    require_guild(interaction)  # in a DM nobody is a GM: say what is wrong instead
    if not await is_gm(interaction):
        raise UserError(phrase(
            "Only a GM may {doing}. GMs have Manage Server or the GM role (`/gm role`).",
            doing=doing))


#: What a command that needs a server says in a direct message.
IN_A_DM = N_("This works in a server's channel, not in direct messages.")


def require_guild(interaction: discord.Interaction[Any]) -> int:
    """The server id; characters, maps and fights live in a server, not in DMs."""
    if interaction.guild_id is None:
        raise UserError(IN_A_DM)
    return interaction.guild_id


def server_only_in_a_dm(interaction: discord.Interaction[Any]) -> bool:
    """Whether ``interaction`` runs, in a DM, a command declared for servers only (Discord's
    clients do not offer those in DMs; an older client or a forged payload still may)."""
    command = interaction.command
    if interaction.guild_id is not None or not isinstance(command, app_commands.Command):
        return False
    root = command.root_parent
    return command.guild_only or (root is not None and root.guild_only)


@dataclass(frozen=True)
class BotPermission:
    """A Discord permission the bot uses: ``flag`` as :class:`discord.Permissions` names it,
    ``label`` as Discord's channel settings show it (said in the reader's language, as
    Discord's client names it there), ``use`` what the bot does with it."""

    flag: str
    label: Phrase
    use: str


#: Every permission the bot uses, and no other: the invite (`python -m bot invite`) asks for
#: these, and the checks before a fight (``bot.cogs.combat.fight_permissions``) read theirs here.
BOT_PERMISSIONS: tuple[BotPermission, ...] = (
    BotPermission("view_channel", phrase("View Channel"), "see the channel a fight is in"),
    BotPermission("send_messages", phrase("Send Messages"),
                  "post a fight's board, prompts, recap and Recovery offers"),
    BotPermission("send_messages_in_threads", phrase("Send Messages in Threads"),
                  "the same in a thread (a fight started with `thread:True`)"),
    BotPermission("create_public_threads", phrase("Create Public Threads"),
                  "give a fight a thread of its own"),
    BotPermission("pin_messages", phrase("Pin Messages"), "pin a fight's board while it lasts"),
    BotPermission("attach_files", phrase("Attach Files"),
                  "a fight's log, a map or a character as a file"),
    BotPermission("read_message_history", phrase("Read Message History"),
                  "find a fight's prompt again after a post that failed halfway"),
)


def invite_permissions() -> discord.Permissions:
    """The permissions the invite link asks for: :data:`BOT_PERMISSIONS`."""
    return discord.Permissions(**{permission.flag: True for permission in BOT_PERMISSIONS})


def permission_label(flag: str) -> Phrase:
    """How Discord names the permission ``flag`` of :data:`BOT_PERMISSIONS` (a flag not in
    the list is a KeyError: a check may not need what the invite does not ask for)."""
    return {permission.flag: permission.label for permission in BOT_PERMISSIONS}[flag]


def missing_permissions(granted: discord.Permissions, flags: Iterable[str]) -> list[Phrase]:
    """The labels of those of ``flags`` (each one of :data:`BOT_PERMISSIONS`) not granted."""
    return [permission_label(flag) for flag in flags if not getattr(granted, flag)]


def missing_to_show_a_fight(granted: discord.Permissions, *, in_thread: bool) -> list[Phrase]:
    """The labels of the permissions a fight's messages need in a channel (a thread, with
    ``in_thread``) that ``granted`` lacks."""
    return missing_permissions(granted, (
        "view_channel", "send_messages_in_threads" if in_thread else "send_messages"))
