"""Discord's locales (``reference#locales``): the languages a person's client may be set to,
sent with each of their interactions as ``locale``; a guild's ``preferred_locale`` (sent as
``guild_locale``); the keys of a command's ``name_localizations`` and
``description_localizations``. And a command as the routes that list an application's commands
return it (``interactions/application-commands``, retrieving localized commands).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["DEFAULT_LOCALE", "LOCALES", "check_locale", "localized_command", "offered_locales"]

#: Every locale Discord knows, by its code, with the language's own name (as Discord's
#: language setting shows it).
LOCALES: dict[str, str] = {
    "id": "Bahasa Indonesia", "da": "Dansk", "de": "Deutsch", "en-GB": "English, UK",
    "en-US": "English, US", "es-ES": "Español", "es-419": "Español, LATAM", "fr": "Français",
    "hr": "Hrvatski", "it": "Italiano", "lt": "Lietuviškai", "hu": "Magyar",
    "nl": "Nederlands", "no": "Norsk", "pl": "Polski", "pt-BR": "Português do Brasil",
    "ro": "Română", "fi": "Suomi", "sv-SE": "Svenska", "vi": "Tiếng Việt", "tr": "Türkçe",
    "cs": "Čeština", "el": "Ελληνικά", "bg": "български", "ru": "Русский",
    "uk": "Українська", "hi": "हिन्दी", "th": "ไทย", "zh-CN": "中文", "ja": "日本語",
    "zh-TW": "繁體中文", "ko": "한국어"}
#: A new person's client, and a new guild's preferred locale.
DEFAULT_LOCALE = "en-US"
_LOCALIZED = ("name", "description")


def check_locale(code: str) -> str:
    """``code`` when Discord knows it; else :class:`ValueError`."""
    if code not in LOCALES:
        raise ValueError(f"Discord has no locale {code!r}")
    return code


def _localizations(command: dict[str, Any]) -> Iterable[str]:
    """Every locale ``command`` (or one of its options or choices) is localized into."""
    for field in _LOCALIZED:
        yield from command.get(f"{field}_localizations") or {}
    for part in (*(command.get("options") or ()), *(command.get("choices") or ())):
        yield from _localizations(part)


def offered_locales(commands: Iterable[dict[str, Any]]) -> list[str]:
    """The default locale, then every locale the commands carry a localization for (Discord's
    codes only), in Discord's order."""
    found = {DEFAULT_LOCALE} | {code for command in commands for code in _localizations(command)}
    return [code for code in LOCALES if code in found]


def localized_command(command: dict[str, Any], locale: str | None) -> dict[str, Any]:
    """``command`` as listing an application's commands returns it without
    ``with_localizations``: no localization dictionaries, but ``name_localized`` and
    ``description_localized`` in the requester's ``locale`` where it has them (its options and
    choices likewise)."""
    made = {key: value for key, value in command.items()
            if key not in ("name_localizations", "description_localizations")}
    for field in _LOCALIZED:
        said = (command.get(f"{field}_localizations") or {}).get(locale or "")
        if said is not None:
            made[f"{field}_localized"] = said
    for key in ("options", "choices"):
        if command.get(key):
            made[key] = [localized_command(part, locale) for part in command[key]]
    return made
