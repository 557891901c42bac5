"""Which language a message is said in.

- What the channel reads (the board, the fight's sentences, prompts, public answers): the
  server's language — the one its GM chose (`/settings language`), else the server's own
  preferred locale when the bot has a catalogue for it, else English.
- What one person reads (an ephemeral answer, their options, a DM): their Discord client's
  language when the bot has a catalogue for it (English included), else the server's.

Languages are named as the catalogues are (Babel's spelling: ``de``, ``pt_BR``); Discord's
locales (``de``, ``pt-BR``, ``en-US``) are matched to them by :func:`catalogue_language`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n.catalogues import CATALOGUES, SOURCE

if TYPE_CHECKING:
    from bot.store.interfaces import Guilds

__all__ = ["catalogue_language", "channel_language", "person_language", "server_language"]


@functools.lru_cache(maxsize=128)  # (Discord has 32 locales; asked for every message)
def catalogue_language(locale: discord.Locale | str | None) -> str | None:
    """The bot's language for a Discord locale (``pt-BR`` → ``pt_BR``, else ``pt``; any
    English → English), None when the bot does not speak it.

    >>> catalogue_language("en-GB"), catalogue_language("de"), catalogue_language("ja")
    ('en', 'de', None)
    """
    if locale is None:
        return None
    code = str(getattr(locale, "value", locale)).replace("-", "_")  # (a Locale, or its code)
    spoken = CATALOGUES.languages(pseudo=True)
    if code in spoken:
        return code
    base = code.partition("_")[0]
    return base if base in spoken else None


async def server_language(guilds: Guilds, guild_id: int | None,
                          guild_locale: discord.Locale | str | None) -> str:
    """The language of a server's channels: its GM's choice (kept in ``guilds``), else its
    preferred locale (an interaction's ``guild_locale``; without one, the cached guild's:
    ``bot.get_guild(guild_id).preferred_locale``), else English. In a DM: English."""
    if guild_id is None:
        return SOURCE
    try:
        chosen = guilds.kept_language(guild_id)  # (asked for every message: memory first)
    except KeyError:
        chosen = await guilds.language(guild_id)
    if chosen is not None and chosen in CATALOGUES.languages(pseudo=True):
        return chosen
    return catalogue_language(guild_locale) or SOURCE


async def channel_language(interaction: discord.Interaction[Any]) -> str:
    """The language of what an interaction's channel reads (in a direct message, whose only
    reader is the user: the user's)."""
    if interaction.guild_id is None:
        return catalogue_language(interaction.locale) or SOURCE
    return await server_language(interaction.client.store.guilds, interaction.guild_id,
                                 interaction.guild_locale)


async def person_language(interaction: discord.Interaction[Any]) -> str:
    """The language of what only the interaction's user reads."""
    return catalogue_language(interaction.locale) or await channel_language(interaction)
