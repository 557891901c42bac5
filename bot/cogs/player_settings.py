"""`/settings`: choices kept for a player or for a server.

- `/settings reminders where:` — a player's own, on every server alike: where a fight reminds
  them when it waits for them past its reminder's point (``channel``, the default: a ping in
  the fight's place; ``dm``: a direct message, or the channel when Discord refuses it). Said
  to the player alone; without ``where:``, what it is now.
- `/settings language language:` — a server's GM's: the language of what the server's
  channels read (:mod:`bot.i18n.languages`), or ``server default`` for the server's own
  preferred locale. Said publicly, in the language now spoken.
"""

from __future__ import annotations

from typing import Any

import discord
from babel import Locale, UnknownLocaleError
from discord import app_commands
from discord.ext import commands

from bot.host import Host
from bot.i18n import (
    CATALOGUES,
    N_,
    PSEUDO,
    SOURCE,
    channel_language,
    person_language,
    render,
)
from bot.i18n.pseudo import pseudo_text
from bot.options import OneOf
from bot.permissions import require_gm
from engine.phrases import phrase

__all__ = ["SERVER_DEFAULT", "PlayerSettingsCog", "language_name", "reminders_text"]

# Translators: the `where` option's choices as listed (the values stay `channel` and `dm`).
_PLACES = {"channel": N_("channel"), "dm": N_("dm")}
Place = app_commands.Transform[str, OneOf([app_commands.Choice(name=name, value=value)
                                           for value, name in _PLACES.items()])]

#: The `/settings language` choice that gives the server's channels its own locale back.
SERVER_DEFAULT = "default"


def language_name(language: str) -> str:
    """A language by its own name (``Deutsch``), never translated: the pseudo-locale's in its
    own accented letters; its code when Babel knows none."""
    if language == PSEUDO:
        return pseudo_text("Pseudo (en_XA)")
    try:
        return Locale.parse(language).get_display_name(language) or language
    except (UnknownLocaleError, ValueError):
        return language


_LANGUAGES = [app_commands.Choice(name=language_name(language), value=language)
              for language in CATALOGUES.languages()]
Language = app_commands.Transform[str, OneOf([
    *_LANGUAGES, app_commands.Choice(name=N_("server default"), value=SERVER_DEFAULT)])]


def reminders_text(by_dm: bool, *, changed: bool, language: str = SOURCE) -> str:
    """What the player is told of where they are reminded, in ``language``."""
    if by_dm:
        said = (phrase("⏰ You are now reminded by direct message when a fight waits for you. "
                       "If Discord refuses it (your privacy settings), you are reminded in the "
                       "fight's channel instead. `/settings reminders where: channel` to "
                       "change it.") if changed else
                phrase("⏰ You are reminded by direct message when a fight waits for you. If "
                       "Discord refuses it (your privacy settings), you are reminded in the "
                       "fight's channel instead. `/settings reminders where: channel` to "
                       "change it."))
    else:
        said = (phrase("⏰ You are now reminded in the fight's channel when a fight waits for "
                       "you. `/settings reminders where: dm` to be reminded by direct message "
                       "instead.") if changed else
                phrase("⏰ You are reminded in the fight's channel when a fight waits for you. "
                       "`/settings reminders where: dm` to be reminded by direct message "
                       "instead."))
    return render(said, language)


class PlayerSettingsCog(commands.GroupCog, group_name="settings",
                        group_description=N_("Your own settings, and your server's language "
                                             "(GMs)")):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="reminders", description=N_(
        "Where you are reminded of a fight waiting for you."))
    @app_commands.describe(where=N_("channel (a ping in the fight's place) or dm (a direct "
                                    "message)"))
    async def reminders(self, interaction: discord.Interaction[Any],
                        where: Place | None = None) -> None:
        players = self.bot.store.players
        user_id = interaction.user.id
        language = await person_language(interaction)
        if where is None:
            by_dm = user_id in await players.reminded_by_dm([user_id])
            await interaction.response.send_message(
                reminders_text(by_dm, changed=False, language=language), ephemeral=True)
            return
        await players.set_reminded_by_dm(user_id, where == "dm")
        await interaction.response.send_message(
            reminders_text(where == "dm", changed=True, language=language), ephemeral=True)

    @app_commands.command(name="language", description=N_(
        "The language the bot speaks in this server's channels (GMs)."))
    @app_commands.describe(language=N_("A language, or the server's own (its Community "
                                       "settings)"))
    @app_commands.guild_only()
    async def language(self, interaction: discord.Interaction[Any], language: Language) -> None:
        await require_gm(interaction, phrase("choose the server's language"))
        assert interaction.guild_id is not None  # require_gm asked for a server
        chosen = None if language == SERVER_DEFAULT else language
        await self.bot.store.guilds.set_language(interaction.guild_id, chosen)
        spoken = await channel_language(interaction)
        if chosen is None:
            said = phrase("🌐 The bot now speaks the server's own language in its channels: "
                          "{language}.", language=language_name(spoken))
        else:
            said = phrase("🌐 The bot now speaks {language} in this server's channels.",
                          language=language_name(spoken))
        await interaction.response.send_message(render(said, spoken))


async def setup(bot: Host) -> None:
    await bot.add_cog(PlayerSettingsCog(bot))
