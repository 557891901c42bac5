"""AoE through the real dispatch path: `/aoe area:`, then the buttons (the user's dice, the
target's Defend, the damaged player's placement), and the board's effects line."""

from __future__ import annotations

from bot.cogs.maps import render_block
from data import builtin_maps
from engine.maps import parse_map
from testbed.harness import ALICE, GM, OTHER_CHANNEL_ID, Table
from tests.bot.fights import add_character, give_ammo, start_fight


async def _grenadier(table: Table, ability: str, goon_knife: bool = False,
                    pcs_first: str = "PCs first") -> None:
    made = await table.slash("character create", user=ALICE, name="Ana", level=50)
    assert not made.ephemeral, made.content
    for step in (
        table.slash("character ability add", user=ALICE, character="Ana", ability=ability),
        table.slash("character item add", user=ALICE, character="Ana", name="Grenade",
                    kind="aoe", ability=ability),
        table.slash("character item hold", user=ALICE, character="Ana", item="Grenade"),
    ):
        done = await step
        assert not done.ephemeral, done.content
    goon = await table.slash("character create", user=GM, name="Goon", level=25, npc=True)
    assert not goon.ephemeral, goon.content
    if goon_knife:
        added = await table.slash("character item add", user=GM, character="Goon",
                                  name="Knife", kind="melee_1h")
        assert not added.ephemeral, added.content
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, area, user in (("Ana", "Entrance", ALICE), ("Goon", "Dance Floor", GM)):
        added = await table.slash("combat add", user=user, character=name, area=area)
        assert not added.ephemeral, added.content
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], pcs_first, user=ALICE)


async def test_a_blast_hits_the_enemy_who_places_the_damage(table: Table) -> None:
    await _grenadier(table, "aoe.blast")
    held = await table.slash("attack", user=ALICE, target="Goon")
    assert held.ephemeral and "use /aoe area:" in held.content, held.content
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    text = thrown.answer.content
    assert "Ana uses Grenade (Blast) on Dance Floor; Grenade is destroyed." in text, text
    dice = thrown.prompt
    assert dice.labels == ["Tens die: 4", "Ones die: 0"], dice.labels
    chose = await table.click(dice, "Tens die: 4", user=ALICE)
    assert "Ana chooses 4 damage and 0 additional targets." in chose.answer.content
    defend = chose.prompt
    assert defend.labels == ["Defend", "Take the damage", "Resolve now (GM)"]
    refused = await table.click(defend, "Take the damage", user=ALICE)
    assert refused.ephemeral  # the GM answers for Goon
    took = await table.click(defend, "Take the damage", user=GM)
    place = took.prompt
    assert place.labels == ["Head", "Right arm", "Left arm", "Torso", "Right leg", "Left leg"]
    for _ in range(3):
        place = (await table.click(place, "Torso", user=GM)).prompt
    last = await table.click(place, "Left leg", user=GM)
    assert "Goon" in last.answer.content
    status = await table.slash("combat status", character="Goon")
    assert "21" in status.content, status.content


async def test_the_board_shows_an_aoe_cover_and_when_it_ends(table: Table) -> None:
    await _grenadier(table, "aoe.cover")
    table.dice(3, 1)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Ones die: 1", user=ALICE)
    assert ("Cover all around Dance Floor until the end of round 2 (Ana)."
            in chose.answer.content), chose.answer.content
    board = await table.slash("combat status")
    assert ("\nEffects: Cover all around Dance Floor\n  until the end of round 2 (Ana)\n"
            in board.content), board.content


async def test_an_action_inside_a_continuous_effect_burns(table: Table) -> None:
    await _grenadier(table, "aoe.continuous", goon_knife=True)
    table.dice(4, 2)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Tens die: 4", user=ALICE)
    assert ("Continuous 4 damage in Dance Floor until the end of round 3 (Ana)."
            in chose.answer.content), chose.answer.content
    # the NPCs' turn: Goon takes his knife in hand, an action started inside the effect
    held = await table.slash("item hold", user=GM, item="Knife", **{"as": "Goon"})
    text = "\n".join(m.content for m in held.messages)
    assert ("Goon starts an action inside the Continuous effect in Dance Floor (Ana) and "
            "takes 4 damage.") in text, text
    place = held.prompt
    assert place.labels == ["Head", "Right arm", "Left arm", "Torso", "Right leg", "Left leg"]
    assert (await table.click(place, "Torso", user=ALICE)).ephemeral  # Goon's player places it
    for _ in range(3):
        place = (await table.click(place, "Torso", user=GM)).prompt
    table.dice(3, 4, 6, 2)  # the round ends with Goon's action: round 2's initiative
    await table.click(place, "Torso", user=GM)
    status = await table.slash("combat status", character="Goon")
    assert "21" in status.content, status.content


async def test_map_show_in_the_fight_draws_the_fights_map_and_its_effects(table: Table) -> None:
    await _grenadier(table, "aoe.cover")
    table.dice(3, 1)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    await table.click(thrown.prompt, "Ones die: 1", user=ALICE)
    shown = await table.slash("map show", user=ALICE, name="nightclub", view="list")
    text = shown.content
    assert "as this channel's fight has it (round 1)" in text, text
    effects = "**Effects in play:**\n• Cover all around Dance Floor until the end of round 2 (Ana)"
    assert effects in text, text
    drawn = parse_map(builtin_maps()["nightclub"])
    covered = render_block("", drawn.with_area_cover("Dance Floor"), "list").strip()
    plain = render_block("", drawn, "list").strip()
    assert covered != plain
    assert covered in text, text
    # in another channel, the map as drawn
    elsewhere = await table.slash("map show", user=ALICE, name="nightclub", view="list",
                                  channel=OTHER_CHANNEL_ID)
    assert plain in elsewhere.content and "Effects" not in elsewhere.content


async def test_a_demolish_on_a_hidden_characters_area_ends_stealth(table: Table) -> None:
    # RULINGS 23: "including losing stealth due to Demolish"; it comes back only after a Move.
    await add_character(table, "Ana", level=40, weapon=("Pistol", "ranged_1h"))
    gained = await table.slash("character ability add", user=ALICE, character="Ana",
                               ability="stealth.hide")
    assert not gained.ephemeral, gained.content
    await add_character(table, "Goon", user=GM, level=50, npc=True, weapon=None)
    for step in (
        table.slash("character ability add", user=GM, character="Goon", ability="aoe.demolish"),
        table.slash("character item add", user=GM, character="Goon", name="Charge",
                    kind="aoe", ability="aoe.demolish"),
        table.slash("character item hold", user=GM, character="Goon", item="Charge"),
    ):
        done = await step
        assert not done.ephemeral, done.content
    await add_character(table, "Rat", user=GM, level=50, npc=True,
                        weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Rat")
    await start_fight(table, ("Ana", "Bar"), ("Goon", "Dance Floor"), ("Rat", "Dance Floor"),
                      user_of={"Ana": ALICE})
    table.dice(6, 1, 2, 0)  # the NPCs win initiative with 20
    begun = await table.slash("combat begin", user=GM)
    rolled = await table.click(begun.prompt, "Goon rolls", user=GM)
    await table.click(rolled.prompt, "NPCs first", user=GM)
    board = await table.slash("combat status")
    assert "Ana [PCs] Bar 40/40 a1 hidden" in board.content, board.content
    table.dice(3, 4)
    thrown = await table.slash("aoe", user=GM, area="Bar", **{"as": "Goon"})
    text = thrown.answer.content
    assert "Demolished: no cover at Bar for the rest of the fight (Goon)." in text, text
    assert "Ana is no longer hidden (Demolish)." in text, text
    board = await table.slash("combat status")
    assert "Ana [PCs] Bar 40/40 a1\n" in board.content, board.content
    shot = await table.slash("attack", user=GM, target="Ana", **{"as": "Rat"})
    assert not shot.ephemeral, shot.content
    table.dice(2, 1, 3)
    hit = await table.click(shot.posted("may react"), "Pass", user=ALICE)
    text = "\n".join(m.content for m in hit.messages)
    assert "Rat hits Ana" in text, text
    assert "hidden (Stealth" not in text, text


async def test_a_german_table_reads_the_aoes_ability_by_its_german_name(table: Table) -> None:
    await table.slash("settings language", user=GM, language="de")
    table.locales[ALICE.id] = table.locales[GM.id] = "de"
    await _grenadier(table, "aoe.blast", pcs_first="SC zuerst")
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    text = thrown.answer.content
    assert "Ana setzt Grenade (Explosion) auf Dance Floor ein; Grenade wird zerstört." in text
    assert "Blast" not in text, text
