"""Reaction windows as the table sees them: what the announcement offers (a less-lethal
Counterattack or Intercept included), a Blast's Defend closing by itself like any window, and
a window that Continuous damage interrupted opening again with its time shown."""

from __future__ import annotations

from bot.cogs.combat.session import FightSession
from testbed.harness import ALICE, BOB, CHANNEL_ID, GM, Table
from tests.bot.fights import (
    add_character,
    ana_and_goon_on_the_dance_floor,
    begin_pcs_first,
    give_ammo,
    start_fight,
)
from tests.bot.test_aoe import _grenadier

NOW = 1_800_000_000.0  # the bot's clock, held still so the deadlines shown are known


def _cog(table: Table) -> FightSession:
    cog = table.bot.fights
    assert cog is not None
    return cog


async def test_the_announcement_says_a_counterattack_may_be_less_lethal(table: Table) -> None:
    await ana_and_goon_on_the_dance_floor(table)  # both with a knife
    declared = await table.slash("attack", target="Goon")
    assert ("Goon may defend or counterattack (lethal or less-lethal) or pass (within 45 "
            "seconds).") in declared.answer.content, declared.answer.content
    assert "Counterattack (less-lethal)" in declared.prompt.labels


async def test_an_intercept_with_lethal_ammo_only_says_nothing_of_less_lethal(
        table: Table) -> None:
    await add_character(table, "Ana", level=40)
    await add_character(table, "Cy", level=30)
    await add_character(table, "Rat", user=GM, level=24, npc=True,
                        weapon=("Pistol", "ranged_1h"))
    await give_ammo(table, "Rat")
    await start_fight(table, ("Ana", "Dance Floor"), ("Cy", "Alley"), ("Rat", "Dance Floor"),
                      user_of={"Ana": ALICE, "Cy": ALICE})
    await begin_pcs_first(table)
    moved = await table.slash("move", to="Bar", **{"as": "Ana"})
    text = moved.answer.content
    assert "Rat may intercept or pass (within 45 seconds)." in text, text
    assert "less-lethal" not in text and moved.prompt.labels == [
        "Intercept", "Pass", "Resolve now (GM)"]


async def _blast_on_goon(table: Table) -> Table:
    """Ana's Blast (40: 4 damage, one target) on Goon, who is asked to Defend."""
    await _grenadier(table, "aoe.blast")
    _cog(table).clock = lambda: NOW
    table.dice(4, 0)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    chose = await table.click(thrown.prompt, "Tens die: 4", user=ALICE)
    text = chose.answer.content
    assert ("Goon may Defend against the blast (spending an action) or take the damage "
            "(within 45 seconds).") in text, text
    asked = chose.prompt
    assert f"**Goon (GM)** is caught in a blast: Defend (beat the roll: no damage; it spends " \
           f"an action, none in All-Out Defend)? (closes <t:{int(NOW) + 45}:f>, " \
           f"<t:{int(NOW) + 45}:R>)" in asked.content, asked.content
    assert asked.labels == ["Defend", "Take the damage", "Resolve now (GM)"]
    return table


async def test_a_blast_defend_not_answered_in_time_is_no_defend(table: Table) -> None:
    await _blast_on_goon(table)
    asked = table.channel_messages()[-1]
    cog = _cog(table)
    assert not await cog.close_expired_window(CHANNEL_ID)  # not yet: 45 seconds to go
    cog.clock = lambda: NOW + 45
    assert await cog.close_expired_window(CHANNEL_ID)
    await table.settle()
    closed = next(m.content for m in table.channel_messages() if "Time is up" in m.content)
    assert ("The chance to Defend against the blast closes: time is up.\nGoon does not "
            "defend.") in closed, closed
    place = table.channel_messages()[-1]
    assert "**Goon (GM)** places the AoE damage" in place.content, place.content
    late = await table.click_stale(asked, "Defend", user=GM)
    assert late.ephemeral  # closed: the old button is refused
    log = await table.slash("combat log", user=GM)
    assert "Goon defends against the blast" not in log.content


async def test_a_gm_resolves_a_blast_defend_now_and_a_player_cannot(table: Table) -> None:
    await _blast_on_goon(table)
    asked = table.channel_messages()[-1]
    refused = await table.click(asked, "Resolve now (GM)", user=ALICE)
    assert refused.ephemeral and "GM" in refused.content, refused.content
    resolved = await table.click(asked, "Resolve now (GM)", user=GM)
    text = resolved.answer.content
    assert ("The chance to Defend against the blast closes: the GM resolves it now.\nGoon "
            "does not defend.") in text, text
    assert resolved.prompt.labels[:2] == ["Head", "Right arm"]


async def test_a_window_opens_again_with_its_time_after_continuous_damage(table: Table) -> None:
    made = await table.slash("character create", user=ALICE, name="Ana", level=50)
    assert not made.ephemeral, made.content
    for step in (
        table.slash("character ability add", user=ALICE, character="Ana",
                    ability="aoe.continuous"),
        table.slash("character item add", user=ALICE, character="Ana", name="Grenade",
                    kind="aoe", ability="aoe.continuous"),
        table.slash("character item hold", user=ALICE, character="Ana", item="Grenade"),
    ):
        done = await step
        assert not done.ephemeral, done.content
    await add_character(table, "Bram", user=BOB, level=45)
    await add_character(table, "Goon", user=GM, level=25, npc=True)
    await start_fight(table, ("Ana", "Dance Floor"), ("Bram", "Dance Floor"),
                      ("Goon", "Dance Floor"), user_of={"Ana": ALICE, "Bram": BOB})
    await begin_pcs_first(table)
    cog = _cog(table)
    cog.clock = lambda: NOW
    table.dice(4, 2)
    thrown = await table.slash("aoe", user=ALICE, area="Dance Floor")
    await table.click(thrown.prompt, "Tens die: 4", user=ALICE)  # 4 damage for 2 rounds
    # Bram attacks from inside the effect: the damage first, then Goon's window
    declared = await table.slash("attack", user=BOB, target="Goon")
    assert "Bram starts an action inside the Continuous effect" in declared.answer.content
    place = declared.prompt
    assert "closes" not in place.content  # the window waits for the damage
    for _ in range(3):
        place = (await table.click(place, "Torso", user=BOB)).prompt
    cog.clock = lambda: NOW + 30  # placing the damage took a while
    placed = await table.click(place, "Torso", user=BOB)
    text = placed.answer.content
    assert text.endswith("Goon may defend or counterattack (lethal or less-lethal) or pass "
                         "(within 45 seconds)."), text
    window = placed.prompt
    assert (f"**Goon (GM)** may react before the dice are rolled (closes "
            f"<t:{int(NOW) + 75}:f>, <t:{int(NOW) + 75}:R>)" in window.content), window.content
    assert not await cog.close_expired_window(CHANNEL_ID)
    cog.clock = lambda: NOW + 75
    table.dice(3, 5)
    assert await cog.close_expired_window(CHANNEL_ID)  # the full time, counted again
