"""A GM with more NPCs acting than a menu holds (25): My options' "Whose options?" goes page
by page, so that every one of 31 goons can open their panel and act, through the real
dispatch path."""

from __future__ import annotations

from testbed.harness import ALICE, GM, Message, Table
from tests.bot.fights import add_character, copy_npc, start_fight


def whose(panel: Message) -> list[str]:
    """The entries of the panel's "Whose options?" menu."""
    return [o["label"] for s in panel.selects() if s.get("placeholder") == "Whose options?"
            for o in s["options"]]


async def test_the_gm_reaches_every_one_of_31_goons_a_page_at_a_time(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await copy_npc(table, "Goon", 31)
    await start_fight(table, ("Ana", "Dance Floor"), user_of={"Ana": ALICE})
    for names in ("Goon 1-25", "Goon 26-31"):
        added = await table.slash("combat addmany", user=GM, characters=names,
                                  area="Dance Floor")
        assert not added.ephemeral, added.content
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the NPCs' 62: Alice chooses
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "NPCs first", user=ALICE)
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    panel = (await table.click(turn, "My options", user=GM)).message
    assert "What will **Goon 1** do?" in panel.content, panel.content
    assert whose(panel) == [*(f"Goon {n}" for n in range(1, 24)), "Next: Goon 24-31"]

    later = (await table.pick(panel, "Next: Goon 24-31", user=GM)).message
    assert later.id == panel.id and "What will **Goon 24** do?" in later.content
    assert whose(later) == ["Previous: Goon 1-23", *(f"Goon {n}" for n in range(24, 32))]
    back = (await table.pick(later, "Previous: Goon 1-23", user=GM)).message
    assert "What will **Goon 1** do?" in back.content, back.content
    assert whose(back)[-1] == "Next: Goon 24-31", whose(back)

    later = (await table.pick(back, "Next: Goon 24-31", user=GM)).message
    last = (await table.pick(later, "Goon 31", user=GM)).message
    assert "What will **Goon 31** do?" in last.content, last.content
    attacked = await table.pick(last, "Ana with Knife", user=GM)
    said = "\n".join(m.content for m in attacked.messages)
    assert "Goon 31 attacks Ana with Knife" in said, said
