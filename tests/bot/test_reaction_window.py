"""The one reaction window through the real dispatch path: a Blast's Defend is an answer of a
reaction window like any other, so the typed `/defend` answers it as its button does."""

from __future__ import annotations

import pytest

from testbed.harness import ALICE, GM, Table

pytestmark = pytest.mark.both_engines


async def _blast_fight(table: Table) -> None:
    """Ana (Alice's, Blast, a grenade in hand) in the Entrance; Goon (an NPC) on the dance
    floor; the PCs act first."""
    for step in (
        table.slash("character create", user=ALICE, name="Ana", level=50),
        table.slash("character ability add", user=ALICE, character="Ana", ability="aoe.blast"),
        table.slash("character item add", user=ALICE, character="Ana", name="Grenade",
                    kind="aoe", ability="aoe.blast"),
        table.slash("character item hold", user=ALICE, character="Ana", item="Grenade"),
        table.slash("character create", user=GM, name="Goon", level=25, npc=True),
        table.slash("combat start", user=GM, map="Nightclub"),
        table.slash("combat add", user=ALICE, character="Ana", area="Entrance"),
        table.slash("combat add", user=GM, character="Goon", area="Dance Floor"),
    ):
        done = await step
        assert not done.ephemeral, done.content
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "PCs first", user=ALICE)


async def test_a_typed_defend_answers_a_blast(table: Table) -> None:
    await _blast_fight(table)
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Tens die: 4", user=ALICE)
    assert chose.prompt.labels == ["Defend", "Take the damage", "Resolve now (GM)"]
    table.dice(9, 9)
    typed = await table.slash("defend", user=GM, **{"as": "Goon"})
    assert not typed.ephemeral, typed.content
    text = typed.answer.content
    assert "Goon defends against the blast." in text, text
    assert "Goon defends against the blast: 99" in text, text
    assert "Goon's Defend (99) does not beat 40." in text, text
