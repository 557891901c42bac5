"""`/settings`: a player's own choices, kept per player on every server alike. Today one:
``reminders:`` — where a fight reminds them when it waits for them past its reminder's point
(``channel``, the default: a ping in the fight's place; ``dm``: a direct message, or the
channel when Discord refuses it). Said to the player alone."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host
from bot.options import OneOf

__all__ = ["PlayerSettingsCog", "reminders_text"]

_PLACES = ("channel", "dm")
Place = app_commands.Transform[str, OneOf([app_commands.Choice(name=p, value=p)
                                           for p in _PLACES])]


def reminders_text(by_dm: bool, *, changed: bool) -> str:
    """What the player is told of where they are reminded."""
    now = "now " if changed else ""
    if by_dm:
        return (f"⏰ You are {now}reminded by direct message when a fight waits for you. If "
                "Discord refuses it (your privacy settings), you are reminded in the fight's "
                "channel instead. `/settings reminders: channel` to change it.")
    return (f"⏰ You are {now}reminded in the fight's channel when a fight waits for you. "
            "`/settings reminders: dm` to be reminded by direct message instead.")


class PlayerSettingsCog(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Your own settings: where you are "
                                                       "reminded of a fight waiting for you.")
    @app_commands.describe(reminders="channel (a ping in the fight's place) or dm (a direct "
                                     "message)")
    async def settings(self, interaction: discord.Interaction[Any],
                       reminders: Place | None = None) -> None:
        players = self.bot.store.players
        user_id = interaction.user.id
        if reminders is None:
            by_dm = user_id in await players.reminded_by_dm([user_id])
            await interaction.response.send_message(reminders_text(by_dm, changed=False),
                                                    ephemeral=True)
            return
        await players.set_reminded_by_dm(user_id, reminders == "dm")
        await interaction.response.send_message(reminders_text(reminders == "dm", changed=True),
                                                ephemeral=True)


async def setup(bot: Host) -> None:
    await bot.add_cog(PlayerSettingsCog(bot))
