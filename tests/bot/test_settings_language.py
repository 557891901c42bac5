"""`/settings language`: a server's GM chooses the language of its channels (kept per server),
or gives them back the server's own locale; the answer is said in the language now spoken.
The commands go to Discord with their descriptions and choices in German, names untouched."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n.checks import untranslated
from testbed.harness import ALICE, GM, GUILD_ID, Table

pytestmark = pytest.mark.both_engines

GERMAN = "🌐 Der Bot spricht in den Kanälen dieses Servers jetzt Deutsch."


async def test_a_gm_chooses_german_and_is_answered_in_it(table: Table) -> None:
    chose = await table.slash("settings language", user=GM, language="de")
    assert not chose.ephemeral and chose.content == GERMAN
    assert await table.bot.store.guilds.language(GUILD_ID) == "de"
    back = await table.slash("settings language", user=GM, language="default")
    assert not back.ephemeral
    assert back.content == ("🌐 The bot now speaks the server's own language in its channels: "
                            "English.")
    assert await table.bot.store.guilds.language(GUILD_ID) is None


async def test_only_a_gm_chooses_the_language(table: Table) -> None:
    refused = await table.slash("settings language", user=ALICE, language="de")
    assert refused.ephemeral and refused.content.startswith(
        "Only a GM may choose the server's language."), refused.content
    assert await table.bot.store.guilds.language(GUILD_ID) is None


async def test_the_servers_own_locale_speaks_until_a_gm_chooses_another(table: Table) -> None:
    table.guild_locale = "de"  # the server's Community settings
    own = await table.slash("settings language", user=GM, language="default")
    assert own.content == ("🌐 Der Bot spricht in den Kanälen dieses Servers jetzt dessen "
                           "eigene Sprache: Deutsch.")
    english = await table.slash("settings language", user=GM, language="en")
    assert english.content == "🌐 The bot now speaks English in this server's channels."
    assert await table.bot.store.guilds.language(GUILD_ID) == "en"


async def test_the_pseudo_locale_is_named_in_its_own_letters(table: Table) -> None:
    """Each language by its own name: the pseudo-locale's, accented as its sentences are."""
    table.guild_locale = table.locales[GM.id] = "en-XA"
    own = await table.slash("settings language", user=GM, language="default")
    sent = own.message.raw["content"]  # (as sent: a pseudo run shows tests the English)
    assert "⟦Þšéúđó (éñ_ẊÁ)" in sent and "en_XA" not in sent, sent
    assert untranslated(sent) == [], sent


def _command(table: Table, name: str) -> dict[str, Any]:
    return next(c for c in table.synced[-1][1] if c["name"] == name)


async def test_the_commands_go_to_discord_with_german_descriptions_and_english_names(
        table: Table) -> None:
    settings = _command(table, "settings")
    assert settings["description_localizations"]["de"] == (
        "Deine eigenen Einstellungen und die Sprache deines Servers (SL)")
    assert not settings.get("name_localizations")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert not language.get("name_localizations")
    [option] = language["options"]
    assert option["name"] == "language" and not option.get("name_localizations")
    choices = {c["value"]: c for c in option["choices"]}
    assert choices["default"]["name_localizations"] == {"de": "Server-Standard"}
    assert choices["de"]["name"] == "Deutsch" and not choices["de"].get("name_localizations")
    roll = _command(table, "roll")
    assert roll["description_localizations"]["de"] == (
        "Würfle W100 gegen eine Stufe (Unhex-Regeln).")
    assert not roll.get("name_localizations")
