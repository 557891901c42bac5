"""Questions alike, answered one by one, through the real dispatch path: the prompt's
**One by one…** menu lists the fighters asked; a pick shows the GM alone that fighter's own
buttons, which follow the fighter to its next question. The rulebook's Blast example (004
"Blast") with its enemies as the GM's numbered goons, each placing the damage its own way by
buttons alone; one goon of ten Defending while the nine take **All 9**; the ``as:``
autocomplete of a reaction command listing those asked first."""

from __future__ import annotations

import pytest

from bot.cogs.combat import views
from bot.cogs.combat.views import OUT_OF_DATE
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character, arm_with_grenade, give_ammo, start_fight
from tests.bot.test_questions_alike import ten_goons_caught

LOCATIONS = ["Head", "Right arm", "Left arm", "Torso", "Right leg", "Left leg"]


async def _book_blast(table: Table) -> Message:
    """004 "Blast": "You choose an area at a range of 1 ... roll a 42 ... You choose 4 for
    damage and 2 for additional targets. There are three enemies and one ally in the area, so
    you choose the three enemies." Ana throws; Cy (her ally) and Goon 1-3 (the GM's, level 60,
    a Vest on the torso) are on the Dance Floor. Goon 1 Defends with a 50; the other two take
    the damage. The prompt asking where it goes."""
    await add_character(table, "Ana", level=50, weapon=None)
    await arm_with_grenade(table, "Ana", user=ALICE)
    await add_character(table, "Cy", user=BOB, level=40)
    await add_character(table, "Boss", user=GM, level=70, npc=True)
    await add_character(table, "Goon", user=GM, level=60, npc=True)
    vest = await table.slash("character item add", user=GM, character="Goon", name="Vest",
                             kind="armor", location="torso")
    assert not vest.ephemeral, vest.content
    copied = await table.slash("character copy", user=GM, character="Goon", count=3)
    assert not copied.ephemeral, copied.content
    await start_fight(table, ("Ana", "Entrance"), ("Cy", "Dance Floor"), ("Boss", "Bar"),
                      user_of={"Ana": ALICE, "Cy": BOB})
    added = await table.slash("combat addmany", user=GM, area="Dance Floor",
                              characters="Goon 1-3")
    assert not added.ephemeral, added.content
    table.dice(3, 4, 8, 5)  # Ana's 34 wins initiative; the Boss's 85 fails
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)
    table.dice(4, 2)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Tens die: 4", user=ALICE)
    said = chose.answer.content
    assert "The blast takes Goon 1-3." in said, said  # the enemies, not Cy
    # one line for the three, its time said once
    assert ("Goon 1-3 may Defend against the blast (spending an action) or take the damage "
            "(within 45 seconds).") in said, said
    defend = chose.prompt
    assert defend.content.startswith("**Goon 1-3 (GM)** is caught in a blast"), defend.content
    assert defend.content.count("is caught in a blast") == 1, defend.content  # asked once
    await table.click(defend, "Goon 1: Defend", user=GM)
    await table.click(table.channel_messages()[-1], "Goon 2: Take the damage", user=GM)
    table.dice(5, 0)  # Goon 1's Defend: 50
    last = await table.click(table.channel_messages()[-1], "Take the damage", user=GM)
    assert "Goon 1's Defend (50) beats 42: no damage." in last.answer.content
    return last.prompt


async def test_the_books_blast_two_goons_place_the_damage_each_their_own_way(
        table: Table) -> None:
    place = await _book_blast(table)
    assert place.content.startswith(
        "**Goon 2-3 (GM)** places the AoE damage, one point per click: 4 of 4 left"), \
        place.content
    assert place.labels == [f"All 2: {where}" for where in LOCATIONS]
    assert [(s["placeholder"], [o["label"] for o in s["options"]])
            for s in place.selects()] == [("One by one…", ["Goon 2", "Goon 3"])]
    assert (await table.pick(place, "Goon 2", user=ALICE)).ephemeral  # the GM decides
    # "One decides to take all 4 in the torso and destroys the slot of armor there"
    opened = await table.pick(place, "Goon 2", user=GM)
    panel = opened.message
    assert panel.ephemeral and panel.labels == LOCATIONS
    assert panel.content == ("**Goon 2 (GM)** places the AoE damage, one point per click: 4 of "
                             "4 left")
    for left in (3, 2, 1, 0):
        pressed = await table.click(panel, "Torso", user=GM)
        assert pressed.kind == "update"  # the panel follows Goon 2
        rest = f"{left} left to place" if left else "all 4 placed"
        told = pressed.messages[1]  # said to the table, after the panel: never a bare "Done."
        assert not told.ephemeral and told.content == f"Goon 2: 1 point to the torso ({rest}).", \
            told.content
        panel = table.message(panel.id)
        if left:
            assert panel.content.endswith(f"{left} of 4 left (placed: torso {4 - left})"), \
                panel.content
    assert "has armor where the AoE damage goes" in panel.content, panel.content
    assert panel.labels == ["Destroy armor", "Take the damage"]
    await table.click(panel, "Destroy armor", user=GM)
    panel = table.message(panel.id)
    assert panel.labels == [] and panel.content.startswith("Nothing waits for Goon 2 now")
    # "The other takes 2 points in each leg": on the prompt, Goon 3 alone is asked now
    place = table.channel_messages()[-1]
    assert place.content == ("**Goon 3 (GM)** places the AoE damage, one point per click: 4 "
                             "of 4 left")
    for where in ("Right leg", "Right leg", "Left leg", "Left leg"):
        place = (await table.click(place, where, user=GM)).prompt
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None
    goon2, goon3 = (fight.state.fighter(n).character for n in ("Goon 2", "Goon 3"))
    assert goon2.level == 60 and goon2.marks("torso") == ""
    assert [item.destroyed for item in goon2.items if item.name == "Vest"] == [True]
    assert goon3.level == 56
    assert goon3.marks("right_leg") == "\\\\" and goon3.marks("left_leg") == "\\\\"
    status = await table.slash("combat status", user=GM)
    assert "Goon 2 [NPCs] Dance Floor 60/60" in status.content, status.content
    assert "Goon 3 [NPCs] Dance Floor 56/60" in status.content, status.content


async def test_one_goon_of_ten_defends_while_the_nine_take_all(table: Table) -> None:
    defend = await ten_goons_caught(table)
    assert [o["label"] for s in defend.selects() for o in s["options"]] == [
        f"Goon {n}" for n in range(1, 11)]
    opened = await table.pick(defend, "Goon 3", user=GM)
    assert opened.message.ephemeral and opened.message.labels == ["Defend", "Take the damage"]
    stale = opened.message
    table.dice(1, 0)
    await table.click(stale, "Defend", user=GM)
    panel = table.message(stale.id)
    assert panel.labels == [] and panel.content.startswith("Nothing waits for Goon 3 now")
    late = await table.click_stale(stale, "Defend", user=GM)  # the panel's old button
    assert late.ephemeral and late.content == OUT_OF_DATE
    rest = table.channel_messages()[-1]
    assert rest.content.startswith("**Goon 1-2,4-10 (GM)** is caught in a blast"), rest.content
    assert rest.labels == ["All 9: Defend", "All 9: Take the damage", "Resolve now (GM)"]
    took = await table.click(rest, "All 9: Take the damage", user=GM)
    said = took.said
    assert "Goon 3's Defend (10) does not beat 49." in said, said
    assert said.startswith("Goon 1-2,4-10 do not defend.\n"), said
    assert "Goon 3 does not defend" not in said, said


async def test_the_as_autocomplete_of_a_reaction_lists_those_asked_first(table: Table) -> None:
    """Ana leaves the Dance Floor past seven armed goons of the GM's: /intercept's ``as:``
    lists the seven asked before the fighters who were not."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Boss", user=GM, level=60, npc=True, weapon=None)
    await add_character(table, "Rat", user=GM, level=24, npc=True,
                        weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Rat")
    copied = await table.slash("character copy", user=GM, character="Rat", count=7)
    assert not copied.ephemeral, copied.content
    await start_fight(table, ("Ana", "Dance Floor"), ("Boss", "Bar"), user_of={"Ana": ALICE})
    added = await table.slash("combat addmany", user=GM, area="Dance Floor",
                              characters="Rat 1-7")
    assert not added.ephemeral, added.content
    table.dice(3, 4, 8, 5)
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)
    moved = await table.slash("move", user=ALICE, to="Entrance")
    assert "Rat 1-7 may intercept or pass (within 45 seconds)." in moved.answer.content, \
        moved.answer.content
    offered = await table.autocomplete("intercept", "as", user=GM)
    assert offered == [*(f"Rat {n}" for n in range(1, 8)), "Ana", "Boss"], offered
    assert await table.autocomplete("intercept", "as", user=GM, **{"as": "Rat 1"}) == [
        "Rat 1"]


async def test_a_pick_from_a_menu_in_a_fighters_panel_follows_the_fighter(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """A panel shows a question of more than ten answers as a menu; no fight asks one yet of
    fighters alike, so the six places of AoE damage stand for it here (menus past five
    buttons). A pick applies as the panel's buttons do, and the panel follows the goon."""
    place = await _book_blast(table)
    monkeypatch.setattr(views, "MOST_BUTTONS", 5)
    panel = (await table.pick(place, "Goon 2", user=GM)).message
    assert panel.labels == [] and [o["label"] for s in panel.selects()
                                   for o in s["options"]] == LOCATIONS
    picked = await table.pick(panel, "Torso", user=GM)
    assert picked.kind == "update", picked.kind  # the panel itself, edited
    told = picked.messages[1]
    assert told.content == "Goon 2: 1 point to the torso (3 left to place).", told.content
    panel = table.message(panel.id)
    assert panel.content.endswith("3 of 4 left (placed: torso 1)"), panel.content
    again = await table.pick(panel, "Torso", user=GM)  # the refreshed menu is the newest
    assert again.kind == "update" and not again.messages[1].ephemeral, again.messages
    assert table.message(panel.id).content.endswith("2 of 4 left (placed: torso 2)")
