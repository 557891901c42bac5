"""Thirty identical thugs tied for the NPCs' initiative, through the real dispatch path: copies
alike in all but their names are no choice, so the first rolls without asking and the tie line
folds them ("Thug 1-30"); a copy that differs is a choice of its own; and whoever tries to act
while initiative waits is told who must answer what."""

from __future__ import annotations

from testbed.harness import ALICE, BOB, GM, Reply, Table
from tests.bot.fights import add_character, copy_npc


async def _pcs_and_thirty_thugs(table: Table) -> Reply:
    """Ana (Alice's) and Bea (Bob's) share the PCs' level 50; thirty copies of a thug at 40 in
    the Bar for the NPCs. The fight begins; its answer."""
    await add_character(table, "Ana", level=50)
    await add_character(table, "Bea", user=BOB, level=50)
    await add_character(table, "Thug", user=GM, level=40, npc=True)
    await copy_npc(table, "Thug", 30)
    await table.slash("combat start", user=GM, map="Nightclub")
    for name, user in (("Ana", ALICE), ("Bea", BOB)):
        added = await table.slash("combat add", user=user, character=name, area="Dance Floor")
        assert not added.ephemeral, added.content
    for first in (1, 26):
        added = await table.slash("combat addmany", user=GM, area="Bar",
                                  characters=f"Thug {first}-{min(first + 24, 30)}")
        assert not added.ephemeral, added.content
    return await table.slash("combat begin", user=GM)


async def test_thirty_alike_thugs_are_no_choice_the_first_rolls(table: Table) -> None:
    begun = await _pcs_and_thirty_thugs(table)
    assert begun.answer.content == (
        "The fight begins.\nRound 1 begins.\n"
        "Ana and Bea share the highest level of PCs (50): PCs choose who rolls initiative.\n"
        "Thug 1-30 share the highest level of NPCs (40) and are alike: Thug 1 rolls, as any of "
        "them would.")
    asked = begun.prompt  # only the PCs are asked: nobody picks among thirty thugs
    assert asked.labels == ["Ana rolls", "Bea rolls"]
    assert asked.selects() == []
    assert "NPCs" not in asked.content

    # Whoever tries to act while initiative waits reads who must answer what.
    for user in (GM, ALICE):
        early = await table.slash("done", user=user)
        assert early.ephemeral
        assert early.content == (
            "Initiative is being decided: waiting for PCs to choose who rolls initiative "
            "(their players or a GM answer).")

    table.dice(3, 4, 2, 0)  # Bea's tens and ones, then Thug 1's
    chosen = await table.click(asked, "Bea rolls", user=BOB)
    assert chosen.said == (
        "PCs choose Bea to roll initiative.\n"
        "Bea rolls initiative for PCs: 34 (3·4) vs 50 — SUCCESS.\n"
        "Thug 1 rolls initiative for NPCs: 20 (2·0) vs 40 — SUCCESS.\n"
        "PCs win initiative and choose which team goes first.")
    late = await table.slash("done", user=BOB)
    assert late.content == ("Initiative is being decided: waiting for Bea to choose the order "
                            "of teams (their player or a GM answers).")


async def test_a_thug_that_differs_is_a_choice_of_its_own(table: Table) -> None:
    """Thug 7 is hurt: the NPCs choose between Thug 1 (for the 29 alike) and Thug 7, and the
    tie line still folds the thirty names."""
    await add_character(table, "Ana", level=50)
    await add_character(table, "Thug", user=GM, level=40, npc=True)
    await copy_npc(table, "Thug", 30)
    await table.slash("combat start", user=GM, map="Nightclub")
    await table.slash("combat add", user=ALICE, character="Ana", area="Dance Floor")
    for first in (1, 26):
        await table.slash("combat addmany", user=GM, area="Bar",
                          characters=f"Thug {first}-{min(first + 24, 30)}")
    hurt = await table.slash("combat set", user=GM, character="Thug 7", location="torso",
                             marks="X")
    assert not hurt.ephemeral, hurt.content
    begun = await table.slash("combat begin", user=GM)
    assert ("Thug 1-30 share the highest level of NPCs (40): NPCs choose who rolls "
            "initiative.") in begun.answer.content, begun.answer.content
    asked = begun.prompt
    assert asked.labels == ["Thug 1 rolls", "Thug 7 rolls"]
    refused = await table.click(asked, "Thug 7 rolls", user=ALICE)
    assert refused.ephemeral
    assert refused.content == "NPCs choose who rolls initiative for them: only a GM can."
    table.dice(3, 4, 2, 0)
    picked = await table.click(asked, "Thug 7 rolls", user=GM)
    assert "Thug 7 rolls initiative for NPCs: 20 (2·0) vs 40" in picked.answer.content, (
        picked.answer.content)
