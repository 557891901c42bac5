"""The fight's actions in their readers' languages: `/attack`'s refusal and answer, the team's
turn line and My options, the hands panel, the standing-orders panel and the catch-up, on a
German table (the channel's language and the player's own) and in the pseudo-locale, where no
English of them may reach Discord."""

from __future__ import annotations

from bot.i18n import PSEUDO, render
from bot.i18n.checks import untranslated
from engine.phrases import phrase
from testbed.harness import ALICE, BOB, GM, GUILD_ID, Message, Table
from tests.bot.fights import add_character, start_fight

#: The names a fight's messages hold (never translated; the default teams are named in the
#: table's language).
NAMES = {"Ana", "Goon", "Knife", "Shield", "Dance Floor", "nightclub"}


async def _fight(table: Table, language: str) -> None:
    """Ana (Alice's: a knife in hand, a shield in the pack) and Goon (an NPC) on the dance
    floor; the PCs ("SC" in German: the default team named in ``language``) act first (the
    button said in ``language``)."""
    await add_character(table, "Ana", level=40)
    added = await table.slash("character item add", character="Ana", name="Shield",
                              kind="shield")
    assert not added.ephemeral, added.content
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    first = render(phrase("{team} first", team=render(phrase("PCs"), language)), language)
    await table.click(table.channel_messages()[-1], first, user=ALICE)


def _menus(message: Message) -> list[str]:
    """Each menu's placeholder, and each option's label and description."""
    said = []
    for select in message.selects():
        said.append(str(select.get("placeholder", "")))
        for option in select["options"]:
            said += [option["label"], option.get("description", "")]
    return said


async def _said(table: Table) -> dict[str, list[str]]:
    """What the table reads of the fight's actions: a refusal, the turn's line and buttons, My
    options, the hands and orders panels with their menus, an attack, the catch-up."""
    said: dict[str, list[str]] = {}
    said["refused"] = [(await table.slash("attack", user=BOB, target="Goon")).content]
    turn = next(m for m in reversed(table.channel_messages()) if len(m.buttons) >= 3)
    said["turn"] = [turn.content, *turn.labels]
    mine = (await table.click(turn, turn.labels[0], user=ALICE)).answer
    # (the options' own labels are the engine's: said by the options' module)
    said["mine"] = [mine.content, *(s.get("placeholder", "") for s in mine.selects())]
    hands = (await table.slash("item hands")).answer
    said["hands"] = [hands.content, *_menus(hands), *hands.labels]
    orders = (await table.slash("combat orders")).answer
    said["orders"] = [orders.content, *_menus(orders)]
    table.dice(3, 5)
    attack = await table.slash("attack", target="Goon")
    said["attack"] = attack.answer.content.splitlines()[:1]
    said["catchup"] = [(await table.slash("combat catchup")).content]
    return said


async def test_a_german_table_acts_in_german(table: Table) -> None:
    await table.slash("settings language", user=GM, language="de")
    table.locales[ALICE.id] = table.locales[BOB.id] = "de"
    await _fight(table, "de")
    said = await _said(table)
    assert said["refused"] == [
        "Du hast keinen Charakter in diesem Kampf. Füg deinen mit `/combat add` hinzu."]
    assert said["turn"][0].startswith("**Runde 1, "), said["turn"]
    assert said["turn"][1:] == ["Meine Optionen", "Fertig (SC)", "Nachlesen"]
    assert said["mine"][0] == "Was tut **Ana**? (noch 1 Aktion in dieser Runde)"
    assert said["mine"][1:] == ["Angriff…", "Bewegung oder Tür…", "Gegenstände…"]
    assert said["hands"][0] == (
        "**Hände von Ana** jetzt: Knife in der rechten Hand, nichts in der linken Hand.\n"
        "Wähl, was jede Hand halten soll, dann **Anwenden**: beide Hände für eine Aktion.")
    assert said["hands"][1:6] == ["Rechte Hand", "Rechte Hand: leer", "Nichts in der rechten Hand",
                                  "Rechte Hand: Knife", "In der rechten Hand"]
    assert "Im Gepäck" in said["hands"] and said["hands"][-1] == "Anwenden (eine Aktion)"
    assert said["orders"][0].startswith("**Dauerbefehle von Ana**: was Ana tut, wenn"), said
    assert said["orders"][0].endswith("\nJetzt: keine Dauerbefehle.")
    assert said["orders"][1:4] == ["Wenn angegriffen…", "Wenn angegriffen: kein Dauerbefehl",
                                   "Gefragt und nicht da: keine Reaktion"]
    assert "Wenn angegriffen: mit Shield verteidigen" in said["orders"]
    assert said["attack"] == ["Ana greift Goon mit Knife an."]
    catchup = said["catchup"][0]
    assert catchup.startswith("📰 **Nachlesen** · nightclub · Ana\n"), catchup
    assert "\n**Wer ist wo:**\n• Dance Floor: Ana, Goon\n" in catchup, catchup


async def test_in_the_pseudo_locale_no_english_of_the_actions_is_left(table: Table) -> None:
    await table.bot.store.guilds.set_language(GUILD_ID, PSEUDO)
    table.locales[ALICE.id] = table.locales[BOB.id] = "en-XA"
    await _fight(table, PSEUDO)
    for part, texts in (await _said(table)).items():
        for text in texts:
            assert untranslated(text, NAMES) == [], (part, text)
