"""The commands' descriptions and choices in each member's Discord language: discord.py's
:class:`~discord.app_commands.Translator`, reading the catalogues.

Command, group and option *names* are never translated: they stay the rulebook's words, so
players in different languages can copy each other's commands.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.catalogues import CATALOGUES, SOURCE
from bot.i18n.languages import catalogue_language

__all__ = ["CommandTranslator"]

#: What is never translated.
_NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


class CommandTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalogue of the member's locale; None (Discord
    shows the English) where there is no catalogue or no translation."""

    async def load(self) -> None:
        CATALOGUES.load()

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if context.location in _NAMES:
            return None
        language = catalogue_language(locale)
        if language is None or language == SOURCE:
            return None
        translated = CATALOGUES.translations(language).gettext(string.message)
        return translated if translated != string.message else None
