"""/roll, /map, /help, /gm, /session and /settings reminders in the reader's language: a German
table reads its rolls, maps and help in German (command and option names as they are), and in
the pseudo-locale no English from these commands reaches Discord."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.help.pages import PAGES
from bot.cogs.maps.finding import builtin_map
from bot.i18n.checks import untranslated
from data import builtin_maps
from testbed.harness import ALICE, DM_CHANNEL_ID, GM, Reply, Table
from tests.bot.fights import add_character

pytestmark = pytest.mark.both_engines

#: The map form's field in German.
GERMAN_LABEL = "Kartentext (bis zu 4.000 Zeichen)"


def _german(table: Table) -> None:
    """A German server (its Community settings), read by German clients."""
    table.guild_locale = "de"
    for user in (ALICE, GM):
        table.locales[user.id] = "de"


async def test_a_german_table_rolls_in_german(table: Table) -> None:
    _german(table)
    table.dice(7, 2)
    rolled = await table.slash("roll", level=40, good=True, note="Schloss")
    assert not rolled.ephemeral
    assert rolled.content.splitlines()[:2] == [
        f"🎲 {ALICE.mention} würfelt gegen **40** (gut) — Schloss", "**72** (7·2) — FEHLSCHLAG"]
    assert rolled.message.labels == ["Zehner neu würfeln", "Einer neu würfeln",
                                     "Beide neu würfeln", "Behalten"]
    table.dice(3)
    after = await table.click(rolled.message, "Zehner neu würfeln")
    assert "Erster Wurf: ~~72 (7·2)~~ FEHLSCHLAG" in after.content
    assert ("Zehner neu gewürfelt: **32** (3·2) — ERFOLG · Grade 3 und 2"
            in after.content), after.content
    table.dice(4, 0, 1, 0)
    opposed = await table.slash("roll", level=40, against=30)
    assert "Gegenseite gegen 30: **10** (1·0) — ERFOLG · Grade 1 und 0" in opposed.content
    assert "*Kritischer Erfolg: nimm eine Zusatzaktion oder passe auf 1-40 an.*" in (
        opposed.content)
    assert opposed.message.labels == ["Zusatzaktion", "Anpassen"]
    form = await table.click(opposed.message, "Anpassen")
    assert form.modal is not None and form.modal.title == "Kritischen Erfolg anpassen"
    refused = await table.slash("roll")
    assert refused.ephemeral and refused.content.startswith(
        "Nenne die Stufe, gegen die gewürfelt wird (`level:`), oder wer würfelt (`as:`)")


async def test_a_german_table_reads_its_maps_and_their_mistakes_in_german(
        table: Table) -> None:
    _german(table)
    shown = await table.slash("map show", name="nightclub")
    assert not shown.ephemeral
    assert shown.content.startswith("🗺️ **nightclub** (eingebaut) · 8 Bereiche\n```")
    for line in ("─ Bewegung+Sicht ┄ nur Sicht ▶ Einbahn", "■ Tür zu □ Tür offen ╳ keine Sicht",
                 "├ ┤ ┬ ┴ Deckung an diesem Ende"):
        assert line in shown.content.splitlines()
    listed = await table.slash("map show", name="nightclub", view="list")
    assert "| Deckung an diesem Bereichsende" in listed.content.splitlines()
    opened = await table.slash("map new", user=GM, name="Keller")
    assert opened.modal is not None and opened.modal.title == "Neue Karte: Keller"
    bad = await table.submit(opened.modal, {GERMAN_LABEL: "Bar --| Kitchen\nKitchen --> Alley"},
                             user=GM)
    assert bad.ephemeral and bad.content.startswith(
        "Zeile 2 hat einen Fehler: unbekannte Verbindung '-->': nimm"), bad.content
    assert "Nichts wurde gespeichert." in bad.content
    refused = await table.slash("map new", user=ALICE, name="Keller")
    assert refused.content.startswith("Nur ein SL darf eine Karte schreiben.")


async def test_a_german_reader_gets_help_in_german_on_pages_discord_takes(table: Table) -> None:
    _german(table)
    first = await table.slash("help")
    assert first.ephemeral and first.content.startswith("**Neu hier?**\n**Spieler**")
    assert first.message.labels == ["◀ SL-Werkzeuge", "Würfel ▶"]
    for page in PAGES:
        shown = await table.slash("help", topic=page.key)
        assert len(shown.content) <= 2000, (page.key, len(shown.content))
        assert "-# Seite" in shown.content
    tools = await table.slash("help", topic="gm")
    assert "behalten in jeder Sprache ihre englischen Namen" in tools.content


def _localized(command: dict[str, Any]) -> list[tuple[str, str]]:
    """Every German text a synced command carries: descriptions and choice names, its
    options' and their options' too."""
    found = [(command["name"], text) for key in ("description_localizations",
                                                 "name_localizations")
             for language, text in (command.get(key) or {}).items() if language == "de"]
    for option in command.get("options") or []:
        found += _localized(option)
    for choice in command.get("choices") or []:
        found += [(choice["name"], text)
                  for language, text in (choice.get("name_localizations") or {}).items()
                  if language == "de"]
    return found


async def test_the_german_descriptions_fit_discords_100_characters(table: Table) -> None:
    synced = table.synced[-1][1]
    roll = next(c for c in synced if c["name"] == "roll")
    assert roll["description_localizations"]["de"] == (
        "Würfle W100 gegen eine Stufe (Unhex-Regeln).")
    assert not roll.get("name_localizations")
    german = [found for command in synced for found in _localized(command)]
    assert len(german) > 50
    assert [(name, text) for name, text in german if len(text) > 100] == []


class _Reader:
    """What the bot sent in the pseudo-locale, with the names that may stay as they are."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.english: list[tuple[str, list[str]]] = []

    def read(self, reply: Reply) -> Reply:
        for message in reply.messages:
            texts = [message.content, *message.labels]
            for text in texts:
                left = untranslated(text, allowed=self.names)
                if left:
                    self.english.append((text, left))
        if reply.modal is not None:
            for text in (reply.modal.title, *reply.modal.fields):
                left = untranslated(text, allowed=self.names)
                if left:
                    self.english.append((text, left))
        return reply


async def test_no_english_from_these_commands_reaches_discord_in_the_pseudo_locale(
        table: Table) -> None:
    await add_character(table, "Ana", weapon=None)
    table.guild_locale = "en-XA"
    for user in (ALICE, GM):
        table.locales[user.id] = "en-XA"
    areas = {area for name in builtin_maps() for area in builtin_map(name).areas}
    said = _Reader({"Ana", "Schloss", "Keller", "Nowhere", *builtin_maps(), *areas})
    table.dice(7, 2)
    rolled = said.read(await table.slash("roll", level=40, good=True, note="Schloss"))
    table.dice(3, 3)
    both = said.read(await table.click(rolled.message, rolled.message.labels[2]))
    said.read(await table.click(both.message, both.message.labels[0]))  # the extra action
    table.dice(5, 0, 3, 3)
    said.read(await table.slash("roll", level=40, against=50))
    table.dice(1, 2)
    said.read(await table.slash("roll"))  # Ana's level
    for options in ({}, {"view": "list"}):
        said.read(await table.slash("map show", name="nightclub", **options))
    said.read(await table.slash("map list"))
    said.read(await table.slash("map export", name="manor"))
    said.read(await table.slash("map show", name="Nowhere"))
    opened = said.read(await table.slash("map new", user=GM, name="Keller"))
    assert opened.modal is not None
    [label] = opened.modal.fields
    said.read(await table.submit(opened.modal, {label: "Bar --| Kitchen\nBar @ 0,0"}, user=GM))
    said.read(await table.slash("map delete", user=ALICE, name="Keller"))
    for page in PAGES:
        said.read(await table.slash("help", topic=page.key))
    said.read(await table.slash("gm role", user=GM))
    said.read(await table.slash("settings reminders", where="dm"))
    said.read(await table.slash("session start"))
    said.read(await table.slash("session join", character="Ana"))
    said.read(await table.slash("session goal", goal="Schloss"))
    said.read(await table.slash("session status"))
    said.read(await table.slash("session end", user=GM, achieved=True))
    said.read(await table.slash("session status"))
    assert said.english == []


async def test_a_roll_in_a_direct_message_reads_in_its_roller_s_language(table: Table) -> None:
    table.locales[ALICE.id] = "de"  # (a DM has no server: its only reader is the roller)
    table.dice(7, 2)
    rolled = await table.slash("roll", level=40, guild=None, channel=DM_CHANNEL_ID)
    assert rolled.content.splitlines()[:2] == [
        f"🎲 {ALICE.mention} würfelt gegen **40**", "**72** (7·2) — FEHLSCHLAG"]
    table.locales[ALICE.id] = "en-US"
    table.dice(7, 2)
    rolled = await table.slash("roll", level=40, guild=None, channel=DM_CHANNEL_ID)
    assert rolled.content.splitlines()[1] == "**72** (7·2) — FAILURE"
