"""The language a fight's channel reads when no interaction says it (a timer's post, a
reminder, the board brought up to date later): the server's (:func:`bot.i18n.server_language`,
kept in memory by the store, so a step asks the database nothing for it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import server_language

if TYPE_CHECKING:
    from bot.host import Host

__all__ = ["fight_language"]


async def fight_language(bot: Host, guild_id: int) -> str:
    """The language of the channels of server ``guild_id``: its GM's choice, else the
    server's preferred locale (when the bot has the server cached), else English."""
    guild = bot.get_guild(guild_id)
    return await server_language(bot.store.guilds, guild_id,
                                 None if guild is None else guild.preferred_locale)
