"""The bot in its readers' languages: gettext catalogues (Babel) in bot/locale, the engine's
:class:`~engine.phrases.Phrase` values and the bot's own strings rendered in a language, the
commands' descriptions through discord.py's translator, and which language each reader gets.

How the bot's code says something (docs/i18n.md says more):

- ``translated("Only a GM may do that.", language)``: a literal said now;
- ``N_("...")``: a literal marked for the catalogue, rendered later with :func:`render`;
- ``render(phrase("{name} waits.", name=name), language)``: with arguments; a plural with
  ``plural_phrase`` (both from :mod:`engine.phrases`);
- ``language = await channel_language(interaction)`` for what the channel reads,
  ``await person_language(interaction)`` for what only its user reads.
"""

from bot.i18n.catalogues import CATALOGUES, PSEUDO, SOURCE
from bot.i18n.languages import (
    catalogue_language,
    channel_language,
    person_language,
    server_language,
)
from bot.i18n.rendering import N_, render, translated
from bot.i18n.translator import CommandTranslator

__all__ = [
    "CATALOGUES",
    "N_",
    "PSEUDO",
    "SOURCE",
    "CommandTranslator",
    "catalogue_language",
    "channel_language",
    "person_language",
    "render",
    "server_language",
    "translated",
]
