"""Characters in the table's language: a German table makes a character, chooses on its
panel and shows the sheet in German (the sheet still 40 columns wide, Discord's limits kept);
in the pseudo-locale no English reaches Discord from `/character` and `/sheet`."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n.checks import untranslated
from engine.textwidth import width
from testbed.harness import ALICE, GM, GUILD_ID, Message, Modal, Reply, Table, User

pytestmark = pytest.mark.both_engines


def _german(table: Table) -> None:
    table.guild_locale = "de"
    table.locales[ALICE.id] = "de"


def _sheet_lines(content: str) -> list[str]:
    return [line for block in content.split("```")[1::2] for line in block.strip("\n").splitlines()]


async def test_a_german_table_makes_a_character_and_reads_its_panel_and_sheet(
        table: Table) -> None:
    _german(table)
    made = await table.slash("character create", name="Ana")
    assert not made.ephemeral
    assert made.content == (
        f"🧍 {ALICE.mention} hat **Ana**: ein SC auf Stufe 50/50 erstellt. Noch zu wählen: 1 "
        "Nicht-Kampf-Fähigkeit (`/character ability add`); 1 Kampffähigkeit (`/character "
        "ability add`); Gegenstände für 5 freie Plätze (`/character item add`), oder alles auf "
        "einmal mit `/character panel`. `/sheet character:Ana` zeigt den Bogen.")
    panel = (await table.slash("character panel", character="Ana")).message
    assert panel.ephemeral and panel.content.startswith("🧭 **Ana**, noch zu wählen: ")
    assert [s["placeholder"] for s in panel.selects()] == [
        "Wähle eine Kampffähigkeit", "Gegenstand hinzufügen: seine Art"]
    assert panel.labels == ["Nicht-Kampf-Fähigkeit…"]
    kinds = panel.selects()[1]["options"]
    assert kinds[0]["label"] == "Rüstung" and all(len(o["label"]) <= 100 for o in kinds)
    form = await table.choose(panel, ["armor"], index=1)
    assert form.modal is not None and form.modal.title == "Hinzufügen: Rüstung"
    assert set(form.modal.fields) == {"Name"} and set(form.modal.menus) == {
        "Trefferzone, die sie schützt"}
    added = await table.submit(form.modal, {"Name": "Weste", "Trefferzone, die sie schützt":
                                            "torso"}, message=panel)
    assert added.messages[-1].content == (
        "🎒 Ana trägt Weste (Rüstung) auf Platz 1; 4 von 5 Plätzen sind frei.")
    good = await table.click(panel, "Nicht-Kampf-Fähigkeit…")
    assert good.modal is not None and good.modal.title == "Eine Nicht-Kampf-Fähigkeit"
    done = await table.submit(good.modal, {"Gut in": "Schlösser knacken"}, message=panel)
    assert done.messages[-1].content == "✨ Ana ist gut in Schlösser knacken."
    await table.slash("character item add", character="Ana", name="Ein sehr langer Zweihänder",
                      kind="melee_2h")
    await table.slash("character ability add", character="Ana",
                      ability="melee_2h.precise_attack")
    sheet = await table.slash("sheet", character="Ana")
    assert not sheet.ephemeral
    lines = _sheet_lines(sheet.content)
    assert lines[:2] == ["Ana · SC", "Stufe 50/50 · wohlauf"]
    assert "  8 r. Arm  4-6 Rumpf   7 l. Arm" in lines
    for said in ("Hände", "R. Hand: leer", "Gegenstände 2 von 5 · 3 frei",
                 " 1. Weste (Rüstung, Rumpf)", "Fähigkeiten 2 von 2 · 0 frei",
                 " Gut in Schlösser knacken", " Angriff mit Nahkampf 2H: präzise"):
        assert said in lines, (said, lines)
    assert all(width(line) <= 40 for line in lines), lines


async def test_the_german_forms_and_menus_keep_discords_limits(table: Table) -> None:
    """Every item form of the panel, every menu: titles, labels and options fit in German."""
    _german(table)
    await table.slash("character create", name="Bo", level=70)
    for ability in ("AoE: Blast", "AoE: Cover"):
        await table.slash("character ability add", character="Bo", ability=ability)
    panel = (await table.slash("character panel", character="Bo")).message
    for menu in panel.selects():
        assert len(menu["placeholder"]) <= 150
        for option in menu["options"]:
            assert len(option["label"]) <= 100
            assert len(option.get("description") or "") <= 100
    kinds = [o["value"] for o in panel.selects()[1]["options"]]
    for kind in kinds:
        form = await table.choose(panel, [kind], index=1)
        assert form.modal is not None and len(form.modal.title) <= 45, form.modal.title
        assert all(len(label) <= 45 for label in [*form.modal.fields, *form.modal.menus])
    opened = await table.slash("character create")
    assert opened.modal is not None and opened.modal.title == "Ein neuer Charakter"
    assert list(opened.modal.fields) == ["Name", "Konzept", "Beschreibung"]


def _said(reply: Reply) -> list[str]:
    """Every text a user reads in what the bot sent: contents, buttons, menus, a form."""
    texts: list[str] = []
    for message in reply.messages:
        texts += [message.content, *message.labels]
        texts += _menu_texts(message)
    if reply.modal is not None:
        texts += _form_texts(reply.modal)
    return texts


def _menu_texts(message: Message) -> list[str]:
    texts = []
    for menu in message.selects():
        texts.append(menu.get("placeholder", ""))
        texts += [f"{o['label']} {o.get('description') or ''}" for o in menu["options"]]
    return texts


def _form_texts(modal: Modal) -> list[str]:
    return [modal.title, *modal.fields, *modal.menus]


#: The names and what the user typed, as they are.
NAMES = {"Ana", "Knife", "Vest", "lockpicking", "Anita", "Nobody", "nothing like it"}


async def test_no_english_reaches_discord_from_the_character_commands(table: Table) -> None:
    table.guild_locale = "en-XA"
    table.locales[ALICE.id] = "en-XA"
    replies: list[Reply] = []

    async def slash(command: str, **options: Any) -> Reply:
        replies.append(await table.slash(command, **options))
        return replies[-1]

    await slash("character create", name="Ana", level=54)
    panel = (await slash("character panel", character="Ana")).message
    form = await table.choose(panel, ["armor"], index=1)
    replies.append(form)
    assert form.modal is not None
    [name_field], [location_menu] = form.modal.fields, form.modal.menus
    replies.append(await table.submit(form.modal, {name_field: "Vest", location_menu: "torso"},
                                      message=panel))
    good = await table.click(panel, panel.labels[0])
    assert good.modal is not None
    [activity_field] = good.modal.fields
    replies += [good, await table.submit(good.modal, {activity_field: "lockpicking"},
                                         message=panel)]
    await slash("character item add", character="Ana", name="Knife", kind="melee_1h")
    await slash("character item hold", character="Ana", item="Knife")
    await slash("character ability add", character="Ana", ability="melee_1h.good_attack")
    await slash("character ability add", character="Ana", ability="nothing like it")
    await slash("character advance", character="Ana")
    await slash("character describe", character="Ana", concept="-")
    await slash("character rename", character="Ana", new_name="Anita")
    await slash("character rename", character="Anita", new_name="Ana")
    await slash("sheet", character="Ana")
    await slash("sheet")
    await slash("character list")
    await slash("character item remove", character="Ana", item="Knife")
    await slash("character gear add", character="Ana", name="Knife")
    await slash("character export", character="Ana")
    await slash("character delete", character="Ana")
    await slash("sheet", character="Nobody")
    await slash("character create")
    found = await table.bot.store.characters.get(GUILD_ID, "Ana")
    assert found is not None and found.character.good_at == ("lockpicking",)
    leaks = {}
    for reply in replies:
        for text in _said(reply):
            # An export's JSON is the character's data, not a sentence.
            text = text.split("```json")[0]
            if untranslated(text, allowed=NAMES):
                leaks[text] = untranslated(text, allowed=NAMES)
    assert leaks == {}, "\n".join(f"{k!r}: {v}" for k, v in leaks.items())


async def test_no_english_reaches_discord_from_copies_items_recovery_and_autocomplete(
        table: Table) -> None:
    table.guild_locale = "en-XA"
    for user in (ALICE, GM):
        table.locales[user.id] = "en-XA"
    replies: list[Reply] = []

    async def slash(command: str, user: User = ALICE, **options: Any) -> Reply:
        replies.append(await table.slash(command, user=user, **options))
        return replies[-1]

    await slash("character create", name="Ana")
    await slash("character create", user=GM, name="Goon", npc=True)
    await slash("character copy", user=GM, character="Goon", count=2)
    await slash("character copy", character="Goon", count=2)
    await slash("character item add", character="Ana", name="Vest", kind="armor")
    await slash("character item add", character="Ana", name="Knife", kind="melee_1h",
                location="head")
    await slash("character item add", character="Ana", name="Bomb", kind="aoe")
    await slash("character item add", character="Ana", name="Kit", kind="first_aid")
    await slash("character item remove", character="Ana", item="Kit")
    await slash("character item remove", character="Ana", item="Nothing")
    await slash("character recover", character="Ana")
    await slash("character advance", character="Ana")
    await slash("character create", user=GM, name="Rat", npc=True)
    deleting = await slash("character delete", user=GM, character="Rat")
    replies.append(await table.click(deleting.message, deleting.message.labels[-1], user=GM))
    deleting = await slash("character delete", user=GM, character="Goon 1")
    replies.append(await table.click(deleting.message, deleting.message.labels[0], user=GM))
    offered = [
        *await table.autocomplete("character item add", "ability", character="Ana",
                                  kind="aoe", name="Bomb"),
        *await table.autocomplete("character ability add", "ability", character="Ana"),
        *await table.autocomplete("character ability remove", "ability", character="Ana"),
        *await table.autocomplete("character item remove", "item", character="Ana"),
        *await table.autocomplete("character item hold", "item", character="Ana"),
        *await table.autocomplete("character gear remove", "name", character="Ana"),
        *await table.autocomplete("character rename", "character", character="Nobody"),
    ]
    # The hit locations' ids are what `location:` takes, as they are in every language.
    names = NAMES | {"Goon", "Goon 1", "Goon 2", "Rat", "Bomb", "Kit", "Nothing",
                     "head", "right_arm", "left_arm", "torso", "right_leg", "left_leg"}
    leaks = {text: untranslated(text, allowed=names)
             for reply in replies for text in _said(reply)
             if untranslated(text, allowed=names)}
    leaks |= {text: untranslated(text, allowed=names) for text in offered
              if untranslated(text, allowed=names)}
    assert leaks == {}, "\n".join(f"{k!r}: {v}" for k, v in leaks.items())
