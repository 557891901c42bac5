"""A GM's NPCs by the dozen: `/character list` in natural order, a page at a time, copies
that read the same on one line; every character-name autocomplete in natural order with what
was typed first; My options and `/attack target:` with the enemies first; the map's notes
left out of My options' Items."""

from __future__ import annotations

import re

import pytest

from testbed.harness import ALICE, BOB, GM, GUILD_ID, Message, Reply, Table
from tests.bot.fights import add_character, begin_pcs_first, copy_npc, start_fight

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
    await copy_npc(table, "Thug", count)


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


# -- autocomplete ------------------------------------------------------------------------------


async def test_every_character_option_offers_what_was_typed_first_in_natural_order(
        table: Table) -> None:
    await thugs(table, 31)
    await add_character(table, "Big Thug 2", user=GM, npc=True, weapon=None)
    first = [f"Thug {n}" for n in range(1, 25)]  # 25 at most: Thug, then Thug 1 to Thug 24
    npcs = [f"{name} (NPC)" for name in ["Thug", *first]]
    for command, option in (("sheet", "character"), ("character advance", "character"),
                            ("character export", "character"), ("roll", "as"),
                            ("session join", "character")):
        assert await table.autocomplete(command, option, user=GM,
                                        **{option: "Thug"}) == npcs, command
        # what starts with what was typed, then what holds it
        assert await table.autocomplete(command, option, user=GM, **{option: "thug 2"}) == [
            "Thug 2 (NPC)", *(f"Thug {n} (NPC)" for n in range(20, 30)),
            "Big Thug 2 (NPC)"], command
    assert await table.autocomplete("combat add", "character", user=GM,
                                    character="Thug") == ["Thug", *first]
    # A range first (it names many at once), then the names.
    assert await table.autocomplete("combat addmany", "characters", user=GM,
                                    characters="Thug 1-5, thug") == [
        "Thug 1-5, Thug 1-31", *(f"Thug 1-5, {n}" for n in ["Thug", *first[:23]])]


# -- in a fight --------------------------------------------------------------------------------


def menu(panel: Message, placeholder: str) -> list[str]:
    """The entries of the panel's menu with this placeholder."""
    return [o["label"] for s in panel.selects() if s.get("placeholder") == placeholder
            for o in s["options"]]


async def test_my_options_items_leave_the_maps_notes_to_item_use(table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Entrance"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE})  # the nightclub notes "PCs may start here"
    await begin_pcs_first(table)
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    panel = (await table.click(turn, "My options")).message
    assert menu(panel, "Items…") == ["Use Knife", "Stow Knife (right hand)",
                                     "Drop Knife (right hand)"]
    # Typed with `/item use`, a noted thing is still there to use.
    assert await table.autocomplete("item use", "what") == ["Knife", "PCs may start here"]


async def npcs_turn_with_a_crowd(table: Table) -> Message:
    """Thug 1-20 (20, knives), the Boss (60), Thug 21-30, then Ana and Bo (PCs), all on the
    dance floor; the NPCs act. The GM's My options panel."""
    await thugs(table, 30)
    await add_character(table, "Boss", user=GM, level=60, npc=True)
    await add_character(table, "Ana", level=40)
    await add_character(table, "Bo", user=BOB, level=30)
    await start_fight(table, user_of={})
    for names in ("Thug 1-20, Boss", "Thug 21-30"):
        done(await table.slash("combat addmany", user=GM, characters=names, area="Dance Floor"))
    for name, user in (("Ana", ALICE), ("Bo", BOB)):
        done(await table.slash("combat add", user=user, character=name, area="Dance Floor"))
    table.dice(3, 4, 6, 2)  # Ana (PCs) 34 beats the Boss's 62
    await table.slash("combat begin", user=GM)
    await table.click(table.channel_messages()[-1], "NPCs first", user=ALICE)
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    return (await table.click(turn, "My options", user=GM)).message


async def test_an_npc_attacks_its_enemies_first(table: Table) -> None:
    panel = await npcs_turn_with_a_crowd(table)
    boss = (await table.pick(panel, "Boss", user=GM)).message
    assert "What will **Boss** do?" in boss.content
    attacks = menu(boss, "Attack…")
    assert attacks[:6] == [
        "Ana with Knife", "Bo with Knife",  # the other team first
        "Ana with Knife (less-lethal)", "Bo with Knife (less-lethal)",
        "Thug 1 with Knife", "Thug 2 with Knife"]
    assert len(attacks) == 25 and "(less-lethal)" not in "".join(attacks[4:])
    # `/attack target:`: as the Boss, and for a GM who types the Boss's name.
    assert (await table.autocomplete("attack", "target", user=GM, **{"as": "Boss"}))[:3] == [
        "Ana", "Bo", "Thug 1"]
    assert (await table.autocomplete("attack", "target", user=GM, target="boss"))[:3] == [
        "Ana — Boss's target", "Bo — Boss's target", "Thug 1 — Boss's target"]
    assert (await table.autocomplete("attack", "target", user=GM))[:3] == [
        "Ana — Thug 1's target", "Bo — Thug 1's target", "Thug 2 — Thug 1's target"]
