"""Refusals said in their reader's language, played as a German player meets them: a button or
form the bot no longer answers, a value not among an option's choices, a fighter not in the
fight, the database away, a pasted character that is not valid, and the built-in maps offered
while typing a map's name."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.characters import PASTE_LABEL
from bot.i18n import render
from bot.store.values import DatabaseUnavailable
from testbed.harness import ALICE, GM, Table
from testbed.seen import Modal
from tests.bot.fights import add_character, start_fight


async def test_an_old_button_and_an_old_form_are_answered_in_the_persons_language(
    table: Table,
) -> None:
    table.locales[ALICE.id] = "de"
    table.dice(2, 9)
    await table.slash("roll", level=40)
    message = table.channel_messages()[-1]
    pressed = await table.press("combat:Ana:defend", message=message)
    assert pressed.ephemeral and pressed.content == (
        "Dieser Knopf funktioniert nicht mehr: Der Bot hat sich geändert, seit er gezeigt "
        "wurde. Nichts wurde geändert."), pressed.content
    sent = await table.submit(Modal("old-form:1", "Old", {"Text": "text"}), {"Text": "Ana -- Bo"})
    assert sent.ephemeral and sent.content.startswith(
        "Dieses Formular funktioniert nicht mehr: Der Bot hat sich geändert, seit es geöffnet "
        "wurde. Nichts wurde gespeichert. Was du eingegeben hast:\n"), sent.content
    assert "Ana -- Bo" in sent.content  # what was typed is not lost
    table.locales[GM.id] = "en-US"
    english = await table.press("combat:Ana:defend", message=message, user=GM)
    assert english.content.startswith("That button no longer works"), english.content


async def test_a_value_not_among_the_choices_lists_them_as_discords_client_shows_them(
    table: Table,
) -> None:
    """The choices named as the command translator names them in the person's language."""
    table.locales[ALICE.id] = "de"
    await table.slash("character create", name="Ana")
    says = {
        ("character item stow", (("character", "Ana"), ("hand", "third"))):
            "Die Option `hand` nimmt eines von: „rechts“, „links“. Nichts wurde geändert.",
        ("character item add", (("character", "Ana"), ("name", "Vest"), ("kind", "armor"),
                                ("location", "elbow"))):
            "Die Option `location` nimmt eines von: „Kopf“, „Rechter Arm“, „Linker Arm“, "
            "„Rumpf“, „Rechtes Bein“, „Linkes Bein“. Nichts wurde geändert.",
        ("map show", (("name", "nightclub"), ("view", "3d"))):
            "Die Option `view` nimmt eines von: „Raster“, „Liste“. Nichts wurde geändert.",
        ("settings reminders", (("where", "pigeon"),)):
            "Die Option `where` nimmt eines von: „Kanal“, „Direktnachricht“. Nichts wurde "
            "geändert.",
        ("combat settings", (("pace", "slow"),)):
            "Die Option `pace` nimmt eines von: „live“, „per Post“. Nichts wurde geändert.",
        ("settings language", (("language", "fr"),)):
            "Die Option `language` nimmt eines von: „English“, „Deutsch“, „Server-Standard“. "
            "Nichts wurde geändert.",
    }
    for (command, options), said in says.items():
        reply = await table.slash(command, **dict(options))
        assert reply.ephemeral and reply.content == said, (command, reply.content)
    topic = await table.slash("help", topic="everything")
    assert topic.content.startswith("Die Option `topic` nimmt eines von: „Hier anfangen“, "
                                    "„Würfel“, "), topic.content
    table.locales[ALICE.id] = "en-US"
    english = await table.slash("character item stow", character="Ana", hand="third")
    assert english.content == ("The `hand` option takes one of: “right”, “left”. Nothing was "
                               "changed."), english.content


async def test_a_fighter_not_in_the_fight_is_said_in_the_persons_language(table: Table) -> None:
    await add_character(table, "Ana")
    await start_fight(table, ("Ana", "Dance floor"), user_of={"Ana": ALICE})
    table.locales[GM.id] = "de"
    reply = await table.slash("combat remove", user=GM, character="Zed")
    assert reply.ephemeral and reply.content == (
        "In diesem Kampf gibt es keinen Kämpfer namens 'Zed'."), reply.content
    table.locales[GM.id] = "en-US"
    english = await table.slash("combat remove", user=GM, character="Zed")
    assert english.content == "There is no fighter called 'Zed' in this combat.", english.content


async def test_the_database_away_is_said_in_the_persons_language(
    table: Table, monkeypatch: pytest.MonkeyPatch,
) -> None:
    await add_character(table, "Ana", weapon=None)

    async def away(*args: Any, **kwargs: Any) -> None:
        raise DatabaseUnavailable()

    monkeypatch.setattr(table.bot.store.characters, "get", away)
    table.locales[ALICE.id] = "de"
    reply = await table.slash("sheet", character="Ana")
    assert reply.ephemeral and reply.content == (
        "Die Datenbank des Bots ist gerade nicht erreichbar: Nichts wurde geändert. Versuch "
        "es in einer Minute noch einmal."), reply.content


async def test_a_pasted_characters_problems_are_said_in_the_persons_language(
    table: Table,
) -> None:
    """The JSON's keys stay as typed; what is wrong with each is said in German."""
    table.locales[ALICE.id] = "de"
    label = render(PASTE_LABEL, "de")
    says = {
        '{"name": "Ana", "level": 50,':
            "Dieser Charakter ist nicht gültig: Ungültiges JSON: Es endet zu früh, in Zeile 1, "
            "Spalte 28.",
        "Ana": "Dieser Charakter ist nicht gültig: Ungültiges JSON in Zeile 1, Spalte 1.",
        '{"schema_version": 99, "name": "Cal"}':
            "Dieser Charakter ist nicht gültig: `schema_version`: Eingabe muss 1 sein; "
            "`level`: Feld fehlt; `max_level`: Feld fehlt.",
        '{"name": "", "level": "high", "max_level": 0, "hp": 3, "gear": 7}':
            "Dieser Charakter ist nicht gültig: `name`: Text muss mindestens 1 Zeichen haben; "
            "`level`: Eingabe muss eine gültige ganze Zahl sein; `max_level`: Eingabe muss "
            "größer oder gleich 1 sein; `gear`: Eingabe muss ein gültiges Array sein; `hp`: "
            "Zusätzliche Felder sind nicht erlaubt.",
        '{"name": "Ana", "level": 100, "max_level": 50, "concept": "' + "x" * 90 + '"}':
            "Dieser Charakter ist nicht gültig: `level`: Eingabe muss kleiner oder gleich 99 sein; "
            "`concept`: Zu lang: höchstens 80, nicht 90.",
        '{"name": "Ana", "level": 60, "max_level": 50}':
            "Dieser Charakter ist nicht gültig: Stufe 60 liegt über der Höchststufe 50.",
        '{"name": "Ana", "level": 50, "max_level": 50, "wounds": {"head": "?"}}':
            "Dieser Charakter ist nicht gültig: `wounds`: ein Kästchen enthält \\, X oder ■, "
            "nicht '?'.",
    }
    for pasted, said in says.items():
        opened = await table.slash("character import")
        reply = await table.submit(opened.modal, {label: pasted})
        assert reply.ephemeral, reply.content
        lines = reply.content.split("\n")
        assert lines[:2] == [said, "Nichts wurde gespeichert."], (pasted, reply.content)
    assert "Ana" not in (await table.slash("character list")).content


async def test_the_built_in_maps_are_offered_in_the_persons_language_everywhere(
    table: Table,
) -> None:
    """`/combat start map:` as `/map show name:`: "(built-in)" in the typing person's language."""
    table.locales[GM.id] = "de"
    for command in ("combat start", "map show"):
        focused = "map" if command == "combat start" else "name"
        offered = await table.autocomplete(command, focused, user=GM, **{focused: "man"})
        assert offered == ["manor (eingebaut)"], (command, offered)
    table.locales[GM.id] = "en-US"
    assert await table.autocomplete("combat start", "map", user=GM, map="man") == [
        "manor (built-in)"]
