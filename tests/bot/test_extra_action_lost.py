"""An extra action a critical success gives must be used during the round (004 "Actions"); one
won late in the round, on a Blast's Defend, is lost at the round's end, and the table is told,
through the real dispatch path."""

from __future__ import annotations

from testbed.harness import ALICE, GM, Table


async def _grenadier_after_goon_passed(table: Table) -> None:
    """Ana (Alice's, 50, a Blast grenade) at the Entrance, Goon (NPC, 25) on the Dance Floor;
    round 1: the NPCs first, and Goon passes, keeping his action."""
    made = await table.slash("character create", user=ALICE, name="Ana", level=50)
    assert not made.ephemeral, made.content
    for step in (
        table.slash("character ability add", user=ALICE, character="Ana", ability="aoe.blast"),
        table.slash("character item add", user=ALICE, character="Ana", name="Grenade",
                    kind="aoe", ability="aoe.blast"),
        table.slash("character item hold", user=ALICE, character="Ana", item="Grenade"),
        table.slash("character create", user=GM, name="Goon", level=25, npc=True),
    ):
        done = await step
        assert not done.ephemeral, done.content
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, area, user in (("Ana", "Entrance", ALICE), ("Goon", "Dance Floor", GM)):
        added = await table.slash("combat add", user=user, character=name, area=area)
        assert not added.ephemeral, added.content
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    begun = await table.slash("combat begin", user=GM)
    await table.click(begun.prompt, "NPCs first", user=ALICE)
    passed = await table.slash("done", user=GM)
    assert "Turn: PCs." in passed.answer.content, passed.answer.content


async def test_an_extra_action_won_on_a_blasts_defend_at_the_rounds_end_is_told_lost(
        table: Table) -> None:
    await _grenadier_after_goon_passed(table)
    table.dice(1, 0)  # Ana's blast: 10 against 50
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Tens die: 1", user=ALICE)
    table.dice(2, 2)  # Goon's Defend: 22 against 25, a critical success that beats 10
    defended = await table.click(chose.prompt, "Defend", user=GM)
    critical = defended.prompt
    assert critical.labels == ["Extra action", "Adjust"], critical.labels
    table.dice(3, 4, 6, 2)  # the round ends with Ana's blast: round 2's initiative
    extra = await table.click(critical, "Extra action", user=GM)
    text = extra.answer.content
    assert "Goon takes an extra action this round." in text, text
    text = extra.posted("Round 1 ends.").content  # the round's end: at the bottom
    assert ("Round 1 ends.\n"
            "Goon's extra action from a critical success is lost: it had to be used this "
            "round.\n"
            "Round 2 begins.") in text, text
    log = await table.slash("combat log", user=ALICE)
    assert "Goon's extra action from a critical success is lost" in log.content
