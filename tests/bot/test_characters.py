"""/character and /sheet as players and GMs meet them, through the real dispatch path: slash
commands, autocomplete, the delete confirmation buttons and the import modal."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.cogs.characters import PASTE_LABEL
from data import load_rules
from engine.character import Character, add_ability, add_good_at, add_item, take_damage
from engine.sheet import render_sheet
from testbed.harness import ALICE, BOB, GM, Reply, Table, User

pytestmark = pytest.mark.both_engines

RULES = load_rules()
S = "\\"


NON_COMBAT, COMBAT = "1 non-combat ability", "1 combat ability"


def still(*left: str) -> str:
    """What a change says is left of the book's start, and where to choose it."""
    return f" Still to choose: {', '.join(left)} (`/character panel`)."


def code_block(content: str) -> str:
    """The text between the message's code fences."""
    found = re.search(r"```[a-z]*\n(.*)\n```", content, re.S)
    assert found, f"no code block in {content!r}"
    return found.group(1)


async def create(table: Table, name: str, *, user: User = ALICE, **options: object) -> Reply:
    reply = await table.slash("character create", user=user, name=name, **options)
    assert reply.kind == "message" and not reply.ephemeral, reply.content
    return reply


async def sheet(table: Table, name: str | None = None, *, user: User = ALICE) -> str:
    reply = (await table.slash("sheet", user=user) if name is None
             else await table.slash("sheet", user=user, character=name))
    assert reply.kind == "message" and not reply.ephemeral, reply.content
    return code_block(reply.content)


async def stored(table: Table, name: str) -> Character:
    found = await table.bot.store.characters.get(900_000_000_000_000_100, name)
    assert found is not None, f"no character {name}"
    return found.character


async def names(table: Table) -> list[str]:
    return [e.name for e in await table.bot.store.characters.entries(900_000_000_000_000_100)]


def refused(reply: Reply, *parts: str) -> None:
    assert reply.kind == "message" and reply.ephemeral, reply.messages and reply.content
    for part in parts:
        assert part in reply.content, reply.content


# -- create and view ------------------------------------------------------------------------------


async def test_create_a_pc_and_see_its_sheet(table: Table) -> None:
    reply = await create(table, "Ana")
    assert reply.content.startswith(f"🧍 {ALICE.mention} created **Ana**: a PC at level 50/50.")
    text = await sheet(table)  # no option: the user's own PC
    assert text == render_sheet(Character.new("Ana"), rules=RULES)
    assert text.splitlines()[:2] == ["Ana · PC", "Level 50/50 · fine"]
    assert "              9 Head\n              □ □ □" in text  # the figure: head on top
    assert "  8 R arm   4-6 Torso   7 L arm" in text
    assert "Items 0 of 5 slots · 5 free" in text
    assert await sheet(table, "ana", user=BOB) == text  # anyone may look, in any case


async def test_create_with_a_level_and_gm_npcs(table: Table) -> None:
    await create(table, "Veteran", level=62)
    assert "Level 62/62 · fine" in await sheet(table, "Veteran")
    reply = await create(table, "Goon", user=GM, npc=True, level=40)
    assert "**Goon**: an NPC at level 40/40." in reply.content
    text = await sheet(table, "Goon")
    assert text.splitlines()[:2] == ["Goon · NPC", "Level 40/40 · fine"]


async def test_only_gms_create_npcs(table: Table) -> None:
    reply = await table.slash("character create", user=BOB, name="Goon", npc=True)
    refused(reply, "Only a GM may create an NPC.")
    assert await names(table) == []


async def test_level_is_declared_1_to_99_so_discord_refuses_0_and_100(table: Table) -> None:
    # Discord itself enforces an option's range; the harness shows the range is declared.
    command = next(c for c in table.synced[-1][1] if c["name"] == "character")
    create_ = next(o for o in command["options"] if o["name"] == "create")
    options = {o["name"]: o for o in create_["options"]}
    assert (options["level"]["min_value"], options["level"]["max_value"]) == (1, 99)
    assert (options["name"]["min_length"], options["name"]["max_length"]) == (1, 32)


@pytest.mark.parametrize("level", [0, 100])
async def test_level_0_or_100_sent_anyway_is_a_clear_refusal(table: Table, level: int) -> None:
    reply = await table.slash("character create", name="Ana", level=level)
    refused(reply, f"The `level` option takes a number from 1 to 99; it got {level}. "
            "Nothing was changed.")
    assert await names(table) == []


async def test_names_are_unique_per_server_in_any_case(table: Table) -> None:
    await create(table, "Ana Bell")
    for name in ("ANA BELL", "  ana   bell "):
        reply = await table.slash("character create", user=BOB, name=name)
        refused(reply, "This server already has a character called **Ana Bell**")
    assert await names(table) == ["Ana Bell"]


async def test_a_name_that_would_break_the_sheet_is_refused(table: Table) -> None:
    reply = await table.slash("character create", name="Ana`s")
    refused(reply, "won't do", "no backticks")
    assert await names(table) == []


async def test_an_unknown_character_is_named_in_the_refusal(table: Table) -> None:
    refused(await table.slash("sheet", character="Nobody"),
            "There is no character called “Nobody” on this server. `/character list`")
    refused(await table.slash("character advance", character="Nobody"), "“Nobody”")
    refused(await table.slash("sheet"), "You have no PC on this server")


async def test_list_shows_every_character_to_the_asker(table: Table) -> None:
    await create(table, "Ana")
    await create(table, "Goon", user=GM, npc=True, level=40)
    reply = await table.slash("character list", user=BOB)
    assert reply.ephemeral
    assert f"• **Ana** · PC of {ALICE.mention}, level 50/50 · fine" in reply.content
    assert "• **Goon** · NPC, level 40/40 · fine" in reply.content


async def test_sheet_defaults_to_the_most_recently_changed_pc(table: Table) -> None:
    await create(table, "Ana")
    await create(table, "Bea")
    await create(table, "Goon", user=GM, npc=True)
    reply = await table.slash("sheet")
    assert "Your most recently changed PC of 2" in reply.content
    assert code_block(reply.content).startswith("Bea · PC")
    await table.slash("character advance", character="Ana")
    assert (await sheet(table)).startswith("Ana · PC")


# -- change: items, hands, abilities, advance, recover --------------------------------------------


async def test_items_and_hands(table: Table) -> None:
    await create(table, "Ana")
    reply = await table.slash("character item add", character="Ana", name="Riot shield",
                              kind="shield")
    assert not reply.ephemeral
    assert reply.content == ("🎒 Ana carries Riot shield (shield) in slot 1; 4 of 5 slots are "
                             "free." + still(NON_COMBAT, COMBAT, "items for 4 free slots",
                                             "what to hold when a fight starts"))
    await table.slash("character item add", character="Ana", name="Greatsword", kind="melee_2h")
    await table.slash("character item add", character="Ana", name="Vest", kind="armor",
                      location="torso")
    await table.slash("character item add", character="Ana", name="Darts", kind="ammo",
                      less_lethal=True)
    held = await table.slash("character item hold", character="Ana", item="2")
    assert held.content == ("✋ Ana has Greatsword in both hands."
                            + still(NON_COMBAT, COMBAT, "an item for 1 free slot"))
    assert not held.ephemeral
    text = await sheet(table, "Ana")
    assert " 2. Greatsword (2H melee) [both hands]" in text
    assert " 3. Vest (armor, torso)" in text and " 4. Darts (ammo, less-lethal)" in text
    assert "Both hands: Greatsword" in text
    shield = await table.slash("character item hold", character="Ana", item="riot shield",
                               hand="left")
    assert shield.content == ("✋ Ana has Riot shield in the left hand."
                              + still(NON_COMBAT, COMBAT, "an item for 1 free slot"))
    stowed = await table.slash("character item stow", character="Ana")
    assert stowed.content == "✋ Ana has nothing in hand."
    again = await table.slash("character item stow", character="Ana")
    assert again.ephemeral and again.content == "Nothing changed: Ana has nothing in hand."
    removed = await table.slash("character item remove", character="Ana", item="1")
    assert removed.content == "🎒 Ana no longer carries Riot shield; 2 slots are free."
    assert [i.name for i in (await stored(table, "Ana")).items] == ["Greatsword", "Vest", "Darts"]


async def test_armor_is_not_held_and_needs_a_location(table: Table) -> None:
    await create(table, "Ana")
    refused(await table.slash("character item add", character="Ana", name="Vest", kind="armor"),
            "Armor covers one hit location: say which")
    await table.slash("character item add", character="Ana", name="Vest", kind="armor",
                      location="torso")
    refused(await table.slash("character item hold", character="Ana", item="Vest"),
            "Vest (armor) is not held in a hand.")
    refused(await table.slash("character item remove", character="Ana", item="7"),
            "Ana has no item number 7.")


@pytest.mark.parametrize("typed", ["²", "①", "1²"])
@pytest.mark.parametrize("command", ["character item hold", "character item remove"])
async def test_item_numbers_are_plain_digits(table: Table, command: str, typed: str) -> None:
    """"²" and "①" pass str.isdigit() but are no number int() reads: a clear refusal."""
    await create(table, "Ana")
    await table.slash("character item add", character="Ana", name="Knife", kind="melee_1h")
    before = await sheet(table, "Ana")
    refused(await table.slash(command, character="Ana", item=typed),
            f"“{typed}” is not an item number: type the number in plain digits (1, 2, 3 …) "
            "as on the sheet, or the item's name.")
    assert await sheet(table, "Ana") == before
    held = await table.slash("character item hold", character="Ana", item=" 1 ")
    assert held.content == ("✋ Ana has Knife in the right hand."
                            + still(NON_COMBAT, COMBAT, "items for 4 free slots"))


async def test_a_sixth_item_with_five_slots_is_refused(table: Table) -> None:
    await create(table, "Ana")
    for n in range(5):
        await table.slash("character item add", character="Ana", name=f"Knife {n + 1}",
                          kind="melee_1h")
    before = await sheet(table, "Ana")
    reply = await table.slash("character item add", character="Ana", name="Knife 6",
                              kind="melee_1h")
    refused(reply, "Ana has 5 item slots and all are full.")
    assert await sheet(table, "Ana") == before


async def test_a_third_armor_on_one_location_is_refused(table: Table) -> None:
    await create(table, "Ana")
    for name in ("Vest", "Plate"):
        await table.slash("character item add", character="Ana", name=name, kind="armor",
                          location="head")
    reply = await table.slash("character item add", character="Ana", name="Helmet",
                              kind="armor", location="head")
    refused(reply, "Ana already has 2 armor on the head; 2 is the most per location.")
    assert len((await stored(table, "Ana")).items) == 2


async def test_abilities(table: Table) -> None:
    await create(table, "Ana", level=60)
    gained = await table.slash("character ability add", character="Ana",
                               ability="unarmed.fight")
    assert gained.content == ("✨ Ana gains Unarmed Combat: Fight unarmed." + still(
        NON_COMBAT, "1 more ability (either kind)", "items for 6 free slots"))
    assert not gained.ephemeral
    good = await table.slash("character ability add", character="Ana",
                             ability="Good at forensic accounting")
    assert good.content == ("✨ Ana is good at forensic accounting."
                            + still("1 more ability (either kind)", "items for 6 free slots"))
    by_title = await table.slash("character ability add", character="Ana",
                                 ability="unarmed combat: good attack")
    assert by_title.content == ("✨ Ana gains Unarmed Combat: Good Attack."
                                + still("items for 6 free slots"))
    text = await sheet(table, "Ana")
    assert text.endswith("Abilities 3 of 3 · 0 free\n"
                         " Good at forensic accounting\n"
                         "Good, precise, powerful\n"
                         " Attack unarmed: good\n"
                         "Special rules\n"
                         " Unarmed Combat: Fight unarmed\n"
                         "   Attack, Counter, Intercept barehanded"), text
    full = await table.slash("character ability add", character="Ana", ability="leader.rally")
    refused(full, "Ana has 3 of 3 abilities; the next comes at max level 70.")
    kept = await table.slash("character ability remove", character="Ana",
                             ability="unarmed.fight")
    refused(kept, "Ana cannot lose Unarmed Combat: Fight unarmed while keeping "
                  "Unarmed Combat: Good Attack.")
    lost = await table.slash("character ability remove", character="Ana",
                             ability="good at forensic accounting")
    assert lost.content == "✨ Ana is no longer good at forensic accounting."


async def test_an_ability_whose_prerequisite_is_missing_is_refused(table: Table) -> None:
    await create(table, "Ana")
    reply = await table.slash("character ability add", character="Ana",
                              ability="unarmed.good_attack")
    refused(reply, "Unarmed Combat: Good Attack requires Unarmed Combat: Fight unarmed, "
                   "which Ana does not have.")
    refused(await table.slash("character ability add", character="Ana", ability="Flying"),
            "There is no combat ability “Flying”", "good at")
    refused(await table.slash("character ability add", character="Ana", ability="Good Attack"),
            "Several abilities are called “Good Attack”")
    assert (await stored(table, "Ana")).abilities == ()


async def test_aoe_weapon_names_its_ability(table: Table) -> None:
    await create(table, "Ana")
    refused(await table.slash("character item add", character="Ana", name="Grenade",
                              kind="aoe"), "Ana needs an AoE ability")
    await table.slash("character ability add", character="Ana", ability="aoe.blast")
    assert await table.autocomplete("character item add", "ability", character="Ana") == [
        "AoE: Blast"]
    reply = await table.slash("character item add", character="Ana", name="Grenade",
                              kind="aoe", ability="aoe.blast")
    assert reply.content == ("🎒 Ana carries Grenade (AoE) in slot 1; 4 of 5 slots are free."
                             + still(NON_COMBAT, "items for 4 free slots",
                                     "what to hold when a fight starts"))
    assert "Grenade (AoE, Blast)" in await sheet(table, "Ana")


async def test_advance_gains_a_slot_at_55_and_stops_at_99(table: Table) -> None:
    await create(table, "Ana", level=54)
    reply = await table.slash("character advance", character="Ana")
    said, panel = reply.messages
    assert said.content == ("⬆️ Ana advances to max level 55 and gains an item slot (6 now). "
                            "`/character panel` fills it.")
    assert not said.ephemeral and panel.ephemeral and "items for 6 free slots" in panel.content
    assert "Level 54/55" in await sheet(table, "Ana")
    await create(table, "Old", level=99)
    capped = await table.slash("character advance", character="Old")
    assert capped.ephemeral
    assert capped.content == "Nothing changed: Old is at max level 99, the highest there is."


async def test_advance_to_60_opens_a_third_ability_with_prerequisites(table: Table) -> None:
    await create(table, "Ana", level=59)
    await table.slash("character ability add", character="Ana", ability="leader.direct")
    await table.slash("character ability add", character="Ana", ability="good at lockpicking")
    assert await table.autocomplete("character ability add", "ability", character="Ana",
                                    ability="leader") == []
    refused(await table.slash("character ability add", character="Ana", ability="leader.rally"),
            "Ana has 2 of 2 abilities; the next comes at max level 60.")
    reply = await table.slash("character advance", character="Ana")
    assert reply.messages[0].content == ("⬆️ Ana advances to max level 60 and may choose "
                                         "another ability "
                             "(3 now). `/character panel` fills it.")
    panel = reply.messages[-1]  # and its author gets the panel that chooses it
    assert panel.ephemeral and "still to choose" in panel.content
    assert "Choose a combat ability" in [s["placeholder"] for s in panel.selects()]
    assert await table.autocomplete("character ability add", "ability", character="Ana",
                                    ability="leader") == [
        "Leader: Good initiative", "Leader: Rally", "Leader: Direct on initiative",
        "Good at leader"]
    assert await table.autocomplete("character ability add", "ability", character="Ana",
                                    ability="unarmed") == ["Unarmed Combat: Fight unarmed",
                                                           "Good at unarmed"]
    refused(await table.slash("character ability add", character="Ana",
                              ability="unarmed.precise_attack"),
            "Unarmed Combat: Precise Attack requires Unarmed Combat: Fight unarmed, which Ana "
            "does not have.")
    refused(await table.slash("character ability add", character="Ana", ability="leader.direct"),
            "Ana already has Leader: Direct.")
    gained = await table.slash("character ability add", character="Ana",
                               ability="leader.initiative_direct")
    assert gained.content == ("✨ Ana gains Leader: Direct on initiative."
                              + still("items for 6 free slots"))
    assert (await stored(table, "Ana")).abilities == ("leader.direct", "leader.initiative_direct")
    refused(await table.slash("character ability remove", character="Ana",
                              ability="leader.direct"),
            "Ana cannot lose Leader: Direct while keeping Leader: Direct on initiative.")


async def test_sheet_groups_abilities_by_action_and_item(table: Table) -> None:
    """/sheet: at a glance, which of good, precise, powerful apply to which action and item, and
    the special rules in one line each; 40 columns, one message."""
    await create(table, "Ana", level=90)
    for ability in ("good at climbing", "melee_2h.good_attack", "melee_2h.powerful_attack",
                    "melee_2h.good_reactions", "leader.good_initiative", "first_aid.sure"):
        added = await table.slash("character ability add", character="Ana", ability=ability)
        assert not added.ephemeral, added.content
    reply = await table.slash("sheet", character="Ana")
    text = code_block(reply.content)
    assert text.endswith(
        "Abilities 6 of 6 · 0 free\n"
        " Good at climbing\n"
        "Good, precise, powerful\n"
        " Attack with 2H melee: good, powerful\n"
        " Counterattack with 2H melee: good\n"
        " Intercept with 2H melee: good\n"
        " Initiative: good\n"
        "Special rules\n"
        " Leader: Good initiative\n"
        "   A higher teammate may let you roll\n"
        " First Aid: Sure success\n"
        f"   Sure success: erase only 1 {S} mark"), text
    assert len(reply.content) <= 2000
    assert all(len(line) <= 40 for line in text.splitlines())


async def test_recover_after_a_fight(table: Table) -> None:
    await create(table, "Ana")
    hurt, _ = take_damage(await stored(table, "Ana"), 4, 2, rules=RULES)
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    await table.bot.store.characters.replace(found, hurt)  # as a fight leaves her
    assert "Level 46/50 · fine" in await sheet(table, "Ana")
    reply = await table.slash("character recover", character="Ana")
    assert reply.content == "❤️‍🩹 Ana recovers: level 46 → 50, 4 wounds erased."
    assert await sheet(table, "Ana") == render_sheet(Character.new("Ana"), rules=RULES)


async def test_rename(table: Table) -> None:
    await create(table, "Ana")
    await create(table, "Bea")
    reply = await table.slash("character rename", character="ana", new_name="Anna  Bell")
    assert reply.content == "✏️ **Ana** is now called **Anna Bell**." and not reply.ephemeral
    refused(await table.slash("character rename", character="Anna Bell", new_name="BEA"),
            "already has a character called **Bea**")
    case = await table.slash("character rename", character="bea", new_name="BEA")
    assert case.content == "✏️ **Bea** is now called **BEA**."
    assert await names(table) == ["Anna Bell", "BEA"]


# -- delete ----------------------------------------------------------------------------------


async def test_delete_asks_to_confirm_and_only_the_owner_or_a_gm_may(table: Table) -> None:
    await create(table, "Ana")
    ask = await table.slash("character delete", character="Ana")
    assert not ask.ephemeral and ask.message.labels == ["Delete character", "Keep character"]
    assert "asks to delete **Ana**" in ask.content
    assert await names(table) == ["Ana"]  # nothing yet
    other = await table.click(ask.message, "Delete character", user=BOB)
    refused(other, f"**Ana** belongs to {ALICE.mention}: only they or a GM may delete it.")
    assert table.message(ask.message.id).labels == ["Delete character", "Keep character"]
    assert await names(table) == ["Ana"]
    kept = await table.click(ask.message, "Keep character")
    assert kept.content == f"🧍 {ALICE.mention} kept **Ana**; nothing was deleted."
    assert kept.message.buttons == []

    again = await table.slash("character delete", character="Ana")
    done = await table.click(again.message, "Delete character")
    assert done.kind == "update" and done.content == (
        f"🗑️ {ALICE.mention} deleted **Ana**. `/character create` makes a new PC.")
    assert done.message.buttons == []
    assert await names(table) == []
    refused(await table.slash("sheet", character="Ana"), "There is no character called “Ana”")


async def test_a_gm_may_confirm_and_a_stale_button_changes_nothing(table: Table) -> None:
    await create(table, "Ana")
    ask = await table.slash("character delete", character="Ana")
    stale = ask.message
    await table.click(ask.message, "Delete character", user=GM)
    await create(table, "Ana")  # a new Ana, perhaps with the old one's id
    again = await table.click_stale(stale, "Delete character")
    refused(again, "That character is already deleted; nothing changed.")
    assert await names(table) == ["Ana"]


async def test_delete_confirmation_works_after_a_restart(table: Table) -> None:
    await create(table, "Ana")
    ask = await table.slash("character delete", character="Ana")
    await table.restart()
    done = await table.click(ask.message, "Delete character")
    assert done.content == (f"🗑️ {ALICE.mention} deleted **Ana**. `/character create` makes a "
                            "new PC.")
    assert await names(table) == []


# -- permissions -----------------------------------------------------------------------------


async def test_a_player_cannot_change_someone_elses_pc(table: Table) -> None:
    await create(table, "Ana")
    before = await sheet(table, "Ana")
    why = f"**Ana** belongs to {ALICE.mention}: only they or a GM may"
    attempts = [
        ("character item add", {"name": "Knife", "kind": "melee_1h"}),
        ("character ability add", {"ability": "leader.rally"}),
        ("character advance", {}),
        ("character recover", {}),
        ("character item stow", {}),
    ]
    for command, options in attempts:
        refused(await table.slash(command, user=BOB, character="Ana", **options), why)
    refused(await table.slash("character rename", user=BOB, character="Ana", new_name="Mine"),
            f"{why} rename it.")
    refused(await table.slash("character delete", user=BOB, character="Ana"),
            f"{why} delete it.")
    assert await sheet(table, "Ana") == before
    assert await names(table) == ["Ana"]


async def test_a_player_cannot_change_any_npc_even_one_they_made(table: Table) -> None:
    await create(table, "Goon", user=GM, npc=True)
    reply = await table.slash("character advance", user=BOB, character="Goon")
    refused(reply, "**Goon** is an NPC: only a GM may change it.", "`/gm role`")
    assert (await stored(table, "Goon")).max_level == 50


async def test_a_gm_may_change_any_character(table: Table) -> None:
    await create(table, "Ana")
    await create(table, "Goon", user=GM, npc=True)
    reply = await table.slash("character item add", user=GM, character="Ana", name="Knife",
                              kind="melee_1h")
    assert reply.content.startswith("🎒 Ana carries Knife") and not reply.ephemeral
    assert (await table.slash("character advance", user=GM, character="Goon")).content == (
        "⬆️ Goon advances to max level 51.")
    renamed = await table.slash("character rename", user=GM, character="Ana", new_name="Ann")
    assert not renamed.ephemeral
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ann")
    assert found is not None and found.owner_id == ALICE.id  # still Alice's PC


# -- export and import -------------------------------------------------------------------------


async def _equipped_ana(table: Table) -> str:
    await create(table, "Ana", level=61)
    await table.slash("character item add", character="Ana", name="Riot shield", kind="shield")
    await table.slash("character item add", character="Ana", name="Pistol", kind="ranged_1h")
    await table.slash("character item add", character="Ana", name="Vest", kind="armor",
                      location="torso")
    await table.slash("character item hold", character="Ana", item="Pistol", hand="right")
    await table.slash("character ability add", character="Ana", ability="leader.direct")
    await table.slash("character ability add", character="Ana", ability="good at lockpicking")
    hurt, _ = take_damage(await stored(table, "Ana"), 4, 2, rules=RULES)
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    await table.bot.store.characters.replace(found, hurt)
    return await sheet(table, "Ana")


async def test_export_then_import_gives_the_same_character(table: Table) -> None:
    before = await _equipped_ana(table)
    exported = await table.slash("character export", user=BOB, character="Ana")
    assert exported.ephemeral
    pasted = code_block(exported.content)
    data = json.loads(pasted)
    assert data["schema_version"] == 1 and data["name"] == "Ana"
    assert "npc" not in data and "surrendered" not in data  # defaults are left out
    await table.slash("character rename", character="Ana", new_name="Ana old")

    opened = await table.slash("character import", user=BOB)
    assert opened.kind == "modal" and opened.modal is not None
    assert PASTE_LABEL in opened.modal.fields
    copied = exported.content[exported.content.index("```"):]  # fences and all, as copied
    done = await table.submit(opened.modal, {PASTE_LABEL: copied}, user=BOB)
    assert not done.ephemeral
    assert done.content == (f"📥 {BOB.mention} imported **Ana**: a PC at level 57/61."
                            + still("1 more ability (either kind)", "items for 3 free slots")
                            + " `/sheet character:Ana` shows the sheet.")
    assert await sheet(table, "Ana") == before
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None and found.owner_id == BOB.id  # the importer's PC now


async def test_importing_a_name_the_server_has_is_refused(table: Table) -> None:
    await create(table, "Ana")
    exported = await table.slash("character export", character="Ana")
    opened = await table.slash("character import", user=BOB)
    reply = await table.submit(opened.modal, {PASTE_LABEL: code_block(exported.content)},
                               user=BOB)
    refused(reply, "This server already has a character called **Ana**", "Nothing was saved.")
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None and found.owner_id == ALICE.id


async def test_a_bad_paste_gets_the_exact_problem_and_nothing_is_saved(table: Table) -> None:
    opened = await table.slash("character import")
    broken = '{"name": "Ana", "level": 50,'
    reply = await table.submit(opened.modal, {PASTE_LABEL: broken})
    refused(reply, "That character is not valid: Invalid JSON: it ends too early, at line 1, "
            "column 28.",
            "Nothing was saved.", broken)
    too_many = json.dumps({"schema_version": 1, "name": "Ana", "level": 50, "max_level": 50,
                           "items": [{"name": f"Knife {n}", "kind": "melee_1h"}
                                     for n in range(6)]})
    opened = await table.slash("character import")
    reply = await table.submit(opened.modal, {PASTE_LABEL: too_many})
    refused(reply, "Ana has 5 item slots but carries 6 items.", "Nothing was saved.")
    missing = json.dumps({"name": "Ana", "level": 50, "max_level": 50,
                          "abilities": ["leader.initiative_direct"]})
    opened = await table.slash("character import")
    reply = await table.submit(opened.modal, {PASTE_LABEL: missing})
    refused(reply, "Ana has Leader: Direct on initiative, which requires Leader: Direct.")
    assert await names(table) == []


async def test_only_a_gm_imports_an_npc(table: Table) -> None:
    npc = json.dumps({"name": "Goon", "level": 40, "max_level": 40, "npc": True})
    opened = await table.slash("character import", user=BOB)
    refused(await table.submit(opened.modal, {PASTE_LABEL: npc}, user=BOB),
            "Only a GM may import an NPC.")
    assert await names(table) == []
    opened = await table.slash("character import", user=GM)
    done = await table.submit(opened.modal, {PASTE_LABEL: npc}, user=GM)
    assert "imported **Goon**: an NPC at level 40/40." in done.content


async def test_the_biggest_character_exports_in_one_message(table: Table) -> None:
    c = Character.new("W" * 32, level=99)
    for ability in ("unarmed.fight", "unarmed.good_attack", "unarmed.good_reactions",
                    "unarmed.precise_attack", "unarmed.stop_movement"):
        c, _ = add_ability(c, ability, rules=RULES)
    c, _ = add_good_at(c, "g" * 60, rules=RULES)
    locations = [loc.id for loc in RULES.body.locations]
    for n in range(10):
        c, _ = add_item(c, f"{n}" + "i" * 39, "armor", location=locations[n % 6], rules=RULES)
    c = c.model_copy(update={"wounds": {loc.id: "■" * loc.boxes
                                        for loc in RULES.body.locations}})
    await table.bot.store.characters.add(guild_id=900_000_000_000_000_100, owner_id=ALICE.id,
                                         character=c)
    reply = await table.slash("character export", character="W" * 32)  # the harness checks 2,000
    assert json.loads(code_block(reply.content))["name"] == "W" * 32


async def test_an_export_too_long_for_a_message_comes_as_a_file(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    files: list[tuple[str, str]] = []
    patched = AsyncWebhookAdapter.request

    async def spy(adapter: AsyncWebhookAdapter, route: Any, session: Any = None,
                  **kwargs: Any) -> Any:
        for part in kwargs.get("multipart") or []:
            if "filename" in part:
                files.append((part["filename"], part["value"].read().decode()))
                part["value"].seek(0)
        return await patched(adapter, route, session, **kwargs)

    monkeypatch.setattr(AsyncWebhookAdapter, "request", spy)
    # Quotes and backslashes take two characters each in JSON.
    c = Character.new('Q"', level=99)
    c, _ = add_ability(c, "leader.rally", rules=RULES)
    for n in range(5):
        c, _ = add_good_at(c, f"{n}" + '"' * 59, rules=RULES)
    for n in range(10):
        c, _ = add_item(c, f"{n}" + "\\" * 39, "ammo", less_lethal=True, rules=RULES)
    c = c.model_copy(update={"items": tuple(i.model_copy(update={"destroyed": True})
                                            for i in c.items)})
    await table.bot.store.characters.add(guild_id=900_000_000_000_000_100, owner_id=ALICE.id,
                                         character=c)
    reply = await table.slash("character export", character='Q"')
    assert reply.ephemeral and "too long for one message, so it is attached" in reply.content
    assert [name for name, _ in files] == ["Q.json"]
    opened = await table.slash("character import", user=BOB)
    await table.slash("character rename", character='Q"', new_name="Old Q")
    done = await table.submit(opened.modal, {PASTE_LABEL: files[0][1]}, user=BOB)
    assert 'imported **Q"**' in done.content
    assert await stored(table, 'Q"') == c


# -- autocomplete ------------------------------------------------------------------------------


async def test_character_options_offer_what_the_user_may_see_or_change(table: Table) -> None:
    await create(table, "Ana")
    await create(table, "Bea", user=BOB)
    await create(table, "Goon", user=GM, npc=True)
    assert await table.autocomplete("sheet", "character") == ["Ana", "Bea", "Goon (NPC)"]
    assert await table.autocomplete("sheet", "character", user=BOB) == [
        "Bea", "Ana", "Goon (NPC)"]  # their own first
    assert await table.autocomplete("character export", "character", character="o") == [
        "Goon (NPC)"]
    for command in ("character item add", "character advance", "character delete",
                    "character rename", "character ability add"):
        assert await table.autocomplete(command, "character") == ["Ana"], command
    assert await table.autocomplete("character advance", "character", user=GM) == [
        "Ana", "Bea", "Goon (NPC)"]
    assert await table.autocomplete("character advance", "character", character="b") == []


async def test_item_options_offer_the_characters_items(table: Table) -> None:
    await create(table, "Ana")
    await table.slash("character item add", character="Ana", name="Riot shield", kind="shield")
    await table.slash("character item add", character="Ana", name="Vest", kind="armor",
                      location="torso")
    await table.slash("character item hold", character="Ana", item="1")
    assert await table.autocomplete("character item remove", "item", character="Ana") == [
        "1. Riot shield (shield) [right hand]", "2. Vest (armor, torso)"]
    assert await table.autocomplete("character item hold", "item", character="Ana") == [
        "1. Riot shield (shield) [right hand]"]  # armor is never held
    assert await table.autocomplete("character item remove", "item", character="Ana",
                                    item="ves") == ["2. Vest (armor, torso)"]
    assert await table.autocomplete("character item remove", "item", character="Nobody") == []


async def test_ability_options_offer_what_the_character_may_take_or_has(table: Table) -> None:
    await create(table, "Ana")
    offered = await table.autocomplete("character ability add", "ability", character="Ana",
                                       ability="unarmed")
    assert offered == ["Unarmed Combat: Fight unarmed", "Good at unarmed"]  # no prerequisites
    await table.slash("character ability add", character="Ana", ability="unarmed.fight")
    # The one combat ability a level-50 character has room for is taken: only "good at" left.
    assert await table.autocomplete("character ability add", "ability", character="Ana",
                                    ability="good at sneaking") == ["Good at sneaking"]
    await table.slash("character ability add", character="Ana", ability="good at sneaking")
    assert await table.autocomplete("character ability add", "ability", character="Ana",
                                    ability="x") == []
    assert await table.autocomplete("character ability remove", "ability", character="Ana") == [
        "Unarmed Combat: Fight unarmed", "Good at sneaking"]
    await create(table, "Bea", level=60)
    await table.slash("character ability add", character="Bea", ability="unarmed.fight")
    offered = await table.autocomplete("character ability add", "ability", character="Bea",
                                       ability="unarmed")
    assert offered == ["Unarmed Combat: Good Attack", "Unarmed Combat: Good Counterattack & "
                       "Intercept", "Unarmed Combat: Precise Attack",
                       "Unarmed Combat: Stop a move", "Good at unarmed"]


# -- restart and the store ----------------------------------------------------------------------


async def test_characters_survive_a_restart(table: Table) -> None:
    await create(table, "Ana")
    await table.slash("character item add", character="Ana", name="Riot shield", kind="shield")
    await table.slash("character ability add", character="Ana", ability="leader.direct")
    before = await sheet(table, "Ana")
    await table.restart()
    assert await sheet(table) == before
    reply = await table.slash("character item hold", character="Ana", item="1")
    assert reply.content == ("✋ Ana has Riot shield in the right hand."
                             + still(NON_COMBAT, "items for 4 free slots"))
    refused(await table.slash("character create", user=BOB, name="ana"), "already has")


async def test_an_import_form_left_open_across_a_restart_still_works(table: Table) -> None:
    opened = await table.slash("character import", user=BOB)
    await table.restart()
    paste = json.dumps({"name": "Bea", "level": 55, "max_level": 55})
    done = await table.submit(opened.modal, {PASTE_LABEL: paste}, user=BOB)
    assert done.content == (f"📥 {BOB.mention} imported **Bea**: a PC at level 55/55."
                            + still(NON_COMBAT, COMBAT, "items for 6 free slots")
                            + " `/sheet character:Bea` shows the sheet.")
    assert await names(table) == ["Bea"]


async def test_a_change_saved_meanwhile_is_not_overwritten(table: Table) -> None:
    await create(table, "Ana")
    characters = table.bot.store.characters
    first = await characters.get(900_000_000_000_000_100, "Ana")
    assert first is not None
    advanced = first.character.model_copy(update={"max_level": 51})
    assert await characters.replace(first, advanced) is not None
    stale = await characters.replace(first, first.character.model_copy(update={"level": 10}))
    assert stale is None
    assert (await stored(table, "Ana")).max_level == 51
    assert (await stored(table, "Ana")).level == 50
