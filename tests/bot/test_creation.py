"""Making a character as the book tells it, through the real dispatch: the form (name,
concept, description), what is still to choose and where, the form after a restart."""

from __future__ import annotations

import pytest

from engine.character import still_to_choose
from testbed.harness import ALICE, BOB, GM, GUILD_ID, Table

pytestmark = pytest.mark.both_engines


async def test_the_form_makes_a_character_and_says_what_is_left(table: Table) -> None:
    opened = await table.slash("character create")
    assert opened.kind == "modal" and opened.modal is not None
    assert list(opened.modal.fields) == ["Name", "Concept", "Description"]
    made = await table.submit(opened.modal, {"Name": "Ana", "Concept": "Ex-cop turned bouncer",
                                             "Description": "Tall and tired.\nPolite."})
    assert not made.answer.ephemeral
    assert made.answer.content == (
        f"🧍 {ALICE.mention} created **Ana**: a PC at level 50/50. Still to choose: 1 "
        "non-combat ability (`/character ability add`); 1 combat ability (`/character "
        "ability add`); items for 5 free slots (`/character item add`), or all at once with "
        "`/character panel`. `/sheet character:Ana` shows the sheet.")
    assert made.message.ephemeral and "still to choose" in made.message.content
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    assert (found.character.concept, found.character.description) == (
        "Ex-cop turned bouncer", "Tall and tired. Polite.")


async def test_the_book_s_starting_character_from_the_form_and_commands(table: Table) -> None:
    opened = await table.slash("character create", level=50)
    await table.submit(opened.modal, {"Name": "Ana", "Concept": "Bouncer"})
    await table.slash("character ability add", character="Ana", ability="good at lockpicking")
    await table.slash("character ability add", character="Ana",
                      ability="melee_1h.good_attack")
    for name in ("Knife", "Baton", "Cosh", "Shiv", "Bat"):
        await table.slash("character item add", character="Ana", name=name, kind="melee_1h")
    await table.slash("character item hold", character="Ana", item="Knife")
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None and still_to_choose(found.character) == ()


async def test_the_form_still_works_after_a_restart(table: Table) -> None:
    opened = await table.slash("character create", level=61)
    await table.restart()
    made = await table.submit(opened.modal, {"Name": "Ana"})
    assert "a PC at level 61/61" in made.answer.content
    assert "items for 6 free slots" in made.answer.content


async def test_the_form_refuses_what_the_command_refuses(table: Table) -> None:
    refused = await table.slash("character create", user=BOB, npc=True)
    assert refused.ephemeral and refused.modal is None
    await table.slash("character create", name="Ana")
    opened = await table.slash("character create", user=BOB)
    taken = await table.submit(opened.modal, {"Name": "ana"}, user=BOB)
    assert taken.ephemeral and "already has a character" in taken.content


async def test_the_form_and_the_panel_alone_make_the_book_s_starting_character(
        table: Table) -> None:
    opened = await table.slash("character create")
    made = await table.submit(opened.modal, {"Name": "Ana", "Concept": "Bouncer"})
    panel = made.message
    assert panel.ephemeral and [s["placeholder"] for s in panel.selects()] == [
        "Choose a combat ability", "Add an item: its kind"]
    good = await table.click(panel, "Non-combat ability…")
    done = await table.submit(good.modal, {"Good at": "lockpicking"}, message=panel)
    assert "good at lockpicking" in done.messages[-1].content
    await table.restart()  # the panel keeps working
    kind = await table.pick(panel, "1H Melee…")  # the kinds first: 33 abilities are open
    assert kind.kind == "update" and [m.id for m in kind.messages] == [panel.id]  # nothing said
    assert table.message(panel.id).selects()[0]["placeholder"] == (
        "Choose a combat ability: 1H Melee")
    chosen = await table.pick(panel, "1H Melee: Good Attack")
    assert not chosen.messages[-1].ephemeral
    for name in ("Knife", "Baton", "Cosh", "Shiv"):
        form = await table.choose(panel, ["melee_1h"], index=0)
        await table.submit(form.modal, {"Name": name}, message=panel)
    form = await table.choose(panel, ["armor"], index=0)
    await table.submit(form.modal, {"Name": "Vest", "Location it covers": "torso"},
                       message=panel)
    held = await table.choose(panel, ["0"], index=0)
    assert held.messages[-1].content.startswith("✋")
    assert "is ready: the book's starting character" in table.message(panel.id).content
    found = await table.bot.store.characters.get(900_000_000_000_000_100, "Ana")
    assert found is not None
    c = found.character
    assert (c.good_at, c.abilities, len(c.items), c.right_hand) == (
        ("lockpicking",), ("melee_1h.good_attack",), 5, 0)
    assert still_to_choose(c) == ()
    for message in (*made.messages, *done.messages, *held.messages):
        assert len(message.content) <= 2000


async def test_the_panel_asks_what_an_item_s_kind_needs(table: Table) -> None:
    """Ammo says whether it is less-lethal; an AoE weapon needs an AoE ability, and names
    which when the character has several; armor picks its location from a menu."""
    await table.slash("character create", name="Bo", level=70)
    panel = (await table.slash("character panel", character="Bo")).message
    kind_menu = [s["placeholder"] for s in panel.selects()].index("Add an item: its kind")
    assert "aoe" not in [o["value"] for o in panel.selects()[kind_menu]["options"]]
    refused = await table.choose(panel, ["aoe"], index=kind_menu)  # a stale or forged pick
    assert refused.ephemeral and refused.modal is None
    assert "needs an AoE ability" in refused.content
    ammo = await table.choose(panel, ["ammo"], index=kind_menu)
    assert set(ammo.modal.menus) == {"Less-lethal?"}
    await table.submit(ammo.modal, {"Name": "Darts", "Less-lethal?": "yes"}, message=panel)
    for ability in ("AoE: Blast", "AoE: Cover"):
        await table.slash("character ability add", character="Bo", ability=ability)
    panel = (await table.slash("character panel", character="Bo")).message
    kind_menu = [s["placeholder"] for s in panel.selects()].index("Add an item: its kind")
    aoe = await table.choose(panel, ["aoe"], index=kind_menu)
    assert aoe.modal.menus["For the ability"][1] == ["aoe.blast", "aoe.cover"]
    await table.submit(aoe.modal, {"Name": "Smoke", "For the ability": "aoe.cover"},
                       message=panel)
    armor = await table.choose(panel, ["armor"], index=kind_menu)
    assert "torso" in armor.modal.menus["Location it covers"][1]
    await table.submit(armor.modal, {"Name": "Helmet", "Location it covers": "head"},
                       message=panel)
    found = await table.bot.store.characters.get(GUILD_ID, "Bo")
    assert found is not None
    darts, smoke, helmet = found.character.items
    assert (darts.less_lethal, smoke.ability, helmet.location) == (True, "aoe.cover", "head")


async def test_a_kind_the_menu_never_offered_is_refused_and_opens_nothing(table: Table) -> None:
    """An outdated client or a forged payload may name a kind the rules do not know."""
    await table.slash("character create", name="Bo", level=70)
    panel = (await table.slash("character panel", character="Bo")).message
    kind_menu = [s["placeholder"] for s in panel.selects()].index("Add an item: its kind")
    for forged in ("dragon", "A" * 30):
        refused = await table.choose(panel, [forged], index=kind_menu)
        assert refused.ephemeral and refused.modal is None
        assert "not a kind of item the rules know" in refused.content


def _hold_menu(table: Table, panel_id: int) -> tuple[int, dict]:
    selects = table.message(panel_id).selects()
    index = next(i for i, s in enumerate(selects)
                 if s["placeholder"].startswith("In hand when a fight starts"))
    return index, selects[index]


async def test_the_panel_holds_a_1h_item_in_each_hand_or_one_2h_item(table: Table) -> None:
    """004 "Items": "the top slot(s) on the sheet for the items you typically want in your
    hands at the start of combat"; two hands: a 1H item in each, or one 2H item."""
    await table.slash("character create", name="Ana")
    for name, kind in (("Knife", "melee_1h"), ("Shield", "shield"), ("Rifle", "ranged_2h"),
                       ("Pistol", "ranged_1h")):
        await table.slash("character item add", character="Ana", name=name, kind=kind)
    panel = (await table.slash("character panel", character="Ana")).message
    assert panel.content.endswith(
        "still to choose: 1 non-combat ability; 1 combat ability; an item for 1 free slot; "
        "what to hold when a fight starts.\n✋ **In hand when a fight starts** (the last "
        "menu: a 1H item per hand, or one 2H): nothing yet.")
    index, menu = _hold_menu(table, panel.id)
    assert menu["max_values"] == 2
    assert [o["description"] for o in menu["options"]][1:3] == [
        "Shield: one hand", "2H ranged weapon: both hands"]

    both = await table.choose(panel, ["0", "1"], index=index)

    assert both.messages[-1].content == (
        "✋ Ana has Knife in the right hand and Shield in the left hand.")
    assert "what to hold" not in table.message(panel.id).content
    assert table.message(panel.id).content.endswith(
        "(the last menu: a 1H item per hand, or one 2H): Knife in the right hand and Shield "
        "in the left hand.")
    _, menu = _hold_menu(table, panel.id)
    assert [o["value"] for o in menu["options"] if o.get("default")] == ["0", "1"]
    for picked, why in ((["2", "0"], "Rifle needs both hands: hold it alone."),
                        (["1", "3"], "cannot use Pistol and Shield at the same time")):
        refused = await table.choose(panel, picked, index=index)
        assert refused.ephemeral and why in refused.content, refused.content
    rifle = await table.choose(panel, ["2"], index=index)
    assert rifle.messages[-1].content == "✋ Ana has Rifle in both hands."
    found = await table.bot.store.characters.get(GUILD_ID, "Ana")
    assert found is not None and (found.character.right_hand, found.character.left_hand) == (
        2, 2)


async def test_an_npc_is_not_reminded_of_a_non_combat_ability(table: Table) -> None:
    made = await table.slash("character create", user=GM, name="Goon", npc=True)
    assert "non-combat" not in made.content
    panel = (await table.slash("character panel", user=GM, character="Goon")).message
    assert panel.content.endswith("still to choose: 1 combat ability; items for 5 free slots.")
