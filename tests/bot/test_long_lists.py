"""A GM's NPCs by the dozen: `/character list` in natural order, a page at a time, copies
that read the same on one line; every character-name autocomplete in natural order with what
was typed first; My options and `/attack target:` with the enemies first; the map's notes
left out of My options' Items."""

from __future__ import annotations

import re

import pytest

from tests.bot.fights import add_character
from tests.harness import ALICE, BOB, GM, GUILD_ID, Reply, Table

pytestmark = pytest.mark.both_engines


def listed(reply: Reply) -> list[str]:
    """The names `/character list` shows, in order."""
    return re.findall(r"^• \*\*(.+?)\*\* · ", reply.content, re.M)


def done(reply: Reply) -> str:
    assert reply.kind == "message" and not reply.answer.ephemeral, reply.content
    return reply.answer.content


async def thugs(table: Table, count: int) -> None:
    """Thug (an NPC at level 20 with a knife) and its copies Thug 1 to Thug ``count``."""
    await add_character(table, "Thug", user=GM, level=20, npc=True)
    while count:
        step = min(count, 25)
        done(await table.slash("character copy", user=GM, character="Thug", count=step))
        count -= step


# -- /character list ---------------------------------------------------------------------------


async def test_a_long_list_goes_page_by_page_in_natural_order(table: Table) -> None:
    await add_character(table, "Ana", weapon=None)
    for n in range(1, 63):  # levels that differ: no two of them share a line
        done(await table.slash("character create", user=GM, name=f"Goon {n}", npc=True,
                               level=n))
    first = await table.slash("character list", user=BOB)
    assert first.ephemeral
    assert first.content.splitlines()[0] == (
        "🧍 **Characters on this server** (63), page 1 of 4:")
    assert first.content.splitlines()[1] == f"• **Ana** · PC of {ALICE.mention}, level 50/50 · fine"
    page = first.message
    assert [(b.label, b.disabled) for b in page.buttons] == [("Previous", True), ("Next", False)]
    shown = listed(first)
    for number in (2, 3, 4):
        turned = await table.click(page, "Next", user=BOB)
        assert turned.kind == "update" and turned.message.id == page.id
        assert f"(63), page {number} of 4:" in turned.content
        shown += listed(turned)
    assert shown == ["Ana", *(f"Goon {n}" for n in range(1, 63))]  # Goon 2 before Goon 10
    assert [b.disabled for b in table.message(page.id).buttons] == [False, True]
    back = await table.click(page, "Previous", user=BOB)
    assert "page 3 of 4" in back.content and listed(back)[0] == "Goon 40"


async def test_a_page_press_reads_the_list_as_it_is_now(table: Table) -> None:
    for n in range(1, 26):
        done(await table.slash("character create", user=GM, name=f"Goon {n}", npc=True,
                               level=30 + n))
    page = (await table.slash("character list")).message
    characters = table.bot.store.characters
    for n in range(2, 26):  # deleted since the list was shown
        gone = await characters.get(GUILD_ID, f"Goon {n}")
        assert gone is not None and await characters.delete(gone.id, gone.created_at)
    turned = await table.click(page, "Next")
    assert turned.content == "🧍 **Characters on this server** (1):\n" \
        "• **Goon 1** · NPC, level 31/31 · fine"
    assert table.message(page.id).buttons == []  # one page: nothing to turn


async def test_copies_that_read_the_same_share_a_line(table: Table) -> None:
    await thugs(table, 30)
    await add_character(table, "Ana", weapon=None)
    done(await table.slash("character advance", user=GM, character="Thug 7"))
    reply = await table.slash("character list")
    assert reply.content.splitlines() == [
        "🧍 **Characters on this server** (32):",
        f"• **Ana** · PC of {ALICE.mention}, level 50/50 · fine",
        "• **Thug** · NPC, level 20/20 · fine",
        "• **Thug 1-6,8-30** · NPC, level 20/20 · fine",  # as the board folds them
        "• **Thug 7** · NPC, level 20/21 · fine",
    ]
