"""`/combat orders`: a fighter's standing orders set from the panel (one step each, told only to
the user), shown on My options, followed when a reaction window's time runs out without the
player's answer ("(standing order)" in the channel), skipped and said when the window would
not take them; another player's PC is not theirs to order. The fights' clock is moved past
the window's deadline, never waited for."""

from __future__ import annotations

import pytest

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Message, Table
from tests.bot.fights import add_character, begin_pcs_first, start_fight

pytestmark = pytest.mark.both_engines

NOW = 1_800_000_000.0  # the bot's clock, held still so the deadline is known
DEFEND = "When attacked: defend with Riot shield"


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert cog is not None
    return cog


async def _ana_with_a_shield(table: Table, *, holding: bool = True) -> None:
    """Ana (Alice's, 40: a knife, a riot shield in the left hand or in the pack), Bram (Bob's)
    and Goon (an NPC with a knife) on the dance floor; the PCs act first."""
    await add_character(table, "Ana", level=40)
    added = await table.slash("character item add", character="Ana", name="Riot shield",
                              kind="shield")
    assert not added.ephemeral, added.content
    if holding:
        held = await table.slash("character item hold", character="Ana", item="Riot shield",
                                 hand="left")
        assert not held.ephemeral, held.content
    await add_character(table, "Bram", user=BOB, level=30)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Kitchen"), ("Goon", "Dance Floor"),
                      user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)


def _defaults(panel: Message) -> list[str]:
    return [o["label"] for s in panel.selects() for o in s["options"] if o.get("default")]


async def _goon_attacks_ana_and_time_runs_out(table: Table) -> str:
    """The PCs end their turn, Goon attacks Ana, nobody answers: the window closes when its
    deadline passes. What the channel is told then."""
    turn = next(m for m in reversed(table.channel_messages()) if "Done (PCs)" in m.labels)
    done = await table.click(turn, "Done (PCs)", user=ALICE)
    assert not done.ephemeral, done.content
    cog = _cog(table)
    cog.clock = lambda: NOW
    attacked = await table.slash("attack", user=GM, target="Ana", **{"as": "Goon"})
    assert "Ana may defend or counterattack" in attacked.answer.content, attacked.answer.content
    table.dice(7, 0, 8, 1, 3, 4, 6, 2)  # both fail; then round 2's initiative
    assert not await cog.close_expired_window(CHANNEL_ID)  # not yet
    cog.clock = lambda: NOW + 45
    assert await cog.close_expired_window(CHANNEL_ID)
    await table.settle()
    return next(m.content for m in table.channel_messages() if "Time is up" in m.content)


async def test_an_order_set_from_the_panel_is_shown_and_followed_when_time_is_up(
        table: Table) -> None:
    await _ana_with_a_shield(table)
    opened = await table.slash("combat orders")
    panel = opened.answer
    before = [m.id for m in table.channel_messages()]
    assert panel.ephemeral
    assert "**Ana's standing orders**" in panel.content and "Now: no standing orders." in \
        panel.content, panel.content
    assert _defaults(panel) == ["When attacked: no standing order",
                                "When an enemy moves past: no standing order",
                                "When caught in a blast: no standing order"]
    assert [o["label"] for o in panel.selects()[0]["options"]] == [
        "When attacked: no standing order", DEFEND, "When attacked: defend",
        "When attacked: counterattack", "When attacked: pass"]
    picked = await table.pick(panel, DEFEND)
    assert picked.kind == "update" and picked.answer.id == panel.id
    shown = table.message(panel.id)
    assert shown.content.startswith("Saved: when attacked, Ana will defend with Riot shield."), \
        shown.content
    assert "Now: when attacked: defend with Riot shield." in shown.content
    assert _defaults(shown)[0] == DEFEND
    # The table is told nothing (the prompt asks what it asked: it stays, no new message).
    new = [m for m in table.channel_messages() if m.id not in before]
    assert not any("standing order" in m.content or "Riot shield" in m.content for m in new)

    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    mine = await table.click(turn, "My options", user=ALICE)
    assert "-# Standing orders: when attacked: defend with Riot shield." in mine.content, \
        mine.content

    closed = await _goon_attacks_ana_and_time_runs_out(table)
    assert "The reaction window closes: time is up.\nAna defends (standing order)." in closed, \
        closed
    log = await table.slash("combat log", user=GM)
    assert "Ana defends (standing order)." in log.content


async def test_an_order_not_possible_then_is_skipped_and_said(table: Table) -> None:
    await _ana_with_a_shield(table, holding=False)  # the shield is in the pack
    panel = (await table.slash("combat orders")).answer
    await table.pick(panel, DEFEND)
    closed = await _goon_attacks_ana_and_time_runs_out(table)
    assert ("Ana's standing order to defend with Riot shield is skipped: no Riot shield in a "
            "usable hand.") in closed, closed
    assert "Ana defends" not in closed


async def test_an_answer_in_time_stands_and_the_order_can_be_cleared(table: Table) -> None:
    await _ana_with_a_shield(table)
    panel = (await table.slash("combat orders")).answer
    await table.pick(panel, "When attacked: counterattack")
    cleared = await table.pick(table.message(panel.id), "When attacked: no standing order")
    assert cleared.answer.content.startswith(
        "Saved: Ana has no standing order when attacked."), cleared.answer.content
    assert "Now: no standing orders." in cleared.answer.content
    turn = next(m for m in reversed(table.channel_messages()) if "My options" in m.labels)
    mine = await table.click(turn, "My options", user=ALICE)
    assert "Standing orders" not in mine.content


async def test_someone_elses_pc_is_not_theirs_to_order(table: Table) -> None:
    await _ana_with_a_shield(table)
    refused = await table.slash("combat orders", user=BOB, character="Ana")
    assert refused.ephemeral and "Only their player or a GM can give orders to Ana." in \
        refused.content, refused.content
    panel = (await table.slash("combat orders")).answer
    forged = await table.pick(panel, DEFEND, user=BOB)
    assert forged.ephemeral and "Only their player or a GM" in forged.content, forged.content
    assert "Now: no standing orders." in table.message(panel.id).content
    bob = (await table.slash("combat orders", user=BOB)).answer
    assert "**Bram's standing orders**" in bob.content, bob.content


async def test_a_gm_sets_an_npcs_orders(table: Table) -> None:
    await _ana_with_a_shield(table)
    panel = (await table.slash("combat orders", user=GM, character="Goon")).answer
    assert "**Goon's standing orders**" in panel.content, panel.content
    picked = await table.pick(panel, "When an enemy moves past: intercept", user=GM)
    assert "Saved: when an enemy moves past, Goon will intercept." in picked.answer.content
    table.dice(7, 0, 3, 4, 6, 2)  # Goon's Intercept fails; then what follows
    _cog(table).clock = lambda: NOW
    moved = await table.slash("move", to="Bar", **{"as": "Ana"})
    assert "Goon may intercept" in moved.answer.content, moved.answer.content
    _cog(table).clock = lambda: NOW + 45
    assert await _cog(table).close_expired_window(CHANNEL_ID)
    await table.settle()
    closed = next(m.content for m in table.channel_messages() if "Time is up" in m.content)
    assert "Goon intercepts with Knife (standing order)." in closed, closed
