"""NPCs by the dozen, through the real dispatch path: `/character copy` makes numbered NPC
copies of a character in one go, and `/combat addmany` puts several characters in a fight at
once ("Goon 1-5, Boss"), same area and team, in one step."""

from __future__ import annotations

import pytest

from bot.store.values import NameTaken
from engine.character import Character
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, GUILD_ID, OTHER_CHANNEL_ID, Reply, Table
from tests.bot.fights import add_character, start_fight

pytestmark = pytest.mark.both_engines

MESSAGE_LIMIT = 2000
#: What a `/combat add` or `/combat addmany` answer says next, with one team in the fight, then
#: with two.
OTHER_SIDE = ("\n-# Next: `/combat add` the other side (a fight needs two teams), then a GM runs "
              "`/combat begin`.")
ADD_MORE = "\n-# Next: add more with `/combat add`, or a GM runs `/combat begin`."


async def names(table: Table) -> list[str]:
    return [e.name for e in await table.bot.store.characters.entries(GUILD_ID)]


async def stored(table: Table, name: str) -> Character:
    found = await table.bot.store.characters.get(GUILD_ID, name)
    assert found is not None, f"no character {name}"
    return found.character


def public(reply: Reply) -> str:
    """The interaction's own answer, for the table to see."""
    assert reply.kind == "message" and not reply.answer.ephemeral, reply.content
    assert len(reply.answer.content) <= MESSAGE_LIMIT
    return reply.answer.content


def refused(reply: Reply, *parts: str) -> None:
    assert reply.kind == "message" and reply.ephemeral, reply.content
    assert len(reply.content) <= MESSAGE_LIMIT
    for part in parts:
        assert part in reply.content, reply.content


async def goon(table: Table) -> None:
    """Goon: an NPC at 40 with a knife in hand, armor, and two abilities."""
    await add_character(table, "Goon", user=GM, level=40, npc=True)
    for options in ({"name": "Vest", "kind": "armor", "location": "torso"},):
        public(await table.slash("character item add", user=GM, character="Goon", **options))
    public(await table.slash("character ability add", user=GM, character="Goon",
                             ability="good at brawling"))
    choices = await table.autocomplete("character ability add", "ability", user=GM,
                                       character="Goon", ability="")
    public(await table.slash("character ability add", user=GM, character="Goon",
                             ability=choices[0]))


# -- copies ---------------------------------------------------------------------------------


async def test_copies_take_the_sheet_items_hands_and_abilities(table: Table) -> None:
    await goon(table)
    reply = await table.slash("character copy", user=GM, character="Goon", count=5)
    text = public(reply)
    assert text.startswith(f"👥 {GM.mention} made 5 NPC copies of **Goon** (level 40/40, "
                           "2 items, 2 abilities each): **Goon 1** to **Goon 5**."), text
    assert "`/combat addmany characters:Goon 1-5`" in text
    original = await stored(table, "Goon")
    assert await names(table) == ["Goon", *(f"Goon {n}" for n in range(1, 6))]
    for n in range(1, 6):
        copy = await stored(table, f"Goon {n}")
        assert copy.npc and copy.name == f"Goon {n}"
        assert copy.model_copy(update={"name": "Goon"}) == original
        right = copy.held("right")
        assert right is not None and copy.items[right].name == "Knife"
    entries = {e.name: e for e in await table.bot.store.characters.entries(GUILD_ID)}
    assert entries["Goon 3"].owner_id == GM.id and entries["Goon 3"].npc


async def test_numbering_continues_after_the_highest_and_a_name_may_be_given(
        table: Table) -> None:
    await goon(table)
    public(await table.slash("character copy", user=GM, character="Goon", count=2))
    asked = await table.slash("character delete", user=GM, character="Goon 1")
    await table.click(asked.message, "Delete character", user=GM)
    again = public(await table.slash("character copy", user=GM, character="goon 2", count=2))
    assert "**Goon 3** to **Goon 4**" in again, again
    one = public(await table.slash("character copy", user=GM, character="Goon", count=1,
                                   name="Thug"))
    assert "made 1 NPC copy of **Goon** (level 40/40, 2 items, 2 abilities): **Thug 1**." in one
    assert await names(table) == ["Goon", "Goon 2", "Goon 3", "Goon 4", "Thug 1"]


async def test_a_pc_copied_makes_npcs_that_no_player_owns(table: Table) -> None:
    await add_character(table, "Ana", level=45)
    text = public(await table.slash("character copy", user=GM, character="Ana", count=2))
    assert "2 NPC copies of **Ana**" in text
    for name in ("Ana 1", "Ana 2"):
        assert (await stored(table, name)).npc
    latest, pcs = await table.bot.store.characters.latest_pc(GUILD_ID, ALICE.id)
    assert pcs == 1 and latest is not None and latest.name == "Ana"
    sheet = await table.slash("sheet", user=ALICE)
    assert "Ana · PC" in sheet.content


async def test_a_name_too_long_is_refused_and_nothing_is_made(table: Table) -> None:
    await add_character(table, "G" * 30, user=GM, npc=True)
    public(await table.slash("character copy", user=GM, character="G" * 30, count=9))
    before = await names(table)
    reply = await table.slash("character copy", user=GM, character="G" * 30, count=2)
    refused(reply, f"“{'G' * 30} 11” would be 33 characters; a name has at most 32.",
            "`name:`", "Nothing was made.")
    assert await names(table) == before


async def test_a_name_taken_meanwhile_refuses_them_all(table: Table) -> None:
    await goon(table)
    entries = table.bot.store.characters.entries

    async def without_goon_3(guild_id: int):  # "Goon 3" made just after the names were read
        return [e for e in await entries(guild_id) if e.name != "Goon 3"]

    public(await table.slash("character copy", user=GM, character="Goon", count=3))
    table.bot.store.characters.entries = without_goon_3
    try:
        reply = await table.slash("character copy", user=GM, character="Goon", count=3)
    finally:
        del table.bot.store.characters.entries
    refused(reply, "already has a character called **Goon 3**", "nothing was made")
    assert await names(table) == ["Goon", "Goon 1", "Goon 2", "Goon 3"]


async def test_a_player_may_not_copy(table: Table) -> None:
    await goon(table)
    await add_character(table, "Ana")
    for name in ("Goon", "Ana"):
        refused(await table.slash("character copy", user=ALICE, character=name, count=2),
                "Only a GM may copy characters.")
    assert await names(table) == ["Ana", "Goon"]


async def test_count_is_declared_1_to_25(table: Table) -> None:
    command = next(c for c in table.synced[-1][1] if c["name"] == "character")
    copy = next(o for o in command["options"] if o["name"] == "copy")
    options = {o["name"]: o for o in copy["options"]}
    assert (options["count"]["min_value"], options["count"]["max_value"]) == (1, 25)
    assert options["character"]["autocomplete"]


async def test_store_add_many_is_all_or_nothing(table: Table) -> None:
    store = table.bot.store.characters
    await store.add(guild_id=GUILD_ID, owner_id=GM.id, character=Character.new("B", npc=True))
    with pytest.raises(NameTaken):
        await store.add_many(guild_id=GUILD_ID, owner_id=GM.id, characters=[
            Character.new(n, npc=True) for n in ("A", "b")])
    with pytest.raises(NameTaken):
        await store.add_many(guild_id=GUILD_ID, owner_id=GM.id, characters=[
            Character.new(n, npc=True) for n in ("C", "c")])
    assert await names(table) == ["B"]
    made = await store.add_many(guild_id=GUILD_ID, owner_id=GM.id, characters=[
        Character.new(n, npc=True) for n in ("C", "D")])
    assert [m.name for m in made] == ["C", "D"] and len({m.id for m in made}) == 2
    assert await names(table) == ["B", "C", "D"]


# -- placing several at once ---------------------------------------------------------------------


async def test_copies_join_a_fight_at_once_in_one_step(table: Table) -> None:
    await goon(table)
    await add_character(table, "Boss", user=GM, npc=True, level=60)
    public(await table.slash("character copy", user=GM, character="Goon", count=5))
    await start_fight(table, user_of={})
    reply = await table.slash("combat addmany", user=GM, characters="Goon 1-5, boss",
                              area="Bar", team="Crew")
    assert public(reply) == ("Goon 1-5 and Boss join the fight "
                             "for Crew in Bar." + OTHER_SIDE)
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None
    assert [(f.name, f.team, f.area) for f in fight.state.fighters] == [
        *((f"Goon {n}", "Crew", "Bar") for n in range(1, 6)), ("Boss", "Crew", "Bar")]
    assert fight.state.fighters[0].character.held("right") == 0  # the knife, in hand
    log = await table.bot.store.combats.log(fight.id)
    assert len(log) == 1  # one step: one undo takes them all back
    public(await table.slash("combat undo", user=GM))
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None and fight.state.fighters == ()


async def test_pcs_and_npcs_without_a_team_join_their_own(table: Table) -> None:
    await add_character(table, "Ana")
    await add_character(table, "Goon", user=GM, npc=True)
    await start_fight(table, user_of={})
    reply = await table.slash("combat addmany", user=GM, characters="Ana, Goon",
                              area="Dance Floor")
    assert public(reply) == ("Ana joins the fight for PCs in Dance Floor.\n"
                             "Goon joins the fight for NPCs in Dance Floor." + ADD_MORE)


async def test_one_refused_refuses_them_all(table: Table) -> None:
    await goon(table)
    public(await table.slash("character copy", user=GM, character="Goon", count=3))
    await table.slash("combat start", user=GM, map="Nightclub", channel=OTHER_CHANNEL_ID)
    public(await table.slash("combat add", user=GM, channel=OTHER_CHANNEL_ID,
                             character="Goon 2", area="Bar"))
    await start_fight(table, user_of={})
    refused(await table.slash("combat addmany", user=GM, characters="Goon 1-3", area="Bar"),
            f"Goon 2 is already in the fight in <#{OTHER_CHANNEL_ID}>")
    refused(await table.slash("combat addmany", user=GM, characters="Goon 1-4", area="Bar"),
            "no character called “Goon 4”", "Nobody was added")
    refused(await table.slash("combat addmany", user=GM, characters="Goon, Goon 1",
                              area="Nowhere"), "There is no area called 'Nowhere'")
    public(await table.slash("combat add", user=GM, character="Goon 3", area="Bar"))
    refused(await table.slash("combat addmany", user=GM, characters="Goon 1, Goon 3",
                              area="Bar"), "Goon 3 is already in this combat.")
    fight = await table.bot.fights.fight(CHANNEL_ID)
    assert fight is not None and [f.name for f in fight.state.fighters] == ["Goon 3"]


async def test_at_most_25_at_once(table: Table) -> None:
    await add_character(table, "Goon", user=GM, npc=True)
    public(await table.slash("character copy", user=GM, character="Goon", count=25))
    public(await table.slash("character copy", user=GM, character="Goon", count=1))
    await start_fight(table, user_of={})
    refused(await table.slash("combat addmany", user=GM, characters="Goon 1-26", area="Bar"),
            "That is 26 characters; one command adds at most 25. Nobody was added.")
    text = public(await table.slash("combat addmany", user=GM, characters="Goon 1-25",
                                    area="Bar"))
    assert text == "Goon 1-25 join the fight for NPCs in Bar." + OTHER_SIDE


async def test_a_player_places_only_their_own_pcs(table: Table) -> None:
    await add_character(table, "Ana")
    await add_character(table, "Bea")
    await add_character(table, "Bob's PC", user=BOB)
    await add_character(table, "Goon", user=GM, npc=True)
    await start_fight(table, user_of={})
    for names_typed in ("Ana, Goon", "Ana, Bob's PC"):
        refused(await table.slash("combat addmany", characters=names_typed, area="Bar"),
                "Players may add only their own PC")
    text = public(await table.slash("combat addmany", characters="Ana, Bea", area="Bar"))
    assert text == "Ana and Bea join the fight for PCs in Bar." + OTHER_SIDE


async def test_the_list_autocompletes_names_and_ranges(table: Table) -> None:
    await goon(table)
    await add_character(table, "Ana")
    public(await table.slash("character copy", user=GM, character="Goon", count=5))
    await start_fight(table, user_of={})
    offered = await table.autocomplete("combat addmany", "characters", user=GM,
                                       characters="goon")
    assert offered[:3] == ["Goon 1-5", "Goon", "Goon 1"]
    offered = await table.autocomplete("combat addmany", "characters", user=GM,
                                       characters="Goon 1-5, a")
    assert offered == ["Goon 1-5, Ana"]
    assert await table.autocomplete("combat addmany", "characters", user=ALICE,
                                    characters="") == ["Ana"]
    assert "Bar" in await table.autocomplete("combat addmany", "area", user=GM,
                                             characters="Ana", area="")
