"""The GM's hand at the table: without `as:`, a GM acts as the one NPC the fight waits on, and
autocomplete offers each waiting NPC's options, labelled with whose they are, before `as:` is
filled; picking such a choice acts as that NPC."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Table
from tests.bot.fights import add_character, start_fight


async def _npcs_first(table: Table) -> None:
    """Ana (Alice's PC, 40), Goon (an NPC, 25) and Rat (an NPC, 20), each with a knife, on the
    dance floor; round 1, the NPCs act first."""
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await add_character(table, "Rat", user=GM, level=20, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Goon", "Dance Floor"),
                      ("Rat", "Dance Floor"), user_of={"Ana": ALICE})
    table.dice(8, 0, 2, 0)  # Ana 80 fails; Goon 20 succeeds: the NPCs win initiative
    begun = await table.slash("combat begin", user=GM)
    ordered = await table.click(begun.prompt, "NPCs first", user=GM)
    assert not ordered.answer.ephemeral, ordered.answer.content


async def _board(table: Table) -> str:
    return (await table.slash("combat status", user=GM)).content


async def test_without_as_a_gm_acts_as_the_one_npc_that_may_act(table: Table) -> None:
    await _npcs_first(table)
    before = await _board(table)
    several = await table.slash("attack", user=GM, target="Ana")
    assert several.ephemeral
    assert several.content == "Say which character acts with `as:`: Goon, Rat."
    assert await _board(table) == before  # nothing changed

    await table.slash("combat set", user=GM, character="Rat", actions=0)
    declared = await table.slash("attack", user=GM, target="Ana")  # Goon, the only one left
    assert not declared.answer.ephemeral, declared.answer.content
    assert declared.answer.content.startswith("Goon attacks Ana"), declared.answer.content
    table.dice(8, 7)  # 87 against 25: a miss
    missed = await table.click(declared.prompt, "Pass", user=ALICE)
    assert "Goon's attack misses." in missed.answer.content, missed.answer.content

    # The PCs' turn: Ana attacks Goon, and the reaction window asks Goon alone (Rat, with an
    # action too, is not attacked), so a GM's /defend is Goon's.
    for npc in ("Goon", "Rat"):
        await table.slash("combat set", user=GM, character=npc, actions=1)
    attacked = await table.slash("attack", target="Goon")
    assert "may react" in attacked.prompt.content, attacked.prompt.content
    table.dice(8, 7, 1, 2, 3, 4, 6, 2)  # Ana 87 misses, Goon defends with 12; round 2 begins
    defended = await table.slash("defend", user=GM)
    assert not defended.answer.ephemeral, defended.answer.content
    assert defended.answer.content.startswith("Goon defends"), defended.answer.content


async def test_without_as_a_gm_is_asked_who_when_no_npc_is_waited_on(table: Table) -> None:
    await _npcs_first(table)
    done = await table.slash("done", user=GM)  # the NPCs' turn ends: the PCs act
    assert not done.answer.ephemeral, done.answer.content
    refused = await table.slash("attack", user=GM, target="Ana")
    assert refused.ephemeral and refused.content == "Say which character acts with `as:`."
    nobody = await table.slash("defend", user=GM)
    assert nobody.ephemeral and nobody.content == "Say which character acts with `as:`."


async def test_a_gms_autocomplete_offers_each_waiting_npcs_options_by_name(
        table: Table) -> None:
    await _npcs_first(table)
    offered = await table.autocomplete_choices("attack", "target", user=GM)
    assert [c["name"] for c in offered] == ["Ana — Goon's target", "Rat — Goon's target",
                                            "Ana — Rat's target", "Goon — Rat's target"]
    # Typing an NPC's name offers that NPC's own choices first, its enemies first; then the
    # others' attacks on it.
    assert await table.autocomplete("attack", "target", user=GM, target="rat") == [
        "Ana — Rat's target", "Goon — Rat's target", "Rat — Goon's target"]
    rats = next(c["value"] for c in offered if c["name"] == "Ana — Rat's target")
    # The other options follow the pick: Rat's weapons, with nothing left to say.
    assert await table.autocomplete("attack", "with", user=GM, target=rats) == ["Knife"]
    assert await table.autocomplete("move", "to", user=GM, to="bar") == [
        "Bar — Goon's move", "Bar — Rat's move"]
    # `as:` filled: that NPC's options, as they are.
    assert await table.autocomplete("attack", "target", user=GM, **{"as": "Rat"}) == [
        "Ana", "Goon"]

    declared = await table.slash("attack", user=GM, target=rats)
    assert not declared.answer.ephemeral, declared.answer.content
    assert declared.answer.content.startswith("Rat attacks Ana"), declared.answer.content


async def test_a_pick_for_one_npc_and_as_for_another_are_refused(table: Table) -> None:
    await _npcs_first(table)
    offered = await table.autocomplete_choices("attack", "target", user=GM)
    rats = next(c["value"] for c in offered if c["name"] == "Ana — Rat's target")
    before = await _board(table)
    refused = await table.slash("attack", user=GM, target=rats, **{"as": "Goon"})
    assert refused.ephemeral
    assert refused.content == ("Those options are for different characters (Goon, Rat): pick "
                               "them for one, or say who acts with `as:`. Nothing was changed.")
    # A player sending a GM's pick is refused like an order to the NPC.
    forged = await table.slash("attack", user=ALICE, target=rats)
    assert forged.ephemeral and forged.content == "Only a GM can give orders to Rat."
    assert await _board(table) == before
    # Typed by hand, the plain name works as it always did.
    typed = await table.slash("attack", user=GM, target="Ana", **{"as": "Rat"})
    assert typed.answer.content.startswith("Rat attacks Ana"), typed.answer.content


async def test_a_players_autocomplete_is_their_fighters_and_a_gms_reaction_the_npc_asked(
        table: Table) -> None:
    await _npcs_first(table)
    assert await table.autocomplete("attack", "target", user=ALICE) == ["Goon", "Rat"]
    assert await table.autocomplete("attack", "target", user=BOB) == []  # no fighter here
    await table.slash("done", user=GM)
    attacked = await table.slash("attack", target="Goon")
    assert "may react" in attacked.prompt.content, attacked.prompt.content
    assert await table.autocomplete("attack", "target", user=GM) == []  # nobody acts now
    offered = await table.autocomplete_choices("counterattack", "with", user=GM)
    assert [c["name"] for c in offered] == ["Knife — Goon's weapon"]
    table.dice(8, 7, 8, 6, 3, 4, 6, 2)  # both miss; round 2 begins
    countered = await table.slash("counterattack", user=GM, **{"with": offered[0]["value"]})
    assert not countered.answer.ephemeral, countered.answer.content
    assert countered.answer.content.startswith("Goon counterattacks"), countered.answer.content


async def test_a_gms_item_choices_and_hands_panel_are_the_waiting_npcs(table: Table) -> None:
    await _npcs_first(table)
    assert await table.autocomplete("item drop", "item", user=GM) == [
        "Knife — Goon's item to drop", "Knife — Rat's item to drop"]
    assert await table.autocomplete("item hands", "right", user=GM, right="goon") == [
        "empty — Goon's right hand", "Knife — Goon's right hand"]
    several = await table.slash("item hands", user=GM)
    assert several.ephemeral and several.content.endswith(": Goon, Rat.")
    offered = await table.autocomplete_choices("item drop", "item", user=GM, item="rat")
    dropped = await table.slash("item drop", user=GM, item=offered[0]["value"])
    assert dropped.answer.content.startswith("Rat drops Knife"), dropped.answer.content
    await table.slash("combat set", user=GM, character="Rat", actions=0)
    panel = (await table.slash("item hands", user=GM)).answer
    assert panel.ephemeral and panel.content.startswith("**Goon's hands**"), panel.content
