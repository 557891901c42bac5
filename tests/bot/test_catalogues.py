"""The catalogues: the template holds every marked sentence of the sources, German translates
every entry, no translation loses or adds a placeholder, the pseudo-locale wraps everything,
and rendering follows each language's CLDR plural rule."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po
from discord import Locale, app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import (
    CATALOGUES,
    PSEUDO,
    CommandTranslator,
    catalogue_language,
    person_language,
    render,
)
from bot.i18n.catalogues import DOMAIN, LOCALE_FOLDER, Catalogues
from bot.i18n.checks import placeholder_mismatches, untranslated
from bot.i18n.pseudo import pseudo_catalog
from engine.phrases import phrase, plural_phrase

ROOT = Path(__file__).resolve().parents[2]
#: The keywords the Makefile's `catalogues` gives `pybabel extract`, beyond gettext's own.
KEYWORDS = {**DEFAULT_KEYWORDS, "translated": None, "phrase": None, "phrase_in": ((1, "c"), 2),
            "plural_phrase": (1, 2)}
SAID = "🌐 The bot now speaks {language} in this server's channels."


def _read(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, domain=DOMAIN)


def _ids(catalog: Catalog) -> set[Any]:
    return {message.id for message in catalog if message.id}


def _template() -> Catalog:
    return _read(LOCALE_FOLDER / f"{DOMAIN}.pot")


def test_the_template_holds_every_marked_sentence_of_the_sources() -> None:
    with (ROOT / "babel.cfg").open() as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    extracted = {message if isinstance(message, str) else tuple(message)
                 for _, _, message, _, _ in extract_from_dir(
                     str(ROOT), method_map, options_map, keywords=KEYWORDS)}
    assert SAID in extracted
    assert extracted == _ids(_template()), "run `make catalogues`"


def _literal_sources(path: Path) -> set[str]:
    """The literal source of each call of a keyword in ``path`` (with gettext's ``N_``; a
    ``phrase_in``'s second argument, after its context), as Python reads the file: nested in
    another call or in an f-string too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in {*KEYWORDS, "N_"}):
            continue
        at = 1 if node.func.id == "phrase_in" else 0
        if len(node.args) > at and isinstance(node.args[at], ast.Constant) \
                and isinstance(node.args[at].value, str):
            found.add(node.args[at].value)
    return found


def test_every_literal_said_is_in_the_template_where_pybabel_may_not_look() -> None:
    """pybabel reads no keyword call nested in another's arguments nor inside an f-string:
    such a sentence is made apart (a local name), or it is never translated."""
    extracted = {message if isinstance(message, str) else message[0]
                 for message in _ids(_template())}
    said = set().union(*(_literal_sources(path) for folder in ("bot", "engine")
                         for path in (ROOT / folder).rglob("*.py")))
    assert said - extracted == set()


def test_german_translates_every_entry_of_the_template() -> None:
    german = _read(LOCALE_FOLDER / "de" / "LC_MESSAGES" / f"{DOMAIN}.po")
    assert _ids(german) == _ids(_template()), "run `make catalogues`"
    missing = [message.id for message in german if message.id and (
        message.fuzzy or not all(message.string if isinstance(message.string, tuple)
                                 else (message.string,)))]
    assert missing == []


def test_every_translation_keeps_its_sources_placeholders() -> None:
    catalogs = [_read(path) for path in LOCALE_FOLDER.glob(f"*/LC_MESSAGES/{DOMAIN}.po")]
    assert catalogs
    for catalog in [*catalogs, pseudo_catalog(_template())]:
        assert placeholder_mismatches(catalog) == [], catalog.locale
    broken = Catalog(locale="de")
    broken.add(SAID, "🌐 Der Bot spricht jetzt {sprache}.")
    assert placeholder_mismatches(broken) == [f"{SAID!r} → '🌐 Der Bot spricht jetzt {{sprache}}.'"]


def test_a_phrase_is_said_in_german_with_its_names_as_they_are() -> None:
    said = phrase(SAID, language="Deutsch")
    assert render(said, "de") == "🌐 Der Bot spricht in den Kanälen dieses Servers jetzt Deutsch."
    assert render(said, "en") == said.english()
    assert render("server default", "de") == "Server-Standard"
    assert render("Round 2.", "de") == "Round 2."  # not in the catalogue (yet): as written


def test_the_pseudo_locale_wraps_every_sentence_and_finds_english_left_behind() -> None:
    said = render(phrase(SAID, language="Ana"), PSEUDO)
    assert said.startswith("⟦🌐 Ţĥé ƀóţ ñóŵ šþéáķš Ana íñ") and said.endswith("~⟧"), said
    assert untranslated(said, allowed={"Ana"}) == []
    assert untranslated(said) == ["Ana"]  # a name is English to the check unless allowed
    leaked = f"{said} Round 2 `/settings language` <@123> <t:1800000000:R>"
    assert untranslated(leaked, allowed={"Ana"}) == ["Round"]


def _polish(folder: Path) -> Catalogues:
    """A catalogue of Polish, whose CLDR rule has three forms for whole numbers."""
    catalog = Catalog(locale="pl", domain=DOMAIN)
    catalog.add(("{count} round", "{count} rounds"), ("{count} runda", "{count} rundy",
                                                       "{count} rund"))
    catalog.add("{name} waits {rounds}.", "{name} czeka {rounds}.")
    where = folder / "pl" / "LC_MESSAGES"
    where.mkdir(parents=True)
    with (where / f"{DOMAIN}.po").open("wb") as output:
        write_po(output, catalog)
    return Catalogues(folder)


@pytest.mark.parametrize(("count", "said"), [(1, "Ana czeka 1 runda."), (3, "Ana czeka 3 rundy."),
                                             (5, "Ana czeka 5 rund."), (22, "Ana czeka 22 rundy.")])
def test_plurals_follow_the_languages_cldr_rule(tmp_path: Path, count: int, said: str) -> None:
    rounds = plural_phrase("{count} round", "{count} rounds", "count", count=count)
    waits = phrase("{name} waits {rounds}.", name="Ana", rounds=rounds)
    assert render(waits, "pl", _polish(tmp_path)) == said


async def test_the_translator_translates_descriptions_and_choices_never_names() -> None:
    translator = CommandTranslator()
    await translator.load()
    command = app_commands.Command(name="settings", description="x",
                                   callback=_callback)

    async def said(text: str, locale: Locale, where: Where) -> str | None:
        return await translator.translate(app_commands.locale_str(text), locale,
                                          TranslationContext(where, command))

    assert await said("server default", Locale.german, Where.choice_name) == "Server-Standard"
    assert await said("server default", Locale.german, Where.command_name) is None
    assert await said("server default", Locale.german, Where.parameter_name) is None
    assert await said("server default", Locale.british_english, Where.choice_name) is None
    assert await said("server default", Locale.japanese, Where.choice_name) is None
    assert await said("Not in any catalogue", Locale.german, Where.command_description) is None


async def _callback(interaction: Any) -> None:
    """(A command's callback, for a translation context.)"""


async def test_a_person_reads_their_own_language_when_the_bot_speaks_it() -> None:
    async def language(guild_id: int) -> str | None:
        return None

    def kept_language(guild_id: int) -> str | None:
        raise KeyError(guild_id)  # (nothing kept in memory: the store is asked)

    def interaction(locale: str, guild_locale: str) -> Any:
        guilds = SimpleNamespace(language=language, kept_language=kept_language)
        return SimpleNamespace(locale=Locale(locale), guild_locale=Locale(guild_locale),
                               guild_id=1, client=SimpleNamespace(
                                   store=SimpleNamespace(guilds=guilds)))

    assert await person_language(interaction("de", "en-US")) == "de"
    assert await person_language(interaction("en-GB", "de")) == "en"
    assert await person_language(interaction("ja", "de")) == "de"  # none for Japanese
    assert await person_language(interaction("ja", "ko")) == "en"
    assert catalogue_language("pt-BR") is None and "de" in CATALOGUES.languages()
