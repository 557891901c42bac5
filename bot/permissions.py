"""Who may do what: GMs are members with Manage Server or the server's GM role (`/gm role`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import UserError

if TYPE_CHECKING:
    from bot.client import UnhexBot


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
    bot: UnhexBot = interaction.client
    role_id = await bot.store.guilds.gm_role(interaction.guild_id)
    user = interaction.user
    return (
        role_id is not None
        and isinstance(user, discord.Member)
        and any(role.id == role_id for role in user.roles)
    )


async def require_gm(interaction: discord.Interaction[Any], doing: str) -> None:
    """Refuse, with the reason, unless the user is a GM. ``doing``: "delete a map"."""
    require_guild(interaction)  # in a DM nobody is a GM: say what is wrong instead
    if not await is_gm(interaction):
        raise UserError(
            f"Only a GM may {doing}. GMs have Manage Server or the GM role (`/gm role`)."
        )


#: What a command that needs a server says in a direct message.
IN_A_DM = "This works in a server's channel, not in direct messages."


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
